"""Live refits of quick fits: no debounce wait, pictures that follow a dragged point, and the
whole picture once the drag ends."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle
from PySide6.QtCore import Qt

from kfdviz.core import mu_path

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def test_a_quick_fit_starts_at_once_after_a_parameter_change(window, qtbot):
    w = window
    assert w.fit.live_refit.quick()  # the default preset fits in milliseconds
    width = w.workspace.algorithm_panel.widget("width")
    width.slider.setValue(width.slider.value() + 60)
    assert w.fit.worker.is_busy() and not w.fit.debounce.isActive(), "fitted without the debounce"
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(width.value())


def test_slow_fits_keep_the_debounce(window, qtbot, monkeypatch):
    w = window
    mu_path.forget()  # no decomposed N held from an earlier fit: the refit is a full one
    r = w.pictures.main_slot.result
    monkeypatch.setitem(r.timings, "total", 5.0)
    assert not w.fit.live_refit.quick()
    width = w.workspace.algorithm_panel.widget("width")
    width.slider.setValue(width.slider.value() + 60)
    assert w.fit.debounce.isActive()
    wait_idle(qtbot, w)


def test_dragging_a_point_redraws_the_picture_during_the_drag_and_all_views_after(window, qtbot):
    w = window
    w.canvas.set_tool("move")
    view = w.workspace.input_view
    X = w.data.X()
    train = np.flatnonzero(~w.data.test_mask())
    i = int(train[0])
    x0, y0 = X[i]
    drawn, docks = [], []
    w.fit_drawn.connect(lambda r: drawn.append(r))
    vp = view.plot.viewport()
    left, plain = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    before_docks = w.workspace.outputs_view.result
    qtbot.mousePress(vp, left, plain, view.data_to_widget(x0, y0))
    for k in range(1, 25):
        qtbot.mouseMove(vp, view.data_to_widget(x0 + 0.02 * k, y0 + 0.01 * k))
        qtbot.wait(30)
        docks.append(w.workspace.outputs_view.result)
    during = list(drawn)
    assert len(during) >= 2, "the picture follows the point during the drag"
    assert all(r.X[i, 0] > x0 for r in during)
    assert view.result is during[-1]
    assert all(d is before_docks for d in docks), "the docks wait for the end of the drag"
    assert w.pictures.main_slot.result.diagnostics["n_train"] == train.size
    assert "kernel_spectrum" not in during[-1].series  # drafts leave the spectrum out
    qtbot.mouseRelease(vp, left, plain, view.data_to_widget(x0 + 0.5, y0 + 0.25))
    qtbot.waitUntil(lambda: "kernel_spectrum" in w.pictures.main_slot.result.series, timeout=30_000)
    wait_idle(qtbot, w)
    final = w.pictures.main_slot.result
    assert np.allclose(final.X[i], w.data.X()[i])
    assert "kernel_spectrum" in final.series
    for v in (view, w.workspace.outputs_view, w.workspace.diagnostics_view):
        assert v.result is final
