"""Switching themes repaints everything in the new theme's colours."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QColor

from kfdviz import datasets
from kfdviz.app.data_panel import DataPanel
from kfdviz.views import DARK, LIGHT, InputSpaceView
from kfdviz.views.style import apply_theme

pytestmark = pytest.mark.gui


def _lightness(widget) -> float:
    image = widget.grab().toImage()
    return image.pixelColor(3, image.height() // 2).lightnessF()


def test_styled_buttons_follow_the_theme_both_ways(qtbot):
    panel = DataPanel([], [])
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    button = panel.class_buttons[1]  # unchecked, its background from the palette
    try:
        apply_theme(LIGHT)
        light = _lightness(button)
        apply_theme(DARK)
        qtbot.wait(10)
        dark = _lightness(button)
        apply_theme(LIGHT)
        qtbot.wait(10)
        again = _lightness(button)
    finally:
        apply_theme(LIGHT)
    assert dark < 0.4 < light
    assert again == pytest.approx(light, abs=0.02)


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_test_markers_look_hollow_in_every_theme(qtbot, theme):
    X, y = datasets.make("moons", n_samples=30, noise=0.1, seed=0)
    view = InputSpaceView(theme=theme)
    qtbot.addWidget(view)
    view.set_points(X, y, np.arange(30) % 3 == 0)
    brush = view._scatter((0, True)).opts["brush"].color()
    # A hollow marker is light inside, whatever the background: a dark one reads as black.
    assert QColor(brush).lightnessF() > 0.85
