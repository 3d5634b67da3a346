"""Sweeps in the window: Park & Park's Fig. 3 as curves, computed in the background."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pyqtgraph as pg
import pytest
from gui_helpers import make_window, save_and_check, wait_idle

from kfdviz.pipeline import FitFailure
from kfdviz.pipeline.request import as_check
from kfdviz.workers import sweep_job

pytestmark = pytest.mark.gui


def test_a_sweep_preset_draws_its_curves(qtbot, settings, tmp_path):
    w = make_window(qtbot, settings)
    try:
        with qtbot.waitSignal(w.workspace.sweep_panel.drawn, timeout=120_000) as blocker:
            w.load_preset("koc-linear-svm")
            assert w.workspace.sweep_dock.isVisible()
        result = blocker.args[0]
        assert w.sweep.result is result
        sweep = result.sweep
        assert len(w.workspace.sweep_panel.plots) == 2  # accuracy, support vectors
        for plot, metric in zip(w.workspace.sweep_panel.plots, sweep.metrics, strict=True):
            item = plot.getPlotItem()
            assert item.ctrl.logXCheck.isChecked(), "σ on a log axis"
            curves = item.listDataItems()
            assert len(curves) == len(sweep.curves) == 2
            for curve, spec in zip(curves, sweep.curves, strict=True):
                x, y = curve.getOriginalDataset()
                np.testing.assert_allclose(x, sweep.values)
                assert np.isfinite(y).all()
                np.testing.assert_allclose(y, result.metrics[spec.label][metric])
        acc = result.metrics["linear SVM after KOC (Gaussian)"]["accuracy"]
        assert acc.max() > 85
        n_sv = result.metrics
        svm, koc = (n_sv[c.label]["n_support"] for c in sweep.curves)
        assert koc[np.argmax(acc)] < svm.max()
        assert "best" in w.workspace.sweep_panel.status.text()
        wait_idle(qtbot, w)
        save_and_check(w, "sweep-koc-linear-svm")
        # the curves export as a figure
        assert w.export_figure_to(tmp_path / "sweep.svg", what="sweep")
        assert (tmp_path / "sweep.svg").read_text().count("<path") > 10
        # an edit makes the curves out of date; Run computes them again
        w.data.relabel(0, 1 - int(w.data.y()[0]))
        assert w.sweep.result is None
        assert "changed" in w.workspace.sweep_panel.status.text()
        with qtbot.waitSignal(w.workspace.sweep_panel.drawn, timeout=120_000):
            w.workspace.sweep_panel.run_button.click()
        wait_idle(qtbot, w)
    finally:
        w.close()
    assert not w.sweep.worker.thread.is_alive()


def test_a_sweep_can_be_cancelled_and_other_presets_hide_it(qtbot, settings, monkeypatch):
    # The sweep runs until it is cancelled, checking as a real sweep does between its fits: the
    # cancel cannot arrive after the sweep has finished, and without it no outcome ever comes.
    def sweep_until_cancelled(*args, cancel=None, **kwargs):
        check = as_check(cancel)
        while True:
            check()
            time.sleep(0.005)

    monkeypatch.setattr(sweep_job, "run_sweep", sweep_until_cancelled)
    w = make_window(qtbot, settings)
    try:
        w.load_preset("koc-linear-svm")
        assert w.sweep.running()
        with qtbot.waitSignal(w.sweep.worker.outcome, timeout=30_000) as blocker:
            w.workspace.sweep_panel.cancel_button.click()
        outcome = blocker.args[0]
        assert isinstance(outcome, FitFailure) and outcome.cancelled
        assert w.sweep.result is None
        assert w.workspace.sweep_panel.status.text() == "Sweep cancelled."
        w.load_preset("default")
        assert not w.workspace.sweep_dock.isVisible()
        assert w.sweep.spec is None and w.session_state().sweep is None
        wait_idle(qtbot, w)
    finally:
        w.close()


def _synthetic_result():
    """The koc-linear-svm sweep with curves that reach the plots' top right corner (where a
    legend inside the plot area would sit)."""
    from kfdviz import presets
    from kfdviz.sweep import SweepResult

    sweep = presets.get("koc-linear-svm").sweep
    values = np.asarray(sweep.values, dtype=float)
    t = np.linspace(0.0, 1.0, len(values))
    metrics = {}
    for k, curve in enumerate(sweep.curves):
        metrics[curve.label] = {
            metric: (60.0 + 35.0 * t if k == 0 else 95.0 - 10.0 * t) for metric in sweep.metrics
        }
    return SweepResult(sweep, values, metrics)


def _curve_points_on_screen(plot) -> list:
    """Every marker of the plot's curves, in global (screen) coordinates."""
    from PySide6.QtCore import QPointF

    item = plot.getPlotItem()
    points = []
    for curve in item.listDataItems():
        x, y = curve.getData()  # in view coordinates (log10 of σ on the log axis)
        for xi, yi in zip(x, y, strict=True):
            if np.isfinite(xi) and np.isfinite(yi):
                scene = item.vb.mapViewToScene(pg.Point(xi, yi))
                widget = plot.mapFromScene(scene)
                points.append(QPointF(plot.viewport().mapToGlobal(widget)))
    return points


def _global_rect(widget):
    from PySide6.QtCore import QPoint, QRectF

    return QRectF(widget.mapToGlobal(QPoint(0, 0)), widget.size().toSizeF())


def _plot_area_on_screen(plot):
    from PySide6.QtCore import QPointF, QRectF

    area = plot.getPlotItem().vb.sceneBoundingRect()
    top_left = plot.viewport().mapToGlobal(plot.mapFromScene(area.topLeft()))
    bottom_right = plot.viewport().mapToGlobal(plot.mapFromScene(area.bottomRight()))
    return QRectF(QPointF(top_left), QPointF(bottom_right))


def assert_legend_clear_of_curves(panel, result) -> None:
    """One legend for all plots, whole, outside every plot area, covering no marker."""
    legend = panel.legend
    assert legend.isVisible() and len(legend.entries) == len(result.sweep.curves)
    box = _global_rect(legend)
    margin = 0.5 * 8 * panel.scale  # a marker's half size
    for plot in panel.plots:
        assert not box.intersects(_plot_area_on_screen(plot)), "outside the plot area"
        points = _curve_points_on_screen(plot)
        assert len(points) == len(result.sweep.curves) * len(result.values)
        near = box.adjusted(-margin, -margin, margin, margin)
        assert not any(near.contains(p) for p in points)
    # every entry whole: its text has the room it asks for, inside the legend
    for entry in legend.entries:
        text = entry.findChildren(type(panel.status))[-1]
        assert text.width() >= text.sizeHint().width()
        assert box.contains(_global_rect(entry))


@pytest.mark.parametrize("scale", [1.0, 2.3])
@pytest.mark.parametrize("size", [(1600, 420), (900, 420), (1024, 340)])
def test_the_legend_stays_clear_of_the_curves(qtbot, scale, size):
    from kfdviz.app.presentation import SCALE
    from kfdviz.app.sweep_panel import SweepPanel

    panel = SweepPanel()
    qtbot.addWidget(panel)
    result = _synthetic_result()
    panel.set_sweep(result.sweep)
    panel.set_scale(SCALE if scale != 1.0 else 1.0)
    panel.resize(*size)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_result(result)
    qtbot.wait(50)  # the layouts settle
    assert_legend_clear_of_curves(panel, result)
    # side by side when there is room, else one above the other
    from kfdviz.app.sweep_panel import LEGEND_SPACING

    entries = panel.legend.entries
    wide = sum(e.sizeHint().width() for e in entries) + LEGEND_SPACING * (len(entries) - 1)
    tops = [_global_rect(e).top() for e in entries]
    if wide <= panel.legend.width():
        assert len(set(tops)) == 1
    else:
        assert all(a < b for a, b in itertools.pairwise(tops))
    if size[0] == 1600 and scale == 1.0:
        assert wide <= panel.legend.width(), "a wide panel has its legend on one line"
    panel.set_sweep(None)
    assert not panel.legend.isVisible() and not panel.plots


def test_a_running_sweep_shows_no_curves_and_stale_curves_are_greyed(qtbot):
    from kfdviz.app.sweep_panel import SweepPanel

    panel = SweepPanel()
    qtbot.addWidget(panel)
    result = _synthetic_result()
    panel.set_sweep(result.sweep)
    panel.resize(900, 420)
    panel.show()
    qtbot.waitExposed(panel)
    panel.show_result(result)
    assert panel.overlay.state == "none"
    # the data changed: the curves are greyed, with the reason and Run
    with qtbot.waitSignal(panel.run_requested):
        panel.mark_stale("The data changed: Run sweep to compute the curves again.")
        assert panel.overlay.state == "stale" and panel.overlay.card.isVisible()
        assert "data changed" in panel.overlay.message.text()
        panel.overlay.fix_button.click()
    # a new run: nothing of the old curves, a busy card with the progress and Cancel
    panel.set_running(True)
    assert panel.overlay.state == "busy" and panel.overlay.card.isVisible()
    assert all(not p.getPlotItem().listDataItems() for p in panel.plots)
    assert not panel.legend.isVisible()
    panel.set_progress(0.4, "fit 4 of 10")
    assert panel.overlay.progress.value() == 40
    with qtbot.waitSignal(panel.cancel_requested):
        panel.overlay.cancel_button.click()
    panel.set_running(False)
    assert panel.overlay.state == "none" and not panel.overlay.card.isVisible()
