"""Sweeps in the window: a measure against a parameter, computed in the background.

A session or preset with a sweep (Park & Park's Fig. 3: test accuracy and number of support
vectors against σ for two pipelines) gets a "Sweep" dock below the pictures: one plot per
measure, σ on a logarithmic axis, one curve per pipeline (dashed as in the paper where the sweep
says so). The sweep runs on its own worker thread, so the pictures keep fitting meanwhile; it
shows its progress, can be cancelled, and is marked out of date when the data change.

The curves on screen are always a whole sweep: while one is computed the plots are empty under a
busy card (its progress, Cancel), and curves of data since edited are greyed with the reason.
One legend names the curves for all the plots, in its own row above them, so it covers no curve.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from pyqtgraph.graphicsItems.ScatterPlotItem import drawSymbol
from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..figure import palette
from ..pipeline import FitFailure
from ..sweep import METRICS, Sweep
from ..views.decade_axis import DecadeAxis
from ..views.overlay import PictureOverlay
from ..workers import FitWorker, SweepOutcome, SweepRequest, run_sweep_request

LINE_WIDTH = 2.2  # pixels, times the scale
SYMBOL_SIZE = 8.0  # pixels, times the scale
LEGEND_SPACING = 18  # pixels between the legend's entries side by side


def text_points(scale: float) -> float:
    """The size of the panel's text (heading, legend, status): 9 pt, half as much larger as
    the plots' text in presentation mode (it is read, not looked up)."""
    return 9.0 * (1.0 + 0.5 * (scale - 1.0))


def curve_style(k: int, dashed: bool, scale: float, theme) -> dict:
    """How curve ``k`` is drawn: its pen, marker and marker colours (plots and legend alike)."""
    color = palette.class_color(k)
    return {
        "pen": pg.mkPen(
            color,
            width=LINE_WIDTH * scale,
            style=Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine,
        ),
        "symbol": palette.class_symbol(k),
        "symbolSize": SYMBOL_SIZE * scale,
        "symbolBrush": color,
        "symbolPen": theme.point_edge,
    }


def _swatch(style: dict, height: int) -> QPixmap:
    """A piece of a curve's line with its marker in the middle, ``height`` pixels high."""
    width = round(2.6 * height)
    ratio = 2.0  # drawn at twice the size: sharp on high-density screens too
    pix = QPixmap(round(width * ratio), round(height * ratio))
    pix.setDevicePixelRatio(ratio)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(style["pen"])
    painter.drawLine(QPointF(0, height / 2), QPointF(width, height / 2))
    painter.translate(width / 2, height / 2)
    edge = QPen(QColor(style["symbolPen"]))
    edge.setCosmetic(True)
    drawSymbol(
        painter, style["symbol"], style["symbolSize"], edge, pg.mkBrush(style["symbolBrush"])
    )
    painter.end()
    return pix


class SweepLegend(QWidget):
    """The curves' names beside their line and marker, once for all the sweep's plots, in a row
    of its own above them: it covers no curve of any plot. The entries stand side by side when
    the row is wide enough, else one above the other."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("sweepLegend")
        # the panel decides the width (a long legend must not widen the dock): the entries
        # are arranged for the width given
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(LEGEND_SPACING)
        self.grid.setVerticalSpacing(2)
        self.entries: list[QWidget] = []
        self.columns = 0

    def set_entries(self, entries: list[tuple[str, dict]], points: float) -> None:
        """``entries``: (label, curve style) per curve; text of ``points``."""
        for entry in self.entries:
            self.grid.removeWidget(entry)
            entry.deleteLater()
        self.entries = []
        font = QFont(self.font())
        font.setPointSizeF(points)
        for label, style in entries:
            entry = QWidget(self)
            row = QHBoxLayout(entry)
            row.setContentsMargins(0, 0, 0, 0)
            row.setSpacing(6)
            swatch = QLabel()
            swatch.setObjectName("swatch")
            text = QLabel(label)
            text.setFont(font)
            height = max(round(1.2 * text.fontMetrics().height()), round(style["symbolSize"]) + 4)
            swatch.setPixmap(_swatch(style, height))
            row.addWidget(swatch)
            row.addWidget(text)
            self.entries.append(entry)
        self.columns = 0
        self.arrange()
        self.setVisible(bool(self.entries))

    def arrange(self) -> None:
        """Side by side if they fit the width, else one above the other."""
        n = len(self.entries)
        if n == 0:
            return
        wide = sum(e.sizeHint().width() for e in self.entries) + LEGEND_SPACING * (n - 1)
        columns = n if wide <= self.width() else 1
        if columns == self.columns:
            return
        self.columns = columns
        for entry in self.entries:
            self.grid.removeWidget(entry)
        for i, entry in enumerate(self.entries):
            self.grid.addWidget(entry, i // columns, i % columns, Qt.AlignmentFlag.AlignLeft)
        for c in range(n + 1):
            self.grid.setColumnStretch(c, 1 if c == columns else 0)
        self.updateGeometry()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.arrange()


class SweepPanel(QWidget):
    """The sweep's curves, with Run / Cancel, a progress bar and one legend for all plots."""

    drawn = Signal(object)  # a SweepResult, once its curves are drawn
    run_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None, theme=None):
        super().__init__(parent)
        self.theme = theme or palette.LIGHT
        self.sweep: Sweep | None = None
        self.result = None
        self.scale = 1.0
        self.heading = QLabel("")
        self.heading.setWordWrap(True)
        self.run_button = QPushButton("Run sweep")
        self.run_button.setToolTip("Fit every curve at every value of the swept parameter")
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.legend = SweepLegend()
        self.legend.hide()
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        top.addWidget(self.run_button)
        self.plots_area = QWidget()
        self.plots_row = QHBoxLayout(self.plots_area)
        self.plots_row.setContentsMargins(0, 0, 0, 0)
        self.plots: list[pg.PlotWidget] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addLayout(top)
        layout.addWidget(self.legend)
        layout.addWidget(self.plots_area, 1)
        layout.addWidget(self.status)
        # a sweep being computed, or curves of data since edited (overlay.py)
        self.overlay = PictureOverlay(self.plots_area, theme=self.theme)
        self.overlay.cancel_requested.connect(self.cancel_requested)
        self.overlay.fix_requested.connect(self.run_requested)

    def set_sweep(self, sweep: Sweep | None) -> None:
        self.sweep = sweep
        self.result = None
        self.overlay.clear()
        self.legend.set_entries([], text_points(self.scale))
        for w in self.plots:
            self.plots_row.removeWidget(w)
            w.deleteLater()
        self.plots = []
        if sweep is None:
            self.heading.setText("")
            return
        self.heading.setText(f"Sweep over {sweep.label or sweep.param}")
        for metric in sweep.metrics:
            w = pg.PlotWidget(axisItems={"bottom": DecadeAxis("bottom")})
            w.setMinimumSize(220, 150)
            item = w.getPlotItem()
            item.hideButtons()
            item.setLogMode(x=bool(sweep.log), y=False)
            item.vb.setDefaultPadding(0.05)  # the end points' markers whole
            item.setLabel("left", METRICS[metric])
            item.setLabel("bottom", self._param_name())
            self.plots.append(w)
            self.plots_row.addWidget(w, 1)
        self._show_scales(False)
        self.set_theme(self.theme)
        if self.scale != 1.0:
            self.set_scale(self.scale)
        self.status.setText("")

    def _param_name(self) -> str:
        """The swept parameter's symbol ("σ" of "σ (Gaussian width, …)")."""
        if self.sweep is None:
            return ""
        return (self.sweep.label or self.sweep.param).split(" (")[0]

    def set_theme(self, theme) -> None:
        self.theme = theme
        self.overlay.set_theme(theme)
        for w in self.plots:
            w.setBackground(theme.background)
            for name in ("left", "bottom"):
                axis = w.getPlotItem().getAxis(name)
                axis.setPen(theme.foreground)
                axis.setTextPen(theme.foreground)
        if self.result is not None:
            self.show_result(self.result, emit=False)

    def set_scale(self, scale: float) -> None:
        self.scale = float(scale)
        tick = None
        if self.scale != 1.0:
            tick = QFont()
            tick.setPointSizeF(9.0 * self.scale)
        # the axes' titles as large as the panel's text: at the plots' tick size they would
        # be longer than a slide's short plots are high
        size = f"{text_points(self.scale):g}pt"
        for w, metric in zip(self.plots, self.sweep.metrics if self.sweep else (), strict=False):
            item = w.getPlotItem()
            for name in ("left", "bottom"):
                item.getAxis(name).setStyle(tickFont=tick)
            item.getAxis("left").setWidth(round(50 * self.scale))
            item.setLabel("left", METRICS[metric], **{"font-size": size})
            item.setLabel("bottom", self._param_name(), **{"font-size": size})
        for label in (self.heading, self.status):
            font = QFont(label.font())
            font.setPointSizeF(text_points(self.scale))
            label.setFont(font)
        if self.result is not None:
            self.show_result(self.result, emit=False)

    def set_running(self, running: bool) -> None:
        """A sweep starts (its curves will be whole: the plots wait empty under a busy card)
        or ends."""
        self.run_button.setEnabled(not running)
        self.cancel_button.setVisible(running)
        self.progress.setVisible(running)
        if running:
            self.result = None
            self._clear_curves()
            self.overlay.show_busy("Computing the sweep…", 0.0)
            self.progress.setValue(0)
            self.status.setText("Computing the sweep…")
        elif self.overlay.state == "busy":
            self.overlay.clear()

    def _clear_curves(self) -> None:
        for w in self.plots:
            w.getPlotItem().clear()
        self.legend.set_entries([], text_points(self.scale))
        self._show_scales(False)

    def _show_scales(self, on: bool) -> None:
        """Tick values and grid only with curves: empty plots show no made-up range."""
        for w in self.plots:
            item = w.getPlotItem()
            for name in ("left", "bottom"):
                item.getAxis(name).setStyle(showValues=on)
            item.showGrid(x=on, y=on, alpha=0.25)

    def set_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(100 * fraction))
        self.status.setText(message)
        if self.overlay.state == "busy":
            self.overlay.show_busy(f"Computing the sweep: {message}", fraction)

    def mark_stale(self, text: str) -> None:
        """The curves shown are not of the data on screen: greyed, with ``text`` and Run."""
        self.status.setText(text)
        if any(w.getPlotItem().listDataItems() for w in self.plots):
            self.overlay.show_stale(text, "Run sweep")

    def show_result(self, result, *, emit: bool = True) -> None:
        self.result = result
        self.overlay.clear()
        sweep = result.sweep
        x = np.asarray(result.values, dtype=float)
        styles = [
            curve_style(k, curve.dashed, self.scale, self.theme)
            for k, curve in enumerate(sweep.curves)
        ]
        self._show_scales(True)
        for w, metric in zip(self.plots, sweep.metrics, strict=False):
            item = w.getPlotItem()
            item.clear()
            for curve, style in zip(sweep.curves, styles, strict=True):
                y = np.asarray(result.metrics[curve.label][metric], dtype=float)
                item.plot(x, y, name=curve.label, connect="finite", **style)
        self.legend.set_entries(
            [(curve.label, style) for curve, style in zip(sweep.curves, styles, strict=True)],
            text_points(self.scale),
        )
        parts = []
        for curve in sweep.curves:
            acc = result.metrics[curve.label].get("accuracy")
            if acc is not None and np.isfinite(acc).any():
                i = int(np.nanargmax(acc))
                name = self._param_name()
                parts.append(f"{curve.label}: best {acc[i]:.1f} % at {name} = {x[i]:.3g}")
        if result.failures:
            parts.append(f"{len(result.failures)} fits failed: {result.failures[0]}")
        self.status.setText(" · ".join(parts))
        if emit:
            self.drawn.emit(result)


class SweepControl(QObject):
    """The session's sweep: its dock, its own worker thread (made when first needed), its
    result. A result is kept only for the data it was computed from; an edit cancels a running
    sweep and marks the curves out of date."""

    def __init__(self, parent: QObject, *, panel: SweepPanel, dock, data):
        super().__init__(parent)
        self.panel = panel
        self.dock = dock
        self.data = data
        self.spec: dict | None = None  # the session's sweep (kfdviz.sweep.Sweep as a dict)
        self.result = None  # a SweepResult for the session's sweep, once computed
        self.worker: FitWorker | None = None
        self.closing = False
        self._version = -1  # the data version the sweep running or shown was computed from
        panel.run_requested.connect(self.run)
        panel.cancel_requested.connect(self.cancel)

    def _thread(self) -> FitWorker:
        if self.worker is None:
            self.worker = FitWorker(self, run=run_sweep_request)
            self.worker.outcome.connect(self._on_outcome)
            self.worker.progress.connect(self._on_progress)
            self.worker.busy_changed.connect(self.panel.set_running)
        return self.worker

    def _sweep_object(self) -> Sweep | None:
        return Sweep.from_dict(self.spec) if self.spec else None

    def set_spec(self, spec: dict | None) -> None:
        """The session's sweep (None: none); its result is forgotten."""
        self.spec = dict(spec) if spec else None
        self.result = None

    def show(self, *, run: bool = False) -> None:
        """Show the session's sweep (if any) in its dock; ``run``: compute it now."""
        sweep = self._sweep_object()
        shown = self.panel.sweep
        if sweep is None:
            self.cancel()
            self.panel.set_sweep(None)
            self.dock.hide()
            return
        if shown is None or shown.to_dict() != sweep.to_dict():
            self.panel.set_sweep(sweep)
        self.dock.show()
        if self.result is not None:
            self.panel.show_result(self.result, emit=False)
        elif run:
            self.run()

    def restore(self, spec: dict | None, result) -> None:
        """Show ``spec`` with ``result`` again (computed from the data as they are now)."""
        self.spec, self.result = spec, result
        self._version = self.data.version
        self.show()

    def run(self) -> int | None:
        sweep = self._sweep_object()
        if sweep is None or self.data.n == 0 or self.data.regression:
            return None
        request = SweepRequest(
            sweep,
            np.array(self.data.X(), dtype=float),
            np.array(self.data.y()),
            np.array(self.data.test_mask(), dtype=bool),
        )
        self._version = self.data.version
        return self._thread().submit(request)

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def running(self) -> bool:
        return self.worker is not None and self.worker.is_busy()

    def data_changed(self, _kind: str = "") -> None:
        if self.spec is None:
            return
        if self.running():
            self.cancel()
        if self.result is not None or self._version != self.data.version:
            self.result = None
            self.panel.mark_stale("The data changed: Run sweep to compute the curves again.")

    def _on_progress(self, slot: str, request_id: int, fraction: float, message: str):
        if self.worker is not None and self.worker.latest_id(slot) == request_id:
            self.panel.set_progress(fraction, message)

    def _on_outcome(self, outcome) -> None:
        if self.closing or not self.worker.is_current(outcome):
            return
        if isinstance(outcome, FitFailure):
            if outcome.cancelled:
                self.panel.status.setText("Sweep cancelled.")
            else:
                self.panel.status.setText(f"The sweep failed: {outcome.message}")
            return
        if isinstance(outcome, SweepOutcome) and self._version == self.data.version:
            self.result = outcome.result
            self.panel.show_result(outcome.result)

    def shutdown(self) -> None:
        self.closing = True
        if self.worker is not None:
            self.worker.shutdown()


__all__ = ["SweepControl", "SweepPanel"]
