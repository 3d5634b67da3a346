"""The canvas figures are painted on: units, fonts, text that fits, marker shapes.

Sizes are given in points (1/72 inch) and converted with the output's dots per inch, so a figure
looks the same at any resolution. A figure smaller than a slide is set smaller as a journal sets
a column figure (``type_scale``): text down to ``MIN_TEXT_PT``, spacing with the text, lines and
markers with the figure. Every text drawn is recorded with its box, so tests can check that
nothing is cut, outside, or on top of another text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
)

from .plan import NOMINAL_IN

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
COLORBAR_BELOW_WIDTH_PT = 5.0  # a horizontal colour bar under the x axis
HEADER_PT = {"title": 10.5, "line": 8.0}
# The nominal sizes above and in the painters are for a figure of about NOMINAL_IN (width,
# height) inches, a slide. A smaller figure is set smaller, as a journal sets a column figure:
# text by the figure's scale but never below MIN_TEXT_PT (a little more for the larger roles, so
# titles stay above captions), spacing with the text, lines and markers with the figure down to
# MIN_LINE_SCALE of their size.
MIN_TEXT_PT = 6.5
MIN_LINE_SCALE = 0.6


def type_scale(width_in: float, height_in: float) -> float:
    """How much smaller than the nominal slide this figure is set (1 for a slide or larger)."""
    return float(min(1.0, width_in / NOMINAL_IN[0], height_in / NOMINAL_IN[1]))


def font_points(size_pt: float, scale: float) -> float:
    """The size a nominal ``size_pt`` font is set at on a figure of ``scale``: never below
    ``MIN_TEXT_PT`` (what journals ask of a figure at its printed size, with a little to
    spare), the roles larger than the body text (7.5 pt nominal) a little above it."""
    return max(size_pt * scale, MIN_TEXT_PT + 0.35 * max(size_pt - 7.5, 0.0))


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
    # An input panel's room for its map: ``plot`` is the largest rectangle of the data box's
    # shape in it. ``free_room``: the room the map would have if its box took the room's shape
    # (where the colour bar would go then), the shape an export fits the box to.
    room: QRectF | None = None
    free_room: QRectF | None = None
    # The lines of the panel's caption and measures under its title, as painted.
    caption_lines: int = 0


@dataclass
class FigureGeometry:
    width: float
    height: float
    dpi: float
    panels: list[PanelGeometry]
    # The lines of the caption said once above the panels (what they share).
    shared_lines: int = 0


def _unbroken(paragraph: str) -> list[str]:
    """The words of ``paragraph`` that a line break may not part: "=" joins its two sides,
    "%" and "·" join the word before them."""
    words: list[str] = []
    join_next = False
    for word in paragraph.split(" "):
        if words and (join_next or word in ("%", "·", "=")):
            words[-1] += " " + word
        else:
            words.append(word)
        join_next = word == "="
    return words


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
        # Whole pixels, rounded up: a text is never set below its size (nor below MIN_TEXT_PT,
        # however much a fitted text shrinks).
        points = max(font_points(size_pt, self.scale), MIN_TEXT_PT)
        f.setPixelSize(max(1, math.ceil(points * self.s - 1e-6)))
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
        """``text`` broken at spaces into lines no wider than ``width`` where words allow; a
        number stays with its unit and both sides of an "=" stay together ("c = 0.5",
        "9.0 %")."""
        fm = QFontMetricsF(font)
        lines: list[str] = []
        for paragraph in text.split("\n"):
            line = ""
            for word in _unbroken(paragraph):
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
                return font, self.balanced(text, font, lines, width)
            size *= 0.95

    def balanced(self, text: str, font: QFont, lines: list[str], width: float) -> list[str]:
        """``lines`` (``text`` wrapped within ``width``) broken again, as many or fewer: at
        the caption's separators where its parts fit a line each ("training error 9.0 % /
        zero coefficients 68 %", "Oriented KPCA, / rotation"), else into lines of about
        equal width ("Kernel PCA, / feature 1", not "Kernel PCA, feature / 1"; the narrowest
        width that needs no more lines is found by bisection)."""
        if len(lines) < 2 or "\n" in text:
            return lines
        fm = QFontMetricsF(font)
        for sep, kept in ((" · ", ""), (", ", ",")):
            phrases = text.split(sep)
            if len(phrases) < 2:
                continue
            grouped: list[str] = []
            for phrase in phrases:
                candidate = f"{grouped[-1]}{sep}{phrase}" if grouped else phrase
                if grouped and fm.horizontalAdvance(candidate + kept) <= width:
                    grouped[-1] = candidate
                else:
                    if grouped:
                        grouped[-1] += kept
                    grouped.append(phrase)
            if len(grouped) <= len(lines) and all(
                fm.horizontalAdvance(line) <= width for line in grouped
            ):
                return grouped
        lo = max(fm.horizontalAdvance(w) for w in _unbroken(text))
        hi = max(fm.horizontalAdvance(line) for line in lines)
        for _ in range(12):
            mid = 0.5 * (lo + hi)
            if len(self.wrap(text, font, mid)) <= len(lines):
                hi = mid
            else:
                lo = mid
        return self.wrap(text, font, hi)

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
    def polyline_path(u: np.ndarray, v: np.ndarray, clip: QRectF | None = None) -> QPainterPath:
        """One path through the points, broken at NaN (separate pieces of a level set);
        with ``clip``, only its parts inside that rectangle (:func:`clipped`)."""
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
        return path if clip is None else clipped(path, clip)


def _clip_segment(x0, y0, x1, y1, rect: QRectF):
    """The part of the segment (x0, y0)-(x1, y1) inside ``rect`` as (t0, t1), the fractions of
    the way along it where it enters and leaves (Liang and Barsky's clipping); None when no
    part is inside."""
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in (
        (-dx, x0 - rect.left()),
        (dx, rect.right() - x0),
        (-dy, y0 - rect.top()),
        (dy, rect.bottom() - y0),
    ):
        if p == 0.0:
            if q < 0.0:
                return None
            continue
        t = q / p
        if p < 0.0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return t0, t1


def clipped(path: QPainterPath, rect: QRectF) -> QPainterPath:
    """The straight lines of ``path`` (move-to and line-to elements) cut to ``rect``: a line
    leaving the rectangle ends on its edge and starts again where it comes back.

    The painters cut their curves with this rather than with the painter's clip rectangle,
    which SVG output ignores: a curve there would leave its axes.
    """
    out = QPainterPath()
    x = y = 0.0
    drawn_to = None  # where the last drawn line of ``out`` ends
    for i in range(path.elementCount()):
        e = path.elementAt(i)
        if e.isMoveTo():
            x, y = e.x, e.y
            continue
        part = _clip_segment(x, y, e.x, e.y, rect)
        if part is not None:
            t0, t1 = part
            start = (x + t0 * (e.x - x), y + t0 * (e.y - y))
            end = (x + t1 * (e.x - x), y + t1 * (e.y - y))
            if drawn_to != start:
                out.moveTo(*start)
            out.lineTo(*end)
            drawn_to = end
        x, y = e.x, e.y
    return out


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
