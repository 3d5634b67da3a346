"""A panel of the input plane: the feature as an image, its level sets and labels, the decision
boundary, tangents, points, expansion points, and its colour bar (beside or below)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QImage,
    QPainterPath,
)

from ..pipeline.geometry import data_box
from . import palette
from .axes import (
    _colorbar_room,
    _paint_axes,
    _plot_rect,
    _points,
    _spaced_ticks,
    _x_axis_room,
    fit_aspect,
    marker_pt,
    tick_text,
)
from .canvas import (
    COLORBAR_BELOW_WIDTH_PT,
    COLORBAR_GAP_PT,
    COLORBAR_WIDTH_PT,
    LABELLED_MAP_PT,
    PanelGeometry,
    Transform,
    _Canvas,
    clipped,
)
from .label_place import place_labels, spots_along
from .plan import PanelPlan

# Beside a map with nothing beside it: half an x tick label and a little air; above it, half
# a y tick label (the header ends in its own gap).
MAP_RIGHT_PT = 4.0
MAP_TOP_PT = 2.0


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


@dataclass(frozen=True)
class MapRooms:
    """Where an input panel's map may go: its room with the colour bar beside it, and with the
    bar below it (``None`` when no colour bar is drawn)."""

    beside: QRectF
    below: QRectF | None


def map_rooms(
    c: _Canvas,
    panel: PanelPlan,
    inner: QRectF,
    settings: dict,
    *,
    ylabels: bool = True,
    bar_room: float | None = None,
    below_room: float | None = None,
) -> MapRooms:
    """The rooms of ``panel``'s map inside ``inner`` (the cell under its header), measured on
    the texts around it. ``bar_room`` and ``below_room``: the colour bar's room beside and
    below the plot when a row that shares a y axis gives all its bars one room."""
    r = panel.result
    _, _, y0, y1 = r.grid.box
    lo, hi = r.grid.color_range
    label = _bar_label(r)
    bottom = _x_axis_room(c, "x₁")
    right = MAP_RIGHT_PT
    if not settings.get("show_colorbar", True):
        return MapRooms(
            _plot_rect(
                c,
                inner,
                ylabel=ylabels,
                yrange=(y0, y1),
                bottom_px=bottom,
                right=right,
                top_pt=MAP_TOP_PT,
            ),
            None,
        )
    beside = _plot_rect(
        c,
        inner,
        ylabel=ylabels,
        yrange=(y0, y1),
        right_px=bar_room or _colorbar_room(c, lo, hi, label),
        bottom_px=bottom,
        top_pt=MAP_TOP_PT,
    )
    below = _plot_rect(
        c,
        inner,
        ylabel=ylabels,
        yrange=(y0, y1),
        bottom_px=bottom + (below_room or _colorbar_below_room(c, label)),
        right=right,
        top_pt=MAP_TOP_PT,
    )
    return MapRooms(beside, below)


def colorbars_below(rooms: list[MapRooms], aspects: list[float] | None) -> bool:
    """Whether the colour bars of these maps (one row's, placed alike) go below them: when that
    leaves pictures at least 15 % larger in all. ``aspects``: each map's data box (width /
    height); ``None`` for boxes that follow their rooms, whose whole areas count."""
    if not rooms or any(room.below is None for room in rooms):
        return False

    def area(rect: QRectF, aspect: float | None) -> float:
        fitted = rect if aspect is None else fit_aspect(rect, aspect)
        return max(fitted.width(), 0.0) * max(fitted.height(), 0.0)

    shapes = aspects or [None] * len(rooms)
    beside = sum(area(room.beside, a) for room, a in zip(rooms, shapes, strict=True))
    below = sum(area(room.below, a) for room, a in zip(rooms, shapes, strict=True))
    return below > 1.15 * beside


def _paint_input(
    c: _Canvas,
    panel: PanelPlan,
    cell: QRectF,
    inner: QRectF,
    settings: dict,
    *,
    ylabels: bool = True,
    rooms: MapRooms | None = None,
    bar_below: bool | None = None,
) -> PanelGeometry:
    """``rooms`` and ``bar_below``: where the row placed this map (see :func:`map_rooms` and
    :func:`colorbars_below`); measured here for a panel alone."""
    r = panel.result
    grid = r.grid
    qp, theme = c.qp, c.theme
    x0, x1, y0, y1 = grid.box
    show_bar = bool(settings.get("show_colorbar", True))
    aspect = (x1 - x0) / (y1 - y0)
    lo, hi = grid.color_range
    bar_label = _bar_label(r)
    if rooms is None:
        rooms = map_rooms(c, panel, inner, settings, ylabels=ylabels)
    if bar_below is None:
        bar_below = colorbars_below([rooms], [aspect])
    room = rooms.below if bar_below else rooms.beside
    # A box wider (or taller) than the room is cut toward the room's shape, never into the
    # data's own box: the map then fills more of its room.
    keep = data_box(r.X, float(settings.get("padding", 0.15)))
    sx0, sx1, sy0, sy1 = shown_box(grid.box, keep, room.width() / max(room.height(), 1e-9))
    rect = fit_aspect(room, (sx1 - sx0) / (sy1 - sy0))
    t = Transform(sx0, sx1, sy0, sy1, rect)
    lut = _colormap(r, theme)
    image = _value_image(grid.values, lo, hi, lut)
    w, h = image.width(), image.height()
    source = QRectF(
        (sx0 - x0) / (x1 - x0) * w,
        (y1 - sy1) / (y1 - y0) * h,  # the image's top row is the highest y
        (sx1 - sx0) / (x1 - x0) * w,
        (sy1 - sy0) / (y1 - y0) * h,
    )
    qp.drawImage(rect, image, source)
    qp.save()
    qp.setClipRect(rect)  # lines beyond a cut box (cut by hand too: SVG ignores the clip)

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
            qp.drawPath(c.polyline_path(u, v, rect))
            n_paths += 1
            if line.label_at is not None and rect.width() >= c.pt(LABELLED_MAP_PT):
                level_labels.append((line, _format_level(line.level, span)))
    b = grid.boundary
    boundary_drawn = False
    if settings.get("show_boundary", True) and b is not None and b.path.shape[0]:
        u, v = t.px(b.path[:, 0], b.path[:, 1])
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(theme.boundary, 1.9))
        qp.drawPath(c.polyline_path(u, v, rect))
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
        qp.drawPath(clipped(path, rect))
    qp.restore()

    if settings.get("show_points", True):
        labels = None if r.y is None or r.kind == "regressor" else np.asarray(r.y)
        size = settings.get("point_size")
        _points(c, t, r.X, labels, r.classes, np.asarray(r.test_mask), size_pt=size)

    _paint_expansion(c, t, r, settings)
    if settings.get("show_contours", True):
        shown = settings.get("show_points", True)
        markers = r.X[:, :2] if shown and r.X.ndim == 2 and r.X.shape[1] >= 2 else None
        size = settings.get("point_size") or marker_pt(r.X.shape[0])
        # after the points, which would hide them; clear of them, which would hide the labels
        _paint_level_labels(c, t, rect, level_labels, markers, c.mark(size))
    _paint_axes(c, t, "x₁", "x₂" if ylabels else "", ytick_labels=ylabels)
    if show_bar:
        marked = grid.diverging or r.kind == "novelty"
        threshold = r.threshold if marked else None
        _paint_colorbar(c, rect, lo, hi, lut, threshold, bar_label, below=bar_below)
    return PanelGeometry("input", cell, rect, t, n_paths, boundary_drawn, room=room)


def shown_box(box, keep, aspect: float) -> tuple[float, float, float, float]:
    """The part of ``box`` = (x0, x1, y0, y1) a map draws in a room of width / height
    ``aspect``: ``box`` cut along the side that makes it too wide (or too tall) toward that
    shape, centred on ``keep`` (the data's box) as far as ``box`` allows, and never cut into
    ``keep``. ``box`` itself when it has the shape or is too narrow already."""
    x0, x1, y0, y1 = (float(v) for v in box)
    k0, k1 = max(float(keep[0]), x0), min(float(keep[1]), x1)
    l0, l1 = max(float(keep[2]), y0), min(float(keep[3]), y1)
    w, h = x1 - x0, y1 - y0
    if w / h > aspect:
        width = min(max(h * aspect, k1 - k0), w)
        left = min(max(0.5 * (k0 + k1) - 0.5 * width, x0), x1 - width)
        left = min(left, k0)  # the data's box stays whole
        left = max(left, k1 - width)
        return (left, left + width, y0, y1)
    height = min(max(w / aspect, l1 - l0), h)
    bottom = min(max(0.5 * (l0 + l1) - 0.5 * height, y0), y1 - height)
    bottom = min(bottom, l0)
    bottom = max(bottom, l1 - height)
    return (x0, x1, bottom, bottom + height)


def _paint_level_labels(
    c: _Canvas, t: Transform, rect: QRectF, labels, markers, marker_px: float
) -> None:
    """Each level's value on a light box on its line, clear of the other labels and of the
    markers (label_place.py); a level with no free spot goes without."""
    qp = c.qp
    label_font = c.font(6.5)
    h = c.text_height(label_font)
    wanted = []
    for line, text in labels:
        spots = spots_along(line.path, line.label_at)
        u, v = t.px(spots[:, 0], spots[:, 1])
        wanted.append((np.column_stack([u, v]), c.text_width(text, label_font) + c.pt(3), h))
    points = np.zeros((0, 2))
    if markers is not None and len(markers):
        pu, pv = t.px(markers[:, 0], markers[:, 1])
        points = np.column_stack([pu, pv])
    bounds = (rect.left(), rect.top(), rect.right(), rect.bottom())
    places = place_labels(wanted, points, 0.5 * marker_px + c.pt(0.5), bounds)
    for (_line, text), (_spots, w, _h), at in zip(labels, wanted, places, strict=True):
        if at is None:
            continue
        u, v = at
        box = QRectF(u - w / 2, v - h / 2, w, h)
        qp.setPen(Qt.PenStyle.NoPen)
        qp.setBrush(QBrush(c.color(c.theme.background, 0.7)))
        qp.drawRect(box)
        c.text(u, v, text, label_font, align="center", valign="center")


# A colour bar's title too long for a short bar, and what it says instead there.
SHORT_BAR_LABELS = {"threshold − reconstruction error": "threshold − error"}


def _bar_label(r) -> str:
    """What the colour bar measures, in a few words."""
    if r.algorithm == "novelty" and r.feature == "decision":
        return "threshold − reconstruction error"
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


def _colorbar_below_room(c: _Canvas, label: str = "") -> float:
    """Under a plot's x axis: the gap, a horizontal colour bar, its ticks, tick labels and
    title, as :func:`_paint_colorbar` sets them below."""
    room = c.pt(2 + COLORBAR_BELOW_WIDTH_PT + 2.5) + c.text_height(c.font(7.0))
    if label:
        room += c.text_height(c.font(6.5))
    return room + c.pt(1)


def _paint_colorbar(
    c: _Canvas,
    rect: QRectF,
    lo: float,
    hi: float,
    lut: np.ndarray,
    threshold,
    label: str = "",
    *,
    below: bool = False,
) -> None:
    """The colour bar of the map in ``rect``: beside it (upright, high values on top) or below
    its x axis (level, high values on the right), with round ticks, its title and the
    threshold's mark."""
    qp, theme = c.qp, c.theme
    font = c.font(7.0)
    if below:
        top = rect.bottom() + _x_axis_room(c, "x₁") + c.pt(2)
        bar = QRectF(rect.left(), top, rect.width(), c.pt(COLORBAR_BELOW_WIDTH_PT))
        length = bar.width()
    else:
        bar = QRectF(
            rect.right() + c.pt(COLORBAR_GAP_PT), rect.top(), c.pt(COLORBAR_WIDTH_PT), rect.height()
        )
        length = bar.height()

    def at(value: float) -> float:
        """The pixel along the bar of ``value``."""
        f = (value - lo) / (hi - lo)
        return bar.left() + f * bar.width() if below else bar.bottom() - f * bar.height()

    ramp = np.linspace(lo, hi, 256)
    ramp = ramp[None, :] if below else ramp[::-1, None]  # low at the left, or at the bottom
    rgba = np.ascontiguousarray(palette.colorize(ramp, lo, hi, lut))
    h, w = rgba.shape[:2]
    qp.drawImage(bar, QImage(rgba.data, w, h, 4 * w, QImage.Format.Format_RGBA8888).copy())
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.6))
    frame = QPainterPath()
    frame.addRect(bar)
    qp.drawPath(frame)

    tv = _spaced_ticks(c, lo, hi, length, font, across=not below)
    step = float(tv[1] - tv[0]) if len(tv) > 1 else None
    texts = [tick_text(val, step) for val in tv]
    path = QPainterPath()
    for val, text in zip(tv, texts, strict=True):
        p = at(float(val))
        if below:
            path.moveTo(p, bar.bottom())
            path.lineTo(p, bar.bottom() + c.pt(2))
            # a label at an end stays over the bar: beyond it, it would meet the next bar's
            half = 0.5 * c.text_width(text, font)
            x = min(max(p, bar.left() + half - c.pt(1)), bar.right() - half + c.pt(1))
            c.text(x, bar.bottom() + c.pt(2.5), text, font, align="center", valign="top")
        else:
            path.moveTo(bar.right(), p)
            path.lineTo(bar.right() + c.pt(2.5), p)
            c.text(bar.right() + c.pt(4), p, text, font, align="left", valign="center")
    qp.drawPath(path)
    if label:
        # Set smaller rather than cut where the bar is short; a title longer than the bar even
        # then is left out: the plot's own title says what is drawn.
        label_font = c.fitted_font(label, 6.5, length)
        if c.text_width(label, label_font) > length and label in SHORT_BAR_LABELS:
            label = SHORT_BAR_LABELS[label]
            label_font = c.fitted_font(label, 6.5, length)
        if c.text_width(label, label_font) <= length:
            if below:
                y = bar.bottom() + c.pt(2.5) + c.text_height(font)
                c.text(bar.center().x(), y, label, label_font, align="center", valign="top")
            else:
                # Rotated, right of the tick labels (the room _colorbar_room measured).
                widest = max(c.text_width(text, font) for text in texts)
                x = bar.right() + c.pt(4) + widest + c.pt(2) + c.text_height(label_font)
                c.text(
                    x,
                    bar.center().y(),
                    label,
                    label_font,
                    align="center",
                    valign="bottom",
                    rotate=-90.0,
                )
    if threshold is not None and lo < threshold < hi:
        p = at(threshold)
        qp.setPen(c.pen(theme.boundary, 1.6))
        line = QPainterPath()
        if below:
            line.moveTo(p, bar.top() - c.pt(2))
            line.lineTo(p, bar.bottom())
        else:
            line.moveTo(bar.left() - c.pt(2), p)
            line.lineTo(bar.right(), p)
        qp.drawPath(line)
