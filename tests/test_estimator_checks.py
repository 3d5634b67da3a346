"""Every registered algorithm's estimator passes scikit-learn's own estimator checks; parameters
round-trip. The estimators come from the registry, so a new algorithm is checked without being
listed here."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks
from sklearn.utils.validation import check_is_fitted

from kfdviz.estimators import (
    KernelFisherDiscriminant,
    KernelOrthogonalCentroid,
    KernelPCA,
    KernelPCANoveltyDetector,
    OrientedKernelPCA,
)
from kfdviz.estimators.registry import SPECS

# Every registered algorithm as the window makes it: its defaults and the parameters it fixes.
ALGORITHM_ESTIMATORS = [spec.make({}) for spec in SPECS]
# Every registered estimator class that takes a kernel, at its own defaults.
KERNEL_ESTIMATORS = [
    cls()
    for cls in dict.fromkeys(type(e) for e in ALGORITHM_ESTIMATORS)
    if "kernel" in cls().get_params()
]


def test_every_registered_algorithm_is_checked():
    assert len(ALGORITHM_ESTIMATORS) == len(SPECS) >= 5
    assert {type(e) for e in KERNEL_ESTIMATORS} >= {
        KernelPCA,
        OrientedKernelPCA,
        KernelFisherDiscriminant,
        KernelOrthogonalCentroid,
        KernelPCANoveltyDetector,
    }


@parametrize_with_checks(ALGORITHM_ESTIMATORS)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


# Non-default values of every kind each estimator takes.
NON_DEFAULTS = [
    (KernelPCA, dict(n_components=4, kernel="poly", degree=2, coef0=0.0, width=3.0)),
    (
        OrientedKernelPCA,
        dict(
            n_components=1,
            kernel="rbf",
            width=0.5,
            tangents=("rotation", "scale"),
            tangent_step=0.02,
            tangent_weights=[1.0, 0.5],
            center=[0.0, 1.0],
            mu=1e-2,
            expand_transformed=True,
        ),
    ),
    (
        KernelFisherDiscriminant,
        dict(
            kernel="linear",
            mu=0.5,
            regularizer="gram",
            threshold="margin-lp",
            n_centers=10,
            centers="kmeans",
            tangents="translate-x",
            tangent_step=0.1,
            tangent_weight=2.0,
            multi_class="gda",
            formulation="eigen",
            random_state=3,
        ),
    ),
    (KernelOrthogonalCentroid, dict(kernel="poly", degree=4, algorithm="gram-schmidt")),
    (KernelPCANoveltyDetector, dict(n_components=7, width=0.2, contamination=0.3)),
]


@pytest.mark.parametrize("cls, params", NON_DEFAULTS, ids=lambda v: getattr(v, "__name__", ""))
def test_get_set_params_and_clone_round_trip(cls, params):
    est = cls(**params)
    got = est.get_params()
    for name, value in params.items():
        assert got[name] is value
    default = cls()
    assert default.set_params(**params) is default
    assert default.get_params() == got
    twin = clone(est)
    assert twin is not est
    assert twin.get_params() == got
    # Every constructor argument is a declared, validated parameter.
    assert set(got) == set(cls._parameter_constraints)


@pytest.mark.parametrize("est", KERNEL_ESTIMATORS, ids=lambda e: type(e).__name__)
def test_clone_of_a_fitted_estimator_is_unfitted(est):
    rng = np.random.RandomState(0)
    X = rng.randn(30, 2)
    y = np.repeat([0, 1], 15)
    fitted = clone(est).fit(X, y)
    check_is_fitted(fitted)
    twin = clone(fitted)
    assert not hasattr(twin, "expansion_")
    assert twin.get_params() == fitted.get_params()
    # Refitting the clone reproduces the original's output.
    refit = twin.fit(X, y)
    methods = ("decision_function", "transform", "predict")
    out = next(m for m in methods if hasattr(refit, m))
    np.testing.assert_allclose(getattr(refit, out)(X), getattr(fitted, out)(X), atol=1e-10)


def test_set_params_rejects_unknown_names():
    with pytest.raises(ValueError, match="Invalid parameter 'sigma'"):
        KernelPCA().set_params(sigma=1.0)


EXTREME_KERNELS = [
    dict(width=1e-9),
    dict(width=1e-4),
    dict(width=1e4),
    dict(width=1e9),
    dict(kernel="poly", degree=10, coef0=1.0),
    dict(kernel="poly", degree=10, coef0=0.0),
    dict(kernel="linear"),
]


@pytest.mark.parametrize("params", EXTREME_KERNELS, ids=lambda p: "-".join(map(str, p.values())))
@pytest.mark.parametrize("est", KERNEL_ESTIMATORS, ids=lambda e: type(e).__name__)
def test_extreme_kernel_parameters_give_finite_output_and_no_warnings(est, params):
    rng = np.random.RandomState(0)
    X = rng.randn(40, 2)
    X[20:] += 1.0
    y = np.repeat([0, 1], 20)
    X_new = rng.randn(10, 2) * 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fitted = clone(est).set_params(**params).fit(X, y)
        for method in ("transform", "decision_function", "predict_proba", "score_samples"):
            if hasattr(fitted, method):
                assert np.all(np.isfinite(getattr(fitted, method)(X_new))), method
