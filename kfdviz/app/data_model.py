"""The points the user works on, as a Qt object the widgets can watch.

The points live in a Qt-free :class:`~kfdviz.datasets.drawing.DrawnDataset` (every edit an
undoable command, drags and brush strokes merged into one step); this wrapper turns its observer
calls into the ``changed(kind)`` signal: "edit" (points added, moved, removed or relabelled),
"replace" (a different data set: views re-frame) or "roles" (the train/test split changed).

Generating or loading a data set is one ``replace`` step of the same history (it may have another
dimension), so Undo brings back what was drawn before, then continues with its history. Nothing
the user drew is lost.

In regression mode the points are (x, y) samples, stored as 2-D points of a dataset in
"regression" mode; requests get X = the x column and the targets y.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..datasets.drawing import MAX_CLASSES, Change, DrawnDataset
from ..session import split_roles

_KIND = {
    "roles": "roles",
    "clear": "replace",
    "restore": "replace",
    "mode": "replace",
    "replace": "replace",
}


class DataModel(QObject):
    changed = Signal(str)  # "edit" | "replace" | "roles"
    undo_state = Signal(bool, bool)  # can undo, can redo

    max_classes = MAX_CLASSES

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._ds = DrawnDataset(2)
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
        return self._ds.mode == "regression"

    @property
    def n(self) -> int:
        return self._ds.n_points

    @property
    def dimension(self) -> int:
        """Input dimension of the data (1 for regression samples)."""
        return 1 if self.regression else self._ds.dim

    def X(self) -> np.ndarray:
        return self._ds.X[:, :1] if self.regression else self._ds.X

    def y(self) -> np.ndarray:
        return self._ds.X[:, 1].copy() if self.regression else self._ds.y

    def test_mask(self) -> np.ndarray:
        return self._ds.test_mask

    def labels(self) -> np.ndarray | None:
        return None if self.regression else self._ds.y

    def display_points(self) -> np.ndarray:
        """(n, 2) coordinates as drawn: (x1, x2) of the data, (x, y) of regression samples."""
        X = self._ds.X
        if X.shape[1] >= 2:
            return X[:, :2]
        return np.column_stack([X[:, 0], np.zeros(X.shape[0])])

    def test_ratio(self) -> float:
        return self._test_ratio

    def can_undo(self) -> bool:
        return self._ds.can_undo

    def can_redo(self) -> bool:
        return self._ds.can_redo

    # -- notifications ---------------------------------------------------------------------
    def _observe(self, _ds: DrawnDataset, change: Change) -> None:
        self._emit(_KIND.get(change.kind, "edit"))

    def _emit(self, kind: str) -> None:
        self.version += 1
        self.changed.emit(kind)
        self.undo_state.emit(self.can_undo(), self.can_redo())

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
        label = 0 if self.regression else int(label)
        if not 0 <= label < self._ds.max_classes:
            raise ValueError(f"class labels go from 1 to {self._ds.max_classes}")
        self._ds.add(P[:, :2], label, self._new_roles(P.shape[0]), merge=merge)

    def remove(self, indices, *, merge=None) -> None:
        """Delete points; removals with one ``merge`` token (an erase stroke) undo as one."""
        idx = np.unique(np.asarray(indices, dtype=np.int64))
        if idx.size:
            self._ds.remove(idx, merge=merge)

    def move(self, index: int, x: float, y: float, *, merge=None) -> None:
        self._ds.move([int(index)], [[x, y]], merge=merge)

    def relabel(self, index: int, label: int) -> None:
        if self.regression:
            return
        if int(self._ds.y[index]) != int(label):
            self._ds.relabel([int(index)], [int(label)])

    def clear(self) -> None:
        if self.n:
            self._ds.clear()

    def replace(self, X, y, *, regression: bool = False, roles=None) -> None:
        """A new data set (generated or loaded) as one undoable step.

        Without ``roles`` the remembered split (ratio and seed) chooses the test points.
        """
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        if regression:
            points = np.column_stack([X[:, 0], np.asarray(y, dtype=float)])
            labels = np.zeros(len(points))
        else:
            points, labels = X, np.asarray(y)
        if roles is None and self._test_ratio > 0 and len(points) > 1:
            test = split_roles(
                len(points), self._test_ratio, self._split_seed, None if regression else labels
            )
            roles = np.where(test, "test", "train")
        self._ds.replace(
            points, labels, roles, mode="regression" if regression else "classification"
        )

    # -- presentation ----------------------------------------------------------------------------
    def detach(self) -> tuple:
        """Put the current points and their whole history aside; work on an empty data set.

        :meth:`attach` brings them back exactly (a presentation shows slides in between).
        """
        saved = (self._ds, self._test_ratio, self._split_seed)
        self._ds.unsubscribe(self._observe)
        self._ds = DrawnDataset(2)
        self._ds.subscribe(self._observe)
        return saved

    def attach(self, saved: tuple, *, notify: bool = True) -> None:
        """The points put aside by :meth:`detach`, with their history; emits "replace".

        With ``notify`` False only the undo state is told (the caller redraws and knows the
        pictures of these points are still valid: nothing is refitted).
        """
        ds, self._test_ratio, self._split_seed = saved
        self._ds.unsubscribe(self._observe)
        self._ds = ds
        ds.subscribe(self._observe)
        if notify:
            self._emit("replace")
        else:
            self.version += 1
            self.undo_state.emit(self.can_undo(), self.can_redo())

    def set_regression(self, regression: bool) -> None:
        """Switch between classes and (x, y) samples; the canvas starts empty (undoable)."""
        if regression == self.regression:
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
            self._ds.split(self._test_ratio, self._split_seed, stratify=not self.regression)

    def undo(self) -> None:
        self._ds.undo()

    def redo(self) -> None:
        self._ds.redo()
