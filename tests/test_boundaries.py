"""Decision boundaries between several classes: traced on the scores, not on the labels."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.pipeline import FitRequest, GridSpec, run_fit
from kfdviz.pipeline.geometry import label_boundaries, score_boundaries
from kfdviz.pipeline.run import _make, _spec


@pytest.fixture(scope="module")
def blobs():
    return datasets.make("blobs", n_samples=150, seed=0)


def _top_two_gap(est, points):
    """Per point, (best - second best score) / the score range: 0 on a boundary."""
    D = np.asarray(est.decision_function(points))
    top = np.sort(D, axis=1)
    return (top[:, -1] - top[:, -2]) / (D.max() - D.min())


@pytest.mark.parametrize("algorithm", ["kfd", "lda"])
def test_multi_class_boundary_lies_where_two_classes_tie(blobs, algorithm):
    X, y = blobs
    params = {} if algorithm == "lda" else {"width": 2.0}
    r = run_fit(FitRequest(algorithm, params, X, y, grid=GridSpec(resolution=40)))
    path = r.grid.boundary.path
    vertices = path[np.all(np.isfinite(path), axis=1)]
    assert len(vertices) > 20
    est = _make(_spec(algorithm), params).fit(X, y)
    gaps = _top_two_gap(est, vertices)
    # Linear interpolation of a smooth surface on a 40 x 40 grid: a small fraction of the range.
    assert np.median(gaps) < 5e-3 and gaps.max() < 5e-2


def test_scores_trace_closer_than_labels_on_the_same_grid(blobs):
    X, y = blobs
    est = _make(_spec("kfd"), {"width": 2.0}).fit(X, y)
    xs, ys = np.linspace(-4, 4, 40), np.linspace(-4, 4, 40)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    scores = est.decision_function(points).reshape(40, 40, -1)
    labels = est.classes_[scores.argmax(axis=2)]
    smooth = score_boundaries(xs, ys, scores).path
    steps = label_boundaries(xs, ys, labels, est.classes_).path
    smooth = smooth[np.all(np.isfinite(smooth), axis=1)]
    steps = steps[np.all(np.isfinite(steps), axis=1)]
    assert np.median(_top_two_gap(est, smooth)) < 0.2 * np.median(_top_two_gap(est, steps))


def test_two_tied_classes_everywhere_give_no_boundary():
    xs = ys = np.linspace(0, 1, 5)
    scores = np.zeros((5, 5, 3))
    scores[:, :, 0] = 1.0  # class 0 wins everywhere
    assert score_boundaries(xs, ys, scores).n_pieces == 0
