"""The Rayleigh-coefficient engine: maximize a'Ma / a'Na over expansion coefficients a.

Every spectral algorithm of the papers (KPCA, oriented KPCA, KFD, its invariant and multi-class
variants) is this one problem with different M and N (TPAMI eqs. 1, 8). N is regularized as in
eq. (11), N + mu*I, or with mu*K (penalizing ||w||^2). The solve whitens with a Cholesky factor of
the regularized N where it is positive definite; where it is not (or is too ill-conditioned for
the factor to be trusted) it falls back to N's eigen-decomposition restricted to its numerical
range, and says so in the result's warnings. Eigenproblems go through core/eigen.py: checked
answers, canonical bases for clusters of equal Rayleigh values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from . import eigen

# Above this condition number a Cholesky whitening loses more than half the digits; the range
# restriction is then the more accurate route.
_MAX_CHOLESKY_CONDITION = 1e10
# Eigenvalues of N below this fraction of the largest are treated as zero.
_RANGE_TOL = 1e-12


class RayleighError(ValueError):
    """The Rayleigh problem has no meaningful solution (e.g. a singular N with mu = 0)."""


@dataclass(frozen=True)
class RayleighSolution:
    vectors: np.ndarray  # (m, k): columns are the coefficient vectors, a'Na = 1
    values: np.ndarray  # (k,): Rayleigh quotients, descending
    regularization: str  # what was added to N, e.g. "N + μI, μ = 0.001"
    condition: float  # condition number of the regularized N (inf where singular)
    effective_rank: int  # numerical rank of the regularized N
    method: str  # "cholesky", "closed-form" or "range"
    warnings: tuple[str, ...] = field(default_factory=tuple)


def regularize(N: np.ndarray, mu: float, regularizer: str = "identity", K=None) -> np.ndarray:
    """N + mu*I (TPAMI eq. 11) or N + mu*K (the ||w||^2 penalty)."""
    if mu < 0 or not np.isfinite(mu):
        raise RayleighError(f"mu must be a finite number >= 0, got mu={mu!r}.")
    Nr = np.array(N, dtype=float, copy=True)
    if mu == 0:
        return Nr
    if regularizer == "identity":
        Nr[np.diag_indices_from(Nr)] += mu
    elif regularizer == "gram":
        if K is None:
            raise RayleighError(
                "regularizer='gram' needs the Gram matrix K of the expansion points."
            )
        Nr += mu * np.asarray(K, dtype=float)
    else:
        raise RayleighError(
            f"Unknown regularizer={regularizer!r}: choose 'identity' (N + mu*I) or 'gram' (N + mu*K)."
        )
    return Nr


def _describe_regularization(mu: float, regularizer: str) -> str:
    if mu == 0:
        return "none (μ = 0)"
    return f"N + μ{'I' if regularizer == 'identity' else 'K'}, μ = {mu:g}"


def _fix_signs(V: np.ndarray) -> np.ndarray:
    """Deterministic signs: the first (near-)largest-magnitude entry of each column is positive."""
    return eigen.canonical_signs(V)


def _check_finite(name: str, A: np.ndarray) -> None:
    if not np.all(np.isfinite(A)):
        raise RayleighError(
            f"{name} contains NaN or infinite entries; check the input data and kernel parameters."
        )


def solve_rayleigh(
    M: np.ndarray,
    N: np.ndarray,
    n_components: int = 1,
    *,
    mu: float = 0.0,
    regularizer: str = "identity",
    K: np.ndarray | None = None,
    rank_one: np.ndarray | None = None,
) -> RayleighSolution:
    """Leading generalized eigenvectors of (M, N_reg): maximize a'Ma / a'N_reg a.

    ``rank_one=d`` states that M = d d' (two-class KFD): the solution is then the closed form
    a = N_reg^{-1} d with value d'N_reg^{-1}d, a single solve instead of an eigenproblem.
    """
    N = np.asarray(N, dtype=float)
    _check_finite("N", N)
    m = N.shape[0]
    if rank_one is None:
        M = np.asarray(M, dtype=float)
        _check_finite("M", M)
        if M.shape != N.shape:
            raise RayleighError(f"M and N must have the same shape, got {M.shape} and {N.shape}.")
    else:
        _check_finite("rank_one", np.asarray(rank_one, dtype=float))
    if not 1 <= n_components <= m:
        raise RayleighError(f"n_components must be between 1 and {m}, got {n_components}.")
    Nr = _symmetric_regularized(N, mu, regularizer, K)
    warnings: list[str] = []
    reg_text = _describe_regularization(mu, regularizer)
    anorm = float(np.abs(Nr).sum(axis=0).max())

    chol = None
    try:
        # Nr.T is Fortran-ordered and equal to Nr: LAPACK factors it in place, with no copy.
        chol = linalg.cholesky(Nr.T, lower=True, overwrite_a=True, check_finite=False)
        d = np.abs(np.diag(chol))
        # (max/min of the factor's diagonal)^2 bounds the condition number from below: cheap.
        cond_est = (d.max() / d.min()) ** 2 if d.min() > 0 else np.inf
        if not np.isfinite(cond_est) or cond_est > _MAX_CHOLESKY_CONDITION:
            chol = None
    except linalg.LinAlgError:
        chol = None

    if chol is not None:
        condition = _condition_from_cholesky(anorm, chol)
        if rank_one is not None:
            d = np.asarray(rank_one, dtype=float).ravel()
            a = linalg.cho_solve((chol, True), d, check_finite=False)
            value = float(d @ a)
            a = a / np.sqrt(max(value, np.finfo(float).tiny))  # a'N_reg a = 1
            vectors, values, method = a[:, None], np.array([value]), "closed-form"
        else:
            # L^{-1} M L^{-T} u = lambda u,  a = L^{-T} u
            Linv_M = linalg.solve_triangular(chol, M, lower=True, check_finite=False)
            W = linalg.solve_triangular(chol, Linv_M.T, lower=True, check_finite=False)
            W = 0.5 * (W + W.T)
            pairs = eigen.leading_eigenpairs(W, n_components, name="L^-1 M L^-T")
            vals, U = pairs.values, pairs.vectors
            vectors = linalg.solve_triangular(chol, U, lower=True, trans="T", check_finite=False)
            values, method = vals, "cholesky"
        return RayleighSolution(
            vectors if rank_one is not None else _fix_signs(vectors),
            values,
            reg_text,
            condition,
            m,
            method,
            tuple(warnings),
        )

    # Fallback: restrict to the numerical range of N_reg (rebuilt: the factorization used it).
    Nr = _symmetric_regularized(N, mu, regularizer, K)
    evals, evecs = eigen.symmetric_eigh(Nr, name="the regularized N")
    top = max(evals[-1], 0.0)
    if top <= 0:
        raise RayleighError(
            "N is zero or negative definite: the Rayleigh coefficient is undefined; "
            "check that the data are not all identical, or increase mu."
        )
    keep = evals > _RANGE_TOL * top
    rank = int(keep.sum())
    condition = float(top / evals[keep].min()) if rank < m else float(top / evals[0])
    if rank < m and mu == 0:
        raise RayleighError(
            f"N is singular (numerical rank {rank} of {m}) and mu = 0, so the Rayleigh "
            "coefficient is unbounded: set mu > 0 (e.g. mu = 1e-3) to regularize N (TPAMI eq. 11)."
        )
    if rank < m or condition > _MAX_CHOLESKY_CONDITION:
        warnings.append(
            f"N{' + regularization' if mu else ''} is nearly singular (condition number "
            f"{condition:.2g}, numerical rank {rank} of {m}) at {reg_text}: solved on its range; "
            "increase mu for a better-posed problem."
        )
    P = evecs[:, keep] / np.sqrt(evals[keep])  # whitening on the range: P' N_reg P = I
    if n_components > rank:
        raise RayleighError(
            f"Only {rank} features are determined (numerical rank of N), but "
            f"n_components={n_components}: ask for at most {rank} or increase mu."
        )
    if rank_one is not None:
        d = P.T @ np.asarray(rank_one, dtype=float).ravel()
        value = float(d @ d)
        u = d / np.sqrt(max(value, np.finfo(float).tiny))
        vectors, values = (P @ u)[:, None], np.array([value])
    else:
        W = P.T @ M @ P
        W = 0.5 * (W + W.T)
        pairs = eigen.leading_eigenpairs(W, n_components, name="P' M P")
        vectors, values = P @ pairs.vectors, pairs.values
    # With M = d d' the natural sign already has d'a > 0; keep it.
    vectors = vectors if rank_one is not None else _fix_signs(vectors)
    return RayleighSolution(vectors, values, reg_text, condition, rank, "range", tuple(warnings))


def _symmetric_regularized(N, mu, regularizer, K) -> np.ndarray:
    """A fresh, exactly symmetric copy of the regularized N."""
    Nr = regularize(N, mu, regularizer, K)
    if not np.array_equal(Nr, Nr.T):
        Nr = 0.5 * (Nr + Nr.T)
    return Nr


def _condition_from_cholesky(anorm: float, chol: np.ndarray) -> float:
    """1-norm condition number estimate from the Cholesky factor (LAPACK pocon): O(m^2).

    ``anorm`` is the 1-norm of the factored matrix.
    """
    rcond, info = lapack.dpocon(chol, anorm, uplo="L")
    return float(1.0 / rcond) if info == 0 and rcond > 0 else float("inf")


def rayleigh_quotient(a: np.ndarray, M: np.ndarray, N: np.ndarray) -> float:
    """a'Ma / a'Na, the criterion itself (for checks and diagnostics)."""
    a = np.asarray(a, dtype=float).ravel()
    return float(a @ M @ a) / float(a @ N @ a)
