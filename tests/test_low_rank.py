"""A moved point's KFD direction by a rank-4 correction of the factor before the move
(core/low_rank.py), against the direction of the moved data computed from nothing."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.bench.numeric import two_class_data
from kfdviz.core import scatter
from kfdviz.core.kernels import Kernel
from kfdviz.core.low_rank import MovedPoint


def _exact(kern, X, y, mu):
    K = kern(X, X, cache=False)
    N = scatter.within_class_scatter(K, y, 2)
    d = scatter.class_means(K, y, 2) @ np.r_[-1.0, 1.0]
    R = N + mu * np.eye(len(X))
    return np.linalg.solve(R, d), d, np.linalg.cond(R)


@pytest.mark.parametrize("mu", [1e-2, 1.0])
def test_every_position_of_a_dragged_point_matches_a_fresh_solve(mu):
    X, y = two_class_data(150, seed=5)
    kern = Kernel("rbf", width=1.0)
    K = kern(X, X, cache=False)
    N = scatter.within_class_scatter(K, y, 2)
    moved = MovedPoint(kern, X, y, K, N, mu)
    j = 17
    for step in range(1, 8):  # one drag: every position against the factor before it
        x_new = X[j] + step * np.array([0.05, -0.03])
        got = moved.solve(j, x_new)
        assert got is not None
        a, d_new = got
        X_new = X.copy()
        X_new[j] = x_new
        want, d_want, cond = _exact(kern, X_new, y, mu)
        np.testing.assert_allclose(d_new, d_want, rtol=0, atol=1e-12 * np.abs(d_want).max())
        tol = 1e3 * cond * np.finfo(float).eps
        assert np.linalg.norm(a - want) <= tol * np.linalg.norm(want)


def test_a_point_moved_onto_another_matches_a_fresh_solve():
    X, y = two_class_data(80, seed=2)
    kern = Kernel("rbf", width=0.5)
    K = kern(X, X, cache=False)
    N = scatter.within_class_scatter(K, y, 2)
    moved = MovedPoint(kern, X, y, K, N, 0.1)
    X_new = X.copy()
    X_new[3] = X[40]  # two identical points: K' has two equal rows
    a, _ = moved.solve(3, X[40])
    want, _, cond = _exact(kern, X_new, y, 0.1)
    assert np.linalg.norm(a - want) <= 1e3 * cond * np.finfo(float).eps * np.linalg.norm(want)
