"""Kernel functions and Gram matrices, computed in memory-bounded chunks.

The papers write the Gaussian kernel as exp(-||x - z||^2 / c): ``width`` is that c (a width, not a
standard deviation). The polynomial kernel is (x.z + coef0)^degree; coef0 = 0 is TPAMI's homogeneous
kernel, coef0 = 1 the KOC paper's. Squared distances (Gaussian) and inner products (polynomial,
linear) are cached by content, so a change of width or degree alone costs one elementwise pass.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class KernelKind:
    """One kind of kernel: its name in parameters, its name in prose, the parameters it reads.

    ``relative_cost`` is the time of one kernel value against the Gaussian's (a distance and an
    exponential); products and powers cost about half as much.
    """

    name: str
    title: str
    parameters: tuple[str, ...]
    relative_cost: float


# Every kernel the estimators take, in the order the window offers them.
KERNEL_KINDS = {
    kind.name: kind
    for kind in (
        KernelKind("rbf", "Gaussian", ("width",), 1.0),
        KernelKind("poly", "polynomial", ("degree", "coef0"), 0.5),
        KernelKind("linear", "linear", (), 0.5),
    )
}
# The values of an estimator's ``kernel`` parameter.
KERNEL_NAMES = tuple(KERNEL_KINDS)
# The parameters that together choose a kernel; every kernel estimator takes all four.
KERNEL_PARAMETERS = ("kernel", "width", "degree", "coef0")

# Squared distances below this fraction of ||x||^2 + ||z||^2 are recomputed from differences.
_CANCELLATION = 1e-6
# Bound on the temporaries one chunk of a kernel computation may allocate.
CHUNK_BYTES = 64 * 2**20


def chunk_rows(n_rows: int, n_cols: int, *, itemsize: int = 8, factor: int = 3) -> int:
    """Rows per chunk so that ``factor`` temporaries of shape (rows, n_cols) fit in CHUNK_BYTES."""
    per_row = max(1, n_cols * itemsize * factor)
    return int(max(1, min(n_rows, CHUNK_BYTES // per_row)))


def _sqdist(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances, chunked over rows of X.

    The expanded form ||x||^2 - 2 x.z + ||z||^2 is fast but leaves round-off of order
    eps (||x||^2 + ||z||^2), which a narrow Gaussian turns into visible errors (k(x, x) < 1, and
    different on different BLAS): entries that small are recomputed as sum((x - z)^2), which is
    exact for identical points.
    """
    out = np.empty((X.shape[0], Z.shape[0]), dtype=np.result_type(X, Z, np.float32))
    zz = np.einsum("ij,ij->i", Z, Z)
    step = chunk_rows(X.shape[0], Z.shape[0])
    for start in range(0, X.shape[0], step):
        xs = X[start : start + step]
        xx = np.einsum("ij,ij->i", xs, xs)
        block = out[start : start + step]
        np.dot(xs, Z.T, out=block)
        block *= -2.0
        block += xx[:, None]
        block += zz[None, :]
        rows, cols = np.nonzero(block <= _CANCELLATION * (xx[:, None] + zz[None, :]))
        if rows.size:
            diff = xs[rows] - Z[cols]
            block[rows, cols] = np.einsum("ij,ij->i", diff, diff)
        np.maximum(block, 0.0, out=block)
    return out


def _dot(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    return X @ Z.T


def _digest(a: np.ndarray) -> bytes:
    a = np.ascontiguousarray(a)
    h = hashlib.blake2b(digest_size=16)
    h.update(str((a.shape, a.dtype.str)).encode())
    if a.size:  # a zero-size view cannot be cast to bytes
        h.update(memoryview(a).cast("B"))
    return h.digest()


class PairwiseCache:
    """A small LRU of squared-distance and inner-product matrices, keyed by array content.

    Width sliders in the app refit the same data many times; keeping the distance matrix makes a
    width change cost one elementwise exponential instead of a full kernel evaluation.
    """

    def __init__(self, max_bytes: int = 512 * 2**20, max_entries: int = 32):
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self._store: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, kind: str, X: np.ndarray, Z: np.ndarray, compute) -> np.ndarray:
        nbytes = X.shape[0] * Z.shape[0] * 8
        if nbytes > self.max_bytes or self.max_entries == 0:
            return compute(X, Z)
        key = (kind, _digest(X), _digest(Z))
        with self._lock:
            hit = self._store.get(key)
            if hit is not None:
                self._store.move_to_end(key)
                self.hits += 1
                return hit
        value = compute(X, Z)
        value.setflags(write=False)
        with self._lock:
            self.misses += 1
            self._store[key] = value
            total = sum(v.nbytes for v in self._store.values())
            while self._store and (len(self._store) > self.max_entries or total > self.max_bytes):
                _, old = self._store.popitem(last=False)
                total -= old.nbytes
        return value

    def clear(self) -> None:
        with self._lock:
            self._store.clear()


PAIRWISE_CACHE = PairwiseCache()


@dataclass(frozen=True)
class Kernel:
    """A positive (semi-)definite kernel with the parameter names every estimator uses."""

    name: str = "rbf"
    width: float = 1.0
    degree: int = 3
    coef0: float = 1.0

    def __post_init__(self):
        if self.name not in KERNEL_NAMES:
            raise ValueError(
                f"Unknown kernel {self.name!r}: choose one of {', '.join(KERNEL_NAMES)}."
            )
        if self.name == "rbf" and not (np.isfinite(self.width) and self.width > 0):
            raise ValueError(
                f"The Gaussian kernel width must be a positive number, got width={self.width!r}; "
                "try a value near the squared spread of the data (e.g. 1.0)."
            )
        if self.name == "poly" and not (
            np.isfinite(self.degree) and self.degree >= 1 and int(self.degree) == self.degree
        ):
            raise ValueError(
                f"The polynomial degree must be a whole number >= 1, got degree={self.degree!r}."
            )

    # -- evaluation -------------------------------------------------------------------------
    def __call__(self, X: np.ndarray, Z: np.ndarray, *, cache: bool = True) -> np.ndarray:
        """The cross-Gram matrix k(X[i], Z[j]) of shape (len(X), len(Z))."""
        X = np.asarray(X, dtype=float)
        Z = np.asarray(Z, dtype=float)
        if self.name == "rbf":
            D2 = PAIRWISE_CACHE.get("sqdist", X, Z, _sqdist) if cache else _sqdist(X, Z)
            return self.from_sqdist(D2)
        G = PAIRWISE_CACHE.get("dot", X, Z, _dot) if cache else _dot(X, Z)
        return self.from_dot(G)

    def from_sqdist(self, D2: np.ndarray) -> np.ndarray:
        if self.name != "rbf":
            raise ValueError(f"from_sqdist applies to the Gaussian kernel, not {self.name!r}")
        out = np.multiply(D2, -1.0 / self.width)
        np.exp(out, out=out)
        return out

    def from_dot(self, G: np.ndarray) -> np.ndarray:
        if self.name == "linear":
            return np.array(G, dtype=float, copy=True)
        if self.name == "poly":
            out = np.add(G, self.coef0)
            return np.power(out, int(self.degree), out=out)
        raise ValueError("from_dot applies to the polynomial and linear kernels")

    def diag(self, X: np.ndarray) -> np.ndarray:
        """k(x, x) for each row, without forming the Gram matrix."""
        X = np.asarray(X, dtype=float)
        if self.name == "rbf":
            return np.ones(X.shape[0])
        sq = np.einsum("ij,ij->i", X, X)
        return self.from_dot(sq)

    @property
    def gamma(self) -> float:
        """The scikit-learn gamma of the Gaussian kernel: exp(-gamma ||x - z||^2), gamma = 1/width."""
        return 1.0 / self.width

    def sklearn_params(self) -> dict:
        """The same kernel in scikit-learn's naming (SVC, KernelPCA, pairwise_kernels)."""
        if self.name == "rbf":
            return {"kernel": "rbf", "gamma": self.gamma}
        if self.name == "poly":
            return {"kernel": "poly", "degree": int(self.degree), "gamma": 1.0, "coef0": self.coef0}
        return {"kernel": "linear"}
