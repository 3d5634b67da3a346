"""Colours and themes for the views: the class palette, colour maps, light and dark themes.

The colours themselves live in the Qt-free :mod:`kfdviz.figure.palette`, the single source that
exported figures use too, so a class, a value or a theme looks the same in the window and in a
saved figure. This module turns them into Qt colours and pyqtgraph colour maps.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPalette
from PySide6.QtWidgets import QApplication

from ..figure import palette
from ..figure.palette import CLASS_COLORS, CLASS_SYMBOLS, class_color, class_symbol


def class_qcolor(label_index: int, alpha: int = 255) -> QColor:
    c = QColor(class_color(label_index))
    c.setAlpha(alpha)
    return c


def elided_title(text: str, points: float, width_px: float) -> str:
    """``text`` cut with an ellipsis to fit ``width_px`` at ``points``: a pyqtgraph title is as
    wide as its text, and a longer one than its plot widens the scene past the widget's edge."""
    font = QFont()
    font.setPointSizeF(points)
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, max(width_px, 40.0))


def wrapped_title(text: str, points: float, width_px: float, lines: int = 2) -> str:
    """``text`` broken at spaces into at most ``lines`` lines (joined by <br>) that each fit
    ``width_px`` at ``points``; only what does not fit in them is cut with an ellipsis. The
    text itself when it fits on one line."""
    font = QFont()
    font.setPointSizeF(points)
    metrics = QFontMetricsF(font)
    width = max(width_px, 40.0)
    if metrics.horizontalAdvance(text) <= width:
        return text
    rows: list[str] = []
    words = text.split(" ")
    while words and len(rows) < lines - 1:
        row = words.pop(0)
        while words and metrics.horizontalAdvance(f"{row} {words[0]}") <= width:
            row = f"{row} {words.pop(0)}"
        rows.append(row)
    rest = " ".join(words)
    if rest:
        rows.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
    return "<br>".join(rows)


def _colormap(positions, anchors, name: str) -> pg.ColorMap:
    colors = np.clip(np.rint(np.asarray(anchors, dtype=float)), 0, 255).astype(np.uint8)
    return pg.ColorMap(np.asarray(positions, dtype=float), colors, name=name)


class Theme(palette.Theme):
    """A :class:`kfdviz.figure.palette.Theme` with its colour maps for pyqtgraph."""

    def diverging(self, negative: int = 0, positive: int = 1) -> pg.ColorMap:
        """Class ``negative``'s hue, through a neutral middle, to class ``positive``'s hue.

        Tints, not the full class colours, so that the points on top stay readable.
        """
        anchors = self.diverging_anchors(negative, positive)
        return _colormap(np.linspace(0, 1, len(anchors)), anchors, f"{self.name}-diverging")

    def novelty(self) -> pg.ColorMap:
        """Outside (novel) dark to inside (typical) light, without the class hues."""
        positions, anchors = self.novelty_anchors()
        return _colormap(positions, anchors, f"{self.name}-novelty")

    def sequential(self) -> pg.ColorMap:
        """A perceptually ordered map (cividis washed towards the background) for features."""
        anchors = self.sequential_anchors()
        return _colormap(np.linspace(0, 1, len(anchors)), anchors, f"{self.name}-seq")


LIGHT = Theme(**asdict(palette.LIGHT))
DARK = Theme(**asdict(palette.DARK))
THEMES = {"light": LIGHT, "dark": DARK}


def apply_theme(theme: Theme, app: QApplication | None = None) -> None:
    """pyqtgraph's defaults and the application's palette (Fusion style) for ``theme``."""
    pg.setConfigOptions(background=theme.background, foreground=theme.foreground)
    app = app or QApplication.instance()
    if app is None:
        return
    app.setStyle("Fusion")
    app.setPalette(_palette(theme, app))


def _palette(theme: Theme, app: QApplication) -> QPalette:
    if theme.name == "light":
        return app.style().standardPalette()
    p = QPalette()
    window, base, text = QColor("#2b2e33"), QColor("#1f2125"), QColor("#e4e4e4")
    p.setColor(QPalette.ColorRole.Window, window)
    p.setColor(QPalette.ColorRole.WindowText, text)
    p.setColor(QPalette.ColorRole.Base, base)
    p.setColor(QPalette.ColorRole.AlternateBase, window)
    p.setColor(QPalette.ColorRole.ToolTipBase, QColor("#3a3d43"))
    p.setColor(QPalette.ColorRole.ToolTipText, text)
    p.setColor(QPalette.ColorRole.Text, text)
    p.setColor(QPalette.ColorRole.Button, window)
    p.setColor(QPalette.ColorRole.ButtonText, text)
    p.setColor(QPalette.ColorRole.BrightText, QColor("#ff6b6b"))
    p.setColor(QPalette.ColorRole.Highlight, QColor("#3d7cc9"))
    p.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    p.setColor(QPalette.ColorRole.Link, QColor("#6cb4ff"))
    p.setColor(QPalette.ColorRole.PlaceholderText, QColor("#8a8a8a"))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7a7a7a"))
    return p


def error_style() -> str:
    """Style sheet marking a widget whose value is invalid."""
    return "border: 2px solid #D55E00; border-radius: 3px;"


__all__ = [
    "CLASS_COLORS",
    "CLASS_SYMBOLS",
    "DARK",
    "LIGHT",
    "THEMES",
    "Theme",
    "apply_theme",
    "class_color",
    "class_qcolor",
    "class_symbol",
    "elided_title",
    "error_style",
    "wrapped_title",
]
