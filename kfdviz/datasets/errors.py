"""The error raised for data that cannot be read: always says which file, where, and what was wanted."""

from __future__ import annotations

import os

# The most characters of the reason (and of a column's name) a message quotes.
EXCERPT_CHARS = 300


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """``text``, or its beginning and how long it is when it is longer than ``limit``."""
    if len(text) <= limit:
        return text
    return f"{text[: max(limit - 40, 10)]}… ({len(text):,} characters in all)"


def quote(text: str, limit: int = 60) -> str:
    """``text`` quoted as Python does, or its beginning quoted and its length when it is long."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[: limit - 20]!r}… ({len(text):,} characters)"


class DataFileError(ValueError):
    """A data file (or folder of data files) that cannot be used as it is.

    The message names the file and, where there is one, the line and the column, and says what
    was expected there. ``path``, ``line`` (1-based) and ``column`` (a name or a 1-based number)
    are kept as attributes for callers that want to point at the place themselves. The message
    shows the file's name, or its whole path with ``full_path=True`` (useful for folders).
    A reason or column name longer than :data:`EXCERPT_CHARS` is quoted in part (a cell of a
    hostile file may hold megabytes), so that every message fits a status line.
    """

    def __init__(
        self,
        path: str | os.PathLike | None,
        message: str,
        *,
        line: int | None = None,
        column: str | int | None = None,
        full_path: bool = False,
    ) -> None:
        self.path = None if path is None else os.fspath(path)
        self.full_path = full_path
        self.line = line
        self.column = column
        self.reason = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.path is not None:
            name = os.path.basename(os.path.normpath(self.path))
            where.append(self.path if self.full_path or not name else name)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {_column_text(self.column)}")
        prefix = ", ".join(where)
        reason = excerpt(self.reason)
        return f"{prefix}: {reason}" if prefix else reason


class DataFileNotFoundError(DataFileError, FileNotFoundError):
    """A file or folder that does not exist; caught by both ``ValueError`` and ``OSError`` handlers."""


def _column_text(column: str | int) -> str:
    return str(column) if isinstance(column, int) else quote(column)


__all__ = ["EXCERPT_CHARS", "DataFileError", "DataFileNotFoundError", "excerpt", "quote"]
