"""Painting a :class:`kfdviz.charts.Chart`: lines on axes, or a grid of small grey images.

The figure painter (:mod:`kfdviz.figure.paint`) hands a ``"chart"`` panel here; the axes,
transform and legend swatches are the painter's own, so a chart looks like the other panels.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QImage, QPainterPath

from . import palette
from .axes import _legend_swatch, _paint_axes, _plot_rect, x_title_lines
from .canvas import PanelGeometry, Transform

_PEN_STYLES = {
    "solid": Qt.PenStyle.SolidLine,
    "dashed": Qt.PenStyle.DashLine,
    "dotted": Qt.PenStyle.DotLine,
}


def image_grid_shape(n: int) -> tuple[int, int]:
    """(rows, columns) for ``n`` images: one row up to five, else two rows."""
    if n <= 5:
        return 1, max(n, 1)
    return 2, math.ceil(n / 2)


def chart_aspect(chart) -> float:
    """Width / height of a chart's plot area."""
    if chart is not None and chart.kind == "images" and chart.images:
        rows, cols = image_grid_shape(len(chart.images))
        h, w = chart.images[0].shape
        return cols * w / (rows * h * 1.25)  # room for a label under each image
    return 1.45


def paint_chart(c, panel, cell: QRectF, inner: QRectF, *, legend: bool = True) -> PanelGeometry:
    """``legend`` False: the chart's legend is the figure's (see :func:`legend_fits`)."""
    chart = panel.chart
    if chart.kind == "images":
        return _paint_images(c, chart, cell, inner)
    return _paint_lines(c, chart, cell, inner, legend=legend)


def _limits(values: list[np.ndarray], fixed, pad: float, log: bool = False):
    if fixed is not None:
        return float(fixed[0]), float(fixed[1])
    v = np.concatenate([a[np.isfinite(a)] for a in values] or [np.zeros(1)])
    if log:
        v = v[v > 0]
    if v.size == 0:
        return (0.1, 10.0) if log else (0.0, 1.0)
    lo, hi = float(v.min()), float(v.max())
    if log:
        return lo / 1.3, hi * 1.3
    span = hi - lo if hi > lo else max(abs(hi), 1.0)
    return lo - pad * span, hi + pad * span


def legend_entries(chart) -> list:
    """The chart's series that have a label (a legend entry)."""
    return [s for s in chart.series if s.label] if chart.kind == "lines" and chart.legend else []


def _chart_rect(c, chart, inner: QRectF) -> QRectF:
    """The plot of a chart of lines in ``inner``, leaving room for its x title's lines."""
    below = _x_title_extra(c, chart.xlabel, inner.width())
    return _plot_rect(c, inner, below=below / c.pt(1))


def legend_fits(c, chart, inner: QRectF) -> bool:
    """Whether the chart's legend fits in a corner of its plot (else the figure's legend row
    holds it)."""
    return _fits_inside(c, legend_entries(chart), _chart_rect(c, chart, inner))


def _paint_entry(c, s, x: float, y: float, width: float) -> None:
    """One legend entry, its line's swatch from ``x`` and its label after it, at height ``y``."""
    qp = c.qp
    xx = x + c.pt(18)
    col = palette.class_color(s.color)
    if s.style == "dotted":
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(col, 1.3, style=Qt.PenStyle.DotLine))
        path = QPainterPath()
        path.moveTo(xx - c.pt(13), y)
        path.lineTo(xx - c.pt(3), y)
        qp.drawPath(path)
    else:
        kind = "line" if s.style == "solid" else "dash"
        _legend_swatch(c, kind, col, QPointF(xx - c.pt(8), y))
    font = c.fitted_font(s.label, 7.0, max(width - c.pt(18), c.pt(10)))
    c.text(xx, y, s.label, font, valign="center")


def _paint_lines(c, chart, cell: QRectF, inner: QRectF, *, legend: bool = True) -> PanelGeometry:
    """The curves on their axes, and with ``legend`` their legend in a corner of the plot."""
    qp = c.qp
    xs = [s.x for s in chart.series]
    ys = [s.y for s in chart.series]
    x0, x1 = _limits(xs, chart.xlim, 0.0, chart.log_x)
    y0, y1 = _limits(ys, chart.ylim, 0.06)
    font = c.font(7.0)
    line_h = c.text_height(font) + c.pt(1)
    entries = legend_entries(chart) if legend else []
    # The x title's lines after its first (as the axes painter wraps it) go under the axis.
    rect = _chart_rect(c, chart, inner)
    t = Transform(x0, x1, y0, y1, rect, log_x=chart.log_x)
    qp.save()
    qp.setClipRect(rect)
    for s in chart.series:
        col = palette.class_color(s.color)
        u, v = t.px(s.x, s.y)
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(col, 1.4, style=_PEN_STYLES[s.style]))
        qp.drawPath(c.polyline_path(u, v, rect))
        if s.markers:
            path = QPainterPath()
            for a, b in zip(u, v, strict=True):
                if math.isfinite(a) and math.isfinite(b):
                    path.addEllipse(QPointF(float(a), float(b)), c.pt(1.8), c.pt(1.8))
            qp.setPen(c.pen(col, 0.8))
            qp.drawPath(path)
    qp.restore()
    # Axis titles wrap or shrink to the plot's size (the axes painter fits them).
    _paint_axes(
        c,
        t,
        chart.xlabel,
        chart.ylabel,
        log_x=chart.log_x,
        title_span=(inner.left(), inner.right()),
    )
    if entries:
        height = line_h * len(entries) + c.pt(4)
        width = min(c.pt(22) + max(c.text_width(s.label, font) for s in entries), rect.width())
        if chart.legend_at == "bottom-right":
            box = QRectF(
                rect.right() - width - c.pt(4), rect.bottom() - height - c.pt(4), width, height
            )
        else:
            box = QRectF(rect.left() + c.pt(4), rect.top() + c.pt(4), width, height)
        qp.setPen(c.pen(c.theme.muted, 0.4))
        qp.setBrush(QBrush(c.color(c.theme.background, 0.85)))
        qp.drawRect(box)
        yy = box.top() + c.pt(2) + 0.5 * line_h
        for s in entries:
            _paint_entry(c, s, box.left(), yy, box.right() - box.left())
            yy += line_h
    return PanelGeometry("chart", cell, rect, t)


def _x_title_extra(c, title: str, width: float) -> float:
    """The height of the x title's lines after its first, as :func:`_paint_axes` sets it
    across ``width`` pixels (the panel's; the nominal room under a plot holds one line)."""
    if not title:
        return 0.0
    font, lines = x_title_lines(c, title, max(width, c.pt(40)))
    return (len(lines) - 1) * c.text_height(font)


def _fits_inside(c, entries, rect: QRectF) -> bool:
    """Whether a legend of ``entries`` fits in a corner of the plot ``rect`` without covering
    much of it: at most 60 % of its height and the width of its longest label."""
    if not entries:
        return False
    font = c.font(7.0)
    height = (c.text_height(font) + c.pt(1)) * len(entries) + c.pt(4)
    width = c.pt(22) + max(c.text_width(s.label, font) for s in entries)
    return height < 0.6 * rect.height() and width <= rect.width() - c.pt(8)


def _paint_images(c, chart, cell: QRectF, inner: QRectF) -> PanelGeometry:
    qp = c.qp
    n = len(chart.images)
    rows, cols = image_grid_shape(n)
    aspect = chart_aspect(chart)
    w = min(inner.width(), inner.height() * aspect)
    h = w / aspect
    area = QRectF(inner.center().x() - w / 2, inner.top() + c.pt(2), w, h)
    slot_w, slot_h = area.width() / cols, area.height() / rows
    font = c.font(7.0)
    label_h = c.text_height(font) + c.pt(2)
    lo = min(float(np.min(im)) for im in chart.images)
    hi = max(float(np.max(im)) for im in chart.images)
    # Ink dark on white, as digits are printed.
    lut = palette.lookup_table(np.array([[255, 255, 255], [0, 0, 0]], dtype=float), 256)
    for k, im in enumerate(chart.images):
        r, col = divmod(k, cols)
        slot = QRectF(area.left() + col * slot_w, area.top() + r * slot_h, slot_w, slot_h)
        side = min(slot.width() - c.pt(4), slot.height() - label_h - c.pt(2))
        box = QRectF(slot.center().x() - side / 2, slot.top() + c.pt(1), side, side)
        rgba = np.ascontiguousarray(palette.colorize(np.asarray(im, float), lo, hi, lut))
        hh, ww = rgba.shape[:2]
        img = QImage(rgba.data, ww, hh, 4 * ww, QImage.Format.Format_RGBA8888).copy()
        qp.save()
        qp.setRenderHint(qp.RenderHint.SmoothPixmapTransform, False)
        qp.drawImage(box, img)
        qp.restore()
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(c.theme.foreground, 0.5))
        frame = QPainterPath()
        frame.addRect(box)
        qp.drawPath(frame)
        if chart.image_labels:
            label = chart.image_labels[k]
            if c.text_width(label, font) > slot.width():
                label = label.split("= ")[-1]  # "p = 0.43" -> "0.43" where it is narrow
            c.text(
                box.center().x(),
                box.bottom() + c.pt(1.5),
                label,
                c.fitted_font(label, 7.0, slot.width()),
                align="center",
                valign="top",
            )
    return PanelGeometry("chart", cell, area, None)


__all__ = ["chart_aspect", "image_grid_shape", "legend_entries", "legend_fits", "paint_chart"]
