"""One document, one history: every change the user makes is one step Ctrl+Z takes back.

The real window at 1280 × 800, driven as a user does (clicks, typing, the Edit menu's keys);
controls found by their accessible names.
"""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import click_data, named, press_key, type_into, wait_idle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton, QSlider

from kfdviz.app.pictures import param_names, settled_params

pytestmark = pytest.mark.gui

KEY = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _undo(qtbot, w):
    press_key(qtbot, w, KEY.Key_Z, CTRL)


def _redo(qtbot, w):
    press_key(qtbot, w, KEY.Key_Z, CTRL | SHIFT)


def _generate(qtbot, w, name: str, n: int | None = None) -> None:
    combo = named(w, "Data set", QComboBox)
    combo.setCurrentIndex(combo.findData(name))
    if n is not None:
        named(w, "Points").setValue(n)
    qtbot.mouseClick(named(w, "Generate", QPushButton), Qt.MouseButton.LeftButton)


def _panel_shows(w, slot) -> None:
    """The algorithm panel shows every value of ``slot`` (what undo put back)."""
    panel = w.workspace.algorithm_panel
    assert panel.algorithm() == slot.algorithm
    shown, problems = panel.collect()
    assert not problems
    own = param_names(slot.algorithm)
    want = settled_params(slot.algorithm, slot.params)
    assert settled_params(slot.algorithm, shown) == {k: v for k, v in want.items() if k in own}


def test_the_lecture_sequence_undoes_what_the_user_did_last(window, qtbot):
    """Spiral, then two moons, a point clicked in, width 2 typed: Ctrl+Z takes back the width
    (the panel and the picture follow), then the point, then the two moons."""
    w = window
    _generate(qtbot, w, "spiral")
    wait_idle(qtbot, w)
    spiral = w.data.X().copy()
    _generate(qtbot, w, "moons")
    wait_idle(qtbot, w)
    moons = w.data.X().copy()
    width_before = w.pictures.main_slot.params["width"]
    assert w.action_table["undo"].text() == "Undo Generate two moons"
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.5, 0.25)
    assert w.data.n == len(moons) + 1
    assert w.action_table["undo"].text() == "Undo Add point"
    type_into(qtbot, named(w, "Width c", QLineEdit), "2")
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == 2.0
    assert w.action_table["undo"].text() == "Undo width c = 2"

    _undo(qtbot, w)  # the width
    assert named(w, "Width c", QLineEdit).text() != "2"
    assert w.pictures.main_slot.params["width"] == pytest.approx(width_before)
    assert w.data.n == len(moons) + 1, "the point stays"
    _panel_shows(w, w.pictures.main_slot)
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == pytest.approx(width_before)
    assert w.action_table["undo"].text() == "Undo Add point"
    assert w.action_table["redo"].text() == "Redo width c = 2"

    _undo(qtbot, w)  # the point
    np.testing.assert_array_equal(w.data.X(), moons)
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.X.shape[0] == len(moons)

    _undo(qtbot, w)  # the two moons
    np.testing.assert_array_equal(w.data.X(), spiral)
    assert named(w, "Data set", QComboBox).currentData() == "spiral"
    wait_idle(qtbot, w)

    _redo(qtbot, w)
    _redo(qtbot, w)
    _redo(qtbot, w)
    assert w.data.n == len(moons) + 1
    assert named(w, "Width c", QLineEdit).text() == "2"
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.params["width"] == 2.0
    # a new change clears what was undone
    _undo(qtbot, w)
    assert w.action_table["redo"].isEnabled()
    type_into(qtbot, named(w, "μ", QLineEdit), "0.2")
    assert not w.action_table["redo"].isEnabled()
    assert w.action_table["undo"].text() == "Undo μ = 0.2"
    wait_idle(qtbot, w)


def test_ctrl_z_in_a_parameter_field_undoes_the_window_s_step(window, qtbot):
    """Typed and taken (Return), the value is a step: Ctrl+Z in the field undoes it (and then
    the step before), as anywhere in the window; while typing, Ctrl+Z undoes the typing."""
    w = window
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.5, 0.25)
    n = w.data.n
    field = named(w, "Width c", QLineEdit)
    before = field.text()
    type_into(qtbot, field, "2")
    assert field.hasFocus()
    qtbot.keyClick(field, KEY.Key_Z, CTRL)
    assert field.text() == before and w.pictures.main_slot.params["width"] != 2.0
    qtbot.keyClick(field, KEY.Key_Z, CTRL)
    assert w.data.n == n - 1, "the second Ctrl+Z takes back the point"
    qtbot.keyClick(field, KEY.Key_Z, CTRL | SHIFT)
    qtbot.keyClick(field, KEY.Key_Z, CTRL | SHIFT)
    assert field.text() == "2" and w.data.n == n
    # still typing: the field's own undo
    qtbot.keyClicks(field, "5")
    qtbot.keyClick(field, KEY.Key_Z, CTRL)
    assert field.text() == "2" and w.data.n == n
    wait_idle(qtbot, w)


def test_every_kind_of_change_is_one_named_step(window, qtbot):
    w = window
    h = w.document.history
    wait_idle(qtbot, w)
    assert h.index == 0, "the window opens on a fresh history"
    # what the program does by itself is no step: a refit, a view range
    w.request_fit(now=True)
    wait_idle(qtbot, w)
    w.workspace.input_view.viewbox.setRange(xRange=(-3, 3), yRange=(-3, 3), padding=0)
    qtbot.wait(3 * w.fit.grid_box.settle.interval())
    wait_idle(qtbot, w)
    assert h.index == 0

    # a slider drag is one step
    slider = named(w, "Width c", QSlider)
    slider.setSliderDown(True)
    for value in range(slider.value() + 10, slider.value() + 60, 10):
        slider.setValue(value)
    slider.setSliderDown(False)
    assert h.index == 1 and h.undo_text.startswith("width c = ")
    dragged = w.pictures.main_slot.params["width"]
    wait_idle(qtbot, w)

    steps = []

    def step(expected: str) -> None:
        assert h.index == len(steps) + 1, h.texts()
        assert h.undo_text == expected
        steps.append((expected, w.document.state()))

    steps.append(("drag", w.document.state()))
    algorithm = named(w, "Algorithm", QComboBox)
    algorithm.setCurrentIndex(algorithm.findData("kpca"))
    step("algorithm Kernel PCA")
    kernel = named(w, "Kernel", QComboBox)
    kernel.setCurrentIndex(kernel.findData("poly"))
    step("kernel = Polynomial")
    kernel.setCurrentIndex(kernel.findData("rbf"))
    step("kernel = Gaussian (RBF)")
    wait_idle(qtbot, w)
    show = named(w, "Show", QComboBox)
    show.setCurrentIndex(show.findData(1))
    step("show feature 2")
    qtbot.mouseClick(named(w, "Width from data", QPushButton), Qt.MouseButton.LeftButton)
    step("Width from data")
    split = named(w, "Train / test split", QSlider)
    split.setValue(30)
    step("Split 30 % test")
    w.action_table["compare"].trigger()
    step("Compare on")
    wait_idle(qtbot, w)
    panel2 = named(w, "Panel 2 Algorithm", QComboBox)
    panel2.setCurrentIndex(panel2.findData("svm"))
    panel2.activated.emit(panel2.currentIndex())
    step("Panel 2 algorithm Support vector machine")
    qtbot.mouseClick(named(w, "Panel 2 Edit", QPushButton), Qt.MouseButton.LeftButton)
    assert h.index == len(steps), "choosing the panel to edit changes nothing"
    named(w, "Panel 2 Link Width c").click()
    step("Link width")
    type_into(qtbot, named(w, "Panel 2 Width c", QLineEdit), "3")
    step("Panel 2 width c = 3")
    assert all(
        s.params.get("width") == 3.0
        for s in w.pictures.shown_compare_slots()
        if "width" in s.params or s.algorithm != "kpca"
    )
    w.action_table["compare"].trigger()
    step("Compare off")
    w.load_preset("kfd-vs-kpca")
    step("Open preset " + w.session_state().title)
    wait_idle(qtbot, w)

    # undo walks back through every step, each putting back the document before it
    for text, state in reversed(steps):
        assert w.document.state() == state, w.document.state().differences(state)
        expected = "Undo " + (h.undo_text if text == "drag" else text)
        assert w.action_table["undo"].text() == expected
        _undo(qtbot, w)
        _panel_shows(w, w.pictures.active_slot())
    assert w.pictures.main_slot.params["width"] != dragged
    assert h.index == 0
    wait_idle(qtbot, w)
    assert w.is_up_to_date()
    for _text, state in steps:
        _redo(qtbot, w)
        assert w.document.state() == state, w.document.state().differences(state)
    wait_idle(qtbot, w)
    assert w.is_up_to_date()


def test_a_session_opened_starts_a_fresh_history(window, qtbot, tmp_path):
    w = window
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.1, 0.1)
    assert w.document.history.index == 1
    path = tmp_path / "s.kfdviz"
    assert w.save_session_file(str(path))
    assert w.open_session_file(str(path))
    assert w.document.history.index == 0 and not w.action_table["undo"].isEnabled()
    assert w.action_table["undo"].text() == "Undo"
    wait_idle(qtbot, w)


def test_the_history_view_goes_to_any_step(window, qtbot):
    w = window
    start = w.document.state()
    for value in ("1.5", "2.5", "3.5"):
        type_into(qtbot, named(w, "Width c", QLineEdit), value)
    w.action_table["history"].trigger()
    view = w.edits.view
    assert view.isVisible()
    texts = [view.list.item(i).text() for i in range(view.list.count())]
    assert texts[1:] == ["width c = 1.5", "width c = 2.5", "width c = 3.5"]
    assert view.list.currentRow() == 3
    rect = view.list.visualItemRect(view.list.item(1))
    qtbot.mouseClick(view.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert named(w, "Width c", QLineEdit).text() == "1.5"
    assert view.list.currentRow() == 1
    rect = view.list.visualItemRect(view.list.item(0))
    qtbot.mouseClick(view.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert w.document.state() == start
    assert w.action_table["redo"].text() == "Redo width c = 1.5"
    view.close()
    wait_idle(qtbot, w)


# -- a random sequence of user actions ----------------------------------------------------------
CHEAP = ("kfd", "kpca", "svm", "koc")


def _random_action(qtbot, w, rng) -> None:
    """One of the things a user does, chosen by ``rng``, done through the window's controls."""
    view = w.workspace.active_view()
    compare = w.pictures.layout_name == "compare"
    kinds = ["add", "erase", "move", "relabel", "param", "algorithm", "kernel", "split"]
    kinds += ["compare", "generate", "width_from_data", "drag"]
    if compare:
        kinds += ["panel_algorithm", "link", "count", "edit_panel"]
    kind = kinds[rng.integers(len(kinds))]
    P = w.data.display_points()
    if kind == "add" or (kind in ("erase", "move", "relabel") and len(P) < 5):
        press_key(qtbot, w, KEY.Key_A)
        press_key(qtbot, w, KEY.Key_1 + int(rng.integers(2)))
        click_data(qtbot, view, *rng.uniform((-1.0, -0.5), (2.0, 1.0)))
    elif kind == "erase":
        press_key(qtbot, w, KEY.Key_E)
        click_data(qtbot, view, *P[rng.integers(len(P))])
    elif kind == "move":
        press_key(qtbot, w, KEY.Key_M)
        x, y = P[rng.integers(len(P))]
        drag = [(x, y), (x + 0.05, y + 0.05), (x + 0.15, y - 0.1)]
        from gui_helpers import drag_data

        drag_data(qtbot, view, drag)
    elif kind == "relabel":
        press_key(qtbot, w, KEY.Key_R)
        press_key(qtbot, w, KEY.Key_1 + int(rng.integers(2)))
        click_data(qtbot, view, *P[rng.integers(len(P))])
    elif kind == "param":
        panel = w.workspace.algorithm_panel
        names = [p.name for p in panel.spec().params if p.kind == "float" and p.low is not None]
        names = [n for n in names if not panel.widget(n).isHidden()]
        if names:
            pick = names[rng.integers(len(names))]
            spec = next(p for p in panel.spec().params if p.name == pick)
            low, high = float(spec.low), float(spec.high)
            value = float(f"{low + (high - low) * rng.uniform(0.1, 0.6):.3g}")
            type_into(qtbot, panel.widget(spec.name).field, str(value))
    elif kind == "algorithm":
        combo = w.workspace.algorithm_panel.combo
        combo.setCurrentIndex(combo.findData(CHEAP[rng.integers(len(CHEAP))]))
    elif kind == "kernel":
        kernel = w.workspace.algorithm_panel.widget("kernel")
        if kernel is not None:
            kernel.combo.setCurrentIndex(kernel.combo.findData(("rbf", "poly")[rng.integers(2)]))
    elif kind == "split":
        named(w, "Train / test split", QSlider).setValue(int(rng.integers(0, 6)) * 10)
    elif kind == "compare":
        w.action_table["compare"].trigger()
    elif kind == "generate":
        _generate(qtbot, w, ("moons", "blobs")[rng.integers(2)], int(rng.integers(30, 60)))
    elif kind == "width_from_data":
        button = w.workspace.algorithm_panel.width_from_data
        if button.isVisibleTo(w):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    elif kind == "drag":
        width = w.workspace.algorithm_panel.widget("width")
        if width is not None and not width.isHidden():
            slider = width.slider
            slider.setSliderDown(True)
            for _ in range(4):
                slider.setValue(int(rng.integers(slider.minimum(), slider.maximum() // 2)))
            slider.setSliderDown(False)
    elif kind == "panel_algorithm":
        i = int(rng.integers(w.pictures.compare_count))
        combo = named(w, f"Panel {i + 1} Algorithm", QComboBox)
        combo.setCurrentIndex(combo.findData(CHEAP[rng.integers(len(CHEAP))]))
        combo.activated.emit(combo.currentIndex())
    elif kind == "link":
        button = w.workspace.algorithm_panel.link_button("width")
        if button is not None and button.isVisibleTo(w):
            button.click()
    elif kind == "count":
        w.workspace.compare_view.count.setCurrentIndex(int(rng.integers(2)))
    elif kind == "edit_panel":
        i = int(rng.integers(w.pictures.compare_count))
        qtbot.mouseClick(named(w, f"Panel {i + 1} Edit", QPushButton), Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("seed", [7])
def test_a_random_sequence_undoes_to_the_start_and_redoes_to_the_end(window, qtbot, seed):
    w = window
    _generate(qtbot, w, "moons", 40)
    wait_idle(qtbot, w)
    h = w.document.history
    start, first = w.document.state(), h.index
    rng = np.random.default_rng(seed)
    for _ in range(50):
        _random_action(qtbot, w, rng)
    wait_idle(qtbot, w)
    end, last = w.document.state(), h.index
    assert last - first >= 25, h.texts()
    for _ in range(last - first):
        _undo(qtbot, w)
    assert h.index == first
    assert w.document.state() == start, w.document.state().differences(start)
    _panel_shows(w, w.pictures.active_slot())
    wait_idle(qtbot, w)
    assert w.is_up_to_date()
    for _ in range(last - first):
        _redo(qtbot, w)
    assert h.index == last and not w.action_table["redo"].isEnabled()
    assert w.document.state() == end, w.document.state().differences(end)
    _panel_shows(w, w.pictures.active_slot())
    wait_idle(qtbot, w)
    assert w.is_up_to_date()


def test_regression_mode_and_clear_are_steps(window, qtbot):
    w = window
    start = w.document.state()
    algorithm = w.pictures.main_slot.algorithm
    qtbot.mouseClick(named(w, "Regression mode", QPushButton), Qt.MouseButton.LeftButton)
    assert w.data.regression and w.data.n == 0
    assert w.action_table["undo"].text() == "Undo Regression mode"
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.2, 0.3)
    press_key(qtbot, w, KEY.Key_Backspace, CTRL | SHIFT)
    assert w.data.n == 0 and w.action_table["undo"].text() == "Undo Clear points"
    for _ in range(3):
        _undo(qtbot, w)
    assert w.document.state() == start, w.document.state().differences(start)
    assert not named(w, "Regression mode", QPushButton).isChecked()
    assert w.workspace.algorithm_panel.algorithm() == algorithm
    _panel_shows(w, w.pictures.main_slot)
    wait_idle(qtbot, w)
    assert w.is_up_to_date()
