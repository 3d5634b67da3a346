"""Figure panels that are not one fit's picture: curves and images a paper's figure computes.

Some figures plot something other than a fitted feature: the loss functions and their densities
(NIPS 2001, Fig. 1), ROC curves and the area under them against a parameter, or a row of the
most unusual images. A :class:`Chart` describes such a panel as plain data; a chart *builder*,
registered under a name with :func:`chart`, computes its charts from a session's data. A
session (or preset) asks for them by name in its view settings, ``{"charts": ["name", ...]}``,
and ``{"charts_only": true}`` leaves its fits out of the exported figure. The window draws the
same Chart objects under its pictures (:mod:`kfdviz.app.chart_control`). No Qt here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .pipeline.request import as_check

STYLES = ("solid", "dashed", "dotted")


@dataclass(frozen=True, eq=False)
class Series:
    """One line: ``y`` against ``x``, drawn in ``style`` with the colour of index ``color``."""

    label: str
    x: np.ndarray
    y: np.ndarray
    style: str = "solid"
    color: int = 0
    markers: bool = False

    def __post_init__(self):
        if self.style not in STYLES:
            raise ValueError(f"series {self.label!r}: style must be one of {STYLES}")
        x = np.asarray(self.x, dtype=float)
        y = np.asarray(self.y, dtype=float)
        if x.shape != y.shape or x.ndim != 1:
            raise ValueError(f"series {self.label!r}: x and y must be 1-D of one length")
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


@dataclass(frozen=True, eq=False)
class Chart:
    """A panel of lines (``kind="lines"``) or of small grey images (``kind="images"``)."""

    kind: str
    title: str = ""
    caption: str = ""
    measures: str = ""
    series: tuple[Series, ...] = ()
    xlabel: str = ""
    ylabel: str = ""
    log_x: bool = False
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    images: tuple[np.ndarray, ...] = ()
    image_labels: tuple[str, ...] = ()
    legend: bool = True
    legend_at: str = "top-left"  # or "bottom-right", where no curve goes
    extra: dict = field(default_factory=dict)  # numbers the builder measured, for tests

    def __post_init__(self):
        if self.kind not in ("lines", "images"):
            raise ValueError(f"chart kind must be 'lines' or 'images', not {self.kind!r}")
        if (
            self.kind == "images"
            and self.image_labels
            and len(self.image_labels) != len(self.images)
        ):
            raise ValueError("a chart of images needs one label per image, or none")


Builder = Callable[..., list[Chart]]
CHARTS: dict[str, Builder] = {}


def chart(name: str):
    """Register ``func(X, y, test_mask) -> list[Chart]`` as the chart builder ``name``."""

    def register(func: Builder) -> Builder:
        if name in CHARTS:
            raise ValueError(f"a chart builder named {name!r} is already registered")
        CHARTS[name] = func
        return func

    return register


def chart_names(state) -> list[str]:
    """The chart builders a session's view settings ask for (unknown names: ValueError)."""
    return requested_charts(state.view_settings)


def requested_charts(view_settings) -> list[str]:
    """The chart builders the view settings ``{"charts": [...]}`` ask for, in order (none: [];
    unknown names: ValueError)."""
    names = (view_settings or {}).get("charts") or []
    if isinstance(names, str):
        names = [names]
    unknown = [n for n in names if n not in CHARTS]
    if unknown:
        raise ValueError(
            f"unknown chart(s) {', '.join(map(repr, unknown))}: choose from {', '.join(CHARTS)}"
        )
    return list(names)


def compute_charts(state) -> list[Chart]:
    """Every chart the session asks for, in order, computed from its data (the builders are
    registered by the preset modules, loaded with :mod:`kfdviz.presets`)."""
    return build_charts(chart_names(state), state.X, state.y, state.test_mask)


def build_charts(names, X, y, test_mask, *, cancel=None, progress=None) -> list[Chart]:
    """The charts of the builders ``names``, in order, from the data ``X``, ``y``,
    ``test_mask``. ``cancel`` (a callable or a cancel token) is checked before each builder
    (``FitCancelled`` once it is set); ``progress(fraction, message)`` hears of each."""

    check = as_check(cancel)
    names = list(names)
    out: list[Chart] = []
    for k, name in enumerate(names):
        check()
        if progress is not None:
            progress(k / len(names), f"Computing the charts: {name}")
        out.extend(CHARTS[name](X, y, test_mask))
    check()
    return out


__all__ = [
    "CHARTS",
    "Chart",
    "Series",
    "build_charts",
    "chart",
    "chart_names",
    "compute_charts",
    "requested_charts",
]
