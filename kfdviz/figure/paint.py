"""Paint a :class:`FigurePlan` with QPainter onto any paint device (image, SVG, PDF).

Window-free: only QtGui is used, so it runs with ``QT_QPA_PLATFORM=offscreen``. Everything is
drawn as vector primitives (paths and text) except the filled feature image, which is one raster
image placed exactly over the grid's box. Sizes are given in points (1/72 inch) and converted with
the output's dots per inch, so a figure looks the same at any resolution.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import (
    QImage,
    QPainter,
)

from . import palette
from .axes import (
    SHARED_LEFT_PT,
    _colorbar_room,
    _legend_swatch,
    _y_label_room,
)
from .canvas import (
    BOTTOM_PT,
    COLORBAR_BELOW_WIDTH_PT,
    COLORBAR_GAP_PT,
    COLORBAR_PT,
    LEFT_PT,
    TOP_PT,
    FigureGeometry,
    PanelGeometry,
    Transform,
    _Canvas,
    _class_index,
    type_scale,
)
from .errorbars import paint_errorbars
from .paint_charts import chart_aspect, legend_entries, legend_fits, paint_chart
from .paint_input import (
    MapRooms,
    _bar_label,
    _colorbar_below_room,
    _paint_input,
    colorbars_below,
    map_rooms,
)
from .paint_panels import (
    _paint_histogram,
    _paint_regression,
    _paint_scatter3d,
    _paint_sweep,
    histogram_legend_fits,
)
from .plan import FigurePlan, PanelPlan, titles_shown
from .project3d import Camera, normalized

# -- the figure ------------------------------------------------------------------------------------
MARGIN_PT = 5.0  # around the figure
PANEL_GAP_PT = 10.0  # between panels and between rows
SHARED_GAP_PT = 4.0  # between the panels of a row that shares one y axis
ARRANGEMENTS = ("auto", "row", "column", "grid")
# A panel's caption and measures take at most this many lines under its title (at a paper
# column's size four captions of five lines each left the maps a third of the height); what does
# not fit is said under the figure at its full width, after the panel's title.
MAX_CAPTION_LINES = 3
# A plot of a figure smaller than a slide is at least this tall (inches) where moving text out of
# the panels' headers can make it so: first every panel's measures, then its caption go under
# the figure (TEXT_LEVELS, tried in order).
MIN_PLOT_IN = 0.8
TEXT_LEVELS = ("headers", "measures below", "captions below")
# The height a colour bar below a plot takes: its gap, the bar, tick labels and its title.
BELOW_BAR_PT = COLORBAR_GAP_PT + COLORBAR_BELOW_WIDTH_PT + 2 * 7.5 * 1.2


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


def roomiest_arrangement(plan: FigurePlan, width: float, height: float, dpi: float):
    """(rows, columns) to paint ``plan`` with: the ``arrangement`` setting's; for "auto", the
    plan's own unless a single row gives its smallest plot more room.

    Each panel's header and axes take the same room at any figure size, so rows that suit a
    slide can leave nothing for the plots of a small figure (four maps at a paper column's
    size): there one row of narrower plots is the larger picture. Both are measured by laying
    the figure out on a scratch image.
    """
    own = arrangement(plan)
    if plan.settings.get("arrangement", "auto") != "auto" or own[0] == 1:
        return own
    row = (1, len(plan.panels))
    if _smallest_plot(plan, width, height, dpi, row) > _smallest_plot(
        plan, width, height, dpi, own
    ):
        return row
    return own


def text_level_for(plan: FigurePlan, width: float, height: float, dpi: float, shape) -> int:
    """Which of :data:`TEXT_LEVELS` a figure of ``plan`` in ``shape`` is painted at: the first
    whose every plot is at least :data:`MIN_PLOT_IN` tall (:func:`_plot_height`), else the one
    with the tallest shortest plot. A figure a slide's size or larger keeps the text in the headers."""
    if type_scale(width / dpi, height / dpi) >= 1.0:
        return 0
    tallest = []
    for level in range(len(TEXT_LEVELS)):
        geometry = _scratch_layout(plan, width, height, dpi, shape, level)
        shortest = min((_plot_height(g) for g in geometry.panels if g.plot), default=0.0)
        if shortest >= MIN_PLOT_IN * dpi:
            return level
        tallest.append(shortest)
    return int(np.argmax(tallest))


def _plot_height(g: PanelGeometry) -> float:
    """How tall a panel's plot is: a map's, once its box takes its room's shape (as exports
    fit it), the room's height."""
    return g.free_room.height() if g.free_room is not None else g.plot.height()


def _scratch_layout(plan, width, height, dpi, shape, text_level=0) -> FigureGeometry:
    """The layout of ``plan`` in ``shape`` (painted on a one-pixel image: the layout is the
    same, the drawing is clipped away)."""
    image = QImage(1, 1, QImage.Format.Format_ARGB32_Premultiplied)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    qp = QPainter(image)
    try:
        return paint_figure(qp, plan, width, height, dpi, shape=shape, text_level=text_level)
    finally:
        qp.end()


def _smallest_plot(plan: FigurePlan, width: float, height: float, dpi: float, shape) -> float:
    """The shorter side of the smallest plot when ``plan`` is laid out in ``shape``, in
    pixels, at the text level that :func:`text_level_for` would choose for that shape."""
    level = text_level_for(plan, width, height, dpi, shape)
    geometry = _scratch_layout(plan, width, height, dpi, shape, level)
    sides = [min(g.plot.width(), g.plot.height()) for g in geometry.panels if g.plot is not None]
    return min(sides, default=0.0)


def paint_figure(
    qp: QPainter,
    plan: FigurePlan,
    width: float,
    height: float,
    dpi: float,
    *,
    shape: tuple[int, int] | None = None,
    text_level: int | None = None,
) -> FigureGeometry:
    """Draw ``plan`` into the rectangle (0, 0, width, height) of ``qp`` (pixels at ``dpi``).

    The layout is measured, not fixed: the title and the panels' headers wrap (and shrink a
    little) to their room, the legend breaks into lines, panels of a row that show the same
    input box share one y axis, and a colour bar goes beside or below its plot, whichever leaves
    the larger picture. Nothing is cut. ``shape``: (rows, columns) of the panels (default:
    :func:`roomiest_arrangement`). ``text_level``: an index of :data:`TEXT_LEVELS`, which
    text the headers keep (default: :func:`text_level_for`).
    """
    # measured (on scratch canvases) before this figure's canvas is made
    rows, cols = shape or roomiest_arrangement(plan, width, height, dpi)
    if text_level is None:
        text_level = text_level_for(plan, width, height, dpi, (rows, cols))
    theme = palette.theme(str(plan.settings.get("theme", "light")))
    c = _Canvas(qp, width, height, dpi, theme)
    qp.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    qp.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    qp.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    qp.fillRect(QRectF(0, 0, width, height), c.color(theme.background))
    titles = titles_shown(plan.settings)

    margin = c.pt(MARGIN_PT)
    top = margin
    if plan.title and titles == "all":
        font, lines = c.fit_text(plan.title, 12.5, width - 2 * margin, bold=True)
        for line in lines:
            c.text(width / 2, top, line, font, align="center", valign="top")
            top += c.text_height(font)
        top += c.pt(4)
    gap = c.pt(PANEL_GAP_PT)
    columns = [
        _row_columns(c, plan, list(range(r * cols, min((r + 1) * cols, len(plan.panels)))), cols)
        for r in range(rows)
    ]
    # each panel's header is as wide as its plot's column (the first of a shared row's
    # columns leaves the y axis's labels aside)
    header_widths = [columns[r][3] for r in range(rows) for _ in range(cols)][: len(plan.panels)]
    shared_lines, headers, footnotes = _headers(c, plan, header_widths, (rows, cols), text_level)
    for font, line, color in shared_lines:
        c.text(width / 2, top, line, font, color, align="center", valign="top")
        top += c.text_height(font)
    top += c.pt(2) if shared_lines else 0.0
    heights = [_header_height(c, h) for h in headers]
    note_lines = _footnote_lines(c, footnotes, width - 2 * margin)
    if plan.note:
        note_font = c.font(7.5, italic=True)
        note_lines += [
            (note_font, line) for line in c.wrap(plan.note, note_font, width - 2 * margin)
        ]
    note_h = sum(c.text_height(f) for f, _ in note_lines) + (c.pt(2) if note_lines else 0.0)

    def legend_height(items) -> float:
        rows_ = _legend_rows(c, items, width - 2 * margin)
        return len(rows_) * (c.text_height(c.font(7.5)) + c.pt(3)) if items else 0.0

    # A chart's or histogram's legend that does not fit in its plot joins the figure's legend.
    items = _legend_items(plan)
    probe_h = height - top - margin - legend_height(items) - note_h
    outside = _legends_outside(c, plan, (width - 2 * margin, probe_h), heights, gap, (rows, cols))
    items += _chart_legend_items(plan, outside) + _class_legend_items(plan, outside, items)
    legend_rows = _legend_rows(c, items, width - 2 * margin)
    legend_h = legend_height(items)
    area = QRectF(margin, top, width - 2 * margin, height - top - margin - legend_h - note_h)
    # Rows are as tall as their headers plus one share of the rest: every row's plots get the
    # same height, however many lines its captions take.
    row_headers = _row_headers(heights, rows, cols)
    share = (area.height() - gap * (rows - 1) - sum(row_headers)) / rows
    row_tops = [area.top() + sum(row_headers[:r]) + r * (share + gap) for r in range(rows)]
    geoms = []
    for row in range(rows):
        members = list(range(row * cols, min((row + 1) * cols, len(plan.panels))))
        if not members:
            continue
        row_header = max(heights[i] for i in members)
        shared, saved, col_gap, cw = columns[row]
        cells = []
        x = area.left()
        for j in range(len(members)):
            w = cw + (saved if j == 0 else 0.0)
            cells.append(QRectF(x, row_tops[row], w, row_headers[row] + share))
            x += w + col_gap
        places = _place_maps(c, plan, members, cells, row_header, shared)
        for j, i in enumerate(members):
            cell = cells[j]
            c.texts = []
            lead = saved if j == 0 else 0.0
            _paint_header(c, headers[i], QRectF(cell.left() + lead, cell.top(), cw, cell.height()))
            geom = _paint_panel(
                c,
                plan.panels[i],
                cell,
                plan.settings,
                row_header,
                ylabels=not shared or j == 0,
                place=places.get(i),
                legend=i not in outside,
            )
            geom.texts = list(c.texts)
            geom.caption_lines = sum(color is not None for _, _, color in headers[i])
            geoms.append(geom)
    if items:
        _paint_legend(
            c, legend_rows, QRectF(margin, area.bottom() + c.pt(2), width - 2 * margin, legend_h)
        )
    y = height - margin - sum(c.text_height(f) for f, _ in note_lines[1:])
    for font, line in note_lines:
        c.text(margin, y, line, font, theme.muted, valign="bottom")
        y += c.text_height(font)
    return FigureGeometry(width, height, dpi, geoms, len(shared_lines))


def _row_columns(c: _Canvas, plan: FigurePlan, members: list[int], cols: int):
    """How a row of ``cols`` columns is divided: (shares one y axis, the room its tick labels
    take left of the first plot, the gap between columns, a column's width: the figure's less
    its margins, the tick labels' room and the gaps, shared out).

    With a shared y axis only the first panel has tick labels: the others give that room to
    their plots, so every plot of the row has the same width, and the plots stand closer (no
    tick labels or title between them).
    """
    shared = _shares_y(plan, members)
    saved = 0.0
    if shared:
        _, _, y0, y1 = plan.panels[members[0]].result.grid.box
        saved = _y_label_room(c, y0, y1) - c.pt(SHARED_LEFT_PT)
    col_gap = c.pt(SHARED_GAP_PT) if shared else c.pt(PANEL_GAP_PT)
    room = c.width - 2 * c.pt(MARGIN_PT)
    return shared, saved, col_gap, (room - col_gap * (cols - 1) - saved) / cols


def _row_headers(heights: list[float], rows: int, cols: int) -> list[float]:
    """Each row's header height: its tallest panel header's (the row's plots line up)."""
    return [max(heights[r * cols : (r + 1) * cols], default=0.0) for r in range(rows)]


def _shares_y(plan: FigurePlan, members: list[int]) -> bool:
    """Whether the row's panels are all input pictures of one box (one y axis serves all)."""
    panels = [plan.panels[i] for i in members]
    if len(panels) < 2 or any(
        p.kind != "input" or p.result is None or p.result.grid is None for p in panels
    ):
        return False
    boxes = np.array([p.result.grid.box for p in panels], dtype=float)
    return bool(np.allclose(boxes, boxes[0], rtol=1e-9, atol=0.0))


def _is_map(panel: PanelPlan) -> bool:
    return panel.kind == "input" and panel.result is not None and panel.result.grid is not None


def _place_maps(
    c: _Canvas,
    plan: FigurePlan,
    members: list[int],
    cells: list[QRectF],
    header: float,
    shared: bool,
) -> dict[int, tuple[MapRooms, bool, QRectF]]:
    """Where the maps of one row go: panel index -> (its rooms, colour bar below, the room it
    would have were its box of the room's shape).

    A row that shares one y axis places its colour bars alike (beside: the widest bar's room
    for all), so that its plots keep one size; other maps are placed one by one.
    """
    maps = [(j, i) for j, i in enumerate(members) if _is_map(plan.panels[i])]
    bar_room = below_room = None
    if shared:
        bar_room = max(
            _colorbar_room(
                c, *plan.panels[i].result.grid.color_range, _bar_label(plan.panels[i].result)
            )
            for _, i in maps
        )
        below_room = max(
            _colorbar_below_room(c, _bar_label(plan.panels[i].result)) for _, i in maps
        )
    rooms = {}
    for j, i in maps:
        cell = cells[j]
        inner = QRectF(cell.left(), cell.top() + header, cell.width(), cell.height() - header)
        rooms[i] = map_rooms(
            c,
            plan.panels[i],
            inner,
            plan.settings,
            ylabels=not shared or j == 0,
            bar_room=bar_room,
            below_room=below_room,
        )
    groups = [[i for _, i in maps]] if shared else [[i] for _, i in maps]
    places = {}
    for group in groups:
        boxes = [plan.panels[i].result.grid.box for i in group]
        aspects = [(x1 - x0) / (y1 - y0) for x0, x1, y0, y1 in boxes]
        below = colorbars_below([rooms[i] for i in group], aspects)
        free_below = colorbars_below([rooms[i] for i in group], None)
        if free_below and _too_short_below(c, [rooms[i] for i in group]):
            below = free_below = False
        for i in group:
            free = rooms[i].below if free_below else rooms[i].beside
            places[i] = (rooms[i], below, free)
    return places


def _too_short_below(c: _Canvas, rooms: list[MapRooms]) -> bool:
    """Whether colour bars below these maps would leave them shorter than
    :data:`MIN_PLOT_IN` on a figure smaller than a slide, where bars beside them leave them
    taller and at least half that wide: there the height is what is short, and a map that fills
    its room keeps its area."""
    if c.scale >= 1.0 or any(room.below is None for room in rooms):
        return False
    low = min(room.below.height() for room in rooms)
    narrowest = min(room.beside.width() for room in rooms)
    return (
        low < MIN_PLOT_IN * c.dpi
        and min(room.beside.height() for room in rooms) > low
        and narrowest >= 0.5 * MIN_PLOT_IN * c.dpi  # and not a sliver of a map beside a bar
    )


def _paint_panel(
    c: _Canvas,
    panel: PanelPlan,
    cell: QRectF,
    settings: dict,
    header: float,
    *,
    ylabels: bool = True,
    place: tuple[MapRooms, bool, QRectF] | None = None,
    legend: bool = True,
) -> PanelGeometry:
    inner = QRectF(cell.left(), cell.top() + header, cell.width(), cell.height() - header)
    kind = panel.kind
    if kind == "input":
        rooms, below, free = place or (None, None, None)
        geom = _paint_input(
            c, panel, cell, inner, settings, ylabels=ylabels, rooms=rooms, bar_below=below
        )
        geom.free_room = free
        return geom
    if kind == "histogram":
        return _paint_histogram(c, panel, cell, inner, legend=legend)
    if kind == "regression":
        return _paint_regression(c, panel, cell, inner, settings)
    if kind == "scatter3d":
        return _paint_scatter3d(c, panel, cell, inner, settings)
    if kind == "sweep":
        return _paint_sweep(c, panel, cell, inner)
    if kind == "errorbars":
        return paint_errorbars(c, panel, cell, inner)
    if kind == "chart":
        return paint_chart(c, panel, cell, inner, legend=legend)
    font, lines = c.fit_text(panel.message, 9, inner.width(), italic=True, max_lines=4)
    y = inner.center().y() - 0.5 * c.text_height(font) * (len(lines) - 1)
    for line in lines:
        c.text(inner.center().x(), y, line, font, c.theme.muted, align="center", valign="center")
        y += c.text_height(font)
    return PanelGeometry(kind, cell)


def _headers(c: _Canvas, plan: FigurePlan, widths: list[float], shape, level: int = 0):
    """The figure's shared caption line and each panel's header, as (font, line, colour) rows,
    and the footnotes: the captions too long for their panel's header.

    What every panel's caption says is said once above the panels when that takes less room
    than saying it in each panel's header (:meth:`FigurePlan.captions`); panels of one row
    share their header's height, so that their plots line up. A panel's caption and measures
    take at most :data:`MAX_CAPTION_LINES` lines (:func:`_header_within`); from ``level`` 1
    of :data:`TEXT_LEVELS` on every panel's measures, from 2 on its caption too, are said under
    the figure.
    """
    rows, cols = shape
    panel_titles = titles_shown(plan.settings) != "none"
    width = c.width - 2 * c.pt(MARGIN_PT)

    def laid_out(shared: str, captions: list[str]):
        top = []
        if shared:
            font, lines = c.fit_text(shared, 8.0, width)
            top = [(font, line, c.theme.muted) for line in lines]
        within = [
            _header_within(c, p, widths[i], panel_titles, captions[i], i, level)
            for i, p in enumerate(plan.panels)
        ]
        headers = [header for header, _ in within]
        footnotes = [note for _, note in within if note]
        tall = sum(c.text_height(font) for font, _, _ in top) + (c.pt(2) if top else 0.0)
        tall += sum(_row_headers([_header_height(c, h) for h in headers], rows, cols))
        tall += sum(c.text_height(font) for font, _ in _footnote_lines(c, footnotes, width))
        return tall, top, headers, footnotes

    whole = laid_out("", plan.unshared_captions(panel_titles))
    shared, captions = plan.captions(panel_titles)
    if shared:
        once = laid_out(shared, captions)
        if once[0] < whole[0]:
            return once[1:]
    return whole[1:]


def _header_within(
    c: _Canvas,
    panel: PanelPlan,
    width: float,
    titles: bool,
    caption: str,
    index: int,
    level: int = 0,
) -> tuple[list, str]:
    """A panel's header with at most :data:`MAX_CAPTION_LINES` lines of caption and measures,
    and the footnote that says what did not fit ("" when all did): the measures go first, then
    the caption, named by the panel's title (or its place, without titles). ``level`` (of
    :data:`TEXT_LEVELS`) 1 moves the measures whatever their length, 2 the caption too."""
    kept = {"caption": caption if level < 2 else "", "measures": panel.measures}
    kept["measures"] = panel.measures if level < 1 else ""
    moved = [t for t in (caption if level >= 2 else "", panel.measures if level >= 1 else "") if t]
    while True:
        rows = _header_lines(c, panel, width, titles, **kept)
        muted = sum(color is not None for _, _, color in rows)
        if muted <= MAX_CAPTION_LINES:
            break
        part = "measures" if kept["measures"] else "caption"
        moved.insert(0, kept[part])
        kept[part] = ""
    if not moved:
        return rows, ""
    name = panel.title if titles and panel.title else f"Panel {index + 1}"
    return rows, f"{name}: {' · '.join(moved)}"


def _footnote_lines(c: _Canvas, footnotes: list[str], width: float) -> list:
    """The footnotes as (font, line) rows: one paragraph wrapped to ``width``, its panels'
    notes parted by dashes."""
    if not footnotes:
        return []
    font = c.font(8.0)
    return [(font, line) for line in c.wrap(" — ".join(footnotes), font, width)]


def _header_lines(
    c: _Canvas,
    panel: PanelPlan,
    width: float,
    titles: bool = True,
    *,
    caption: str | None = None,
    measures: str | None = None,
) -> list:
    """The header's (font, line, colour) rows: title, caption (``caption``: the part of the
    panel's own that the figure does not say once for all panels) and measures, wrapped."""
    rows = []
    if panel.title and titles:
        # a little smaller on one line rather than wrapped: the row's plots keep that line
        font, lines = c.fit_text(panel.title, 10.5, width, bold=True, max_lines=1)
        rows += [(font, line, None) for line in lines]
    for text in (
        panel.caption if caption is None else caption,
        panel.measures if measures is None else measures,
    ):
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


# -- the figure's legend ---------------------------------------------------------------------------
# An entry: its swatch, its label from LEGEND_LABEL_PT on, LEGEND_GAP_PT to the next entry.
LEGEND_LABEL_PT = 12.0
LEGEND_GAP_PT = 7.0


def _legends_outside(
    c: _Canvas,
    plan: FigurePlan,
    size: tuple[float, float],
    heights: list[float],
    gap: float,
    shape: tuple[int, int],
) -> set[int]:
    """The chart and histogram panels whose legends do not fit in their plots, measured on the
    cells of a figure area of ``size`` (before the legend row takes its height) with the panels
    in ``shape`` (rows, columns)."""
    rows, cols = shape
    cw = (size[0] - gap * (cols - 1)) / cols
    row_headers = _row_headers(heights, rows, cols)
    share = (size[1] - gap * (rows - 1) - sum(row_headers)) / rows
    outside = set()
    for i, panel in enumerate(plan.panels):
        inner = QRectF(0, 0, cw, share)
        if panel.kind == "chart" and legend_entries(panel.chart):
            if not legend_fits(c, panel.chart, inner):
                outside.add(i)
        elif panel.kind == "histogram" and panel.result is not None:
            if not histogram_legend_fits(c, panel, inner):
                outside.add(i)
    return outside


def _class_legend_items(plan: FigurePlan, outside: set[int], items) -> list[tuple[str, str, str]]:
    """The classes of the histograms in ``outside`` not named in the legend yet (``items``)."""
    named = {label for _, _, label in items}
    out = []
    for i in sorted(outside):
        panel = plan.panels[i]
        if panel.kind != "histogram":
            continue
        r = panel.result
        for key in sorted({k[0] for k in r.histograms.density}, key=str):
            name = palette.class_name(key)
            if name not in named:
                named.add(name)
                color = palette.class_color(_class_index(r.classes, key))
                out.append(("patch", color, name))
    return out


def _chart_legend_items(plan: FigurePlan, outside: set[int]) -> list[tuple[str, str, str]]:
    """The legend entries of the charts in ``outside``, one per line colour and style: a line
    that several panels label alike is listed once; labelled differently (a panel adds its
    measure, "(AUC 0.93)"), it is listed by the name they share, the label before " (".
    """
    labels: dict[tuple[int, str], list[str]] = {}
    for i in sorted(outside):
        if plan.panels[i].kind != "chart":
            continue
        for s in legend_entries(plan.panels[i].chart):
            labels.setdefault((s.color, s.style), []).append(s.label)
    kinds = {"solid": "line", "dashed": "dash", "dotted": "dot"}
    items = []
    for (color, style), names in labels.items():
        name = names[0] if len(set(names)) == 1 else min(n.split(" (")[0] for n in names)
        items.append((kinds.get(style, "line"), palette.class_color(color), name))
    return items


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
        w = c.pt(LEGEND_LABEL_PT) + c.text_width(item[2], font) + c.pt(LEGEND_GAP_PT)
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
        # centred on the entries, not on the gap after the last one
        x = rect.center().x() - 0.5 * (sum(w for _, w in row) - c.pt(LEGEND_GAP_PT))
        y = rect.top() + (r + 0.5) * line_h
        for (kind, col, label), w in row:
            if col in (palette.LIGHT.foreground, palette.LIGHT.boundary, palette.LIGHT.expansion):
                col = {
                    palette.LIGHT.foreground: theme.foreground,
                    palette.LIGHT.boundary: theme.boundary,
                    palette.LIGHT.expansion: theme.expansion,
                }[col]
            _legend_swatch(c, kind, col, QPointF(x + c.pt(0.5 * LEGEND_LABEL_PT - 0.5), y))
            c.text(x + c.pt(LEGEND_LABEL_PT), y, label, font, valign="center")
            x += w


__all__ = ["FigureGeometry", "PanelGeometry", "Transform", "paint_figure", "roomiest_arrangement"]


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
        return chart_aspect(panel.chart), 8.0
    if panel.kind == "errorbars":
        return 2.0, 8.0
    return 1.5, 8.0


def natural_height(plan: FigurePlan, width: float, dpi: float) -> int:
    """The height at which the panels of ``plan`` fill a figure ``width`` pixels wide, in the
    plan's arrangement, with or without its titles (its settings)."""
    s = dpi / 72.0
    line = 1.2  # text height per point of font size
    margin, gap = MARGIN_PT * s, PANEL_GAP_PT * s
    titles = titles_shown(plan.settings)
    rows, cols = arrangement(plan)
    total = 2 * margin
    if plan.title and titles == "all":
        total += (12.5 * line + 4) * s
    if _legend_items(plan):
        total += 16 * s
    if plan.note:
        total += (7.5 * line + 2) * s
    cw = (width - 2 * margin - gap * (cols - 1)) / cols

    def panels_height(captions: list[str]) -> float:
        tall = 0.0
        for row in range(rows):
            tallest = 0.0
            for i in range(row * cols, min((row + 1) * cols, len(plan.panels))):
                panel = plan.panels[i]
                header = (3 + (10.5 * line + 1 if panel.title and titles != "none" else 0)) * s
                header += sum(8.0 * line * s for text in (captions[i], panel.measures) if text)
                aspect, right = _panel_aspect(panel)
                plot_w = max(cw - (LEFT_PT + right) * s, 10.0)
                extra = (TOP_PT + BOTTOM_PT) * s if panel.kind != "scatter3d" else 12 * s
                below = cw - LEFT_PT * s
                if right == COLORBAR_PT and plot_w < 0.75 * below:
                    # A colour bar beside a narrow panel would leave a sliver of a map: the
                    # painter puts it below then, under a plot as wide as the cell.
                    plot_w, extra = below, extra + BELOW_BAR_PT * s
                tallest = max(tallest, header + extra + plot_w / aspect)
            tall += tallest
        return tall

    # as the painter does, the panels' shared caption said once where that is shorter
    panels = panels_height([p.caption for p in plan.panels])
    shared, captions = plan.captions(titles != "none")
    if shared:
        panels = min(panels, (8.0 * line + 2) * s + panels_height(captions))
    total += panels
    total += gap * (rows - 1)
    return round(total)
