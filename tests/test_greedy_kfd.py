"""Sparse greedy KFD (TPAMI sec. 4.2): forward selection with rank-one updates."""

from __future__ import annotations

import numpy as np
import pytest

import kfdviz.core.greedy_kfd as greedy_module
from kfdviz.core.greedy_kfd import greedy_kfd
from kfdviz.core.kernels import Kernel
from kfdviz.core.kfd_programs import solve_kfd_program

KERN = Kernel("rbf", 1.0)


def two_moons(n=120, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    upper = rng.random(n) < 0.5
    X = np.column_stack([np.cos(t), np.sin(t)])
    X[~upper] = np.column_stack([1 - np.cos(t[~upper]), 0.5 - np.sin(t[~upper])])
    X += 0.15 * rng.standard_normal(X.shape)
    return X, np.where(upper, 1.0, -1.0)


def exact_objective(X, y, index, mu):
    return solve_kfd_program(KERN(X, X[index]), y, regularizer="l2", mu=mu).objective


@pytest.mark.parametrize("n_candidates", [None, 25])
def test_matches_the_exact_solve_on_the_chosen_centers(n_candidates):
    X, y = two_moons()
    mu = 0.05
    sol = greedy_kfd(
        KERN, X, y, max_centers=20, mu=mu, tol=0.0, n_candidates=n_candidates, random_state=1
    )
    assert sol.center_index.size == 20 and np.unique(sol.center_index).size == 20
    exact = solve_kfd_program(KERN(X, X[sol.center_index]), y, regularizer="l2", mu=mu)
    np.testing.assert_allclose(sol.alpha, exact.alpha, rtol=1e-8, atol=1e-10)
    assert sol.b == pytest.approx(exact.b, abs=1e-10)
    assert sol.objective == pytest.approx(exact.objective, rel=1e-10)
    # The path tracked by the rank-one updates ends at the recomputed objective.
    assert sol.objective_path[-1] == pytest.approx(sol.objective, rel=1e-10)
    assert sol.objective_path[0] == pytest.approx(np.sum((y - y.mean()) ** 2))
    assert np.all(np.diff(sol.objective_path) < 0)


def test_each_step_takes_the_largest_decrease():
    X, y = two_moons(n=50, seed=2)
    mu = 0.1
    sol = greedy_kfd(KERN, X, y, max_centers=3, mu=mu, tol=0.0)
    chosen: list[int] = []
    for step, j in enumerate(sol.center_index):
        # Brute force: refit with every remaining candidate added.
        rest = [k for k in range(50) if k not in chosen]
        values = [exact_objective(X, y, [*chosen, k], mu) for k in rest]
        assert rest[int(np.argmin(values))] == j
        assert sol.objective_path[step + 1] == pytest.approx(min(values), rel=1e-9)
        chosen.append(int(j))


def test_stops_when_the_relative_decrease_is_small():
    X, y = two_moons()
    sol = greedy_kfd(KERN, X, y, max_centers=100, mu=0.05, tol=1e-2)
    assert sol.stop_reason == "tol"
    assert 1 <= sol.center_index.size < 100
    path = sol.objective_path
    assert np.all(-np.diff(path) > 1e-2 * path[:-1])  # every accepted step gained enough
    full = greedy_kfd(KERN, X, y, max_centers=100, mu=0.05, tol=0.0)
    nxt = full.objective_path[sol.center_index.size + 1]
    assert path[-1] - nxt <= 1e-2 * path[-1]  # the refused step would not have


def test_max_centers_and_exhaustion():
    X, y = two_moons(n=15)
    assert greedy_kfd(KERN, X, y, max_centers=5, mu=0.1, tol=0.0).stop_reason == "max_centers"
    sol = greedy_kfd(KERN, X, y, max_centers=50, mu=0.1, tol=0.0)
    assert sol.center_index.size == 15
    assert sol.objective == pytest.approx(exact_objective(X, y, np.arange(15), 0.1), rel=1e-9)


def test_random_candidates_are_seeded_and_work_without_the_full_gram(monkeypatch):
    X, y = two_moons(n=300)
    a = greedy_kfd(KERN, X, y, max_centers=15, mu=0.05, n_candidates=30, random_state=7)
    b = greedy_kfd(KERN, X, y, max_centers=15, mu=0.05, n_candidates=30, random_state=7)
    np.testing.assert_array_equal(a.center_index, b.center_index)
    # Sampling needs no n x n Gram matrix: it still runs when that is refused.
    monkeypatch.setattr(greedy_module, "FULL_GRAM_BYTES", 1000)
    c = greedy_kfd(KERN, X, y, max_centers=15, mu=0.05, n_candidates=30, random_state=7)
    np.testing.assert_array_equal(a.center_index, c.center_index)
    with pytest.raises(ValueError, match="n_candidates"):
        greedy_kfd(KERN, X, y, max_centers=15, mu=0.05)


def test_sparse_and_close_to_the_full_kfd_on_banana_like_data():
    X, y = two_moons(n=300, seed=3)
    Xt, yt = two_moons(n=2000, seed=4)
    mu = 0.05
    sol = greedy_kfd(KERN, X, y, max_centers=30, mu=mu, tol=1e-4)
    full = solve_kfd_program(KERN(X, X), y, regularizer="l2", mu=mu)
    err_greedy = np.mean(np.sign(KERN(Xt, X[sol.center_index]) @ sol.alpha + sol.b) != yt)
    err_full = np.mean(np.sign(KERN(Xt, X) @ full.alpha + full.b) != yt)
    assert sol.center_index.size <= 30
    assert err_greedy <= err_full + 0.02


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"mu": 0.0}, "mu must be a positive"),
        ({"mu": -1.0}, "mu must be a positive"),
        ({"max_centers": 0}, "max_centers"),
        ({"tol": -1.0}, "tol"),
        ({"n_candidates": 0}, "n_candidates"),
    ],
)
def test_bad_arguments(kwargs, match):
    X, y = two_moons(n=20)
    with pytest.raises(ValueError, match=match):
        greedy_kfd(KERN, X, y, **{"mu": 0.1, **kwargs})


def test_bad_arrays():
    X, y = two_moons(n=20)
    with pytest.raises(ValueError, match="targets must have shape"):
        greedy_kfd(KERN, X, y[:5])
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        greedy_kfd(KERN, X, y)
