"""The coloured picture covers the whole visible plot after panning, zooming out and resizing."""

from __future__ import annotations

import pytest
from gui_helpers import drag_data, press_key, wait_idle
from PySide6.QtCore import QRectF, Qt

from kfdviz.core.fit_cache import FIT_CACHE

pytestmark = pytest.mark.gui


def _image_rect(view) -> QRectF:
    """The level-set image's rectangle in data coordinates, as drawn."""
    return view.image.mapRectToView(view.image.boundingRect())


def _visible_rect(view) -> QRectF:
    (x0, x1), (y0, y1) = view.viewbox.viewRange()
    return QRectF(x0, y0, x1 - x0, y1 - y0)


def _covers(view) -> bool:
    """The image covers the visible range (to within a pixel on each side)."""
    px, py = view.viewbox.viewPixelSize()
    image = _image_rect(view).adjusted(-px, -py, px, py)
    return view.image.isVisible() and image.contains(_visible_rect(view))


def _pan(qtbot, w, view, fx: float, fy: float) -> None:
    """A drag with the Pan tool moving the view by (fx, fy) of its visible extent (across at
    most 70 % of the plot: longer pans are made of several drags)."""
    press_key(qtbot, w, Qt.Key.Key_H)
    assert not view.viewbox.tool_active
    while abs(fx) > 1e-9 or abs(fy) > 1e-9:
        sx = max(-0.7, min(0.7, fx))
        sy = max(-0.7, min(0.7, fy))
        (x0, x1), (y0, y1) = view.viewbox.viewRange()
        cx, cy, wx, wy = 0.5 * (x0 + x1), 0.5 * (y0 + y1), x1 - x0, y1 - y0
        # the content follows the pointer: the view moves the other way
        start = (cx + 0.5 * sx * wx, cy + 0.5 * sy * wy)
        end = (cx - 0.5 * sx * wx, cy - 0.5 * sy * wy)
        path = [
            (start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
            for t in (0.0, 0.25, 0.5, 0.75, 1.0)
        ]
        drag_data(qtbot, view, path)
        fx, fy = fx - sx, fy - sy


def _not_stale(w) -> bool:
    view = w.workspace.input_view
    return not w.fit.marks.stale_marks and view.overlay.state != "stale"


def test_a_pan_past_the_picture_refits_over_the_visible_range(window, qtbot):
    w = window
    view = w.workspace.input_view
    slot = w.pictures.main_slot
    assert slot.algorithm == "kfd"
    before = slot.result
    assert _covers(view)
    params = dict(slot.params)
    version = w.data.version
    x0, x1, _y0, _y1 = before.grid.box
    (vx0, vx1), _ = view.viewbox.viewRange()
    # drags with the Pan tool moving the view by more than the picture's width
    hits, misses = FIT_CACHE.hits, FIT_CACHE.misses
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000) as blocker:
        _pan(qtbot, w, view, 1.3 * (x1 - x0) / (vx1 - vx0), -0.3)
        (vx0, vx1), _ = view.viewbox.viewRange()
        assert vx0 > x1, "the view left the picture's box"
        assert not _covers(view), "the old picture ends mid-canvas"
        assert w.is_up_to_date() and _not_stale(w), "a view change marks nothing stale"
    after = blocker.args[0]
    assert slot.result is after and view.result is after
    assert _covers(view)
    b = after.grid.box
    (vx0, vx1), (vy0, vy1) = view.viewbox.viewRange()
    assert b[0] <= vx0 and b[1] >= vx1 and b[2] <= vy0 and b[3] >= vy1
    # the same data and parameters: the refit found the kernel terms in the fit cache
    assert FIT_CACHE.hits > hits and FIT_CACHE.misses == misses
    assert slot.params == params and w.data.version == version
    assert w.is_up_to_date() and _not_stale(w)
    wait_idle(qtbot, w)
    # a pan that stays inside the new picture fits nothing again
    drawn = []
    w.fit_drawn.connect(drawn.append)
    _pan(qtbot, w, view, 0.02, 0.0)
    qtbot.wait(3 * w.fit.grid_box.settle.interval())
    wait_idle(qtbot, w)
    assert drawn == [] and _covers(view)


def test_zooming_out_and_resizing_keep_the_picture_whole(window, qtbot):
    w = window
    view = w.workspace.input_view
    assert _covers(view)
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        view.viewbox.scaleBy(s=(2.5, 2.5))
    qtbot.waitUntil(lambda: _covers(view), timeout=30_000)
    wait_idle(qtbot, w)
    # a window of another shape: the aspect-locked plot shows more of the plane
    for size in ((1700, 640), (900, 900)):
        w.resize(*size)
        qtbot.waitUntil(lambda s=size: (w.width(), w.height()) == s, timeout=5_000)
        qtbot.waitUntil(lambda: _covers(view) and w.is_settled(), timeout=30_000)
        assert w.is_up_to_date() and _not_stale(w)


def test_the_compare_panels_share_a_box_covering_every_panel(window, qtbot):
    w = window
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        w.workspace.set_layout("compare")
    wait_idle(qtbot, w)
    panels = w.workspace.compare_panels()[: w.pictures.compare_count]
    _pan(qtbot, w, panels[0].view, -1.2, 0.0)
    qtbot.waitUntil(lambda: all(_covers(p.view) for p in panels) and w.is_settled(), timeout=60_000)
    boxes = {tuple(w.pictures.slot(n).result.grid.box) for n in w.pictures.layout_slot_names()}
    assert len(boxes) == 1, "every panel is drawn over the same box"
