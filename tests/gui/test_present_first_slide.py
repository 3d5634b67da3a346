"""F5 presents the picture on screen first; the deck follows; Esc gives the window back."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import click_data, press_key, wait_idle
from PySide6.QtCore import QRectF, Qt

from kfdviz import presets

pytestmark = pytest.mark.gui

KEY = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier


def _not_stale(w) -> bool:
    return not w.fit.marks.stale_marks and w.workspace.input_view.overlay.state != "stale"


def _covers(view) -> bool:
    """The level-set image covers the visible plot (to within a pixel)."""
    px, py = view.viewbox.viewPixelSize()
    image = view.image.mapRectToView(view.image.boundingRect()).adjusted(-px, -py, px, py)
    (x0, x1), (y0, y1) = view.viewbox.viewRange()
    return view.image.isVisible() and image.contains(QRectF(x0, y0, x1 - x0, y1 - y0))


def _assert_user_slide(w, X, y, params, title) -> None:
    """The slide shows the user's points and parameters, fitted now, over the whole plot."""
    assert w.presenter.slide_index == 0
    assert w.presenter.slide_counter.text() == "1 / 2"
    assert w.presenter.slide_title.isVisible() and w.presenter.slide_title.text() == title
    assert w.pictures.layout_name == "single"
    np.testing.assert_array_equal(w.data.X(), X)
    np.testing.assert_array_equal(w.data.y(), y)
    slot = w.pictures.main_slot
    assert slot.algorithm == "kfd" and slot.params == params
    result = slot.result
    assert w.workspace.input_view.result is result
    np.testing.assert_array_equal(result.X, X)
    assert result.params["mu"] == params["mu"]
    assert w.is_up_to_date() and _not_stale(w)
    assert _covers(w.workspace.input_view)


def test_f5_shows_the_picture_on_screen_then_the_deck(window, qtbot):
    w = window
    w.presenter.set_deck(["kfd-vs-kpca"])
    # the user's own work: generated circles, a point drawn, mu changed
    panel = w.workspace.data_panel
    panel.set_generator("circles", {"n_samples": 120, "noise": 0.08}, 3)
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        panel.generate.click()
    wait_idle(qtbot, w)
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.05, 0.1)
    wait_idle(qtbot, w)
    mu = w.workspace.algorithm_panel.widget("mu")
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        mu.field.selectAll()
        qtbot.keyClicks(mu.field, "0.05")
        qtbot.keyClick(mu.field, KEY.Key_Return)
    wait_idle(qtbot, w)
    X, y = w.data.X().copy(), w.data.y().copy()
    assert X.shape == (121, 2)
    params = dict(w.pictures.main_slot.params)
    assert params["mu"] == pytest.approx(0.05)
    before = w.pictures.main_slot.result
    (vx, vy) = w.workspace.input_view.viewbox.viewRange()
    n_undo = w.data.n

    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_F5)
    assert w.presenting and w.isFullScreen()
    title = "Kernel Fisher discriminant — Concentric circles"
    _assert_user_slide(w, X, y, params, title)
    # fitted for the slide's plot, not the window's picture stretched
    assert w.pictures.main_slot.result is not before

    # Next: the deck's first slide
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    assert w.presenter.slide_index == 1 and w.presenter.slide_counter.text() == "2 / 2"
    assert w.files.preset_name == "kfd-vs-kpca"
    assert w.presenter.slide_title.text() == presets.get("kfd-vs-kpca").title
    assert w.pictures.layout_name == "compare" and w.is_up_to_date()

    # Previous: the user's picture again
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Left)
    _assert_user_slide(w, X, y, params, title)

    # Esc from a deck slide: the window as it was, the picture not refitted
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_End)
    press_key(qtbot, w, KEY.Key_Escape)
    assert not w.presenting and not w.isFullScreen()
    assert w.workspace.algorithm_dock.isVisible() and w.menuBar().isVisible()
    np.testing.assert_array_equal(w.data.X(), X)
    np.testing.assert_array_equal(w.data.y(), y)
    assert w.pictures.layout_name == "single"
    assert w.pictures.main_slot.params == params
    assert w.workspace.algorithm_panel.widget("mu").value() == pytest.approx(0.05)
    assert w.pictures.main_slot.result is before
    assert w.workspace.input_view.result is before
    (vx2, vy2) = w.workspace.input_view.viewbox.viewRange()
    np.testing.assert_allclose([*vx2, *vy2], [*vx, *vy], rtol=0, atol=1e-9)
    wait_idle(qtbot, w)
    qtbot.wait(3 * w.fit.grid_box.settle.interval())
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result is before, "nothing changed: no refit"
    assert w.is_up_to_date() and _not_stale(w)
    # the undo history is the user's: μ typed is the last step, the drawn point the one before
    assert w.action_table["undo"].text() == "Undo μ = 0.05"
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.workspace.algorithm_panel.widget("mu").value() != pytest.approx(0.05)
    assert w.data.n == n_undo
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == n_undo - 1
    wait_idle(qtbot, w)


def test_esc_on_the_first_slide_gives_back_the_picture_without_a_refit(window, qtbot):
    w = window
    w.presenter.set_deck(["default"])
    before = w.pictures.main_slot.result
    X = w.data.X().copy()
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        w.action_table["presentation"].trigger()
    assert w.presenter.slide_index == 0
    assert w.presenter.slide_title.text() == "Kernel Fisher discriminant — Two moons"
    press_key(qtbot, w, KEY.Key_Escape)
    assert not w.presenting
    np.testing.assert_array_equal(w.data.X(), X)
    assert w.pictures.main_slot.result is before
    wait_idle(qtbot, w)
    qtbot.wait(3 * w.fit.grid_box.settle.interval())
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result is before and w.is_up_to_date()


def test_points_drawn_on_the_first_slide_are_kept_and_fitted(window, qtbot):
    w = window
    w.presenter.set_deck(["default"])
    n = w.data.n
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_F5)
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        w.data.add_points([[0.3, 0.2]], 1)
    assert w.data.n == n + 1 and w.is_up_to_date()
    press_key(qtbot, w, KEY.Key_Escape)
    assert w.data.n == n + 1, "an edit on the first slide is the user's"
    wait_idle(qtbot, w)
    result = w.pictures.main_slot.result
    assert result.X.shape[0] == n + 1 and w.is_up_to_date()


def test_the_first_slide_names_no_generated_data_set_after_loading_points(window, qtbot, tmp_path):
    w = window
    w.presenter.set_deck(["kfd-vs-kpca"])
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-1, 0.3, (20, 2)), rng.normal(1, 0.3, (20, 2))])
    y = np.repeat([0, 1], 20)
    path = tmp_path / "points.csv"
    rows = [f"{a:.6f},{b:.6f},{label}" for (a, b), label in zip(X, y, strict=True)]
    path.write_text("\n".join(["x1,x2,label", *rows]) + "\n")
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        assert w.files.load_file(str(path))
    wait_idle(qtbot, w)
    assert w.files.generator_state is None
    press_key(qtbot, w, KEY.Key_F5)
    qtbot.waitUntil(lambda: w.presenting and w.presenter.slide_index == 0, timeout=10_000)
    wait_idle(qtbot, w)
    assert w.presenter.slide_title.text() == "Kernel Fisher discriminant"
    press_key(qtbot, w, KEY.Key_Escape)
    qtbot.waitUntil(lambda: not w.presenting, timeout=10_000)
