"""Data in other units: the kernel sees the features standardized, one box in the Data panel."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, named, shot_dir, wait_idle
from PySide6.QtWidgets import QCheckBox
from scipy.spatial.distance import pdist
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from kfdviz import datasets

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _load_wine(w, qtbot, tmp_path):
    X, y = load_wine(return_X_y=True)
    path = tmp_path / "wine.csv"
    datasets.save(str(path), X, y)
    assert w.load_file(str(path))
    wait_idle(qtbot, w)
    return X


def _kfd(w, qtbot):
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kfd"))
    wait_idle(qtbot, w)


def test_wine_is_standardized_with_a_width_from_what_the_kernel_sees(window, qtbot, tmp_path):
    w = window
    X = _load_wine(w, qtbot, tmp_path)
    box = named(w, "Standardize features", QCheckBox)
    assert box.isEnabled() and box.isChecked()
    note = w.workspace.data_panel.standardize_note
    assert note.isVisibleTo(w) and "standardized" in note.text()

    # the width is the median squared distance of the standardized points (scikit-learn's
    # scaler, an independent computation), inside the width slider's range
    train = ~np.asarray(w.data.test_mask(), dtype=bool)
    seen = StandardScaler().fit(X[train]).transform(X[train])
    width = w.pictures.main_slot.result.params["width"]
    assert width == pytest.approx(float(np.median(pdist(seen, "sqeuclidean"))), rel=1e-2)
    slider = w.workspace.algorithm_panel.widget("width")
    assert slider.low < width < slider.high
    assert 0 < slider.slider.value() < slider.slider.maximum()

    _kfd(w, qtbot)
    standardized_error = w.pictures.main_slot.result.train_error
    if shot_dir() is not None:
        w.resize(1280, 720)
        wait_idle(qtbot, w)
        w.grab().save(str(shot_dir() / "wine-standardized.png"))
        w.workspace.data_dock.raise_()
        qtbot.waitUntil(box.isVisible)
        w.grab().save(str(shot_dir() / "wine-standardized-data-dock.png"))

    box.click()  # off: the raw units
    wait_idle(qtbot, w)
    assert not box.isChecked()
    raw = w.pictures.main_slot.result
    raw_scale = float(np.median(pdist(X[train], "sqeuclidean")))
    assert raw.params["width"] == pytest.approx(raw_scale, rel=1e-2)
    assert standardized_error < raw.train_error
    assert standardized_error <= 0.02

    # one step of the history, undone exactly
    assert w.document.history.undo_text == "Standardize features off"
    w.document.history.undo()
    wait_idle(qtbot, w)
    assert box.isChecked()
    assert w.pictures.main_slot.result.train_error == pytest.approx(standardized_error)


def test_the_choice_is_kept_in_a_session(window, qtbot, tmp_path):
    w = window
    _load_wine(w, qtbot, tmp_path)
    state = w.session_state()
    assert state.standardize
    path = tmp_path / "wine.kfdviz"
    assert w.save_session_file(str(path))
    named(w, "Standardize features", QCheckBox).click()
    wait_idle(qtbot, w)
    assert not w.document.standardize
    assert w.open_session_file(str(path))
    wait_idle(qtbot, w)
    assert w.document.standardize
    assert named(w, "Standardize features", QCheckBox).isChecked()


def test_generated_data_in_one_unit_are_left_as_they_are(window, qtbot):
    w = window
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData("iris"))
    panel.generate.click()
    wait_idle(qtbot, w)
    assert not w.document.standardize
    assert not panel.standardize.isChecked() and panel.standardize.isEnabled()
    assert not panel.standardize_note.isVisibleTo(w)


def test_an_exported_script_standardizes_as_the_window_did(window, qtbot, monkeypatch, tmp_path):
    from test_script_export import (  # the script export's own helpers, shared, not copied
        drawn_values,
        export_from_the_menu,
        run_script,
    )

    w = window
    _load_wine(w, qtbot, tmp_path)
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kpca"))
    wait_idle(qtbot, w)
    assert w.document.standardize
    result = w.pictures.main_slot.result
    folder = tmp_path / "export"
    folder.mkdir()
    export_from_the_menu(w, monkeypatch, folder / "picture.py")
    assert "X = (X - mean) / np.where(std > 0, std, 1.0)" in (folder / "picture.py").read_text()
    done = run_script(folder / "picture.py", tmp_path / "values.npz")
    assert done.returncode == 0, done.stderr
    saved = np.load(tmp_path / "values.npz")
    (kind,) = [str(k) for k in saved["kinds"]]
    shown = drawn_values(result, kind)
    scale = float(np.max(np.abs(shown)))
    np.testing.assert_allclose(saved["values0"], shown, rtol=1e-6, atol=1e-8 * scale)
