"""The Kernel Orthogonal Centroid method (Park & Park), Algorithms 2 and 3.

Both give, for each class j with index set N_j, coefficients such that the r-dimensional
representation of x is Q_r' Phi(x) = A' k(X, x): an expansion over the training points.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

KOC_ALGORITHMS = ("cholesky", "gram-schmidt")


def centroid_indicator(y_index: np.ndarray, n_classes: int) -> np.ndarray:
    """M of eq. (27): M_ij = 1/n_j when point i is in class j."""
    counts = np.bincount(y_index, minlength=n_classes).astype(float)
    M = np.zeros((y_index.size, n_classes))
    M[np.arange(y_index.size), y_index] = 1.0 / counts[y_index]
    return M


def _not_positive_definite(detail: str) -> ValueError:
    return ValueError(
        "The centroid Gram matrix M'KM is not positive definite "
        f"({detail}): two class centroids coincide in feature space. Use a positive definite "
        "kernel (e.g. rbf) or check for classes with identical points."
    )


def koc_cholesky(K: np.ndarray, M: np.ndarray) -> np.ndarray:
    """Algorithm 2: R = chol(M'KM); returns A (n x r) with x_hat = R^{-T} M' k(X, x) = A' k."""
    CtC = M.T @ K @ M
    try:
        R = linalg.cholesky(0.5 * (CtC + CtC.T), lower=False)
    except linalg.LinAlgError as exc:
        raise _not_positive_definite(str(exc)) from None
    # The same tolerance as Algorithm 3: R[s, s]^2 is centroid s's norm^2 after orthogonalization.
    pivots = np.diag(R) ** 2
    if pivots.min() <= 1e-14 * max(1.0, np.abs(np.diag(K)).max()):
        s = int(np.argmin(pivots))
        raise _not_positive_definite(
            f"centroid {s} has norm^2 {pivots[s]:.3g} after orthogonalization"
        )
    # x_hat = R^{-T} M' k  =>  A' = R^{-T} M'  =>  A = M R^{-1}
    return linalg.solve_triangular(R, M.T, trans="T", lower=False).T


def koc_gram_schmidt(K: np.ndarray, M: np.ndarray) -> np.ndarray:
    """Algorithm 3: modified Gram-Schmidt on the implicit centroids; returns A (n x r)."""
    beta = M.copy()
    r = beta.shape[1]
    alpha = np.zeros_like(beta)
    for s in range(r):
        rss2 = float(beta[:, s] @ K @ beta[:, s])
        if rss2 <= 1e-14 * max(1.0, np.abs(np.diag(K)).max()):
            raise _not_positive_definite(
                f"centroid {s} has norm^2 {rss2:.3g} after orthogonalization"
            )
        alpha[:, s] = beta[:, s] / np.sqrt(rss2)
        if s + 1 < r:
            r_st = alpha[:, s] @ K @ beta[:, s + 1 :]
            beta[:, s + 1 :] -= np.outer(alpha[:, s], r_st)
    return alpha
