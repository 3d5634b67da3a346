"""An error-bar panel: values with ± bars over named categories, several series side by side.

The panel's ``result`` is an :class:`ErrorBarData` (Qt-free, so a plan can be built anywhere);
:func:`paint_errorbars` draws it with the painter's canvas, axes and palette. Each series gets
its colour and marker and is offset a little within a category, so that ours and a paper's value
for the same data set stand next to each other; a NaN value is skipped, a NaN error drawn without
a bar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import palette


@dataclass(frozen=True)
class ErrorBarSeries:
    label: str
    values: tuple[float, ...]  # one per category; NaN: no value
    errors: tuple[float, ...]  # half-length of the bar; NaN: no bar


@dataclass(frozen=True)
class ErrorBarData:
    categories: tuple[str, ...]
    series: tuple[ErrorBarSeries, ...]
    ylabel: str = ""

    def __post_init__(self):
        for s in self.series:
            if len(s.values) != len(self.categories) or len(s.errors) != len(self.categories):
                raise ValueError(
                    f"series {s.label!r} has {len(s.values)} values and {len(s.errors)} errors "
                    f"for {len(self.categories)} categories"
                )

    def value_range(self) -> tuple[float, float]:
        lows, highs = [], []
        for s in self.series:
            v, e = np.asarray(s.values, float), np.nan_to_num(np.asarray(s.errors, float))
            ok = np.isfinite(v)
            if ok.any():
                lows.append(float(np.min(v[ok] - e[ok])))
                highs.append(float(np.max(v[ok] + e[ok])))
        if not lows:
            return 0.0, 1.0
        lo, hi = min(lows), max(highs)
        pad = 0.08 * (hi - lo) if hi > lo else max(abs(hi), 1.0) * 0.1
        return lo - pad, hi + pad


def paint_errorbars(c, panel, cell, inner):
    """Draw ``panel.result`` (an ErrorBarData) into ``inner``; the panel's geometry."""
    # Qt and the Qt-based canvas load only to paint: the data classes above serve Qt-free plans.
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QBrush, QPainterPath

    from .axes import _plot_rect, tick_label, ticks
    from .canvas import PanelGeometry, Transform, _symbol_path

    data: ErrorBarData = panel.result
    qp, theme = c.qp, c.theme
    n = len(data.categories)
    label_font = c.font(7.0)
    widest = max((c.text_width(t, label_font) for t in data.categories), default=0.0)
    # category names slanted under the axis: room for them below the plot
    below = widest * math.sin(math.radians(35)) + c.pt(8)
    rect = _plot_rect(c, QRectF(inner.left(), inner.top(), inner.width(), inner.height() - below))
    lo, hi = data.value_range()
    t = Transform(-0.5, n - 0.5, lo, hi, rect)

    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.7))
    frame = QPainterPath()
    frame.addRect(rect)
    qp.drawPath(frame)
    yt = ticks(lo, hi, max(3, int(rect.height() / c.pt(32))))
    step = float(yt[1] - yt[0]) if len(yt) > 1 else None
    tick = c.pt(3)
    grid = QPainterPath()
    axis = QPainterPath()
    for y in yt:
        _, v = t.px(0.0, y)
        v = float(v)
        if rect.top() - 0.5 <= v <= rect.bottom() + 0.5:
            axis.moveTo(rect.left(), v)
            axis.lineTo(rect.left() - tick, v)
            grid.moveTo(rect.left(), v)
            grid.lineTo(rect.right(), v)
            c.text(
                rect.left() - tick - c.pt(2),
                v,
                tick_label(float(y), step),
                c.font(7.5),
                align="right",
                valign="center",
            )
    qp.setPen(c.pen(theme.muted, 0.3, alpha=0.5))
    qp.drawPath(grid)
    qp.setPen(c.pen(theme.foreground, 0.7))
    qp.drawPath(axis)
    for i, name in enumerate(data.categories):
        u, _ = t.px(float(i), lo)
        c.text(
            float(u),
            rect.bottom() + tick + c.pt(2),
            name,
            label_font,
            align="right",
            valign="center",
            rotate=-35.0,
        )
    if data.ylabel:
        c.text(
            rect.left() - c.pt(30),
            rect.center().y(),
            data.ylabel,
            c.font(8.5),
            align="center",
            valign="bottom",
            rotate=-90.0,
        )

    k = len(data.series)
    spread = min(0.6, 0.18 * k)
    marker = c.pt(5.0)
    for j, s in enumerate(data.series):
        col = palette.class_color(j)
        shift = (j - (k - 1) / 2) * (spread / max(k - 1, 1)) if k > 1 else 0.0
        for i, (value, err) in enumerate(zip(s.values, s.errors, strict=True)):
            if not math.isfinite(value):
                continue
            u, v = t.px(i + shift, value)
            u, v = float(u), float(v)
            if math.isfinite(err) and err > 0:
                _, v_lo = t.px(0.0, value - err)
                _, v_hi = t.px(0.0, value + err)
                bar = QPainterPath()
                bar.moveTo(u, float(v_lo))
                bar.lineTo(u, float(v_hi))
                for end in (float(v_lo), float(v_hi)):
                    bar.moveTo(u - 0.35 * marker, end)
                    bar.lineTo(u + 0.35 * marker, end)
                qp.setBrush(Qt.BrushStyle.NoBrush)
                qp.setPen(c.pen(col, 1.0))
                qp.drawPath(bar)
            m = _symbol_path(palette.class_symbol(j), marker)
            m.translate(u, v)
            qp.setBrush(QBrush(c.color(col)))
            qp.setPen(c.pen(theme.point_edge, 0.4))
            qp.drawPath(m)
    # legend, top right inside the plot
    y = rect.top() + c.pt(6)
    for j, s in enumerate(data.series):
        w = c.text_width(s.label, label_font)
        x = rect.right() - w - c.pt(6)
        m = _symbol_path(palette.class_symbol(j), marker)
        m.translate(x - c.pt(6), y)
        qp.setBrush(QBrush(c.color(palette.class_color(j))))
        qp.setPen(c.pen(theme.point_edge, 0.4))
        qp.drawPath(m)
        c.text(x, y, s.label, label_font, valign="center")
        y += c.text_height(label_font) + c.pt(1)
    return PanelGeometry("errorbars", cell, rect, t)
