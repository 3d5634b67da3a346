"""Colours for figures, without Qt: the class palette, themes and colour maps as numpy tables.

The same Okabe & Ito class palette and the same diverging and sequential maps as the app's views
(``kfdviz.views.style``), written out as plain numbers so that headless export, the tests and the
views agree on what a class or a value looks like.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
# Marker shapes per class, in pyqtgraph's names (o circle, s square, t triangle down, d diamond,
# h hexagon, star, p pentagon, t1 triangle up).
CLASS_SYMBOLS = ("o", "s", "t", "d", "h", "star", "p", "t1")

# cividis (Nuñez, Anderton & Renslow 2018) at nine evenly spaced points.
_CIVIDIS = np.array(
    [
        [0, 32, 77],
        [5, 54, 110],
        [64, 77, 107],
        [96, 100, 111],
        [124, 123, 120],
        [155, 148, 119],
        [188, 175, 111],
        [224, 203, 93],
        [255, 234, 70],
    ],
    dtype=float,
)


def rgb(hex_color: str) -> np.ndarray:
    """'#RRGGBB' -> array([r, g, b]) as floats 0..255."""
    h = hex_color.lstrip("#")
    return np.array([int(h[i : i + 2], 16) for i in (0, 2, 4)], dtype=float)


def class_color(index: int) -> str:
    return CLASS_COLORS[int(index) % len(CLASS_COLORS)]


def class_symbol(index: int) -> str:
    return CLASS_SYMBOLS[int(index) % len(CLASS_SYMBOLS)]


def class_name(label) -> str:
    """A class as the app names it: integer labels count from 1 ("class 1" for label 0), as the
    class buttons and keys do; a named label ("benign") is its name."""
    value = label.item() if isinstance(label, np.generic) else label
    if isinstance(value, bool):
        return f"class {value}"
    if isinstance(value, int | float) and float(value).is_integer():
        return f"class {int(value) + 1}"
    return str(value)


def _mix(a: str, b: str, t: float) -> np.ndarray:
    return (1.0 - t) * rgb(a) + t * rgb(b)


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

    def diverging_anchors(self, negative: int = 0, positive: int = 1) -> np.ndarray:
        """Five colours: class ``negative``'s tint, through the neutral middle, to ``positive``'s.

        Tints, not the full class colours, so that the points drawn on top stay readable.
        """
        lo, hi = class_color(negative), class_color(positive)
        strong = 0.62 if self.name == "light" else 0.55
        return np.array(
            [
                _mix(self.neutral, lo, strong),
                _mix(self.neutral, lo, strong * 0.45),
                rgb(self.neutral),
                _mix(self.neutral, hi, strong * 0.45),
                _mix(self.neutral, hi, strong),
            ]
        )

    def novelty_anchors(self) -> tuple[np.ndarray, np.ndarray]:
        """(positions, colours): outside (novel) dark to inside (typical) light, no class hues."""
        if self.name == "light":
            colors = ["#8c8f94", "#c9cbce", "#f1f1f1", "#ffffff"]
        else:
            colors = ["#101215", "#22252a", "#3a3f46", "#565c64"]
        return np.array([0.0, 0.55, 0.85, 1.0]), np.array([rgb(c) for c in colors])

    def sequential_anchors(self) -> np.ndarray:
        """cividis washed towards the background, so points and lines keep their contrast."""
        return 0.45 * _CIVIDIS + 0.55 * rgb(self.neutral)


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
    # Light, as in the light theme: a dark fill reads as a black marker, not a hollow one.
    test_fill="#ececec",
    expansion="#ffffff",
    neutral="#2a2d33",
)
THEMES = {"light": LIGHT, "dark": DARK}


def theme(name: str) -> Theme:
    return THEMES.get(name, LIGHT)


def lookup_table(anchors: np.ndarray, n: int = 256, positions=None) -> np.ndarray:
    """(n, 3) uint8 colours interpolated linearly between anchors (evenly spaced by default)."""
    anchors = np.asarray(anchors, dtype=float)
    pos = (
        np.linspace(0.0, 1.0, anchors.shape[0])
        if positions is None
        else np.asarray(positions, dtype=float)
    )
    t = np.linspace(0.0, 1.0, n)
    out = np.column_stack([np.interp(t, pos, anchors[:, c]) for c in range(3)])
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def colorize(values: np.ndarray, low: float, high: float, lut: np.ndarray) -> np.ndarray:
    """RGBA uint8 image (same shape + (4,)) of ``values`` on [low, high]; NaN is transparent."""
    v = np.asarray(values, dtype=float)
    span = high - low if high > low else 1.0
    t = np.clip((v - low) / span, 0.0, 1.0)
    finite = np.isfinite(t)
    idx = np.zeros(v.shape, dtype=np.intp)
    idx[finite] = np.rint(t[finite] * (lut.shape[0] - 1)).astype(np.intp)
    out = np.empty((*v.shape, 4), dtype=np.uint8)
    out[..., :3] = lut[idx]
    out[..., 3] = np.where(finite, 255, 0)
    return out


__all__ = [
    "CLASS_COLORS",
    "CLASS_SYMBOLS",
    "DARK",
    "LIGHT",
    "THEMES",
    "Theme",
    "class_color",
    "class_symbol",
    "colorize",
    "lookup_table",
    "rgb",
    "theme",
]
