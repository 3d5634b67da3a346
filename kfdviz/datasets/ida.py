"""The IDA benchmark data (Rätsch's repository) in its original train/test realizations.

A folder holds one ``NAME.npz`` per data set with arrays ``X`` (all distinct points, already
standardized), ``y`` (-1/+1), ``train_idx`` and ``test_idx`` (one row of indices into X per
realization) and ``realizations`` (the original 1-based realization numbers). The package does
not ship these files: callers pass the folder. The published layouts of the same data
(``benchmarks.mat``, the ``NAME_train_data_K.asc`` files) are read by :mod:`.benchmark`.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np

from .errors import DataFileError, DataFileNotFoundError

_REQUIRED = ("X", "y", "train_idx", "test_idx", "realizations")


def _folder(folder) -> Path:
    path = Path(folder)
    if not path.exists():
        raise DataFileNotFoundError(
            folder, "no such folder (expected the benchmark data folder)", full_path=True
        )
    if not path.is_dir():
        raise DataFileError(
            folder, "is a file; expected the folder that holds the NAME.npz files", full_path=True
        )
    return path


def ida_names(folder) -> list[str]:
    """Names of the data sets in ``folder`` (the NAME of each NAME.npz), sorted."""
    return sorted(p.stem for p in _folder(folder).glob("*.npz"))


def _open(folder, name: str) -> dict[str, np.ndarray]:
    base = _folder(folder)
    plain = isinstance(name, str) and name != "" and Path(name).name == name
    file = base / f"{name}.npz"
    if not plain or not file.is_file():
        available = ", ".join(ida_names(folder)) or "none"
        raise DataFileNotFoundError(
            folder,
            f"no benchmark data set {name!r} (no file {name}.npz); available: {available}",
            full_path=True,
        )
    try:
        with np.load(io.BytesIO(file.read_bytes()), allow_pickle=False) as archive:
            arrays = {key: archive[key] for key in archive.files}
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        raise DataFileError(file, f"is not a readable .npz archive ({exc})") from None
    missing = [key for key in _REQUIRED if key not in arrays]
    if missing:
        raise DataFileError(
            file,
            f"lacks array(s) {', '.join(map(repr, missing))}; a benchmark file holds "
            f"{', '.join(map(repr, _REQUIRED))}",
        )
    return arrays


def ida_realizations(folder, name: str) -> list[int]:
    """The original (1-based) realization numbers stored for data set ``name``."""
    return [int(r) for r in _open(folder, name)["realizations"]]


def load_ida(folder, name: str, realization: int, *, signed: bool = False):
    """``(X_train, y_train, X_test, y_test)`` of realization ``realization`` of data set ``name``.

    ``realization`` is the original 1-based number (``NAME_train_data_K.asc``), one of the
    file's ``realizations``. Labels are 0/1 (IDA's -1 -> 0, +1 -> 1), or the file's -1/+1 with
    ``signed=True``; both int64. X arrays are float64 copies, rows in the original file order.
    A missing folder, file or realization raises an error that lists what there is.
    """
    arrays = _open(folder, name)
    numbers = [int(r) for r in arrays["realizations"]]
    if isinstance(realization, bool) or not isinstance(realization, int | np.integer):
        raise ValueError(f"realization must be an integer (one of {numbers}), got {realization!r}")
    if int(realization) not in numbers:
        shown = _ranges(numbers)
        raise DataFileError(
            Path(folder) / f"{name}.npz",
            f"has no realization {realization}; it holds realization{'s' if len(numbers) > 1 else ''} "
            f"{shown}",
        )
    row = numbers.index(int(realization))
    X = np.asarray(arrays["X"], dtype=np.float64)
    y = np.asarray(arrays["y"]).astype(np.int64)
    if not signed:
        y = (y > 0).astype(np.int64)
    train, test = arrays["train_idx"][row], arrays["test_idx"][row]
    return X[train], y[train], X[test], y[test]


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> '1-3, 5'."""
    parts, ordered = [], sorted(numbers)
    start = prev = ordered[0]
    for n in [*ordered[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


__all__ = ["ida_names", "ida_realizations", "load_ida"]
