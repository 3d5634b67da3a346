"""Linear baselines (PCA, LDA, rank-k SVD) drawn without kernel-expansion decorations."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.views import DiagnosticsView, InputSpaceView

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def moons():
    return datasets.make("moons", n_samples=100, noise=0.15, seed=0)


@pytest.mark.parametrize("algorithm", ["pca", "lda", "svd"])
def test_no_expansion_circles_for_an_affine_map(qtbot, moons, algorithm):
    X, y = moons
    r = run_fit(FitRequest(algorithm, {}, X, y))
    assert r.expansion_points is None and r.n_expansion_total == 0
    view = InputSpaceView()
    qtbot.addWidget(view)
    view.set_points(X, y, np.zeros(len(X), bool))
    view.set_result(r)
    assert len(view.expansion_scatter.data) == 0


def test_kernel_expansions_keep_their_points(moons):
    X, y = moons
    r = run_fit(FitRequest("svm", {"width": 0.5}, X, y))
    assert r.expansion_points is not None and 0 < len(r.expansion_points) < len(X)
    # The expansion points are training points.
    rows = {tuple(p) for p in X}
    assert all(tuple(p) in rows for p in r.expansion_points)


def test_diagnostics_plot_drops_the_previous_fits_axes(qtbot, moons):
    X, y = moons
    view = DiagnosticsView()
    qtbot.addWidget(view)
    view.set_result(run_fit(FitRequest("kfd", {"width": 0.5}, X, y)))
    item = view.series_plot.getPlotItem()
    assert item.getAxis("left").isVisible()
    view.set_result(run_fit(FitRequest("lda", {}, X, y)))
    assert not item.getAxis("left").isVisible() and not item.getAxis("bottom").isVisible()
    assert "no spectrum" in item.titleLabel.text
    view.set_result(run_fit(FitRequest("kfd", {"width": 0.5}, X, y)))
    assert item.getAxis("left").isVisible()


def test_svd_rank_above_the_dimension_is_said(moons):
    X, y = moons
    r = run_fit(FitRequest("svd", {"n_components": 3}, X, y))
    assert any("only 2 real coordinates" in w for w in r.warnings)
    assert not run_fit(FitRequest("svd", {"n_components": 2}, X, y)).warnings
