"""Colours and themes: a colour-blind-safe class palette, colour maps, light and dark themes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

# Okabe & Ito's palette, distinguishable with the common colour-vision deficiencies; the order
# puts the two most distinct hues first (two-class problems are the common case).
CLASS_COLORS = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#7F7F7F",  # grey
)
CLASS_SYMBOLS = ("o", "s", "t", "d", "h", "star", "p", "t1")


def class_color(label_index: int) -> str:
    return CLASS_COLORS[int(label_index) % len(CLASS_COLORS)]


def class_qcolor(label_index: int, alpha: int = 255) -> QColor:
    c = QColor(class_color(label_index))
    c.setAlpha(alpha)
    return c


def class_symbol(label_index: int) -> str:
    return CLASS_SYMBOLS[int(label_index) % len(CLASS_SYMBOLS)]


def _mix(a: str, b: str, t: float) -> tuple[int, int, int]:
    ca, cb = np.array(QColor(a).getRgb()[:3], float), np.array(QColor(b).getRgb()[:3], float)
    return tuple(int(np.rint(v)) for v in (1 - t) * ca + t * cb)


@dataclass(frozen=True)
class Theme:
    name: str
    background: str
    foreground: str
    muted: str
    boundary: str
    contour: str
    point_edge: str
    test_fill: str
    expansion: str
    neutral: str  # middle of the diverging map

    def diverging(self, negative: int = 0, positive: int = 1) -> pg.ColorMap:
        """Class ``negative``'s hue, through a neutral middle, to class ``positive``'s hue.

        Tints, not the full class colours, so that the points on top stay readable.
        """
        lo, hi = class_color(negative), class_color(positive)
        strong = 0.62 if self.name == "light" else 0.55
        colors = [
            _mix(self.neutral, lo, strong),
            _mix(self.neutral, lo, strong * 0.45),
            _mix(self.neutral, self.neutral, 0.0),
            _mix(self.neutral, hi, strong * 0.45),
            _mix(self.neutral, hi, strong),
        ]
        return pg.ColorMap(np.linspace(0, 1, 5), colors, name=f"{self.name}-diverging")

    def novelty(self) -> pg.ColorMap:
        """Outside (novel) dark to inside (typical) light, without the class hues."""
        if self.name == "light":
            colors = ["#8c8f94", "#c9cbce", "#f1f1f1", "#ffffff"]
        else:
            colors = ["#101215", "#22252a", "#3a3f46", "#565c64"]
        rgb = [QColor(c).getRgb()[:3] for c in colors]
        return pg.ColorMap(np.array([0.0, 0.55, 0.85, 1.0]), rgb, name=f"{self.name}-novelty")

    def sequential(self) -> pg.ColorMap:
        """A perceptually ordered light-to-dark (or dark-to-light) map for features."""
        base = pg.colormap.get("cividis")
        colors = base.getLookupTable(0.0, 1.0, 9, alpha=False)
        neutral = np.array(QColor(self.neutral).getRgb()[:3], float)
        # Wash the map towards the background so points and lines keep the contrast.
        washed = 0.45 * colors + 0.55 * neutral
        return pg.ColorMap(np.linspace(0, 1, 9), washed.astype(np.uint8), name=f"{self.name}-seq")


LIGHT = Theme(
    name="light",
    background="#ffffff",
    foreground="#202020",
    muted="#6b6b6b",
    boundary="#000000",
    contour="#3a3a3a",
    point_edge="#1a1a1a",
    test_fill="#ffffff",
    expansion="#000000",
    neutral="#f7f7f7",
)
DARK = Theme(
    name="dark",
    background="#1b1d21",
    foreground="#e4e4e4",
    muted="#9a9a9a",
    boundary="#ffffff",
    contour="#d8d8d8",
    point_edge="#f0f0f0",
    test_fill="#1b1d21",
    expansion="#ffffff",
    neutral="#2a2d33",
)
THEMES = {"light": LIGHT, "dark": DARK}


def apply_theme(theme: Theme, app: QApplication | None = None) -> None:
    """pyqtgraph's defaults and the application's palette (Fusion style) for ``theme``."""
    pg.setConfigOptions(background=theme.background, foreground=theme.foreground)
    app = app or QApplication.instance()
    if app is None:
        return
    app.setStyle("Fusion")
    if theme.name == "light":
        app.setPalette(app.style().standardPalette())
        return
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
    app.setPalette(p)


def error_style() -> str:
    """Style sheet marking a widget whose value is invalid."""
    return "border: 2px solid #D55E00; border-radius: 3px;"
