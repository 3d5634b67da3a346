"""The sweep's slide in presentation mode: whole curves only, legends clear of them."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import press_key, save_and_check, wait_idle
from PySide6.QtCore import Qt
from test_sweep_panel import assert_legend_clear_of_curves

from kfdviz import presets

pytestmark = pytest.mark.gui

SWEEP_PRESET = "koc-linear-svm"


def test_the_sweep_slide_shows_the_sweep_whole(window, qtbot):
    w = window
    assert presets.get(SWEEP_PRESET).sweep is not None
    w.presenter.set_deck([SWEEP_PRESET])
    panel = w.workspace.sweep_panel
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, Qt.Key.Key_F5)
    # what the sweep's plots show at every progress report of the computation
    seen = []

    def look(_value) -> None:
        curves = sum(len(p.getPlotItem().listDataItems()) for p in panel.plots)
        seen.append((curves, panel.overlay.state, panel.legend.isVisible()))

    panel.progress.valueChanged.connect(look)
    with qtbot.waitSignal(panel.drawn, timeout=180_000) as blocker:
        press_key(qtbot, w, Qt.Key.Key_Right)
        assert w.files.preset_name == SWEEP_PRESET
        assert w.workspace.sweep_dock.isVisible()
    panel.progress.valueChanged.disconnect(look)
    assert seen, "the sweep reported its progress"
    assert all(s == (0, "busy", False) for s in seen), "no curve before the sweep is whole"
    result = blocker.args[0]
    sweep = result.sweep
    assert panel.overlay.state == "none" and not panel.overlay.card.isVisible()
    wait_idle(qtbot, w)
    qtbot.wait(100)  # the dock's layout settles
    for plot, metric in zip(panel.plots, sweep.metrics, strict=True):
        curves = plot.getPlotItem().listDataItems()
        assert len(curves) == len(sweep.curves)
        for curve, spec in zip(curves, sweep.curves, strict=True):
            x, y = curve.getOriginalDataset()
            np.testing.assert_allclose(x, sweep.values)
            np.testing.assert_allclose(y, result.metrics[spec.label][metric])
    assert panel.scale > 1.0, "slide-sized text"
    assert_legend_clear_of_curves(panel, result)
    # the slide counter covers nothing: the status line and the plots end above it
    counter = w.presenter.slide_counter
    assert counter.isVisible()
    corner = counter.geometry()
    for widget in (panel.status, *panel.plots, w.workspace.input_view):
        if widget.isVisible():
            box = widget.rect().translated(widget.mapTo(w, widget.rect().topLeft()))
            assert not box.intersects(corner), widget
    save_and_check(w, "sweep-slide")
    press_key(qtbot, w, Qt.Key.Key_Escape)
    assert not w.presenting and not w.workspace.sweep_dock.isVisible()
    assert w.contentsMargins().bottom() == 0, "the window's own margins come back"
    wait_idle(qtbot, w)
