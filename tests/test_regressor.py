"""KFD regression (NIPS 2000, Fig. 3)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import parametrize_with_checks

from kfdviz.core.kernels import Kernel
from kfdviz.core.kfd_programs import solve_kfd_program
from kfdviz.estimators.regression import KernelFisherRegressor


@parametrize_with_checks(
    [
        KernelFisherRegressor(),
        KernelFisherRegressor(regularizer="l2", loss="absolute"),
        KernelFisherRegressor(kernel="linear", regularizer="rkhs", n_centers=30, random_state=0),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def sinc_samples():
    x = np.linspace(-10, 10, 100)[:, None]
    return x, np.sinc(x[:, 0] / np.pi)  # sin(x)/x


def test_sinc_noise_free_follows_the_curve_with_few_coefficients():
    """NIPS 2000 Fig. 3, left: RBF width 4, C = 0.01, l1 regularizer."""
    x, y = sinc_samples()
    reg = KernelFisherRegressor(width=4.0, mu=0.01).fit(x, y)
    # Measured: max error 0.0083, 12 non-zero coefficients of 100.
    assert np.max(np.abs(reg.predict(x) - y)) < 0.02
    xs = np.linspace(-10, 10, 1001)[:, None]
    assert np.max(np.abs(reg.predict(xs) - np.sinc(xs[:, 0] / np.pi))) < 0.02
    assert reg.expansion_.centers.shape[0] <= 25
    assert reg.sparsity_ >= 0.75
    np.testing.assert_array_equal(reg.expansion_.centers, x[reg.support_])


def test_sinc_with_noise_stays_smooth():
    """NIPS 2000 Fig. 3, right: Gaussian noise of std 0.2, width 3, C = 0.1."""
    x, y = sinc_samples()
    rng = np.random.default_rng(0)
    reg = KernelFisherRegressor(width=3.0, mu=0.1).fit(x, y + 0.2 * rng.standard_normal(100))
    xs = np.linspace(-10, 10, 2001)[:, None]
    f = reg.predict(xs)
    truth = np.sinc(xs[:, 0] / np.pi)
    # Measured: 0.20 from the noise-free curve at worst, 14 non-zero coefficients. The noise
    # itself has std 0.2, so a fit that follows it would be off by ~0.5 somewhere.
    assert np.max(np.abs(f - truth)) < 0.3
    assert np.sqrt(np.mean((f - truth) ** 2)) < 0.1
    assert reg.expansion_.centers.shape[0] <= 30
    # Smooth: the curvature stays that of a width-3 Gaussian bump, no jitter between samples.
    h = xs[1, 0] - xs[0, 0]
    assert np.max(np.abs(np.diff(f, 2))) / h**2 < 2.0


def test_predictions_are_the_program_solution():
    x, y = sinc_samples()
    reg = KernelFisherRegressor(width=4.0, mu=0.01, loss="absolute").fit(x, y)
    K = Kernel("rbf", 4.0)(x, x)
    sol = solve_kfd_program(K, y, loss="absolute", regularizer="l1", mu=0.01, groups=np.zeros(100))
    np.testing.assert_allclose(reg.predict(x), K @ sol.alpha + sol.b, atol=1e-10)
    assert reg.objective_ == pytest.approx(sol.objective)
    assert reg.sparsity_ == sol.sparsity
    assert reg.intercept_ == sol.b


@pytest.mark.parametrize("loss", ["absolute", "epsilon-insensitive", "huber"])
def test_zero_mean_constraint(loss):
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(-3, 3, 60))[:, None]
    y = np.sin(x[:, 0]) + 0.4 * rng.standard_exponential(60)  # skewed: mean != median
    tied = KernelFisherRegressor(width=1.0, mu=0.1, loss=loss).fit(x, y)
    free = KernelFisherRegressor(width=1.0, mu=0.1, loss=loss, zero_mean_constraints=False)
    free.fit(x, y)
    assert abs(np.sum(y - tied.predict(x))) < 1e-6
    assert abs(np.sum(y - free.predict(x))) > 1e-3


def test_the_old_zero_mean_keyword_still_works_with_a_future_warning():
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(-3, 3, 60))[:, None]
    y = np.sin(x[:, 0]) + 0.4 * rng.standard_exponential(60)
    new = KernelFisherRegressor(width=1.0, mu=0.1, loss="absolute", zero_mean_constraints=False)
    old = KernelFisherRegressor(width=1.0, mu=0.1, loss="absolute", zero_mean_constraint=False)
    with pytest.warns(FutureWarning, match="zero_mean_constraints=False"):
        old.fit(x, y)
    np.testing.assert_allclose(old.predict(x), new.fit(x, y).predict(x), rtol=1e-9, atol=1e-9)
    # The old keyword decides over the new one's default, which would tie the residuals.
    assert abs(np.sum(y - old.predict(x))) > 1e-3


@pytest.mark.slow
def test_large_subset_fit_never_forms_an_n_by_n_matrix():
    rng = np.random.default_rng(0)
    n = 20_000
    X = rng.uniform(-3, 3, (n, 2))
    y = np.sin(X[:, 0]) * np.cos(X[:, 1]) + 0.1 * rng.standard_normal(n)
    reg = KernelFisherRegressor(width=1.0, mu=0.01, n_centers=300, random_state=0)
    tracemalloc.start()
    try:
        reg.fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # An n x n float64 matrix alone would take 3.2 GB; the n x 300 cross-Gram takes 48 MB.
    assert peak < 1e9, peak
    assert reg.expansion_.centers.shape[0] <= 300
    rmse = np.sqrt(np.mean((reg.predict(X[:2000]) - y[:2000]) ** 2))
    assert rmse < 0.15


@pytest.mark.parametrize(
    "params",
    [
        {"mu": -1.0},
        {"loss": "hinge"},
        {"regularizer": "l0"},
        {"width": 0.0},
        {"epsilon": -0.5},
        {"huber_delta": 0.0},
        {"n_centers": 0},
        {"centers": "grid"},
    ],
)
def test_bad_parameters_are_refused(params):
    x, y = sinc_samples()
    name = next(iter(params))
    with pytest.raises(InvalidParameterError, match=name):
        KernelFisherRegressor(**params).fit(x, y)


def test_bad_data_is_refused():
    x, y = sinc_samples()
    with pytest.raises(ValueError, match="NaN"):
        KernelFisherRegressor().fit(x, np.r_[np.nan, y[1:]])
    with pytest.raises(ValueError, match="one label per point"):
        KernelFisherRegressor().fit(x, y[:10])
