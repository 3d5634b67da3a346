"""Text a class reads is whole at 1920 x 1080 and 1280 x 720: the histogram's title, the
diagnostics' quantities and the empty canvas's hint fit their widgets (measured, not looked at)."""

from __future__ import annotations

import pytest
from gui_helpers import make_window, press_key, save_and_check, wait_idle
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyle

pytestmark = pytest.mark.gui

SIZES = [(1920, 1080), (1280, 720)]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def sized(request, qtbot, settings):
    w = make_window(qtbot, settings)
    w.resize(*request.param)
    qtbot.waitUntil(lambda: (w.width(), w.height()) == request.param, timeout=5_000)
    w.fit.request_fit(now=True)
    wait_idle(qtbot, w)
    yield w
    w.close()


def test_histogram_title_is_whole_and_fits(sized, qtbot):
    w = sized
    for dock in w.workspace.docks():
        if dock.objectName().lower().startswith("output"):
            dock.show()
            dock.raise_()
    view = w.workspace.outputs_view
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    view.resize(view.size())  # the title is laid out for the dock's width
    qtbot.wait(50)
    whole = view._titles[view.hist_plot]
    title = view.hist_plot.getPlotItem().titleLabel
    assert title.text.replace("<br>", " ") == whole, "the title is whole"
    vb = view.hist_plot.getPlotItem().vb
    assert title.item.document().idealWidth() <= vb.width() + 1
    save_and_check(w, f"text-fits-{w.width()}")


def test_diagnostics_quantities_fit_their_rows(sized, qtbot):
    w = sized
    table = w.workspace.diagnostics_view.table
    for dock in w.workspace.docks():
        if "iagnost" in dock.objectName():
            dock.show()
            dock.raise_()
    qtbot.waitUntil(table.isVisible, timeout=5_000)
    assert table.rowCount() > 3
    save_and_check(w.workspace.diagnostics_view, f"diagnostics-{w.width()}")
    metrics = table.fontMetrics()
    # the item's text margins, as Qt's styles lay an item view's text out
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    for column in (0, 1):
        width = table.columnWidth(column) - 2 * margin
        for row in range(table.rowCount()):
            text = table.item(row, column).text()
            assert max(metrics.horizontalAdvance(word) for word in text.split()) <= width, text
            flags = Qt.TextFlag.TextWordWrap
            needed = metrics.boundingRect(QRect(0, 0, width, 10_000), flags, text)
            assert needed.height() <= table.rowHeight(row), f"{text!r} is cut"


def test_empty_canvas_hint_fits_the_plot(sized, qtbot):
    w = sized
    press_key(
        qtbot,
        w,
        Qt.Key.Key_Backspace,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: w.data.n == 0, timeout=5_000)
    view = w.workspace.input_view
    assert view.hint.isVisible()
    text = view.hint.textItem.boundingRect()  # in pixels: a TextItem ignores the zoom
    assert view.hint.toPlainText().startswith("Click to add")
    assert text.width() <= view.viewbox.width() - 20, (text, view.viewbox.width())
