"""What makes a quick fit quicker without changing its numbers: kernel values evaluated once per
block of points, the boundary taken from the level sets, and no per-call cancel hook for fits
that are surely quick (they are still cancelled between their stages)."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.core.expansion import Expansion
from kfdviz.core.kernels import PAIRWISE_CACHE, Kernel
from kfdviz.pipeline import CancelToken, FitCancelled, FitRequest, cost, run_fit
from kfdviz.pipeline import run as run_module
from kfdviz.pipeline.geometry import contour_lines


@pytest.fixture(scope="module")
def data():
    X, y = datasets.make("moons", n_samples=300, noise=0.2, seed=3)
    return X, y


@pytest.mark.parametrize("kern", [Kernel("rbf", 0.7), Kernel("poly", degree=3, coef0=1.0)])
def test_an_expansion_evaluated_again_at_the_same_points_gives_the_same_values(kern):
    rng = np.random.default_rng(0)
    Z, X = rng.normal(size=(80, 2)), rng.normal(size=(120, 2))
    a = Expansion(kern, Z, rng.normal(size=(80, 2)), [0.5, -1.0])
    b = Expansion(kern, Z.copy(), rng.normal(size=(80, 1)), 2.0)  # same centers, other coef
    PAIRWISE_CACHE.clear()
    first = a.evaluate(X)
    again = a.evaluate(X.copy())
    other = b.evaluate(X)
    K = kern(X, Z, cache=False)
    assert np.array_equal(first, again)
    np.testing.assert_array_equal(other, K @ b.coef + b.offset)
    np.testing.assert_allclose(first, K @ a.coef + a.offset, rtol=0, atol=0)
    # Another kernel on the same points does not take these values.
    c = Expansion(Kernel("linear"), Z, a.coef, a.offset)
    np.testing.assert_array_equal(
        c.evaluate(X), Kernel("linear")(X, Z, cache=False) @ a.coef + a.offset
    )


def test_the_boundary_is_the_zero_level_set_of_the_picture(data):
    X, y = data
    r = run_fit(FitRequest("kfd", {"width": 0.5}, X, y))
    g = r.grid
    assert r.feature == "decision" and any(c.level == 0.0 for c in g.contours)
    alone = contour_lines(g.xs, g.ys, g.values, [0.0])[0]
    np.testing.assert_array_equal(g.boundary.path, alone.path)
    assert g.boundary.label_at == alone.label_at and g.boundary.n_pieces == alone.n_pieces


def test_surely_quick_fits_are_small_ones():
    assert cost.surely_quick("kfd", {}, 500, spectrum=False)
    assert not cost.surely_quick("kfd", {}, 2000, spectrum=False)
    assert not cost.surely_quick("kfd", {}, 500, classes=4)
    assert not cost.surely_quick("kfd-qp", {}, 50)  # iterations depend on the data
    assert not cost.surely_quick("kfd-greedy", {}, 50)


def _hooks(monkeypatch):
    used = []
    real = run_module.interruptible

    def recording(check):
        used.append(check)
        return real(check)

    monkeypatch.setattr(run_module, "interruptible", recording)
    return used


def test_a_quick_fit_runs_without_the_call_hook_and_gives_the_same_numbers(data, monkeypatch):
    X, y = data
    used = _hooks(monkeypatch)
    request = FitRequest("kfd", {"width": 0.5}, X, y, draft=True)
    quick = run_fit(request, cancel=CancelToken())
    assert used == []
    plain = run_fit(request)
    for name in ("outputs", "predictions", "embedding"):
        np.testing.assert_array_equal(getattr(quick, name), getattr(plain, name))
    np.testing.assert_array_equal(quick.grid.values, plain.grid.values)
    np.testing.assert_array_equal(quick.grid.boundary.path, plain.grid.boundary.path)


def test_a_quick_fit_is_still_cancelled_between_its_stages(data):
    X, y = data
    token = CancelToken()
    seen = []

    def progress(fraction, message):
        seen.append(message)
        if message.startswith("Fitting"):
            token.cancel()

    with pytest.raises(FitCancelled):
        run_fit(FitRequest("kfd", {}, X, y, draft=True), cancel=token, progress=progress)
    assert "Evaluating" not in seen


def test_a_fit_not_surely_quick_keeps_the_call_hook(monkeypatch):
    X, y = datasets.make("moons", n_samples=300, noise=0.2, seed=3)
    used = _hooks(monkeypatch)
    run_fit(FitRequest("kfd-greedy", {"n_centers": 10}, X, y), cancel=CancelToken())
    assert len(used) == 2  # the fit and the picture
