"""A disk that fills up mid-write, injected under kfdviz's atomic writer.

:class:`DiskFault` replaces the ``os.fdopen`` the atomic writer opens its temporary file with: once
armed, every file opened for writing takes ``room`` bytes and then fails as a full disk does
(``OSError`` with ``errno.ENOSPC``), after writing the part that fitted. Files opened for reading
are left alone. The ``disk_full`` fixture of ``conftest.py`` hands one out, disarmed.
"""

from __future__ import annotations

import errno
import io
import os

import pytest

from kfdviz import atomic_file


class DiskFillsUp(io.RawIOBase):
    """A file that takes ``room`` bytes, then fails as a full disk does."""

    def __init__(self, real, room: int):
        self.real = real
        self.room = room

    def writable(self):
        return True

    def seekable(self):
        return self.real.seekable()

    def seek(self, *args):
        return self.real.seek(*args)

    def tell(self):
        return self.real.tell()

    def write(self, data):
        data = bytes(data)
        if len(data) > self.room:
            self.real.write(data[: self.room])
            self.real.flush()
            self.room = 0
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.room -= len(data)
        return self.real.write(data)

    def fileno(self):
        return self.real.fileno()

    def flush(self):
        if not self.real.closed:
            self.real.flush()

    def close(self):
        if not self.closed:
            self.real.close()
            super().close()


class DiskFault:
    """Arms a full disk under the atomic writer for the rest of one test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self._monkeypatch = monkeypatch

    def arm(self, room: int) -> None:
        """From now on every atomic write gets ``room`` bytes before ENOSPC."""
        real_fdopen = os.fdopen

        def fdopen(fd, mode="r", *args, **kwargs):
            f = real_fdopen(fd, mode, *args, **kwargs)
            return DiskFillsUp(f, room) if "w" in mode else f

        self._monkeypatch.setattr(atomic_file.os, "fdopen", fdopen)
