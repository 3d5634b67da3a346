"""Sweeps in the window: a measure against a parameter, computed in the background.

A session or preset with a sweep (Park & Park's Fig. 3: test accuracy and number of support
vectors against σ for two pipelines) gets a "Sweep" dock below the pictures: one plot per
measure, σ on a logarithmic axis, one curve per pipeline (dashed as in the paper where the sweep
says so). The sweep runs on its own worker thread, so the pictures keep fitting meanwhile; it
shows its progress, can be cancelled, and is marked out of date when the data change.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..figure import palette
from ..pipeline import FitFailure
from ..sweep import METRICS, Sweep
from ..workers import FitWorker, SweepOutcome, SweepRequest, run_sweep_request

LEGEND_MARGIN = 4  # pixels around the legend's strip above a plot
MIN_LEGEND_POINTS = 6.0


def _legend_layout(legend: pg.LegendItem, columns: int, points: float) -> None:
    """Lay the legend's entries out in ``columns`` with text of ``points``; its size follows."""
    size = f"{points:.3g}pt"
    if legend.labelTextSize() != size:
        legend.setLabelTextSize(size)
        for _sample, label in legend.items:
            label.setText(label.text)  # (setLabelTextSize sets it for the next text)
    legend.setColumnCount(columns)
    # the entries' preferred sizes (LegendItem.updateSize sums their current, possibly stale,
    # geometries)
    legend.layout.invalidate()
    hint = legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize)
    legend.setGeometry(0, 0, hint.width(), hint.height())


class SweepPanel(QWidget):
    """The sweep's curves, with Run / Cancel and a progress bar."""

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
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        top.addWidget(self.run_button)
        self.plots_row = QHBoxLayout()
        self.plots: list[pg.PlotWidget] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addLayout(top)
        layout.addLayout(self.plots_row, 1)
        layout.addWidget(self.status)

    def set_sweep(self, sweep: Sweep | None) -> None:
        self.sweep = sweep
        self.result = None
        for w in self.plots:
            self.plots_row.removeWidget(w)
            w.deleteLater()
        self.plots = []
        if sweep is None:
            self.heading.setText("")
            return
        self.heading.setText(f"Sweep over {sweep.label or sweep.param}")
        for metric in sweep.metrics:
            w = pg.PlotWidget()
            w.setMinimumSize(220, 150)
            item = w.getPlotItem()
            item.hideButtons()
            item.setLogMode(x=bool(sweep.log), y=False)
            item.showGrid(x=True, y=True, alpha=0.25)
            item.setLabel("left", METRICS[metric])
            item.setLabel("bottom", self._param_name())
            back = pg.mkColor(self.theme.background)
            back.setAlpha(210)
            # Above the plot area, not over the curves: placed by _place_legend.
            legend = item.addLegend(offset=None, brush=pg.mkBrush(back))
            legend.setParentItem(item)
            item.vb.sigResized.connect(lambda _vb, w=w: self._place_legend(w))
            self.plots.append(w)
            self.plots_row.addWidget(w, 1)
        self.set_theme(self.theme)
        if self.scale != 1.0:
            self.set_scale(self.scale)
        self.status.setText("")

    def _place_legend(self, w: pg.PlotWidget) -> None:
        """The legend in a strip of its own above the plot area, right-aligned: its entries
        side by side when they fit the plot's width, else one above the other, in smaller type
        if even that is too wide."""
        item = w.getPlotItem()
        legend = item.legend
        if legend is None:
            return
        n = len(legend.items)
        if n == 0:
            legend.hide()
            if item.layout.rowMinimumHeight(0) != 0:
                item.layout.setRowFixedHeight(0, 0)
            return
        legend.show()
        room = item.width() - 2 * LEGEND_MARGIN
        points = 9.0 * self.scale
        _legend_layout(legend, n, points)
        if n > 1 and legend.width() > room:
            _legend_layout(legend, 1, points)
        for _ in range(4):  # the text shrinks, the symbols and gaps do not
            if not legend.width() > room > 0 or points <= MIN_LEGEND_POINTS:
                break
            points = max(MIN_LEGEND_POINTS, 0.98 * points * room / legend.width())
            _legend_layout(legend, 1, points)
        height = legend.height() + 2 * LEGEND_MARGIN
        if abs(item.layout.rowMinimumHeight(0) - height) > 0.5:
            item.layout.setRowFixedHeight(0, height)
        legend.anchor(itemPos=(1, 0), parentPos=(1, 0), offset=(-LEGEND_MARGIN, LEGEND_MARGIN))

    def _param_name(self) -> str:
        """The swept parameter's symbol ("σ" of "σ (Gaussian width, …)")."""
        if self.sweep is None:
            return ""
        return (self.sweep.label or self.sweep.param).split(" (")[0]

    def set_theme(self, theme) -> None:
        self.theme = theme
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
        size = f"{9 * self.scale:g}pt"
        for w, metric in zip(self.plots, self.sweep.metrics if self.sweep else (), strict=False):
            item = w.getPlotItem()
            for name in ("left", "bottom"):
                item.getAxis(name).setStyle(tickFont=tick)
            item.getAxis("left").setWidth(round(50 * self.scale))
            item.setLabel("left", METRICS[metric], **{"font-size": size})
            item.setLabel("bottom", self._param_name(), **{"font-size": size})
            if item.legend is not None:
                item.legend.setLabelTextSize(size)
                self._place_legend(w)
        for label in (self.heading, self.status):
            font = QFont(label.font())
            font.setPointSizeF(9.0 * (1.0 + 0.5 * (self.scale - 1.0)))
            label.setFont(font)
        if self.result is not None:
            self.show_result(self.result, emit=False)

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setVisible(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setValue(0)
            self.status.setText("Computing the sweep…")

    def set_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(100 * fraction))
        self.status.setText(message)

    def mark_stale(self, text: str) -> None:
        self.status.setText(text)

    def show_result(self, result, *, emit: bool = True) -> None:
        self.result = result
        sweep = result.sweep
        x = np.asarray(result.values, dtype=float)
        s = self.scale
        for w, metric in zip(self.plots, sweep.metrics, strict=False):
            item = w.getPlotItem()
            item.clear()
            if item.legend is not None:
                item.legend.clear()
            for k, curve in enumerate(sweep.curves):
                y = np.asarray(result.metrics[curve.label][metric], dtype=float)
                color = palette.class_color(k)
                pen = pg.mkPen(
                    color,
                    width=2.2 * s,
                    style=Qt.PenStyle.DashLine if curve.dashed else Qt.PenStyle.SolidLine,
                )
                item.plot(
                    x,
                    y,
                    pen=pen,
                    symbol=palette.class_symbol(k),
                    symbolSize=8 * s,
                    symbolBrush=color,
                    symbolPen=self.theme.point_edge,
                    name=curve.label,
                    connect="finite",
                )
            self._place_legend(w)
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
