"""A picture that does not belong to the data and parameters on screen is never shown as
current: it is greyed with the reason (and a fix where there is one); a long fit shows its
progress on the plot with Cancel. Driven like a user, with the real fit thread."""

from __future__ import annotations

import pytest
from gui_helpers import OFFSCREEN_NOISE, press_key, wait_idle
from PySide6.QtCore import Qt

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

KEY = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier


def _generate(w, qtbot, name: str, n: int, *, wait: bool = True) -> None:
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData(name))
    panel.n_samples.setValue(n)
    panel.generate.click()
    if wait:
        wait_idle(qtbot, w)


def _overlays(w):
    ws = w.workspace
    return [ws.input_view.overlay, ws.outputs_view.overlay, ws.diagnostics_view.overlay]


def test_a_one_class_set_greys_the_old_picture_and_offers_novelty(window, qtbot):
    w = window
    assert all(o.state == "none" for o in _overlays(w))
    _generate(w, qtbot, "spiral", 200)  # one class: KFD cannot be fitted
    assert w.pictures.main_slot.error
    for overlay in _overlays(w):
        assert overlay.state == "stale" and overlay.card.isVisible()
    assert "at least 2 classes" in w.workspace.input_view.overlay.reason
    fix = w.workspace.input_view.overlay.fix_button
    assert fix.isVisible() and "novelty" in fix.text().lower()
    qtbot.mouseClick(fix, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.algorithm == "novelty"
    assert w.workspace.algorithm_panel.algorithm() == "novelty"
    assert w.pictures.main_slot.result.algorithm == "novelty"
    assert all(o.state == "none" for o in _overlays(w))


def test_an_invalid_value_greys_the_picture_until_a_valid_one(window, qtbot):
    w = window
    field = w.workspace.algorithm_panel.widget("width").field
    field.setText("-1")
    field.editingFinished.emit()
    wait_idle(qtbot, w)
    overlay = w.workspace.input_view.overlay
    assert overlay.state == "stale" and "last valid value" in overlay.reason
    field.setText("0.4")
    field.editingFinished.emit()
    wait_idle(qtbot, w)
    assert overlay.state == "none"
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(0.4)


def test_with_live_fitting_off_a_change_greys_until_fit_now(window, qtbot):
    w = window
    press_key(qtbot, w, KEY.Key_L, CTRL)  # live off
    assert not w.fit.live
    field = w.workspace.algorithm_panel.widget("width").field
    field.setText("0.3")
    field.editingFinished.emit()
    overlay = w.workspace.input_view.overlay
    qtbot.waitUntil(lambda: overlay.state == "stale", timeout=5_000)
    assert "live fitting is off" in overlay.reason
    qtbot.mouseClick(overlay.fix_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, w)
    assert overlay.state == "none"
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(0.3)


def test_a_long_fit_shows_its_progress_on_the_plot_and_cancels_from_there(window, qtbot):
    w = window
    press_key(qtbot, w, KEY.Key_L, CTRL)  # live off: nothing starts before we ask
    _generate(w, qtbot, "moons", 2500, wait=False)
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kfd-greedy"))
    centers = w.workspace.algorithm_panel.widget("n_centers")
    centers.field.setText("400")
    centers.field.editingFinished.emit()
    w.fit.large_data.approved = True  # this long fit is wanted: no cost banner first
    press_key(qtbot, w, KEY.Key_Return, CTRL)
    overlay = w.workspace.input_view.overlay
    qtbot.waitUntil(lambda: overlay.state == "busy", timeout=10_000)
    assert w.fit.worker.is_busy()
    assert overlay.cancel_button.isVisible() and overlay.progress.isVisible()
    with qtbot.waitSignal(w.fit.worker.outcome, timeout=20_000) as blocker:
        qtbot.mouseClick(overlay.cancel_button, Qt.MouseButton.LeftButton)
    assert blocker.args[0].cancelled
    qtbot.waitUntil(lambda: not w.fit.worker.is_busy(), timeout=10_000)
    assert overlay.state != "busy"
    assert w.pictures.main_slot.result is not None
