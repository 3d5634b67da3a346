"""Plot titles stay whole where they fit and are cut visibly where not: a pyqtgraph title is as
wide as its text, and a longer one than its plot pushed the scene past the widget's edge."""

from __future__ import annotations

import pytest
from gui_helpers import OFFSCREEN_NOISE

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _kfd_result(with_test: bool = False):
    import numpy as np

    from kfdviz.bench.numeric import two_class_data
    from kfdviz.pipeline import FitRequest, run_fit

    X, y = two_class_data(120, seed=3)
    test = (np.arange(120) % 4 == 0) if with_test else None
    return run_fit(FitRequest("kfd", {"width": 1.0, "mu": 1e-3}, X, y, test_mask=test))


def test_histogram_title_is_wrapped_to_the_plot_and_whole_again_when_wide(qtbot):
    from kfdviz.views.outputs_view import TITLE_LINES, OutputsView

    view = OutputsView()
    qtbot.addWidget(view)
    view.resize(260, 300)
    view.show()
    qtbot.waitExposed(view)
    result = _kfd_result()
    view.set_result(result)
    title = view.hist_plot.getPlotItem().titleLabel
    whole = "Histogram of the outputs: " + result.feature_label.split(": ", 1)[-1]

    def drawn_width():
        # The text's own width (the item's rectangle is the layout's cell, which clips it).
        return title.item.document().idealWidth()

    vb = view.hist_plot.getPlotItem().vb
    # more lines where one does not hold it, cut only past those
    assert "<br>" in title.text and title.text.count("<br>") < TITLE_LINES
    assert drawn_width() <= vb.width() + 1
    shown = title.text.replace("<br>", " ")
    if shown != whole:
        assert shown.endswith("…")
        assert view.hist_plot.toolTip() == whole  # the whole title is still there to read
    view.resize(900, 300)
    qtbot.waitUntil(lambda: title.text == whole)
    assert drawn_width() <= vb.width() + 1
    assert view.hist_plot.toolTip() == ""


def test_input_view_title_never_widens_the_scene_past_the_plot(qtbot):
    from kfdviz.views.input_view import InputSpaceView

    view = InputSpaceView()
    qtbot.addWidget(view)
    view.resize(380, 420)
    view.show()
    qtbot.waitExposed(view)
    result = _kfd_result()
    view.set_result(result, title="A long heading: " + result.feature_label)
    plot = view.plot
    qtbot.waitUntil(lambda: plot.ci.geometry().width() <= plot.width() + 1, timeout=5_000)
    assert view.item.titleLabel.text.endswith("…")
    assert view.item.titleLabel.item.document().idealWidth() <= view.viewbox.width() + 1
    view.resize(1400, 600)
    qtbot.waitUntil(lambda: view.item.titleLabel.text == "A long heading: " + result.feature_label)
    assert plot.ci.geometry().width() <= plot.width() + 1


def test_outputs_legend_breaks_lines_between_entries_only(qtbot):
    import re

    from kfdviz.views.outputs_view import OutputsView

    view = OutputsView()
    qtbot.addWidget(view)
    view.resize(300, 300)
    view.show()
    view.set_result(_kfd_result(with_test=True))
    text = re.sub(r"<[^>]+>", "", view._legend_html)
    entries = text.split("&nbsp; ")
    assert len(entries) == 4  # two classes, training and test
    assert all(" " not in entry for entry in entries), entries
    assert entries[0].replace("&nbsp;", " ") == "■ class 1 training"
