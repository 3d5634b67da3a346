"""Paint a :class:`FigurePlan` with QPainter onto any paint device (image, SVG, PDF).

Window-free: only QtGui is used, so it runs with ``QT_QPA_PLATFORM=offscreen``. Everything is
drawn as vector primitives (paths and text) except the filled feature image, which is one raster
image placed exactly over the grid's box. Sizes are given in points (1/72 inch) and converted with
the output's dots per inch, so a figure looks the same at any resolution.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from ..pipeline.geometry import nice_step
from ..sweep import METRICS
from . import palette
from .plan import FigurePlan, PanelPlan, format_value
from .project3d import Camera, axes_segments, normalized, painter_order

FONT_FAMILIES = ["DejaVu Sans", "Helvetica", "Arial", "sans-serif"]
# Layout in points: room for tick labels and axis titles, the colour bar, the panel header.
LEFT_PT = 38.0
BOTTOM_PT = 30.0
TOP_PT = 4.0
COLORBAR_PT = 46.0
# Level sets are labelled on maps at least this wide (nominal points); a smaller map reads its
# values off the colour bar, as the labels would cover it.
LABELLED_MAP_PT = 110.0
COLORBAR_GAP_PT = 6.0
COLORBAR_WIDTH_PT = 7.0
COLORBAR_BELOW_PT = 22.0  # a horizontal colour bar under the x axis: the bar and its labels
HEADER_PT = {"title": 10.5, "line": 8.0}
# The nominal sizes above and in the painters are for a figure of about NOMINAL_IN (width,
# height) inches, a slide. A smaller figure is set smaller, as a journal sets a column figure:
# text by the figure's scale but never below MIN_TEXT_PT (a little more for the larger roles, so
# titles stay above captions), spacing with the text, lines and markers with the figure down to
# MIN_LINE_SCALE of their size.
NOMINAL_IN = (7.5, 4.2)
MIN_TEXT_PT = 6.0
MIN_LINE_SCALE = 0.6


def type_scale(width_in: float, height_in: float) -> float:
    """How much smaller than the nominal slide this figure is set (1 for a slide or larger)."""
    return float(min(1.0, width_in / NOMINAL_IN[0], height_in / NOMINAL_IN[1]))


def font_points(size_pt: float, scale: float) -> float:
    """The size a nominal ``size_pt`` font is set at on a figure of ``scale``."""
    return max(size_pt * scale, min(size_pt, MIN_TEXT_PT + 0.35 * (size_pt - 7.5)))


@dataclass(frozen=True)
class Transform:
    """Data coordinates -> canvas pixels for one plot area (y up in data, down on the canvas)."""

    x0: float
    x1: float
    y0: float
    y1: float
    rect: QRectF
    log_x: bool = False

    def _fx(self, x):
        if self.log_x:
            x = np.log10(np.maximum(np.asarray(x, dtype=float), 1e-300))
            lo, hi = math.log10(self.x0), math.log10(self.x1)
        else:
            lo, hi = self.x0, self.x1
        return (np.asarray(x, dtype=float) - lo) / (hi - lo)

    def px(self, x, y):
        """Pixel coordinates of data points (arrays broadcast)."""
        r = self.rect
        u = r.left() + self._fx(x) * r.width()
        v = r.bottom() - (np.asarray(y, dtype=float) - self.y0) / (self.y1 - self.y0) * r.height()
        return u, v


@dataclass
class PanelGeometry:
    kind: str
    cell: QRectF
    plot: QRectF | None = None
    transform: Transform | None = None
    n_contour_paths: int = 0  # level sets drawn (one path per level), not counting the boundary
    boundary_drawn: bool = False
    texts: list[str] = field(default_factory=list)


@dataclass
class FigureGeometry:
    width: float
    height: float
    dpi: float
    panels: list[PanelGeometry]


class _Canvas:
    def __init__(self, qp: QPainter, width: float, height: float, dpi: float, theme):
        self.qp = qp
        self.width = width
        self.height = height
        self.dpi = dpi
        self.s = dpi / 72.0  # pixels per point
        self.theme = theme
        self.texts: list[str] = []
        self.drawn_texts: list[tuple[str, QRectF]] = []  # every text and its box (pixels)
        self.scale = type_scale(width / dpi, height / dpi)
        # Spacing follows the body text (7.5 pt nominal), which stops shrinking at MIN_TEXT_PT.
        self.spacing = font_points(7.5, self.scale) / 7.5
        self.line_scale = max(self.scale, MIN_LINE_SCALE)

    # units and styles ------------------------------------------------------------------------
    def pt(self, v: float) -> float:
        """Nominal points of layout (room for text, gaps) in pixels, at this figure's scale."""
        return v * self.s * self.spacing

    def mark(self, v: float) -> float:
        """Nominal points of a marker or line in pixels, at this figure's scale."""
        return v * self.s * self.line_scale

    def font(self, size_pt: float, bold: bool = False, italic: bool = False) -> QFont:
        f = QFont()
        f.setFamilies(FONT_FAMILIES)
        f.setPixelSize(max(1, round(font_points(size_pt, self.scale) * self.s)))
        f.setBold(bold)
        f.setItalic(italic)
        return f

    def color(self, c, alpha: float = 1.0) -> QColor:
        q = QColor(c) if isinstance(c, str) else QColor(*[int(v) for v in c[:3]])
        q.setAlphaF(float(alpha))
        return q

    def pen(self, c, width_pt: float, alpha: float = 1.0, style=Qt.PenStyle.SolidLine) -> QPen:
        p = QPen(self.color(c, alpha))
        p.setWidthF(self.mark(width_pt))
        p.setStyle(style)
        p.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        return p

    # text --------------------------------------------------------------------------------------
    def text_width(self, text: str, font: QFont) -> float:
        return QFontMetricsF(font).horizontalAdvance(text)

    def text_height(self, font: QFont) -> float:
        return QFontMetricsF(font).height()

    def wrap(self, text: str, font: QFont, width: float) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``width`` where words allow."""
        fm = QFontMetricsF(font)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in paragraph.split(" "):
                candidate = f"{line} {word}" if line else word
                if line and fm.horizontalAdvance(candidate) > width:
                    lines.append(line)
                    line = word
                else:
                    line = candidate
            lines.append(line)
        return lines

    def fitted_font(self, text: str, size_pt: float, width: float, *, bold=False) -> QFont:
        """A font for ``text`` on one line within ``width``: the size, or smaller (down to
        70 %) where it is too wide. Never cut: at 70 % it is kept whatever its width."""
        size = size_pt
        font = self.font(size, bold)
        while self.text_width(text, font) > width and size > 0.7 * size_pt:
            size *= 0.95
            font = self.font(size, bold)
        return font

    def fit_text(
        self, text: str, size_pt: float, width: float, *, bold=False, italic=False, max_lines=2
    ) -> tuple[QFont, list[str]]:
        """A font and the lines that set ``text`` within ``width``: wrapped at spaces, and set
        smaller (down to 85 % of its size) where it needs more than ``max_lines`` lines or a
        word is wider than the room. Never cut: the last try is kept whatever its length."""
        size = size_pt
        while True:
            font = self.font(size, bold, italic)
            lines = self.wrap(text, font, width)
            widest = max(self.text_width(line, font) for line in lines)
            if (len(lines) <= max_lines and widest <= width) or size <= 0.85 * size_pt:
                return font, lines
            size *= 0.95

    def text(
        self,
        x: float,
        y: float,
        text: str,
        font: QFont,
        color=None,
        align: str = "left",
        valign: str = "baseline",
        rotate: float = 0.0,
    ) -> None:
        """Draw ``text`` anchored at (x, y): align left/center/right, valign top/center/baseline."""
        if not text:
            return
        qp = self.qp
        fm = QFontMetricsF(font)
        w = fm.horizontalAdvance(text)
        dx = {"left": 0.0, "center": -0.5 * w, "right": -w}[align]
        dy = {
            "baseline": 0.0,
            "top": fm.ascent(),
            "center": 0.5 * (fm.ascent() - fm.descent()),
            "bottom": -fm.descent(),
        }[valign]
        qp.save()
        qp.setFont(font)
        qp.setPen(self.color(color or self.theme.foreground))
        qp.translate(x, y)
        if rotate:
            qp.rotate(rotate)
        qp.drawText(QPointF(dx, dy), text)
        qp.restore()
        self.texts.append(text)
        box = QRectF(dx, dy - fm.ascent(), w, fm.ascent() + fm.descent())
        if rotate:
            # rotate(-90): (x, y) -> (y, -x)
            box = QRectF(box.top(), -box.right(), box.height(), box.width())
        self.drawn_texts.append((text, box.translated(x, y)))

    # paths -------------------------------------------------------------------------------------
    @staticmethod
    def polyline_path(u: np.ndarray, v: np.ndarray) -> QPainterPath:
        """One path through the points, broken at NaN (separate pieces of a level set)."""
        path = QPainterPath()
        pen_down = False
        for a, b in zip(u.tolist(), v.tolist(), strict=True):
            if not (math.isfinite(a) and math.isfinite(b)):
                pen_down = False
                continue
            if pen_down:
                path.lineTo(a, b)
            else:
                path.moveTo(a, b)
                pen_down = True
        return path


# -- marker shapes ---------------------------------------------------------------------------------
def _symbol_path(symbol: str, size: float) -> QPainterPath:
    """A marker of about ``size`` pixels across, centred on the origin."""
    r = 0.5 * size
    path = QPainterPath()
    if symbol == "s":
        path.addRect(QRectF(-0.85 * r, -0.85 * r, 1.7 * r, 1.7 * r))
        return path
    if symbol == "d":
        poly = [(0, -1.15 * r), (r, 0), (0, 1.15 * r), (-r, 0)]
    elif symbol in ("t", "t1"):
        sign = 1.0 if symbol == "t" else -1.0  # "t" points down, as in pyqtgraph
        poly = [(-r * 1.1, -sign * 0.75 * r), (r * 1.1, -sign * 0.75 * r), (0, sign * 1.15 * r)]
    elif symbol in ("h", "p"):
        k = 6 if symbol == "h" else 5
        poly = [
            (r * math.sin(2 * math.pi * j / k), -r * math.cos(2 * math.pi * j / k))
            for j in range(k)
        ]
    elif symbol == "star":
        poly = []
        for j in range(10):
            rr = r * (1.15 if j % 2 == 0 else 0.5)
            a = math.pi * j / 5
            poly.append((rr * math.sin(a), -rr * math.cos(a)))
    else:
        path.addEllipse(QPointF(0, 0), r, r)
        return path
    path.addPolygon(QPolygonF([QPointF(a, b) for a, b in poly]))
    path.closeSubpath()
    return path


def _class_index(classes: np.ndarray, label) -> int:
    """Colour index of a label: its position among the classes (labels are 0..k-1 normally)."""
    if classes is None or len(classes) == 0:
        return 0
    hits = np.flatnonzero(np.asarray(classes) == label)
    if hits.size:
        return int(hits[0])
    try:
        return int(label)
    except (TypeError, ValueError):
        return 0


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


# -- the figure ------------------------------------------------------------------------------------
ARRANGEMENTS = ("auto", "row", "column", "grid")


def arrangement(plan: FigurePlan) -> tuple[int, int]:
    """(rows, columns) of the panels: the plan's own, or the ``arrangement`` setting's."""
    n = len(plan.panels)
    choice = plan.settings.get("arrangement", "auto")
    if choice == "row":
        return 1, n
    if choice == "column":
        return n, 1
    if choice == "grid":
        cols = math.ceil(math.sqrt(n))
        return math.ceil(n / cols), cols
    return plan.rows, plan.cols


def paint_figure(
    qp: QPainter, plan: FigurePlan, width: float, height: float, dpi: float
) -> FigureGeometry:
    """Draw ``plan`` into the rectangle (0, 0, width, height) of ``qp`` (pixels at ``dpi``).

    The layout is measured, not fixed: the title and the panels' headers wrap (and shrink a
    little) to their room, the legend breaks into lines, panels of a row that show the same
    input box share one y axis, and a colour bar goes beside or below its plot, whichever leaves
    the larger picture. Nothing is cut.
    """
    theme = palette.theme(str(plan.settings.get("theme", "light")))
    c = _Canvas(qp, width, height, dpi, theme)
    qp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    qp.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    qp.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    qp.fillRect(QRectF(0, 0, width, height), c.color(theme.background))
    titles = bool(plan.settings.get("show_titles", True))

    margin = c.pt(8)
    top = margin
    if plan.title and titles:
        font, lines = c.fit_text(plan.title, 12.5, width - 2 * margin, bold=True)
        for line in lines:
            c.text(width / 2, top, line, font, align="center", valign="top")
            top += c.text_height(font)
        top += c.pt(4)
    items = _legend_items(plan)
    legend_rows = _legend_rows(c, items, width - 2 * margin)
    legend_h = len(legend_rows) * (c.text_height(c.font(7.5)) + c.pt(3)) if items else 0.0
    note_font, note_lines = c.font(7.5, italic=True), []
    if plan.note:
        note_lines = c.wrap(plan.note, note_font, width - 2 * margin)
    note_h = len(note_lines) * c.text_height(note_font) + (c.pt(2) if note_lines else 0.0)
    area = QRectF(margin, top, width - 2 * margin, height - top - margin - legend_h - note_h)
    rows, cols = arrangement(plan)
    gap = c.pt(10)
    ch = (area.height() - gap * (rows - 1)) / rows
    geoms = []
    # Panels of one row share their header's height, so that their plots line up.
    headers = [
        _header_lines(c, p, (area.width() - gap * (cols - 1)) / cols, titles) for p in plan.panels
    ]
    heights = [_header_height(c, h) for h in headers]
    for row in range(rows):
        members = list(range(row * cols, min((row + 1) * cols, len(plan.panels))))
        if not members:
            continue
        row_header = max(heights[i] for i in members)
        shared = _shares_y(plan, members)
        # With a shared y axis only the first panel has tick labels: the others give that room
        # to their plots, so every plot of the row has the same width.
        saved = c.pt(LEFT_PT - 6) if shared else 0.0
        cw = (area.width() - gap * (cols - 1) - saved) / cols
        x = area.left()
        for j, i in enumerate(members):
            w = cw + (saved if j == 0 else 0.0)
            cell = QRectF(x, area.top() + row * (ch + gap), w, ch)
            x += w + gap
            c.texts = []
            _paint_header(c, headers[i], cell)
            geom = _paint_panel(
                c, plan.panels[i], cell, plan.settings, row_header, ylabels=not shared or j == 0
            )
            geom.texts = list(c.texts)
            geoms.append(geom)
    if items:
        _paint_legend(
            c, legend_rows, QRectF(margin, area.bottom() + c.pt(2), width - 2 * margin, legend_h)
        )
    y = height - margin - (len(note_lines) - 1) * c.text_height(note_font)
    for line in note_lines:
        c.text(margin, y, line, note_font, theme.muted, valign="bottom")
        y += c.text_height(note_font)
    return FigureGeometry(width, height, dpi, geoms)


def _shares_y(plan: FigurePlan, members: list[int]) -> bool:
    """Whether the row's panels are all input pictures of one box (one y axis serves all)."""
    panels = [plan.panels[i] for i in members]
    if len(panels) < 2 or any(
        p.kind != "input" or p.result is None or p.result.grid is None for p in panels
    ):
        return False
    boxes = np.array([p.result.grid.box for p in panels], dtype=float)
    return bool(np.allclose(boxes, boxes[0], rtol=1e-9, atol=0.0))


def _paint_panel(
    c: _Canvas,
    panel: PanelPlan,
    cell: QRectF,
    settings: dict,
    header: float,
    *,
    ylabels: bool = True,
) -> PanelGeometry:
    inner = QRectF(cell.left(), cell.top() + header, cell.width(), cell.height() - header)
    kind = panel.kind
    if kind == "input":
        return _paint_input(c, panel, cell, inner, settings, ylabels=ylabels)
    if kind == "histogram":
        return _paint_histogram(c, panel, cell, inner)
    if kind == "regression":
        return _paint_regression(c, panel, cell, inner, settings)
    if kind == "scatter3d":
        return _paint_scatter3d(c, panel, cell, inner, settings)
    if kind == "sweep":
        return _paint_sweep(c, panel, cell, inner)
    if kind == "errorbars":
        from .errorbars import paint_errorbars

        return paint_errorbars(c, panel, cell, inner)
    if kind == "chart":
        from .paint_charts import paint_chart

        return paint_chart(c, panel, cell, inner)
    font, lines = c.fit_text(panel.message, 9, inner.width(), italic=True, max_lines=4)
    y = inner.center().y() - 0.5 * c.text_height(font) * (len(lines) - 1)
    for line in lines:
        c.text(inner.center().x(), y, line, font, c.theme.muted, align="center", valign="center")
        y += c.text_height(font)
    return PanelGeometry(kind, cell)


def _header_lines(c: _Canvas, panel: PanelPlan, width: float, titles: bool = True) -> list:
    """The header's (font, line, colour) rows: title, caption and measures, wrapped."""
    rows = []
    if panel.title and titles:
        font, lines = c.fit_text(panel.title, 10.5, width, bold=True)
        rows += [(font, line, None) for line in lines]
    for text in (panel.caption, panel.measures):
        if text:
            font, lines = c.fit_text(text, 8.0, width)
            rows += [(font, line, c.theme.muted) for line in lines]
    return rows


def _header_height(c: _Canvas, rows: list) -> float:
    return c.pt(3) + sum(c.text_height(font) for font, _, _ in rows) + (c.pt(3) if rows else 0)


def _paint_header(c: _Canvas, rows: list, cell: QRectF) -> None:
    y = cell.top()
    for font, line, color in rows:
        c.text(cell.center().x(), y, line, font, color, align="center", valign="top")
        y += c.text_height(font)


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
) -> QRectF:
    """The axes' rectangle inside ``inner``, leaving room for tick labels and axis titles, and
    for a colour bar (``right`` or ``below``, nominal points; ``right_px`` measured pixels).
    With ``yrange`` the room for the y tick labels is measured on their text. ``ylabel`` False:
    no y tick labels and no y title (a row's shared axis)."""
    if not ylabel:
        left = c.pt(6)
    elif yrange is not None:
        left = _y_label_room(c, *yrange)
    else:
        left = c.pt(LEFT_PT)
    right = c.pt(right) if right_px is None else right_px
    bottom = c.pt(BOTTOM_PT + below)
    top = c.pt(TOP_PT)
    r = QRectF(
        inner.left() + left,
        inner.top() + top,
        inner.width() - left - right,
        inner.height() - top - bottom,
    )
    if aspect is not None and r.width() > 0 and r.height() > 0:
        # width / height of the data box: keep the data's aspect (one unit is one unit).
        if r.width() / r.height() > aspect:
            w = r.height() * aspect
            r = QRectF(r.left() + 0.5 * (r.width() - w), r.top(), w, r.height())
        else:
            h = r.width() / aspect
            r = QRectF(r.left(), r.top() + 0.5 * (r.height() - h), r.width(), h)
    return r


def _widest_tick_label(c: _Canvas, lo: float, hi: float, font: QFont) -> float:
    values = ticks(lo, hi, 5)
    step = float(values[1] - values[0]) if len(values) > 1 else None
    return max(
        (c.text_width(_superscript(tick_label(float(v), step)), font) for v in values),
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


def _spaced_ticks(
    c: _Canvas, lo: float, hi: float, length: float, font: QFont, *, across: bool
) -> np.ndarray:
    """Round tick values whose labels do not touch along an axis ``length`` pixels long:
    ``across`` labels (a y axis) need a line's height apart, others their widths."""
    preferred = ticks(lo, hi, max(3, int(length / c.pt(45 if not across else 32))))
    for target in range(max(len(preferred) - 1, 1), 0, -1):
        values = ticks(lo, hi, target) if target >= 2 else None
        if values is None or len(values) > target + 1:
            step = nice_step(hi - lo, target)
            start = math.ceil(lo / step - 1e-9) * step
            values = start + step * np.arange(math.floor((hi - start) / step + 1e-9) + 1)
            values[np.abs(values) < step * 1e-9] = 0.0
        if len(values) < 2:
            return values
        step = float(values[1] - values[0])
        pitch = step / (hi - lo) * length
        labels = [_superscript(tick_label(float(v), step)) for v in values]
        need = (
            c.text_height(font)
            if across
            else max(c.text_width(text, font) for text in labels) + c.pt(4)
        )
        if pitch >= need:
            return values
    return values


def _paint_axes(
    c: _Canvas,
    t: Transform,
    xlabel: str,
    ylabel: str,
    *,
    log_x: bool = False,
    ytick_labels: bool = True,
) -> None:
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
                _superscript(tick_label(float(x), xstep)),
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
                _superscript(tick_label(float(y), ystep)),
                font,
                align="right",
                valign="center",
            )
    qp.drawPath(path)
    if xlabel:
        # A title wider than the plot is set smaller or on two lines (the caller leaves room).
        room = max(r.width(), c.pt(40))
        xfont = c.fitted_font(xlabel, 8.5, room)
        lines = [xlabel] if c.text_width(xlabel, xfont) <= room else c.wrap(xlabel, xfont, room)
        y = r.bottom() + tick + c.pt(2) + c.text_height(font)
        for line in lines:
            c.text(r.center().x(), y, line, xfont, align="center", valign="top")
            y += c.text_height(xfont)
    if ylabel and ytick_labels:
        widest = max(
            (c.text_width(_superscript(tick_label(float(y), ystep)), font) for y in yt), default=0.0
        )
        x = r.left() - tick - c.pt(4) - widest
        yfont = c.fitted_font(ylabel, 8.5, r.height())
        c.text(x, r.center().y(), ylabel, yfont, align="center", valign="bottom", rotate=-90.0)


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
) -> PanelGeometry:
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
        right_px=_colorbar_room(c, lo, hi, bar_label) if show_bar else None,
    )
    bar_below = False
    if show_bar:
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


def _paint_histogram(c: _Canvas, panel: PanelPlan, cell: QRectF, inner: QRectF) -> PanelGeometry:
    r = panel.result
    h = r.histograms
    qp, theme = c.qp, c.theme
    edges = np.asarray(h.edges, dtype=float)
    role = panel.role
    keys = sorted((k for k in h.density if k[1] == role), key=lambda k: str(k[0]))
    top = max((float(np.max(h.density[k])) for k in keys), default=1.0) * 1.08 or 1.0
    rect = _plot_rect(c, inner, yrange=(0.0, top))
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
    # class legend inside the plot, top left, where it fits (else the figure's legend serves)
    font = c.font(7.0)
    y = rect.top() + c.pt(4)
    entries = [f"{palette.class_name(key[0])} ({int(np.sum(h.counts[key]))})" for key in keys]
    legend_w = c.pt(14) + max((c.text_width(e, font) for e in entries), default=0.0)
    if len(keys) * c.text_height(font) + c.pt(6) > 0.6 * rect.height() or legend_w > rect.width():
        keys = []
    for key in keys:
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
        qp.drawPath(c.polyline_path(u, v))
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
        qp.drawPath(c.polyline_path(uc, vc))
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
    yy = rect.top() + c.pt(5)
    for kind, col, label in items:
        xx = rect.right() - c.pt(6) - c.text_width(label, font)
        _legend_swatch(c, kind, col, QPointF(xx - c.pt(9), yy))
        c.text(xx, yy, label, font, valign="center")
        yy += c.text_height(font)
    return PanelGeometry("regression", cell, rect, t)


def _legend_swatch(c: _Canvas, kind: str, col: str, at: QPointF) -> None:
    qp = c.qp
    path = QPainterPath()
    if kind in ("line", "dash", "thick"):
        path.moveTo(at.x() - c.pt(5), at.y())
        path.lineTo(at.x() + c.pt(5), at.y())
        style = Qt.PenStyle.DashLine if kind == "dash" else Qt.PenStyle.SolidLine
        qp.setBrush(Qt.BrushStyle.NoBrush)
        qp.setPen(c.pen(col, 1.9 if kind == "thick" else 1.3, style=style))
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
        tips.append((float(ut), float(vt), axis_labels[k] or str(k + 1)))
    qp.drawPath(path)
    for ut, vt, label in tips:
        c.text(ut, vt, label, font, theme.foreground, align="center", valign="center")
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
    legend_w = c.pt(18) + max((c.text_width(cv.label, font) for cv, _ in series), default=0.0)
    xlabel = sw.label or sw.param
    probe = _plot_rect(c, inner, yrange=(lo, hi))
    xfont, xlines = c.fit_text(xlabel, 8.5, max(probe.width(), c.pt(40)))
    below_px = (len(xlines) - 1) * c.text_height(xfont)
    legend_below = legend_w > 0.7 * probe.width() or len(series) * line_h > 0.4 * probe.height()
    if legend_below:
        below_px += len(series) * line_h + c.pt(3)
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
        qp.drawPath(c.polyline_path(u, v))
        for a, b in zip(u, v, strict=True):
            if math.isfinite(a) and math.isfinite(b):
                m = _symbol_path(palette.class_symbol(j), c.pt(4.5))
                m.translate(float(a), float(b))
                qp.setBrush(QBrush(c.color(col)))
                qp.setPen(c.pen(theme.point_edge, 0.4))
                qp.drawPath(m)
    _paint_axes(c, t, xlabel, METRICS.get(panel.metric, panel.metric), log_x=sw.log)
    yy, left = rect.top() + c.pt(6), rect.left()
    if legend_below:
        yy = rect.bottom() + c.pt(BOTTOM_PT) + below_px - len(series) * line_h + 0.5 * line_h
        left = inner.left() + max(0.0, min(rect.left() - inner.left(), inner.width() - legend_w))
    for j, (cv, _) in enumerate(series):
        xx = left + c.pt(18)
        _legend_swatch(
            c, "dash" if cv.dashed else "line", palette.class_color(j), QPointF(xx - c.pt(8), yy)
        )
        c.text(xx, yy, cv.label, font, valign="center")
        yy += c.text_height(font) + c.pt(1)
    return PanelGeometry("sweep", cell, rect, t)


# -- the figure's legend ---------------------------------------------------------------------------
def _legend_items(plan: FigurePlan) -> list[tuple[str, str, str]]:
    items: list[tuple[str, str, str]] = []
    kinds = {p.kind for p in plan.panels}
    if not kinds & {"input", "scatter3d"}:
        return items
    classes: list = []
    has_test = False
    boundary = False
    expansion = False
    for p in plan.panels:
        r = p.result
        if r is None or p.kind not in ("input", "scatter3d"):
            continue
        labels = p.labels if p.kind == "scatter3d" else r.y
        if labels is not None and r.kind != "regressor":
            for cl in r.classes.tolist() if len(r.classes) else np.unique(labels).tolist():
                if cl not in classes:
                    classes.append(cl)
        has_test = has_test or bool(np.any(r.test_mask))
        if p.kind == "input":
            boundary = boundary or (
                r.grid is not None
                and r.grid.boundary is not None
                and r.grid.boundary.path.shape[0] > 0
            )
            pts = r.expansion_points
            expansion = expansion or (
                pts is not None
                and 0 < len(pts) < max(r.n_train, 1)
                and plan.settings.get("show_expansion", "auto")
            )
    one_class = len(classes) <= 1
    for k, cl in enumerate(classes):
        name = "training points" if one_class else palette.class_name(cl)
        items.append((f"marker:{palette.class_symbol(k)}:filled", palette.class_color(k), name))
    if has_test:
        items.append(("marker:o:hollow", palette.LIGHT.foreground, "test points (hollow)"))
    if boundary:
        items.append(("thick", palette.LIGHT.boundary, "decision boundary"))
    if expansion:
        items.append(("circle", palette.LIGHT.expansion, "expansion points (size ∝ |α|)"))
    return items


def _legend_rows(c: _Canvas, items, width: float) -> list[list[tuple]]:
    """The legend's items in lines no wider than ``width`` (a line holds at least one item)."""
    font = c.font(7.5)
    rows: list[list[tuple]] = []
    used = 0.0
    for item in items:
        w = c.pt(14) + c.text_width(item[2], font) + c.pt(12)
        if rows and used + w <= width:
            rows[-1].append((item, w))
            used += w
        else:
            rows.append([(item, w)])
            used = w
    return rows


def _paint_legend(c: _Canvas, rows, rect: QRectF) -> None:
    font = c.font(7.5)
    theme = c.theme
    line_h = rect.height() / max(len(rows), 1)
    for r, row in enumerate(rows):
        x = rect.center().x() - 0.5 * sum(w for _, w in row)
        y = rect.top() + (r + 0.5) * line_h
        for (kind, col, label), w in row:
            if col in (palette.LIGHT.foreground, palette.LIGHT.boundary, palette.LIGHT.expansion):
                col = {
                    palette.LIGHT.foreground: theme.foreground,
                    palette.LIGHT.boundary: theme.boundary,
                    palette.LIGHT.expansion: theme.expansion,
                }[col]
            _legend_swatch(c, kind, col, QPointF(x + c.pt(6), y))
            c.text(x + c.pt(14), y, label, font, valign="center")
            x += w


__all__ = ["FigureGeometry", "PanelGeometry", "Transform", "paint_figure"]


# -- a size that fits the content --------------------------------------------------------------------
def _panel_aspect(panel: PanelPlan) -> tuple[float, float]:
    """(width / height of the plot area, extra right margin in points) of a panel."""
    if panel.kind == "input" and panel.result is not None and panel.result.grid is not None:
        x0, x1, y0, y1 = panel.result.grid.box
        return (x1 - x0) / max(y1 - y0, 1e-12), COLORBAR_PT
    if panel.kind == "scatter3d":
        Q = normalized(panel.points)[0] if panel.points is not None else None
        u0, u1, v0, v1 = Camera().frame(Q)
        return (u1 - u0) / (v1 - v0), 8.0
    if panel.kind == "regression":
        return 2.0, 8.0
    if panel.kind == "histogram":
        return 1.9, 8.0
    if panel.kind == "sweep":
        return 1.35, 8.0
    if panel.kind == "chart":
        from .paint_charts import chart_aspect

        return chart_aspect(panel.chart), 8.0
    if panel.kind == "errorbars":
        return 2.0, 8.0
    return 1.5, 8.0


def natural_height(plan: FigurePlan, width: float, dpi: float) -> int:
    """The height at which the panels of ``plan`` fill a figure ``width`` pixels wide."""
    s = dpi / 72.0
    line = 1.2  # text height per point of font size
    margin, gap = 8 * s, 10 * s
    total = 2 * margin
    if plan.title:
        total += (12.5 * line + 4) * s
    if _legend_items(plan):
        total += 16 * s
    if plan.note:
        total += (7.5 * line + 2) * s
    cw = (width - 2 * margin - gap * (plan.cols - 1)) / plan.cols
    for row in range(plan.rows):
        tallest = 0.0
        for panel in plan.panels[row * plan.cols : (row + 1) * plan.cols]:
            header = (3 + (10.5 * line + 1 if panel.title else 0)) * s
            header += sum(8.0 * line * s for text in (panel.caption, panel.measures) if text)
            aspect, right = _panel_aspect(panel)
            plot_w = max(cw - (LEFT_PT + right) * s, 10.0)
            extra = (TOP_PT + BOTTOM_PT) * s if panel.kind != "scatter3d" else 12 * s
            tallest = max(tallest, header + extra + plot_w / aspect)
        total += tallest
    total += gap * (plan.rows - 1)
    return round(total)
