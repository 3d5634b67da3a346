"""Sweeps in the window: Park & Park's Fig. 3 as curves, computed in the background."""

from __future__ import annotations

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


def _curve_points_in_scene(plot):
    item = plot.getPlotItem()
    points = []
    for curve in item.listDataItems():
        x, y = curve.getData()  # in view coordinates (log10 of σ on the log axis)
        for xi, yi in zip(x, y, strict=True):
            points.append(item.vb.mapViewToScene(pg.Point(xi, yi)))
    return points


@pytest.mark.parametrize("scale", [1.0, 2.3])
@pytest.mark.parametrize("size", [(1600, 420), (900, 420)])
def test_the_legend_stays_clear_of_the_curves(qtbot, scale, size):
    from PySide6.QtCore import QRectF

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
    for plot in panel.plots:
        item = plot.getPlotItem()
        legend = item.legend
        assert legend is not None and legend.isVisible()
        assert len(legend.items) == len(result.sweep.curves)
        box = legend.sceneBoundingRect()
        area = item.vb.sceneBoundingRect()
        assert not box.intersects(area), "the legend is outside the plot area"
        points = _curve_points_in_scene(plot)
        assert points and all(area.adjusted(-1, -1, 1, 1).contains(p) for p in points)
        assert not any(box.contains(p) for p in points)
        # the whole legend is on screen, above the plot area
        assert QRectF(plot.viewport().rect()).contains(plot.mapFromScene(box).boundingRect())
        assert box.bottom() <= area.top()
        # every entry has its full text
        for _sample, label in legend.items:
            assert label.sceneBoundingRect().width() >= label.item.boundingRect().width() - 1
    panel.set_sweep(None)
