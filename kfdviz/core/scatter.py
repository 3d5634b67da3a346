"""Builders of the quadratic forms M and N in expansion coefficients (TPAMI eqs. 2, 3, 6, 7).

With expansion points z_1..z_m and training points x_1..x_n, ``Kzx`` is the m x n matrix
k(z_i, x_j). Each builder returns an m x m matrix S with w'S_F w = a'S a in feature space.
"""

from __future__ import annotations

import numpy as np


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
    return centred @ centred.T


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
