"""Level-set labels can be read: no two overlap and none lies under a point's marker, on screen,
on slides and in exported figures."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import make_window, save_and_check, wait_idle
from PySide6.QtCore import QPointF

from kfdviz.figure import paint_input

pytestmark = pytest.mark.gui

MARKER_RADIUS_PX = 4.0  # the markers are 9 px across at scale 1


def _boxes(view):
    return [t.sceneBoundingRect() for t in view.contour_labels if t.isVisible()]


def _check_view(view, scale: float = 1.0) -> int:
    boxes = _boxes(view)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.intersects(b), f"labels overlap: {a} {b}"
    vb = view.viewbox
    for x, y in view._points:
        p = vb.mapViewToScene(QPointF(float(x), float(y)))
        for box in boxes:
            du = max(box.left() - p.x(), p.x() - box.right(), 0.0)
            dv = max(box.top() - p.y(), p.y() - box.bottom(), 0.0)
            assert np.hypot(du, dv) >= MARKER_RADIUS_PX * scale, "a label lies under a point"
    return len(boxes)


@pytest.mark.parametrize("preset", ["okpca-invariance", "novelty-spiral"])
def test_labels_on_screen_are_clear_of_each_other_and_of_the_points(qtbot, settings, preset):
    w = make_window(qtbot, settings, preset)
    try:
        w.resize(1280, 720)
        qtbot.waitUntil(lambda: w.width() == 1280, timeout=5_000)
        wait_idle(qtbot, w)
        # the view's final size: the labels are placed for it
        w.fit.request_fit(now=True)
        wait_idle(qtbot, w)
        save_and_check(w, f"labels-{preset}")
        views = [v for v in w.workspace.all_views() if v.isVisible()]
        assert views and sum(_check_view(v) for v in views) >= 2
    finally:
        w.close()


def test_labels_in_a_painted_figure_are_clear_of_each_other_and_of_the_points(
    monkeypatch, tmp_path
):
    from kfdviz import render

    seen = []
    place = paint_input.place_labels

    def recording(labels, markers, radius, bounds):
        out = place(labels, markers, radius, bounds)
        seen.append((labels, markers, radius, bounds, out))
        return out

    monkeypatch.setattr(paint_input, "place_labels", recording)
    render.render_preset("okpca-invariance", tmp_path / "figure.png", size=(1280, 720))
    assert seen
    for labels, markers, radius, bounds, out in seen:
        boxes = []
        for (_spots, w, h), at in zip(labels, out, strict=True):
            if at is None:
                continue
            u, v = at
            box = (u - w / 2, v - h / 2, u + w / 2, v + h / 2)
            assert bounds[0] <= box[0] and box[2] <= bounds[2]
            assert bounds[1] <= box[1] and box[3] <= bounds[3]
            for o in boxes:
                assert not (box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3])
            du = np.maximum(np.maximum(box[0] - markers[:, 0], markers[:, 0] - box[2]), 0)
            dv = np.maximum(np.maximum(box[1] - markers[:, 1], markers[:, 1] - box[3]), 0)
            assert np.all(np.hypot(du, dv) >= radius)
            boxes.append(box)
        assert boxes, "some levels are labelled"
