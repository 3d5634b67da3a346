"""A small content-keyed cache of the Gram-derived terms of a fit, for refits that change little.

A two-class kernel Fisher discriminant needs, before its one Cholesky solve, the m x n cross-Gram
matrix Kzx, the class means of its columns and the within-class scatter N = Kzx D Kxz (an
m x n x m product). None of these depends on mu, on the regularizer's kind or on the threshold
rule, so a slider on mu or a change of threshold can reuse them: such a refit does no kernel work
and no scatter product, only the solve. The key is the content of the data (a digest of X and of
the labels), the kernel's parameters, the expansion points and the tangent settings (which add
to N), so any change of those misses the cache and computes afresh; a width change still finds
the squared distances in :data:`kfdviz.core.kernels.PAIRWISE_CACHE`.

The cache is bounded (total bytes and number of entries, least recently used evicted first),
its arrays are read-only, and it is safe to use from several threads (the app fits in a worker
thread while the tests or the command line may fit in the main one).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import numpy as np

from . import scatter
from .kernels import Kernel, _digest

# A two-class entry for n = 2000 points expanded over all of them holds 64 MB (Kzx and N).
DEFAULT_MAX_BYTES = 256 * 2**20
DEFAULT_MAX_ENTRIES = 4


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _nbytes(value) -> int:
    nbytes = getattr(value, "nbytes", None)
    if nbytes is not None:
        return int(nbytes)
    return 0


class FitCache:
    """An LRU of fit terms keyed by content, bounded in bytes and entries; thread-safe.

    ``get_or_compute(key, compute)`` returns the stored value for ``key`` or stores and returns
    ``compute()``. The computation runs outside the lock, so a slow fit never blocks another
    thread's lookup; two threads missing on the same key at once both compute it (the same
    value) and the second store wins. A value larger than ``max_bytes`` is returned uncached.
    """

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, max_entries: int = DEFAULT_MAX_ENTRIES):
        self.max_bytes = int(max_bytes)
        self.max_entries = int(max_entries)
        self._store: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_compute(self, key: Hashable, compute: Callable[[], object]):
        if self.max_entries > 0:
            with self._lock:
                if key in self._store:
                    self._store.move_to_end(key)
                    self.hits += 1
                    return self._store[key]
        value = compute()
        with self._lock:
            self.misses += 1
            size = _nbytes(value)
            if self.max_entries <= 0 or size > self.max_bytes:
                return value
            self._store[key] = value
            self._store.move_to_end(key)
            total = sum(_nbytes(v) for v in self._store.values())
            while len(self._store) > self.max_entries or total > self.max_bytes:
                _, old = self._store.popitem(last=False)
                total -= _nbytes(old)
        return value

    def peek(self, key: Hashable):
        """The stored value for ``key``, or None; counts neither a hit nor a miss."""
        with self._lock:
            return self._store.get(key)

    def __len__(self) -> int:
        with self._lock:
            return len(self._store)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(_nbytes(v) for v in self._store.values())

    def clear(self) -> None:
        with self._lock:
            self._store.clear()
            self.hits = 0
            self.misses = 0


FIT_CACHE = FitCache()


def kernel_key(kern: Kernel) -> tuple:
    """The parameters that define the kernel's values (a degree change leaves an RBF alone)."""
    if kern.name == "rbf":
        return ("rbf", float(kern.width))
    if kern.name == "poly":
        return ("poly", int(kern.degree), float(kern.coef0))
    return (kern.name,)


def data_key(X: np.ndarray, y_index: np.ndarray, kern: Kernel, Z: np.ndarray, extra=()) -> tuple:
    """Content key of (data, labels, kernel, expansion points, anything else that enters N)."""
    X = np.asarray(X, dtype=float)
    x_digest = _digest(X)
    z_digest = x_digest if Z is X else _digest(np.asarray(Z, dtype=float))
    return (
        x_digest,
        _digest(np.asarray(y_index, dtype=np.int64)),
        kernel_key(kern),
        z_digest,
        tuple(extra),
    )


@dataclass(frozen=True)
class TwoClassTerms:
    """What a two-class Rayleigh KFD fit needs before its solve; all arrays read-only."""

    Kzx: np.ndarray  # (m, n) k(z_i, x_j)
    means: np.ndarray  # (m, 2) class means of Kzx's columns (TPAMI eq. 5)
    N: np.ndarray  # (m, m) within-class scatter (eq. 7), plus any tangent term

    @property
    def nbytes(self) -> int:
        return self.Kzx.nbytes + self.means.nbytes + self.N.nbytes

    @property
    def mean_difference(self) -> np.ndarray:
        """d = mu_2 - mu_1, with M = d d' (eq. 6)."""
        return self.means[:, 1] - self.means[:, 0]


def cached_two_class_terms(
    kern: Kernel, X: np.ndarray, y_index: np.ndarray, cache: FitCache | None = None
) -> TwoClassTerms | None:
    """The terms :func:`two_class_terms` holds for every point of ``X`` a center and no extra
    term, or None (nothing is computed)."""
    store = FIT_CACHE if cache is None else cache
    return store.peek(("two-class", *data_key(X, y_index, kern, X)))


def two_class_terms(
    kern: Kernel,
    X: np.ndarray,
    Z: np.ndarray,
    y_index: np.ndarray,
    *,
    within: Callable[[np.ndarray], np.ndarray] | None = None,
    extra: tuple = (),
    cache: FitCache | None = None,
    update: Callable[[], TwoClassTerms | None] | None = None,
) -> TwoClassTerms:
    """Kzx, the class means and N for labels ``y_index`` in {0, 1}, from the cache if present.

    ``within(Kzx)`` computes N (default: :func:`scatter.within_class_scatter`); everything it
    depends on besides X, the labels, the kernel and Z must be in ``extra`` (e.g. the tangent
    settings), or a stale N would be reused. On a miss, ``update()`` is tried first: the terms
    derived from an earlier fit's (:mod:`.incremental`, one point moved), or None.
    """
    store = FIT_CACHE if cache is None else cache
    key = ("two-class", *data_key(X, y_index, kern, Z, extra))

    def compute() -> TwoClassTerms:
        updated = update() if update is not None else None
        if updated is not None:
            return updated
        Kzx = kern(Z, X)
        means = scatter.class_means(Kzx, y_index, 2)
        N = within(Kzx) if within is not None else scatter.within_class_scatter(Kzx, y_index, 2)
        return TwoClassTerms(_frozen(Kzx), _frozen(means), _frozen(N))

    return store.get_or_compute(key, compute)
