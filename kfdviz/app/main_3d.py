"""The large 3-D view of data of three or more features: the embedding, or the input data.

An algorithm whose product is an embedding (KOC; KPCA's, oriented KPCA's or KFD's features of
points beyond the plane) shows it in the main view, large and rotatable; "Input data" above the
view shows the points themselves (a PCA projection beyond three features), one click away. The
choice is the viewer's, not a change of the document: it holds over refits and data sets.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from ..pipeline import FitResult
from .show_results import input_3d_title, points_3d

_TIPS = {
    "input": "Show the points in their own features (drag to rotate)",
    "embedding": "Show the points in the features the algorithm extracts (drag to rotate)",
}


class Main3D(QObject):
    """The toggle bar ("Input data" / "Embedding") and what it puts in the 3-D ``view``."""

    chosen = Signal()  # the user picked what to show

    def __init__(self, view, parent: QWidget):
        super().__init__(parent)
        self.view = view
        self.bar = QWidget(parent)
        row = QHBoxLayout(self.bar)
        row.setContentsMargins(4, 2, 4, 0)
        row.setSpacing(0)
        self.group = QButtonGroup(self.bar)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        for key, label in (("input", "Input data"), ("embedding", "Embedding")):
            button = QToolButton()
            button.setText(label)
            button.setAccessibleName(label)
            button.setToolTip(_TIPS[key])
            button.setCheckable(True)
            self.group.addButton(button)
            self.buttons[key] = button
            row.addWidget(button)
            button.clicked.connect(lambda _=False, key=key: self._choose(key))
        row.addStretch(1)
        self.bar.hide()
        self.shows = "embedding"  # what the view shows when there is an embedding

    def _choose(self, key: str) -> None:
        self.shows = key
        self.chosen.emit()

    def show(self, data, r: FitResult | None, *, from_result: bool = True) -> None:
        """Show ``r``'s embedding when it has one (unless "Input data" is chosen), else the
        input points: ``r``'s when ``from_result`` and they are the data's, else the data's as
        they are now (an edit not fitted yet)."""
        has_embedding = (
            r is not None
            and r.embedding is not None
            and r.kind != "regressor"
            and r.X.shape[1] == data.dimension
        )
        embedding = has_embedding and self.shows == "embedding"
        self.buttons["embedding"].setEnabled(has_embedding)
        self.buttons["embedding"].setToolTip(
            _TIPS["embedding"]
            if has_embedding
            else "This algorithm gives no embedding of the points"
        )
        self.buttons["embedding" if embedding else "input"].setChecked(True)
        if embedding:
            self.view.set_points(
                r.embedding,
                r.y,
                r.test_mask,
                r.embedding_labels,
                f"{r.title}: embedding of all points",
            )
        elif from_result and r is not None and r.points3d is not None and len(r.X) == data.n:
            self.view.set_points(
                r.points3d, r.y, r.test_mask, r.points3d_labels, input_3d_title(data)
            )
        else:
            pts3, axes = points_3d(data)
            self.view.set_points(pts3, data.labels(), data.test_mask(), axes, input_3d_title(data))


__all__ = ["Main3D"]
