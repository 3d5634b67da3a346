"""Two-class KFD terms after one training point moved: updated, not recomputed.

Dragging a point in the window changes one row of X between two fits. When every training point
is also an expansion point (Z = X, the default), the Gram matrix K changes in that point's row
and column only, and what a two-class KFD fit needs before its solve (:class:`TwoClassTerms`:
K, the class means, the within-class scatter N) follows by low-rank corrections. With Y the
n x 2 one-hot labels, D the class sizes and P = I - Y D^-1 Y' the within-class centring (the D
of TPAMI eq. 7), the means are M = K Y D^-1 and N = (KP)(KP)' = K P K. If point j moves,

- K' = K + e_j u' + u e_j', where u is the change of K's column j (its j-th entry halved: the
  diagonal entry is in both the row and the column);
- M' = M + e_j (u' Y D^-1) + u (e_j' Y D^-1);
- N' = K'P K' = N + A B' + B A' with A = [e_j, u], B = [K P u, K P e_j] + A G / 2 and
  G = [u, e_j]' P [u, e_j] (2 x 2): a rank-4 correction. Computed as X + X' with X = A B', it is
  exactly symmetric, like the N it corrects.

That costs one kernel column (n evaluations) and two products of K with a vector (2n^2 flops)
instead of the n^2 kernel values and the n^3 scatter product (BLAS syrk). The Cholesky solve that
follows is unchanged. Round-off grows slowly with successive updates, so the terms are computed
afresh after :data:`REFRESH` of them; the tests hold every update against a full recompute.

:func:`remember` keeps the terms of the latest fit with Z = X (no copy: its arrays are read-only
and shared with the fit cache); :func:`moved_point_terms` returns the updated terms when the new
data differ from the remembered in exactly one row, with the same labels and kernel, else None.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from .fit_cache import DEFAULT_MAX_BYTES, TwoClassTerms, kernel_key
from .kernels import Kernel

# Successive updates before the terms are computed afresh (bounds the accumulated round-off).
REFRESH = 64
# Terms larger than this are not remembered (no more than the fit cache holds).
MAX_BYTES = DEFAULT_MAX_BYTES


@dataclass(frozen=True)
class _Remembered:
    X: np.ndarray  # a read-only copy of the training points
    y_index: np.ndarray
    kernel: tuple
    terms: TwoClassTerms
    updates: int  # how many updates since the terms were computed afresh


_last: _Remembered | None = None
_lock = threading.Lock()
# Counts of what happened, for tests and benchmarks: updates made, and fresh fits remembered.
stats = {"updates": 0, "remembered": 0}


def forget() -> None:
    """Drop the remembered terms (and reset the counts)."""
    global _last
    with _lock:
        _last = None
        stats["updates"] = stats["remembered"] = 0


def moved_row(before: np.ndarray, after: np.ndarray) -> int | None:
    """The index of the one row in which ``after`` differs from ``before``; None if no row or
    several rows differ, or the shapes differ."""
    if before.shape != after.shape or before.ndim != 2:
        return None
    changed = np.flatnonzero(np.any(before != after, axis=1))
    return int(changed[0]) if changed.size == 1 else None


def _onehot(y_index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    onehot = np.zeros((y_index.size, 2))
    onehot[np.arange(y_index.size), y_index] = 1.0
    return onehot, onehot.sum(axis=0)


def update_two_class_terms(
    kern: Kernel, terms: TwoClassTerms, X_new: np.ndarray, j: int, y_index: np.ndarray
) -> TwoClassTerms:
    """The terms of ``X_new`` from those of the data it differs from in row ``j`` only
    (every point a center; labels ``y_index`` in {0, 1} unchanged). See the module's docstring."""
    K, means, N = terms.Kzx, terms.means, terms.N
    n = K.shape[0]
    column = kern(X_new, X_new[j : j + 1], cache=False)[:, 0]
    u = column - K[:, j]
    u[j] *= 0.5
    onehot, counts = _onehot(y_index)
    spread = onehot / counts  # Y D^-1

    def centred(v: np.ndarray) -> np.ndarray:  # P v: v minus its class means
        return v - onehot @ (spread.T @ v)

    e = np.zeros(n)
    e[j] = 1.0
    pu, pe = centred(u), centred(e)
    A = np.column_stack([e, u])
    G = np.array([[u @ pu, u @ pe], [e @ pu, e @ pe]])
    G = 0.5 * (G + G.T)  # symmetric in exact arithmetic
    B = K @ np.column_stack([pu, pe]) + 0.5 * (A @ G)
    half = A @ B.T
    N_new = half + half.T  # exactly symmetric
    N_new += N  # = N + (half + half'), without another n x n temporary

    K_new = np.array(K, copy=True)
    K_new[j, :] += u
    K_new[:, j] += u
    means_new = means + np.outer(e, u @ spread) + np.outer(u, spread[j])
    for a in (K_new, means_new, N_new):
        a.setflags(write=False)
    return TwoClassTerms(K_new, means_new, N_new)


def remember(kern: Kernel, X: np.ndarray, y_index: np.ndarray, terms: TwoClassTerms) -> None:
    """Keep ``terms`` (of a fit with every point of ``X`` a center) for the next fit's update."""
    global _last
    if terms.nbytes > MAX_BYTES:
        return
    key = kernel_key(kern)
    with _lock:
        last = _last
        if last is not None and last.terms is terms:
            return  # already remembered (the update itself, or a cache hit on it)
        X_copy = np.array(X, dtype=float, copy=True)
        X_copy.setflags(write=False)
        labels = np.array(y_index, dtype=np.int64, copy=True)
        labels.setflags(write=False)
        _last = _Remembered(X_copy, labels, key, terms, 0)
        stats["remembered"] += 1


def moved_point_terms(kern: Kernel, X: np.ndarray, y_index: np.ndarray) -> TwoClassTerms | None:
    """The remembered terms updated to ``X`` when exactly one point moved (same labels, same
    kernel, at most :data:`REFRESH` updates in a row); None otherwise (compute afresh)."""
    global _last
    with _lock:
        last = _last
    if last is None or last.kernel != kernel_key(kern) or last.updates >= REFRESH:
        return None
    X = np.asarray(X, dtype=float)
    if last.y_index.shape != np.shape(y_index) or not np.array_equal(last.y_index, y_index):
        return None
    j = moved_row(last.X, X)
    if j is None:
        return None
    terms = update_two_class_terms(kern, last.terms, X, j, last.y_index)
    X_copy = np.array(X, copy=True)
    X_copy.setflags(write=False)
    with _lock:
        _last = _Remembered(X_copy, last.y_index, last.kernel, terms, last.updates + 1)
        stats["updates"] += 1
    return terms
