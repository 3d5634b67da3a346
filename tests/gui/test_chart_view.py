"""Charts in the window: the ROC curves, the areas under them and the digit images of Hoffmann's
figures, computed on a worker thread and drawn from the same Chart objects an export paints.

The window opens the preset; the charts are then compared, item by item, with the chart
objects the control received and with the charts ``kfdviz render`` computes for the preset.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from gui_helpers import make_window, save_and_check, wait_idle

from kfdviz.charts import compute_charts
from kfdviz.session import state_from_preset
from kfdviz.workers import chart_job

pytestmark = pytest.mark.gui


def wait_charts(qtbot, w, timeout: int = 120_000) -> None:
    qtbot.waitUntil(lambda: w.charts.is_current() and not w.charts.running(), timeout=timeout)


@pytest.fixture
def roc(qtbot, settings, monkeypatch):
    threads = []
    run = chart_job.build_charts

    def recording(*args, **kwargs):
        threads.append(threading.current_thread())
        return run(*args, **kwargs)

    monkeypatch.setattr(chart_job, "build_charts", recording)
    w = make_window(qtbot, settings, "default")
    w.load_preset("novelty-roc")
    yield w, threads
    w.close()
    assert w.charts.worker is None or not w.charts.worker.thread.is_alive()


def test_novelty_roc_draws_its_charts_in_the_window(roc, qtbot):
    w, threads = roc
    view = w.workspace.chart_view
    # the preset is open at once; its charts are then computed, off the GUI thread
    assert not w.charts.is_current() and not w.is_settled()
    qtbot.waitUntil(lambda: view.busy, timeout=10_000)
    assert view.isVisible() and "Computing" in view.status.text()
    assert not w.charts.is_current()
    wait_charts(qtbot, w)
    wait_idle(qtbot, w)
    assert threads and all(t is not threading.main_thread() for t in threads)
    assert not view.busy and view.status.text() == ""

    charts = w.charts.charts
    assert [c.title for c in charts] == [
        "ROC curves",
        "AUC against σ",
        "AUC against q",
    ]
    assert [p.chart for p in view.panels] == charts
    # the export's charts, computed headless from the preset: the same numbers
    exported = compute_charts(state_from_preset("novelty-roc"))
    for panel, chart, other in zip(view.panels, charts, exported, strict=True):
        assert panel.isVisible()
        plotted = [i for i in panel.plot.getPlotItem().listDataItems()]
        assert plotted == panel.curves
        assert len(plotted) == len(chart.series) == len(other.series)
        assert chart.title in panel.heading.text()
        for curve, series, again in zip(plotted, chart.series, other.series, strict=True):
            np.testing.assert_array_equal(curve.xData, series.x)
            np.testing.assert_array_equal(curve.yData, series.y)
            np.testing.assert_allclose(series.y, again.y, rtol=0, atol=1e-12)
            if series.label:
                assert series.label in panel.legend.text()
    # the log axes of the areas against σ and q
    assert [p.plot.getPlotItem().getAxis("bottom").logMode for p in view.panels] == [
        False,
        True,
        True,
    ]
    # the window's export paints these same chart objects (the preset's figure is its charts)
    plan = w.exporter.figure_plan()
    assert [p.kind for p in plan.panels] == ["chart"] * 3
    assert [p.chart for p in plan.panels] == charts
    save_and_check(w, "charts-novelty-roc")


def test_charts_follow_the_data_and_go_with_a_session_without_them(roc, qtbot):
    w, _threads = roc
    view = w.workspace.chart_view
    wait_charts(qtbot, w)
    first = w.charts.charts
    # relabelling one benign tumour as malignant: new data, the charts are computed again
    y = np.array(w.data.y())
    i = int(np.flatnonzero(y == 0)[0])
    w.data.replace(w.data.X(), np.where(np.arange(y.size) == i, 1, y), regression=False)
    assert view.busy or w.charts.running() or not w.charts.is_current()
    wait_charts(qtbot, w)
    assert w.charts.charts is not first
    assert view.panels[0].chart is w.charts.charts[0]
    # a preset without charts hides them
    w.load_preset("default")
    wait_idle(qtbot, w)
    assert not view.isVisible() and view.panels == []


def test_novelty_digits_draws_the_images(qtbot, settings):
    w = make_window(qtbot, settings, "novelty-digits")
    try:
        wait_charts(qtbot, w)
        view = w.workspace.chart_view
        assert view.isVisible()
        charts = w.charts.charts
        assert [c.kind for c in charts] == ["images", "images"]
        for panel, chart in zip(view.panels, charts, strict=True):
            images = [
                i for i in panel.plot.getPlotItem().items if i.__class__.__name__ == "ImageItem"
            ]
            assert images == panel.images and len(images) == len(chart.images) == 10
            for item, image in zip(images, chart.images, strict=True):
                np.testing.assert_array_equal(item.image, image)
            # each label is its image's reconstruction error
            values = [float(label.toPlainText()) for label in panel.labels]
            expected = [float(text.split("= ")[-1]) for text in chart.image_labels]
            assert values == expected
        # the most unusual first: errors in descending order, the typical ones ascending
        unusual = [float(t.toPlainText()) for t in view.panels[0].labels]
        assert unusual == sorted(unusual, reverse=True)
        save_and_check(w, "charts-novelty-digits")
    finally:
        w.close()


def test_charts_come_back_after_presentation_mode(roc, qtbot):
    w, _threads = roc
    view = w.workspace.chart_view
    wait_charts(qtbot, w)
    wait_idle(qtbot, w)
    w.presenter.set_deck(["default"])  # a slide without charts, after the picture on screen
    w.presenter.enter(1)
    wait_idle(qtbot, w)
    assert w.presenter.slide_index == 1 and w.presenter.slide_counter.text() == "2 / 2"
    assert not view.isVisible()
    w.presenter.leave()
    wait_idle(qtbot, w)
    assert w.charts.names == ("novelty-roc",) and view.isVisible()
    assert w.charts.is_current() and len(view.panels) == 3
