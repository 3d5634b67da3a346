"""What a lecturer's clicker does: B and . black the screen, W whites it, any key brings the
slide back; no hover marker on a slide; the window's exact geometry back afterwards; the next
slide's pictures computed while the current one is shown."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import press_key, save_and_check
from PySide6.QtCore import QPointF, Qt

pytestmark = pytest.mark.gui

KEY = Qt.Key


def _present(qtbot, w, deck):
    w.presenter.set_deck(deck)
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_F5)
    assert w.presenting


@pytest.mark.parametrize(
    ("key", "colour"), [(KEY.Key_B, 0), (KEY.Key_Period, 0), (KEY.Key_W, 255)], ids="B.W"
)
def test_clicker_keys_blank_the_screen_and_any_key_returns(window, qtbot, key, colour):
    w = window
    _present(qtbot, w, ["kfd-vs-kpca"])
    press_key(qtbot, w, key)
    blank = w.presenter.blank
    assert blank.isVisible() and blank.geometry() == w.rect()
    pixels = save_and_check(w, f"presentation-blank-{colour}")
    assert np.all(pixels == colour), "the whole window is one colour: no slide, no counter"
    assert w.presenter.slide_index == 0
    press_key(qtbot, w, KEY.Key_Right)  # any key: the slide comes back, and does not step
    assert not blank.isVisible() and w.presenting and w.presenter.slide_index == 0
    press_key(qtbot, w, key)
    press_key(qtbot, w, KEY.Key_Escape)  # Esc too only brings the slide back
    assert not blank.isVisible() and w.presenting
    press_key(qtbot, w, KEY.Key_Escape)
    assert not w.presenting


def test_no_hover_marker_on_a_compare_slide(window, qtbot):
    w = window
    _present(qtbot, w, ["kfd-vs-kpca"])
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    assert w.pictures.layout_name == "compare"
    for panel in w.workspace.compare_panels():
        view = panel.view
        if not view.isVisible() or view._points.shape[0] == 0:
            continue
        x, y = view._points[0]
        view._on_mouse_moved(view.viewbox.mapViewToScene(QPointF(float(x), float(y))))
        assert view._highlighted is None, "no circle follows the pointer on a slide"
        assert not view.readout.isVisible()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 700)])
def test_leaving_gives_back_the_exact_geometry(window, qtbot, size):
    w = window
    w.resize(*size)
    qtbot.waitUntil(lambda: (w.width(), w.height()) == size, timeout=5_000)
    geometry = w.geometry()
    _present(qtbot, w, ["default"])
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    press_key(qtbot, w, KEY.Key_Escape)
    qtbot.waitUntil(lambda: w.geometry() == geometry, timeout=5_000)
    qtbot.wait(300)  # nothing resizes it afterwards
    assert w.geometry() == geometry


def test_the_next_slide_is_computed_while_the_current_one_is_shown(window, qtbot):
    w = window
    _present(qtbot, w, ["novelty-spiral", "default"])
    prefetch = w.presenter.prefetch
    qtbot.waitUntil(lambda: prefetch.ready(1), timeout=60_000)
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    assert w.files.preset_name == "novelty-spiral"
    result = w.pictures.main_slot.result
    assert result is not None and prefetch.served >= 1, "the slide was drawn from the prefetch"
    assert w.workspace.input_view.result is result


def test_a_compare_slide_after_a_compare_slide_is_computed_ahead(window, qtbot):
    """Slides of the same layout share their plots' shape: the next one's fits (a polynomial
    kernel's panels, whose width the window leaves out of its requests) are ready at once."""
    w = window
    _present(qtbot, w, ["okpca-invariance", "kfd-vs-kpca"])
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    prefetch = w.presenter.prefetch
    qtbot.waitUntil(lambda: prefetch.ready(2), timeout=60_000)
    served = prefetch.served
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        press_key(qtbot, w, KEY.Key_Right)
    assert w.files.preset_name == "kfd-vs-kpca"
    names = w.pictures.layout_slot_names()
    assert prefetch.served - served == len(names) == 3
    for name in names:
        slot = w.pictures.slot(name)
        assert slot.result is not None and slot.result.slot == name
