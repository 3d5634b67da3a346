"""The other panels: training/test histograms, regression curves, 3-D scatter projections and
sweep curves."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QPainterPath,
    QPolygonF,
)

from ..sweep import METRICS
from . import palette
from .axes import (
    _legend_swatch,
    _paint_axes,
    _plot_rect,
    _x_axis_room,
    x_title_lines,
)
from .canvas import (
    BOTTOM_PT,
    PanelGeometry,
    Transform,
    _Canvas,
    _class_index,
    _symbol_path,
)
from .plan import PanelPlan, format_value
from .project3d import Camera, axes_segments, normalized, painter_order


def _histogram_keys(panel: PanelPlan) -> list:
    """The histograms of the panel's role (training or test), one per class, in label order."""
    h = panel.result.histograms
    return sorted((k for k in h.density if k[1] == panel.role), key=lambda k: str(k[0]))


def _histogram_top(panel: PanelPlan) -> float:
    h = panel.result.histograms
    keys = _histogram_keys(panel)
    return max((float(np.max(h.density[k])) for k in keys), default=1.0) * 1.08 or 1.0


def _histogram_rect(c: _Canvas, panel: PanelPlan, inner: QRectF) -> QRectF:
    """The histogram's plot in ``inner``: room for its tick labels and axis titles, measured."""
    return _plot_rect(
        c, inner, yrange=(0.0, _histogram_top(panel)), bottom_px=_x_axis_room(c, "output")
    )


def _histogram_entries(panel: PanelPlan) -> list[str]:
    h = panel.result.histograms
    return [
        f"{palette.class_name(key[0])} ({int(np.sum(h.counts[key]))})"
        for key in _histogram_keys(panel)
    ]


def histogram_legend_fits(c: _Canvas, panel: PanelPlan, inner: QRectF) -> bool:
    """Whether the histogram's class legend fits in the top left of its plot (else the
    figure's legend names the classes)."""
    rect = _histogram_rect(c, panel, inner)
    font = c.font(7.0)
    entries = _histogram_entries(panel)
    legend_w = c.pt(14) + max((c.text_width(e, font) for e in entries), default=0.0)
    return (
        len(entries) * c.text_height(font) + c.pt(6) <= 0.6 * rect.height()
        and legend_w <= rect.width()
    )


def _paint_histogram(
    c: _Canvas, panel: PanelPlan, cell: QRectF, inner: QRectF, *, legend: bool = True
) -> PanelGeometry:
    """The outputs' histograms per class; with ``legend`` the classes named in the plot's top
    left (the caller has checked that they fit: :func:`histogram_legend_fits`)."""
    r = panel.result
    h = r.histograms
    qp, theme = c.qp, c.theme
    edges = np.asarray(h.edges, dtype=float)
    keys = _histogram_keys(panel)
    top = _histogram_top(panel)
    rect = _histogram_rect(c, panel, inner)
    t = Transform(float(edges[0]), float(edges[-1]), 0.0, top, rect)
    for key in keys:
        dens = np.asarray(h.density[key], dtype=float)
        k = _class_index(r.classes, key[0])
        col = palette.class_color(k)
        xs = np.repeat(edges, 2)[1:-1]
        ys = np.repeat(dens, 2)
        u, v = t.px(
            np.concatenate([[edges[0]], xs, [edges[-1]]]), np.concatenate([[0.0], ys, [0.0]])
        )
        poly = QPolygonF([QPointF(float(a), float(b)) for a, b in zip(u, v, strict=True)])
        path = QPainterPath()
        path.addPolygon(poly)
        qp.setBrush(QBrush(c.color(col, 0.35)))
        qp.setPen(c.pen(col, 1.0))
        qp.drawPath(path)
    if r.threshold is not None and t.x0 < r.threshold < t.x1:
        u, _ = t.px(r.threshold, 0.0)
        qp.setPen(c.pen(theme.boundary, 1.0, style=Qt.PenStyle.DashLine))
        line = QPainterPath()
        line.moveTo(float(u), rect.top())
        line.lineTo(float(u), rect.bottom())
        qp.drawPath(line)
    _paint_axes(c, t, "output", "density")
    # class legend inside the plot, top left (else the figure's legend names the classes)
    font = c.font(7.0)
    y = rect.top() + c.pt(4)
    for key in keys if legend else []:
        k = _class_index(r.classes, key[0])
        n = int(np.sum(h.counts[key]))
        sw = _symbol_path("s", c.pt(5))
        sw.translate(rect.left() + c.pt(7), y + c.pt(3))
        qp.setBrush(QBrush(c.color(palette.class_color(k), 0.6)))
        qp.setPen(c.pen(palette.class_color(k), 0.8))
        qp.drawPath(sw)
        c.text(
            rect.left() + c.pt(12),
            y + c.pt(3),
            f"{palette.class_name(key[0])} ({n})",
            font,
            valign="center",
        )
        y += c.text_height(font)
    return PanelGeometry("histogram", cell, rect, t)


def _paint_regression(
    c: _Canvas, panel: PanelPlan, cell: QRectF, inner: QRectF, settings: dict
) -> PanelGeometry:
    r = panel.result
    qp, theme = c.qp, c.theme
    x = r.X[:, 0]
    y = np.asarray(r.y, dtype=float)
    curve = r.curve
    ys = [y, curve.y] if curve is not None else [y]
    svr = r.svr_curve if r.svr_curve is not None and r.svr_curve is not curve else None
    if svr is not None:
        ys.append(svr.y + (svr.epsilon or 0.0))
        ys.append(svr.y - (svr.epsilon or 0.0))
    lo = min(float(np.min(a)) for a in ys)
    hi = max(float(np.max(a)) for a in ys)
    pad = 0.08 * max(hi - lo, 1e-9)
    xlo = float(curve.x[0]) if curve is not None else float(x.min())
    xhi = float(curve.x[-1]) if curve is not None else float(x.max())
    rect = _plot_rect(c, inner)
    t = Transform(xlo, xhi, lo - pad, hi + pad, rect)
    if svr is not None:
        eps = svr.epsilon or 0.0
        if eps > 0:
            uu, vu = t.px(svr.x, svr.y + eps)
            ul, vl = t.px(svr.x[::-1], svr.y[::-1] - eps)
            poly = QPolygonF(
                [
                    QPointF(float(a), float(b))
                    for a, b in zip(np.concatenate([uu, ul]), np.concatenate([vu, vl]), strict=True)
                ]
            )
            tube = QPainterPath()
            tube.addPolygon(poly)
            tube.closeSubpath()
            qp.setPen(Qt.PenStyle.NoPen)
            qp.setBrush(QBrush(c.color(palette.class_color(1), 0.15)))
            qp.drawPath(tube)
        u, v = t.px(svr.x, svr.y)
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(palette.class_color(1), 1.1, style=Qt.PenStyle.DashLine))
        qp.drawPath(c.polyline_path(u, v, t.rect))
    # samples
    test = np.asarray(r.test_mask)
    u, v = t.px(x, y)
    for is_test in (False, True):
        path = QPainterPath()
        for i in np.flatnonzero(test == is_test):
            path.addEllipse(QPointF(float(u[i]), float(v[i])), c.mark(1.5), c.mark(1.5))
        if is_test:
            qp.setBrush(QBrush(c.color(theme.test_fill)))
            qp.setPen(c.pen(theme.foreground, 0.6))
        else:
            qp.setBrush(QBrush(c.color(theme.foreground)))
            qp.setPen(Qt.PenStyle.NoPen)
        qp.drawPath(path)
    if curve is not None:
        uc, vc = t.px(curve.x, curve.y)
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(palette.class_color(0), 1.6))
        qp.drawPath(c.polyline_path(uc, vc, t.rect))
        if (
            curve.expansion_x is not None
            and len(curve.expansion_x)
            and settings.get("show_expansion", "auto")
        ):
            ue, ve = t.px(curve.expansion_x, curve.expansion_y)
            path = QPainterPath()
            for a, b in zip(ue, ve, strict=True):
                path.addEllipse(QPointF(float(a), float(b)), c.mark(4.2), c.mark(4.2))
            qp.setBrush(Qt.BrushStyle.NoBrush)
            qp.setPen(c.pen(theme.expansion, 0.8))
            qp.drawPath(path)
    _paint_axes(c, t, "x", "y")
    # legend, top right
    font = c.font(7.0)
    items = [("line", palette.class_color(0), curve.title if curve is not None else r.title)]
    if curve is not None and curve.expansion_x is not None and len(curve.expansion_x):
        items.append(
            (
                "circle",
                theme.expansion,
                f"expansion points ({len(curve.expansion_x)} of {r.n_train})",
            )
        )
    if svr is not None:
        extra = []
        if svr.epsilon:
            extra.append(f"ε = {format_value(svr.epsilon)} tube")
        if svr.expansion_x is not None:
            extra.append(f"{len(svr.expansion_x)} support vectors")
        items.append(
            (
                "dash",
                palette.class_color(1),
                svr.title + (f" ({', '.join(extra)})" if extra else ""),
            )
        )
    # a label wider than the plot (less its swatch) is wrapped, its lines right-aligned
    room = rect.width() - c.pt(6 + 9 + 4)
    yy = rect.top() + c.pt(5)
    for kind, col, label in items:
        lines = c.wrap(label, font, room)
        xx = rect.right() - c.pt(6) - max(c.text_width(line, font) for line in lines)
        _legend_swatch(c, kind, col, QPointF(xx - c.pt(9), yy))
        for line in lines:
            c.text(xx, yy, line, font, valign="center")
            yy += c.text_height(font)
    return PanelGeometry("regression", cell, rect, t)


def _paint_scatter3d(
    c: _Canvas, panel: PanelPlan, cell: QRectF, inner: QRectF, settings: dict
) -> PanelGeometry:
    qp, theme = c.qp, c.theme
    P = np.asarray(panel.points, dtype=float)
    Q, _, _ = normalized(P)
    cam = Camera(float(settings.get("elevation", 22.0)), float(settings.get("azimuth", 38.0)))
    u0, u1, v0, v1 = cam.frame(Q)
    pad = c.pt(6)
    avail = QRectF(
        inner.left() + pad, inner.top() + pad, inner.width() - 2 * pad, inner.height() - 2 * pad
    )
    aspect = (u1 - u0) / (v1 - v0)
    if avail.width() / max(avail.height(), 1e-9) > aspect:
        w = avail.height() * aspect
        rect = QRectF(avail.left() + 0.5 * (avail.width() - w), avail.top(), w, avail.height())
    else:
        h = avail.width() / aspect
        rect = QRectF(avail.left(), avail.top() + 0.5 * (avail.height() - h), avail.width(), h)
    t = Transform(u0, u1, v0, v1, rect)
    # axes
    axis_labels = [*list(panel.axis_labels), "", "", ""]
    font = c.font(7.5)
    qp.setBrush(Qt.BrushStyle.NoBrush)
    qp.setPen(c.pen(theme.foreground, 0.7, alpha=0.55))
    path = QPainterPath()
    tips = []
    for k, (a, b, tip) in enumerate(axes_segments(cam)):
        ua, va = t.px(a[0], a[1])
        ub, vb = t.px(b[0], b[1])
        path.moveTo(float(ua), float(va))
        path.lineTo(float(ub), float(vb))
        ut, vt = t.px(tip[0], tip[1])
        tips.append((float(ua), float(va), float(ut), float(vt), axis_labels[k] or str(k + 1)))
    qp.drawPath(path)
    # Each axis's name just beyond its tip, pushed outward along the axis so that names of axes
    # pointing apart stay apart, and kept inside the panel; a name that would still cover
    # another is left out.
    placed: list[QRectF] = []
    for ua, va, ut, vt, label in tips:
        w, h = c.text_width(label, font), c.text_height(font)
        du, dv = ut - ua, vt - va
        norm = math.hypot(du, dv) or 1.0
        du, dv = du / norm, dv / norm
        push = abs(du) * 0.5 * w + abs(dv) * 0.5 * h
        # ... and kept inside the panel.
        cu = min(max(ut + du * push, inner.left() + 0.5 * w), inner.right() - 0.5 * w)
        cv = min(max(vt + dv * push, inner.top() + 0.5 * h), inner.bottom() - 0.5 * h)
        box = QRectF(cu - 0.5 * w, cv - 0.5 * h, w, h)
        if any(box.intersects(other) for other in placed):
            continue
        placed.append(box)
        c.text(cu, cv, label, font, theme.foreground, align="center", valign="center")
    # points, far to near
    if Q.shape[0]:
        uv, depth = cam.project(Q)
        u, v = t.px(uv[:, 0], uv[:, 1])
        labels = panel.labels
        classes = (
            panel.result.classes
            if panel.result is not None
            else np.unique(labels)
            if labels is not None
            else None
        )
        test = (
            np.zeros(len(Q), bool) if panel.test_mask is None else np.asarray(panel.test_mask, bool)
        )
        for i in painter_order(depth):
            k = 0 if labels is None else _class_index(classes, labels[i])
            col = palette.class_color(k) if labels is not None else theme.foreground
            sym = palette.class_symbol(k) if labels is not None else "o"
            p = _symbol_path(sym, c.mark(4.0 if test[i] else 4.6))
            p.translate(float(u[i]), float(v[i]))
            if test[i]:
                qp.setBrush(QBrush(c.color(theme.test_fill, 0.6)))
                qp.setPen(c.pen(col, 0.8, alpha=0.7))
            else:
                qp.setBrush(QBrush(c.color(col, 0.9)))
                qp.setPen(c.pen(theme.point_edge, 0.3, alpha=0.6))
            qp.drawPath(p)
    return PanelGeometry("scatter3d", cell, rect, t)


def _paint_sweep(c: _Canvas, panel: PanelPlan, cell: QRectF, inner: QRectF) -> PanelGeometry:
    qp, theme = c.qp, c.theme
    res = panel.sweep
    sw = res.sweep
    xs = np.asarray(res.values, dtype=float)
    series = [
        (cv, np.asarray(res.metrics[cv.label][panel.metric], dtype=float)) for cv in sw.curves
    ]
    finite = np.concatenate([s[np.isfinite(s)] for _, s in series] or [np.zeros(1)])
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    if panel.metric in ("accuracy", "test_error"):
        lo, hi = min(lo, 100.0 if panel.metric == "accuracy" else 0.0), max(hi, 0.0)
        lo = max(0.0, lo - 5.0)
        hi = min(100.0, hi + 5.0) if panel.metric == "accuracy" else hi + 5.0
    else:
        lo = 0.0
        hi = hi * 1.08 if hi > 0 else 1.0
    # The x title's second line and a legend too wide for the plot go below the axis.
    font = c.font(7.0)
    line_h = c.text_height(font) + c.pt(1)
    # below the axis a label wider than the panel (less its swatch) is wrapped
    labels = [c.wrap(cv.label, font, inner.width() - c.pt(18)) for cv, _ in series]
    legend_w = c.pt(18) + max(
        (c.text_width(line, font) for lines in labels for line in lines), default=0.0
    )
    xlabel = sw.label or sw.param
    probe = _plot_rect(c, inner, yrange=(lo, hi))
    xfont, xlines = x_title_lines(c, xlabel, max(inner.width(), c.pt(40)))
    below_px = (len(xlines) - 1) * c.text_height(xfont)
    legend_below = legend_w > 0.7 * probe.width() or len(series) * line_h > 0.4 * probe.height()
    if legend_below:
        below_px += sum(len(lines) for lines in labels) * line_h + c.pt(3)
    else:
        labels = [[cv.label] for cv, _ in series]
    rect = _plot_rect(c, inner, yrange=(lo, hi), below=below_px / c.pt(1))
    if sw.log:
        x0, x1 = float(xs.min()) / 1.5, float(xs.max()) * 1.5
    else:
        span = float(np.ptp(xs)) or 1.0
        x0, x1 = float(xs.min()) - 0.04 * span, float(xs.max()) + 0.04 * span
    t = Transform(x0, x1, lo, hi, rect, log_x=sw.log)
    for j, (cv, s) in enumerate(series):
        col = palette.class_color(j)
        u, v = t.px(xs, s)
        qp.setBrush(Qt.BrushStyle.NoBrush)
        style = Qt.PenStyle.DashLine if cv.dashed else Qt.PenStyle.SolidLine
        qp.setPen(c.pen(col, 1.4, style=style))
        qp.drawPath(c.polyline_path(u, v, t.rect))
        for a, b in zip(u, v, strict=True):
            if math.isfinite(a) and math.isfinite(b):
                m = _symbol_path(palette.class_symbol(j), c.pt(4.5))
                m.translate(float(a), float(b))
                qp.setBrush(QBrush(c.color(col)))
                qp.setPen(c.pen(theme.point_edge, 0.4))
                qp.drawPath(m)
    _paint_axes(
        c,
        t,
        xlabel,
        METRICS.get(panel.metric, panel.metric),
        log_x=sw.log,
        title_span=(inner.left(), inner.right()),
    )
    yy, left = rect.top() + c.pt(6), rect.left()
    if legend_below:
        yy = (
            rect.bottom()
            + c.pt(BOTTOM_PT)
            + below_px
            - sum(len(lines) for lines in labels) * line_h
            + 0.5 * line_h
        )
        left = inner.left() + max(0.0, min(rect.left() - inner.left(), inner.width() - legend_w))
    for j, (cv, _) in enumerate(series):
        xx = left + c.pt(18)
        _legend_swatch(
            c, "dash" if cv.dashed else "line", palette.class_color(j), QPointF(xx - c.pt(8), yy)
        )
        for line in labels[j]:
            c.text(xx, yy, line, font, valign="center")
            yy += line_h
    return PanelGeometry("sweep", cell, rect, t)
