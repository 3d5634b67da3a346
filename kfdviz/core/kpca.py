"""Centred kernel PCA as an expansion over the training points.

KPCA is the Rayleigh coefficient with S_I the covariance (eq. 2) and S_N the identity; in
expansion coefficients it is the symmetric eigenproblem of the centred Gram matrix, solved here
with a partial eigensolver (only the leading eigenpairs are computed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg


@dataclass(frozen=True)
class CentredEigenSolution:
    eigenvalues: np.ndarray  # (k,) of the centred Gram matrix, descending
    coef: np.ndarray  # (n, k): uncentred expansion coefficients of the unit-norm features
    offset: np.ndarray  # (k,)
    spectrum: np.ndarray  # leading eigenvalues, for diagnostics


def centred_kpca(K: np.ndarray, n_components: int, *, tol: float = 1e-12) -> CentredEigenSolution:
    """Leading eigenpairs of H K H; features are projections onto unit vectors in feature space.

    A feature f(x) = sum_i beta_i k~(x_i, x) with the centred kernel k~ is rewritten as an
    ordinary expansion sum_i a_i k(x_i, x) + c, with a = H beta and
    c = -beta' r + (1'beta) mean(K), where r holds K's row means.
    """
    n = K.shape[0]
    row_means = K.mean(axis=1)
    total_mean = row_means.mean()
    Kc = K - row_means[:, None] - row_means[None, :] + total_mean
    k = min(n_components, n)
    vals, vecs = linalg.eigh(Kc, subset_by_index=[n - k, n - 1], driver="evr")
    order = np.argsort(vals)[::-1]
    vals, vecs = vals[order], vecs[:, order]
    # Deterministic signs: largest-magnitude entry positive.
    idx = np.argmax(np.abs(vecs), axis=0)
    vecs = vecs * np.where(vecs[idx, np.arange(k)] < 0, -1.0, 1.0)
    positive = vals > tol * max(vals[0], np.finfo(float).tiny)
    vals, vecs = vals[positive], vecs[:, positive]
    beta = vecs / np.sqrt(vals)
    coef = beta - beta.mean(axis=0)
    offset = -(row_means @ beta) + beta.sum(axis=0) * total_mean
    return CentredEigenSolution(vals, coef, offset, vals)
