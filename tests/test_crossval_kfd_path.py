"""KFD's mu path on a fold (one tridiagonal reduction of N for every mu) against the estimator.

The path must give what fitting a ``KernelFisherDiscriminant`` per candidate gives: the same
coefficients up to round-off, the same validation accuracy, and in a cross-validation the same
choice as scikit-learn's ``GridSearchCV``; mu where N + mu I is ill-conditioned, and the
configurations the path does not cover, are left to the estimator.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from kfdviz.core import fit_cache, scatter
from kfdviz.core.kernels import Kernel
from kfdviz.estimators import KernelFisherDiscriminant
from kfdviz.experiments import kfd_path
from kfdviz.experiments.crossval import fit_each_scorer, grid_search, stratified_folds
from kfdviz.experiments.kfd_path import FAST_CONDITION, TridiagonalN, kfd_mu_path_scorer
from kfdviz.experiments.methods import get_method

MUS = [1e-6, 1e-4, 1e-2, 1.0, 100.0]


def two_classes(n, d=4, seed=0, shift=0.9):
    rng = np.random.RandomState(seed)
    y = np.r_[np.zeros(n // 2, int), np.ones(n - n // 2, int)]
    X = np.where(y[:, None] == 0, 1.8 * rng.randn(n, d), shift + rng.randn(n, d))
    order = rng.permutation(n)
    return X[order], y[order]


def test_tridiagonal_solves_and_condition_numbers_match_dense_linear_algebra():
    rng = np.random.RandomState(3)
    for m in (1, 2, 7, 60):
        B = rng.randn(m, max(m - 3, 1))
        N = B @ B.T  # positive semidefinite, singular for m > 1: as a within-class scatter
        b = rng.randn(m)
        reduced = TridiagonalN(N)
        mus = [1e-3, 0.5, 40.0]
        got = reduced.solve(b, mus)
        evals = np.linalg.eigvalsh(N)
        for j, mu in enumerate(mus):
            want = np.linalg.solve(N + mu * np.eye(m), b)
            cond = (evals[-1] + mu) / (evals[0] + mu)
            # forward error of a backward-stable solve: condition number x unit round-off
            tol = 50 * cond * np.finfo(float).eps * np.linalg.norm(want)
            assert np.linalg.norm(got[:, j] - want) <= tol
            assert reduced.condition(mu) == pytest.approx(cond, rel=1e-8)
        assert reduced.condition(-evals[-1] - 1.0) == np.inf


def test_path_coefficients_equal_the_estimators_for_several_mu():
    X, y = two_classes(60, seed=5)
    width = 6.0
    kern = Kernel("rbf", width=width)
    Kxx = kern(X, X)
    d = scatter.class_means(Kxx, y, 2) @ np.r_[-1.0, 1.0]
    N = scatter.within_class_scatter(Kxx, y, 2)
    A = TridiagonalN(N).solve(d, MUS)
    for j, mu in enumerate(MUS):
        est = KernelFisherDiscriminant(kernel="rbf", width=width, mu=mu).fit(X, y)
        assert est.diagnostics_["method"] == "closed-form"
        a = A[:, j]
        z = Kxx @ a
        a = a * 2.0 / (z[y == 1].mean() - z[y == 0].mean())  # the estimator's scale
        scale = np.abs(est.dual_coef_).max()
        assert np.abs(a - est.dual_coef_).max() <= 1e-6 * scale


@pytest.mark.parametrize("threshold", ["margin-lp", "prior", "min-error"])
def test_fold_scores_equal_fitting_each_candidate(threshold):
    X, y = two_classes(90, seed=2)
    est = KernelFisherDiscriminant(kernel="rbf", threshold=threshold)
    fast, each = kfd_mu_path_scorer(est), fit_each_scorer(est)
    for width in (0.8, 8.0, 80.0):
        for train, val in stratified_folds(y, 5, seed=1):
            candidates = [{"width": width, "mu": mu} for mu in MUS]
            fit_cache.FIT_CACHE.clear()
            got = fast(X[train], y[train], X[val], y[val], candidates)
            fit_cache.FIT_CACHE.clear()
            want = each(X[train], y[train], X[val], y[val], candidates)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_cross_validation_chooses_as_gridsearchcv():
    X, y = two_classes(100, d=5, seed=8, shift=0.7)
    grid = {"width": [1.0, 5.0, 25.0, 125.0], "mu": [1e-5, 1e-3, 1e-1, 10.0]}
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    ours = grid_search(kfd_mu_path_scorer(est), grid, X, y, shared=("width",), seed=3)
    search = GridSearchCV(
        est, grid, cv=StratifiedKFold(5, shuffle=True, random_state=3), refit=False
    ).fit(X, y)
    assert ours.best_params == search.best_params_
    np.testing.assert_allclose(
        ours.mean_scores, search.cv_results_["mean_test_score"], rtol=0, atol=1e-12
    )


def test_the_tables_kfd_column_cross_validates_on_the_path():
    est = get_method("kfd").estimator()
    assert get_method("kfd").scorer is kfd_mu_path_scorer
    assert est.formulation == "rayleigh" and est.threshold == "margin-lp"


def test_ill_conditioned_mu_is_fitted_by_the_estimator(monkeypatch):
    X, y = two_classes(50, seed=4)
    train, val = stratified_folds(y, 5, seed=0)[0]
    # N of a wide Gaussian kernel is nearly singular: mu = 1e-12 is beyond FAST_CONDITION.
    candidates = [{"width": 400.0, "mu": mu} for mu in (1e-12, 0.0, 1.0)]
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    handed = []
    each = fit_each_scorer(est)

    def recording(Xt, yt, Xv, yv, cands):
        handed.extend(c["mu"] for c in cands)
        return each(Xt, yt, Xv, yv, cands)

    monkeypatch.setattr(kfd_path, "fit_each_scorer", lambda e: recording)
    got = kfd_mu_path_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    assert handed == [1e-12, 0.0]
    want = fit_each_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)  # mu = 0 fails: NaN on both
    assert np.isnan(got[1][0])  # (accuracy, constant) per candidate
    reduced = TridiagonalN(
        fit_cache.two_class_terms(Kernel("rbf", width=400.0), X[train], X[train], y[train]).N
    )
    assert reduced.condition(1e-12) > FAST_CONDITION >= reduced.condition(1.0)


@pytest.mark.parametrize(
    "params",
    [{"n_centers": 20, "random_state": 0}, {"regularizer": "gram"}, {"formulation": "eigen"}],
)
def test_configurations_off_the_path_are_fitted_by_the_estimator(params):
    X, y = two_classes(60, seed=6)
    train, val = stratified_folds(y, 5, seed=2)[0]
    est = KernelFisherDiscriminant(kernel="rbf", threshold="prior", **params)
    candidates = [{"width": 4.0, "mu": mu} for mu in (1e-3, 1.0)]
    got = kfd_mu_path_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    want = fit_each_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_a_fold_the_estimator_refuses_scores_nan():
    X, y = two_classes(40, seed=1)
    X = X.copy()
    X[3, 0] = np.nan
    train, val = stratified_folds(y, 5, seed=0)[0]
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    got = kfd_mu_path_scorer(est)(X[train], y[train], X[val], y[val], [{"width": 2.0, "mu": 1e-2}])
    assert np.isnan([score for score, _ in got]).all()


def test_validation_outputs_at_the_threshold_are_left_to_the_estimator():
    # Few distinct points (as titanic's three binary-coded inputs): training outputs tie, the
    # margin LP's offset sits on a tied group, and validation points share its value, so
    # round-off decides their side. The scores must still be the estimator's fits' exactly.
    rng = np.random.RandomState(0)
    patterns = rng.randint(0, 2, size=(8, 3)).astype(float)
    rows = rng.randint(0, 8, size=120)
    X = patterns[rows]
    y = (rng.rand(120) < 0.3 + 0.4 * patterns[rows, 0]).astype(int)
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    fast, each = kfd_mu_path_scorer(est), fit_each_scorer(est)
    for width in (0.3, 3.0):
        for train, val in stratified_folds(y, 5, seed=1):
            candidates = [{"width": width, "mu": mu} for mu in MUS]
            got = fast(X[train], y[train], X[val], y[val], candidates)
            want = each(X[train], y[train], X[val], y[val], candidates)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_settings_the_estimator_refuses_score_nan_on_the_path_too():
    X, y = two_classes(40, d=1, seed=2)
    train, val = stratified_folds(y, 5, seed=0)[0]
    # A one-dimensional input has no rotation tangent: refused even with weight 0.
    est = KernelFisherDiscriminant(kernel="rbf", threshold="prior", tangents="rotation")
    candidates = [{"width": 2.0, "mu": 1e-2}]
    got = kfd_mu_path_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    want = fit_each_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    assert np.isnan([s for s, _ in want]).all() and np.isnan([s for s, _ in got]).all()
