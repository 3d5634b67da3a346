"""The outputs view: per-class histograms of the outputs, training against test (NIPS 2000 Fig. 2),
with the threshold and the error rates; for regression, the fitted curve over the samples and,
when asked, an SVR's ε-tube beside it (NIPS 2000 Fig. 3)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from ..pipeline import FitResult, RegressionCurve
from .overlay import PictureOverlay
from .style import LIGHT, Theme, class_qcolor, wrapped_title

TITLE_POINTS = 9.0
# A title too long for one line takes up to this many (a narrow dock at 1280 x 720).
TITLE_LINES = 3


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _plain_axes(w: pg.PlotWidget) -> None:
    """Tick labels in the data's own units: pyqtgraph's automatic SI prefix wrote
    "output (x0.001)" beside ticks at 0 to 50 for outputs of 0 to 0.05."""
    for name in ("left", "bottom"):
        w.getPlotItem().getAxis(name).enableAutoSIPrefix(False)


class OutputsView(QWidget):
    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.result: FitResult | None = None
        self._titles: dict[pg.PlotWidget, str] = {}  # each plot's whole title

        self.stack = QStackedWidget()
        # page 0: histograms
        self.hist_plot = pg.PlotWidget()
        self.hist_plot.getPlotItem().hideButtons()
        _plain_axes(self.hist_plot)
        self.hist_plot.setMinimumSize(200, 150)
        self._legend_html = ""
        self.threshold_line = pg.InfiniteLine(angle=90, movable=False)
        self.hist_plot.addItem(self.threshold_line)
        self.hist_items: list = []
        self.stack.addWidget(self.hist_plot)
        # page 1: regression curves (the method's fit; an SVR beside it)
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        self.curve_plots = []
        for _ in range(2):
            w = pg.PlotWidget()
            w.getPlotItem().hideButtons()
            _plain_axes(w)
            w.setMinimumSize(160, 150)
            self.curve_plots.append(w)
            row.addWidget(w)
        self.curve_plots[1].hide()
        self.stack.addWidget(holder)

        self.summary = QLabel(" ")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.summary)
        self.overlay = PictureOverlay(self.stack, theme=theme)
        self.set_theme(theme)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        for w in self._titles:
            self._show_title(w)

    def _set_title(self, w: pg.PlotWidget, text: str) -> None:
        self._titles[w] = text
        self._show_title(w)

    def _show_title(self, w: pg.PlotWidget) -> None:
        """The plot's title, on more lines where the dock is too narrow for one, cut with an
        ellipsis only where TITLE_LINES do not hold it (pyqtgraph would clip it at the edge); the whole
        title is the plot's tooltip then."""
        text = self._titles[w]
        # The title sits over the view box: the plot less its left axis and the margins.
        room = w.width() - w.getPlotItem().getAxis("left").width() - 24.0
        shown = wrapped_title(text, TITLE_POINTS, room, lines=TITLE_LINES)
        w.getPlotItem().setTitle(shown, size=f"{TITLE_POINTS:g}pt", color=self.theme.foreground)
        w.setToolTip(text if shown.replace("<br>", " ") != text else "")

    def set_scale(self, scale: float) -> None:
        """Larger axis text and summary (presentation mode) or back (1.0)."""
        tick = QFont()
        tick.setPointSizeF(max(9.0, 9.0 * scale))
        for w in [self.hist_plot, *self.curve_plots]:
            for name in ("left", "bottom"):
                w.getPlotItem().getAxis(name).setStyle(tickFont=tick)
            w.getPlotItem().getAxis("left").setWidth(round(44 * scale))
        font = QFont(self.summary.font())
        font.setPointSizeF(max(9.0, 9.0 * scale))
        self.summary.setFont(font)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        for w in [self.hist_plot, *self.curve_plots]:
            w.setBackground(theme.background)
            for name in ("left", "bottom"):
                w.getPlotItem().getAxis(name).setPen(theme.foreground)
                w.getPlotItem().getAxis(name).setTextPen(theme.foreground)
        self.threshold_line.setPen(pg.mkPen(theme.boundary, width=2, style=Qt.PenStyle.DashLine))
        self.overlay.set_theme(theme)
        if self.result is not None:
            self.set_result(self.result)

    def clear(self) -> None:
        self.result = None
        for it in self.hist_items:
            self.hist_plot.removeItem(it)
        self.hist_items = []
        self._legend_html = ""
        self.threshold_line.hide()
        self.summary.setText(" ")

    def set_result(self, result: FitResult) -> None:
        self.result = result
        if result.kind == "regressor" or result.curve is not None:
            self.stack.setCurrentIndex(1)
            self._draw_regression(result)
        else:
            self.stack.setCurrentIndex(0)
            self._draw_histograms(result)
        summary = self._summary(result)
        if self._legend_html and self.stack.currentIndex() == 0:
            summary = f"{self._legend_html}<br>{summary}"
        self.summary.setText(summary)

    # -- histograms ------------------------------------------------------------------------
    def _draw_histograms(self, result: FitResult) -> None:
        for it in self.hist_items:
            self.hist_plot.removeItem(it)
        self.hist_items = []
        legend = []
        h = result.histograms
        item = self.hist_plot.getPlotItem()
        short = result.feature_label.split(": ", 1)[-1]
        self._set_title(self.hist_plot, f"Histogram of the outputs: {short}")
        item.setLabel("left", "density")
        item.setLabel("bottom", "output")
        if h is None:
            self.threshold_line.hide()
            return
        edges = h.edges
        keys = sorted(h.density, key=lambda k: (str(k[0]), k[1] != "train"))
        # A novelty detector's data may carry labels (normal and novel points): name those
        # classes; one label is "all points", listed once.
        labels_seen = {label for label, _ in keys}
        has_labels = result.y is not None and (result.kind != "novelty" or len(labels_seen) > 1)
        has_test = any(role == "test" for _, role in keys)
        for label, role in keys:
            dens = h.density[(label, role)]
            k = int(label) if has_labels else 0
            color = class_qcolor(k) if has_labels else QColor(self.theme.foreground)
            name = f"class {k + 1}" if has_labels else "all points"
            if role == "train":
                fill = QColor(color)
                fill.setAlpha(90)
                curve = pg.PlotDataItem(
                    edges,
                    dens,
                    stepMode="center",
                    fillLevel=0,
                    brush=pg.mkBrush(fill),
                    pen=pg.mkPen(color, width=1.4),
                    name=f"{name}, training" if has_test else name,
                )
            else:
                curve = pg.PlotDataItem(
                    edges,
                    dens,
                    stepMode="center",
                    pen=pg.mkPen(color, width=2.2, style=Qt.PenStyle.DashLine),
                    name=f"{name}, test",
                )
            self.hist_plot.addItem(curve)
            self.hist_items.append(curve)
            swatch = "■" if role == "train" else "▭"
            role_text = "training" if role == "train" else "test"
            entry = f"{name} {role_text}" if has_test else name
            legend.append(
                f"<span style='color:{color.name()}'>{swatch}</span>&nbsp;"
                + entry.replace(" ", "&nbsp;")
            )
        # Lines break between entries, never inside one ("class 2" / "test").
        self._legend_html = "&nbsp; ".join(legend)
        if result.threshold is not None:
            self.threshold_line.setValue(result.threshold)
            self.threshold_line.show()
        else:
            self.threshold_line.hide()

    # -- regression --------------------------------------------------------------------------
    def _draw_curve_plot(self, w: pg.PlotWidget, result: FitResult, curve: RegressionCurve):
        w.clear()
        theme = self.theme
        self._set_title(w, curve.title)
        X, y, test = result.X[:, 0], np.asarray(result.y, dtype=float), result.test_mask
        if curve.epsilon:
            upper = pg.PlotCurveItem(curve.x, curve.y + curve.epsilon, pen=pg.mkPen(None))
            lower = pg.PlotCurveItem(curve.x, curve.y - curve.epsilon, pen=pg.mkPen(None))
            band = QColor(class_qcolor(1))
            band.setAlpha(60)
            fill = pg.FillBetweenItem(upper, lower, brush=pg.mkBrush(band))
            for it in (upper, lower, fill):
                w.addItem(it)
        w.addItem(
            pg.ScatterPlotItem(
                X[~test], y[~test], size=7, brush=pg.mkBrush(class_qcolor(0)), pen=pg.mkPen(None)
            )
        )
        if test.any():
            w.addItem(
                pg.ScatterPlotItem(
                    X[test],
                    y[test],
                    size=7,
                    brush=pg.mkBrush(theme.test_fill),
                    pen=pg.mkPen(class_qcolor(0), width=1.5),
                )
            )
        w.addItem(pg.PlotCurveItem(curve.x, curve.y, pen=pg.mkPen(theme.boundary, width=2)))
        if curve.expansion_x is not None and curve.expansion_x.size:
            w.addItem(
                pg.ScatterPlotItem(
                    curve.expansion_x,
                    curve.expansion_y,
                    size=15,
                    brush=pg.mkBrush(0, 0, 0, 0),
                    pen=pg.mkPen(theme.expansion, width=1.3),
                )
            )

    def _draw_regression(self, result: FitResult) -> None:
        if result.curve is not None:
            self._draw_curve_plot(self.curve_plots[0], result, result.curve)
        svr = result.svr_curve
        if svr is not None and svr is not result.curve:
            self.curve_plots[1].show()
            self._draw_curve_plot(self.curve_plots[1], result, svr)
            self.curve_plots[1].setXLink(self.curve_plots[0])
            self.curve_plots[1].setYLink(self.curve_plots[0])
        else:
            self.curve_plots[1].hide()

    # -- the numbers ----------------------------------------------------------------------------
    def _summary(self, r: FitResult) -> str:
        parts = [f"<b>{r.title}</b>"]
        if r.error_name == "error":
            parts.append(f"training error {_percent(r.train_error)}")
            if r.n_test:
                parts.append(f"test error {_percent(r.test_error)}")
        elif r.error_name == "outliers":
            learned = r.diagnostics.get("learned_class")
            what = f"{learned.lower()} flagged" if learned else "flagged as novel"
            parts.append(f"{what}: training {_percent(r.train_error)}")
            if r.n_test:
                parts.append(f"test {_percent(r.test_error)}")
            if learned:
                parts.append(f"should be novel: {r.diagnostics['other_classes_flagged']}")
        elif r.error_name == "RMSE":
            parts.append(f"training RMSE {r.train_error:.4g}" if r.train_error is not None else "")
            if r.n_test and r.test_error is not None:
                parts.append(f"test RMSE {r.test_error:.4g}")
        if r.threshold is not None and r.kind == "classifier":
            parts.append(f"threshold {r.threshold:+.3g}")
        if r.sparsity is not None and r.n_expansion_total and r.kind in ("classifier", "regressor"):
            parts.append(f"zero coefficients {100 * r.sparsity:.0f} %")
        return " · ".join(p for p in parts if p)
