"""The compare layout: two or three algorithms side by side on the same data and kernel.

Each panel is one fit slot of the worker ("compare-0", ...). The panels' view boxes are linked,
so panning or zooming one moves all, and every panel draws the same points over the same grid box
(TPAMI Fig. 1 and the 1999 Fig. 1 made interactive). Clicking a panel's header makes it the one
the algorithm panel edits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..estimators import registry
from ..pipeline import FitResult
from ..views import InputSpaceView, Scatter3DView
from ..views.style import LIGHT, Theme

MAX_PANELS = 3


@dataclass
class SlotState:
    """What one slot fits: an algorithm, its parameters, which output to draw, a caption."""

    name: str
    algorithm: str
    params: dict = field(default_factory=dict)
    feature: int | str = "auto"
    title: str = ""
    result: FitResult | None = None
    error: str | None = None
    error_param: str | None = None


class ComparePanel(QFrame):
    activated = Signal(int)
    algorithm_chosen = Signal(int, str)

    def __init__(self, index: int, theme: Theme, parent: QWidget | None = None):
        super().__init__(parent)
        self.index = index
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
        self.caption.setStyleSheet("font-size: 8pt;")
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("color: #D55E00; font-size: 8pt;")
        self.status.hide()
        self.edit_button = QPushButton("Edit")
        self.edit_button.setCheckable(True)
        self.edit_button.setToolTip("Edit this panel's parameters in the algorithm panel")
        self.edit_button.clicked.connect(lambda: self.activated.emit(self.index))
        head = QHBoxLayout()
        head.setContentsMargins(2, 2, 2, 2)
        head.addWidget(self.combo, 1)
        head.addWidget(self.edit_button)
        self.view = InputSpaceView(theme=theme, compact=True)
        self.view3d: Scatter3DView | None = None
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addLayout(head)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.status)

    def _chosen(self, _i: int) -> None:
        self.algorithm_chosen.emit(self.index, self.combo.currentData())

    def set_active(self, active: bool) -> None:
        self.edit_button.setChecked(active)
        self.setStyleSheet("ComparePanel { border: 2px solid #0072B2; }" if active else "")

    def set_slot(self, slot: SlotState) -> None:
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(self.combo.findData(slot.algorithm), 0))
        self.combo.blockSignals(False)
        self.caption.setText(slot.title)

    def show_3d(self, theme: Theme) -> Scatter3DView:
        if self.view3d is None:
            self.view3d = Scatter3DView(theme=theme)
            self.stack.addWidget(self.view3d)
        self.stack.setCurrentWidget(self.view3d)
        return self.view3d

    def show_2d(self) -> None:
        self.stack.setCurrentWidget(self.view)

    def set_error(self, message: str | None) -> None:
        self.status.setText(message or "")
        self.status.setVisible(bool(message))


class CompareView(QWidget):
    """Up to three ComparePanels in a row, their view boxes linked."""

    activated = Signal(int)
    algorithm_chosen = Signal(int, str)
    count_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.panels: list[ComparePanel] = []
        self.row = QHBoxLayout()
        self.row.setContentsMargins(0, 0, 0, 0)
        self.count = QComboBox()
        self.count.addItem("Two panels", 2)
        self.count.addItem("Three panels", 3)
        self.count.setToolTip("How many algorithms to compare")
        self.count.currentIndexChanged.connect(
            lambda _i: self.count_changed.emit(self.count.currentData())
        )
        hint = QLabel(
            "Same data, same kernel, linked axes. “Edit” picks the panel the "
            "algorithm panel changes."
        )
        hint.setStyleSheet("font-size: 8pt;")
        top = QHBoxLayout()
        top.addWidget(self.count)
        top.addWidget(hint, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addLayout(self.row, 1)
        for i in range(MAX_PANELS):
            panel = ComparePanel(i, theme)
            panel.activated.connect(self.activated)
            panel.algorithm_chosen.connect(self.algorithm_chosen)
            self.row.addWidget(panel)
            self.panels.append(panel)
            if i:
                panel.view.viewbox.setXLink(self.panels[0].view.viewbox)
                panel.view.viewbox.setYLink(self.panels[0].view.viewbox)

    def set_count(self, n: int) -> None:
        n = max(2, min(MAX_PANELS, n))
        for i, panel in enumerate(self.panels):
            panel.setVisible(i < n)
        self.count.blockSignals(True)
        self.count.setCurrentIndex(self.count.findData(n))
        self.count.blockSignals(False)

    def set_active(self, index: int) -> None:
        for i, panel in enumerate(self.panels):
            panel.set_active(i == index)

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        for panel in self.panels:
            panel.view.set_theme(theme)
            if panel.view3d is not None:
                panel.view3d.set_theme(theme)

    def views(self) -> list[InputSpaceView]:
        return [p.view for p in self.panels]


def default_compare_slots() -> list[SlotState]:
    return [
        SlotState("compare-0", "kfd", {}, "auto", "KFD"),
        SlotState("compare-1", "kpca", {"n_components": 2}, 0, "KPCA feature 1"),
        SlotState("compare-2", "kpca", {"n_components": 2}, 1, "KPCA feature 2"),
    ]


__all__ = ["MAX_PANELS", "ComparePanel", "CompareView", "SlotState", "default_compare_slots"]
