"""The displays of fitted estimators (kfdviz.displays): their arrays are the estimator's own
outputs, every exported estimator gets a picture, and the files are the painter's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import joblib
import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.datasets import make_blobs, make_moons
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import kfdviz
from kfdviz import estimators
from kfdviz.displays import EmbeddingDisplay, LevelSetDisplay, OutputHistogramDisplay

REGRESSORS = ("KernelFisherRegressor", "SupportVectorRegressor")
NEEDS_LABELS = (
    "KernelFisherDiscriminant",
    "KernelOrthogonalCentroid",
    "LinearDiscriminant",
    "SupportVectorClassifier",
)


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(60, noise=0.1, random_state=0)
    X_test, y_test = make_moons(30, noise=0.1, random_state=1)
    return X, y, X_test, y_test


def fitted(name, X, y):
    """The exported estimator ``name``, fitted as its kind asks (a curve over x for a
    regressor)."""
    est = getattr(kfdviz, name)()
    if "n_components" in est.get_params() and est.get_params()["n_components"] is not None:
        est.set_params(n_components=min(est.n_components, 2))  # 2-D data have two
    if name in REGRESSORS:
        return est.fit(X[:, :1], X[:, 1])
    if name in NEEDS_LABELS:
        return est.fit(X, y)
    return est.fit(X)


def image_of(png: bytes):
    from PySide6.QtGui import QImage

    image = QImage()
    assert image.loadFromData(png, "PNG"), "not a PNG"
    return image


def distinct_colours(image, step: int = 7) -> int:
    """How many different colours a sample of the picture's pixels has."""
    return len(
        {
            image.pixel(x, y)
            for x in range(0, image.width(), step)
            for y in range(0, image.height(), step)
        }
    )


# -- the arrays are the estimator's outputs --------------------------------------------------
def test_level_values_are_the_decision_function_at_the_grid(moons):
    X, y, X_test, y_test = moons
    kfd = kfdviz.KernelFisherDiscriminant(width=0.5).fit(X, y)
    before = joblib.hash(kfd)
    d = LevelSetDisplay.from_estimator(kfd, X, y, X_test=X_test, y_test=y_test, grid_resolution=60)
    assert joblib.hash(kfd) == before  # evaluated, not refitted
    assert d.grid.shape == (*d.values.shape, 2)
    assert np.array_equal(d.grid[0, :, 0], d.xs) and np.array_equal(d.grid[:, 0, 1], d.ys)
    expected = kfd.decision_function(d.grid.reshape(-1, 2)).reshape(d.values.shape)
    np.testing.assert_allclose(d.values, expected, rtol=1e-9, atol=1e-9)
    # The boundary's vertices lie where the decision value is 0, on the grid's scale.
    vertices = np.vstack(d.boundary)
    span = np.ptp(d.values)
    assert np.max(np.abs(kfd.decision_function(vertices))) < 0.02 * span
    # The levels are the contours' values, 0 (the threshold) among them.
    assert 0.0 in d.levels and set(d.contours) == set(d.levels)
    # Test points are drawn hollow: the result knows which they are.
    assert d.result.test_mask.sum() == len(X_test) and d.result.n_train == len(X)


@pytest.mark.parametrize("feature", [0, 1, 2])
def test_kernel_pca_feature_is_its_transform_column(moons, feature):
    X, _y, *_ = moons
    kpca = kfdviz.KernelPCA(n_components=3, width=0.5).fit(X)
    d = LevelSetDisplay.from_estimator(kpca, X, feature=feature, grid_resolution=40)
    expected = kpca.transform(d.grid.reshape(-1, 2))[:, feature].reshape(d.values.shape)
    np.testing.assert_allclose(d.values, expected, rtol=1e-9, atol=1e-9)
    assert d.feature == feature and "feature" in d.feature_label


def test_novelty_score_is_its_score_samples(moons):
    X, *_ = moons
    det = kfdviz.KernelPCANoveltyDetector(width=0.5).fit(X)
    d = LevelSetDisplay.from_estimator(det, X, feature="score", grid_resolution=40)
    expected = det.score_samples(d.grid.reshape(-1, 2)).reshape(d.values.shape)
    np.testing.assert_allclose(d.values, expected, rtol=1e-9, atol=1e-9)


def test_a_pipeline_is_drawn_in_its_input_space(moons):
    X, y, *_ = moons
    X = 10.0 * X + 3.0  # the scaler has something to undo
    pipe = make_pipeline(StandardScaler(), kfdviz.KernelFisherDiscriminant(width=0.5)).fit(X, y)
    d = LevelSetDisplay.from_estimator(pipe, X, y, grid_resolution=50)
    expected = pipe.decision_function(d.grid.reshape(-1, 2)).reshape(d.values.shape)
    np.testing.assert_allclose(d.values, expected, rtol=1e-9, atol=1e-9)
    # The grid covers the data as given, and the expansion points are back in that space:
    # the dense KFD expands over every training point.
    assert d.xs.min() < X[:, 0].min() and d.xs.max() > X[:, 0].max()
    got = d.expansion_points[np.lexsort(d.expansion_points.T)]
    np.testing.assert_allclose(got, X[np.lexsort(X.T)], rtol=1e-9, atol=1e-9)


def test_regressor_curve_is_its_prediction(moons):
    X, *_ = moons
    reg = kfdviz.KernelFisherRegressor(width=0.3).fit(X[:, :1], X[:, 1])
    d = LevelSetDisplay.from_estimator(reg, X[:, :1], X[:, 1])
    np.testing.assert_allclose(d.values, reg.predict(d.grid), rtol=1e-9, atol=1e-9)
    assert d.grid.shape == (d.values.size, 1) and d.levels.size == 0


def test_histograms_count_the_outputs_per_class_and_set(moons):
    X, y, X_test, y_test = moons
    kfd = kfdviz.KernelFisherDiscriminant(width=0.5).fit(X, y)
    d = OutputHistogramDisplay.from_estimator(kfd, X, y, X_test, y_test, bins=12)
    outputs = np.concatenate([kfd.decision_function(X), kfd.decision_function(X_test)])
    np.testing.assert_allclose(d.outputs, outputs, rtol=1e-9, atol=1e-9)
    for label in (0, 1):
        for role, values in (
            ("train", outputs[: len(X)][y == label]),
            ("test", outputs[len(X) :][y_test == label]),
        ):
            counts, _ = np.histogram(values, d.edges)
            assert np.array_equal(d.counts[(label, role)], counts)
            assert np.sum(d.density[(label, role)] * np.diff(d.edges)) == pytest.approx(1.0)
    assert d.threshold == 0.0
    assert [p.role for p in d.figure_plan().panels] == ["train", "test"]


def test_embedding_is_the_transform():
    X, y = make_blobs(90, n_features=4, centers=4, random_state=0)
    koc = kfdviz.KernelOrthogonalCentroid(width=10.0).fit(X, y)
    d = EmbeddingDisplay.from_estimator(koc, X, y, azimuth=60, elevation=10)
    np.testing.assert_allclose(d.embedding, koc.transform(X)[:, :3], rtol=1e-9, atol=1e-9)
    assert (d.azimuth, d.elevation) == (60.0, 10.0)
    plan = d.figure_plan()
    assert plan.panels[0].kind == "scatter3d"
    assert plan.settings["azimuth"] == 60.0 and "azimuth 60°" in plan.note


# -- every exported estimator gets a picture -----------------------------------------------
EXPORTED_ESTIMATORS = [
    name
    for name in estimators.__all__
    if isinstance(getattr(estimators, name), type)
    and issubclass(getattr(estimators, name), BaseEstimator)
]


def test_the_exports_hold_every_estimator():
    assert len(EXPORTED_ESTIMATORS) >= 13
    assert "LargeFitWarning" in estimators.__all__ and "LargeFitWarning" not in EXPORTED_ESTIMATORS


@pytest.mark.parametrize("name", EXPORTED_ESTIMATORS)
def test_every_exported_estimator_gets_a_picture(name, moons, qapp):
    X, y, X_test, y_test = moons
    est = fitted(name, X, y)
    if name in REGRESSORS:
        d = LevelSetDisplay.from_estimator(est, X[:, :1], X[:, 1])
        assert d.figure_plan().panels[0].kind == "regression"
    else:
        supervised = name in NEEDS_LABELS
        d = LevelSetDisplay.from_estimator(
            est, X, y, X_test=X_test, y_test=y_test, grid_resolution=50
        )
        assert d.figure_plan().panels[0].kind == "input"
        # The drawn values are the estimator's own output at the grid's points.
        points = d.grid.reshape(-1, 2)
        if d.feature == "decision":
            expected = est.decision_function(points)
        else:
            expected = est.transform(points)[:, d.feature]
        scale = float(np.max(np.abs(expected)))
        np.testing.assert_allclose(
            d.values.ravel(), expected, rtol=1e-7, atol=1e-9 * max(scale, 1e-300)
        )
        if supervised or hasattr(est, "decision_function"):
            h = OutputHistogramDisplay.from_estimator(est, X, y, X_test, y_test)
            assert image_of(h.to_png((800, 300), 100)).width() == 800
    image = image_of(d._repr_png_())
    assert image.width() > 400 and image.height() > 200
    # A picture, not a blank: the filled levels (or the curve) give it many colours.
    assert distinct_colours(image) > 40


# -- files -----------------------------------------------------------------------------------
def test_png_svg_and_pdf_files(moons, qapp, tmp_path):
    X, y, *_ = moons
    kfd = kfdviz.KernelFisherDiscriminant(width=0.5).fit(X, y)
    d = LevelSetDisplay.from_estimator(kfd, X, y, grid_resolution=50)
    png = d.save(tmp_path / "a.png", size=(700, 400), dpi=100)
    image = image_of(png.read_bytes())
    assert (image.width(), image.height()) == (700, 400)
    assert round(image.dotsPerMeterX() * 0.0254) == 100
    svg = d.save(tmp_path / "a.svg", size=(700, 400), dpi=100, titles="none")
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    text = svg.read_text(encoding="utf-8")
    assert "<path" in text and "data:image/png;base64" in text  # vector lines, raster map
    assert "Kernel Fisher discriminant" not in text  # titles="none"
    assert "Kernel Fisher discriminant" in d.to_svg((700, 400), 100, titles="all")
    pdf = d.save(tmp_path / "a.pdf", size=(700, 400), dpi=100).read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert d._repr_svg_().lstrip().startswith("<?xml")


def test_a_failed_save_keeps_the_old_file(moons, qapp, tmp_path):
    X, _y, *_ = moons
    d = LevelSetDisplay.from_estimator(kfdviz.KernelPCA().fit(X), X, grid_resolution=30)
    target = tmp_path / "kept.png"
    target.write_bytes(b"old")
    with pytest.raises(ValueError, match="resolution"):
        d.save(target, dpi=5)
    with pytest.raises(ValueError, match=r"\.png, \.svg, \.pdf"):
        d.save(tmp_path / "figure.gif")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.png"]


# -- bad input -------------------------------------------------------------------------------
def test_bad_input_says_what_to_do(moons):
    X, y, *_ = moons
    kpca = kfdviz.KernelPCA(n_components=2).fit(X)
    with pytest.raises(ValueError, match=r"no output 5 to draw: choose one of 0 \(Feature 1\)"):
        LevelSetDisplay.from_estimator(kpca, X, feature=5)
    with pytest.raises(NotFittedError):
        LevelSetDisplay.from_estimator(kfdviz.KernelPCA(), X)
    with pytest.raises(TypeError, match="not a kfdviz estimator"):
        LevelSetDisplay.from_estimator(LogisticRegression().fit(X, y), X, y)
    X3 = np.column_stack([X, X[:, 0]])
    with pytest.raises(ValueError, match=r"3 columns\. Use EmbeddingDisplay"):
        LevelSetDisplay.from_estimator(kfdviz.KernelPCA().fit(X3), X3)
    with pytest.raises(ValueError, match="fitted on 2"):
        LevelSetDisplay.from_estimator(kpca, X[:, :1])
    with pytest.raises(ValueError, match="y and y_test"):
        LevelSetDisplay.from_estimator(kpca, X, y, X_test=X)
    with pytest.raises(ValueError, match="theme must be one of 'light', 'dark'"):
        LevelSetDisplay.from_estimator(kpca, X, theme="purple")
    with pytest.raises(ValueError, match="show_expansion must be"):
        LevelSetDisplay.from_estimator(kpca, X, show_expansion="some")
    one = kfdviz.KernelPCA(n_components=1).fit(X)
    with pytest.raises(ValueError, match="gives 1 feature"):
        EmbeddingDisplay.from_estimator(one, X, y)
    reg = kfdviz.KernelFisherRegressor().fit(X[:, :1], X[:, 1])
    with pytest.raises(ValueError, match="its curve"):
        OutputHistogramDisplay.from_estimator(reg, X[:, :1], X[:, 1])


# -- headless, and Qt only when painting -------------------------------------------------------
def _run(code: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_importing_kfdviz_loads_neither_qt_nor_the_figures():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    result = _run(
        """
        import json, sys
        import kfdviz
        before = sorted(m for m in sys.modules if m.startswith(("PySide6", "kfdviz.figure")))
        kfdviz.LevelSetDisplay  # loads the displays, still without Qt
        qt = sorted(m for m in sys.modules if m.startswith("PySide6"))
        print(json.dumps([before, qt, "LevelSetDisplay" in kfdviz.__all__]))
        """,
        env,
    )
    assert result.returncode == 0, result.stderr
    before, qt, listed = json.loads(result.stdout.splitlines()[-1])
    assert before == [] and qt == [] and listed


def test_painting_needs_no_display():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONSTARTUP")
    }
    result = _run(
        """
        import json, os
        import numpy as np
        from sklearn.datasets import make_moons
        import kfdviz
        X, y = make_moons(40, noise=0.1, random_state=0)
        d = kfdviz.LevelSetDisplay.from_estimator(kfdviz.KernelPCA().fit(X), X, y)
        png = d._repr_png_()
        from PySide6.QtGui import QGuiApplication
        print(json.dumps([png[:8].hex(), QGuiApplication.platformName(),
                          os.environ.get("QT_QPA_PLATFORM")]))
        """,
        env,
    )
    assert result.returncode == 0, result.stderr
    magic, platform, left = json.loads(result.stdout.splitlines()[-1])
    assert magic == b"\x89PNG\r\n\x1a\n".hex()
    assert platform == "offscreen" and left is None  # the environment is as it was
