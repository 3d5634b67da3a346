"""Drawing like a paint program: an empty canvas takes clicks at once, and the right button (or
Shift) draws the other class without changing tool. Real clicks on the plot."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, click_data, viewport, wait_idle
from PySide6.QtCore import Qt

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _empty_canvas(w, qtbot):
    w.action_table["clear"].trigger()
    qtbot.waitUntil(lambda: w.data.n == 0, timeout=5_000)
    w.workspace.data_panel.split.setValue(0)


def test_an_empty_canvas_takes_a_click_as_a_point(window, qtbot):
    w = window
    assert w.canvas.tool == "pan"
    _empty_canvas(w, qtbot)
    assert w.canvas.tool == "add"
    assert w.action_table.tool_actions["add"].isChecked()
    view = w.workspace.input_view
    click_data(qtbot, view, 0.0, 0.0)
    qtbot.waitUntil(lambda: w.data.n == 1, timeout=5_000)


def test_right_click_and_shift_click_draw_the_other_class(window, qtbot):
    w = window
    _empty_canvas(w, qtbot)
    view = w.workspace.input_view
    w.canvas.set_class(0)
    click_data(qtbot, view, -0.5, 0.0)  # class 1
    vp = viewport(view)
    qtbot.mouseClick(vp, Qt.MouseButton.RightButton, pos=view.data_to_widget(0.5, 0.0))
    qtbot.mouseClick(
        vp,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ShiftModifier,
        pos=view.data_to_widget(0.5, 0.5),
    )
    qtbot.waitUntil(lambda: w.data.n == 3, timeout=5_000)
    assert list(np.asarray(w.data.y())) == [0, 1, 1]
    assert w.canvas.tool == "add" and w.workspace.data_panel.current_class() == 0
    # Points of two classes: the fit follows.
    click_data(qtbot, view, -0.5, 0.5)
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result is not None


def test_with_class_2_selected_the_other_class_is_class_1(window, qtbot):
    w = window
    w.canvas.set_class(1)
    assert w.canvas.drawn_class(alternate=True) == 0
    assert w.canvas.drawn_class(alternate=False) == 1
