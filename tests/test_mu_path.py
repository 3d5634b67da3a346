"""The window's mu steps: one tridiagonal reduction of N, then each mu in O(n^2).

A fit at a new mu whose N was reduced after an earlier fit (core/mu_path.py) must give what a
cold fit gives: the same direction up to round-off, the same outputs, threshold and grid. A new
feature drawn of the same fit reuses the fitted estimator (pipeline/reuse.py) and must draw
what a cold fit of that feature draws.
"""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.bench.numeric import two_class_data
from kfdviz.core import fit_cache, mu_path, scatter
from kfdviz.core.kernels import Kernel
from kfdviz.core.rayleigh import solve_rayleigh
from kfdviz.pipeline import FitRequest, GridSpec, reuse
from kfdviz.pipeline.run import run_fit


@pytest.fixture(autouse=True)
def _fresh():
    def clear():
        mu_path.forget()
        reuse.forget()
        fit_cache.FIT_CACHE.clear()

    clear()
    yield
    clear()


def _terms(n=80, width=1.5, seed=2):
    X, y = two_class_data(n, seed=seed)
    K = Kernel("rbf", width=width)(X, X)
    N = scatter.within_class_scatter(K, y, 2)
    N.setflags(write=False)
    d = scatter.class_means(K, y, 2) @ np.r_[-1.0, 1.0]
    return N, d


def test_closed_form_needs_the_reduction_of_that_very_matrix():
    N, d = _terms()
    assert mu_path.closed_form(N, d, 1e-2) is None  # nothing reduced yet
    mu_path.reduce_latest_in_background()
    mu_path.wait()
    assert mu_path.reduction(N) is not None
    # An equal copy is another matrix: the reduction is found by identity only.
    copy = N.copy()
    copy.setflags(write=False)
    assert mu_path.closed_form(copy, d, 1e-2) is None
    assert mu_path.closed_form(N, d, 1e-2) is not None


@pytest.mark.parametrize("reduction", [mu_path.TridiagonalN, mu_path.SpectralN])
@pytest.mark.parametrize("mu", [1e-3, 3e-2, 1.0, 50.0])
def test_closed_form_equals_the_cholesky_solve(mu, reduction):
    N, d = _terms()
    mu_path.keep(N, reduction(N))
    fast = mu_path.closed_form(N, d, mu)
    if fast is None:  # too ill-conditioned for the path: the Cholesky route solves it
        assert mu_path.reduction(N).condition(mu) > mu_path.FAST_CONDITION
        return
    sol = solve_rayleigh(None, N, 1, mu=mu, rank_one=d)
    a = sol.vectors[:, 0]
    # Forward error of the two backward-stable solves: condition x unit round-off, relative.
    tol = 100 * fast.condition * np.finfo(float).eps
    assert np.linalg.norm(fast.direction - a) <= tol * np.linalg.norm(a)
    assert fast.value == pytest.approx(sol.values[0], rel=tol)
    # The condition number is the true one: (l_max + mu) / (l_min + mu) from N's spectrum.
    ev = np.linalg.eigvalsh(N)
    assert fast.condition == pytest.approx((ev[-1] + mu) / (ev[0] + mu), rel=1e-6)


def _request(X, y, mu, feature="auto", algorithm="kfd", **params):
    base = {"kernel": "rbf", "width": 1.2, "mu": mu} if algorithm == "kfd" else {}
    return FitRequest(
        algorithm=algorithm,
        params={**base, **params},
        X=X,
        y=y,
        test_mask=np.zeros(X.shape[0], bool),
        feature=feature,
        grid=GridSpec(resolution=60),
    )


def _same_picture(got, want, scale):
    tol = 1e-7 * scale
    np.testing.assert_allclose(got.outputs, want.outputs, rtol=0, atol=tol)
    np.testing.assert_allclose(got.grid.values, want.grid.values, rtol=0, atol=tol)
    assert got.threshold == pytest.approx(want.threshold, abs=tol)
    np.testing.assert_array_equal(got.predictions, want.predictions)


def test_mu_steps_after_one_reduction_equal_cold_fits():
    X, y = two_class_data(400, seed=4)
    run_fit(_request(X, y, 1e-3))
    mu_path.wait()
    assert mu_path.stats["reductions"] == 1
    steps = [2e-3, 1e-2, 0.1, 1.0]
    fast = []
    for mu in steps:
        fast.append(run_fit(_request(X, y, mu)))
    assert mu_path.stats["solves"] == len(steps)  # every step took the reduction
    assert all(r.diagnostics["method"] == "closed-form" for r in fast)
    for mu, got in zip(steps, fast, strict=True):
        mu_path.forget()
        fit_cache.FIT_CACHE.clear()
        reuse.forget()
        want = run_fit(_request(X, y, mu))
        assert mu_path.stats["solves"] == 0  # cold: the Cholesky route
        scale = float(np.ptp(want.outputs))
        _same_picture(got, want, scale)


def test_the_feature_drawn_changes_without_a_refit():
    X, y = two_class_data(200, seed=9)
    params = {"kernel": "rbf", "width": 1.0, "n_components": 3}
    first = run_fit(_request(X, y, None, feature=0, algorithm="kpca", **params))
    assert reuse.stats["reused"] == 0
    second = run_fit(_request(X, y, None, feature=2, algorithm="kpca", **params))
    assert reuse.stats["reused"] == 1
    assert "fit" not in second.timings  # no fit: the kept estimator drew it
    reuse.forget()
    cold = run_fit(_request(X, y, None, feature=2, algorithm="kpca", **params))
    assert second.feature == cold.feature == 2
    _same_picture_values(second, cold)
    assert not np.allclose(first.outputs, second.outputs)


def _same_picture_values(got, want):
    scale = float(np.ptp(want.outputs))
    np.testing.assert_allclose(got.outputs, want.outputs, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(got.grid.values, want.grid.values, rtol=0, atol=1e-9 * scale)


def test_a_changed_point_or_parameter_is_a_new_fit():
    X, y = two_class_data(120, seed=1)
    run_fit(_request(X, y, 1e-3))
    X2 = X.copy()
    X2[5] += 0.1
    run_fit(_request(X2, y, 1e-3))
    run_fit(_request(X, y, 1e-3, width=2.0))
    assert reuse.stats["reused"] == 0
    # The same request again is a refit (asked for, or timed); another view of it is not.
    run_fit(_request(X, y, 1e-3, width=2.0))
    assert reuse.stats["reused"] == 0
    run_fit(_request(X, y, 1e-3, feature="decision", width=2.0))
    assert reuse.stats["reused"] == 1
