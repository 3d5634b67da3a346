"""A panel of the input plane: the feature as an image, its level sets and labels, the decision
boundary, tangents, points, expansion points, and its colour bar (beside or below)."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QImage,
    QPainterPath,
)

from . import palette
from .axes import (
    _colorbar_room,
    _paint_axes,
    _plot_rect,
    _points,
    _spaced_ticks,
    _superscript,
    marker_pt,
    tick_label,
)
from .canvas import (
    BOTTOM_PT,
    COLORBAR_BELOW_PT,
    COLORBAR_GAP_PT,
    COLORBAR_WIDTH_PT,
    LABELLED_MAP_PT,
    PanelGeometry,
    Transform,
    _Canvas,
)
from .plan import PanelPlan


def _value_image(values: np.ndarray, lo: float, hi: float, lut: np.ndarray) -> QImage:
    """The grid as an RGBA image, top row = highest y (grid row 0 is the lowest y)."""
    rgba = palette.colorize(values[::-1], lo, hi, lut)
    rgba = np.ascontiguousarray(rgba)
    h, w = rgba.shape[:2]
    img = QImage(rgba.data, w, h, 4 * w, QImage.Format.Format_RGBA8888)
    return img.copy()  # own the pixels: the numpy buffer goes away


def _colormap(result, theme) -> np.ndarray:
    """The app's maps: grey for novelty, class hues for decisions, cividis for features."""
    grid = result.grid
    if result.kind == "novelty":
        positions, colors = theme.novelty_anchors()
        return palette.lookup_table(colors, 256, positions)
    if grid.diverging:
        return palette.lookup_table(theme.diverging_anchors(0, 1), 256)
    return palette.lookup_table(theme.sequential_anchors(), 256)


def _format_level(level: float, span: float) -> str:
    if level == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(max(span, 1e-300))))
    text = f"{level:.{min(digits, 6)}f}".rstrip("0").rstrip(".")
    return (text or "0").replace("-", "−")


def _paint_input(
    c: _Canvas,
    panel: PanelPlan,
    cell: QRectF,
    inner: QRectF,
    settings: dict,
    *,
    ylabels: bool = True,
    bar_room: float | None = None,
) -> PanelGeometry:
    """``bar_room``: the colour bar's room beside the plot, the same for every panel of a row
    that shares a y axis (the plots then have one size, and the bar stays beside them)."""
    r = panel.result
    grid = r.grid
    qp, theme = c.qp, c.theme
    x0, x1, y0, y1 = grid.box
    show_bar = bool(settings.get("show_colorbar", True))
    aspect = (x1 - x0) / (y1 - y0)
    lo, hi = grid.color_range
    bar_label = _bar_label(r)
    rect = _plot_rect(
        c,
        inner,
        aspect=aspect,
        ylabel=ylabels,
        yrange=(y0, y1),
        right_px=(bar_room or _colorbar_room(c, lo, hi, bar_label)) if show_bar else None,
    )
    bar_below = False
    if show_bar and bar_room is None:
        # Below the plot when that leaves the larger picture (narrow panels of a column figure).
        below = COLORBAR_BELOW_PT + (9.0 if bar_label else 0.0)
        under = _plot_rect(c, inner, aspect=aspect, ylabel=ylabels, yrange=(y0, y1), below=below)
        if under.width() * under.height() > 1.15 * rect.width() * rect.height():
            rect, bar_below = under, True
    t = Transform(x0, x1, y0, y1, rect)
    lut = _colormap(r, theme)
    qp.drawImage(rect, _value_image(grid.values, lo, hi, lut))

    n_paths = 0
    span = abs(hi - lo)
    level_labels = []
    if settings.get("show_contours", True):
        qp.setBrush(Qt.BrushStyle.NoBrush)
        for line in grid.contours:
            if grid.boundary is not None and grid.diverging and line.level == 0.0:
                continue  # the boundary itself is drawn thicker
            if line.path.shape[0] == 0:
                continue
            u, v = t.px(line.path[:, 0], line.path[:, 1])
            qp.setPen(c.pen(theme.contour, 0.55, alpha=0.9))
            qp.drawPath(c.polyline_path(u, v))
            n_paths += 1
            if line.label_at is not None and rect.width() >= c.pt(LABELLED_MAP_PT):
                level_labels.append((line.label_at, _format_level(line.level, span)))
    b = grid.boundary
    boundary_drawn = False
    if settings.get("show_boundary", True) and b is not None and b.path.shape[0]:
        u, v = t.px(b.path[:, 0], b.path[:, 1])
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(theme.boundary, 1.9))
        qp.drawPath(c.polyline_path(u, v))
        boundary_drawn = True

    if settings.get("show_tangents", True) and r.tangents:
        qp.setPen(c.pen(theme.foreground, 0.6, alpha=0.75))
        path = QPainterPath()
        for tan in r.tangents:
            a = tan.starts
            bb = tan.starts + tan.vectors
            ua, va = t.px(a[:, 0], a[:, 1])
            ub, vb = t.px(bb[:, 0], bb[:, 1])
            for i in range(len(a)):
                du, dv = ub[i] - ua[i], vb[i] - va[i]
                if math.hypot(du, dv) < 1e-6:
                    continue
                path.moveTo(ua[i], va[i])
                path.lineTo(ub[i], vb[i])
                nu, nv = -dv, du
                for sgn in (1, -1):
                    path.moveTo(ub[i], vb[i])
                    path.lineTo(
                        ub[i] - 0.35 * du + sgn * 0.2 * nu, vb[i] - 0.35 * dv + sgn * 0.2 * nv
                    )
        qp.drawPath(path)

    if settings.get("show_points", True):
        labels = None if r.y is None or r.kind == "regressor" else np.asarray(r.y)
        size = settings.get("point_size")
        _points(c, t, r.X, labels, r.classes, np.asarray(r.test_mask), size_pt=size)

    _paint_expansion(c, t, r, settings)
    if settings.get("show_contours", True):
        _paint_level_labels(c, t, rect, level_labels)  # after the points, which would hide them
    _paint_axes(c, t, "x₁", "x₂" if ylabels else "", ytick_labels=ylabels)
    if show_bar:
        marked = grid.diverging or r.kind == "novelty"
        threshold = r.threshold if marked else None
        if bar_below:
            _paint_colorbar_below(c, rect, lo, hi, lut, threshold, bar_label)
        else:
            _paint_colorbar(c, rect, lo, hi, lut, threshold, bar_label)
    return PanelGeometry("input", cell, rect, t, n_paths, boundary_drawn)


def _paint_level_labels(c: _Canvas, t: Transform, rect: QRectF, labels) -> None:
    """Each level's value on a light box at its line, skipping any that would overlap."""
    qp = c.qp
    label_font = c.font(6.5)
    placed: list[QRectF] = []
    for (lx, ly), text in labels:
        u, v = t.px(lx, ly)
        w = c.text_width(text, label_font) + c.pt(3)
        h = c.text_height(label_font)
        box = QRectF(float(u) - w / 2, float(v) - h / 2, w, h)
        if not rect.contains(box) or any(box.intersects(o) for o in placed):
            continue  # a label would hide another one, or stick out of the plot
        placed.append(box)
        qp.setPen(Qt.PenStyle.NoPen)
        qp.setBrush(QBrush(c.color(c.theme.background, 0.7)))
        qp.drawRect(box)
        c.text(float(u), float(v), text, label_font, align="center", valign="center")


def _bar_label(r) -> str:
    """What the colour bar measures, in a few words."""
    if r.algorithm == "novelty" and r.feature == "decision":
        return "−reconstruction error (shifted)"
    if r.kind == "novelty" and r.feature == "decision":
        return "decision value (0: boundary)"
    if r.feature == "decision":
        return "decision value"
    if r.feature == "score":
        return "novelty score"
    if isinstance(r.feature, int | np.integer):
        return f"feature {int(r.feature) + 1}"
    return ""


def _paint_expansion(c: _Canvas, t: Transform, r, settings: dict) -> None:
    pts, coef = r.expansion_points, r.expansion_coef
    if pts is None or coef is None or len(pts) == 0 or pts.shape[1] != 2:
        return
    mode = settings.get("show_expansion", "auto")
    if mode == "auto":
        if len(pts) >= max(r.n_train, 1):
            return  # circling every point says nothing
    elif not mode:
        return
    mag = np.abs(coef) / max(float(np.abs(coef).max()), 1e-300)
    u, v = t.px(pts[:, 0], pts[:, 1])
    base = marker_pt(r.X.shape[0])
    qp = c.qp
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(c.theme.expansion, 0.75))
    path = QPainterPath()
    for i in range(len(pts)):
        rad = 0.5 * c.mark(base * (1.35 + 1.3 * math.sqrt(float(mag[i]))))
        path.addEllipse(QPointF(float(u[i]), float(v[i])), rad, rad)
    qp.drawPath(path)


def _paint_colorbar(
    c: _Canvas, rect: QRectF, lo: float, hi: float, lut: np.ndarray, threshold, label: str = ""
) -> None:
    qp, theme = c.qp, c.theme
    bar = QRectF(
        rect.right() + c.pt(COLORBAR_GAP_PT), rect.top(), c.pt(COLORBAR_WIDTH_PT), rect.height()
    )
    column = np.linspace(hi, lo, 256)[:, None]  # top = high
    rgba = np.ascontiguousarray(palette.colorize(column, lo, hi, lut))
    img = QImage(rgba.data, 1, 256, 4, QImage.Format.Format_RGBA8888).copy()
    qp.drawImage(bar, img)
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.6))
    frame = QPainterPath()
    frame.addRect(bar)
    qp.drawPath(frame)
    font = c.font(7.0)
    tv = _spaced_ticks(c, lo, hi, bar.height(), font, across=True)
    step = float(tv[1] - tv[0]) if len(tv) > 1 else None
    path = QPainterPath()
    for val in tv:
        v = bar.bottom() - (val - lo) / (hi - lo) * bar.height()
        path.moveTo(bar.right(), v)
        path.lineTo(bar.right() + c.pt(2.5), v)
        c.text(
            bar.right() + c.pt(4),
            v,
            _superscript(tick_label(float(val), step)),
            font,
            align="left",
            valign="center",
        )
    qp.drawPath(path)
    if label:
        # Rotated, right of the tick labels (the room _colorbar_room measured); set smaller
        # rather than cut where the bar is short.
        # A title longer than the bar, even set smaller, is left out: the plot's own title
        # says what is drawn.
        label_font = c.fitted_font(label, 6.5, rect.height())
        if c.text_width(label, label_font) <= rect.height():
            widest = max(c.text_width(_superscript(tick_label(float(v), step)), font) for v in tv)
            x = bar.right() + c.pt(4) + widest + c.pt(2) + c.text_height(label_font)
            c.text(
                x,
                rect.center().y(),
                label,
                label_font,
                align="center",
                valign="bottom",
                rotate=-90.0,
            )
    if threshold is not None and lo < threshold < hi:
        v = bar.bottom() - (threshold - lo) / (hi - lo) * bar.height()
        qp.setPen(c.pen(theme.boundary, 1.6))
        line = QPainterPath()
        line.moveTo(bar.left() - c.pt(2), v)
        line.lineTo(bar.right(), v)
        qp.drawPath(line)


def _paint_colorbar_below(
    c: _Canvas, rect: QRectF, lo: float, hi: float, lut: np.ndarray, threshold, label: str = ""
) -> None:
    """A horizontal colour bar under the plot's x axis (its tick labels and title)."""
    qp, theme = c.qp, c.theme
    font = c.font(7.0)
    top = rect.bottom() + c.pt(BOTTOM_PT) + c.pt(2)
    bar = QRectF(rect.left(), top, rect.width(), c.pt(6))
    row = np.linspace(lo, hi, 256)[None, :]
    rgba = np.ascontiguousarray(palette.colorize(row, lo, hi, lut))
    img = QImage(rgba.data, 256, 1, 4 * 256, QImage.Format.Format_RGBA8888).copy()
    qp.drawImage(bar, img)
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.6))
    frame = QPainterPath()
    frame.addRect(bar)
    qp.drawPath(frame)
    tv = _spaced_ticks(c, lo, hi, bar.width(), font, across=False)
    step = float(tv[1] - tv[0]) if len(tv) > 1 else None
    path = QPainterPath()
    for val in tv:
        u = bar.left() + (val - lo) / (hi - lo) * bar.width()
        path.moveTo(u, bar.bottom())
        path.lineTo(u, bar.bottom() + c.pt(2))
        c.text(
            u,
            bar.bottom() + c.pt(2.5),
            _superscript(tick_label(float(val), step)),
            font,
            align="center",
            valign="top",
        )
    qp.drawPath(path)
    if label:
        label_font = c.fitted_font(label, 6.5, rect.width())
        if c.text_width(label, label_font) <= rect.width():
            y = bar.bottom() + c.pt(2.5) + c.text_height(font)
            c.text(rect.center().x(), y, label, label_font, align="center", valign="top")
    if threshold is not None and lo < threshold < hi:
        u = bar.left() + (threshold - lo) / (hi - lo) * bar.width()
        qp.setPen(c.pen(theme.boundary, 1.6))
        line = QPainterPath()
        line.moveTo(u, bar.top() - c.pt(2))
        line.lineTo(u, bar.bottom())
        qp.drawPath(line)
