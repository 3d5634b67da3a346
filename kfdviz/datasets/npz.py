"""Reading the arrays of an NPZ archive with every size checked before anything is decompressed.

``numpy.load`` decompresses a member to learn its shape, so a small archive can claim gigabytes
(a "zip bomb"). :class:`NpzArchive` reads each member's ``.npy`` header first (its shape and
type, a few hundred bytes), checks the declared size against the archive's own record of the
member and against a budget of decompressed bytes, and only then streams exactly that many
bytes. Nothing is unpickled: object arrays are refused. Every problem (not a zip archive, a
member that is not an ``.npy`` array, damaged compressed data, a lying header) raises
:class:`DataFileError` naming the file and the member.
"""

from __future__ import annotations

import io
import math
import zipfile
import zlib

import numpy as np
from numpy.lib import format as npy_format

from .errors import DataFileError

MAX_MEMBERS = 256  # arrays in one archive
MAX_HEADER_BYTES = 10_000  # an .npy header (numpy's own limit)
_CHUNK = 1 << 20
# numbers, booleans, text: what a data file can hold
_KINDS = "biufUS"
# Everything the zip and zlib modules raise for a damaged archive.
_DAMAGE = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    zlib.error,
    EOFError,
    OSError,
    ValueError,
    NotImplementedError,
    RuntimeError,
    OverflowError,
    KeyError,
)


def _human(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


class NpzArchive:
    """The ``.npy`` members of an NPZ archive held in memory, read on demand within a budget.

    ``max_bytes`` bounds the decompressed bytes of all arrays read through :meth:`read`.
    """

    def __init__(self, path, data: bytes, max_bytes: int):
        self.path = path
        self.max_bytes = int(max_bytes)
        self.used = 0
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except _DAMAGE as exc:
            raise self._error(f"is not a readable .npz archive ({_reason(exc)})") from None
        if len(infos) > MAX_MEMBERS:
            raise self._error(
                f"holds {len(infos)} members; an .npz data file holds at most {MAX_MEMBERS}"
            )
        self._members: dict[str, zipfile.ZipInfo] = {}
        for info in infos:
            if not info.filename.endswith(".npy") or info.is_dir():
                raise self._error(
                    f"member {info.filename!r} is not a .npy array; an .npz data file holds only "
                    ".npy arrays, as numpy.savez writes them"
                )
            name = info.filename[: -len(".npy")]
            if name in self._members:
                raise self._error(f"holds the array {name!r} twice")
            self._members[name] = info
        self._headers: dict[str, tuple] = {}

    def _error(self, message: str) -> DataFileError:
        return DataFileError(self.path, message)

    @property
    def names(self) -> list[str]:
        return list(self._members)

    def __contains__(self, name: str) -> bool:
        return name in self._members

    def header(self, name: str) -> tuple[tuple[int, ...], np.dtype]:
        """(shape, dtype) of the array ``name``, from its header only."""
        shape, dtype, _, _, _ = self._header(name)
        return shape, dtype

    def _header(self, name: str):
        if name in self._headers:
            return self._headers[name]
        info = self._members[name]
        try:
            with self._zip.open(info) as f:
                version = npy_format.read_magic(f)
                if version == (1, 0):
                    read_header = npy_format.read_array_header_1_0
                elif version == (2, 0):
                    read_header = npy_format.read_array_header_2_0
                else:
                    raise ValueError(f".npy format version {version}; kfdviz reads 1.0 and 2.0")
                shape, fortran, dtype = read_header(f, max_header_size=MAX_HEADER_BYTES)
                offset = f.tell()
        except Exception as exc:
            # The header parser fails in many ways on junk (SyntaxError, tokenize.TokenError,
            # TypeError, ...), besides the archive's own errors: all mean "not an .npy array".
            raise self._error(
                f"array {name!r} is not a readable .npy array ({_reason(exc)})"
            ) from None
        if dtype.hasobject:
            raise self._error(
                f"array {name!r} holds Python objects, which kfdviz never unpickles; save numbers "
                "or text"
            )
        if dtype.kind not in _KINDS or dtype.fields is not None or dtype.subdtype is not None:
            raise self._error(f"array {name!r} has the type {dtype}; expected numbers or text")
        count = math.prod(int(s) for s in shape)
        nbytes = count * dtype.itemsize
        if info.file_size != offset + nbytes:
            raise self._error(
                f"array {name!r} is damaged: its header describes {nbytes:,} bytes of data, the "
                f"archive records {max(info.file_size - offset, 0):,}"
            )
        entry = (tuple(int(s) for s in shape), dtype, bool(fortran), offset, nbytes)
        self._headers[name] = entry
        return entry

    def read(self, name: str) -> np.ndarray:
        """The array ``name``, streamed after its header and its size were checked."""
        shape, dtype, fortran, offset, nbytes = self._header(name)
        if self.used + nbytes > self.max_bytes:
            raise self._error(
                f"array {name!r} takes {_human(nbytes)} once decompressed, more than the limit "
                f"of {_human(self.max_bytes)} for the whole file; train on a subset of its rows "
                "(save a smaller file) or raise the limit"
            )
        buffer = bytearray(nbytes)
        view = memoryview(buffer)
        try:
            with self._zip.open(self._members[name]) as f:
                f.read(offset)
                filled = 0
                while filled < nbytes:
                    chunk = f.read(min(_CHUNK, nbytes - filled))
                    if not chunk:
                        break
                    view[filled : filled + len(chunk)] = chunk
                    filled += len(chunk)
                if filled == nbytes:
                    f.read(1)  # reaching the end makes zipfile check the CRC
        except _DAMAGE as exc:
            raise self._error(f"array {name!r} is damaged ({_reason(exc)})") from None
        if filled != nbytes:
            raise self._error(f"array {name!r} is truncated: {filled:,} of {nbytes:,} bytes")
        self.used += nbytes
        array = np.frombuffer(buffer, dtype=dtype)
        return array.reshape(shape[::-1]).T if fortran else array.reshape(shape)


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


__all__ = ["MAX_MEMBERS", "NpzArchive"]
