"""The Rayleigh engine against scipy's generalized symmetric eigensolver and brute force."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import linalg

from kfdviz.core.rayleigh import RayleighError, rayleigh_quotient, solve_rayleigh


def _spd(m, rng, floor=0.1):
    A = rng.randn(m, m)
    return A @ A.T + floor * np.eye(m)


def _psd(m, rank, rng):
    B = rng.randn(m, rank)
    return B @ B.T


def _quotient(a, M, N):
    return float(a @ M @ a) / float(a @ N @ a)


def _abs_cosine(a, b):
    return abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b))


@pytest.fixture
def rng():
    return np.random.RandomState(42)


@pytest.mark.parametrize("m, rank_m, k", [(6, 6, 3), (10, 4, 4), (15, 15, 1), (8, 2, 2)])
@pytest.mark.parametrize("mu", [0.0, 1e-3, 0.5])
def test_matches_scipy_generalized_eigh(m, rank_m, k, mu, rng):
    M = _psd(m, rank_m, rng)
    N = _spd(m, rng)
    sol = solve_rayleigh(M, N, k, mu=mu)
    Nr = N + mu * np.eye(m)
    vals, vecs = linalg.eigh(M, Nr)
    vals, vecs = vals[::-1][:k], vecs[:, ::-1][:, :k]
    assert sol.method == "cholesky"
    assert sol.vectors.shape == (m, k) and sol.values.shape == (k,)
    np.testing.assert_allclose(sol.values, vals, rtol=1e-9, atol=1e-10)
    for j in range(k):
        assert _abs_cosine(sol.vectors[:, j], vecs[:, j]) == pytest.approx(1.0, abs=1e-8)
    # Normalization a'N_reg a = 1, and N_reg-orthogonality of the columns.
    np.testing.assert_allclose(sol.vectors.T @ Nr @ sol.vectors, np.eye(k), atol=1e-9)
    # The reported quotient is the quotient of the reported vector.
    for j in range(k):
        assert _quotient(sol.vectors[:, j], M, Nr) == pytest.approx(sol.values[j], rel=1e-9)
        assert rayleigh_quotient(sol.vectors[:, j], M, Nr) == pytest.approx(sol.values[j], rel=1e-9)
    assert sol.effective_rank == m
    # A 1-norm condition estimate: a lower bound of the true one, rarely far below it.
    kappa = np.linalg.cond(Nr, 1)
    assert kappa / 3 <= sol.condition <= kappa * (1 + 1e-8)
    assert sol.warnings == ()


@pytest.mark.parametrize("seed", range(3))
def test_leading_vector_maximizes_the_quotient(seed):
    rng = np.random.RandomState(seed)
    m = 7
    M, N = _psd(m, 3, rng), _spd(m, rng)
    sol = solve_rayleigh(M, N, 1, mu=1e-2)
    Nr = N + 1e-2 * np.eye(m)
    best = sol.values[0]
    trials = rng.randn(5000, m)
    quotients = np.einsum("ij,jk,ik->i", trials, M, trials) / np.einsum(
        "ij,jk,ik->i", trials, Nr, trials
    )
    assert quotients.max() <= best * (1 + 1e-12)
    # Perturbing the optimum only lowers the quotient.
    a = sol.vectors[:, 0]
    for _ in range(50):
        b = a + 1e-3 * np.linalg.norm(a) * rng.randn(m)
        assert _quotient(b, M, Nr) <= best * (1 + 1e-12)


def test_rank_one_closed_form_equals_eigen_route(rng):
    m = 12
    d = rng.randn(m)
    N = _psd(m, 8, rng)  # singular on its own; mu makes it definite
    closed = solve_rayleigh(None, N, 1, mu=1e-2, rank_one=d)
    eigen = solve_rayleigh(np.outer(d, d), N, 1, mu=1e-2)
    assert closed.method == "closed-form" and eigen.method == "cholesky"
    assert closed.values[0] == pytest.approx(eigen.values[0], rel=1e-9)
    assert _abs_cosine(closed.vectors[:, 0], eigen.vectors[:, 0]) == pytest.approx(1, abs=1e-10)
    # The closed form itself: a ∝ N_reg^{-1} d, value d'N_reg^{-1}d, a'N_reg a = 1, d'a > 0.
    Nr = N + 1e-2 * np.eye(m)
    direct = np.linalg.solve(Nr, d)
    assert closed.values[0] == pytest.approx(d @ direct, rel=1e-10)
    assert _abs_cosine(closed.vectors[:, 0], direct) == pytest.approx(1, abs=1e-12)
    assert closed.vectors[:, 0] @ Nr @ closed.vectors[:, 0] == pytest.approx(1, rel=1e-10)
    assert d @ closed.vectors[:, 0] > 0


def test_gram_regularizer(rng):
    m = 9
    X = rng.randn(m, 2)
    K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    M, N = _psd(m, 5, rng), _psd(m, 4, rng)
    mu = 0.3
    sol = solve_rayleigh(M, N, 2, mu=mu, regularizer="gram", K=K)
    vals, vecs = linalg.eigh(M, N + mu * K)
    np.testing.assert_allclose(sol.values, vals[::-1][:2], rtol=1e-8)
    for j in range(2):
        assert _abs_cosine(sol.vectors[:, j], vecs[:, ::-1][:, j]) == pytest.approx(1, abs=1e-7)
    assert "μK" in sol.regularization
    with pytest.raises(RayleighError, match="needs the Gram matrix"):
        solve_rayleigh(M, N, 1, mu=mu, regularizer="gram")


def _range_reference(M, N, k, tol=1e-9):
    """The problem restricted to N's range, solved independently through an SVD basis."""
    U, s, _ = np.linalg.svd(N)
    P = U[:, s > tol * s[0]]
    vals, vecs = linalg.eigh(P.T @ M @ P, P.T @ N @ P)
    return vals[::-1][:k], (P @ vecs)[:, ::-1][:, :k]


def test_range_fallback_on_nearly_singular_n(rng):
    m, r = 10, 4
    Bn = rng.randn(m, r)
    N = Bn @ Bn.T  # rank 4
    # M lives in N's range, so the problem restricted to the range is the whole story.
    M = Bn @ _psd(r, 3, rng) @ Bn.T
    mu = 1e-14  # positive, yet N + mu*I is far too ill-conditioned for a Cholesky whitening
    sol = solve_rayleigh(M, N, 2, mu=mu)
    assert sol.method == "range"
    assert sol.effective_rank == r
    assert len(sol.warnings) == 1
    text = sol.warnings[0]
    assert "nearly singular" in text and "increase mu" in text and f"rank {r} of {m}" in text
    ref_vals, ref_vecs = _range_reference(M, N, 2)
    np.testing.assert_allclose(sol.values, ref_vals, rtol=1e-7)
    for j in range(2):
        assert _abs_cosine(sol.vectors[:, j], ref_vecs[:, j]) == pytest.approx(1, abs=1e-7)
        assert _quotient(sol.vectors[:, j], M, N) == pytest.approx(sol.values[j], rel=1e-7)
    assert np.all(np.isfinite(sol.vectors))
    # No vector in N's range does better.
    trials = rng.randn(2000, r) @ Bn.T
    quotients = np.einsum("ij,jk,ik->i", trials, M, trials) / np.einsum(
        "ij,jk,ik->i", trials, N, trials
    )
    assert quotients.max() <= sol.values[0] * (1 + 1e-9)


def test_range_fallback_with_singular_gram_regularizer(rng):
    """N + mu*K singular although mu > 0 (K of duplicated points): solved on the range, warned."""
    m = 8
    X = rng.randn(m // 2, 2)
    X = np.vstack([X, X])
    K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))  # rank m/2
    N = K @ K
    M = K @ np.diag(rng.rand(m)) @ K
    sol = solve_rayleigh(M, N, 1, mu=1e-2, regularizer="gram", K=K)
    assert sol.method == "range"
    assert sol.effective_rank == m // 2
    assert sol.warnings and "increase mu" in sol.warnings[0]
    Nr = N + 1e-2 * K
    ref_vals, _ = _range_reference(M, Nr, 1)
    assert sol.values[0] == pytest.approx(ref_vals[0], rel=1e-7)
    assert _quotient(sol.vectors[:, 0], M, Nr) == pytest.approx(sol.values[0], rel=1e-7)


def test_rank_one_on_the_range_fallback(rng):
    m, r = 9, 3
    Bn = rng.randn(m, r)
    N = Bn @ Bn.T
    d = Bn @ rng.randn(r)
    closed = solve_rayleigh(None, N, 1, mu=1e-14, rank_one=d)
    eigen = solve_rayleigh(np.outer(d, d), N, 1, mu=1e-14)
    assert closed.method == eigen.method == "range"
    assert closed.values[0] == pytest.approx(eigen.values[0], rel=1e-7)
    assert _abs_cosine(closed.vectors[:, 0], eigen.vectors[:, 0]) == pytest.approx(1, abs=1e-7)
    assert d @ closed.vectors[:, 0] > 0


@pytest.mark.parametrize("rank_one", [False, True])
def test_singular_n_with_mu_zero_is_an_error(rank_one, rng):
    m = 8
    N = _psd(m, 3, rng)
    d = rng.randn(m)
    with pytest.raises(RayleighError) as info:
        if rank_one:
            solve_rayleigh(None, N, 1, mu=0.0, rank_one=d)
        else:
            solve_rayleigh(np.outer(d, d), N, 1, mu=0.0)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert "singular" in message and "mu > 0" in message and "rank 3 of 8" in message


def test_zero_n_is_an_error():
    with pytest.raises(RayleighError, match="zero or negative definite"):
        solve_rayleigh(np.eye(3), np.zeros((3, 3)), 1)


@pytest.mark.parametrize("where", ["M", "N"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_is_an_error(where, bad, rng):
    M, N = _psd(5, 5, rng), _spd(5, rng)
    (M if where == "M" else N)[1, 2] = bad
    with pytest.raises(RayleighError, match=f"{where} contains NaN or infinite"):
        solve_rayleigh(M, N, 1, mu=1e-3)


def test_non_finite_rank_one_vector_is_an_error(rng):
    d = rng.randn(4)
    d[0] = np.nan
    with pytest.raises(RayleighError, match="rank_one contains NaN or infinite"):
        solve_rayleigh(None, _spd(4, rng), 1, mu=1e-3, rank_one=d)


@pytest.mark.parametrize("mu", [-1e-3, np.nan, np.inf])
def test_bad_mu(mu, rng):
    with pytest.raises(RayleighError, match="mu must be a finite number") as info:
        solve_rayleigh(np.eye(3), _spd(3, rng), 1, mu=mu)
    assert repr(mu) in str(info.value)


def test_bad_shapes_and_options(rng):
    with pytest.raises(RayleighError, match="same shape"):
        solve_rayleigh(np.eye(3), _spd(4, rng), 1)
    with pytest.raises(RayleighError, match="n_components must be between 1 and 4"):
        solve_rayleigh(np.eye(4), _spd(4, rng), 5)
    with pytest.raises(RayleighError, match="n_components must be between 1 and 4"):
        solve_rayleigh(np.eye(4), _spd(4, rng), 0)
    with pytest.raises(RayleighError, match="Unknown regularizer='ridge'"):
        solve_rayleigh(np.eye(4), _spd(4, rng), 1, mu=1.0, regularizer="ridge")


def test_more_components_than_the_range_is_an_error(rng):
    m = 6
    N = _psd(m, 2, rng)
    with pytest.raises(RayleighError, match="at most 2"):
        solve_rayleigh(_psd(m, 4, rng), N, 3, mu=1e-14)


def test_deterministic_signs(rng):
    M, N = _psd(7, 4, rng), _spd(7, rng)
    first = solve_rayleigh(M, N, 3, mu=1e-3)
    second = solve_rayleigh(M.copy(), N.copy(), 3, mu=1e-3)
    np.testing.assert_array_equal(first.vectors, second.vectors)
    # The sign rule: the first entry within 1e-6 of the largest magnitude is positive (a rule that
    # round-off cannot flip between two nearly equal entries of opposite signs).
    for v in first.vectors.T:
        first_large = np.flatnonzero(np.abs(v) >= (1 - 1e-6) * np.abs(v).max())[0]
        assert v[first_large] > 0
    # The same convention on the range fallback.
    Bn = rng.randn(7, 3)
    fallback = solve_rayleigh(Bn @ _psd(3, 3, rng) @ Bn.T, Bn @ Bn.T, 2, mu=1e-14)
    assert fallback.method == "range"
    V = fallback.vectors
    assert np.all(V[np.argmax(np.abs(V), axis=0), np.arange(2)] > 0)


def test_no_runtime_warnings(rng):
    M, N = _psd(6, 2, rng), _psd(6, 3, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solve_rayleigh(M, N, 2, mu=1e-3)
        solve_rayleigh(M, N, 1, mu=1e-14)
        solve_rayleigh(None, N, 1, mu=1e-14, rank_one=rng.randn(6))
