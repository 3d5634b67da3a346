"""Writing files so that a failed or killed save never damages what was there (no Qt here).

Every file kfdviz writes (sessions, decks, data files, data exports, benchmark reports) goes
through :func:`atomic_write`:

* the content is written to a temporary file in the target's folder (same file system, so the
  final rename is atomic), flushed and ``fsync``-ed, then renamed over the target; readers see the
  old file or the new one, never a part of either;
* an existing target keeps its permission bits; a new one gets the usual ones (``0o666`` less the
  umask), not the private ``0o600`` of :mod:`tempfile`;
* a symbolic link is followed: its target is replaced and the link stays a link;
* on any error (a full disk, an interrupted write) the temporary file is removed and the error
  propagates, naming the target (never the temporary file); a save killed outright leaves its temporary file behind, and the next save of the
  same target in that folder removes it.

Temporary names are ``.NAME.PID.RANDOM.kfdviz-tmp`` (hidden, recognisable, naming the process
that wrote them), so the leftovers of killed saves are told apart from a save still running in
another process.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

TEMP_SUFFIX = ".kfdviz-tmp"
# A leftover temporary file older than this is removed even if its process id is in use again.
STALE_SECONDS = 3600.0


def resolve_target(path) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or what its symlinks point to."""
    p = Path(os.fspath(path))
    if p.is_symlink():
        return Path(os.path.realpath(p))
    return p


def _temporary_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}")


def _name_the_target(exc: BaseException, temporary: Path, target: Path) -> None:
    """Make an ``OSError`` about the temporary file (or about no file) name ``target`` instead:
    the user asked for ``target`` and has never heard of the temporary file."""
    if isinstance(exc, OSError) and exc.filename in (None, str(temporary), temporary):
        exc.filename = str(target)
        exc.filename2 = None


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: assume it is still saving
    return True


def remove_leftovers(target) -> list[Path]:
    """Remove the temporary files of killed saves of ``target``; returns what was removed.

    A temporary file is a leftover when the process that made it is gone, or when it is older
    than :data:`STALE_SECONDS`. Errors are ignored: cleaning up is best effort.
    """
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        middle = name[len(prefix) : -len(TEMP_SUFFIX)].split(".")
        if len(middle) != 2 or not middle[0].isdigit():
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                continue
            if _process_alive(int(middle[0])) and now - info.st_mtime < STALE_SECONDS:
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it (best effort)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(
    path, *, text: bool = False, encoding: str = "utf-8", newline: str | None = None
) -> Iterator[IO]:
    """Open a stand-in for ``path``; on a clean exit it replaces ``path`` atomically.

    Yields a binary file (or a text file with ``text=True``). If the block raises, the target is
    left as it was and the temporary file is removed.
    """
    target = resolve_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    remove_leftovers(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    temporary = _temporary_name(target)
    try:
        fd = os.open(
            temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666
        )
    except OSError as exc:
        _name_the_target(exc, temporary, target)
        raise
    try:
        with os.fdopen(fd, "wb") as raw:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(raw.fileno(), mode)
            if text:
                handle = io.TextIOWrapper(raw, encoding=encoding, newline=newline)
                yield handle
                handle.flush()
                handle.detach()
            else:
                yield raw
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        _name_the_target(exc, temporary, target)
        raise
    _fsync_folder(folder)


@contextlib.contextmanager
def atomic_path(path, check: Callable[[Path], None] | None = None) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (Qt's image and
    document writers); on a clean exit the file there replaces ``path`` as :func:`atomic_write`
    does. The writer must have closed the file when the block ends.

    Such writers may not report a failed write (Qt's PDF and SVG writers drop the bytes a full
    disk refuses and say nothing): ``check(temporary)`` runs before the rename and raises
    ``OSError`` if the file is not whole, which keeps the old target.
    """
    target = resolve_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    remove_leftovers(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    temporary = _temporary_name(target)
    # Reserve the name (exclusively, with the usual permissions) before handing it out.
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        _name_the_target(exc, temporary, target)
        raise
    try:
        yield temporary
        if check is not None:
            check(temporary)
        fd = os.open(temporary, os.O_RDWR)
        try:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        _name_the_target(exc, temporary, target)
        raise
    _fsync_folder(folder)


def check_writable(path) -> Path:
    """Raise OSError (saying why) unless :func:`atomic_write` could write ``path`` now.

    For long runs that write their result at the end: a temporary file is made and removed in the
    target's folder, which is what the final save needs.
    """
    target = resolve_target(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(target))
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(folder))
    temporary = _temporary_name(target)
    try:
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        _name_the_target(exc, temporary, target)
        raise
    os.unlink(temporary)
    return target


def write_bytes(path, data: bytes, *, make_folders: bool = False) -> Path:
    """Write ``data`` to ``path`` atomically; returns the file written (a symlink's target).

    With ``make_folders``, missing folders above ``path`` are made first.
    """
    if make_folders:
        resolve_target(path).parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path) as f:
        f.write(data)
    return resolve_target(path)


def write_text(path, content: str, *, encoding: str = "utf-8", make_folders: bool = False) -> Path:
    """Write ``content`` to ``path`` atomically (no newline translation)."""
    return write_bytes(path, content.encode(encoding), make_folders=make_folders)


def write_with(path, writer: Callable[[IO[bytes]], None]) -> Path:
    """Let ``writer(binary_file)`` produce the content of ``path``, atomically."""
    with atomic_write(path) as f:
        writer(f)
    return resolve_target(path)


__all__ = [
    "STALE_SECONDS",
    "TEMP_SUFFIX",
    "atomic_path",
    "atomic_write",
    "check_writable",
    "remove_leftovers",
    "resolve_target",
    "write_bytes",
    "write_text",
    "write_with",
]
