"""Sweeps in the window: Park & Park's Fig. 3 as curves, computed in the background."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import make_window, save_and_check, wait_idle

pytestmark = pytest.mark.gui


def test_a_sweep_preset_draws_its_curves(qtbot, settings, tmp_path):
    w = make_window(qtbot, settings)
    try:
        with qtbot.waitSignal(w.sweep_panel.drawn, timeout=120_000) as blocker:
            w.load_preset("koc-linear-svm")
            assert w.sweep_dock.isVisible()
        result = blocker.args[0]
        assert w.sweep_result is result
        sweep = result.sweep
        assert len(w.sweep_panel.plots) == 2  # accuracy, support vectors
        for plot, metric in zip(w.sweep_panel.plots, sweep.metrics, strict=True):
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
        assert "best" in w.sweep_panel.status.text()
        wait_idle(qtbot, w)
        save_and_check(w, "sweep-koc-linear-svm")
        # the curves export as a figure
        assert w.export_figure_to(tmp_path / "sweep.svg", what="sweep")
        assert (tmp_path / "sweep.svg").read_text().count("<path") > 10
        # an edit makes the curves out of date; Run computes them again
        w.data.relabel(0, 1 - int(w.data.y()[0]))
        assert w.sweep_result is None
        assert "changed" in w.sweep_panel.status.text()
        with qtbot.waitSignal(w.sweep_panel.drawn, timeout=120_000):
            w.sweep_panel.run_button.click()
        wait_idle(qtbot, w)
    finally:
        w.close()
    assert not w.sweep_worker.thread.is_alive()


def test_a_sweep_can_be_cancelled_and_other_presets_hide_it(qtbot, settings):
    w = make_window(qtbot, settings)
    try:
        w.load_preset("koc-linear-svm")
        assert w.sweep_running()
        with qtbot.waitSignal(w.sweep_worker.outcome, timeout=30_000) as blocker:
            w.sweep_panel.cancel_button.click()
        outcome = blocker.args[0]
        assert getattr(outcome, "cancelled", False) or w.sweep_result is not None
        w.load_preset("default")
        assert not w.sweep_dock.isVisible()
        assert w.sweep_spec is None and w.session_state().sweep is None
        wait_idle(qtbot, w)
    finally:
        w.close()
