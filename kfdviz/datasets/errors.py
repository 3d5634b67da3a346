"""The error raised for data that cannot be read: always says which file, where, and what was wanted."""

from __future__ import annotations

import os


class DataFileError(ValueError):
    """A data file (or folder of data files) that cannot be used as it is.

    The message names the file and, where there is one, the line and the column, and says what
    was expected there. ``path``, ``line`` (1-based) and ``column`` (a name or a 1-based number)
    are kept as attributes for callers that want to point at the place themselves.
    """

    def __init__(
        self,
        path: str | os.PathLike | None,
        message: str,
        *,
        line: int | None = None,
        column: str | int | None = None,
    ) -> None:
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.column = column
        self.reason = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.path is not None:
            where.append(f"{os.path.basename(self.path)!s}")
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {_column_text(self.column)}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class DataFileNotFoundError(DataFileError, FileNotFoundError):
    """A file or folder that does not exist; caught by both ``ValueError`` and ``OSError`` handlers."""


def _column_text(column: str | int) -> str:
    return str(column) if isinstance(column, int) else repr(column)


__all__ = ["DataFileError", "DataFileNotFoundError"]
