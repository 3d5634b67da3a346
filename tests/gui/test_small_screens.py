"""Small screens and projectors (1024 x 768, 1280 x 720): the plot and its colour bar whole,
the kernel width and the algorithm's main parameter visible without scrolling."""

from __future__ import annotations

import pytest
from gui_helpers import OFFSCREEN_NOISE, make_window, wait_idle
from PySide6.QtCore import QPoint, QRect

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _shown_whole(widget, viewport) -> bool:
    """``widget`` is visible and lies entirely inside ``viewport`` (no scrolling needed)."""
    if not widget.isVisible():
        return False
    top_left = widget.mapTo(viewport, QPoint(0, 0))
    return viewport.rect().contains(QRect(top_left, widget.size()))


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_the_picture_and_the_main_parameters_fit_a_projector(qtbot, settings, size):
    w = make_window(qtbot, settings)
    try:
        w.resize(*size)
        qtbot.waitUntil(lambda: w.compact_layout.compact is True, timeout=5_000)
        wait_idle(qtbot, w)
        qtbot.wait(50)
        ws = w.workspace
        assert ws.algorithm_dock.isVisible()
        viewport = ws.algorithm_dock.widget().viewport()
        for name in ("width", "mu"):
            assert _shown_whole(ws.algorithm_panel.widget(name), viewport), name
        view = ws.input_view

        def bar_whole() -> bool:
            bar = view.colorbar.mapRectToScene(view.colorbar.boundingRect())
            return view.plot.rect().contains(view.plot.mapFromScene(bar).boundingRect())

        # The plot's scene follows the docks' new widths once the layout has settled.
        qtbot.waitUntil(bar_whole, timeout=5_000)
        assert view.plot.width() >= 0.3 * w.width()
    finally:
        w.close()


def test_a_large_window_keeps_the_docks_stacked(qtbot, settings):
    w = make_window(qtbot, settings)
    try:
        w.resize(1600, 1000)
        qtbot.waitUntil(lambda: w.compact_layout.compact is False, timeout=5_000)
        ws = w.workspace
        assert ws.data_dock.isVisible() and ws.algorithm_dock.isVisible()
        assert not w.tabifiedDockWidgets(ws.data_dock)
        assert ws.algorithm_panel.description.isVisible()
        w.resize(1024, 768)
        qtbot.waitUntil(lambda: w.compact_layout.compact is True, timeout=5_000)
        assert ws.algorithm_dock in w.tabifiedDockWidgets(ws.data_dock)
        label = ws.algorithm_panel.description  # one line there, the whole in its tooltip
        assert label.isVisible() and label.height() < 2 * label.fontMetrics().height()
    finally:
        w.close()


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768), (1920, 1080)])
def test_stacked_docks_show_the_main_parameters_at_common_laptop_sizes(qtbot, settings, size):
    """Above the compact threshold the docks stay stacked; the Algorithm dock then takes the
    height its kernel width and μ need from the Data dock (which scrolls)."""
    w = make_window(qtbot, settings)
    try:
        w.resize(*size)
        wait_idle(qtbot, w)
        ws = w.workspace
        assert w.compact_layout.compact is False
        assert not w.tabifiedDockWidgets(ws.data_dock)
        viewport = ws.algorithm_dock.widget().viewport()
        qtbot.waitUntil(
            lambda: all(
                _shown_whole(ws.algorithm_panel.widget(name), viewport) for name in ("width", "mu")
            ),
            timeout=5_000,
        )
        # The Data dock keeps a usable share of the column.
        assert ws.data_dock.height() >= (ws.data_dock.height() + ws.algorithm_dock.height()) // 3
    finally:
        w.close()
