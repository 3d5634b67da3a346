"""Diagnostics: the numbers a fit reports, its warnings in plain words, and its spectra."""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..pipeline import FitResult
from ..pipeline.result import describe_number
from .overlay import PictureOverlay
from .style import LIGHT, Theme, class_qcolor

NAMES = {
    "condition": "Condition number of the regularized matrix",
    "effective_rank": "Effective rank",
    "regularization": "Regularization used",
    "method": "Solver",
    "solver": "Solver",
    "status": "Solver status",
    "objective": "Objective value",
    "threshold": "Offset b",
    "sparsity": "Zero coefficients",
    "rayleigh_quotient": "Rayleigh quotient",
    "n_train": "Training points",
    "n_test": "Test points",
    "n_features": "Features",
    "n_expansion": "Expansion points",
    "n_nonzero": "Non-zero coefficients",
    "centroid_gram_condition": "Condition number of M'KM",
}
SERIES_NAMES = {
    "spectrum": "Eigen-spectrum",
    "eigenvalues": "Eigenvalues (kept components)",
    "explained_fraction": "Explained fraction of variance",
    "rayleigh_values": "Rayleigh values",
    "objective_path": "Greedy objective per step",
    "kernel_spectrum": "Eigenvalues of the training kernel matrix",
}
PERCENT = {"sparsity"}


def _pretty(key: str) -> str:
    return NAMES.get(key, key.replace("_", " ").capitalize())


class DiagnosticsView(QWidget):
    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.result: FitResult | None = None

        self.warnings = QLabel("")
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.RichText)
        self.warnings.setObjectName("warnings")
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Quantity", "Value"])
        self.table.verticalHeader().hide()
        # Both columns share the dock's width; a long quantity or value wraps in its row (the
        # rows take the height their text needs at the columns' widths of the moment).
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.sectionResized.connect(lambda *_: self.table.resizeRowsToContents())
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)

        self.series_choice = QComboBox()
        self.series_choice.setToolTip("Which sequence of numbers the fit reported to plot")
        self.series_choice.currentIndexChanged.connect(self._draw_series)
        self.series_plot = pg.PlotWidget()
        self.series_plot.getPlotItem().hideButtons()
        self.series_plot.setMinimumSize(180, 120)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("Plot:"))
        row.addWidget(self.series_choice, 1)
        rl.addLayout(row)
        rl.addWidget(self.series_plot, 1)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.warnings)
        ll.addWidget(self.table, 1)

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(split)
        self.overlay = PictureOverlay(split, theme=theme)
        self.set_theme(theme)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.overlay.set_theme(theme)
        self.series_plot.setBackground(theme.background)
        for name in ("left", "bottom"):
            axis = self.series_plot.getPlotItem().getAxis(name)
            axis.setPen(theme.foreground)
            axis.setTextPen(theme.foreground)
        self._draw_series()

    def clear(self) -> None:
        self.result = None
        self.table.setRowCount(0)
        self.warnings.setText("")
        self.series_choice.clear()
        self.series_plot.clear()

    def set_result(self, result: FitResult) -> None:
        self.result = result
        rows: list[tuple[str, str]] = [("Algorithm", result.title)]
        for key, value in result.diagnostics.items():
            if key in PERCENT and isinstance(value, int | float):
                text = f"{100 * value:.1f} %"
            else:
                text = describe_number(value)
            rows.append((_pretty(key), text))
        if result.error_name and result.train_error is not None:
            unit = result.error_name
            fmt = (lambda v: f"{v:.4g}") if unit == "RMSE" else (lambda v: f"{100 * v:.1f} %")
            label = {"error": "error", "outliers": "flagged novel", "RMSE": "RMSE"}[unit]
            rows.append((f"Training {label}", fmt(result.train_error)))
            if result.test_error is not None:
                rows.append((f"Test {label}", fmt(result.test_error)))
        for stage, seconds in result.timings.items():
            rows.append((f"Time: {stage}", f"{1000 * seconds:.1f} ms"))
        self.table.setRowCount(len(rows))
        for i, (name, value) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(name))
            item = QTableWidgetItem(value)
            item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, 1, item)
        if result.warnings:
            items = "".join(f"<li>{html.escape(w)}</li>" for w in result.warnings)
            self.warnings.setText(
                f"<span style='color:#D55E00'><b>⚠ Warnings</b></span><ul style='margin:2px'>"
                f"{items}</ul>"
            )
        else:
            self.warnings.setText("<span style='color:#009E73'>✓ No warnings</span>")
        current = self.series_choice.currentData()
        self.series_choice.blockSignals(True)
        self.series_choice.clear()
        for key in result.series:
            self.series_choice.addItem(SERIES_NAMES.get(key, _pretty(key)), key)
        index = self.series_choice.findData(current)
        self.series_choice.setCurrentIndex(max(index, 0))
        self.series_choice.blockSignals(False)
        self._draw_series()

    def _draw_series(self, *_):
        self.series_plot.clear()
        r = self.result
        key = self.series_choice.currentData()
        item = self.series_plot.getPlotItem()
        if r is None or key is None or key not in r.series:
            # No axes either: the previous fit's scale and labels would describe nothing.
            item.setLogMode(y=False)
            for name in ("left", "bottom"):
                item.hideAxis(name)
            item.setTitle(
                "no spectrum or objective path for this fit", size="9pt", color=self.theme.muted
            )
            return
        for name in ("left", "bottom"):
            item.showAxis(name)
        values = np.asarray(r.series[key], dtype=float)
        steps = np.arange(1, values.size + 1)
        positive = values[np.isfinite(values)]
        log = (
            key != "objective_path"
            and positive.size > 0
            and np.all(positive > 0)
            and (positive.max() / positive.min() > 100)
        )
        item.setLogMode(y=bool(log))
        item.setTitle(SERIES_NAMES.get(key, _pretty(key)), size="9pt", color=self.theme.foreground)
        item.setLabel("bottom", "step" if key == "objective_path" else "index")
        color = class_qcolor(0)
        if key == "objective_path":
            self.series_plot.plot(
                steps,
                values,
                pen=pg.mkPen(color, width=2),
                symbol="o",
                symbolSize=5,
                symbolBrush=color,
            )
        else:
            shown = np.where(values > 0, values, np.nan) if log else values
            self.series_plot.plot(
                steps,
                shown,
                pen=pg.mkPen(color, width=1.5),
                symbol="o",
                symbolSize=5,
                symbolBrush=color,
            )
