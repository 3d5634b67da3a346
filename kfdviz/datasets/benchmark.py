"""Benchmark data with fixed train/test realizations, in the layouts they are published in.

:func:`open_benchmark` reads, from one path:

- a folder of ``NAME.npz`` files (kfdviz's own form, :mod:`.ida`);
- the MATLAB repackaging of the IDA benchmark, ``benchmarks.mat`` (the file, or a folder that
  holds it): one struct per data set with fields ``x`` (points, one per row), ``t`` (labels
  -1/+1), and ``train`` and ``test``, 1-based index matrices into ``x`` with one row per
  realization (100 realizations, 20 for image and splice). Its struct names use underscores
  (``breast_cancer``); the names here use hyphens (``breast-cancer``), as the tables do;
- the original per-realization text files, ``NAME_train_data_K.asc``, ``NAME_train_labels_K.asc``,
  ``NAME_test_data_K.asc`` and ``NAME_test_labels_K.asc`` (K = 1, 2, ...), in the folder itself
  or in one subfolder per data set.

Every source answers :meth:`BenchmarkSource.names`, :meth:`~BenchmarkSource.realizations`
(the original 1-based numbers) and :meth:`~BenchmarkSource.load` (``X_train, y_train, X_test,
y_test``, labels 0/1 from -1/+1, as :func:`kfdviz.datasets.ida.load_ida`). The data are used as
they are published (the IDA points are already standardized).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from .errors import DataFileError, DataFileNotFoundError
from .ida import ida_names, ida_realizations, load_ida

MAT_NAME = "benchmarks.mat"
_ASC = re.compile(r"^(?P<name>.+)_(?P<part>train|test)_(?P<what>data|labels)_(?P<k>\d+)\.asc$")


def _public(name: str) -> str:
    return name.replace("_", "-")


def _labels01(t: np.ndarray, where, what: str) -> np.ndarray:
    t = np.asarray(t, dtype=float).ravel()
    if not np.all(np.isin(t, (-1.0, 1.0))):
        bad = sorted(set(np.unique(t[~np.isin(t, (-1.0, 1.0))]).tolist()))[:5]
        raise DataFileError(where, f"{what}: labels must be -1 or +1, found {bad}")
    return (t > 0).astype(np.int64)


class BenchmarkSource:
    """Names, realization numbers and splits of a benchmark collection (see the module)."""

    def names(self) -> list[str]:
        raise NotImplementedError

    def realizations(self, name: str) -> list[int]:
        raise NotImplementedError

    def load(self, name: str, realization: int):
        raise NotImplementedError

    def _unknown(self, name: str, where) -> DataFileNotFoundError:
        available = ", ".join(self.names()) or "none"
        return DataFileNotFoundError(
            where, f"holds no data set {name!r}; available: {available}", full_path=True
        )

    def _check_realization(self, name: str, realization, where) -> int:
        numbers = self.realizations(name)
        if isinstance(realization, bool) or not isinstance(realization, int | np.integer):
            raise ValueError(
                f"realization must be an integer (one of {numbers}), got {realization!r}"
            )
        if int(realization) not in numbers:
            raise DataFileError(
                where, f"{name}: no realization {realization}; it has 1 to {max(numbers)}"
            )
        return int(realization)


class NpzFolder(BenchmarkSource):
    def __init__(self, folder: Path):
        self.folder = folder

    def names(self) -> list[str]:
        return ida_names(self.folder)

    def realizations(self, name: str) -> list[int]:
        return ida_realizations(self.folder, name)

    def load(self, name: str, realization: int):
        return load_ida(self.folder, name, realization)


class MatFile(BenchmarkSource):
    """``benchmarks.mat``: one struct per data set (x, t, train, test), read by scipy."""

    def __init__(self, path: Path):
        self.path = path
        # scipy.io is needed only for this layout.
        from scipy.io import loadmat
        from scipy.io.matlab import MatReadError

        try:
            raw = loadmat(path, squeeze_me=False, struct_as_record=True)
        except (MatReadError, ValueError, OSError, TypeError) as exc:
            raise DataFileError(path, f"is not a MATLAB file scipy can read ({exc})") from None
        self._sets: dict[str, dict] = {}
        for key, value in raw.items():
            if key.startswith("__") or not isinstance(value, np.ndarray):
                continue
            fields = value.dtype.names or ()
            if not {"x", "t", "train", "test"} <= set(fields):
                continue
            record = value.ravel()[0]
            self._sets[_public(key)] = {
                f: np.asarray(record[f]) for f in ("x", "t", "train", "test")
            }
        if not self._sets:
            raise DataFileError(
                path,
                "holds no data set: expected structs with fields x, t, train and test "
                "(one per data set, as in the IDA benchmarks.mat)",
            )

    def names(self) -> list[str]:
        return sorted(self._sets)

    def _get(self, name: str) -> dict:
        if name not in self._sets:
            raise self._unknown(name, self.path)
        return self._sets[name]

    def realizations(self, name: str) -> list[int]:
        s = self._get(name)
        return list(range(1, np.atleast_2d(s["train"]).shape[0] + 1))

    def load(self, name: str, realization: int):
        s = self._get(name)
        r = self._check_realization(name, realization, self.path)
        X = np.asarray(s["x"], dtype=np.float64)
        y = _labels01(s["t"], self.path, f"{name}.t")
        if X.ndim != 2 or X.shape[0] != y.size:
            raise DataFileError(
                self.path, f"{name}: x has shape {X.shape} but t has {y.size} labels"
            )
        out = []
        for part in ("train", "test"):
            rows = np.atleast_2d(s[part])
            idx = np.asarray(rows[r - 1], dtype=float).ravel()
            if idx.size == 0 or np.any(idx != np.round(idx)) or idx.min() < 1 or idx.max() > y.size:
                raise DataFileError(
                    self.path,
                    f"{name}.{part}, realization {r}: indices must be whole numbers from 1 to "
                    f"{y.size} (1-based rows of x)",
                )
            take = idx.astype(np.int64) - 1
            out += [X[take], y[take]]
        return tuple(out)


class AscFolder(BenchmarkSource):
    """The original ``NAME_{train,test}_{data,labels}_K.asc`` files (here or one level down)."""

    def __init__(self, folder: Path, files: dict):
        self.folder = folder
        self._files = files  # name -> k -> (part, what) -> path

    @staticmethod
    def scan(folder: Path) -> dict:
        files: dict = {}
        candidates = list(folder.glob("*.asc")) + list(folder.glob("*/*.asc"))
        for path in candidates:
            m = _ASC.match(path.name)
            if m:
                name = _public(m["name"])
                files.setdefault(name, {}).setdefault(int(m["k"]), {})[m["part"], m["what"]] = path
        return files

    def names(self) -> list[str]:
        return sorted(self._files)

    def realizations(self, name: str) -> list[int]:
        if name not in self._files:
            raise self._unknown(name, self.folder)
        parts = {("train", "data"), ("train", "labels"), ("test", "data"), ("test", "labels")}
        return sorted(k for k, found in self._files[name].items() if set(found) == parts)

    def load(self, name: str, realization: int):
        r = self._check_realization(name, realization, self.folder)
        found = self._files[name][r]
        out = []
        for part in ("train", "test"):
            data_path, label_path = found[part, "data"], found[part, "labels"]
            try:
                X = np.atleast_2d(np.loadtxt(data_path, dtype=np.float64, ndmin=2))
                t = np.loadtxt(label_path, dtype=np.float64, ndmin=1)
            except ValueError as exc:
                raise DataFileError(data_path, f"is not a table of numbers ({exc})") from None
            y = _labels01(t, label_path, f"{name} {part} labels")
            if X.shape[0] != y.size:
                raise DataFileError(
                    data_path, f"has {X.shape[0]} rows but {label_path.name} has {y.size} labels"
                )
            out += [X, y]
        return tuple(out)


class RandomSplits(BenchmarkSource):
    """One data file (CSV, TSV, svmlight, NPZ without splits) of two classes, split at random.

    Realization k (1-based) puts a stratified ``test_fraction`` of each class in the test set,
    drawn by ``numpy.random.RandomState(seed + k)``, and standardizes both parts by the training
    part's mean and standard deviation (as the IDA points are standardized; a constant feature
    is only centred). The same file, ``splits`` and ``seed`` give the same realizations.
    """

    def __init__(self, path: Path, splits: int, seed: int = 0, test_fraction: float = 0.4):
        # the general file reader (CSV sniffing, NPZ, svmlight) is needed only for this source
        from .files import load_table

        if splits < 1:
            raise ValueError(f"the number of random splits must be at least 1, got {splits}")
        if not 0 < test_fraction < 1:
            raise ValueError(f"the test fraction must be in (0, 1), got {test_fraction}")
        data = load_table(path, task="classification", min_classes=2, max_classes=2)
        self.path, self.splits, self.seed, self.test_fraction = path, splits, seed, test_fraction
        self.X = np.asarray(data.X, dtype=np.float64)
        self.y = np.asarray(data.y, dtype=np.int64)
        counts = np.bincount(self.y, minlength=2)
        if counts.min() < 4:
            raise DataFileError(
                path,
                f"has {counts.min()} point(s) in its smaller class; a split into training and "
                "test sets with 5-fold cross-validation needs at least 4 per class (better tens)",
            )
        self.name = _public(path.stem)

    def names(self) -> list[str]:
        return [self.name]

    def realizations(self, name: str) -> list[int]:
        if name != self.name:
            raise self._unknown(name, self.path)
        return list(range(1, self.splits + 1))

    def load(self, name: str, realization: int):
        self.realizations(name)
        r = self._check_realization(name, realization, self.path)
        rng = np.random.RandomState(self.seed + r)
        test = np.zeros(self.y.size, dtype=bool)
        for c in (0, 1):
            members = np.flatnonzero(self.y == c)
            k = min(members.size - 2, max(1, round(self.test_fraction * members.size)))
            test[rng.permutation(members)[:k]] = True
        train = ~test
        mean = self.X[train].mean(axis=0)
        spread = self.X[train].std(axis=0)
        spread[spread == 0] = 1.0
        Xs = (self.X - mean) / spread
        return Xs[train], self.y[train], Xs[test], self.y[test]


def open_user_data(path, *, splits: int | None = None, seed: int = 0, test_fraction: float = 0.4):
    """A collection of the user's own: what :func:`open_benchmark` reads, or with ``splits``
    one data file split at random (:class:`RandomSplits`)."""
    p = Path(path)
    if splits is not None:
        if not p.is_file():
            raise DataFileNotFoundError(
                path, "is not a file: random splits (--splits) take one data file", full_path=True
            )
        return RandomSplits(p, splits, seed, test_fraction)
    if p.is_file() and p.suffix.lower() == ".npz":
        source = NpzFolder(p.parent)
        return _OneOf(source, p.stem)
    if p.is_file() and p.suffix.lower() != ".mat":
        raise DataFileError(
            path,
            "has no train/test realizations: give the number of random splits (--splits N, "
            "with --seed) or an NPZ with X, y, train_idx, test_idx and realizations",
            full_path=True,
        )
    return open_benchmark(path)


class _OneOf(BenchmarkSource):
    """One data set of another source."""

    def __init__(self, source: BenchmarkSource, name: str):
        self.source, self.name = source, name

    def names(self) -> list[str]:
        return [self.name]

    def realizations(self, name: str) -> list[int]:
        return self.source.realizations(name)

    def load(self, name: str, realization: int):
        return self.source.load(name, realization)


def open_benchmark(path) -> BenchmarkSource:
    """The benchmark collection at ``path``: a ``benchmarks.mat`` file, or a folder of NAME.npz
    files, of ``.asc`` realization files, or holding ``benchmarks.mat``."""
    p = Path(path)
    if not p.exists():
        raise DataFileNotFoundError(
            path,
            "no such file or folder (expected a folder of NAME.npz or NAME_*_K.asc files, or "
            "benchmarks.mat)",
            full_path=True,
        )
    if p.is_file():
        if p.suffix.lower() != ".mat":
            raise DataFileError(
                path,
                "is a file but not a .mat file; give benchmarks.mat or the folder of the data sets",
                full_path=True,
            )
        return MatFile(p)
    if any(p.glob("*.npz")):
        return NpzFolder(p)
    asc = AscFolder.scan(p)
    if asc:
        return AscFolder(p, asc)
    if (p / MAT_NAME).is_file():
        return MatFile(p / MAT_NAME)
    mats = sorted(p.glob("*.mat"))
    if len(mats) == 1:
        return MatFile(mats[0])
    raise DataFileError(
        path,
        "holds no benchmark data: no NAME.npz files, no NAME_train_data_K.asc files (here or "
        f"in a subfolder) and no {MAT_NAME}",
        full_path=True,
    )


__all__ = ["BenchmarkSource", "RandomSplits", "open_benchmark", "open_user_data"]
