"""Axes of a figure's panels: tick values and labels, the room they need, the frame, points."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QFont,
    QPainterPath,
)

from ..pipeline.geometry import nice_step
from . import palette
from .canvas import (
    BOTTOM_PT,
    COLORBAR_GAP_PT,
    COLORBAR_WIDTH_PT,
    LEFT_PT,
    TOP_PT,
    Transform,
    _Canvas,
    _class_index,
    _symbol_path,
)


# -- ticks -----------------------------------------------------------------------------------------
def ticks(lo: float, hi: float, target: int = 5) -> np.ndarray:
    """Round values in [lo, hi], about ``target`` intervals apart, and at least three of them."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return np.array([lo])
    out = np.array([lo])
    for attempt in range(4):
        step = nice_step(hi - lo, target * 2**attempt)
        start = math.ceil(lo / step - 1e-9) * step
        out = start + step * np.arange(math.floor((hi - start) / step + 1e-9) + 1)
        out = np.round(out / step) * step
        out[np.abs(out) < step * 1e-9] = 0.0
        if len(out) >= 3:
            break
    return out


def log_ticks(lo: float, hi: float) -> np.ndarray:
    a, b = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
    out = 10.0 ** np.arange(a, b + 1)
    return out[(out >= lo * (1 - 1e-9)) & (out <= hi * (1 + 1e-9))]


def tick_label(v: float, step: float | None = None) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        e = math.floor(math.log10(abs(v)))
        m = v / 10**e
        return f"10^{e}" if abs(m - 1) < 1e-9 else f"{m:g}·10^{e}"
    if step is not None and step < 1:
        digits = max(0, -math.floor(math.log10(step) + 1e-9))
        scaled = step * 10**digits  # 0.05 * 100 is 4.9999999999999996: compare, not take % 1
        if abs(scaled - round(scaled)) > 1e-6:
            digits += 1
        return f"{v:.{digits}f}".replace("-", "−")
    return f"{v:g}".replace("-", "−")


def _superscript(label: str) -> str:
    if "^" not in label:
        return label
    sup = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")
    head, _, exp = label.partition("^")
    return head + exp.translate(sup)


def tick_text(v: float, step: float | None = None) -> str:
    """A tick's label as it is painted (:func:`tick_label`, its power of ten raised): "0.5",
    "1000", "10⁴", "2·10⁻⁵"."""
    return _superscript(tick_label(float(v), step))


# Left of a plot whose row shares the first plot's y axis: half an x tick label at its edge
# (the plot before it leaves the other half on its right).
SHARED_LEFT_PT = 4.0


def _plot_rect(
    c: _Canvas,
    inner: QRectF,
    *,
    right: float = 8.0,
    aspect: float | None = None,
    ylabel: bool = True,
    below: float = 0.0,
    yrange: tuple[float, float] | None = None,
    right_px: float | None = None,
    bottom_px: float | None = None,
    top_pt: float = TOP_PT,
) -> QRectF:
    """The axes' rectangle inside ``inner``, leaving room for tick labels and axis titles, and
    for a colour bar (``right`` or ``below``, nominal points; ``right_px`` measured pixels).
    With ``yrange`` the room for the y tick labels is measured on their text; ``bottom_px``
    (measured pixels) replaces the nominal room under the plot; ``top_pt`` is the room above it. ``ylabel`` False: no y tick
    labels and no y title (a row's shared axis). With ``aspect`` (width / height of the data
    box) the rectangle is the largest of that shape, centred in the room."""
    if not ylabel:
        left = c.pt(SHARED_LEFT_PT)
    elif yrange is not None:
        left = _y_label_room(c, *yrange)
    else:
        left = c.pt(LEFT_PT)
    right = c.pt(right) if right_px is None else right_px
    bottom = c.pt(BOTTOM_PT + below) if bottom_px is None else bottom_px
    top = c.pt(top_pt)
    r = QRectF(
        inner.left() + left,
        inner.top() + top,
        inner.width() - left - right,
        inner.height() - top - bottom,
    )
    return r if aspect is None else fit_aspect(r, aspect)


def fit_aspect(room: QRectF, aspect: float) -> QRectF:
    """The largest rectangle of width / height ``aspect`` centred in ``room`` (one data unit is
    as long across as up)."""
    r = room
    if r.width() <= 0 or r.height() <= 0:
        return r
    if r.width() / r.height() > aspect:
        w = r.height() * aspect
        return QRectF(r.left() + 0.5 * (r.width() - w), r.top(), w, r.height())
    h = r.width() / aspect
    return QRectF(r.left(), r.top() + 0.5 * (r.height() - h), r.width(), h)


def _x_axis_room(c: _Canvas, title: str) -> float:
    """Under a plot: the tick marks, one line of tick labels and one line of ``title``, as
    :func:`_paint_axes` sets them."""
    room = c.pt(3 + 2) + c.text_height(c.font(7.5)) + c.pt(1)
    if title:
        room += c.text_height(c.fitted_font(title, 8.5, c.pt(40)))
    return room


def _widest_tick_label(c: _Canvas, lo: float, hi: float, font: QFont) -> float:
    values = ticks(lo, hi, 5)
    step = float(values[1] - values[0]) if len(values) > 1 else None
    return max(
        (c.text_width(tick_text(v, step), font) for v in values),
        default=0.0,
    )


def _y_label_room(c: _Canvas, lo: float, hi: float) -> float:
    """Left of a plot: tick marks, the widest y tick label, the rotated y title, gaps."""
    widest = _widest_tick_label(c, lo, hi, c.font(7.5))
    return c.pt(3 + 2) + widest + c.pt(4) + c.text_height(c.font(8.5)) + c.pt(2)


def _colorbar_room(c: _Canvas, lo: float, hi: float, label: str = "") -> float:
    """Right of a plot: the gap, the bar, its ticks, its widest tick label and its title."""
    room = (
        c.pt(COLORBAR_GAP_PT + COLORBAR_WIDTH_PT + 4)
        + _widest_tick_label(c, lo, hi, c.font(7.0))
        + c.pt(3)
    )
    if label:
        room += c.text_height(c.font(6.5)) + c.pt(2)
    return room


def _multiples(lo: float, hi: float, step: float) -> np.ndarray:
    """The multiples of ``step`` in [lo, hi] (0 exactly 0)."""
    start = math.ceil(lo / step - 1e-9) * step
    values = start + step * np.arange(math.floor((hi - start) / step + 1e-9) + 1)
    values = np.round(values / step) * step
    values[np.abs(values) < step * 1e-9] = 0.0
    return values


def _spaced_ticks(
    c: _Canvas, lo: float, hi: float, length: float, font: QFont, *, across: bool
) -> np.ndarray:
    """Round tick values whose labels do not touch along an axis ``length`` pixels long:
    ``across`` labels (a y axis) need a line's height apart, others their widths.

    The steps 1, 2, 2.5, 5 x 10^k are tried from fine to coarse; the first that gives at most
    about a tick per 45 points (32 across) and whose labels fit is taken. Coarser steps are
    not tried once a step leaves fewer than two ticks: the axis keeps the two outermost ticks
    of the last step that had two where their labels fit, and one tick only where even those
    would touch.
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return np.array([lo])
    most = max(3, int(length / c.pt(45 if not across else 32))) + 1
    finest = nice_step(hi - lo, 2 * most)
    magnitude = 10.0 ** math.floor(math.log10(finest) + 1e-9)
    steps = [m * magnitude * 10.0**k for k in range(5) for m in (1.0, 2.0, 2.5, 5.0)]
    fallback = None
    for step in [s_ for s_ in steps if s_ >= finest * (1 - 1e-9)]:
        values = _multiples(lo, hi, step)
        if len(values) < 2:
            break
        fallback = values
        if len(values) > most:
            continue
        pitch = step / (hi - lo) * length
        labels = [tick_text(v, step) for v in values]
        need = (
            c.text_height(font)
            if across
            else max(c.text_width(text, font) for text in labels) + c.pt(4)
        )
        if pitch >= need:
            return values
    if fallback is not None:
        ends = fallback[[0, -1]]
        labels = [tick_text(v, float(ends[1] - ends[0])) for v in ends]
        need = (
            c.text_height(font)
            if across
            else 0.5 * sum(c.text_width(text, font) for text in labels) + c.pt(4)
        )
        if (ends[1] - ends[0]) / (hi - lo) * length >= need:
            return ends
        return ends[[int(np.argmin(np.abs(ends - 0.5 * (lo + hi))))]]
    return _multiples(lo, hi, finest)


def _paint_axes(
    c: _Canvas,
    t: Transform,
    xlabel: str,
    ylabel: str,
    *,
    log_x: bool = False,
    ytick_labels: bool = True,
    title_span: tuple[float, float] | None = None,
) -> None:
    """The frame, ticks, tick labels and axis titles of the plot ``t.rect``. ``title_span``:
    the (left, right) pixels the x title's lines may take (default: the plot's width), each
    line centred under the plot as far as that span allows."""
    qp, r, theme = c.qp, t.rect, c.theme
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.7))
    frame = QPainterPath()
    frame.addRect(r)
    qp.drawPath(frame)
    font = c.font(7.5)
    tick = c.pt(3)
    if log_x:
        xt = log_ticks(t.x0, t.x1)
        xstep = None
    else:
        xt = _spaced_ticks(c, t.x0, t.x1, r.width(), font, across=False)
        xstep = float(xt[1] - xt[0]) if len(xt) > 1 else None
    yt = _spaced_ticks(c, t.y0, t.y1, r.height(), font, across=True)
    ystep = float(yt[1] - yt[0]) if len(yt) > 1 else None
    path = QPainterPath()
    for x in xt:
        u, _ = t.px(x, t.y0)
        u = float(u)
        if r.left() - 0.5 <= u <= r.right() + 0.5:
            path.moveTo(u, r.bottom())
            path.lineTo(u, r.bottom() + tick)
            c.text(
                u,
                r.bottom() + tick + c.pt(1),
                tick_text(x, xstep),
                font,
                align="center",
                valign="top",
            )
    for y in yt:
        _, v = t.px(t.x0, y)
        v = float(v)
        if r.top() - 0.5 <= v <= r.bottom() + 0.5:
            path.moveTo(r.left(), v)
            path.lineTo(r.left() - tick, v)
            if not ytick_labels:
                continue
            c.text(
                r.left() - tick - c.pt(2),
                v,
                tick_text(y, ystep),
                font,
                align="right",
                valign="center",
            )
    qp.drawPath(path)
    if xlabel:
        # A title wider than its room is set smaller or on more lines (the caller leaves room).
        left, right = title_span or (r.left(), r.right())
        room = max(right - left, c.pt(40))
        xfont, lines = x_title_lines(c, xlabel, room)
        y = r.bottom() + tick + c.pt(2) + c.text_height(font)
        for line in lines:
            half = 0.5 * c.text_width(line, xfont)
            x = min(max(r.center().x(), left + half), right - half) if title_span else None
            c.text(r.center().x() if x is None else x, y, line, xfont, align="center", valign="top")
            y += c.text_height(xfont)
    if ylabel and ytick_labels:
        widest = max((c.text_width(tick_text(y, ystep), font) for y in yt), default=0.0)
        x = r.left() - tick - c.pt(4) - widest
        yfont = c.fitted_font(ylabel, 8.5, r.height())
        # a title longer than a short plot takes two lines, the second further out
        lines = [ylabel]
        if c.text_width(ylabel, yfont) > r.height():
            lines = c.balanced(ylabel, yfont, c.wrap(ylabel, yfont, r.height()), r.height())
        for line in lines[::-1] if len(lines) == 2 else [ylabel]:
            c.text(x, r.center().y(), line, yfont, align="center", valign="bottom", rotate=-90.0)
            x -= c.text_height(yfont)


def x_title_lines(c: _Canvas, title: str, room: float) -> tuple[QFont, list[str]]:
    """The font and lines of an x axis title within ``room`` pixels: one line, set a little
    smaller where that fits, else wrapped."""
    font = c.fitted_font(title, 8.5, room)
    return font, [title] if c.text_width(title, font) <= room else c.wrap(title, font, room)


def marker_pt(n: int) -> float:
    """Marker size in points: smaller markers for more points, so clouds stay readable."""
    return float(np.clip(5.2 * math.sqrt(150.0 / max(n, 1)), 3.2, 5.2))


def _points(
    c: _Canvas,
    t: Transform,
    X: np.ndarray,
    labels,
    classes,
    test: np.ndarray,
    *,
    size_pt: float | None = None,
) -> None:
    qp, theme = c.qp, c.theme
    if size_pt is None:
        size_pt = marker_pt(X.shape[0])
    u, v = t.px(X[:, 0], X[:, 1])
    for is_test in (False, True):
        idx = np.flatnonzero(test == is_test)
        for i in idx:
            k = 0 if labels is None else _class_index(classes, labels[i])
            col = palette.class_color(k) if labels is not None else theme.foreground
            sym = palette.class_symbol(k) if labels is not None else "o"
            path = _symbol_path(sym, c.mark(size_pt if not is_test else size_pt - 0.5))
            path.translate(float(u[i]), float(v[i]))
            if is_test:
                qp.setBrush(QBrush(c.color(theme.test_fill)))
                qp.setPen(c.pen(col, 1.1))
            else:
                qp.setBrush(QBrush(c.color(col)))
                qp.setPen(c.pen(theme.point_edge, 0.45))
            qp.drawPath(path)


def _legend_swatch(c: _Canvas, kind: str, col: str, at: QPointF) -> None:
    qp = c.qp
    path = QPainterPath()
    if kind in ("line", "dash", "dot", "thick"):
        path.moveTo(at.x() - c.pt(4.5), at.y())
        path.lineTo(at.x() + c.pt(4.5), at.y())
        style = {"dash": Qt.PenStyle.DashLine, "dot": Qt.PenStyle.DotLine}.get(
            kind, Qt.PenStyle.SolidLine
        )
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(col, 1.9 if kind == "thick" else 1.3, style=style))
    elif kind == "patch":  # a histogram's class: a light square in the class's colour
        path = _symbol_path("s", c.pt(5.5))
        path.translate(at)
        qp.setBrush(QBrush(c.color(col, 0.6)))
        qp.setPen(c.pen(col, 0.8))
    elif kind == "circle":
        path.addEllipse(at, c.pt(3.5), c.pt(3.5))
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(col, 0.8))
    else:  # a marker: "marker:<symbol>:<filled|hollow>"
        _, sym, fill = kind.split(":")
        path = _symbol_path(sym, c.pt(5.5))
        path.translate(at)
        if fill == "hollow":
            qp.setBrush(QBrush(c.color(c.theme.test_fill)))
            qp.setPen(c.pen(col, 1.1))
        else:
            qp.setBrush(QBrush(c.color(col)))
            qp.setPen(c.pen(c.theme.point_edge, 0.45))
    qp.drawPath(path)
