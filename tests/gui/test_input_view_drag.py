"""The input view while a point is dragged: markers moved in place, no hover search mid-drag,
the highlight redrawn only when it changes, and moves applied once per display frame."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle
from PySide6.QtCore import QPointF, Qt

from kfdviz.app import live_refit
from kfdviz.views.input_view import InputSpaceView

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _drawn(view: InputSpaceView) -> dict:
    """What each scatter item draws: its coordinates, point indices and spot styles."""
    out = {}
    for key, item in view._scatters.items():
        d = item.data
        out[key] = (
            d["x"].copy(),
            d["y"].copy(),
            list(d["data"]),
            [
                (s.symbol(), s.size(), s.pen().color().name(), s.brush().color().name())
                for s in item.points()
            ],
        )
    return out


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        xa, ya, ia, sa = a[key]
        xb, yb, ib, sb = b[key]
        assert np.array_equal(xa, xb) and np.array_equal(ya, yb), key
        assert ia == ib and sa == sb, key


@pytest.fixture
def views(qtbot):
    made = []
    for _ in range(2):
        v = InputSpaceView()
        qtbot.addWidget(v)
        v.resize(400, 400)
        made.append(v)
    return made


def _points(n=40, seed=1):
    rng = np.random.default_rng(seed)
    P = rng.normal(size=(n, 2))
    labels = np.arange(n) % 3
    test = np.zeros(n, bool)
    test[::5] = True
    return P, labels, test


def test_a_moved_point_is_drawn_as_a_full_redraw_draws_it(views):
    moved, fresh = views
    P, labels, test = _points()
    moved.set_points(P, labels, test)
    for i in (0, 7, 13):  # a test point and training points of several classes
        P = P.copy()
        P[i] += (0.3, -0.2)
        moved.set_points(P, labels, test)
        fresh.set_points(P, labels, test)
        _same(_drawn(moved), _drawn(fresh))
        item = moved._scatters[(int(labels[i]), bool(test[i]))]
        assert item.boundingRect().contains(P[i, 0], P[i, 1])


def test_a_change_of_class_or_role_draws_every_marker_anew(views):
    moved, fresh = views
    P, labels, test = _points()
    moved.set_points(P, labels, test)
    labels = labels.copy()
    labels[4] = 1 - labels[4] if labels[4] < 2 else 0
    P = P.copy()
    P[4] += 1.0
    moved.set_points(P, labels, test)
    fresh.set_points(P, labels, test)
    _same(_drawn(moved), _drawn(fresh))
    test = test.copy()
    test[1] = True
    moved.set_points(P, labels, test)
    fresh.set_points(P, labels, test)
    _same(_drawn(moved), _drawn(fresh))


def test_many_moved_points_and_fewer_points_are_redrawn(views):
    moved, fresh = views
    P, labels, test = _points()
    moved.set_points(P, labels, test)
    P = P + 0.5  # every point moved
    moved.set_points(P, labels, test)
    fresh.set_points(P, labels, test)
    _same(_drawn(moved), _drawn(fresh))
    moved.set_points(P[:10], labels[:10], test[:10])
    fresh.set_points(P[:10], labels[:10], test[:10])
    _same(_drawn(moved), _drawn(fresh))


def test_no_hover_search_during_a_tool_drag(window, qtbot):
    w = window
    w.canvas.set_tool("move")
    view = w.workspace.input_view
    scene = view.plot.scene()
    searched = []
    near = scene.itemsNearEvent

    def counting(event, *args, **kwargs):
        if kwargs.get("hoverable"):
            searched.append(event)
        return near(event, *args, **kwargs)

    scene.itemsNearEvent = counting
    try:
        X = w.data.X()
        i = int(np.flatnonzero(~w.data.test_mask())[0])
        x0, y0 = X[i]
        vp = view.plot.viewport()
        left, plain = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        qtbot.mousePress(vp, left, plain, view.data_to_widget(x0, y0))
        qtbot.mouseMove(vp, view.data_to_widget(x0 + 0.05, y0))
        qtbot.wait(20)
        assert view.viewbox.tool_dragging
        searched.clear()
        for k in range(2, 8):
            qtbot.mouseMove(vp, view.data_to_widget(x0 + 0.05 * k, y0))
            qtbot.wait(20)
        assert searched == []
        qtbot.mouseRelease(vp, left, plain, view.data_to_widget(x0 + 0.4, y0))
        assert not view.viewbox.tool_dragging
        qtbot.mouseMove(vp, view.data_to_widget(x0 + 0.1, y0 + 0.1))
        qtbot.wait(20)
        assert searched, "hover events again once the drag has ended"
    finally:
        del scene.itemsNearEvent
    wait_idle(qtbot, w)
    assert np.allclose(w.data.X()[i], [x0 + 0.4, y0], atol=0.05)


def test_the_highlight_is_redrawn_only_when_it_changes(window, qtbot):
    view = window.workspace.input_view
    calls = []
    set_data = view.highlight.setData

    def counting(*args, **kwargs):
        calls.append(args)
        set_data(*args, **kwargs)

    view.highlight.setData = counting
    try:
        x, y = view._points[0]
        on_point = view.viewbox.mapViewToScene(QPointF(x, y))
        for _ in range(3):
            view._on_mouse_moved(on_point)
        assert len(calls) == 1
        assert np.allclose(view.highlight.data["x"], [x]) and np.allclose(
            view.highlight.data["y"], [y]
        )
        view._highlight(None)
        view._highlight(None)
        assert len(calls) == 2 and len(view.highlight.data) == 0
    finally:
        del view.highlight.setData


def test_a_dragged_point_moves_at_once_after_a_frame_and_then_once_per_frame(
    window, qtbot, monkeypatch
):
    w = window
    refit = w.fit.live_refit
    # The clock stands still: the moves below fall in one frame however long they take to run
    # (on a busy machine a move can take longer than a frame); the frame's timer ends it.
    monkeypatch.setattr(live_refit, "time", SimpleNamespace(monotonic=lambda: 1000.0))
    moves = []
    move = w.data.move

    def counting(index, x, y, **kwargs):
        moves.append((index, x, y))
        move(index, x, y, **kwargs)

    w.data.move = counting
    try:
        token = w.data.new_stroke()
        x0, y0 = w.data.X()[0]
        refit.move_point(0, x0 + 0.1, y0, token)
        assert moves == [(0, x0 + 0.1, y0)], "the first move of a frame is applied at once"
        refit.move_point(0, x0 + 0.2, y0, token)
        refit.move_point(0, x0 + 0.3, y0, token)
        assert len(moves) == 1
        qtbot.waitUntil(lambda: len(moves) == 2, timeout=2_000)
        assert moves[-1] == (0, x0 + 0.3, y0), "the latest position when the frame ends"
        refit.move_point(0, x0 + 0.4, y0, token, final=True)
        assert moves[-1] == (0, x0 + 0.4, y0)
    finally:
        del w.data.move
    wait_idle(qtbot, w)
    assert np.allclose(w.data.X()[0], [x0 + 0.4, y0])
