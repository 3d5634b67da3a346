"""A compact arrangement of the docks for small screens and projectors.

Below ``COMPACT_BELOW`` (a 1024 x 768 or 1280 x 720 projector, a small laptop) the docks of each
side are tabbed instead of stacked: Data and Algorithm share the left column with Algorithm in
front, so the kernel width and the algorithm's parameters are visible without scrolling; Outputs,
Embedding and Diagnostics share the right column with Outputs in front. The plot keeps the
middle, colour bar included. The algorithm's description, which takes four lines there, keeps
to one line cut to the dock's width, the whole of it in its tooltip. Above the threshold the usual arrangement comes back. The switch
happens when the window crosses the threshold (and at the first show), never behind the user's
back otherwise: a dock moved by hand stays where it was put until the next crossing.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer

# Window width and height below which the compact arrangement is used.
COMPACT_BELOW = QSize(1250, 760)
# Narrower docks in the compact arrangement (pixels).
SIDE_MIN_WIDTH = {False: (325, 290), True: (270, 240)}


class CompactLayout:
    """Switches the docks between the usual and the compact arrangement (see the module)."""

    def __init__(self, window, workspace):
        self.window = window
        self.workspace = workspace
        self.compact: bool | None = None  # None: not arranged yet

    @staticmethod
    def wants_compact(size: QSize) -> bool:
        return size.width() < COMPACT_BELOW.width() or size.height() < COMPACT_BELOW.height()

    def follow(self, size: QSize) -> None:
        """Arrange for a window of ``size`` when it crosses the threshold."""
        compact = self.wants_compact(size)
        if self.compact is None and not compact:
            self.compact = False  # the window was built in the usual arrangement
        elif compact != self.compact:
            self.apply(compact)
        elif not compact:
            self.show_main_parameters()

    def apply(self, compact: bool) -> None:
        ws, window = self.workspace, self.window
        self.compact = compact
        left, right = SIDE_MIN_WIDTH[compact]
        # Never narrower than the panels' own content (and the scroll bar): a cut field is
        # worse than a narrower plot.
        panels = (ws.algorithm_panel, ws.data_panel)
        left = max(left, *(p.minimumSizeHint().width() + 22 for p in panels))
        for dock in (ws.data_dock, ws.algorithm_dock):
            dock.widget().setMinimumWidth(left)
        for view in (ws.outputs_view, ws.embedding_view, ws.diagnostics_view):
            view.setMinimumWidth(right)
        ws.algorithm_panel.set_compact(compact)
        if compact:
            window.tabifyDockWidget(ws.data_dock, ws.algorithm_dock)
            window.tabifyDockWidget(ws.outputs_dock, ws.embedding_dock)
            window.tabifyDockWidget(ws.outputs_dock, ws.diagnostics_dock)
            ws.algorithm_dock.raise_()
            ws.outputs_dock.raise_()
            # The plots' scenes follow their new widths once the docks are laid out.
            QTimer.singleShot(0, self._relayout_plots)
            # The middle for the plot: the side columns at their compact minimum.
            window.resizeDocks(
                [ws.algorithm_dock, ws.outputs_dock],
                [left + 10, right + 20],
                Qt.Orientation.Horizontal,
            )
        else:
            # Out of their tabs first: a dock split from a tabbed one would join the tabs.
            shown = {d: d.isVisible() for d in ws.docks()}
            for dock in (ws.algorithm_dock, ws.embedding_dock, ws.diagnostics_dock):
                window.removeDockWidget(dock)
            window.splitDockWidget(ws.data_dock, ws.algorithm_dock, Qt.Orientation.Vertical)
            window.splitDockWidget(ws.outputs_dock, ws.embedding_dock, Qt.Orientation.Vertical)
            window.tabifyDockWidget(ws.embedding_dock, ws.diagnostics_dock)
            for dock in (ws.algorithm_dock, ws.embedding_dock, ws.diagnostics_dock):
                dock.setVisible(shown[dock])
            ws.diagnostics_dock.raise_()
            ws.arrange_first_show()
            QTimer.singleShot(0, self.show_main_parameters)  # once the docks are laid out

    def show_main_parameters(self) -> None:
        """Give the stacked Algorithm dock the height its main parameters need (the kernel
        width and the algorithm's first parameter), taken from the Data dock above it, which
        scrolls: those are what a user moves, so they are never below the fold while the Data
        dock keeps at least a third of the column."""
        ws = self.workspace
        if self.window.tabifiedDockWidgets(ws.algorithm_dock):
            return
        area = ws.algorithm_dock.widget()
        column = ws.data_dock.height() + ws.algorithm_dock.height()
        if column <= 0 or area.viewport().height() <= 0:
            return
        chrome = ws.algorithm_dock.height() - area.viewport().height()
        needed = ws.algorithm_panel.main_parameters_bottom() + chrome
        if needed <= ws.algorithm_dock.height():
            return
        algorithm = min(needed, column - column // 3)
        self.window.resizeDocks(
            [ws.data_dock, ws.algorithm_dock],
            [column - algorithm, algorithm],
            Qt.Orientation.Vertical,
        )

    def _relayout_plots(self) -> None:
        """Fit every plot's scene to its widget again (a plot that shrank while its minimum
        was being recomputed keeps a wider scene otherwise, cutting off its colour bar)."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for view in self.window.findChildren(pg.GraphicsView):
            view.resizeEvent(None)


__all__ = ["COMPACT_BELOW", "CompactLayout"]
