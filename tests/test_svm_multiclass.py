"""A multi-class SVM's picture: per-class score margins and the borders of its predicted classes.

The reference is scikit-learn's SVC fitted independently with the same parameters: its ``predict``
(one-vs-one votes, ties to the first class) must be what the picture shows at every grid point
and training point, also where votes tie and the argmax of its default decision function differs.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.svm import SVC

from kfdviz.pipeline import FitRequest, GridSpec, run_fit
from kfdviz.pipeline.votes import score_margins, vote_scores

BOX = (-3.0, 3.0, -3.0, 3.0)


@pytest.fixture(scope="module")
def noisy_three_classes():
    # Overlapping classes: regions where the three pairwise machines vote in a cycle.
    rng = np.random.default_rng(6)
    return rng.normal(size=(30, 2)), rng.integers(0, 3, 30)


def _grid_points(grid) -> np.ndarray:
    gx, gy = np.meshgrid(grid.xs, grid.ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def _reference(X, y) -> SVC:
    # The kernel exp(-|x - z|^2 / c) with c = 1 is scikit-learn's rbf with gamma = 1 / c.
    return SVC(C=1.0, kernel="rbf", gamma=1.0).fit(X, y)


@pytest.mark.parametrize("feature", [0, 1, 2])
def test_class_margins_are_positive_exactly_where_svc_predicts_the_class(
    noisy_three_classes, feature
):
    X, y = noisy_three_classes
    request = FitRequest(
        "svm", {"width": 1.0}, X, y, feature=feature, grid=GridSpec(resolution=61, box=BOX)
    )
    result = run_fit(request)
    svc = _reference(X, y)
    points = _grid_points(result.grid)
    labels = svc.predict(points)
    # The default decision function's argmax differs from predict where votes tie: these data
    # have such regions, so agreement below is not that of the argmax.
    argmax = svc.classes_[svc.decision_function(points).argmax(axis=1)]
    assert np.mean(argmax != labels) > 0.01

    assert result.feature == feature and result.threshold == 0.0
    assert np.array_equal(result.predictions, svc.predict(X))
    values = result.grid.values.ravel()
    clear = np.abs(values) > 1e-9 * np.abs(values).max()
    assert clear.mean() > 0.99
    assert np.array_equal((values > 0)[clear], (labels == svc.classes_[feature])[clear])
    on_train = np.abs(result.outputs) > 1e-9 * np.abs(result.outputs).max()
    assert np.array_equal(
        (result.outputs > 0)[on_train], (svc.predict(X) == svc.classes_[feature])[on_train]
    )


def test_borders_cross_exactly_the_grid_edges_whose_ends_svc_predicts_apart(noisy_three_classes):
    X, y = noisy_three_classes
    result = run_fit(FitRequest("svm", {"width": 1.0}, X, y, grid=GridSpec(resolution=61, box=BOX)))
    grid = result.grid
    labels = _reference(X, y).predict(_grid_points(grid)).reshape(grid.ys.size, grid.xs.size)
    path = grid.boundary.path
    vertices = path[np.all(np.isfinite(path), axis=1)]
    assert grid.boundary.n_pieces > 0

    # Contour vertices lie on cell edges; on a row of the grid, between two of its points.
    dy = grid.ys[1] - grid.ys[0]
    dx = grid.xs[1] - grid.xs[0]
    row = np.rint((vertices[:, 1] - grid.ys[0]) / dy).astype(int)
    on_row = np.abs(vertices[:, 1] - grid.ys[np.clip(row, 0, grid.ys.size - 1)]) < 1e-9 * dy
    crossed = set()
    for (vx, _), b in zip(vertices[on_row], row[on_row], strict=True):
        a = int(np.floor((vx - grid.xs[0]) / dx))
        a = min(max(a, 0), grid.xs.size - 2)
        assert labels[b, a] != labels[b, a + 1], f"a border between equal labels at x = {vx}"
        crossed.add((b, a))
    differ = {
        (b, a)
        for b, a in itertools.product(range(grid.ys.size), range(grid.xs.size - 1))
        if labels[b, a] != labels[b, a + 1]
    }
    assert differ and differ <= crossed


def test_vote_scores_pick_the_class_with_most_votes_first_in_order_on_ties():
    rng = np.random.default_rng(0)
    for r in (3, 4, 5):
        pairs = list(itertools.combinations(range(r), 2))
        # Signs at random, magnitudes away from zero: many vote ties.
        values = rng.choice([-1.0, 1.0], size=(4000, len(pairs))) * rng.uniform(
            0.1, 2.0, size=(4000, len(pairs))
        )
        votes = np.zeros((4000, r), dtype=int)
        for p, (i, j) in enumerate(pairs):
            votes[:, i] += values[:, p] > 0
            votes[:, j] += values[:, p] <= 0
        expected = votes.argmax(axis=1)  # the first of the most voted
        scores = vote_scores(values, r)
        assert np.array_equal(scores.argmax(axis=1), expected)
        assert np.all((scores > 0).sum(axis=1) == 1)
        margins = score_margins(scores)
        assert np.array_equal(margins > 0, np.eye(r, dtype=bool)[expected])


def test_vote_scores_are_continuous_across_a_pairwise_sign_change():
    # Moving one pairwise value through zero moves the scores by as much, not by a vote.
    base = np.array([[0.5, -0.7, 0.0]])
    below, above = base.copy(), base.copy()
    below[0, 2], above[0, 2] = -1e-6, 1e-6
    assert np.max(np.abs(vote_scores(above, 3) - vote_scores(below, 3))) <= 2e-6


def test_vote_scores_name_a_wrong_number_of_pairs():
    with pytest.raises(ValueError, match="3 one-vs-one decision values"):
        vote_scores(np.zeros((2, 4)), 3)
