"""Presentation mode: full screen with large type, a deck stepped by clicker keys, and the
window exactly as it was afterwards."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import click_data, press_key, save_and_check, wait_idle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from kfdviz import deck as decks
from kfdviz import presets

pytestmark = pytest.mark.gui

KEY = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
DECK = ["kfd-regression", "kfd-vs-kpca", "novelty-spiral"]


def _tick_points(view) -> float:
    from PySide6.QtWidgets import QApplication

    font = view.item.getAxis("bottom").style["tickFont"]
    return (font or QApplication.font()).pointSizeF()


def _algorithms(w) -> list[str]:
    return [w.pictures.slot(n).algorithm for n in w.pictures.layout_slot_names()]


def _step(qtbot, w, key, expected: str) -> None:
    """Press ``key`` and wait until the preset ``expected`` is on screen, fitted."""
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, key)
    assert w.files.preset_name == expected
    assert _algorithms(w) == [p.algorithm for p in presets.get(expected).panels]
    assert all(w.pictures.slot(n).result is not None for n in w.pictures.layout_slot_names())
    assert w.is_up_to_date()


def test_f5_presents_a_deck_and_esc_restores_the_window(window, qtbot):
    w = window
    # Narrower than the default: leaving presentation mode widened such a window (the docks were
    # restored while a slide's compare panels still set the central area's minimum), and the
    # plot's title, wider than the plot, pushed the scene past its edge.
    w.resize(1200, 760)
    qtbot.waitUntil(lambda: (w.width(), w.height()) == (1200, 760), timeout=5_000)
    w.presenter.set_deck(DECK)
    # the user's own work: a point drawn and a parameter changed
    press_key(qtbot, w, KEY.Key_A)
    click_data(qtbot, w.workspace.input_view, 0.4, 1.3)
    wait_idle(qtbot, w)
    width = w.workspace.algorithm_panel.widget("width")
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        width.field.selectAll()
        qtbot.keyClicks(width.field, "0.8")
        qtbot.keyClick(width.field, KEY.Key_Return)
    wait_idle(qtbot, w)
    drawn = w.data.X().copy()
    labels = w.data.y().copy()
    params = dict(w.pictures.main_slot.params)
    result = w.pictures.main_slot.result
    docks = {d.objectName(): d.isVisible() for d in w.workspace.docks()}
    assert any(docks.values())
    font_before = _tick_points(w.workspace.input_view)
    size = w.size()

    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_F5)
    assert w.presenting and w.isFullScreen()
    assert not any(d.isVisible() for d in w.workspace.docks())
    assert not w.toolbar.isVisible() and not w.menuBar().isVisible()
    assert _tick_points(w.workspace.input_view) >= 20 > font_before
    # the first slide is the user's picture, the deck follows
    assert w.presenter.slide_index == 0 and w.pictures.main_slot.params == params
    assert w.presenter.slide_counter.isVisible() and w.presenter.slide_counter.text() == "1 / 4"
    save_and_check(w, "presentation-0")

    _step(qtbot, w, KEY.Key_PageDown, DECK[0])
    assert w.presenter.slide_counter.text() == "2 / 4"
    save_and_check(w, "presentation-1")

    _step(qtbot, w, KEY.Key_PageDown, DECK[1])
    assert w.presenter.slide_counter.text() == "3 / 4"
    panel = w.workspace.compare_view.panels[0]
    assert not panel.combo.isVisible(), "no editing controls on a slide"
    assert _tick_points(panel.view) >= 20
    assert not any(d.isVisible() for d in w.workspace.docks()), (
        "a compare slide keeps the docks away"
    )
    save_and_check(w, "presentation-2")
    _step(qtbot, w, KEY.Key_Space, DECK[2])
    assert w.presenter.slide_counter.text() == "4 / 4"
    press_key(qtbot, w, KEY.Key_PageDown)  # past the end: stays
    assert w.files.preset_name == DECK[2] and w.presenter.slide_index == 3
    _step(qtbot, w, KEY.Key_PageUp, DECK[1])
    _step(qtbot, w, KEY.Key_End, DECK[2])
    _step(qtbot, w, KEY.Key_Left, DECK[1])

    press_key(qtbot, w, KEY.Key_Escape)
    assert not w.presenting and not w.isFullScreen()
    assert {d.objectName(): d.isVisible() for d in w.workspace.docks()} == docks
    assert w.toolbar.isVisible() and w.menuBar().isVisible()
    assert not w.presenter.slide_counter.isVisible()
    assert _tick_points(w.workspace.input_view) == font_before
    plot = w.workspace.input_view.plot
    qtbot.waitUntil(lambda: plot.ci.geometry().width() <= plot.width() + 1, timeout=5_000)
    assert w.pictures.layout_name == "single"
    np.testing.assert_array_equal(w.data.X(), drawn)
    np.testing.assert_array_equal(w.data.y(), labels)
    assert w.pictures.main_slot.params == params
    assert w.pictures.main_slot.result is result, "the user's picture comes back without a refit"
    assert w.workspace.input_view.result is result
    assert w.workspace.algorithm_panel.widget("width").value() == pytest.approx(0.8)
    # (the position depends on the window manager's frame; there is none under Xvfb)
    qtbot.waitUntil(lambda: w.size() == size, timeout=5_000)
    # the undo history is intact: the width typed is the last step, the point the one before
    wait_idle(qtbot, w)
    # the plot has its size again, the picture covers it: no fit follows the view either
    qtbot.wait(3 * w.fit.grid_box.settle.interval())
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result is result, "no slide's fit lands on the user's picture"
    np.testing.assert_array_equal(w.workspace.input_view.result.X, result.X)
    n = w.data.n
    assert w.action_table["undo"].text() == "Undo width c = 0.8"
    press_key(qtbot, w, KEY.Key_Z, CTRL)  # the width typed, then the point drawn before it
    assert w.workspace.algorithm_panel.widget("width").value() != pytest.approx(0.8)
    assert w.data.n == n
    press_key(qtbot, w, KEY.Key_Z, CTRL)
    assert w.data.n == n - 1
    wait_idle(qtbot, w)


def test_view_menu_enters_presentation_and_f5_leaves(window, qtbot):
    w = window
    w.presenter.set_deck(["default"])
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        w.action_table["presentation"].trigger()
    assert w.presenting and w.action_table["presentation"].isChecked()
    press_key(qtbot, w, KEY.Key_F5)
    assert not w.presenting and not w.action_table["presentation"].isChecked()
    assert w.workspace.data_dock.isVisible()
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result is not None and w.is_up_to_date()


def test_the_default_deck_is_the_papers_figures_in_table_order(window):
    deck = window.presenter.deck()
    assert deck == decks.default_deck()
    assert deck[0] == "okpca-invariance" and deck[-1] == "koc-linear-svm"
    assert "default" not in deck and len(deck) == len(decks.PAPER_ORDER) == 17


def test_deck_edit_save_and_load_round_trip(window, qtbot, tmp_path, settings):
    w = window
    dialog = w.presenter.edit_deck()
    assert dialog.names() == decks.default_deck()
    dialog.set_names(["default"])
    dialog.add("koc-iris")
    dialog.add("kfd-sparsity")
    dialog.move(2, -1)  # kfd-sparsity before koc-iris
    dialog.remove_row(0)
    assert dialog.names() == ["kfd-sparsity", "koc-iris"]
    path = tmp_path / "lecture.kfddeck"
    assert dialog.save_to(path)
    dialog.set_names(["default"])
    assert dialog.load_from(path)
    assert dialog.names() == ["kfd-sparsity", "koc-iris"]
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert w.presenter.deck() == ["kfd-sparsity", "koc-iris"], "kept in the settings"
    assert decks.load_deck(path) == ["kfd-sparsity", "koc-iris"]
    bad = tmp_path / "bad.kfddeck"
    bad.write_text('{"format": "kfdviz-deck", "format_version": 1, "presets": ["nope"]}')
    dialog2 = w.presenter.edit_deck()
    assert not dialog2.load_from(bad)
    assert "unknown preset 'nope'" in dialog2.message.text()
    assert dialog2.names() == ["kfd-sparsity", "koc-iris"], "a bad file changes nothing"
    dialog2.set_names([])
    dialog2.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog2.isVisible() and "empty" in dialog2.message.text()
    dialog2.close()


def test_a_slide_has_its_title_a_large_counter_and_no_hover_readout(window, qtbot):
    w = window
    w.presenter.set_deck(["kfd-vs-kpca", "default"])
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_F5)
    _step(qtbot, w, KEY.Key_Right, "kfd-vs-kpca")
    title = w.presenter.slide_title
    assert title.isVisible() and title.text() == presets.get("kfd-vs-kpca").title
    assert title.font().pointSizeF() >= 20
    assert w.presenter.slide_counter.font().pointSizeF() >= 18
    view = w.workspace.input_view
    assert not view.readout.isVisible()
    view._on_mouse_moved(view.viewbox.sceneBoundingRect().center())
    assert view._highlighted is None and view.readout.text().strip() == ""
    press_key(qtbot, w, KEY.Key_Escape)
    assert not title.isVisible() and view.readout.isVisible()
