"""The right-hand docks make way for the compare panels and come back as wide as they were."""

from __future__ import annotations

import pytest
from gui_helpers import make_window, wait_idle

from kfdviz.app.compare import RIGHT_DOCK_WIDTH

pytestmark = pytest.mark.gui


def _right_width(w) -> int:
    shown = [d for d in (w.workspace.outputs_dock, w.workspace.diagnostics_dock) if d.isVisible()]
    assert shown, "a right-hand dock is shown"
    widths = {d.width() for d in shown}
    assert len(widths) == 1, "the right-hand docks share one column"
    return widths.pop()


def test_a_dock_shown_in_the_compare_layout_gets_its_width_back(window, qtbot):
    w = window
    before = _right_width(w)
    central = w.workspace.central.width()
    w.action_table["compare"].trigger()
    wait_idle(qtbot, w)
    assert not w.workspace.outputs_dock.isVisible(), "the compare panels take the width"
    # shown again from the View menu, the dock is squeezed by the panels' minimum width
    w.workspace.outputs_dock.toggleViewAction().trigger()
    qtbot.waitUntil(
        lambda: w.workspace.outputs_dock.isVisible() and w.workspace.outputs_dock.width() < before
    )
    w.action_table["compare"].trigger()
    wait_idle(qtbot, w)
    assert w.pictures.layout_name == "single"
    qtbot.waitUntil(lambda: _right_width(w) == before, timeout=5_000)
    qtbot.waitUntil(lambda: w.workspace.central.width() == central, timeout=5_000)
    # and again: the width is remembered for every visit
    w.action_table["compare"].trigger()
    wait_idle(qtbot, w)
    w.action_table["compare"].trigger()
    wait_idle(qtbot, w)
    qtbot.waitUntil(lambda: _right_width(w) == before, timeout=5_000)


def test_a_window_that_starts_on_a_compare_preset_lays_the_docks_out_as_usual(
    window, qtbot, settings
):
    expected = _right_width(window)
    assert expected == RIGHT_DOCK_WIDTH
    w = make_window(qtbot, settings, "kfd-vs-kpca")
    try:
        assert w.pictures.layout_name == "compare" and not w.workspace.outputs_dock.isVisible()
        w.load_preset("default")
        wait_idle(qtbot, w)
        assert w.pictures.layout_name == "single" and w.workspace.outputs_dock.isVisible()
        qtbot.waitUntil(lambda: _right_width(w) == expected, timeout=5_000)
        # the hidden compare panels do not hold the single layout's minimum width
        assert (
            w.workspace.central.minimumSizeHint().width()
            < w.workspace.compare_view.minimumSizeHint().width()
        )
    finally:
        w.close()
    assert not w.fit.worker.thread.is_alive()
