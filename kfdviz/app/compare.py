"""The compare layout: two to four algorithms side by side on the same data.

Two or three panels stand in a row, four in a 2 × 2 grid (the figure painter's arrangement for
four panels). Each panel is one fit slot of the worker ("compare-0", ...) with its own
parameters; a parameter the user links has one value in every panel that has it (see
:mod:`kfdviz.app.pictures`). The panels' view boxes are linked, so panning or zooming one moves
all, and every panel draws the same points over the same grid box (TPAMI Fig. 1 and the 1999
Fig. 1 made interactive). Clicking a panel's header makes it the one the algorithm panel edits.
A panel's caption is built from its slot's current parameters unless the slot still fits what
its given title describes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..estimators import registry
from ..session_schema import MAX_PANELS
from ..views import InputSpaceView, OutputsView, Scatter3DView
from ..views.style import LIGHT, Theme
from .params import name_unnamed, small_font
from .pictures import SlotState, caption, default_compare_slots
from .show_results import show_compare_caption

RIGHT_DOCK_WIDTH = 380  # the right-hand docks' width as the window first lays them out


MODES = (("input", "Input space"), ("outputs", "Outputs"), ("embedding", "Embedding"))
COUNT_WORDS = {2: "Two", 3: "Three", 4: "Four"}


def panel_grid(n: int) -> tuple[int, int]:
    """(rows, columns) of ``n`` compare panels: a row of up to three, four in a 2 × 2 grid (as
    the figure painter arranges four panels, so that each stays near the plot's shape)."""
    if n == 4:
        return 2, 2
    return 1, max(n, 1)


class ComparePanel(QFrame):
    """One algorithm's picture: its input-space view, its outputs or its embedding."""

    activated = Signal(int)
    algorithm_chosen = Signal(int, str)

    def __init__(self, index: int, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.index = index
        self.theme = theme
        self._active = False
        self._presenting = False
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.combo = QComboBox()
        for spec in registry.ALGORITHMS.values():
            if spec.kind != "regressor":
                self.combo.addItem(spec.title, spec.key)
        self.combo.setToolTip("Algorithm of this panel")
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(8)
        self.combo.activated.connect(self._chosen)
        self.caption = QLabel("")
        small_font(self.caption)
        self.caption.setWordWrap(True)
        # two lines for every caption, so that all panels keep the same plot height
        self.caption.setFixedHeight(2 * self.caption.fontMetrics().lineSpacing() + 2)
        self._caption_points = self.caption.font().pointSizeF()
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color: #D55E00; font-size: 8pt;")
        self.status.hide()
        self.edit_button = QPushButton("Edit")
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip("Edit this panel's parameters in the algorithm panel")
        self.edit_button.clicked.connect(lambda: self.activated.emit(self.index))
        self.combo.setAccessibleName(f"Panel {index + 1} Algorithm")
        self.edit_button.setAccessibleName(f"Panel {index + 1} Edit")
        head = QHBoxLayout()
        head.setContentsMargins(2, 2, 2, 2)
        head.addWidget(self.combo, 1)
        head.addWidget(self.edit_button)
        self.view = InputSpaceView(theme=theme, compact=True)
        name_unnamed(self.view, f"Panel {index + 1} picture")
        self._input3d: Scatter3DView | None = None
        self._outputs: OutputsView | None = None
        self._embedding: Scatter3DView | None = None
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.status)

    # pages, built when first needed
    @property
    def input3d(self) -> Scatter3DView:
        if self._input3d is None:
            self._input3d = Scatter3DView(theme=self.theme)
            name_unnamed(self._input3d, f"Panel {self.index + 1} input data in 3-D")
            self.stack.addWidget(self._input3d)
        return self._input3d

    @property
    def outputs(self) -> OutputsView:
        if self._outputs is None:
            self._outputs = OutputsView(theme=self.theme)
            name_unnamed(self._outputs, f"Panel {self.index + 1} outputs")
            self.stack.addWidget(self._outputs)
        return self._outputs

    @property
    def embedding(self) -> Scatter3DView:
        if self._embedding is None:
            self._embedding = Scatter3DView(theme=self.theme)
            name_unnamed(self._embedding, f"Panel {self.index + 1} embedding")
            self.stack.addWidget(self._embedding)
        return self._embedding

    def page(self, mode: str, three_d: bool) -> QWidget:
        """Show the page for ``mode`` ("input", "outputs", "embedding"); 3-D data have no
        input-space picture, so "input" shows the embedding for them."""
        if mode == "outputs":
            widget = self.outputs
        elif mode == "embedding" or three_d:
            widget = self.embedding
        else:
            widget = self.view
        self.stack.setCurrentWidget(widget)
        return widget

    def _chosen(self, _i: int) -> None:
        self.algorithm_chosen.emit(self.index, self.combo.currentData())

    def set_active(self, active: bool) -> None:
        self._active = active
        self.edit_button.setChecked(active)
        marked = active and not self._presenting
        self.setStyleSheet("ComparePanel { border: 2px solid #0072B2; }" if marked else "")

    def set_slot(self, slot: SlotState) -> None:
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(self.combo.findData(slot.algorithm), 0))
        self.combo.blockSignals(False)
        self.caption.setText(caption(slot))

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        for w in (self.view, self._input3d, self._outputs, self._embedding):
            if w is not None:
                w.set_theme(theme)

    def set_scale(self, scale: float, *, presenting: bool = False) -> None:
        """Presentation mode: large caption and pictures, no editing controls."""
        self._presenting = presenting
        self.set_active(self._active)
        self.combo.setVisible(not presenting)
        self.edit_button.setVisible(not presenting)
        font = QFont(self.caption.font())
        font.setPointSizeF(self._caption_points * scale)
        self.caption.setFont(font)
        self.caption.setFixedHeight(2 * self.caption.fontMetrics().lineSpacing() + 2)
        self.view.set_scale(scale)
        for w in (self._input3d, self._outputs, self._embedding):
            if w is not None:
                w.set_scale(scale)

    def set_error(self, message: str | None) -> None:
        self.status.setText(message or "")
        self.status.setVisible(bool(message))


class RightDockWidth(QObject):
    """The right-hand docks' width in the single layout, given back when the compare layout ends.

    The compare panels take the width: the window hides the right-hand docks for them. A dock
    shown again while the panels are there (View menu) is squeezed to its minimum, and docks never
    laid out before (a window that starts on a compare preset) have no width of their own; either
    way they would stay narrow in the single layout. This remembers the last width a right-hand
    dock had in the single layout and resizes the docks to it when the compare layout ends.
    """

    def __init__(self, window: QMainWindow, parent: QObject | None = None):
        super().__init__(parent)
        self.window = window
        self.width: int | None = None  # last seen in the single layout
        self.saved: int | None = None  # the width to give back when the compare layout ends
        self.watching = True
        for dock in self.docks():
            dock.installEventFilter(self)
            # a dock that was laid out before the compare layout was first needed
            if dock.isVisibleTo(window) or dock.width() >= dock.minimumSizeHint().width():
                self.width = max(self.width or 0, dock.width())

    def docks(self) -> list[QDockWidget]:
        right = Qt.DockWidgetArea.RightDockWidgetArea
        return [
            d
            for d in self.window.findChildren(QDockWidget)
            if d.parent() is self.window and self.window.dockWidgetArea(d) == right
        ]

    def _presenting(self) -> bool:
        return bool(getattr(self.window, "presenting", False))

    def eventFilter(self, obj, event) -> bool:
        if (
            event.type() == QEvent.Type.Resize
            and self.watching
            and not self._presenting()
            and isinstance(obj, QDockWidget)
            and obj.isVisible()
            and not obj.isFloating()
        ):
            self.width = obj.width()
        return False

    def enter_compare(self) -> None:
        """The compare layout begins: keep the single layout's width."""
        self.watching = False
        if self.saved is None and not self._presenting():
            self.saved = self.width or RIGHT_DOCK_WIDTH

    def leave_compare(self) -> None:
        """The compare layout ends: the docks shown get the single layout's width back."""
        width, self.saved = self.saved, None
        self.watching = True
        if width is None or self._presenting():
            return
        docks = [d for d in self.docks() if d.isVisible() and not d.isFloating()]
        if docks:
            self.window.resizeDocks(docks, [width] * len(docks), Qt.Orientation.Horizontal)
        self.width = width


class CompareView(QWidget):
    """Two to four ComparePanels, in a row or a 2 × 2 grid (:func:`panel_grid`); panning or
    zooming one moves them all."""

    activated = Signal(int)
    algorithm_chosen = Signal(int, str)
    count_changed = Signal(int)
    mode_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.panels: list[ComparePanel] = []
        self.grid = QGridLayout()
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(4)
        self.count = QComboBox()
        for n in range(2, MAX_PANELS + 1):
            self.count.addItem(f"{COUNT_WORDS[n]} panels", n)
        self.count.setToolTip("How many algorithms to compare")
        self.count.currentIndexChanged.connect(
            lambda _i: self.count_changed.emit(self.count.currentData())
        )
        self.mode = QComboBox()
        for key, label in MODES:
            self.mode.addItem(label, key)
        self.mode.setToolTip(
            "What each panel shows: the input space with the level sets, the histograms of "
            "the outputs, or the embedding of the points (3-D data: always the embedding)"
        )
        self.count.setAccessibleName("Compare panels")
        self.mode.setAccessibleName("Compare panels show")
        self.mode.currentIndexChanged.connect(
            lambda _i: self.mode_changed.emit(self.mode.currentData())
        )
        hint = QLabel(
            "Same data, linked axes; each panel has its own parameters unless linked (the chain "
            "beside a parameter). “Edit” picks the panel to change."
        )
        small_font(hint)
        hint.setWordWrap(True)
        self.hint = hint
        top = QHBoxLayout()
        top.addWidget(self.count)
        top.addWidget(self.mode)
        top.addWidget(hint, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addLayout(self.grid, 1)
        for i in range(MAX_PANELS):
            panel = ComparePanel(i, theme, self)
            panel.activated.connect(self.activated)
            panel.algorithm_chosen.connect(self.algorithm_chosen)
            self.panels.append(panel)
            panel.view.viewbox.sigRangeChangedManually.connect(lambda _mask, i=i: self.sync_from(i))
        self._syncing = False
        self.dock_width: RightDockWidth | None = None
        self.shown = 0  # panels on screen (set_count)
        self.set_count(MAX_PANELS - 1)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._claim_width(True)
        window = self.window()
        if self.dock_width is None and isinstance(window, QMainWindow) and window is not self:
            self.dock_width = RightDockWidth(window, self)
        if self.dock_width is not None:
            self.dock_width.enter_compare()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        # Hidden by the window's layouts (not by the whole window closing or minimizing).
        if self.isHidden():
            self._claim_width(False)
            if self.dock_width is not None:
                self.dock_width.leave_compare()

    def _claim_width(self, shown: bool) -> None:
        """A stacked widget is as wide as its widest page's minimum, shown or not: hidden, the
        panels' minimum would keep the single layout (and the docks beside it) from its width."""
        policy = QSizePolicy.Policy.Preferred if shown else QSizePolicy.Policy.Ignored
        self.setSizePolicy(policy, policy)
        self.updateGeometry()

    def sync_from(self, index: int) -> None:
        """Give every other panel the view of panel ``index``: same centre, same scale.

        (pyqtgraph's own axis links fight the locked aspect ratio when panels differ in size
        by a pixel, and zoom out step by step; this keeps what the user sees identical.)
        """
        if self._syncing:
            return
        self._syncing = True
        try:
            vb = self.panels[index].view.viewbox
            (x0, x1), (y0, y1) = vb.viewRange()
            cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
            sx = (x1 - x0) / max(vb.width(), 1.0)
            sy = (y1 - y0) / max(vb.height(), 1.0)
            for i, panel in enumerate(self.panels):
                if i == index:
                    continue
                other = panel.view.viewbox
                w, h = max(other.width(), 1.0), max(other.height(), 1.0)
                other.setRange(
                    xRange=(cx - 0.5 * sx * w, cx + 0.5 * sx * w),
                    yRange=(cy - 0.5 * sy * h, cy + 0.5 * sy * h),
                    padding=0.0,
                )
        finally:
            self._syncing = False

    def set_mode(self, mode: str) -> None:
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(max(self.mode.findData(mode), 0))
        self.mode.blockSignals(False)

    def set_count(self, n: int) -> None:
        """Show the first ``n`` panels (2 to :data:`MAX_PANELS`), arranged by
        :func:`panel_grid`."""
        n = max(2, min(MAX_PANELS, n))
        if n != self.shown:
            self.shown = n
            rows, cols = panel_grid(n)
            for panel in self.panels:
                self.grid.removeWidget(panel)
            for i, panel in enumerate(self.panels):
                if i < n:
                    # equal cells, whatever the algorithms are called
                    self.grid.addWidget(panel, i // cols, i % cols)
                panel.setVisible(i < n)
            for r in range(MAX_PANELS):
                self.grid.setRowStretch(r, 1 if r < rows else 0)
            for c in range(MAX_PANELS):
                self.grid.setColumnStretch(c, 1 if c < cols else 0)
        self.count.blockSignals(True)
        self.count.setCurrentIndex(self.count.findData(n))
        self.count.blockSignals(False)

    def show_slots(self, slots, mode: str) -> None:
        """Each panel's algorithm and caption from its slot's current parameters (the caption
        says what the panel's page ``mode`` shows of the slot's last result)."""
        for panel, slot in zip(self.panels, slots, strict=False):
            panel.set_slot(slot)
            show_compare_caption(panel, caption(slot), slot.result, mode)

    def set_active(self, index: int) -> None:
        for i, panel in enumerate(self.panels):
            panel.set_active(i == index)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        for panel in self.panels:
            panel.set_theme(theme)

    def views(self) -> list[InputSpaceView]:
        return [p.view for p in self.panels]

    def set_scale(self, scale: float, *, presenting: bool = False) -> None:
        for w in (self.count, self.mode, self.hint):
            w.setVisible(not presenting)
        for panel in self.panels:
            panel.set_scale(scale, presenting=presenting)


__all__ = [
    "COUNT_WORDS",
    "MAX_PANELS",
    "ComparePanel",
    "CompareView",
    "RightDockWidth",
    "SlotState",
    "default_compare_slots",
    "panel_grid",
]
