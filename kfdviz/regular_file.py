"""Reading a user's file with a size cap, refusing anything that is not a regular file (no Qt).

A path can name a FIFO (reading blocks until someone writes), a character device (``/dev/zero``
never ends) or a folder. :func:`read_regular` opens without blocking, checks what the opened
descriptor is (so a path swapped between a check and the open cannot slip through), and reads at
most ``max_bytes`` bytes, so a file growing while it is read cannot exhaust memory either.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable


class NotRegularFile(OSError):
    """The path exists but is not a regular file (a folder, a FIFO, a device, a socket)."""


class TooLarge(OSError):
    """The file holds more than the caller's limit; ``size`` is what was found (at least)."""

    def __init__(self, message: str, size: int):
        super().__init__(message)
        self.size = size


def kind_of(mode: int) -> str:
    """A word for what a non-regular file is, for error messages."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_regular(path, max_bytes: int, check_head: Callable[[bytes], None] | None = None) -> bytes:
    """The content of the regular file ``path``, at most ``max_bytes`` bytes long.

    ``check_head(first_block)`` sees the first block read (up to 1 MiB) before any more is read,
    and may raise to refuse the file without reading the rest of it.
    Raises FileNotFoundError, :class:`NotRegularFile`, :class:`TooLarge` or another OSError.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(os.fspath(path), flags)
    except IsADirectoryError:
        raise NotRegularFile(f"{os.fspath(path)} is a folder") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(f"{os.fspath(path)} is {kind_of(info.st_mode)}")
        if info.st_size > max_bytes:
            raise TooLarge(f"{os.fspath(path)} is larger than {max_bytes} bytes", info.st_size)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            if not chunks and check_head is not None:
                check_head(chunk)
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise TooLarge(f"{os.fspath(path)} is larger than {max_bytes} bytes", total)
        return b"".join(chunks)
    finally:
        os.close(fd)


__all__ = ["NotRegularFile", "TooLarge", "kind_of", "read_regular"]
