"""Kernel functions and Gram matrices, computed in row blocks that a cancel can stop between.

The papers write the Gaussian kernel as exp(-||x - z||^2 / c): ``width`` is that c (a width, not a
standard deviation). The polynomial kernel is (x.z + coef0)^degree; coef0 = 0 is TPAMI's homogeneous
kernel, coef0 = 1 the KOC paper's. Squared distances (Gaussian) and inner products (polynomial,
linear) are cached by content, so a change of width or degree alone costs one elementwise pass.

Every matrix is built in blocks of rows of at most :data:`BLOCK_VALUES` entries. Inside a
:func:`kfdviz.core.stoppable.cancel_scope` the scope's cancel check is asked before each block,
so a cancel waits for one block (tens of milliseconds), not for the whole matrix (about a second
for 2500 points on a busy machine). A Gram matrix of a set with itself is computed on and below
the diagonal and mirrored, so it is exactly symmetric, for any BLAS.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from . import stoppable


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
# Entries of one block of a Gram matrix: the cancel check is asked between blocks. 2**20 values
# are a few milliseconds of work on an idle machine and tens of milliseconds on a busy one.
BLOCK_VALUES = 2**20


def chunk_rows(n_rows: int, n_cols: int, *, itemsize: int = 8, factor: int = 3) -> int:
    """Rows per chunk so that ``factor`` temporaries of shape (rows, n_cols) fit in CHUNK_BYTES."""
    per_row = max(1, n_cols * itemsize * factor)
    return int(max(1, min(n_rows, CHUNK_BYTES // per_row)))


def block_rows(n_rows: int, n_cols: int) -> int:
    """Rows per block of an (n_rows, n_cols) matrix: at most :data:`BLOCK_VALUES` entries and
    within :func:`chunk_rows`'s memory bound, at least one row."""
    return int(max(1, min(chunk_rows(n_rows, n_cols), BLOCK_VALUES // max(1, n_cols))))


def _row_blocks(n_rows: int, n_cols: int):
    """Consecutive row slices covering ``range(n_rows)``, each of :func:`block_rows` rows.

    Inside a cancel scope its check is asked before each block; what it raises ends the build.
    """
    control = stoppable.current()
    step = block_rows(n_rows, n_cols)
    for start in range(0, n_rows, step):
        if control is not None:
            control.check()
        yield slice(start, min(start + step, n_rows))


def _same_points(X: np.ndarray, Z: np.ndarray) -> bool:
    return X is Z or (X.shape == Z.shape and np.array_equal(X, Z))


def _sqdist_block(xs: np.ndarray, xx: np.ndarray, Z: np.ndarray, zz: np.ndarray, out: np.ndarray):
    """Squared distances of the rows ``xs`` (squared norms ``xx``) to ``Z`` (``zz``) into ``out``.

    The expanded form ||x||^2 - 2 x.z + ||z||^2 is fast but leaves round-off of order
    eps (||x||^2 + ||z||^2), which a narrow Gaussian turns into visible errors (k(x, x) < 1, and
    different on different BLAS): entries that small are recomputed as sum((x - z)^2), which is
    exact for identical points.
    """
    np.matmul(xs, Z.T, out=out)
    out *= -2.0
    out += xx[:, None]
    out += zz[None, :]
    rows, cols = np.nonzero(out <= _CANCELLATION * (xx[:, None] + zz[None, :]))
    if rows.size:
        diff = xs[rows] - Z[cols]
        out[rows, cols] = np.einsum("ij,ij->i", diff, diff)
    np.maximum(out, 0.0, out=out)


def _dot_block(xs: np.ndarray, xx: np.ndarray, Z: np.ndarray, zz: np.ndarray, out: np.ndarray):
    """Inner products of the rows ``xs`` with ``Z`` into ``out`` (the norms are not needed)."""
    np.matmul(xs, Z.T, out=out)


def _pairwise(X: np.ndarray, Z: np.ndarray, block) -> np.ndarray:
    """The (len(X), len(Z)) matrix whose row blocks ``block(xs, xx, Z, zz, out)`` computes
    (``xx``, ``zz``: the rows' squared norms), one :func:`_row_blocks` block at a time.

    For the same points on both sides only the blocks on and below the diagonal are computed,
    each mirrored above it: the matrix is exactly symmetric and costs half the work.
    """
    out = np.empty((X.shape[0], Z.shape[0]), dtype=np.result_type(X, Z, np.float32))
    zz = np.einsum("ij,ij->i", Z, Z)
    xx = zz if X is Z else np.einsum("ij,ij->i", X, X)
    if not _same_points(X, Z):
        for rows in _row_blocks(X.shape[0], Z.shape[0]):
            block(X[rows], xx[rows], Z, zz, out[rows])
        return out
    # Lower blocks: rows a:b against columns 0:b; the widest has n columns, as unblocked rows.
    for rows in _row_blocks(X.shape[0], X.shape[0]):
        a, b = rows.start, rows.stop
        block(X[rows], xx[rows], X[:b], xx[:b], out[a:b, :b])
        square = out[a:b, a:b]
        upper = np.triu_indices(b - a, 1)
        square[upper] = square.T[upper]
        out[:a, a:b] = out[a:b, :a].T
    return out


def _sqdist(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances, non-negative, exactly 0 between identical points."""
    return _pairwise(X, Z, _sqdist_block)


def _dot(X: np.ndarray, Z: np.ndarray) -> np.ndarray:
    return _pairwise(X, Z, _dot_block)


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


def _power(a: np.ndarray, degree: int) -> None:
    """``a **= degree`` in place. Degrees up to 4 (the usual ones) by one or two products,
    several times faster than ``pow`` and within 3 ulp of it; higher degrees by ``np.power``."""
    if degree == 2:
        np.square(a, out=a)
    elif degree == 3:
        a *= np.square(a)
    elif degree == 4:
        np.square(a, out=a)
        np.square(a, out=a)
    elif degree != 1:
        np.power(a, degree, out=a)


def _elementwise_blocks(A: np.ndarray):
    """Row blocks of ``A`` for an elementwise pass (a 1-D array or a scalar is one block)."""
    if A.ndim < 2:
        return iter((Ellipsis,))
    return _row_blocks(A.shape[0], int(np.prod(A.shape[1:])))


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
        """exp(-D2 / width), elementwise, a cancel-checked row block at a time."""
        if self.name != "rbf":
            raise ValueError(f"from_sqdist applies to the Gaussian kernel, not {self.name!r}")
        D2 = np.asarray(D2)
        out = np.empty(D2.shape, dtype=np.result_type(D2, np.float32))
        for rows in _elementwise_blocks(D2):
            np.multiply(D2[rows], -1.0 / self.width, out=out[rows])
            np.exp(out[rows], out=out[rows])
        return out

    def from_dot(self, G: np.ndarray) -> np.ndarray:
        """The kernel from inner products ``G``, elementwise, a cancel-checked row block at a
        time."""
        if self.name not in ("linear", "poly"):
            raise ValueError("from_dot applies to the polynomial and linear kernels")
        G = np.asarray(G)
        out = np.empty(G.shape, dtype=float)
        for rows in _elementwise_blocks(G):
            if self.name == "linear":
                out[rows] = G[rows]
            else:
                np.add(G[rows], self.coef0, out=out[rows])
                _power(out[rows], int(self.degree))
        return out

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
