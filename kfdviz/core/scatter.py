"""Builders of the quadratic forms M and N in expansion coefficients (TPAMI eqs. 2, 3, 6, 7).

With expansion points z_1..z_m and training points x_1..x_n, ``Kzx`` is the m x n matrix
k(z_i, x_j). Each builder returns an m x m matrix S with w'S_F w = a'S a in feature space.
"""

from __future__ import annotations

import numpy as np

from . import stoppable

# The flops (m^2 n of an m x n C) the product C C' may take between two questions to a cancel
# scope: about a tenth of a second of one core.
CANCEL_BLOCK_FLOPS = 1e9


def _onehot(y_index: np.ndarray, n_classes: int) -> np.ndarray:
    onehot = np.zeros((y_index.size, n_classes))
    onehot[np.arange(y_index.size), y_index] = 1.0
    return onehot


def class_means(Kzx: np.ndarray, y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """mu_j = mean of class j's columns of Kzx (eq. 5), as an m x r matrix."""
    counts = np.bincount(y_index, minlength=n_classes).astype(float)
    return (Kzx @ _onehot(y_index, n_classes)) / counts


def covariance(Kzx: np.ndarray) -> np.ndarray:
    """Feature-space covariance (eq. 2): (1/n) Kzx H Kxz with H = I - 11'/n."""
    n = Kzx.shape[1]
    centred = Kzx - Kzx.mean(axis=1, keepdims=True)
    return (centred @ centred.T) / n


def within_class_scatter(Kzx: np.ndarray, y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """N = Kzx D Kxz, D = I - sum_j v_j v_j' (eq. 7): the sum of per-class centred scatters.

    Formed as C C' with C = Kzx minus each column's class mean: numpy hands ``C @ C.T`` to BLAS
    syrk, which computes one triangle (half the flops of a general product). The class means are
    spread over the columns by a product with the one-hot matrix (exact: one nonzero term per
    entry), which is several times faster than gathering ``means[:, y_index]``, and C is built
    in that same buffer.
    """
    onehot = _onehot(y_index, n_classes)
    counts = onehot.sum(axis=0)
    centred = ((Kzx @ onehot) / counts) @ onehot.T
    np.subtract(Kzx, centred, out=centred)
    return _gram_of_rows(centred)


def _gram_of_rows(C: np.ndarray) -> np.ndarray:
    """C C' in one BLAS call; inside a cancel scope, as a sum over column blocks of C with the
    scope's check asked before each, so that a cancel lands within a block's time (each block's
    product is symmetric, so the sum is exactly symmetric too)."""
    control = stoppable.current()
    m, n = C.shape
    if control is None or float(m) * m * n <= CANCEL_BLOCK_FLOPS:
        return C @ C.T
    step = max(1, int(CANCEL_BLOCK_FLOPS // (float(m) * m)))
    N = np.zeros((m, m))
    for start in range(0, n, step):
        control.check()
        block = C[:, start : start + step]
        N += block @ block.T
    return N


def between_class_scatter(Kzx: np.ndarray, y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """sum_j l_j (mu_j - mu)(mu_j - mu)' (the multi-class generalization; GDA)."""
    means = class_means(Kzx, y_index, n_classes)
    counts = np.bincount(y_index, minlength=n_classes).astype(float)
    overall = Kzx.mean(axis=1, keepdims=True)
    diff = (means - overall) * np.sqrt(counts)
    return diff @ diff.T


def tangent_covariance(T: np.ndarray) -> np.ndarray:
    """T T' for a tangent matrix T (eq. 3 in expansion coefficients)."""
    return T @ T.T
