"""Reading delimited text tables (CSV, TSV, semicolon- or space-separated) into points and labels.

The delimiter is sniffed, a header row is recognised, blank lines and lines starting with ``#``
are skipped. Every problem is reported as a :class:`DataFileError` naming the line (counted as
an editor counts them, from 1) and the column (by its header name, else by its number from 1).
"""

from __future__ import annotations

import codecs
import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ._labels import labels_from_text
from .errors import DataFileError, quote

# Tried in this order; the first that splits the sampled lines consistently into more than one
# field wins. A semicolon comes before the comma so that decimal commas are reported as such.
_DELIMITERS = ("\t", ";", ",", "|", " ")
_SNIFF_LINES = 50
ROLE_COLUMN = "role"
LABEL_COLUMN = "label"
ROLES = ("train", "test")


@dataclass(frozen=True)
class Table:
    """The parsed content of a table file (see ``files.LoadedData`` for the meaning)."""

    X: np.ndarray
    y: np.ndarray
    roles: np.ndarray | None
    feature_names: list[str]
    label_name: str | None
    class_names: list[str] | None
    task: str


# Byte-order marks, the longer first (UTF-32's little-endian mark begins with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
    (codecs.BOM_UTF8, "utf-8-sig"),
)


def bom_encoding(head: bytes) -> str | None:
    """The text encoding a byte-order mark at the start of ``head`` names, if any."""
    return next((name for bom, name in _BOMS if head.startswith(bom)), None)


def _binary(path) -> DataFileError:
    return DataFileError(
        path, "contains NUL bytes: this looks like a binary file, not a text table"
    )


def check_text_head(path, head: bytes) -> None:
    """Refuse a file whose first block shows it is binary (NUL bytes, and no UTF-16 or UTF-32
    byte-order mark), before the rest of it is read."""
    if bom_encoding(head) in (None, "utf-8-sig") and b"\x00" in head:
        raise _binary(path)


def decode(path, data: bytes) -> str:
    """The text of a table: UTF-16 or UTF-32 by their byte-order mark, else UTF-8 (with or
    without its mark), else Latin-1."""
    encoding = bom_encoding(data)
    if encoding in ("utf-16", "utf-32"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise DataFileError(
                path,
                f"starts with a {encoding.upper()} byte-order mark, but byte {exc.start + 1} is "
                f"not {encoding.upper()} text; save the table as UTF-8",
            ) from None
        if "\x00" in text:
            raise _binary(path)
        return text
    if b"\x00" in data:
        raise _binary(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Not UTF-8: legacy 8-bit text (headers with accented names); numbers are ASCII anyway.
        return data.decode("latin-1")


def _rows(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines that carry data: not blank, not comments."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [
        (i, line)
        for i, line in enumerate(lines, 1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _splitter(delimiter: str | None) -> Callable[[str], list[str]]:
    if delimiter is None:
        return lambda line: [line]
    if delimiter == " ":
        return str.split
    dialect = {"delimiter": delimiter, "quotechar": '"', "skipinitialspace": True, "strict": False}

    def split(line: str) -> list[str]:
        try:
            return next(csv.reader([line], **dialect), [""])
        except csv.Error:
            # Only field-size overflow can get here (lines are split beforehand); plain split.
            return line.split(delimiter)

    return split


def sniff_delimiter(lines: Sequence[str]) -> str | None:
    sample = list(lines[:_SNIFF_LINES])
    best, best_score = None, 0
    for delimiter in _DELIMITERS:
        split = _splitter(delimiter)
        counts = [len(split(line)) for line in sample]
        if min(counts) > 1 and len(set(counts)) == 1:
            return delimiter
        # Ragged: remember the delimiter that most lines agree on, to report the odd line out.
        typical = max(set(counts), key=counts.count)
        score = counts.count(typical) if typical > 1 else 0
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def looks_like_header(first: list[str], second: list[str] | None) -> bool:
    """A first row is a header if a column that holds a number below holds text in it."""
    if second is None or len(second) != len(first):
        return not any(_is_number(c) for c in first)
    return any(not _is_number(a) and _is_number(b) for a, b in zip(first, second, strict=True))


def _resolve_label(label, names: list[str] | None, n_columns: int, role_col: int | None, path):
    if label is False:
        return None
    if label is None:
        candidates = [i for i in range(n_columns) if i != role_col]
        if not candidates:
            raise DataFileError(
                path,
                "has only a role column: expected one or more columns of numbers (the features) "
                "and a label column beside it",
            )
        return candidates[-1]
    if isinstance(label, bool):
        raise ValueError(
            f"label must be a column name, a column index, None or False, got {label!r}"
        )
    if isinstance(label, int | np.integer):
        index = int(label)
        if not -n_columns <= index < n_columns:
            listed = "" if names is None else f": {', '.join(repr(n) for n in names)}"
            raise DataFileError(
                path,
                f"there is no label column number {index}: the file has {n_columns} columns "
                f"(indices 0..{n_columns - 1}, or -{n_columns}..-1 from the end){listed}",
            )
        return index % n_columns
    if isinstance(label, str):
        if names is None:
            raise DataFileError(
                path,
                f"no column is named {label!r}: the file has no header row; give the label "
                f"column's index instead (0..{n_columns - 1})",
            )
        for match in (lambda n: n == label, lambda n: n.casefold() == label.casefold()):
            found = [i for i, n in enumerate(names) if match(n)]
            if found:
                return found[0]
        listed = ", ".join(repr(n) for n in names)
        raise DataFileError(path, f"there is no label column {label!r}; the columns are {listed}")
    raise ValueError(f"label must be a column name, a column index, None or False, got {label!r}")


def read_table(
    path,
    data: bytes,
    *,
    label=None,
    header: bool | None = None,
    delimiter: str | None = None,
    task: str = "auto",
    min_classes: int | None = None,
    max_classes: int | None = None,
    max_points: int | None = None,
    points_hint: Callable[[int], str] = lambda n: "",
) -> Table:
    rows = _rows(decode(path, data))
    if not rows:
        raise DataFileError(path, "the file is empty: expected rows of numbers, one point per line")
    if delimiter is None:
        delimiter = sniff_delimiter([line for _, line in rows])
    split = _splitter(delimiter)
    first = [c.strip() for c in split(rows[0][1])]
    if header is None:
        second = [c.strip() for c in split(rows[1][1])] if len(rows) > 1 else None
        header = looks_like_header(first, second)
    names = first if header else None
    body = rows[1:] if header else rows
    n_columns = len(first)
    if not body:
        raise DataFileError(path, "there are no data rows below the header", line=rows[0][0])
    if max_points is not None and len(body) > max_points:
        raise DataFileError(path, points_hint(len(body)))

    role_col = None
    if names is not None:
        role_col = next((i for i, n in enumerate(names) if n.casefold() == ROLE_COLUMN), None)
    named_label = None
    if label is None and names is not None:
        named_label = next((i for i, n in enumerate(names) if n.casefold() == LABEL_COLUMN), None)
    if named_label is not None:
        # kfdviz's own layout (saved points, exported data): the features, then "label", then
        # "role" and the outputs of the fit it was exported from, which are not features.
        label_col = named_label
        feature_cols = list(range(label_col)) or [
            i for i in range(n_columns) if i not in (label_col, role_col)
        ]
    else:
        label_col = _resolve_label(label, names, n_columns, role_col, path)
        if label_col is not None and label_col == role_col:
            role_col = None
        feature_cols = [i for i in range(n_columns) if i not in (label_col, role_col)]

    def column(i: int) -> str | int:
        return names[i] if names is not None and names[i] else i + 1

    if not feature_cols:
        raise DataFileError(
            path,
            f"found {n_columns} column{'s' if n_columns > 1 else ''} and no feature column: "
            "expected one or more columns of numbers and a label column, separated by commas, "
            "tabs, semicolons or spaces",
            line=rows[0][0],
        )

    cells: list[list[str]] = []
    for line_no, line in body:
        fields = split(line)
        if len(fields) != n_columns:
            origin = "the header" if header else f"line {rows[0][0]}"
            raise DataFileError(
                path,
                f"{len(fields)} field{'s' if len(fields) != 1 else ''}, expected {n_columns} "
                f"as in {origin}",
                line=line_no,
            )
        cells.append(fields)

    X = _parse_features(path, body, cells, feature_cols, column)

    if label_col is None:
        y, class_names, task_found = np.zeros(len(body), dtype=np.int64), ["0"], "classification"
    else:

        def complain(row: int, message: str) -> DataFileError:
            return DataFileError(path, message, line=body[row][0], column=column(label_col))

        where = (
            f"label column {quote(str(column(label_col)))}"
            if names
            else f"label column {label_col + 1}"
        )
        y, class_names, task_found = labels_from_text(
            [row[label_col].strip() for row in cells],
            complain,
            task=task,
            min_classes=min_classes,
            max_classes=max_classes,
            column_text=where,
            path=path,
        )

    roles = None
    if role_col is not None:
        roles = np.empty(len(body), dtype="<U5")
        for r, row in enumerate(cells):
            value = row[role_col].strip().lower()
            if value not in ROLES:
                raise DataFileError(
                    path,
                    f"{quote(row[role_col].strip())} is not a role; expected 'train' or 'test'",
                    line=body[r][0],
                    column=column(role_col),
                )
            roles[r] = value

    feature_names = [(names[i] if names else "") or f"x{k + 1}" for k, i in enumerate(feature_cols)]
    label_name = None if label_col is None else (names[label_col] if names else None)
    return Table(X, y, roles, feature_names, label_name, class_names, task_found)


def _parse_features(path, body, cells, feature_cols, column) -> np.ndarray:
    X = np.empty((len(cells), len(feature_cols)), dtype=np.float64)
    for r, row in enumerate(cells):
        try:
            X[r] = [float(row[c]) for c in feature_cols]
        except ValueError:
            for c in feature_cols:
                cell = row[c].strip()
                try:
                    float(cell)
                except ValueError:
                    what = (
                        "empty cell, expected a number"
                        if cell == ""
                        else f"{quote(cell)} is not a number"
                    )
                    raise DataFileError(path, what, line=body[r][0], column=column(c)) from None
    finite = np.isfinite(X)
    if not finite.all():
        r, k = np.argwhere(~finite)[0]
        c = feature_cols[k]
        raise DataFileError(
            path,
            f"{quote(cells[r][c].strip())} is not a finite number; missing or infinite values are not "
            "supported (remove the row or fill in a value)",
            line=body[r][0],
            column=column(c),
        )
    return X


__all__ = [
    "ROLES",
    "ROLE_COLUMN",
    "Table",
    "bom_encoding",
    "check_text_head",
    "decode",
    "looks_like_header",
    "read_table",
    "sniff_delimiter",
]
