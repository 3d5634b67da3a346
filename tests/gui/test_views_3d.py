"""3-D data and embeddings: the rotatable OpenGL scatter, and its fallback without OpenGL."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, save_and_check, shot_dir, wait_idle

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _screen_pixels(widget) -> np.ndarray:
    """What the screen shows of ``widget`` (a widget grab misses the 3-D axis labels)."""
    from PySide6.QtGui import QImage

    from kfdviz.app import grab_window

    image = grab_window(widget).toImage().convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(h, image.bytesPerLine())
    return data[:, : 3 * w].reshape(h, w, 3).copy()  # the QImage goes away with this frame


@pytest.mark.gl
def test_koc_on_three_class_3d_data_gives_a_rotatable_3d_embedding(window, qtbot):
    w = window
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData("cuboids"))
    panel.n_samples.setValue(300)
    panel.generate.click()
    wait_idle(qtbot, w)
    assert w.data.dimension == 3
    assert (
        w.workspace.single.currentWidget() is w.workspace.input3d
    )  # 3-D input: a 3-D scatter, no level sets
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("koc"))
    width = w.workspace.algorithm_panel.widget("width")
    width.set_value(5.0)
    width.changed.emit()
    wait_idle(qtbot, w)
    r = w.pictures.main_slot.result
    assert r.algorithm == "koc" and r.classes.size == 3
    assert r.embedding.shape == (300, 3)
    w.workspace.embedding_dock.raise_()
    qtbot.waitUntil(lambda: w.workspace.embedding_view.isVisible(), timeout=5_000)
    view = w.workspace.embedding_view
    assert view.uses_gl and view.gl_view is not None
    qtbot.waitUntil(lambda: view.scatter.pos is not None and len(view.scatter.pos) == 300)
    assert [t.text for t in view.axis_text] == ["KOC 1", "KOC 2", "KOC 3"]
    colors = np.asarray(view.scatter.color)
    assert len(np.unique(np.round(colors[:, :3], 3), axis=0)) == 3  # one colour per class
    # KOC pulls each class together: the classes' centroids are far apart in the embedding
    E = r.embedding
    centres = np.array([E[r.y == k].mean(axis=0) for k in range(3)])
    spread = max(np.linalg.norm(E[r.y == k] - centres[k], axis=1).mean() for k in range(3))
    gaps = [np.linalg.norm(centres[a] - centres[b]) for a, b in ((0, 1), (0, 2), (1, 2))]
    assert min(gaps) > 2 * spread
    # rotating is a camera change
    before = dict(view.gl_view.opts)
    view.gl_view.orbit(30, 10)
    assert view.gl_view.opts["azimuth"] != before["azimuth"]
    qtbot.wait(100)
    pixels = _screen_pixels(view)
    folder = shot_dir()
    if folder is not None:
        from PySide6.QtGui import QImage

        h, wd, _ = pixels.shape
        QImage(pixels.tobytes(), wd, h, 3 * wd, QImage.Format.Format_RGB888).save(
            str(folder / "embedding-koc-cuboids-screen.png")
        )
    assert pixels.std() > 5, "the 3-D view looks blank"
    for rgb in ((0, 114, 178), (213, 94, 0), (0, 158, 115)):  # the three class colours
        close = np.abs(pixels.astype(int) - rgb).sum(axis=2) < 60
        assert close.sum() > 5, f"no points in colour {rgb}"
    save_and_check(view, "embedding-koc-cuboids")
    from PySide6.QtGui import QImage

    if folder is not None:
        from kfdviz.app import grab_window

        grab_window(w).toImage().convertToFormat(QImage.Format.Format_RGB888).save(
            str(folder / "window-koc-cuboids.png")
        )


def test_without_opengl_the_view_says_so_and_shows_three_projections(qtbot, monkeypatch):
    from kfdviz.views import scatter3d

    monkeypatch.setattr(scatter3d, "gl_available", lambda: False)
    view = scatter3d.Scatter3DView()
    qtbot.addWidget(view)
    view.resize(600, 300)
    rng = np.random.default_rng(0)
    P = rng.normal(size=(60, 3))
    y = np.repeat([0, 1, 2], 20)
    view.set_points(P, y, np.zeros(60, bool), ("a", "b", "c"), "three classes")
    view.show()
    qtbot.waitExposed(view)
    assert not view.uses_gl and view.gl_view is None
    assert view.notice.isVisible() and "OpenGL" in view.notice.text()
    assert len(view.projections) == 3
    pairs = [(a, b) for _, a, b, _, _ in view.projections]
    assert pairs == [(0, 1), (0, 2), (1, 2)]
    for widget, a, b, train, _ in view.projections:
        x, yy = train.getData()
        assert x.size == 60
        assert np.allclose(np.sort(x), np.sort(P[:, a])) and np.allclose(
            np.sort(yy), np.sort(P[:, b])
        )
        assert (
            widget.getPlotItem().getAxis("bottom").labelText == ("a", "a", "b")[pairs.index((a, b))]
        )
    pixels = save_and_check(view, "projections-fallback")
    assert pixels.std() > 5


def test_two_feature_embeddings_are_padded_not_refused(qtbot, monkeypatch):
    from kfdviz.views import scatter3d

    monkeypatch.setattr(scatter3d, "gl_available", lambda: False)
    view = scatter3d.Scatter3DView()
    qtbot.addWidget(view)
    view.show()
    view.set_points(np.ones((5, 2)), None, None, ("f1", "f2"), "")
    assert view._points.shape == (5, 3) and view._axis_labels == ("f1", "f2", "—")


def test_marker_size_grows_with_the_picture_within_bounds():
    from kfdviz.views import scatter3d as s3

    assert s3.marker_size(100) == s3.MIN_MARKER_PX, "a narrow panel keeps a legible minimum"
    assert s3.marker_size(5000) == s3.MAX_MARKER_PX
    mid = 0.5 * (s3.MIN_MARKER_PX + s3.MAX_MARKER_PX) / s3.MARKER_FRACTION
    assert s3.marker_size(mid) == pytest.approx(s3.MARKER_FRACTION * mid)
    assert s3.marker_size(200) <= s3.marker_size(400) <= s3.marker_size(800)
    # presentation mode raises both bounds
    assert s3.marker_size(100, 2.3) == pytest.approx(2.3 * s3.MIN_MARKER_PX)
    assert s3.marker_size(5000, 2.3) == pytest.approx(2.3 * s3.MAX_MARKER_PX)


def _three_classes(n=60):
    rng = np.random.default_rng(0)
    return rng.normal(size=(n, 3)), np.repeat([0, 1, 2], n // 3)


def test_projection_markers_follow_the_view_size(qtbot, monkeypatch):
    from kfdviz.views import scatter3d

    monkeypatch.setattr(scatter3d, "gl_available", lambda: False)
    view = scatter3d.Scatter3DView()
    qtbot.addWidget(view)
    P, y = _three_classes()
    view.set_points(P, y, np.zeros(len(y), bool), ("a", "b", "c"), "")
    view.resize(330, 300)
    view.show()
    qtbot.waitExposed(view)
    sizes = {train.opts["size"] for _w, _a, _b, train, _t in view.projections}
    assert sizes == {scatter3d.MIN_MARKER_PX}, "narrow projections keep the minimum"
    view.resize(1500, 500)
    qtbot.waitUntil(lambda: view.projections[0][0].width() > 400)
    for w, _a, _b, train, _test in view.projections:
        assert train.opts["size"] == pytest.approx(view.marker_size(w))
        assert train.opts["size"] > scatter3d.MIN_MARKER_PX
        # no spot keeps a size of its own (-1: the item's size)
        assert set(train.data["size"].tolist()) <= {-1.0, train.opts["size"]}


@pytest.mark.gl
def test_3d_markers_keep_a_legible_size_in_a_narrow_view(qtbot):
    from kfdviz.views import scatter3d

    view = scatter3d.Scatter3DView()
    qtbot.addWidget(view)
    P, y = _three_classes()
    test = np.zeros(len(y), bool)
    test[::5] = True
    view.set_points(P, y, test, ("a", "b", "c"), "narrow")
    view.resize(180, 600)
    view.show()
    qtbot.waitExposed(view)
    assert view.gl_view is not None
    ratio = view.gl_view.devicePixelRatioF()
    sizes = np.asarray(view.scatter.size)
    assert sizes.shape == (len(y),)
    assert sizes[~test].min() == pytest.approx(scatter3d.MIN_MARKER_PX * ratio)
    assert sizes[test].max() < sizes[~test].min(), "test points stay smaller"
    narrow = sizes[~test].min()
    view.resize(700, 700)
    qtbot.waitUntil(lambda: np.asarray(view.scatter.size)[~test].min() > narrow)
    wide = np.asarray(view.scatter.size)[~test].min()
    assert wide == pytest.approx(view.marker_size() * ratio)
    assert wide <= scatter3d.MAX_MARKER_PX * ratio
    np.testing.assert_array_equal(np.asarray(view.scatter.pos).shape, (len(y), 3))


@pytest.mark.gl
def test_compare_panels_share_the_width_and_their_3d_markers_are_legible(qtbot, settings):
    from gui_helpers import make_window

    from kfdviz.views import scatter3d

    w = make_window(qtbot, settings, "koc-iris")
    try:
        panels = [p for p in w.workspace.compare_view.panels if p.isVisible()]
        assert len(panels) == 3
        widths = [p.width() for p in panels]
        assert max(widths) - min(widths) <= 2, "equal panels, whatever the algorithms' names"
        for panel in panels:
            view = panel.embedding
            qtbot.waitUntil(lambda v=view: v.scatter.pos is not None and len(v.scatter.pos) > 0)
            ratio = view.gl_view.devicePixelRatioF()
            assert np.asarray(view.scatter.size).max() >= scatter3d.MIN_MARKER_PX * ratio
    finally:
        w.close()
    assert not w.fit.worker.thread.is_alive()


def test_camera_backs_off_only_where_the_axes_names_would_not_fit():
    from kfdviz.views.scatter3d import (
        AXIS_LABEL_AT,
        CAMERA_DISTANCE,
        CAMERA_MARGIN,
        MAX_CAMERA_DISTANCE,
        camera_distance,
    )

    # A square view with short names keeps the starting distance.
    assert camera_distance(400, 400, 40, 15) == CAMERA_DISTANCE
    # Narrower views, longer names and flatter views push it back, up to the limit.
    assert camera_distance(150, 600, 90, 15) > camera_distance(300, 600, 90, 15)
    assert camera_distance(150, 600, 120, 15) > camera_distance(150, 600, 90, 15)
    assert camera_distance(900, 200, 40, 15) > CAMERA_DISTANCE
    assert (
        CAMERA_DISTANCE < camera_distance(10, 10, 500, 200) <= MAX_CAMERA_DISTANCE
    )  # hopeless: bounded
    # Where it backs off, a name centred on the farthest tip ends inside the margin, both ways.
    tan = np.tan(np.radians(30.0))
    for w, h, label, text in [(150, 600, 90, 15), (900, 200, 40, 15), (260, 300, 120, 20)]:
        half_w = camera_distance(w, h, label, text) * tan
        half_h = half_w * h / w
        assert AXIS_LABEL_AT + (label / 2) * half_w / (w / 2) <= CAMERA_MARGIN * half_w + 1e-9
        assert AXIS_LABEL_AT + (text / 2) * half_h / (h / 2) <= CAMERA_MARGIN * half_h + 1e-9


@pytest.mark.gl
def test_flat_view_moves_the_camera_back_but_keeps_the_users_zoom(qtbot):
    from kfdviz.views import scatter3d

    view = scatter3d.Scatter3DView()
    qtbot.addWidget(view)
    P, y = _three_classes()
    view.set_points(P, y, np.zeros(len(y), bool), ("first axis", "second axis", "third"), "t")
    view.resize(500, 500)
    view.show()
    qtbot.waitExposed(view)
    assert view.gl_view.opts["distance"] == scatter3d.CAMERA_DISTANCE
    view.resize(900, 160)  # a flat dock: the vertical extent is the limit
    qtbot.waitUntil(lambda: view.gl_view.opts["distance"] > scatter3d.CAMERA_DISTANCE)
    view.resize(500, 500)
    qtbot.waitUntil(lambda: view.gl_view.opts["distance"] == scatter3d.CAMERA_DISTANCE)
    view.gl_view.setCameraPosition(distance=2.0)  # the user zooms in with the wheel
    view.resize(900, 160)
    qtbot.wait(50)
    assert view.gl_view.opts["distance"] == 2.0
