"""eq. (15)'s trade-off constant C as ``KernelFisherDiscriminant(threshold_C=...)``."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.utils._param_validation import InvalidParameterError

from kfdviz import KernelFisherDiscriminant


def _data(n=90, seed=0):
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < 0.35).astype(int)
    X = rng.randn(n, 2) + 1.3 * y[:, None]
    return X, y


def _best_objective(z, s, C, b=None):
    """max rho - C sum xi of eq. (15) by scipy's LP (with b fixed when given): independent."""
    n = z.size
    A = np.hstack([np.ones((n, 1)), -s[:, None], -np.eye(n)])
    b_bounds = (None, None) if b is None else (b, b)
    res = linprog(
        np.r_[-1.0, 0.0, np.full(n, C)],
        A_ub=A,
        b_ub=s * z,
        bounds=[(0, None), b_bounds] + [(0, None)] * n,
        method="highs",
    )
    assert res.status == 0
    return -res.fun


def test_the_default_is_one_over_a_tenth_of_n():
    X, y = _data()
    default = KernelFisherDiscriminant(threshold="margin-lp", width=2.0).fit(X, y)
    explicit = KernelFisherDiscriminant(
        threshold="margin-lp", width=2.0, threshold_C=1.0 / (0.1 * len(y))
    ).fit(X, y)
    assert default.intercept_ == explicit.intercept_


def _bound(y):
    """The smallest C for which eq. (15) is bounded: 1/(2 m), m the smaller class's size."""
    return 0.5 / min(np.sum(y == 1), np.sum(y == 0))


@pytest.mark.parametrize("times_bound", [1.0, 3.0, 50.0])
def test_the_offset_is_optimal_for_the_given_constant(times_bound):
    X, y = _data(seed=2)
    C = times_bound * _bound(y)
    est = KernelFisherDiscriminant(threshold="margin-lp", width=2.0, threshold_C=C).fit(X, y)
    z = est.transform(X)[:, 0]
    s = np.where(y == 1, 1.0, -1.0)
    assert _best_objective(z, s, C, b=est.intercept_) == pytest.approx(
        _best_objective(z, s, C), rel=1e-7, abs=1e-9
    )


def test_the_constant_changes_the_offset():
    X, y = _data(seed=5)
    offsets = {
        k: KernelFisherDiscriminant(threshold="margin-lp", width=2.0, threshold_C=k * _bound(y))
        .fit(X, y)
        .intercept_
        for k in (1.0, 100.0)
    }
    assert offsets[1.0] != pytest.approx(offsets[100.0], abs=1e-6)


def test_bad_constants_are_refused_with_the_reason():
    X, y = _data()
    with pytest.raises(InvalidParameterError, match="threshold_C"):
        KernelFisherDiscriminant(threshold="margin-lp", threshold_C=-1.0).fit(X, y)
    too_small = 0.9 * _bound(y)
    with pytest.raises(ValueError, match=r"unbounded .* needs threshold_C >= 1/\(2 x"):
        KernelFisherDiscriminant(threshold="margin-lp", threshold_C=too_small).fit(X, y)
    # other thresholds ignore it
    KernelFisherDiscriminant(threshold="prior", threshold_C=too_small).fit(X, y)


def test_the_bound_is_the_boundary_of_unboundedness():
    X, y = _data(seed=1)
    est = KernelFisherDiscriminant(threshold="margin-lp", width=2.0).fit(X, y)
    z = est.transform(X)[:, 0]
    s = np.where(y == 1, 1.0, -1.0)
    n = len(y)
    A = np.hstack([np.ones((n, 1)), -s[:, None], -np.eye(n)])
    for k, status in ((0.9, 3), (1.1, 0)):  # scipy: 3 unbounded, 0 optimal
        res = linprog(
            np.r_[-1.0, 0.0, np.full(n, k * _bound(y))],
            A_ub=A,
            b_ub=s * z,
            bounds=[(0, None), (None, None)] + [(0, None)] * n,
            method="highs",
        )
        assert res.status == status
