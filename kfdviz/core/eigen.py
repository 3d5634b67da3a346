"""Leading and trailing eigenpairs of symmetric matrices, checked and independent of the BLAS.

Every spectral method of kfdviz (kernel PCA, the Rayleigh engine behind oriented KPCA, KFD and
GDA, the novelty detector, the programs' positive semi-definiteness checks) asks for a few
extreme eigenpairs of a symmetric matrix. The partial solvers that compute only those pairs
(LAPACK's ``syevr`` with an index range, ARPACK's Lanczos iteration) are fast but not always
trustworthy: on strongly clustered spectra ``syevr`` has been seen to return no pair at all on
some OpenBLAS kernels, and a Lanczos iteration may miss copies of a repeated eigenvalue. So:

- What a partial solver returns is checked: the number of pairs, finiteness, the order of the
  values, orthonormality of the vectors and the residuals ||A v - lambda v||. A result that fails
  is replaced by a full decomposition (``syevd``, then ``syev``, each checked the same way).
- Eigenvalues closer than ``CLUSTER_RTOL * ||A||_F`` form a cluster. Within a cluster the
  eigenvectors are not determined by A (any basis of the cluster's eigenspace is as good, and
  which one a solver returns depends on the BLAS's rounding), so each cluster gets a canonical
  basis that depends only on its eigenspace: column-pivoted Gram-Schmidt of the eigenspace's
  projector P (the first vector is P e_p / ||P e_p|| for the coordinate p with the largest
  ||P e_p||, the next the same in the complement, and so on). Where the requested block ends
  inside a cluster, the whole cluster is computed and its first canonical vectors are taken.
  A singleton's canonical vector is the eigenvector whose largest-magnitude entry is positive.
- Near-ties in the pivot choice (and in the sign rule) go to the first index within
  ``PIVOT_RTOL`` of the largest, so that rounding cannot swap two nearly equal candidates.

Vectors in a cluster are eigenvectors up to the cluster's width (a few ``CLUSTER_RTOL * ||A||``
at most); elsewhere they are LAPACK's, accurate to about eps ||A|| / gap. The eigenvalues are
always the computed ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh

# Eigenvalues closer than this fraction of ||A||_F are one cluster. Rounding moves eigenvalues
# by about n eps ||A|| (below 1e-12 ||A|| for the sizes kfdviz handles), and an eigenvector whose
# nearest eigenvalue is further than this is determined to about eps / CLUSTER_RTOL ~ 1e-7.
CLUSTER_RTOL = 1e-9
# Candidates within this relative distance of the largest pivot norm (or entry) count as tied.
PIVOT_RTOL = 1e-6
# A solver's answer is accepted when V'V - I and the residuals ||A V - V diag(w)|| / ||A||_F are
# below this: correct answers are at 1e-13 or below, broken ones far above.
CHECK_TOL = 1e-8


class EigenSolverError(np.linalg.LinAlgError):
    """No solver gave a valid eigen-decomposition (or the matrix is not finite)."""


@dataclass(frozen=True)
class EigenPairs:
    values: np.ndarray  # (k,): descending for leading pairs, ascending for trailing ones
    vectors: np.ndarray  # (n, k), orthonormal columns, aligned with values
    solver: str  # the solver whose pairs were used: "evr", "evd", "ev" or "arpack"
    fallback: str = ""  # why the first solver's answer was not used ("" when it was)


def _frobenius(A: np.ndarray) -> float:
    return float(np.sqrt(np.einsum("ij,ij->", A, A)))


def _check_matrix(A, name: str) -> np.ndarray:
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {A.shape}.")
    if not np.all(np.isfinite(A)):
        raise EigenSolverError(
            f"{name} contains NaN or infinite entries, so it has no eigen-decomposition; "
            "check the input data and the kernel parameters (e.g. a polynomial degree or data "
            "scale whose kernel values overflow)."
        )
    return A


def _problem(values, vectors, count: int, apply: Callable, scale: float) -> str:
    """What is wrong with a solver's (ascending) answer, or "" when it is acceptable."""
    if values is None or vectors is None:
        return "no result"
    if values.shape != (count,) or vectors.ndim != 2 or vectors.shape[1] != count:
        return f"{values.size} of {count} eigenpairs"
    if not (np.all(np.isfinite(values)) and np.all(np.isfinite(vectors))):
        return "non-finite eigenpairs"
    if np.any(np.diff(values) < 0):
        return "eigenvalues out of order"
    if count == 0:
        return ""
    if count <= 64:
        gram_error = np.abs(vectors.T @ vectors - np.eye(count)).max()
        residual = np.abs(apply(vectors) - vectors * values).max()
    else:
        # Many columns: probe with two fixed random combinations (O(n^2) instead of O(n^3));
        # a broken basis or wrong pairs fail this with probability one.
        x = np.random.RandomState(12345).standard_normal((count, 2)) / np.sqrt(count)
        Vx = vectors @ x
        gram_error = np.abs(vectors.T @ Vx - x).max()
        residual = np.abs(apply(Vx) - vectors @ (values[:, None] * x)).max()
    if gram_error > CHECK_TOL:
        return f"eigenvectors not orthonormal (error {gram_error:.1e})"
    if residual > CHECK_TOL * max(scale, np.finfo(float).tiny):
        return f"residuals too large ({residual:.1e} for ||A||_F = {scale:.3g})"
    return ""


def _full(A: np.ndarray, scale: float, name: str) -> tuple[np.ndarray, np.ndarray, str]:
    """All eigenpairs (ascending) by the divide-and-conquer driver, else the QR algorithm."""
    reasons = []
    for driver in ("evd", "ev"):
        try:
            w, V = linalg.eigh(A, driver=driver, check_finite=False)
        except (linalg.LinAlgError, ValueError) as exc:
            reasons.append(f"{driver}: {exc}")
            continue
        problem = _problem(w, V, A.shape[0], lambda B: A @ B, scale)
        if not problem:
            return w, V, driver
        reasons.append(f"{driver}: {problem}")
    raise EigenSolverError(
        f"The eigen-decomposition of {name} ({A.shape[0]} x {A.shape[0]}) failed with every "
        f"LAPACK driver ({'; '.join(reasons)})."
    )


def _first_near_max(values: np.ndarray) -> int:
    """The first index whose value is within PIVOT_RTOL of the largest (values >= 0)."""
    top = values.max()
    return int(np.flatnonzero(values >= (1.0 - PIVOT_RTOL) * top)[0])


def canonical_signs(V: np.ndarray) -> np.ndarray:
    """Each column times +-1 so that its first (near-)largest-magnitude entry is positive."""
    V = np.array(V, dtype=float, copy=True)
    for j in range(V.shape[1]):
        col = V[:, j]
        if np.any(col):
            p = _first_near_max(np.abs(col))
            if col[p] < 0:
                V[:, j] = -col
    return V


def canonical_basis(Q: np.ndarray, r: int) -> np.ndarray:
    """The first ``r`` vectors of the canonical orthonormal basis of span(Q).

    Q (n, m) has orthonormal columns. The basis is column-pivoted Gram-Schmidt applied to the
    projector P = Q Q': it depends on span(Q) only, not on which basis Q is. Computed on the
    coordinates Q' (m, n), where column j of P is Q (Q' e_j), in O(r m n).
    """
    m = Q.shape[1]
    r = min(r, m)
    C = Q.T  # column j: the coordinates of P e_j in the basis Q
    remaining = np.einsum("ij,ij->j", C, C)  # ||P e_j||^2 minus its part along the chosen ones
    W = np.zeros((m, r))
    for t in range(r):
        p = _first_near_max(np.maximum(remaining, 0.0))
        w = C[:, p].copy()
        for _ in range(2):  # twice is enough (Kahan-Parlett)
            w -= W[:, :t] @ (W[:, :t].T @ w)
        w /= np.linalg.norm(w)
        W[:, t] = w
        remaining -= (w @ C) ** 2
        remaining[p] = -np.inf  # never chosen twice, even through round-off
    return Q @ W


def _clusters(values_desc: np.ndarray, tol: float) -> list[tuple[int, int]]:
    """[start, stop) runs of descending values whose neighbours differ by at most tol."""
    runs, start = [], 0
    for i in range(1, values_desc.size):
        if values_desc[i - 1] - values_desc[i] > tol:
            runs.append((start, i))
            start = i
    runs.append((start, values_desc.size))
    return runs


def _floor(w_desc: np.ndarray, negligible: float | None) -> float:
    """Eigenvalues at or below this are of no interest to the caller (-inf: all are)."""
    if negligible is None:
        return -np.inf
    return negligible * max(float(w_desc[0]), 0.0)


def _select_leading(w_desc: np.ndarray, V_desc: np.ndarray, k: int, tol: float, floor: float):
    """The first k pairs of a descending block, clusters given canonical bases.

    The block must hold every member of any cluster above ``floor`` that its first k pairs
    reach; clusters at or below ``floor`` keep the solver's vectors (with canonical signs).
    """
    vectors = np.empty((V_desc.shape[0], k))
    for start, stop in _clusters(w_desc, tol):
        if start >= k:
            break
        take = min(stop, k) - start
        if w_desc[start] <= floor:
            vectors[:, start:k] = canonical_signs(V_desc[:, start:k])
            break
        vectors[:, start : start + take] = canonical_basis(V_desc[:, start:stop], take)
    return w_desc[:k].copy(), vectors


def _ends_in_cluster(w_desc: np.ndarray, k: int, tol: float, floor: float) -> bool:
    """Whether pair k - 1 (above ``floor``) and pair k of a descending block are one cluster."""
    return w_desc[k - 1] > floor and w_desc[k - 1] - w_desc[k] <= tol


def _leading_dense(A: np.ndarray, k: int, name: str, negligible: float | None = None) -> EigenPairs:
    n = A.shape[0]
    scale = _frobenius(A)
    tol = CLUSTER_RTOL * scale
    fallback = ""
    if k + 1 < n:
        # One pair more than asked for shows whether the block ends inside a cluster.
        count = k + 1
        try:
            w, V = linalg.eigh(
                A, subset_by_index=[n - count, n - 1], driver="evr", check_finite=False
            )
        except (linalg.LinAlgError, ValueError) as exc:
            w, V, fallback = None, None, f"evr failed ({exc})"
        if not fallback:
            fallback = _problem(w, V, count, lambda B: A @ B, scale)
            if fallback:
                fallback = f"evr returned {fallback}"
        if not fallback:
            w_desc, V_desc = w[::-1], V[:, ::-1]
            floor = _floor(w_desc, negligible)
            if not _ends_in_cluster(w_desc, k, tol, floor):
                values, vectors = _select_leading(w_desc, V_desc, k, tol, floor)
                return EigenPairs(values, vectors, "evr")
            fallback = "the requested block ends inside a cluster of eigenvalues"
    w, V, driver = _full(A, scale, name)
    w_desc, V_desc = w[::-1], V[:, ::-1]
    values, vectors = _select_leading(w_desc, V_desc, k, tol, _floor(w_desc, negligible))
    return EigenPairs(values, vectors, driver, fallback)


def _check_count(k, n: int) -> int:
    if not (int(k) == k and 1 <= k <= n):
        raise ValueError(f"The number of eigenpairs must be between 1 and {n}, got {k!r}.")
    return int(k)


def leading_eigenpairs(
    A, k: int, *, name: str = "the matrix", negligible: float | None = None
) -> EigenPairs:
    """The k largest eigenvalues of the symmetric matrix A (descending) and their vectors.

    A must be symmetric: the solvers read its lower triangle, the checks all of it. ``name``
    says what A is in error messages. With
    ``negligible`` = f, eigenvalues at or below f times the largest one are of no interest
    (the caller drops them): their vectors get no canonical basis, and a block ending among
    them needs no full decomposition.
    """
    A = _check_matrix(A, name)
    return _leading_dense(A, _check_count(k, A.shape[0]), name, negligible)


def trailing_eigenpairs(A, k: int, *, name: str = "the matrix") -> EigenPairs:
    """The k smallest eigenvalues of the symmetric matrix A (ascending) and their vectors."""
    A = _check_matrix(A, name)
    pairs = _leading_dense(-A, _check_count(k, A.shape[0]), name)
    return EigenPairs(-pairs.values, pairs.vectors, pairs.solver, pairs.fallback)


def symmetric_eigh(A, *, name: str = "the matrix") -> tuple[np.ndarray, np.ndarray]:
    """All eigenpairs of A, ascending: a checked full decomposition (``syevd``, else ``syev``).

    For uses that need the whole space (a whitening, a square root), where the basis within a
    cluster does not matter; no canonical bases are formed.
    """
    A = _check_matrix(A, name)
    w, V, _ = _full(A, _frobenius(A), name)
    return w, V


def extreme_eigenvalues(A, k: int, *, largest: bool, name: str = "the matrix") -> np.ndarray:
    """The k largest (descending) or smallest (ascending) eigenvalues of A, without vectors."""
    A = _check_matrix(A, name)
    n = A.shape[0]
    k = _check_count(k, n)
    index = [n - k, n - 1] if largest else [0, k - 1]
    try:
        w = linalg.eigh(
            A, eigvals_only=True, subset_by_index=index, driver="evr", check_finite=False
        )
    except (linalg.LinAlgError, ValueError):
        w = None
    if w is None or w.shape != (k,) or not np.all(np.isfinite(w)) or np.any(np.diff(w) < 0):
        w = _full(A, _frobenius(A), name)[0]
        w = w[n - k :] if largest else w[:k]
    return w[::-1].copy() if largest else w.copy()


def leading_eigenpairs_lanczos(
    operator: LinearOperator,
    k: int,
    *,
    dense: Callable[[], np.ndarray],
    scale: float,
    v0: np.ndarray | None = None,
    name: str = "the matrix",
    negligible: float | None = None,
) -> EigenPairs:
    """The k largest eigenpairs by ARPACK, checked; ``dense()`` builds the matrix if needed.

    ``scale`` must bound the matrix's Frobenius norm from above. ARPACK's answer is used when it
    converged, passes the checks, and neither its k + 1 values nor the block's end show a
    cluster (where Lanczos may miss copies of a repeated eigenvalue and returns an arbitrary
    basis); otherwise the dense solver answers from ``dense()``. ``negligible`` as for
    :func:`leading_eigenpairs`.
    """
    n = operator.shape[0]
    k = _check_count(k, n)
    count = k + 1
    if count >= n:
        return _leading_dense(_check_matrix(dense(), name), k, name, negligible)
    tol = CLUSTER_RTOL * scale
    try:
        w, V = eigsh(operator, count, which="LA", tol=0.0, v0=v0)
        order = np.argsort(w, kind="stable")
        w, V = w[order], V[:, order]
        reason = _problem(w, V, count, operator.matmat, scale)
        if reason:
            reason = f"arpack returned {reason}"
    except (ArpackNoConvergence, ArpackError) as exc:
        reason = f"arpack failed ({type(exc).__name__})"
    if not reason:
        w_desc, V_desc = w[::-1], V[:, ::-1]
        floor = _floor(w_desc, negligible)
        gaps = -np.diff(w_desc)  # gaps[i] is between pairs i and i + 1
        if np.all(gaps[w_desc[:-1] > floor] > tol):
            values, vectors = _select_leading(w_desc, V_desc, k, tol, floor)
            return EigenPairs(values, vectors, "arpack")
        reason = "arpack's eigenvalues include a cluster"
    pairs = _leading_dense(_check_matrix(dense(), name), k, name, negligible)
    return EigenPairs(pairs.values, pairs.vectors, pairs.solver, reason)
