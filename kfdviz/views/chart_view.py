"""Charts in the window: the curves and images a paper's figure computes (:mod:`kfdviz.charts`).

A :class:`ChartView` shows a list of :class:`~kfdviz.charts.Chart` objects side by side, one
pyqtgraph plot each, drawn from the charts' own arrays (the exported figure paints the same
objects): a chart of lines gets one curve per series, in the series' colour and dash, with its
markers, axis titles, logarithmic x axis and limits; a chart of images gets one grey image per
picture (ink dark on white, one scale for all of them), in a grid, each with its label below.
A header line says what the charts are doing: being computed, failed, or out of date. The view
computes nothing.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..charts import Chart
from ..figure import palette
from ..figure.paint_charts import image_grid_shape
from .decade_axis import DecadeAxis
from .style import LIGHT, Theme

PEN_STYLES = {
    "solid": Qt.PenStyle.SolidLine,
    "dashed": Qt.PenStyle.DashLine,
    "dotted": Qt.PenStyle.DotLine,
}
# the legend's line samples, as text (the legend is a wrapped line of text under the title, so
# that it fits a plot of any width)
LINE_SAMPLES = {"solid": "━━", "dashed": "╺╸╺╸", "dotted": "┈┈"}
INK_ON_PAPER = np.array([[255, 255, 255], [0, 0, 0]], dtype=float)  # low values white
IMAGE_GAP = 0.15  # between images, as a fraction of an image's side
LABEL_ROOM = 0.45  # below each image for its label, as a fraction of an image's side


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks of a logarithmic axis from ``low`` to ``high`` (data values, both > 0): 1, 2 and 5
    times the powers of ten between them (only the powers when that would make more than eight),
    as (log10 position, label) pairs."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    steps = (1.0, 2.0, 5.0) if last - first <= 3 else (1.0,)
    values = [m * 10.0**k for k in range(first, last + 1) for m in steps]
    inside = [v for v in values if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    return [(math.log10(v), f"{v:g}") for v in inside]


class ChartPanel(QWidget):
    """One chart: its title and caption above a pyqtgraph plot of its lines or images (the
    images in the figures' grid, :func:`kfdviz.figure.paint_charts.image_grid_shape`)."""

    def __init__(
        self, chart: Chart, theme: Theme, parent: QWidget | None = None, *, scale: float = 1.0
    ):
        super().__init__(parent)
        self.chart = chart
        self.theme = theme
        self.scale = scale  # of text, lines and markers (presentation mode: larger)
        self.heading = QLabel("")
        self.heading.setWordWrap(True)
        self.heading.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.legend = QLabel("")
        self.legend.setWordWrap(True)
        self.legend.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.legend.hide()
        self.plot = pg.PlotWidget(axisItems={"bottom": DecadeAxis("bottom")})
        self.plot.setMinimumSize(180, 140)
        item = self.plot.getPlotItem()
        item.hideButtons()
        for name in ("left", "bottom"):
            item.getAxis(name).enableAutoSIPrefix(False)
        self.curves: list[pg.PlotDataItem] = []
        self.images: list[pg.ImageItem] = []
        self.labels: list[pg.TextItem] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.legend)
        layout.addWidget(self.plot, 1)
        self._draw()

    def _draw(self) -> None:
        chart = self.chart
        small = html.escape(" · ".join(t for t in (chart.caption, chart.measures) if t))
        below = f"<br><small>{small}</small>" if small else ""
        self.heading.setText(f"<b>{html.escape(chart.title)}</b>{below}")
        item = self.plot.getPlotItem()
        self.plot.setBackground(self.theme.background)
        tick = QFont()
        tick.setPointSizeF(9.0 * self.scale)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(self.theme.foreground)
            axis.setTextPen(self.theme.foreground)
            axis.setStyle(tickFont=tick)
        for label in (self.heading, self.legend):
            # half as much larger as the plots' text: the headings wrap in the charts' width
            font = QFont(label.font())
            font.setPointSizeF(9.0 * (1.0 + 0.5 * (self.scale - 1.0)))
            label.setFont(font)
        if chart.kind == "images":
            self._draw_images(item)
        else:
            self._draw_lines(item)

    def _draw_lines(self, item: pg.PlotItem) -> None:
        chart = self.chart
        item.showAxis("left")
        item.showAxis("bottom")
        item.getViewBox().invertY(False)
        item.getViewBox().setAspectLocked(False)
        item.setLogMode(x=chart.log_x, y=False)
        item.showGrid(x=True, y=True, alpha=0.2)
        # axis titles are long ("false positive rate (benign called novel)"): a little
        # smaller than the ticks, and growing only half as much in presentation mode
        size = {"font-size": f"{8.0 * (1.0 + 0.5 * (self.scale - 1.0)):g}pt"}
        item.setLabel("bottom", chart.xlabel, **size)
        item.setLabel("left", chart.ylabel, **size)
        labelled = [s for s in chart.series if s.label]
        if chart.legend and labelled:
            entries = [
                f'<span style="color:{palette.class_color(s.color)}">{LINE_SAMPLES[s.style]}'
                f"</span>&nbsp;{html.escape(s.label)}"
                for s in labelled
            ]
            self.legend.setText(f"<small>{' &nbsp; '.join(entries)}</small>")
            self.legend.show()
        for s in chart.series:
            color = palette.class_color(s.color)
            pen = pg.mkPen(color, width=2.0 * self.scale, style=PEN_STYLES[s.style])
            extra = {}
            if s.markers:
                extra = {
                    "symbol": "o",
                    "symbolSize": 6 * self.scale,
                    "symbolBrush": color,
                    "symbolPen": color,
                }
            curve = pg.PlotDataItem(s.x, s.y, pen=pen, name=s.label or None, **extra)
            item.addItem(curve)
            self.curves.append(curve)
        vb = item.getViewBox()
        if chart.log_x:
            xs = np.concatenate([s.x[np.isfinite(s.x) & (s.x > 0)] for s in chart.series] or [[]])
            low, high = chart.xlim or ((xs.min(), xs.max()) if xs.size else (1.0, 10.0))
            # pyqtgraph labels every minor tick of a short logarithmic range: 1, 2, 5 per decade
            item.getAxis("bottom").setTicks([log_ticks(low, high), []])
            pad = 0.04 * (math.log10(high) - math.log10(low))
            vb.setXRange(math.log10(low) - pad, math.log10(high) + pad, padding=0.0)
        elif chart.xlim is not None:
            vb.setXRange(*chart.xlim, padding=0.0)
        else:
            vb.enableAutoRange(axis="x")
        if chart.ylim is not None:
            vb.setYRange(*chart.ylim, padding=0.0)
        else:
            vb.enableAutoRange(axis="y")

    def _draw_images(self, item: pg.PlotItem) -> None:
        chart = self.chart
        item.hideAxis("left")
        item.hideAxis("bottom")
        item.setLogMode(x=False, y=False)
        item.showGrid(x=False, y=False)
        vb = item.getViewBox()
        vb.invertY(True)  # the first row of images on top, each image's first row on top
        vb.setAspectLocked(True)
        if not chart.images:
            return
        rows, cols = image_grid_shape(len(chart.images))
        lo = min(float(np.min(im)) for im in chart.images)
        hi = max(float(np.max(im)) for im in chart.images)
        if not hi > lo:
            hi = lo + 1.0
        lut = palette.lookup_table(INK_ON_PAPER, 256).astype(np.uint8)
        side = 1.0
        step_x = side * (1.0 + IMAGE_GAP)
        step_y = side * (1.0 + LABEL_ROOM)
        font = QFont()
        font.setPointSizeF(7.0 * self.scale)
        for k, im in enumerate(chart.images):
            r, c = divmod(k, cols)
            image = pg.ImageItem(np.asarray(im, dtype=float), axisOrder="row-major")
            image.setLookupTable(lut)
            image.setLevels((lo, hi))
            image.setRect(QRectF(c * step_x, r * step_y, side, side))
            item.addItem(image)
            self.images.append(image)
            if chart.image_labels:
                # the value alone ("p = 0.43" -> "0.43"): the caption names it, and a row of
                # small images leaves no room for more
                text = chart.image_labels[k].split("= ")[-1]
                label = pg.TextItem(text, color=self.theme.foreground, anchor=(0.5, 0))
                label.setFont(font)
                label.setPos(c * step_x + 0.5 * side, r * step_y + side + 0.03)
                item.addItem(label)
                self.labels.append(label)
        width = cols * step_x - IMAGE_GAP * side
        height = rows * step_y
        vb.setRange(xRange=(0.0, width), yRange=(0.0, height), padding=0.02)


class ChartView(QWidget):
    """A row of :class:`ChartPanel`, one per chart, under a status line."""

    appeared = Signal()  # shown after having been hidden

    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.scale = 1.0
        self.primary = False  # the charts are the session's figure (its fits are not in it)
        self.charts: list[Chart] = []
        self.panels: list[ChartPanel] = []
        self.busy = False
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.row = QHBoxLayout()
        self.row.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.status)
        layout.addLayout(self.row, 1)

    def set_primary(self, primary: bool) -> None:
        """Whether the charts are the session's figure (they take more of the height)."""
        self.primary = primary

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self.appeared.emit()

    def set_charts(self, charts: list[Chart]) -> None:
        """Draw ``charts``, one plot each (the plots before are removed)."""
        for panel in self.panels:
            self.row.removeWidget(panel)
            panel.deleteLater()
        self.charts = list(charts)
        self.panels = []
        for chart in self.charts:
            panel = ChartPanel(chart, self.theme, self, scale=self.scale)
            self.row.addWidget(panel, 1)
            panel.show()  # now, not on the layout's queued call: the charts are drawn when told
            self.panels.append(panel)
        self.set_busy(False)

    def clear(self) -> None:
        self.set_charts([])
        self.status.setText("")

    def set_busy(self, busy: bool, message: str = "Computing the charts…") -> None:
        """Marked busy while the charts are computed: the status line says so and the plots
        shown (of the data before) are dimmed."""
        self.busy = busy
        self.status.setText(message if busy else "")
        for panel in self.panels:
            panel.setEnabled(not busy)

    def show_message(self, text: str) -> None:
        """A failure or a note in the status line (the plots shown stay)."""
        self.busy = False
        self.status.setText(text)
        for panel in self.panels:
            panel.setEnabled(True)

    def set_scale(self, scale: float) -> None:
        """Text, lines and markers ``scale`` times their size (presentation mode)."""
        if scale != self.scale:
            self.scale = float(scale)
            self._redraw()

    def set_theme(self, theme: Theme) -> None:
        """Draw the charts again in ``theme``'s colours."""
        self.theme = theme
        self._redraw()

    def _redraw(self) -> None:
        busy, text = self.busy, self.status.text()
        self.set_charts(self.charts)
        if busy:
            self.set_busy(True, text)
        else:
            self.status.setText(text)


class ChartArea(QWidget):
    """The window's pictures over its :class:`ChartView` (``charts``): the charts, when shown,
    take two fifths of the height, or half when they are the session's figure (``primary``: its
    fits are not in the figure).

    A plain layout, not a splitter: a QSplitter kept the width the compare panels had claimed
    after they were gone, so the docks beside could not get theirs back.
    """

    def __init__(self, pictures: QWidget, *, theme: Theme = LIGHT):
        super().__init__()
        self.charts = ChartView(theme=theme)
        self.charts.hide()
        self.column = QVBoxLayout(self)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(4)
        self.column.addWidget(pictures, 3)
        self.column.addWidget(self.charts, 2)
        self.charts.appeared.connect(self._share)

    def _share(self) -> None:
        primary = self.charts.primary
        self.column.setStretch(0, 1 if primary else 3)
        self.column.setStretch(1, 1 if primary else 2)


__all__ = ["ChartArea", "ChartPanel", "ChartView"]
