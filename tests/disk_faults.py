"""A disk that fills up mid-write, injected under kfdviz's atomic writer.

:class:`DiskFault` replaces the ``os.fdopen`` the atomic writer opens its temporary file with: once
armed, every file opened for writing takes ``room`` bytes and then fails as a full disk does
(``OSError`` with ``errno.ENOSPC``), after writing the part that fitted. Files opened for reading
are left alone. The ``disk_full`` fixture of ``conftest.py`` hands one out, disarmed.

Writers that open their files themselves (Qt's image, PDF and SVG writers) are tested on a real
full disk instead: :class:`SmallDisk` mounts a small tmpfs (which needs the right to mount, so
root; the ``small_disk`` fixture skips, saying so, elsewhere) and fills it up to a few kilobytes.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import subprocess
from pathlib import Path

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


class SmallDisk:
    """A tmpfs of ``size`` bytes mounted at ``folder``; :meth:`fill` leaves only a little room."""

    def __init__(self, folder: Path, size: int = 1 << 20):
        self.folder = Path(folder)
        self.size = size

    @contextlib.contextmanager
    def mounted(self):
        self.folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs", str(self.folder)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip()}): needs root")
        try:
            yield self
        finally:
            subprocess.run(["umount", "-l", str(self.folder)], check=False)

    def free(self) -> int:
        info = os.statvfs(self.folder)
        return info.f_bavail * info.f_frsize

    def fill(self, leave: int = 16384) -> None:
        """Take all the free room but ``leave`` bytes (in whole pages)."""
        with open(self.folder / "filler", "ab") as f:
            f.write(b"\0" * max(0, self.free() - leave))

    def temporaries(self) -> list[str]:
        return sorted(p.name for p in self.folder.iterdir() if p.name.endswith(".kfdviz-tmp"))
