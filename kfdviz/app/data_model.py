"""The points the user works on, as a Qt object the widgets can watch.

The points live in a Qt-free :class:`~kfdviz.datasets.drawing.DrawnDataset` (every edit an
undoable command, drags and brush strokes merged into one step); this wrapper turns its observer
calls into the ``changed(kind)`` signal: "edit" (points added, moved, removed or relabelled),
"replace" (a different data set: views re-frame) or "roles" (the train/test split changed).

Generating or loading a data set swaps in a new DrawnDataset (it may have another dimension);
the old one is kept, so Undo brings back what was drawn before, then continues with its own
history. Nothing the user drew is lost.

In regression mode the points are (x, y) samples, stored as 2-D points; requests get X = the x
column and the targets y.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..datasets.drawing import MAX_CLASSES, Change, DrawnDataset

# Data sets kept for undo across "Generate" / "Open".
DATASET_HISTORY = 20
_KIND = {"roles": "roles", "clear": "replace", "restore": "replace", "mode": "replace"}


class DataModel(QObject):
    changed = Signal(str)  # "edit" | "replace" | "roles"
    undo_state = Signal(bool, bool)  # can undo, can redo

    max_classes = MAX_CLASSES

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._ds = DrawnDataset(2)
        self._regression = False
        self._past: list[tuple[DrawnDataset, bool]] = []
        self._future: list[tuple[DrawnDataset, bool]] = []
        self._test_ratio = 0.0
        self._split_seed = 0
        self.version = 0
        self._ds.subscribe(self._observe)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def dataset(self) -> DrawnDataset:
        return self._ds

    @property
    def regression(self) -> bool:
        return self._regression

    @property
    def n(self) -> int:
        return self._ds.n_points

    @property
    def dimension(self) -> int:
        """Input dimension of the data (1 for regression samples)."""
        return 1 if self._regression else self._ds.dim

    def X(self) -> np.ndarray:
        return self._ds.X[:, :1] if self._regression else self._ds.X

    def y(self) -> np.ndarray:
        return self._ds.X[:, 1].copy() if self._regression else self._ds.y

    def test_mask(self) -> np.ndarray:
        return self._ds.test_mask

    def labels(self) -> np.ndarray | None:
        return None if self._regression else self._ds.y

    def display_points(self) -> np.ndarray:
        """(n, 2) coordinates as drawn: (x1, x2) of the data, (x, y) of regression samples."""
        X = self._ds.X
        if X.shape[1] >= 2:
            return X[:, :2]
        return np.column_stack([X[:, 0], np.zeros(X.shape[0])])

    def test_ratio(self) -> float:
        return self._test_ratio

    def can_undo(self) -> bool:
        return self._ds.can_undo or bool(self._past)

    def can_redo(self) -> bool:
        return self._ds.can_redo or bool(self._future)

    # -- notifications ---------------------------------------------------------------------
    def _observe(self, _ds: DrawnDataset, change: Change) -> None:
        self._emit(_KIND.get(change.kind, "edit"))

    def _emit(self, kind: str) -> None:
        self.version += 1
        self.changed.emit(kind)
        self.undo_state.emit(self.can_undo(), self.can_redo())

    def _editing(self) -> None:
        """An edit drops the data sets one could have redone into."""
        self._future.clear()

    # -- commands ----------------------------------------------------------------------------
    def new_stroke(self) -> int:
        """A token that merges the edits of one drag into a single undo step."""
        return self._ds.new_merge_token()

    def end_stroke(self) -> None:
        """Nothing to do: a new stroke simply uses a new token."""

    def _new_roles(self, n_new: int) -> np.ndarray:
        """Drawn points are training points; moving the split slider re-splits all points."""
        return np.full(n_new, "train")

    def add_points(self, points, label: int = 0, *, merge=None) -> None:
        """Append display-coordinate points of class ``label`` (regression: (x, y) samples)."""
        P = np.atleast_2d(np.asarray(points, dtype=float))
        if P.shape[0] == 0:
            return
        if self._ds.dim != 2:
            raise ValueError("points can be drawn on 2-D data only")
        label = 0 if self._regression else int(label)
        if not 0 <= label < self._ds.max_classes:
            raise ValueError(f"class labels go from 1 to {self._ds.max_classes}")
        self._editing()
        self._ds.add(P[:, :2], label, self._new_roles(P.shape[0]), merge=merge)

    def remove(self, indices) -> None:
        idx = np.unique(np.asarray(indices, dtype=np.int64))
        if idx.size:
            self._editing()
            self._ds.remove(idx)

    def move(self, index: int, x: float, y: float, *, merge=None) -> None:
        self._editing()
        self._ds.move([int(index)], [[x, y]], merge=merge)

    def relabel(self, index: int, label: int) -> None:
        if self._regression:
            return
        if int(self._ds.y[index]) != int(label):
            self._editing()
            self._ds.relabel([int(index)], [int(label)])

    def clear(self) -> None:
        if self.n:
            self._editing()
            self._ds.clear()

    def _swap(self, ds: DrawnDataset, regression: bool) -> None:
        self._ds.unsubscribe(self._observe)
        self._ds, self._regression = ds, regression
        ds.subscribe(self._observe)

    def replace(self, X, y, *, regression: bool = False, roles=None) -> None:
        """A new data set (generated or loaded) as one undoable step."""
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        if regression:
            points = np.column_stack([X[:, 0], np.asarray(y, dtype=float)])
            ds = DrawnDataset.from_arrays(
                points, np.zeros(len(points), np.int64), roles, mode="classification"
            )
        else:
            ds = DrawnDataset.from_arrays(X, np.asarray(y), roles, mode="classification")
        if roles is None and self._test_ratio > 0 and ds.n_points > 1:
            ds.split(self._test_ratio, self._split_seed, stratify=not regression)
            ds.clear_history()
        self._past.append((self._ds, self._regression))
        del self._past[:-DATASET_HISTORY]
        self._future.clear()
        self._swap(ds, regression)
        self._emit("replace")

    def set_regression(self, regression: bool) -> None:
        """Switch between classes and (x, y) samples; the canvas starts empty (undoable)."""
        if regression == self._regression:
            return
        self.replace(np.zeros((0, 1 if regression else 2)), np.zeros(0), regression=regression)

    def remember_split(self, ratio: float, seed: int) -> None:
        """Set the split's ratio and seed without touching the current roles."""
        self._test_ratio, self._split_seed = float(ratio), int(seed)

    def split_seed(self) -> int:
        return self._split_seed

    def set_split(self, ratio: float, seed: int | None = None) -> None:
        """Hold out ``ratio`` of the points (stratified by class, chosen with ``seed``)."""
        self._test_ratio = float(ratio)
        if seed is not None:
            self._split_seed = int(seed)
        if self.n > 1:
            self._editing()
            self._ds.split(self._test_ratio, self._split_seed, stratify=not self._regression)

    def undo(self) -> None:
        if self._ds.can_undo:
            self._ds.undo()
        elif self._past:
            self._future.append((self._ds, self._regression))
            self._swap(*self._past.pop())
            self._emit("replace")

    def redo(self) -> None:
        if self._ds.can_redo:
            self._ds.redo()
        elif self._future:
            self._past.append((self._ds, self._regression))
            self._swap(*self._future.pop())
            self._emit("replace")
