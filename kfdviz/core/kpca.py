"""Centred kernel PCA as an expansion over the training points.

KPCA is the Rayleigh coefficient with S_I the covariance (eq. 2) and S_N the identity; in
expansion coefficients it is the symmetric eigenproblem of the centred Gram matrix, solved here
for the leading eigenpairs only (core/eigen.py, which checks the answer and makes it independent
of the BLAS): ARPACK's Lanczos iteration (matrix-vector products only) for a few components of a
large matrix, LAPACK's ``syevr`` otherwise or where ARPACK does not converge or meets a cluster
of eigenvalues. Both compute the same eigenpairs to machine precision; they differ only in cost.

The Lanczos iteration never forms the centred matrix H K H: each product is H (K (H v)), with
H v = v - mean(v) and K v by BLAS ``symv``, which reads one triangle of K. The products are
memory-bound, so reading half the matrix halves their time, and no second n x n array is made.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import blas
from scipy.sparse.linalg import LinearOperator

from . import eigen

EIGEN_SOLVERS = ("auto", "arpack", "dense")
# scikit-learn's KernelPCA policy, confirmed here by measurement: above 200 points and below 10
# components the Lanczos iteration is faster (5x at n = 1000, 25x at n = 2000 for a Gaussian
# kernel; still 1.5-2x where the spectrum decays slowly, e.g. very narrow widths).
ARPACK_MIN_POINTS = 200
ARPACK_MAX_COMPONENTS = 10
# From this size on the Lanczos products use BLAS symv (one triangle of K) instead of gemv.
SYMV_MIN_POINTS = 1000


@dataclass(frozen=True)
class CentredEigenSolution:
    eigenvalues: np.ndarray  # (k,) of the centred Gram matrix, descending
    coef: np.ndarray  # (n, k): uncentred expansion coefficients of the unit-norm features
    offset: np.ndarray  # (k,)
    spectrum: np.ndarray  # leading eigenvalues, for diagnostics
    solver: str = "dense"  # "arpack" or "dense": the one that produced the eigenpairs


def choose_solver(n: int, k: int, eigen_solver: str = "auto") -> str:
    if eigen_solver not in EIGEN_SOLVERS:
        raise ValueError(
            f"Unknown eigen_solver={eigen_solver!r}: choose one of {', '.join(EIGEN_SOLVERS)}."
        )
    if eigen_solver != "auto":
        return eigen_solver if k < n else "dense"
    return "arpack" if n > ARPACK_MIN_POINTS and k < ARPACK_MAX_COMPONENTS else "dense"


def _centre(K: np.ndarray) -> np.ndarray:
    """H K H with H = I - 11'/n, in one new array."""
    row_means = K.mean(axis=1)
    Kc = np.subtract(K, row_means[:, None])
    Kc -= row_means[None, :]
    Kc += row_means.mean()
    return Kc


def _centred_operator(K: np.ndarray) -> LinearOperator:
    """v -> H K H v without forming H K H; K's lower triangle (in Fortran order) is read."""
    n = K.shape[0]
    if n < SYMV_MIN_POINTS:
        # Small: a plain product (OpenBLAS runs small gemv on one thread, but symv on all of
        # them, and waking threads costs more than the halved memory traffic saves).
        def matvec_small(v: np.ndarray) -> np.ndarray:
            v = np.ravel(v)
            w = K @ (v - v.mean())
            w -= w.mean()
            return w

        return LinearOperator((n, n), matvec=matvec_small, dtype=K.dtype)
    # symv wants Fortran order; a C-ordered symmetric K is its own transpose, so K.T is that
    # matrix in Fortran order without a copy (its "lower" triangle is K's upper one).
    if K.flags.f_contiguous:
        KF = K
    elif K.flags.c_contiguous:
        KF = K.T
    else:
        KF = np.asfortranarray(K)
    symv = blas.get_blas_funcs("symv", (KF,))

    def matvec(v: np.ndarray) -> np.ndarray:
        v = np.ravel(v)
        w = symv(1.0, KF, v - v.mean(), lower=1)
        w -= w.mean()
        return w

    return LinearOperator((n, n), matvec=matvec, dtype=KF.dtype)


def centred_kpca(
    K: np.ndarray, n_components: int, *, tol: float = 1e-12, eigen_solver: str = "auto"
) -> CentredEigenSolution:
    """Leading eigenpairs of H K H; features are projections onto unit vectors in feature space.

    A feature f(x) = sum_i beta_i k~(x_i, x) with the centred kernel k~ is rewritten as an
    ordinary expansion sum_i a_i k(x_i, x) + c, with a = H beta and
    c = -beta' r + (1'beta) mean(K), where r holds K's row means. ``eigen_solver`` is "auto"
    (ARPACK for fewer than 10 components of more than 200 points, as scikit-learn decides),
    "arpack" or "dense". Eigenvalues at or below ``tol`` times the largest are dropped.

    beta = V C^(-1/2) with V the eigenvectors and C = V' (H K H) V, so the features are
    orthonormal in feature space even where V is a canonical basis of a cluster of nearly equal
    eigenvalues rather than exact eigenvectors (core/eigen.py); for exact eigenvectors
    C = diag(eigenvalues) and beta = V diag(eigenvalues)^(-1/2).

    Raises ``eigen.EigenSolverError`` (a ValueError) when K has non-finite entries.
    """
    K = np.asarray(K, dtype=float)
    if not np.all(np.isfinite(K)):
        raise eigen.EigenSolverError(
            "The kernel matrix contains NaN or infinite entries (the kernel values overflow); "
            "scale the data or choose a smaller polynomial degree."
        )
    n = K.shape[0]
    row_means = K.mean(axis=1)
    total_mean = float(row_means.mean())
    k = min(n_components, n)
    solver = choose_solver(n, k, eigen_solver)
    name = "the centred kernel matrix"
    if solver == "arpack":
        # A fixed start vector keeps fits repeatable; the constant vector would be a poor one
        # (it is in H K H's null space).
        v0 = np.random.RandomState(0).uniform(-1.0, 1.0, n)
        operator = _centred_operator(K)
        pairs = eigen.leading_eigenpairs_lanczos(
            operator,
            k,
            dense=lambda: _centre(K),
            # ||H K H||_F <= ||K||_F: H is an orthogonal projector.
            scale=float(np.linalg.norm(K)),
            v0=v0,
            name=name,
            negligible=tol,
        )
        apply = operator.matmat
    else:
        Kc = _centre(K)
        pairs = eigen.leading_eigenpairs(Kc, k, name=name, negligible=tol)
        apply = Kc.__matmul__
    solver = "arpack" if pairs.solver == "arpack" else "dense"
    vals, vecs = pairs.values, pairs.vectors
    keep = int(np.count_nonzero(vals > tol * max(vals[0], np.finfo(float).tiny)))
    vals, vecs = vals[:keep], vecs[:, :keep]
    beta = vecs @ _inverse_sqrt(vecs.T @ apply(vecs)) if keep else vecs
    coef = beta - beta.mean(axis=0)
    offset = -(row_means @ beta) + beta.sum(axis=0) * total_mean
    return CentredEigenSolution(vals, coef, offset, vals, solver)


def _inverse_sqrt(C: np.ndarray) -> np.ndarray:
    """C^(-1/2) of a symmetric positive definite matrix (the symmetric root)."""
    w, U = eigen.symmetric_eigh(0.5 * (C + C.T), name="the Gram matrix of the features")
    w = np.maximum(w, np.finfo(float).tiny)
    return (U / np.sqrt(w)) @ U.T
