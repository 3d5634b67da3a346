"""The interval of eq. (15)'s optimal offsets against brute force and against HiGHS.

Eq. (15), max rho - C sum xi s.t. s_i (z_i + b) >= rho - xi_i, has in b a concave piecewise
linear objective g(b) = max over rho >= 0 of rho - C sum (rho - s_i (z_i + b))_+; its kinks lie
where two margins meet or a margin is zero, so its maximum over b is among those points, and for
fixed b the best rho is 0 or one of the margins. That brute force gives the optimum and the
optimal b; ``margin_lp_optimal_offsets`` must bracket every optimal b, and HiGHS's b must lie
inside it.
"""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.core.thresholds import margin_lp, margin_lp_constant, margin_lp_optimal_offsets


def objective(z, s, C, b):
    margins = s * (z + b)
    rhos = np.r_[0.0, margins[margins > 0]]
    values = rhos - C * np.maximum(rhos[:, None] - margins[None, :], 0.0).sum(axis=1)
    return float(values.max())


def brute_force_optimum(z, s, C):
    pos, neg = z[s > 0], z[s < 0]
    candidates = np.r_[-z, (-(pos[:, None] + neg[None, :]) / 2).ravel()]
    values = np.array([objective(z, s, C, b) for b in candidates])
    return float(values.max())


def random_case(rng, n, ties):
    s = np.where(rng.rand(n) < rng.uniform(0.35, 0.65), 1.0, -1.0)
    z = s * rng.uniform(0.5, 3.0) + rng.randn(n)
    if ties:
        z = np.round(2 * z) / 2  # many equal outputs, as data with few distinct points give
    return z, s


@pytest.mark.parametrize("ties", [False, True])
def test_the_interval_brackets_every_optimal_offset_and_highs_lands_inside(ties):
    rng = np.random.RandomState(11 if ties else 7)
    checked = 0
    for trial in range(160):
        n = int(rng.choice([20, 37, 40, 53, 60, 80]))  # 0.05 n whole for 20, 40, 60, 80
        z, s = random_case(rng, n, ties)
        m = int(min(np.sum(s > 0), np.sum(s < 0)))
        if m < 4:
            continue
        C = None if trial % 2 == 0 else float(rng.uniform(0.6, 3.0) / m)
        Cv = margin_lp_constant(s, C)
        interval = margin_lp_optimal_offsets(z, s, C)
        if interval is None:
            continue
        lo, hi = interval
        best = brute_force_optimum(z, s, Cv)
        tol = 1e-9 * max(1.0, np.abs(z).max())
        # Optimal at both ends (the interval is within the optimal set's hull, plus at most
        # the near-flat stretch allowed for K/2 near a whole number) ...
        K = 1.0 / Cv
        near_whole = abs(K / 2 - round(K / 2)) <= 1e-3
        if not near_whole or abs(K / 2 - round(K / 2)) <= 1e-9:
            assert objective(z, s, Cv, lo) >= best - tol
            assert objective(z, s, Cv, hi) >= best - tol
            # ... and nothing optimal outside it: g is strictly lower a little beyond each end.
            step = 1e-4 * max(1.0, np.abs(z).max())
            assert objective(z, s, Cv, lo - step) < best - 1e-12
            assert objective(z, s, Cv, hi + step) < best - 1e-12
        b = margin_lp(z, s, C)
        assert lo - 1e-7 * max(1.0, np.abs(z).max()) <= b <= hi + 1e-7 * max(1.0, np.abs(z).max())
        checked += 1
    assert checked >= 40


def test_whole_half_k_gives_an_interval_and_a_fraction_a_point():
    rng = np.random.RandomState(3)
    s = np.where(np.arange(80) % 2 == 0, 1.0, -1.0)
    z = 2.0 * s + rng.randn(80)  # default C: K = 8, K/2 = 4
    lo, hi = margin_lp_optimal_offsets(z, s)
    assert hi > lo
    lo, hi = margin_lp_optimal_offsets(z, s, C=1 / 7.0)  # K/2 = 3.5
    assert hi == lo


def test_heavy_overlap_is_left_to_the_solver():
    rng = np.random.RandomState(5)
    s = np.where(rng.rand(60) < 0.5, 1.0, -1.0)
    z = rng.randn(60)  # no separation: the K smallest margins sum below zero
    assert margin_lp_optimal_offsets(z, s) is None


def test_an_unbounded_lp_is_refused_as_by_margin_lp():
    s = np.r_[np.ones(30), -np.ones(3)]
    z = s + 0.1
    with pytest.raises(ValueError, match="unbounded"):
        margin_lp_optimal_offsets(z, s, C=0.01)
