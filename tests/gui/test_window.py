"""The window, driven like a user: real clicks on the plot, keys, the real fit thread."""

from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest
from gui_helpers import (
    OFFSCREEN_NOISE,
    click_data,
    drag_data,
    make_window,
    press_key,
    save_and_check,
    wait_idle,
)
from PySide6.QtCore import QPointF, Qt

from kfdviz.pipeline import FitFailure, FitResult

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

KEY = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _result(window) -> FitResult:
    r = window.pictures.main_slot.result
    assert r is not None
    return r


def _status(window) -> str:
    return window.last_status[1]


# -- start-up ------------------------------------------------------------------------------
def test_opens_on_the_default_with_a_fitted_kfd_and_level_sets(qtbot, settings):
    w = make_window(qtbot, settings)
    r = _result(w)
    assert r.algorithm == "kfd" and r.kind == "classifier"
    assert r.params["kernel"] == "rbf"
    view = w.workspace.input_view
    assert view.image.isVisible() and view.image.image is not None
    assert len(view.contour_items) >= 3
    assert view.boundary.getData()[0].size > 10
    assert w.windowTitle().startswith("kfdviz")
    w.close()


# -- drawing ---------------------------------------------------------------------------------
def test_click_points_of_two_classes_onto_an_empty_canvas_gives_a_kfd(window, qtbot):
    w = window
    w.workspace.data_panel.split.setValue(0)  # every drawn point a training point
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)  # Clear
    assert w.data.n == 0
    assert w.workspace.input_view.result is None  # an empty canvas shows no stale picture
    press_key(qtbot, w, KEY.Key_A)  # the Add tool
    assert w.canvas.tool == "add"
    view = w.workspace.input_view
    view.viewbox.setRange(xRange=(-2, 2), yRange=(-2, 2), padding=0)
    qtbot.wait(20)
    class1 = [(-1.2, -1.0), (-1.0, -0.4), (-1.4, -0.2), (-0.7, -1.1), (-1.1, 0.2)]
    class2 = [(1.0, 1.1), (1.2, 0.4), (0.6, 1.0), (1.4, 1.3), (0.9, 0.3)]
    press_key(qtbot, w, KEY.Key_1)
    for x, y in class1:
        click_data(qtbot, view, x, y)
    press_key(qtbot, w, KEY.Key_2)
    for x, y in class2:
        click_data(qtbot, view, x, y)
    assert w.data.n == 10
    X, labels = w.data.X(), w.data.y()
    sx, sy = view.pixel_size()
    assert np.allclose(X, np.array(class1 + class2), atol=2 * max(sx, sy))
    assert labels.tolist() == [0] * 5 + [1] * 5
    wait_idle(qtbot, w)
    r = _result(w)
    assert r.algorithm == "kfd" and r.n_train == 10
    assert r.train_error == 0.0
    assert len(view.contour_items) >= 2
    assert view.boundary.getData()[0].size > 2
    # the boundary runs between the two groups
    bx, by = view.boundary.getData()
    finite = np.isfinite(bx)
    assert np.any(np.abs(bx[finite] + by[finite]) < 0.8)


def test_changing_the_width_draws_a_new_picture(window, qtbot):
    w = window
    before = _result(w)
    width = w.workspace.algorithm_panel.widget("width")
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        width.field.selectAll()
        qtbot.keyClicks(width.field, "0.05")
        qtbot.keyClick(width.field, KEY.Key_Return)
    wait_idle(qtbot, w)
    after = _result(w)
    assert after is not before and after.params["width"] == pytest.approx(0.05)
    assert not np.allclose(after.outputs, before.outputs)
    assert after.grid.box == before.grid.box  # same framing, new picture
    assert w.workspace.input_view.result is after
    # a narrow Gaussian fits the training set more closely
    assert after.train_error <= before.train_error
    # the slider followed the typed value
    assert width.slider.value() == width._to_slider(0.05)


def test_moving_the_width_slider_refits(window, qtbot):
    w = window
    width = w.workspace.algorithm_panel.widget("width")
    before = _result(w)
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        width.slider.setValue(width.slider.value() + 150)
    wait_idle(qtbot, w)
    assert _result(w).params["width"] > before.params["width"]


def test_showing_the_projection_instead_of_the_decision_value(window, qtbot):
    w = window
    combo = w.workspace.algorithm_panel.feature
    assert [combo.itemData(i) for i in range(combo.count())] == ["auto", "decision", 0]
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        combo.setCurrentIndex(combo.findData(0))
    r = _result(w)
    assert r.feature == 0 and "feature 1" in r.feature_label
    # the decision boundary is the projection's level set at the threshold -b
    assert r.threshold is not None and r.threshold != 0.0
    assert w.workspace.outputs_view.threshold_line.isVisible()
    assert w.workspace.outputs_view.threshold_line.value() == pytest.approx(r.threshold)
    assert w.workspace.input_view.boundary.getData()[0].size > 10
    assert combo.currentData() == 0


def test_undo_and_redo_a_point(window, qtbot):
    w = window
    n = w.data.n
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.5, 1.6)
    assert w.data.n == n + 1
    assert np.allclose(w.data.X()[-1], (0.5, 1.6), atol=0.05)
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == n
    press_key(qtbot, w, KEY.Key_Z, CTRL | SHIFT)
    assert w.data.n == n + 1
    wait_idle(qtbot, w)
    assert _result(w).X.shape[0] == n + 1


def test_spray_erase_move_and_relabel(window, qtbot):
    w = window
    view = w.workspace.input_view
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)
    view.viewbox.setRange(xRange=(-2, 2), yRange=(-2, 2), padding=0)
    qtbot.wait(20)
    # spray: one stroke, many points, one undo step
    press_key(qtbot, w, KEY.Key_S)
    press_key(qtbot, w, KEY.Key_1)
    drag_data(qtbot, view, [(-1.5 + 0.1 * i, -1.0) for i in range(12)])
    sprayed = w.data.n
    assert sprayed >= 6
    assert np.all(w.data.y() == 0)
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == 0
    press_key(qtbot, w, KEY.Key_Z, CTRL | SHIFT)
    assert w.data.n == sprayed
    # add two points of class 2, then move one of them by dragging it
    press_key(qtbot, w, KEY.Key_A)
    press_key(qtbot, w, KEY.Key_2)
    click_data(qtbot, view, 1.0, 1.0)
    click_data(qtbot, view, 1.5, 0.5)
    press_key(qtbot, w, KEY.Key_M)
    drag_data(qtbot, view, [(1.0, 1.0), (0.9, 1.2), (0.7, 1.5)])
    moved = w.data.X()[-2]
    assert np.allclose(moved, (0.7, 1.5), atol=0.05)
    press_key(qtbot, w, KEY.Key_Z, CTRL)  # the whole drag is one step
    assert np.allclose(w.data.X()[-2], (1.0, 1.0), atol=0.05)
    # relabel the other one to class 1
    press_key(qtbot, w, KEY.Key_R)
    press_key(qtbot, w, KEY.Key_1)
    click_data(qtbot, view, 1.5, 0.5)
    assert w.data.y()[-1] == 0
    # erase everything near the sprayed stroke
    press_key(qtbot, w, KEY.Key_E)
    before = w.data.X().copy()
    drag_data(qtbot, view, [(-1.6 + 0.05 * i, -1.0 + 0.03 * ((-1) ** i)) for i in range(30)])
    assert w.data.n < sprayed + 2
    press_key(qtbot, w, KEY.Key_Z, CTRL)  # the whole erase stroke is one step
    np.testing.assert_array_equal(w.data.X(), before)
    press_key(qtbot, w, KEY.Key_Z, CTRL | SHIFT)
    assert w.data.n < sprayed + 2
    wait_idle(qtbot, w)


def test_generate_and_open_are_one_undo_step_each(window, qtbot, tmp_path):
    w = window
    drawn = w.data.X().copy()
    w.load_preset("koc-iris")  # 4-D data in place of the 2-D points
    assert w.data.dimension == 4
    path = tmp_path / "points.csv"
    assert w.save_to(str(path))
    w.files.generate("moons", {"n_samples": 50, "noise": 0.1}, 3)
    assert w.data.n == 50 and w.data.dimension == 2
    assert w.load_file(str(path))
    assert w.data.dimension == 4
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == 50
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.dimension == 4
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    np.testing.assert_array_equal(w.data.X(), drawn)
    press_key(qtbot, w, KEY.Key_Z, CTRL | SHIFT)
    assert w.data.dimension == 4
    wait_idle(qtbot, w)


# -- errors ------------------------------------------------------------------------------------
def test_a_bad_mu_is_marked_on_its_widget_and_the_old_picture_stays(window, qtbot):
    w = window
    good = _result(w)
    mu = w.workspace.algorithm_panel.widget("mu")
    mu.field.selectAll()
    qtbot.keyClicks(mu.field, "-1")
    qtbot.keyClick(mu.field, KEY.Key_Return)
    qtbot.waitUntil(lambda: mu.error() is not None, timeout=5_000)
    assert "mu" in mu.error()
    assert mu.error_label.isVisible()
    assert "μ" in _status(w) and w.last_status[0] == "error"
    qtbot.wait(400)  # longer than the debounce: nothing was fitted
    assert not w.fit.worker.is_busy()
    assert _result(w) is good and w.workspace.input_view.result is good
    assert w.workspace.input_view.image.isVisible()
    # text that is not a number gets its own reason
    mu.field.selectAll()
    qtbot.keyClicks(mu.field, "abc")
    qtbot.keyClick(mu.field, KEY.Key_Return)
    qtbot.waitUntil(lambda: "not a number" in (mu.error() or ""), timeout=5_000)
    assert _result(w) is good
    # a good value clears the mark and fits again
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        mu.field.selectAll()
        qtbot.keyClicks(mu.field, "0.01")
        qtbot.keyClick(mu.field, KEY.Key_Return)
    assert mu.error() is None and not mu.error_label.isVisible()
    assert _result(w).params["mu"] == pytest.approx(0.01)


def test_an_error_from_the_fit_shows_in_place_and_keeps_the_picture(window, qtbot):
    w = window
    good = _result(w)
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)
    press_key(qtbot, w, KEY.Key_A)
    press_key(qtbot, w, KEY.Key_1)
    view = w.workspace.input_view
    with qtbot.waitSignal(w.fit_failed, timeout=30_000) as blocker:
        click_data(qtbot, view, 0.0, 0.0)
        click_data(qtbot, view, 0.5, 0.5)
    failure = blocker.args[0]
    assert isinstance(failure, FitFailure) and "class" in failure.message
    assert w.last_status[0] == "error" and "class" in _status(w)
    assert w.data.n == 2  # the drawn points stay
    assert good is not None


# -- the worker ------------------------------------------------------------------------------
def _make_long_fit(w, qtbot):
    """2500 points and a greedy sparse KFD: seconds of work, with live mode off."""
    press_key(qtbot, w, KEY.Key_L, CTRL)  # live off
    assert not w.fit.live
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData("moons"))
    panel.n_samples.setValue(2500)
    panel.generate.click()
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kfd-greedy"))
    centers = w.workspace.algorithm_panel.widget("n_centers")
    centers.field.setText("400")
    centers.field.editingFinished.emit()
    assert not w.fit.worker.is_busy()
    w.fit.large_data.approved = True  # this long fit is wanted: no cost banner first


def test_cancel_a_long_fit_keeps_the_picture_and_the_window_responsive(window, qtbot):
    w = window
    good = _result(w)
    _make_long_fit(w, qtbot)
    overlay = w.workspace.input_view.overlay
    assert overlay.state == "stale" and "live fitting is off" in overlay.reason
    stale_reason = overlay.reason
    threads_before = set(threading.enumerate())
    press_key(qtbot, w, KEY.Key_Return, CTRL)
    # The window goes on handling events while the fit thread works: the plot shows the fit's
    # progress with Cancel (the busy card appears only after the fit has run a while)...
    qtbot.waitUntil(lambda: overlay.state == "busy", timeout=20_000)
    assert w.fit.worker.is_busy() and w.action_table["cancel"].isEnabled()
    assert overlay.cancel_button.isVisible()
    # ...and a key press takes effect at once.
    press_key(qtbot, w, KEY.Key_M)
    assert w.canvas.tool == "move"
    with qtbot.waitSignal(w.fit.worker.outcome, timeout=30_000) as blocker:
        press_key(qtbot, w, KEY.Key_Escape)
    outcome = blocker.args[0]
    assert isinstance(outcome, FitFailure) and outcome.cancelled
    qtbot.waitUntil(lambda: not w.fit.worker.is_busy(), timeout=10_000)
    assert "cancelled" in _status(w).lower()
    # The last picture stays, marked as not current, with the reason it was before the fit.
    assert w.pictures.main_slot.result is good and w.workspace.input_view.result is good
    qtbot.waitUntil(lambda: overlay.state == "stale", timeout=5_000)
    assert overlay.reason == stale_reason and overlay.card.isVisible()
    assert not w.action_table["cancel"].isEnabled()
    # Nothing of the fit is left running: no thread besides those before it (the fit thread
    # among them, idle), no solver process.
    qtbot.waitUntil(lambda: set(threading.enumerate()) <= threads_before, timeout=10_000)
    assert w.fit.worker.thread in threads_before and w.fit.worker.thread.is_alive()
    assert not multiprocessing.active_children()
    press_key(qtbot, w, KEY.Key_A)
    assert w.canvas.tool == "add"


def test_closing_during_a_fit_exits_cleanly(qtbot, settings):
    w = make_window(qtbot, settings)
    _make_long_fit(w, qtbot)
    press_key(qtbot, w, KEY.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(w.fit.worker.is_busy, timeout=5_000)
    thread = w.fit.worker.thread
    w.close()
    assert not thread.is_alive(), "closing the window must stop the fit thread"
    assert not multiprocessing.active_children()


def test_a_new_request_replaces_the_running_one(window, qtbot):
    w = window
    drawn = []
    w.fit_drawn.connect(lambda r: drawn.append(r))
    width = w.workspace.algorithm_panel.widget("width")
    for value in (2.0, 1.5, 0.7, 0.3):
        width.set_value(value)
        width.changed.emit()
        w.request_fit(now=True)
    wait_idle(qtbot, w)
    assert drawn[-1].params["width"] == pytest.approx(0.3)
    assert _result(w).params["width"] == pytest.approx(0.3)
    assert len(drawn) <= 4
    ids = [r.request_id for r in drawn]
    assert ids == sorted(ids)


# -- geometry ----------------------------------------------------------------------------------
def test_the_level_set_image_lines_up_with_the_points(window, qtbot):
    """Under each training point the drawn decision value has the point's predicted sign."""
    w = window
    r = _result(w)
    view = w.workspace.input_view
    image = view.image
    data = image.image
    train = ~r.test_mask
    margin = 0.08 * np.ptp(r.outputs)
    checked = 0
    for (x, y), value, label in zip(
        r.X[train], r.outputs[train], r.predictions[train], strict=True
    ):
        if abs(value) < margin:
            continue  # within a pixel or two of the boundary
        p = image.mapFromView(QPointF(x, y))  # image pixel coordinates (column, row)
        col, row = int(p.x()), int(p.y())
        drawn = data[row, col]
        assert (drawn > 0) == (label == r.classes[1]), (x, y, value, drawn)
        checked += 1
    assert checked > 0.7 * train.sum()
    # and the colours on screen: orange where positive, blue where negative
    pixels = save_and_check(view.plot, "level-set-alignment")
    ratio = view.plot.devicePixelRatioF()
    g = r.grid
    hits = 0
    for b in range(5, g.ys.size - 5, 17):
        for a in range(5, g.xs.size - 5, 17):
            v = g.values[b, a]
            if abs(v) < 0.5 * max(abs(g.color_range[0]), 1e-9):
                continue
            pos = view.data_to_widget(g.xs[a], g.ys[b])
            px, py = int(pos.x() * ratio), int(pos.y() * ratio)
            if not (0 <= py < pixels.shape[0] and 0 <= px < pixels.shape[1]):
                continue
            red, _, blue = pixels[py, px].astype(int)
            near = r.X - [g.xs[a], g.ys[b]]
            if np.min(np.hypot(*near.T)) < 0.08:
                continue  # a point marker covers the image there
            assert (red > blue) == (v > 0), (g.xs[a], g.ys[b], v, pixels[py, px])
            hits += 1
    assert hits >= 10


# -- other layouts and modes -----------------------------------------------------------------
def test_compare_preset_shows_three_linked_panels(window, qtbot):
    w = window
    w.load_preset("kfd-vs-kpca")
    wait_idle(qtbot, w)
    slots = w.pictures.compare_slots[:3]
    assert [s.algorithm for s in slots] == ["kfd", "kpca", "kpca"]
    assert [s.result.feature for s in slots] == ["decision", 0, 1]
    assert slots[0].result.train_error == 0.0
    views = w.workspace.compare_view.views()[: w.pictures.compare_count]
    for view, slot in zip(views, slots, strict=True):
        assert view.result is slot.result and view.image.isVisible()
    # same grid box in every panel, and panning one pans all
    assert slots[0].result.grid.box == slots[1].result.grid.box == slots[2].result.grid.box

    def centres():
        return np.array([np.mean(v.viewbox.viewRange()[0]) for v in views])

    before = centres()
    assert np.allclose(before, before[0], atol=0.02)
    # drag the middle panel to the left with the pan tool: every panel follows
    press_key(qtbot, w, KEY.Key_H)
    x0, x1 = views[1].viewbox.viewRange()[0]
    y_mid = float(np.mean(views[1].viewbox.viewRange()[1]))
    shift = 0.25 * (x1 - x0)
    drag_data(qtbot, views[1], [(x0 + 0.6 * (x1 - x0) - k * shift / 8, y_mid) for k in range(9)])
    qtbot.wait(50)
    after = centres()
    moved = after - before
    assert np.all(moved > 0.5 * shift), moved  # the view moved right as the data went left
    assert np.allclose(moved, moved[0], atol=0.02 * (x1 - x0))
    # the algorithm panel edits the active panel, and only that one (links: test_compare_links)
    w.workspace.activate_compare_panel(1)
    assert w.workspace.algorithm_panel.algorithm() == "kpca"
    degree = w.workspace.algorithm_panel.widget("degree")
    degree.box.setValue(3)
    wait_idle(qtbot, w)
    assert [s.result.params["degree"] for s in w.pictures.compare_slots[:3]] == [2, 3, 2]
    save_and_check(w, "compare-kfd-vs-kpca")
    # each panel can show its outputs instead (NIPS 2000 Fig. 2 side by side)
    mode = w.workspace.compare_view.mode
    mode.setCurrentIndex(mode.findData("outputs"))
    for panel, slot in zip(w.workspace.compare_view.panels[:3], slots, strict=True):
        assert panel.stack.currentWidget() is panel.outputs
        assert panel.outputs.result is slot.result and panel.outputs.hist_items
    mode.setCurrentIndex(mode.findData("input"))
    assert all(p.stack.currentWidget() is p.view for p in w.workspace.compare_view.panels[:3])
    # back to one picture
    press_key(qtbot, w, KEY.Key_F6)
    assert w.pictures.layout_name == "single"
    wait_idle(qtbot, w)


def test_regression_mode_draws_a_fitted_curve(window, qtbot):
    w = window
    w.workspace.data_panel.regression.click()
    assert w.data.regression and w.data.n == 0
    spec_keys = [
        w.workspace.algorithm_panel.combo.itemData(i)
        for i in range(w.workspace.algorithm_panel.combo.count())
    ]
    assert "kfd-regression" in spec_keys and "kfd" not in spec_keys
    view = w.workspace.input_view
    view.viewbox.setRange(xRange=(-5, 5), yRange=(-1.5, 1.5), padding=0)
    qtbot.wait(20)
    press_key(qtbot, w, KEY.Key_A)
    xs = np.linspace(-4, 4, 9)
    for x in xs:
        click_data(qtbot, view, x, np.sin(x))
    assert w.data.n == 9 and w.data.X().shape == (9, 1)
    wait_idle(qtbot, w)
    r = _result(w)
    assert r.kind == "regressor" and r.curve is not None
    cx, _cy = view.curve.getData()
    assert cx.size == r.curve.x.size
    assert w.workspace.outputs_view.stack.currentIndex() == 1
    save_and_check(w, "regression-mode")


def test_hover_reads_out_the_value_and_the_point(window, qtbot):
    w = window
    view = w.workspace.input_view
    r = _result(w)
    g = r.grid
    # over empty space (a corner of the picture): the coordinates and the drawn value
    qtbot.mouseMove(view.plot.viewport(), view.data_to_widget(g.xs[5], g.ys[5]))
    qtbot.waitUntil(lambda: "value" in view.readout.text(), timeout=3_000)
    assert f"value {g.values[5, 5]:+.4g}" in view.readout.text()
    assert "class" not in view.readout.text()
    # over a training point: its class, its role and its coefficient
    i = int(np.flatnonzero(~r.test_mask)[0])
    qtbot.wait(60)  # pyqtgraph drops mouse moves closer together than its rate limit
    qtbot.mouseMove(view.plot.viewport(), view.data_to_widget(*r.X[i]))
    qtbot.waitUntil(lambda: "class" in view.readout.text(), timeout=3_000)
    text = view.readout.text()
    assert f"class {int(r.y[i]) + 1}" in text and "training" in text and "α =" in text


def test_save_and_load_the_points(window, qtbot, tmp_path):
    w = window
    path = tmp_path / "points.csv"
    assert w.save_to(str(path))
    X, y, test = w.data.X().copy(), w.data.y().copy(), w.data.test_mask().copy()
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)
    assert w.data.n == 0
    assert w.load_file(str(path))
    assert np.allclose(w.data.X(), X) and np.array_equal(w.data.y(), y)
    wait_idle(qtbot, w)
    assert _result(w).X.shape == X.shape
    # a file that is not data: said so, nothing lost
    bad = tmp_path / "bad.csv"
    bad.write_text("this is not, a table\n1,2,3,4\n")
    assert not w.load_file(str(bad))
    assert w.last_status[0] == "error" and "bad.csv" in _status(w)
    assert np.allclose(w.data.X(), X)
    # undo goes back to before the load, then to the cleared canvas's predecessor
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == 0
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == X.shape[0]
    del test


def test_a_saved_session_reopens_the_same_picture(window, qtbot, tmp_path):
    w = window
    w.load_preset("kfd-vs-kpca")
    wait_idle(qtbot, w)
    before = [s.result for s in w.pictures.compare_slots[:3]]
    path = tmp_path / "figure.kfdviz"
    assert w.save_session_file(str(path)) and path.exists()
    press_key(qtbot, w, KEY.Key_F6)  # single layout
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)
    assert w.data.n == 0
    assert w.open_session_file(str(path))
    wait_idle(qtbot, w)
    assert w.pictures.layout_name == "compare" and w.pictures.compare_count == 3
    after = [s.result for s in w.pictures.compare_slots[:3]]
    for a, b in zip(before, after, strict=True):
        assert a.algorithm == b.algorithm and a.feature == b.feature
        assert np.array_equal(a.X, b.X) and np.array_equal(a.test_mask, b.test_mask)
        assert np.allclose(a.outputs, b.outputs)
    # a damaged file is refused with the reason; the points stay
    bad = tmp_path / "bad.kfdviz"
    bad.write_text('{"format": "kfdviz-session", "format_version": 1')
    n = w.data.n
    assert not w.open_session_file(str(bad))
    assert w.last_status[0] == "error" and "bad.kfdviz" in _status(w)
    assert w.data.n == n


def test_a_session_restores_its_view_settings(window, qtbot, tmp_path):
    w = window
    w.load_preset("kfd-sparsity")  # a preset with its own view settings
    wait_idle(qtbot, w)
    assert w.action_table["expansion"].isChecked()
    w.action_table["contours"].setChecked(False)
    press_key(qtbot, w, KEY.Key_T, CTRL)  # dark theme
    path = tmp_path / "look.kfdviz"
    assert w.save_session_file(str(path))
    saved = w.session_state()
    assert saved.view_settings["show_expansion"] is True
    assert saved.view_settings["show_contours"] is False
    w.load_preset("default")
    press_key(qtbot, w, KEY.Key_T, CTRL)
    w.action_table["contours"].setChecked(True)
    assert w.workspace.theme.name == "light" and not w.action_table["expansion"].isChecked()
    assert w.open_session_file(str(path))
    wait_idle(qtbot, w)
    assert w.workspace.theme.name == "dark"
    assert not w.action_table["contours"].isChecked() and w.action_table["expansion"].isChecked()
    assert all(v._show_contours is False for v in w.workspace.compare_view.views())
    assert w.session_state().view_settings == saved.view_settings
    assert w.files.preset_name == "kfd-sparsity"
    press_key(qtbot, w, KEY.Key_T, CTRL)


def test_dark_theme_and_back(window, qtbot):
    w = window
    press_key(qtbot, w, KEY.Key_T, CTRL)
    assert w.workspace.theme.name == "dark"
    pixels = save_and_check(w, "window-dark")
    assert pixels.mean() < 140  # mostly dark
    press_key(qtbot, w, KEY.Key_T, CTRL)
    assert w.workspace.theme.name == "light"


def test_settings_are_remembered(qtbot, settings):
    w = make_window(qtbot, settings)
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kpca"))
    wait_idle(qtbot, w)
    w.workspace.set_theme("dark")
    w.close()
    again = make_window(qtbot, settings, restore=True)
    assert again.pictures.main_slot.algorithm == "kpca"
    assert again.workspace.algorithm_panel.algorithm() == "kpca"
    assert _result(again).algorithm == "kpca"
    again.workspace.set_theme("light")
    again.close()


def test_every_view_has_a_picture(window, qtbot):
    w = window
    for name, widget in (
        ("window-default", w),
        ("input-view", w.workspace.input_view),
        ("outputs-view", w.workspace.outputs_view),
        ("diagnostics-view", w.workspace.diagnostics_view),
    ):
        pixels = save_and_check(widget, name)
        assert pixels.std() > 10, f"{name} looks blank"
    assert w.workspace.outputs_view.hist_items, "no histograms drawn"
    assert w.workspace.diagnostics_view.table.rowCount() > 5
