"""Kernel expansions: evaluation and grid evaluation against brute-force sums."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.core import expansion, kernels
from kfdviz.core.expansion import Expansion
from kfdviz.core.kernels import Kernel

KERNELS = [
    Kernel("rbf", width=0.7),
    Kernel("poly", degree=3, coef0=1.0),
    Kernel("poly", degree=2, coef0=0.0),
    Kernel("linear"),
]


def _brute_force(kern: Kernel, centers, coef, offset, x) -> np.ndarray:
    """f_j(x) = sum_i coef[i, j] k(z_i, x) + offset[j], one kernel value at a time."""

    def k(a, b):
        if kern.name == "rbf":
            return np.exp(-np.sum((a - b) ** 2) / kern.width)
        if kern.name == "poly":
            return (a @ b + kern.coef0) ** kern.degree
        return a @ b

    return np.array(
        [
            sum(coef[i, j] * k(centers[i], x) for i in range(len(centers))) + offset[j]
            for j in range(coef.shape[1])
        ]
    )


def _expansion(kern, m=9, k=3, d=2, seed=0):
    rng = np.random.RandomState(seed)
    # Centres off the origin and away from symmetric positions, so the features are asymmetric.
    centers = rng.randn(m, d) * 0.7 + rng.uniform(-0.5, 0.5, d)
    coef = rng.randn(m, k)
    offset = rng.randn(k)
    return Expansion(kern, centers, coef, offset)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_evaluate_matches_brute_force(kern):
    e = _expansion(kern, d=3)
    X = np.random.RandomState(5).randn(11, 3)
    expected = np.array([_brute_force(kern, e.centers, e.coef, e.offset, x) for x in X])
    np.testing.assert_allclose(e.evaluate(X), expected, rtol=1e-11, atol=1e-11)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_evaluate_chunked(kern, monkeypatch):
    e = _expansion(kern)
    X = np.random.RandomState(6).randn(17, 2)
    whole = e.evaluate(X)
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 1)
    # Points too many for one cached block (the path a grid takes) are evaluated in chunks.
    monkeypatch.setattr(expansion, "CACHED_BLOCK_BYTES", 0)
    calls = []
    np.testing.assert_allclose(
        e.evaluate(X, check_cancel=lambda: calls.append(1)), whole, rtol=1e-12, atol=1e-12
    )
    assert len(calls) == len(X)  # one chunk per row, each checked for cancellation


def test_evaluate_one_dimensional_coef_and_scalar_offset():
    rng = np.random.RandomState(1)
    centers = rng.randn(4, 2)
    e = Expansion(Kernel("rbf"), centers, rng.randn(4), 0.25)
    assert e.coef.shape == (4, 1) and e.offset.shape == (1,) and e.n_features == 1
    X = rng.randn(3, 2)
    expected = [_brute_force(e.kernel, centers, e.coef, e.offset, x) for x in X]
    np.testing.assert_allclose(e.evaluate(X), expected, rtol=1e-12)


def test_select_columns():
    e = _expansion(Kernel("rbf"), k=4)
    X = np.random.RandomState(2).randn(5, 2)
    full = e.evaluate(X)
    # One column is a matrix-vector product, several a matrix product: the sums may run in
    # another order, so equal to round-off relative to the outputs' scale.
    atol = 1e-12 * np.abs(full).max()
    np.testing.assert_allclose(e.select([2, 0]).evaluate(X), full[:, [2, 0]], rtol=0, atol=atol)
    np.testing.assert_allclose(e.select(3).evaluate(X), full[:, [3]], rtol=0, atol=atol)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_evaluate_grid_row_major(kern):
    """out[j, b, a] is feature j at (xs[a], ys[b]); a non-square grid so a transpose cannot pass."""
    e = _expansion(kern)
    xs = np.linspace(-1.7, 2.1, 7)
    ys = np.linspace(-1.1, 0.9, 4)
    out = e.evaluate_grid(xs, ys)
    assert out.shape == (3, ys.size, xs.size)
    for b, y in enumerate(ys):
        for a, x in enumerate(xs):
            expected = _brute_force(kern, e.centers, e.coef, e.offset, np.array([x, y]))
            np.testing.assert_allclose(out[:, b, a], expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_evaluate_grid_matches_meshgrid_evaluate(kern):
    e = _expansion(kern, m=25, k=2, seed=3)
    xs = np.linspace(-2.0, 2.0, 31)
    ys = np.linspace(-1.0, 3.0, 19)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    expected = e.evaluate(points)  # (ny * nx, k), row-major over (y, x)
    out = e.evaluate_grid(xs, ys)
    for j in range(e.n_features):
        np.testing.assert_allclose(out[j], expected[:, j].reshape(ys.size, xs.size), atol=1e-10)
        # The feature is asymmetric: a transposed layout would be a different picture.
        block = out[j][: ys.size, : ys.size]
        assert not np.allclose(block, block.T)


def test_evaluate_grid_unequal_irregular_axes():
    """Irregular, unsorted axes: grid evaluation is per-axis, not a linspace assumption."""
    e = _expansion(Kernel("rbf", width=0.3), m=6, k=1, seed=4)
    xs = np.array([0.5, -1.0, 0.1, 2.0, -0.3])
    ys = np.array([1.2, -0.4, 0.0])
    out = e.evaluate_grid(xs, ys)[0]
    for b, y in enumerate(ys):
        for a, x in enumerate(xs):
            assert out[b, a] == pytest.approx(e.evaluate(np.array([[x, y]]))[0, 0], abs=1e-12)


def test_evaluate_grid_needs_two_dimensions():
    e = _expansion(Kernel("rbf"), d=3)
    with pytest.raises(ValueError, match="2-D input") as info:
        e.evaluate_grid(np.linspace(0, 1, 3), np.linspace(0, 1, 3))
    assert "3 dimensions" in str(info.value)
