"""Data of three or more features: the embedding in the main view, the input a click away, and
a PCA projection that says it is one."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, named, shot_dir, wait_idle
from PySide6.QtWidgets import QToolButton
from sklearn.datasets import load_wine
from sklearn.decomposition import PCA
from sklearn.preprocessing import StandardScaler

from kfdviz import datasets

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _generate(w, qtbot, name: str) -> None:
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData(name))
    panel.generate.click()
    wait_idle(qtbot, w)


def _algorithm(w, qtbot, key: str) -> None:
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData(key))
    wait_idle(qtbot, w)


def _shot(w, qtbot, name: str) -> None:
    if shot_dir() is not None:
        w.resize(1280, 720)
        wait_idle(qtbot, w)
        qtbot.wait(50)
        w.grab().save(str(shot_dir() / name))


def _pc_shares(labels) -> list[float]:
    found = [re.fullmatch(r"PC (\d) \((\d+) %\)", text) for text in labels]
    assert all(found), labels
    assert [int(m.group(1)) for m in found] == [1, 2, 3]
    return [float(m.group(2)) for m in found]


@pytest.mark.parametrize("data_set", ["cuboids", "iris"])
def test_koc_shows_its_embedding_large_with_the_input_a_click_away(window, qtbot, data_set):
    w = window
    ws = w.workspace
    _generate(w, qtbot, data_set)
    _algorithm(w, qtbot, "koc")
    r = w.pictures.main_slot.result
    assert r.algorithm == "koc" and r.embedding is not None
    view = ws.input3d
    # the main view, large: it is the picture the window shows, not a dock's tab
    assert ws.single.currentWidget() is view and view.isVisible()
    assert view.width() > 0.4 * w.width() and view.height() > 0.5 * w.height()
    assert "embedding" in view.title.text()
    k = r.embedding.shape[1]
    np.testing.assert_array_equal(view.points[:, :k], r.embedding[:, :3])
    assert view.axis_labels[:k] == tuple(r.embedding_labels[:3])
    _shot(w, qtbot, f"koc-{data_set}-embedding.png")

    named(w, "Input data", QToolButton).click()
    assert view.title.text().startswith(f"Input data ({w.data.dimension}-D)")
    assert not np.array_equal(view.points[:, :k], r.embedding[:, :3])
    # the choice holds over a refit
    width = ws.algorithm_panel.widget("width")
    width.set_value(2.0)
    width.changed.emit()
    wait_idle(qtbot, w)
    assert view.title.text().startswith("Input data")
    named(w, "Embedding", QToolButton).click()
    assert "embedding" in view.title.text()


def test_an_algorithm_without_embedding_shows_the_input(window, qtbot):
    w = window
    _generate(w, qtbot, "cuboids")
    _algorithm(w, qtbot, "svm")
    assert w.pictures.main_slot.result.embedding is None
    assert not named(w, "Embedding", QToolButton).isEnabled()
    assert named(w, "Input data", QToolButton).isChecked()
    assert w.workspace.input3d.title.text() == "Input data (3-D)"


def test_the_bar_is_not_there_for_points_in_the_plane(window, qtbot):
    w = window
    _generate(w, qtbot, "moons")
    assert not w.workspace.shown_bar.isVisible()


def test_more_than_three_features_say_they_are_a_pca_projection(window, qtbot):
    w = window
    _generate(w, qtbot, "iris")
    named(w, "Input data", QToolButton).click()
    view = w.workspace.input3d
    assert view.title.text() == "Input data (4-D): PCA projection"
    shares = _pc_shares(view.axis_labels)
    expected = 100 * PCA(3).fit(w.data.X()).explained_variance_ratio_
    np.testing.assert_allclose(shares, np.round(expected), atol=0.51)


def test_wine_is_projected_as_the_kernel_sees_it(window, qtbot, tmp_path):
    w = window
    X, y = load_wine(return_X_y=True)
    path = tmp_path / "wine.csv"
    datasets.save(str(path), X, y)
    assert w.load_file(str(path))
    wait_idle(qtbot, w)
    _algorithm(w, qtbot, "kpca")
    _shot(w, qtbot, "wine-kpca-embedding.png")
    named(w, "Input data", QToolButton).click()
    view = w.workspace.input3d
    assert view.title.text() == "Input data (13-D): PCA projection of the standardized features"
    shares = _pc_shares(view.axis_labels)
    # standardized over the training points (the test points do not shape the fit), projected
    # with every point
    train = ~np.asarray(w.data.test_mask(), dtype=bool)
    seen = StandardScaler().fit(X[train]).transform(X)
    expected = 100 * PCA(3).fit(seen).explained_variance_ratio_
    np.testing.assert_allclose(shares, np.round(expected), atol=0.51)
    _shot(w, qtbot, "wine-standardized-input.png")
    if shot_dir() is not None:  # the screen's pixels: a widget grab misses the 3-D axis labels
        from kfdviz.app import grab_window

        grab_window(w).save(str(shot_dir() / "wine-standardized-input-screen.png"))
