"""Checked, BLAS-independent extreme eigenpairs (core/eigen.py) and the solvers that use them."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg
from scipy.sparse.linalg import ArpackNoConvergence, aslinearoperator

from kfdviz.core import eigen
from kfdviz.core import kpca as kpca_module
from kfdviz.core.kernels import Kernel
from kfdviz.core.rayleigh import solve_rayleigh


def _random_orthogonal(n, seed):
    Q, R = np.linalg.qr(np.random.RandomState(seed).randn(n, n))
    return Q * np.sign(np.diag(R))


def _with_spectrum(values, seed=0):
    Q = _random_orthogonal(len(values), seed)
    A = (Q * np.asarray(values, dtype=float)) @ Q.T
    return 0.5 * (A + A.T)


def _assert_same_columns_up_to_sign(V, W, atol):
    for j in range(V.shape[1]):
        s = np.sign(V[:, j] @ W[:, j])
        np.testing.assert_allclose(V[:, j], s * W[:, j], rtol=0, atol=atol)


def _in_eigenspace(A, V, value, atol):
    np.testing.assert_allclose(A @ V, value * V, rtol=0, atol=atol)


# -- against numpy on well-separated spectra -------------------------------------------------------
@pytest.mark.parametrize("k", [1, 3, 7, 20])
def test_leading_and_trailing_pairs_match_a_full_numpy_decomposition(k):
    A = np.random.RandomState(1).randn(20, 20)
    A = A + A.T
    w, V = np.linalg.eigh(A)
    gap = np.diff(w).min()
    atol = 1e-12 * np.abs(w).max() / gap  # eigenvector accuracy ~ eps ||A|| / gap
    lead = eigen.leading_eigenpairs(A, k)
    np.testing.assert_allclose(lead.values, w[::-1][:k], rtol=0, atol=1e-12 * np.abs(w).max())
    _assert_same_columns_up_to_sign(lead.vectors, V[:, ::-1][:, :k], atol)
    trail = eigen.trailing_eigenpairs(A, k)
    np.testing.assert_allclose(trail.values, w[:k], rtol=0, atol=1e-12 * np.abs(w).max())
    _assert_same_columns_up_to_sign(trail.vectors, V[:, :k], atol)
    # Signs are canonical: the first near-largest entry of each vector is positive.
    for vec in lead.vectors.T:
        assert vec[np.argmax(np.abs(vec))] > 0
    np.testing.assert_allclose(
        eigen.extreme_eigenvalues(A, k, largest=True), lead.values, rtol=0, atol=1e-12 * gap
    )
    np.testing.assert_allclose(
        eigen.extreme_eigenvalues(A, k, largest=False), trail.values, rtol=0, atol=1e-12 * gap
    )


# -- clusters: canonical bases -------------------------------------------------------------------
def _gram_schmidt_of_columns(P, columns):
    """Independent reference: Gram-Schmidt of the given projector columns, in that order."""
    out = []
    for j in columns:
        v = P[:, j].copy()
        for q in out:
            v -= (q @ v) * q
        out.append(v / np.linalg.norm(v))
    return np.column_stack(out)


@pytest.mark.parametrize("n, k", [(60, 1), (60, 2), (60, 5), (300, 4)])
def test_centred_identity_gets_the_canonical_basis_of_its_repeated_eigenvalue(n, k):
    """H = I - 11'/n: eigenvalue 1 repeated n - 1 times (the K = I case of kernel PCA)."""
    H = np.eye(n) - 1.0 / n
    pairs = eigen.leading_eigenpairs(H, k)
    np.testing.assert_allclose(pairs.values, 1.0, rtol=0, atol=1e-12)
    np.testing.assert_allclose(pairs.vectors.T @ pairs.vectors, np.eye(k), atol=1e-12)
    _in_eigenspace(H, pairs.vectors, 1.0, 1e-12)
    # Every column of the projector H has the same norm, so the pivots are 0, 1, 2, ...
    np.testing.assert_allclose(pairs.vectors, _gram_schmidt_of_columns(H, range(k)), atol=1e-12)


def _rotating_solver(real_eigh, seed):
    """scipy's eigh, but with every returned basis mixed inside its clusters and signs flipped.

    Any basis of a cluster's eigenspace is a correct answer; a BLAS may return any of them.
    """
    rng = np.random.RandomState(seed)

    def eigh(A, *args, **kwargs):
        out = real_eigh(A, *args, **kwargs)
        if kwargs.get("eigvals_only"):
            return out
        w, V = out
        V = V * rng.choice([-1.0, 1.0], size=V.shape[1])
        scale = max(np.abs(w).max(), 1e-300)
        start = 0
        for i in range(1, w.size + 1):
            if i == w.size or w[i] - w[i - 1] > 1e-9 * scale:
                if i - start > 1:
                    V[:, start:i] = V[:, start:i] @ _random_orthogonal(i - start, rng.randint(1000))
                start = i
        return w, V

    return eigh


def test_the_result_does_not_depend_on_the_basis_the_solver_returns(monkeypatch):
    # 5 (once), 3 (three times), 2 (twice), then distinct values; k = 2 cuts the cluster at 3.
    values = [5.0, 3.0, 3.0, 3.0, 2.0, 2.0, 1.0, 0.5, 0.25, 0.1]
    A = _with_spectrum(values, seed=3)
    reference = {k: eigen.leading_eigenpairs(A, k) for k in (1, 2, 4, 6, 8)}
    real = linalg.eigh
    for seed in range(5):
        monkeypatch.setattr(eigen.linalg, "eigh", _rotating_solver(real, seed))
        for k, ref in reference.items():
            got = eigen.leading_eigenpairs(A, k)
            np.testing.assert_allclose(got.values, ref.values, rtol=0, atol=1e-12)
            np.testing.assert_allclose(got.vectors, ref.vectors, rtol=0, atol=1e-9)
    monkeypatch.setattr(eigen.linalg, "eigh", real)
    pairs = reference[2]
    np.testing.assert_allclose(pairs.values, [5.0, 3.0], atol=1e-12)
    _in_eigenspace(A, pairs.vectors[:, 1:], 3.0, 1e-12)
    # The whole cluster is computed when the block ends inside it.
    assert pairs.fallback == "the requested block ends inside a cluster of eigenvalues"
    assert eigen.leading_eigenpairs(A, 4).fallback == ""  # block ends at a gap: syevr's pairs


def test_canonical_basis_depends_only_on_the_subspace():
    rng = np.random.RandomState(7)
    Q = np.linalg.qr(rng.randn(30, 6))[0]
    B = eigen.canonical_basis(Q, 6)
    for seed in range(4):
        np.testing.assert_allclose(
            eigen.canonical_basis(Q @ _random_orthogonal(6, seed), 6), B, atol=1e-12
        )
    np.testing.assert_allclose(B.T @ B, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(B @ B.T, Q @ Q.T, atol=1e-12)  # the same subspace
    # First vector: P e_p / ||P e_p|| for the coordinate p with the largest ||P e_p||.
    P = Q @ Q.T
    p = np.argmax(np.diag(P))
    np.testing.assert_allclose(B[:, 0], P[:, p] / np.linalg.norm(P[:, p]), atol=1e-12)


# -- broken partial solvers -> full decomposition --------------------------------------------------
def _broken_partial(kind, real_eigh):
    def eigh(A, *args, **kwargs):
        if kwargs.get("subset_by_index") is None:
            return real_eigh(A, *args, **kwargs)
        if kwargs.get("eigvals_only"):
            w = real_eigh(A, *args, **kwargs)
            if kind == "raises":
                raise linalg.LinAlgError("simulated failure")
            return {"empty": w[:0], "short": w[1:], "nan": w * np.nan}.get(kind, w)
        w, V = real_eigh(A, *args, **kwargs)
        if kind == "empty":
            return w[:0], V[:, :0]
        if kind == "short":
            return w[1:], V[:, 1:]
        if kind == "nan":
            V = V.copy()
            V[0, 0] = np.nan
            return w, V
        if kind == "not-orthonormal":
            V = V.copy()
            V[:, -1] = V[:, 0]
            return w, V
        if kind == "wrong-values":
            return w + 1.0, V
        raise linalg.LinAlgError("simulated failure")

    return eigh


@pytest.mark.parametrize(
    "kind", ["empty", "short", "nan", "not-orthonormal", "wrong-values", "raises"]
)
def test_a_partial_solver_that_does_not_deliver_falls_back_to_the_full_decomposition(
    monkeypatch, kind
):
    A = np.random.RandomState(2).randn(15, 15)
    A = A + A.T
    monkeypatch.setattr(eigen.linalg, "eigh", _broken_partial(kind, linalg.eigh))
    pairs = eigen.leading_eigenpairs(A, 3)
    assert pairs.solver == "evd" and pairs.fallback
    w, V = np.linalg.eigh(A)
    np.testing.assert_allclose(pairs.values, w[::-1][:3], rtol=0, atol=1e-12 * np.abs(w).max())
    _assert_same_columns_up_to_sign(pairs.vectors, V[:, ::-1][:, :3], 1e-10)
    lowest = eigen.extreme_eigenvalues(A, 2, largest=False)
    np.testing.assert_allclose(lowest, w[:2], rtol=0, atol=1e-12 * np.abs(w).max())


def test_full_decomposition_falls_back_to_the_qr_algorithm_then_says_what_failed(monkeypatch):
    A = _with_spectrum([3.0, 2.0, 1.0, 0.0], seed=1)
    real = linalg.eigh

    def no_evd(M, *args, **kwargs):
        if kwargs.get("driver") in ("evr", "evd"):
            raise linalg.LinAlgError("simulated")
        return real(M, *args, **kwargs)

    monkeypatch.setattr(eigen.linalg, "eigh", no_evd)
    pairs = eigen.leading_eigenpairs(A, 2)
    assert pairs.solver == "ev"
    np.testing.assert_allclose(pairs.values, [3.0, 2.0], atol=1e-12)

    monkeypatch.setattr(eigen.linalg, "eigh", lambda *a, **k: (np.zeros(0), np.zeros((4, 0))))
    with pytest.raises(eigen.EigenSolverError, match=r"evd: 0 of 4 eigenpairs; ev: 0 of 4"):
        eigen.leading_eigenpairs(A, 2, name="the test matrix")


def test_non_finite_matrices_are_refused_by_name():
    A = np.eye(3)
    A[1, 2] = np.nan
    with pytest.raises(ValueError, match="the test matrix contains NaN or infinite"):
        eigen.leading_eigenpairs(A, 1, name="the test matrix")
    with pytest.raises(ValueError, match="between 1 and 3"):
        eigen.leading_eigenpairs(np.eye(3), 4)


# -- ARPACK -----------------------------------------------------------------------------------------
def test_lanczos_answers_where_it_can_and_hands_clusters_to_the_dense_solver(monkeypatch):
    distinct = _with_spectrum(np.linspace(10.0, 1.0, 40), seed=4)
    pairs = eigen.leading_eigenpairs_lanczos(
        aslinearoperator(distinct), 3, dense=lambda: distinct, scale=np.linalg.norm(distinct)
    )
    assert pairs.solver == "arpack" and pairs.fallback == ""
    ref = eigen.leading_eigenpairs(distinct, 3)
    np.testing.assert_allclose(pairs.values, ref.values, atol=1e-10)
    np.testing.assert_allclose(pairs.vectors, ref.vectors, atol=1e-8)  # canonical signs: equal

    tied = _with_spectrum([4.0, 4.0, 4.0, *np.linspace(2.0, 1.0, 37)], seed=5)
    pairs = eigen.leading_eigenpairs_lanczos(
        aslinearoperator(tied), 2, dense=lambda: tied, scale=np.linalg.norm(tied)
    )
    assert pairs.solver != "arpack" and "cluster" in pairs.fallback
    np.testing.assert_allclose(pairs.vectors, eigen.leading_eigenpairs(tied, 2).vectors, atol=1e-12)

    def no_convergence(*args, **kwargs):
        raise ArpackNoConvergence("simulated", np.zeros(0), np.zeros((40, 0)))

    monkeypatch.setattr(eigen, "eigsh", no_convergence)
    pairs = eigen.leading_eigenpairs_lanczos(
        aslinearoperator(distinct), 3, dense=lambda: distinct, scale=np.linalg.norm(distinct)
    )
    assert pairs.solver == "evr" and "ArpackNoConvergence" in pairs.fallback
    np.testing.assert_allclose(pairs.vectors, ref.vectors, atol=1e-12)


# -- the callers ----------------------------------------------------------------------------------
DEGENERATE_KPCA = [
    ("scaled-1000", lambda X: (Kernel("rbf", width=1.0), X * 1000)),
    ("width-1e-6", lambda X: (Kernel("rbf", width=1e-6), X)),
    ("width-1e-9", lambda X: (Kernel("rbf", width=1e-9), X)),
]


@pytest.mark.parametrize("solver", ["dense", "arpack"])
@pytest.mark.parametrize("name, make", DEGENERATE_KPCA, ids=[c[0] for c in DEGENERATE_KPCA])
def test_kpca_on_a_repeated_eigenvalue_is_finite_orthonormal_and_canonical(name, make, solver):
    X = np.random.RandomState(0).randn(260 if solver == "arpack" else 60, 2)
    kern, Xs = make(X)
    K = kern(Xs, Xs, cache=False)
    n = K.shape[0]
    sol = kpca_module.centred_kpca(K, 4, eigen_solver=solver)
    Kc = kpca_module._centre(K)
    w = np.linalg.eigvalsh(Kc)[::-1]
    np.testing.assert_allclose(sol.eigenvalues, w[:4], rtol=0, atol=1e-12)
    F = K @ sol.coef + sol.offset  # features at the training points
    assert np.all(np.isfinite(F))
    # Unit, orthogonal directions in feature space: F'F = diag(eigenvalues), up to the width of
    # the cluster (a few CLUSTER_RTOL ||Kc||_F) where the basis is canonical, not eigenvectors.
    width = 4 * eigen.CLUSTER_RTOL * np.linalg.norm(Kc)
    np.testing.assert_allclose(F.T @ F, np.diag(sol.eigenvalues), rtol=0, atol=width)
    # The features lie in the leading cluster's eigenspace (eigenvalues near 1).
    Vc = np.linalg.eigh(Kc)[1][:, w[::-1] > 0.5]
    np.testing.assert_allclose(Vc @ (Vc.T @ F), F, atol=1e-6)
    if np.array_equal(K, np.eye(n)):
        # The canonical basis of H's eigenspace, computed independently: every column of the
        # projector H has the same norm, so the pivots are 0, 1, 2, 3.
        H = np.eye(n) - 1.0 / n
        np.testing.assert_allclose(F, _gram_schmidt_of_columns(H, range(4)), atol=1e-10)


def test_kpca_with_a_solver_that_returns_nothing_equals_the_full_decomposition(monkeypatch):
    X = np.random.RandomState(3).randn(80, 2)
    K = Kernel("rbf", width=0.7)(X, X, cache=False)
    ref = kpca_module.centred_kpca(K, 5, eigen_solver="dense")
    monkeypatch.setattr(eigen.linalg, "eigh", _broken_partial("empty", linalg.eigh))
    got = kpca_module.centred_kpca(K, 5, eigen_solver="dense")
    np.testing.assert_allclose(got.eigenvalues, ref.eigenvalues, rtol=1e-12)
    scale = np.abs(K @ ref.coef).max()
    np.testing.assert_allclose(
        K @ got.coef + got.offset, K @ ref.coef + ref.offset, atol=1e-9 * scale
    )
    # And against numpy directly.
    w = np.linalg.eigvalsh(kpca_module._centre(K))[::-1][:5]
    np.testing.assert_allclose(got.eigenvalues, w, rtol=1e-10)


def test_rayleigh_with_tied_values_is_canonical_and_solver_independent(monkeypatch):
    """M with a repeated eigenvalue against N = I (+ mu I): every basis of it maximizes."""
    M = _with_spectrum([2.0, 2.0, 2.0, 1.0, 0.5, 0.0], seed=8)
    N = np.eye(6)
    ref = solve_rayleigh(M, N, 2, mu=0.1)
    np.testing.assert_allclose(ref.values, [2.0 / 1.1] * 2, rtol=1e-12)
    a = ref.vectors
    np.testing.assert_allclose(a.T @ (N + 0.1 * np.eye(6)) @ a, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(M @ a, 2.0 * a, atol=1e-12)  # in the top eigenspace of M
    real = linalg.eigh
    for seed in range(3):
        monkeypatch.setattr(eigen.linalg, "eigh", _rotating_solver(real, seed))
        np.testing.assert_allclose(solve_rayleigh(M, N, 2, mu=0.1).vectors, a, atol=1e-9)
    # A partial solver that returns nothing changes nothing.
    monkeypatch.setattr(eigen.linalg, "eigh", _broken_partial("empty", real))
    got = solve_rayleigh(M, N, 2, mu=0.1)
    np.testing.assert_allclose(got.vectors, a, atol=1e-9)


def _kfd_gda(**kw):
    from kfdviz.estimators import KernelFisherDiscriminant

    return KernelFisherDiscriminant(multi_class="gda", **kw)


def _estimator(name, **kw):
    from kfdviz import estimators

    if name == "gda":
        return _kfd_gda(**kw)
    return getattr(estimators, name)(**kw)


SPECTRAL = [
    ("KernelPCA", dict(n_components=3), "transform"),
    ("KernelPCA", dict(n_components=12), "transform"),  # dense path with more components
    ("OrientedKernelPCA", dict(n_components=3), "transform"),
    ("OrientedKernelPCA", dict(n_components=2, tangents=None), "transform"),
    ("gda", dict(), "transform"),
    ("KernelPCANoveltyDetector", dict(n_components=5), "score_samples"),
    ("KernelOrthogonalCentroid", dict(), "transform"),
]


@pytest.mark.parametrize("width", [1e-9, 1e-6])
@pytest.mark.parametrize(
    "name, params, method", SPECTRAL, ids=[f"{s[0]}-{len(s[1])}" for s in SPECTRAL]
)
def test_spectral_estimators_on_tied_spectra_do_not_depend_on_the_solvers_basis(
    monkeypatch, name, params, method, width
):
    """K = I (a width far below the points' spacing): every spectrum is one big tie.

    A solver may return any basis of a repeated eigenvalue's eigenspace, and which one depends on
    the BLAS; the features must not. The rotated solver returns other bases.
    """
    rng = np.random.RandomState(0)
    X = rng.randn(45, 2) * 3
    y = np.repeat([0, 1, 2], 15)
    X_new = np.vstack([X[:6], X[:4] + 0.5])
    est = _estimator(name, width=width, **params).fit(X, y)
    ref = getattr(est, method)(X_new)
    assert np.all(np.isfinite(ref))
    real = linalg.eigh
    for seed in range(3):
        monkeypatch.setattr(eigen.linalg, "eigh", _rotating_solver(real, seed))
        got = getattr(_estimator(name, width=width, **params).fit(X, y), method)(X_new)
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-8 * np.abs(ref).max())
