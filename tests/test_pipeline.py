"""run_fit: the one path from a request to everything a view draws (no Qt involved)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
from sklearn.decomposition import PCA

from kfdviz import datasets, presets
from kfdviz.estimators import registry
from kfdviz.pipeline import (
    CancelToken,
    FitCancelled,
    FitError,
    FitRequest,
    GridSpec,
    choose_levels,
    data_box,
    grid_axes,
    interruptible,
    run_fit,
)


@pytest.fixture(scope="module")
def moons():
    X, y = datasets.make("moons", n_samples=160, noise=0.15, seed=1)
    test = np.arange(len(X)) % 4 == 0
    return X, y, test


@pytest.fixture(scope="module")
def kfd_result(moons):
    X, y, test = moons
    return run_fit(FitRequest("kfd", {"width": 0.5, "mu": 1e-3}, X, y, test))


def _bilinear(grid, x, y):
    """The grid's values interpolated at (x, y) (grid points are cell centres)."""
    xs, ys, V = grid.xs, grid.ys, grid.values
    a = np.clip(np.searchsorted(xs, x) - 1, 0, xs.size - 2)
    b = np.clip(np.searchsorted(ys, y) - 1, 0, ys.size - 2)
    tx = (x - xs[a]) / (xs[a + 1] - xs[a])
    ty = (y - ys[b]) / (ys[b + 1] - ys[b])
    return (
        (1 - tx) * (1 - ty) * V[b, a]
        + tx * (1 - ty) * V[b, a + 1]
        + (1 - tx) * ty * V[b + 1, a]
        + tx * ty * V[b + 1, a + 1]
    )


# -- the two-class KFD picture ---------------------------------------------------------------
def test_kfd_result_has_everything_a_view_draws(kfd_result, moons):
    X, _y, _test = moons
    r = kfd_result
    assert r.kind == "classifier" and r.feature == "decision"
    assert r.outputs.shape == (len(X),) and r.predictions.shape == (len(X),)
    assert r.threshold == 0.0
    assert 0.0 <= r.train_error < 0.1 and r.test_error is not None
    g = r.grid
    ny, nx = g.values.shape
    assert (nx, ny) == (g.xs.size, g.ys.size) and max(nx, ny) == 200
    assert np.all(np.isfinite(g.values))
    assert len(g.contours) >= 3
    assert g.boundary is not None and g.boundary.n_pieces >= 1
    lo, hi = g.color_range
    assert g.diverging and np.isclose(lo, -hi)
    assert r.expansion_points.shape[1] == 2
    assert r.embedding.shape == (len(X), 1)
    assert "condition" in r.diagnostics and "kernel_spectrum" in r.series
    assert set(r.timings) >= {"fit", "grid", "total"}


def test_grid_is_row_major_and_covers_the_data_box(kfd_result, moons):
    X, y, test = moons
    g = kfd_result.grid
    x0, x1, y0, y1 = g.box
    assert x0 < X[:, 0].min() and X[:, 0].max() < x1 and y0 < X[:, 1].min() and X[:, 1].max() < y1
    # grid points are the centres of equal cells tiling the box exactly
    assert np.isclose(g.xs[0] - x0, x1 - g.xs[-1]) and np.isclose(g.ys[0] - y0, y1 - g.ys[-1])
    assert np.allclose(np.diff(g.xs), (x1 - x0) / g.xs.size)
    # row-major: values[b, a] is the decision value at (xs[a], ys[b])
    est = registry.get("kfd").make({"width": 0.5, "mu": 1e-3}).fit(X[~test], y[~test])
    rng = np.random.default_rng(0)
    a = rng.integers(0, g.xs.size, 25)
    b = rng.integers(0, g.ys.size, 25)
    direct = est.decision_function(np.column_stack([g.xs[a], g.ys[b]]))
    assert np.allclose(g.values[b, a], direct, atol=1e-8)


def test_level_set_picture_agrees_with_the_points(kfd_result, moons):
    """The decision value drawn under each point has that point's predicted sign."""
    X, _y, _test = moons
    r = kfd_result
    drawn = _bilinear(r.grid, X[:, 0], X[:, 1])
    assert np.allclose(drawn, r.outputs, atol=0.05 * np.ptp(r.outputs))
    clear = np.abs(r.outputs) > 0.05 * np.ptp(r.outputs)
    predicted_positive = r.predictions == r.classes[1]
    assert clear.sum() > 0.8 * len(X)
    assert np.array_equal((drawn > 0)[clear], predicted_positive[clear])


def test_histograms_share_bins_and_are_densities(kfd_result):
    h = kfd_result.histograms
    assert set(h.density) == {(0, "train"), (1, "train"), (0, "test"), (1, "test")}
    width = np.diff(h.edges)
    for key, dens in h.density.items():
        assert dens.shape == width.shape
        assert np.isclose(np.sum(dens * width), 1.0)
        assert h.counts[key].sum() > 0
    assert h.edges[0] <= kfd_result.outputs.min() and kfd_result.outputs.max() <= h.edges[-1]


def test_projection_feature_has_the_threshold_of_the_decision(moons):
    X, y, test = moons
    r = run_fit(FitRequest("kfd", {"width": 0.5}, X, y, test, feature=0))
    assert r.feature == 0
    # decision = projection + b: the threshold on the projection is -b
    est = registry.get("kfd").make({"width": 0.5}).fit(X[~test], y[~test])
    assert np.isclose(r.threshold, -est.intercept_)
    assert r.grid.boundary is not None and r.grid.boundary.n_pieces >= 1


def test_grid_box_can_be_fixed(moons):
    X, y, _test = moons
    box = (-3.0, 3.0, -2.0, 2.0)
    r = run_fit(FitRequest("kpca", {}, X, y, grid=GridSpec(resolution=60, box=box)))
    assert r.grid.box == box
    assert r.grid.values.shape == (40, 60)


# -- other kinds ---------------------------------------------------------------------------------
def test_kpca_features_and_embedding(moons):
    X, y, test = moons
    r = run_fit(FitRequest("kpca", {"n_components": 3}, X, y, test, feature=1))
    assert r.kind == "features" and r.feature == 1
    assert r.threshold is None and not r.grid.diverging
    assert r.train_error is None and r.grid.boundary is None
    assert r.embedding.shape == (len(X), 3)
    assert [k for k, _ in r.feature_options] == [0, 1, 2]
    assert "eigenvalues" in r.series or "spectrum" in r.series


def test_feature_out_of_range_falls_back_with_a_warning(moons):
    X, y, test = moons
    r = run_fit(FitRequest("kpca", {"n_components": 2}, X, y, test, feature=5))
    assert r.feature == 0
    assert any("feature" in w for w in r.warnings)


def test_multiclass_kfd_draws_the_borders_of_the_predicted_classes():
    X, y = datasets.make("blobs", n_samples=150, noise=0.6, seed=0)
    r = run_fit(FitRequest("kfd", {"width": 2.0}, X, y))
    assert r.classes.size == 3 and r.feature == 0
    assert r.grid.boundary is not None and r.grid.boundary.n_pieces >= 1
    assert r.embedding.shape == (len(X), 2)
    assert r.train_error < 0.1


def test_oriented_kpca_gets_tangent_arrows():
    X, y = datasets.make("structureless", n_samples=60, seed=0)
    r = run_fit(FitRequest("okpca", {"tangents": ("rotation",), "width": 1.0}, X, y))
    assert len(r.tangents) == 1 and r.tangents[0].name == "rotation"
    t = r.tangents[0]
    assert t.starts.shape == (60, 2) and t.vectors.shape == (60, 2)
    # rotation arrows are perpendicular to the radius
    centred = t.starts - t.starts.mean(axis=0)
    cosines = np.sum(centred * t.vectors, axis=1) / (
        np.linalg.norm(centred, axis=1) * np.linalg.norm(t.vectors, axis=1)
    )
    assert np.abs(cosines).max() < 0.2


def test_novelty_detector_boundary_and_outlier_rate():
    X, y = datasets.make("sine_noise", n_samples=200, seed=0)
    r = run_fit(FitRequest("novelty", {"width": 0.3, "n_components": 20}, X, y))
    assert r.kind == "novelty" and r.feature == "decision"
    assert {k for k, _ in r.feature_options} == {"decision", "score"}
    assert r.grid.boundary.n_pieces >= 1 and r.error_name == "outliers"
    assert 0.0 < r.train_error < 0.3


def test_three_dimensional_data_give_points_and_embedding_but_no_grid():
    X, y = datasets.make("cuboids", n_samples=150, seed=0)
    r = run_fit(FitRequest("koc", {"width": 5.0}, X, y))
    assert r.grid is None
    assert r.points3d.shape == (150, 3)
    assert r.embedding.shape == (150, 3)
    assert r.embedding_labels == ("KOC 1", "KOC 2", "KOC 3")


def test_more_than_three_dimensions_are_projected_for_the_3d_view():
    X, y = datasets.make("iris")
    r = run_fit(FitRequest("koc", {"width": 1.0}, X, y))
    assert r.points3d.shape == (150, 3)
    # the axes carry each component's share of the variance (scikit-learn's PCA, independent)
    shares = 100 * PCA(3).fit(X).explained_variance_ratio_
    assert r.points3d_labels == tuple(f"PC {j + 1} ({s:.0f} %)" for j, s in enumerate(shares))
    # the projection is PCA's, up to each component's sign
    np.testing.assert_allclose(
        np.abs(r.points3d), np.abs(PCA(3).fit_transform(X)), atol=1e-8 * np.abs(X).max()
    )


def test_regression_curve_with_expansion_points():
    X, y = datasets.make("sinc", n_samples=60, noise=0.1, seed=0)
    r = run_fit(FitRequest("kfd-regression", {"width": 4.0}, X, y))
    assert r.kind == "regressor" and r.grid is None and r.histograms is None
    c = r.curve
    assert c.x.shape == c.y.shape and c.x.min() < X.min() and c.x.max() > X.max()
    assert r.error_name == "RMSE" and r.train_error < 0.3
    assert c.expansion_x is not None and 0 < c.expansion_x.size <= len(X)


# -- errors ------------------------------------------------------------------------------------
def test_an_invalid_parameter_is_named(moons):
    X, y, test = moons
    with pytest.raises(FitError) as info:
        run_fit(FitRequest("kfd", {"mu": -1.0}, X, y, test))
    assert info.value.param == "mu"
    assert "mu" in info.value.message


def test_a_classifier_needs_two_classes(moons):
    X, y, _test = moons
    with pytest.raises(FitError) as info:
        run_fit(FitRequest("kfd", {}, X[y == 0], y[y == 0]))
    assert info.value.param is None
    assert "class" in info.value.message


def test_unknown_algorithm_and_empty_data():
    with pytest.raises(FitError) as info:
        run_fit(FitRequest("no-such-thing", {}, np.zeros((3, 2)), np.array([0, 1, 1])))
    assert info.value.param == "algorithm"
    with pytest.raises(FitError, match="no training points"):
        run_fit(FitRequest("kpca", {}, np.zeros((0, 2))))


def test_test_points_are_never_fitted(moons):
    X, y, test = moons
    a = run_fit(FitRequest("kfd", {"width": 0.5}, X, y, test))
    # moving the test points anywhere leaves the fitted function unchanged
    X2 = X.copy()
    X2[test] += 5.0
    b = run_fit(FitRequest("kfd", {"width": 0.5}, X2, y, test, grid=GridSpec(box=a.grid.box)))
    assert np.allclose(a.outputs[~test], b.outputs[~test])
    assert np.allclose(a.grid.values, b.grid.values)


# -- cancelling and progress -------------------------------------------------------------------
def test_progress_is_reported_up_to_done(moons):
    X, y, test = moons
    seen = []
    run_fit(FitRequest("kfd", {}, X, y, test), progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(m.startswith("Fitting") for _, m in seen)


def test_a_cancel_before_the_fit_stops_it(moons):
    X, y, test = moons
    token = CancelToken()
    token.cancel()
    with pytest.raises(FitCancelled):
        run_fit(FitRequest("kfd", {}, X, y, test), cancel=token)


def test_a_cancel_lands_inside_the_estimators_fit():
    """The estimator knows nothing about cancelling; the fit still stops early."""
    X, y = datasets.make("moons", n_samples=1500, noise=0.2, seed=0)
    full = run_fit(FitRequest("kfd-greedy", {"n_centers": 60}, X, y))
    messages = []
    token = CancelToken()
    timer = threading.Timer(0.2 * full.timings["fit"], token.cancel)
    t0 = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(FitCancelled):
            run_fit(
                FitRequest("kfd-greedy", {"n_centers": 60}, X, y),
                cancel=token,
                progress=lambda f, m: messages.append(m),
            )
    finally:
        timer.cancel()
        timer.join()
    elapsed = time.perf_counter() - t0
    assert "Evaluating" not in messages  # it never got past the fit
    assert elapsed < 0.8 * full.timings["fit"]
    assert sys.getprofile() is None


def test_interruptible_restores_the_previous_profiler():
    calls = []

    def outer(frame, event, arg):
        calls.append(event)

    sys.setprofile(outer)
    try:
        with pytest.raises(FitCancelled), interruptible(_raise_cancelled):
            np.linalg.norm(np.ones(3))
        assert sys.getprofile() is outer
    finally:
        sys.setprofile(None)
    assert calls


def _raise_cancelled():
    raise FitCancelled()


# -- small helpers -----------------------------------------------------------------------------
def test_levels_are_round_and_include_the_threshold():
    levels = choose_levels(np.linspace(-1.37, 2.11, 50), 8, include=0.0)
    assert 0.0 in levels
    steps = np.diff(levels)  # 0 is a multiple of the step: it is one of the levels
    assert np.allclose(steps, steps[0])
    assert all(float(f"{v:.6g}") == v for v in levels)


def test_grid_axes_keep_the_aspect_of_the_box():
    xs, ys = grid_axes((0.0, 4.0, 0.0, 1.0), 100)
    assert xs.size == 100 and ys.size == 25
    assert np.isclose(xs[1] - xs[0], ys[1] - ys[0])
    assert data_box(np.array([[1.0, 1.0]]), 0.1)[1] > 1.0  # a single point still gets a box


# -- presets -------------------------------------------------------------------------------------
def test_presets_are_data_and_fit():
    assert {"default", "kfd-vs-kpca"} <= set(presets.names())
    for name in presets.names():
        p = presets.get(name)
        assert p.description and p.panels
        X, y = datasets.make(p.data.name, seed=p.data.seed, **dict(p.data.params))
        for panel in p.panels:
            r = run_fit(FitRequest(panel.algorithm, panel.params, X, y, feature=panel.feature))
            assert r.grid is not None or X.shape[1] != 2
    with pytest.raises(ValueError, match="default"):
        presets.get("nope")


def test_kfd_vs_kpca_shows_what_the_1999_figure_shows():
    p = presets.get("kfd-vs-kpca")
    X, y = datasets.make(p.data.name, seed=p.data.seed, **dict(p.data.params))
    kfd, kpca1, kpca2 = (
        run_fit(FitRequest(q.algorithm, q.params, X, y, feature=q.feature)) for q in p.panels
    )
    assert kfd.train_error == 0.0
    # No threshold on either KPCA feature separates the classes nearly as well.
    for r in (kpca1, kpca2):
        z = r.outputs
        best = min(
            min(np.mean((z > t) != (y == 1)), np.mean((z > t) != (y == 0))) for t in np.unique(z)
        )
        assert best > 0.15


def test_pipeline_and_presets_load_no_qt():
    code = textwrap.dedent(
        """
        import sys
        import kfdviz.pipeline, kfdviz.presets
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "pyqtgraph")))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
