"""The kernel width from the data's scale: where a new data set starts, and one click away."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle
from PySide6.QtCore import Qt
from scipy.spatial.distance import pdist

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _train_scale(w) -> float:
    X = np.asarray(w.data.X())[~np.asarray(w.data.test_mask(), dtype=bool)]
    return float(np.median(pdist(X, "sqeuclidean")))


def test_a_generated_data_set_starts_at_its_own_scale(window, qtbot):
    w = window
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData("circles"))
    panel.generate.click()
    wait_idle(qtbot, w)
    width = w.pictures.main_slot.result.params["width"]
    assert width == pytest.approx(_train_scale(w), rel=1e-2)  # three significant figures


def test_the_button_sets_the_width_from_the_data(window, qtbot):
    w = window
    algo = w.workspace.algorithm_panel
    field = algo.widget("width").field
    field.setText("0.01")
    field.editingFinished.emit()
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(0.01)
    assert algo.width_from_data.isVisible()
    qtbot.mouseClick(algo.width_from_data, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(_train_scale(w), rel=1e-2)


def test_the_button_is_only_there_for_a_gaussian_width(window, qtbot):
    w = window
    algo = w.workspace.algorithm_panel
    kernel = algo.widget("kernel")
    kernel.combo.setCurrentIndex(kernel.combo.findData("poly"))
    wait_idle(qtbot, w)
    assert not algo.width_from_data.isVisible()
