"""The drawn decision boundary agrees with the model's inside/outside decision at the points.

A narrow Gaussian kernel makes islands smaller than a grid cell; the grid alone draws nothing
around them. The side of the drawn boundary a point lies on is measured independently of the
grid values at the point: the parity of the boundary's crossings on a vertical ray from the point
to the grid's top row, whose own side the grid values there tell.
"""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.pipeline.geometry import contour_lines, pack_lines, refine_level_set, split_pieces
from kfdviz.pipeline.request import GridSpec


def drawn_inside(xs, ys, values, boundary, points, level=0.0) -> np.ndarray:
    """Whether each point is on the high side of the drawn ``boundary`` (ray-crossing parity)."""
    pieces = split_pieces(boundary)
    if pieces:
        S = np.concatenate([np.stack([p[:-1], p[1:]], axis=1) for p in pieces])
    else:
        S = np.zeros((0, 2, 2))
    x0, y0, x1, y1 = S[:, 0, 0], S[:, 0, 1], S[:, 1, 0], S[:, 1, 1]
    out = np.empty(len(points), bool)
    for k, (px, py) in enumerate(points):
        straddle = (x0 <= px) != (x1 <= px)
        t = (px - x0[straddle]) / (x1[straddle] - x0[straddle])
        crossings = y0[straddle] + t * (y1[straddle] - y0[straddle])
        n_above = int(np.sum(crossings > py))
        top_inside = np.interp(px, xs, values[-1]) >= level
        out[k] = top_inside ^ (n_above % 2 == 1)
    return out


def bumps(centres, radius):
    """A function with one round island of ``radius`` (its 0 level) around each centre."""
    centres = np.asarray(centres, float)
    scale = radius / np.sqrt(np.log(2.0))

    def f(P):
        d2 = ((np.asarray(P)[:, None, :] - centres[None]) ** 2).sum(axis=2)
        return np.exp(-d2 / scale**2).sum(axis=1) - 0.5

    return f


def test_islands_smaller_than_a_cell_are_traced_round_their_points():
    xs = ys = np.linspace(0.0, 1.0, 21)  # cells of 0.05
    centres = np.array([[0.212, 0.337], [0.731, 0.618], [0.513, 0.887]])  # off the nodes
    radius = 0.012  # islands a quarter of a cell across
    f = bumps(centres, radius)
    gx, gy = np.meshgrid(xs, ys)
    V = f(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    assert not np.any(V >= 0)  # the grid sees none of them
    coarse = contour_lines(xs, ys, V, [0.0])[0]
    assert coarse.n_pieces == 0
    pieces = refine_level_set(xs, ys, V, [], centres, f(centres), 0.0, f, scale=radius)
    assert len(pieces) == 3
    for p in pieces:
        # closed rings of the analytic radius round one of the centres
        np.testing.assert_allclose(p[0], p[-1], atol=1e-12)
        k = np.argmin(np.linalg.norm(centres - p.mean(axis=0), axis=1))
        r = np.linalg.norm(p - centres[k], axis=1)
        assert np.all(np.abs(r - radius) < 0.1 * radius)
    boundary = pack_lines(0.0, pieces)
    assert drawn_inside(xs, ys, V, boundary, centres).all()
    # and points between the islands stay outside
    others = np.array([[0.1, 0.1], [0.9, 0.2], [0.5, 0.5]])
    assert not drawn_inside(xs, ys, V, boundary, others).any()


def test_points_the_grid_already_shows_add_nothing():
    xs = ys = np.linspace(0.0, 1.0, 21)
    centres = np.array([[0.5, 0.5]])
    f = bumps(centres, 0.2)  # far larger than a cell
    gx, gy = np.meshgrid(xs, ys)
    V = f(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    outside = np.array([[0.05, 0.05], [0.95, 0.9]])
    points = np.vstack([centres, outside])
    coarse = split_pieces(contour_lines(xs, ys, V, [0.0])[0])
    refined = refine_level_set(xs, ys, V, coarse, points, f(points), 0.0, f)
    assert len(refined) == len(coarse)
    assert all(a is b for a, b in zip(refined, coarse, strict=True))


def test_a_hole_smaller_than_a_cell_is_traced_too():
    xs = ys = np.linspace(0.0, 1.0, 21)
    centre = np.array([[0.41, 0.63]])
    g = bumps(centre, 0.01)

    def f(P):
        return -g(P)  # inside everywhere but a tiny hole

    gx, gy = np.meshgrid(xs, ys)
    V = f(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    pieces = refine_level_set(xs, ys, V, [], centre, f(centre), 0.0, f, scale=0.01)
    assert len(pieces) == 1
    assert not drawn_inside(xs, ys, V, pack_lines(0.0, pieces), centre)[0]


@pytest.mark.parametrize("sigma", [0.05, 0.10])
def test_narrow_novelty_boundary_agrees_with_the_model_at_the_training_points(sigma):
    from kfdviz import datasets

    X, _ = datasets.make("sine_noise", seed=0, n_samples=350, noise=0.05)
    width = 2 * sigma**2
    params = {"kernel": "rbf", "width": width, "n_components": 40, "contamination": 0.01}
    r = run_fit(FitRequest("novelty", params, X, None, grid=GridSpec(resolution=200)))
    g = r.grid
    model_inside = r.outputs >= 0
    drawn = drawn_inside(g.xs, g.ys, g.values, g.boundary, X)
    # Points whose decision is zero to rounding (isolated points of a narrow kernel all have the
    # same reconstruction error, and the threshold may fall in that tie) sit on the boundary.
    spread = float(np.ptp(r.outputs))
    clear = np.abs(r.outputs) > 1e-9 * spread
    assert clear.sum() > 0.7 * len(X)
    np.testing.assert_array_equal(drawn[clear], model_inside[clear])
    # without the fine patches the grid alone gets points wrong at this width
    coarse = contour_lines(g.xs, g.ys, g.values, [0.0])[0]
    coarse_drawn = drawn_inside(g.xs, g.ys, g.values, coarse, X)
    assert np.sum(coarse_drawn[clear] != model_inside[clear]) > 0


def test_refined_blocks_from_a_grid_evaluation_are_those_of_the_points():
    """A block's inner values from ``evaluate_grid`` (an expansion's grid sum) give the lines
    that the point-by-point values give."""
    xs = ys = np.linspace(0.0, 1.0, 21)
    centres = np.array([[0.212, 0.337], [0.731, 0.618], [0.513, 0.887]])
    f = bumps(centres, 0.012)
    gx, gy = np.meshgrid(xs, ys)
    V = f(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gy.shape)
    calls = []

    def on_grid(fx, fy):
        calls.append((fx.size, fy.size))
        px, py = np.meshgrid(fx, fy)
        return f(np.column_stack([px.ravel(), py.ravel()])).reshape(py.shape)

    by_points = refine_level_set(xs, ys, V, [], centres, f(centres), 0.0, f, scale=0.012)
    by_grid = refine_level_set(
        xs, ys, V, [], centres, f(centres), 0.0, f, scale=0.012, evaluate_grid=on_grid
    )
    assert calls and len(by_grid) == len(by_points) == 3
    for a, b in zip(by_grid, by_points, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_narrow_kfd_boundary_rings_every_point_and_the_grid_is_the_model():
    """KFD at width 1e-12: every training point an island far below a cell. The boundary still
    puts every point on its own side, and the grid holds the decision values."""
    from kfdviz.bench.numeric import two_class_data
    from kfdviz.estimators import KernelFisherDiscriminant

    X, y = two_class_data(150)
    result = run_fit(FitRequest("kfd", {"width": 1e-12, "mu": 1e-3}, X, y))
    grid = result.grid
    est = KernelFisherDiscriminant(width=1e-12, mu=1e-3).fit(X, y)
    decision = est.decision_function(X)
    inside = drawn_inside(grid.xs, grid.ys, grid.values, grid.boundary, X)
    np.testing.assert_array_equal(inside, decision >= 0)
    gx, gy = np.meshgrid(grid.xs[::37], grid.ys[::23])
    direct = est.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))
    np.testing.assert_allclose(
        grid.values[::23, ::37].ravel(), direct, rtol=0, atol=1e-9 * np.abs(decision).max()
    )
