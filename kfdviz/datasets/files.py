"""Loading and saving point sets: delimited text (CSV/TSV/...), NPZ and svmlight/libsvm files.

``load_table(path, ...)`` returns a :class:`LoadedData` (points, labels, roles, names);
``load(path, ...)`` just its ``(X, y)``; ``save(path, X, y, roles)`` writes CSV or NPZ so that
loading gives back the same points, labels and roles (bit for bit: floats are written with
Python's shortest round-trip repr). Everything that is wrong with a file raises
:class:`DataFileError` (a ``ValueError``) naming the file, the line and the column.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .. import atomic_file
from ..regular_file import NotRegularFile, TooLarge, read_regular
from ._labels import labels_from_array
from .drawing import MAX_CLASSES
from .errors import DataFileError, DataFileNotFoundError, quote
from .npz import NpzArchive
from .table import ROLE_COLUMN, ROLES, check_text_head, read_table

FORMATS = ("csv", "tsv", "npz", "svmlight")
_EXTENSIONS = {
    ".csv": "csv",
    ".txt": "csv",
    ".dat": "csv",
    ".data": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".npz": "npz",
    ".svm": "svmlight",
    ".svmlight": "svmlight",
    ".libsvm": "svmlight",
    ".light": "svmlight",
}
_ALIASES = {"libsvm": "svmlight", "text": "csv", "table": "csv"}
# A file bigger than this is refused even without a caller's limit.
_FILE_LIMIT_BYTES = 4 * 2**30
# The arrays a file expands to (NPZ decompressed, svmlight made dense), without a caller's
# max_bytes: a few bytes of svmlight ("1 300000000:1") or a small NPZ can describe gigabytes.
_ARRAY_LIMIT_BYTES = 2**30


@dataclass(frozen=True)
class LoadedData:
    """What a data file holds, in kfdviz's conventions.

    X: float64 (n_points, n_features). y: int64 classes 0..k-1, or float64 regression targets.
    roles: "train"/"test" per point (a '<U5' array), or None if the file has no role column.
    feature_names: one per column of X. label_name: the label column's name (None if the file
    has no header, or no label column). class_names: ``class_names[k]`` is the file's own
    spelling of class k (None for regression). task: "classification" or "regression".
    """

    X: np.ndarray
    y: np.ndarray
    roles: np.ndarray | None = None
    feature_names: list[str] = field(default_factory=list)
    label_name: str | None = None
    class_names: list[str] | None = None
    task: str = "classification"
    path: str | None = None

    @property
    def n_points(self) -> int:
        return int(self.X.shape[0])

    @property
    def n_classes(self) -> int | None:
        return None if self.class_names is None else len(self.class_names)

    @property
    def train_mask(self) -> np.ndarray:
        if self.roles is None:
            return np.ones(self.n_points, dtype=bool)
        return self.roles == "train"


# The largest coordinate or target a data file may hold: its square, summed over the features
# of a pair of points, stays finite in float64 (1e150 squared is 1e300, below 1.8e308).
MAX_MAGNITUDE = 1e150


def _human_bytes(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError  # pragma: no cover


def _too_many_points(n: int, max_points: int) -> str:
    return (
        f"{n:,} points, more than the limit of {max_points:,}; train on a subset "
        f"(for example a random {max_points:,} of them) or raise the limit"
    )


def format_of(path, format: str | None = None, head: bytes = b"") -> str:
    """The format to read ``path`` as: the one given, else by extension, else by content."""
    if format is not None:
        fmt = _ALIASES.get(format.lower(), format.lower())
        if fmt not in FORMATS:
            valid = ", ".join([*FORMATS, *_ALIASES])
            raise ValueError(f"unknown file format {format!r}; valid formats: {valid}")
        return fmt
    suffix = Path(path).suffix.lower()
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    if head.startswith(b"PK\x03\x04"):
        return "npz"
    first = next((ln for ln in head.splitlines() if ln.strip() and not ln.startswith(b"#")), b"")
    if re.match(rb"\s*[-+]?[\d.eE+-]+(\s+(qid:\S+|\d+:\S+))+\s*(#.*)?$", first):
        return "svmlight"
    return "csv"


def _check_limit(name: str, value, *, allow_none: bool = True) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
    return int(value)


def load_table(
    path,
    *,
    label=None,
    format: str | None = None,
    header: bool | None = None,
    delimiter: str | None = None,
    task: str = "auto",
    min_classes: int | None = None,
    max_classes: int | None = None,
    max_points: int | None = None,
    max_bytes: int | None = None,
) -> LoadedData:
    """Read a data file: points, labels (or targets), roles and names.

    label: for text tables, the label column's name or 0-based index (default: the last column
    other than a ``role`` column); for NPZ, the label array's name (default "y"); False means
    there are no labels (every column is a feature, y is all 0). format: "csv", "tsv", "npz",
    "svmlight" (alias "libsvm"); default by extension, else by content. header, delimiter: for
    text tables, default sniffed. task: "auto" (text labels and whole numbers are classes, other
    numbers regression targets), "classification" or "regression". min_classes/max_classes:
    require that many classes (and read labels as classes). max_points/max_bytes: refuse
    bigger files with a message saying how big they are. ``max_bytes`` also bounds the arrays a
    file expands to (1 GiB without it): an NPZ's decompressed arrays, checked from each array's
    header before it is decompressed, and an svmlight file's dense points. Paths that are not regular files (FIFOs, devices) are refused unopened.
    """
    max_points = _check_limit("max_points", max_points)
    max_bytes = _check_limit("max_bytes", max_bytes)
    for name, value in (("min_classes", min_classes), ("max_classes", max_classes)):
        _check_limit(name, value)
    p = Path(os.fspath(path))
    limit = _FILE_LIMIT_BYTES if max_bytes is None else max_bytes

    def check_head(head: bytes) -> None:
        # A binary file is refused on its first block, not after gigabytes are read.
        fmt = format_of(p, format, head[:4096])
        if fmt in ("csv", "tsv", "svmlight"):
            check_text_head(path, head)
        elif not head.startswith(b"PK"):
            raise DataFileError(
                path, "is not a readable .npz archive (it does not begin as a zip file does)"
            )

    try:
        data = read_regular(p, limit, check_head)
    except FileNotFoundError:
        where = p.parent if str(p.parent) not in ("", ".") else Path(".")
        raise DataFileNotFoundError(path, f"no such file (looked in {where})") from None
    except NotRegularFile as exc:
        what = str(exc).rsplit(" is ", 1)[-1]
        raise DataFileError(path, f"is {what}, not a data file") from None
    except TooLarge as exc:
        raise DataFileError(
            path,
            f"the file is {_human_bytes(exc.size)}, more than the limit of "
            f"{_human_bytes(limit)}; train on a subset of its rows (save a smaller file) or "
            "raise the limit",
        ) from None
    except OSError as exc:
        raise DataFileError(path, f"cannot be read: {exc.strerror or exc}") from None
    fmt = format_of(p, format, data[:4096])
    budget = _ARRAY_LIMIT_BYTES if max_bytes is None else max_bytes
    common = {"task": task, "min_classes": min_classes, "max_classes": max_classes}
    return _within_range(
        path, _read(path, p, data, fmt, label, header, delimiter, max_points, budget, common)
    )


def _read(path, p, data, fmt, label, header, delimiter, max_points, budget, common) -> LoadedData:
    if fmt in ("csv", "tsv"):
        table = read_table(
            path,
            data,
            label=label,
            header=header,
            delimiter="\t" if fmt == "tsv" and delimiter is None else delimiter,
            max_points=max_points,
            points_hint=lambda n: _too_many_points(n, max_points),
            **common,
        )
        return LoadedData(**vars(table), path=os.fspath(path))
    if fmt == "npz":
        return _read_npz(path, data, label=label, max_points=max_points, max_bytes=budget, **common)
    return _read_svmlight(
        path, data, label=label, max_points=max_points, max_bytes=budget, **common
    )


def _within_range(path, loaded: LoadedData) -> LoadedData:
    """Refuse coordinates (and regression targets) too large for a picture or a kernel."""
    for what, values in (("coordinate", loaded.X), ("target", loaded.y)):
        values = np.asarray(values)
        if values.dtype.kind != "f" or values.size == 0:
            continue
        big = np.abs(values) > MAX_MAGNITUDE
        if big.any():
            index = np.unravel_index(int(np.argmax(big)), values.shape)
            place = f"point {index[0] + 1}" + (
                f", feature {index[1] + 1}" if len(index) > 1 else ""
            )
            raise DataFileError(
                path,
                f"{place}: the {what} {float(values[index]):g} is too large; kfdviz works with "
                f"values up to {MAX_MAGNITUDE:g} in size (squared distances must stay finite): "
                "rescale the data",
            )
    return loaded


def load(
    path, *, label=None, format: str | None = None, **options
) -> tuple[np.ndarray, np.ndarray]:
    """``(X, y)`` of a data file; see :func:`load_table` for the options."""
    loaded = load_table(path, label=label, format=format, **options)
    return loaded.X, loaded.y


def load_for_drawing(path, *, max_classes: int = MAX_CLASSES, **options) -> LoadedData:
    """A data file as the drawing canvas takes it: at most ``max_classes`` classes, 0..k-1.

    Class labels beyond the canvas's range (but no more classes than it holds) are renumbered
    in increasing order, their names kept; more classes raise :class:`DataFileError` naming the
    file, the label column, the count and the limit. Regression targets pass as they are. The
    other options are :func:`load_table`'s.
    """
    max_classes = _check_limit("max_classes", max_classes, allow_none=False)
    loaded = load_table(path, **options)
    if loaded.task != "classification":
        return loaded
    present = np.unique(loaded.y)
    if present.size > max_classes:
        column = repr(loaded.label_name) if loaded.label_name else "the label column"
        raise DataFileError(
            path,
            f"{column} has {present.size} classes; the drawing canvas holds at most "
            f"{max_classes} (labels 1 to {max_classes}): merge classes, or use a file of "
            f"{max_classes} classes or fewer",
        )
    if present.size and int(present.max()) >= max_classes:
        names = loaded.class_names or [str(int(c)) for c in range(int(present.max()) + 1)]
        return replace(
            loaded,
            y=np.searchsorted(present, loaded.y).astype(np.int64),
            class_names=[names[int(c)] for c in present],
        )
    return loaded


# --- NPZ ---------------------------------------------------------------------------------------


def _read_npz(path, data: bytes, *, label, max_points, max_bytes, **label_options) -> LoadedData:
    archive = NpzArchive(path, data, max_bytes)
    listed = ", ".join(repr(n) for n in archive.names) or "none"
    if "X" not in archive:
        raise DataFileError(path, f"has no array 'X' (the points); its arrays are: {listed}")
    shape, dtype = archive.header("X")
    if dtype.kind not in "biuf" or len(shape) != 2:
        raise DataFileError(
            path,
            f"array 'X' has shape {shape} and type {dtype}; expected numbers of shape "
            "(n_points, n_features)",
        )
    n = shape[0]
    if n == 0 or shape[1] == 0:
        raise DataFileError(path, f"array 'X' is empty (shape {shape})")
    if max_points is not None and n > max_points:
        raise DataFileError(path, _too_many_points(n, max_points))
    label_key = "y" if label is None else label
    if label_key is not False:
        if not isinstance(label_key, str) or label_key not in archive:
            raise DataFileError(path, f"has no label array {label_key!r}; its arrays are: {listed}")
        label_shape, _ = archive.header(label_key)
        if label_shape != (n,):
            raise DataFileError(
                path,
                f"array {label_key!r} has shape {label_shape}; expected ({n},), one label per "
                "row of 'X'",
            )
    for name, expected in (("roles", (n,)), ("feature_names", (shape[1],))):
        if name in archive and archive.header(name)[0] != expected:
            raise DataFileError(
                path,
                f"array {name!r} has shape {archive.header(name)[0]}; expected {expected}",
            )
    arrays = {
        name: archive.read(name)
        for name in ("X", label_key, "roles", "feature_names", "label_name", "class_names")
        if isinstance(name, str) and name in archive
    }
    X = arrays["X"].astype(np.float64, copy=True)
    finite = np.isfinite(X)
    if not finite.all():
        r, c = np.argwhere(~finite)[0]
        raise DataFileError(
            path,
            f"array 'X', row {r + 1}, column {c + 1}: {float(X[r, c])!r} is not a finite number; missing "
            "or infinite values are not supported",
        )

    if label_key is False:
        y, class_names, task = np.zeros(n, dtype=np.int64), ["0"], "classification"
    else:
        raw = arrays[label_key]

        def complain(row: int, message: str) -> DataFileError:
            return DataFileError(path, f"array {label_key!r}, row {row + 1}: {message}")

        y, class_names, task = labels_from_array(
            raw, complain, column_text=f"array {label_key!r}", path=path, **label_options
        )
        if "class_names" in arrays and task == "classification" and raw.dtype.kind in "biu":
            # Names saved with integer labels kept as they are: the saved names win.
            stored = [str(s) for s in np.asarray(arrays["class_names"]).ravel()]
            limit = label_options.get("max_classes") or len(stored)
            if np.array_equal(y, raw) and int(y.max()) < len(stored) <= limit:
                class_names = stored

    roles = None
    if "roles" in arrays:
        raw_roles = arrays["roles"]
        if raw_roles.shape != (n,) or raw_roles.dtype.kind not in "US":
            raise DataFileError(
                path,
                f"array 'roles' has shape {raw_roles.shape} and type {raw_roles.dtype}; "
                f"expected ({n},) strings 'train' or 'test'",
            )
        roles = np.char.lower(np.char.strip(raw_roles.astype(str))).astype("<U5")
        bad = ~np.isin(roles, ROLES)
        if bad.any():
            r = int(np.argmax(bad))
            raise DataFileError(
                path,
                f"array 'roles', row {r + 1}: {str(raw_roles[r])!r} is not a role; expected "
                "'train' or 'test'",
            )

    feature_names = [f"x{k + 1}" for k in range(X.shape[1])]
    if "feature_names" in arrays:
        stored = [str(s) for s in np.asarray(arrays["feature_names"]).ravel()]
        if len(stored) == X.shape[1]:
            feature_names = stored
    label_name = None
    if "label_name" in arrays:
        stored = arrays["label_name"]
        if stored.size != 1 or stored.dtype.kind not in "US":
            raise DataFileError(
                path,
                f"array 'label_name' has shape {stored.shape} and type {stored.dtype}; expected "
                "one text: the label column's name",
            )
        label_name = str(stored.ravel()[0])
    return LoadedData(X, y, roles, feature_names, label_name, class_names, task, os.fspath(path))


# --- svmlight / libsvm -------------------------------------------------------------------------

_SVM_FEATURE = re.compile(r"(\d+):(\S+)\Z")


def _locate_svmlight_error(text: str) -> tuple[int, str] | None:
    """The first line and problem that would stop an svmlight parser, if one is found."""
    for line_no, line in enumerate(text.split("\n"), 1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        tokens = content.split()
        try:
            float(tokens[0])
        except ValueError:
            return line_no, f"label {quote(tokens[0])} is not a number"
        previous = -1
        for position, token in enumerate(tokens[1:], 2):
            if token.startswith("qid:"):
                continue
            match = _SVM_FEATURE.match(token)
            if not match:
                return line_no, f"item {position} ({quote(token)}) is not of the form index:value"
            try:
                float(match.group(2))
            except ValueError:
                return line_no, f"item {position}: {quote(match.group(2))} is not a number"
            index = int(match.group(1))
            if index >= 2**31 - 1:
                return line_no, f"item {position}: feature index {index} is too large"
            if index <= previous:
                return line_no, f"item {position}: feature indices must increase ({quote(token)})"
            previous = index
    return None


def _read_svmlight(
    path, data: bytes, *, label, max_points, max_bytes, **label_options
) -> LoadedData:
    # Imported here: sklearn.datasets costs about half a second of start-up; only svmlight files
    # need it.
    from sklearn.datasets import load_svmlight_file

    if label not in (None, False):
        raise ValueError("label can only be None or False for svmlight files (labels come first)")
    text = data.decode("utf-8", "replace")
    if not any(ln.split("#", 1)[0].strip() for ln in text.split("\n")):
        raise DataFileError(path, "the file is empty: expected lines of 'label index:value ...'")
    located = _locate_svmlight_error(text)
    if located is not None:
        raise DataFileError(path, located[1], line=located[0])
    try:
        X_sparse, raw = load_svmlight_file(io.BytesIO(data), dtype=np.float64)
    except (ValueError, TypeError, RuntimeError, OverflowError, IndexError) as exc:
        raise DataFileError(path, f"is not a valid svmlight/libsvm file ({exc})") from None
    n, d = X_sparse.shape
    if max_points is not None and n > max_points:
        raise DataFileError(path, _too_many_points(n, max_points))
    if d == 0:
        raise DataFileError(path, "has no features: every line holds only a label")
    if n * d * 8 > max_bytes:
        raise DataFileError(
            path,
            f"{n:,} points x {d:,} features would take {_human_bytes(n * d * 8)} as a dense "
            f"array, more than the limit of {_human_bytes(max_bytes)}; kfdviz works on dense "
            "data: train on a subset of the rows or the features, or raise the limit",
        )
    X = X_sparse.toarray()
    finite = np.isfinite(X)
    if not finite.all():
        r, c = np.argwhere(~finite)[0]
        raise DataFileError(
            path, f"feature {c + 1} is {float(X[r, c])!r}, not a finite number", line=None
        )
    if label is False:
        y, class_names, task = np.zeros(n, dtype=np.int64), ["0"], "classification"
    else:

        def complain(row: int, message: str) -> DataFileError:
            return DataFileError(path, f"point {row + 1}: {message}")

        y, class_names, task = labels_from_array(
            raw,
            complain,
            column_text="the labels",
            path=path,
            whole_floats_are_classes=True,
            **label_options,
        )
    names = [f"x{k + 1}" for k in range(d)]
    return LoadedData(X, y, None, names, None, class_names, task, os.fspath(path))


# --- saving ------------------------------------------------------------------------------------


def _checked_for_saving(X, y, roles):
    X = np.asarray(X)
    if X.ndim != 2 or X.dtype.kind not in "biuf":
        raise ValueError(f"X must be a 2-D array of numbers, got shape {X.shape} ({X.dtype})")
    X = X.astype(np.float64)
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values, which cannot be loaded back")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have one entry per row of X ({X.shape[0]}), got shape {y.shape}")
    if y.dtype.kind == "b":
        y = y.astype(np.int64)
    if y.dtype.kind not in "iuf":
        raise ValueError(f"y must hold integer class labels or float targets, got {y.dtype}")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite values, which cannot be loaded back")
    if roles is not None:
        roles = np.asarray(roles).astype(str)
        if roles.shape != (X.shape[0],):
            raise ValueError(f"roles must have one entry per row of X, got shape {roles.shape}")
        bad = ~np.isin(roles, ROLES)
        if bad.any():
            raise ValueError(f"roles must be 'train' or 'test', got {roles[bad][0]!r}")
        roles = roles.astype("<U5")
    return X, y, roles


def save(
    path,
    X,
    y,
    roles=None,
    *,
    feature_names=None,
    label_name: str = "label",
    class_names=None,
    format: str | None = None,
) -> None:
    """Write points, labels and (optionally) roles as CSV (or TSV) with a header, or as NPZ.

    CSV columns: the features (``feature_names``, default x1..xd), the label column (integer
    classes, or float targets written with a decimal point so they load back as regression),
    and a ``role`` column when ``roles`` are given. Floats are written in Python's shortest
    round-trip form, so loading gives back exactly the same numbers. NPZ holds arrays X, y,
    roles (if given), feature_names, label_name and class_names (if given). The file is written
    through :mod:`kfdviz.atomic_file` (a failed save keeps the old file). The inputs are not
    modified.
    """
    X, y, roles = _checked_for_saving(X, y, roles)
    fmt = format_of(path, format)
    if fmt == "svmlight":
        raise ValueError("saving as svmlight is not supported; save as .csv or .npz")
    d = X.shape[1]
    names = (
        [f"x{k + 1}" for k in range(d)] if feature_names is None else list(map(str, feature_names))
    )
    if len(names) != d:
        raise ValueError(f"feature_names must have {d} entries, got {len(names)}")
    header = [*names, label_name, *([ROLE_COLUMN] if roles is not None else [])]
    lowered = [h.casefold() for h in header]
    if len(set(lowered)) != len(lowered):
        raise ValueError(f"column names must be distinct (ignoring case): {header}")
    if ROLE_COLUMN in lowered[: d + 1]:
        raise ValueError(f"{ROLE_COLUMN!r} is reserved for the role column")

    with atomic_file.atomic_write(os.fspath(path)) as handle:
        if fmt == "npz":
            arrays = {
                "X": X,
                "y": y,
                "feature_names": np.array(names),
                "label_name": np.array(label_name),
            }
            if roles is not None:
                arrays["roles"] = roles
            if class_names is not None:
                arrays["class_names"] = np.array([str(c) for c in class_names])
            np.savez(handle, **arrays)
        else:
            _write_csv(handle, X, y, roles, header, "\t" if fmt == "tsv" else ",")


def _write_csv(handle, X, y, roles, header, delimiter) -> None:
    text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
    writer = csv.writer(text, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    regression = y.dtype.kind == "f"
    for i in range(X.shape[0]):
        row = [repr(float(v)) for v in X[i]]
        row.append(repr(float(y[i])) if regression else str(int(y[i])))
        if roles is not None:
            row.append(str(roles[i]))
        writer.writerow(row)
    text.flush()
    text.detach()


__all__ = ["FORMATS", "LoadedData", "format_of", "load", "load_for_drawing", "load_table", "save"]
