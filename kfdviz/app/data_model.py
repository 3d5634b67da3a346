"""The points the user works on, as a Qt object the widgets can watch.

The points live in a Qt-free :class:`~kfdviz.datasets.drawing.DrawnDataset` (every edit an
undoable command, drags and brush strokes merged into one step); this wrapper turns its observer
calls into the ``changed(kind)`` signal: "edit" (points added, moved, removed or relabelled),
"replace" (a different data set: views re-frame) or "roles" (the train/test split changed).

The points belong to the window's :class:`~kfdviz.app.document.Document`; every edit here is one
step of its history (a drag or a brush stroke, given one ``merge`` token, one step). Generating
or loading a data set is one "replace" step (it may have another dimension), so Undo brings back
what was drawn before. Nothing the user drew is lost. Undo and redo are the document's; when
they put other points back, :meth:`DataModel.restored` tells the widgets.

In regression mode the points are (x, y) samples, stored as 2-D points of a dataset in
"regression" mode; requests get X = the x column and the targets y.
"""

from __future__ import annotations

import itertools

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..datasets.drawing import MAX_CLASSES, Change, DrawnDataset
from ..session import split_roles
from .document import Document

_KIND = {
    "roles": "roles",
    "clear": "replace",
    "restore": "replace",
    "mode": "replace",
    "replace": "replace",
}


class DataModel(QObject):
    changed = Signal(str)  # "edit" | "replace" | "roles"

    max_classes = MAX_CLASSES

    def __init__(self, document: Document | None = None, parent: QObject | None = None):
        """``document``: whose points these are (None: a document of their own)."""
        super().__init__(parent)
        document = Document() if document is None else document
        self.document = document
        self.history = document.history
        self.version = 0
        self._strokes = itertools.count(1)
        document.dataset.subscribe(self._observe)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def _ds(self) -> DrawnDataset:
        return self.document.dataset

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
        return self.document.test_ratio

    def can_undo(self) -> bool:
        return self.history.can_undo

    def can_redo(self) -> bool:
        return self.history.can_redo

    # -- notifications ---------------------------------------------------------------------
    def _observe(self, _ds: DrawnDataset, change: Change) -> None:
        # The document's history keeps the steps; the data set's own would only hold memory.
        _ds.clear_history()
        kind = _KIND.get(change.kind, "edit")
        if kind == "replace":
            self.history.note_replace()
        self._emit(kind)

    def _emit(self, kind: str) -> None:
        self.version += 1
        self.changed.emit(kind)

    def restored(self, kind: str) -> None:
        """Undo or redo put other points in place ("replace": re-frame, "edit", "roles")."""
        self._emit(kind)

    # -- commands ----------------------------------------------------------------------------
    def new_stroke(self) -> int:
        """A token that merges the edits of one drag into a single undo step."""
        return next(self._strokes)

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
        text = "Spray points" if merge is not None else "Add point"
        with self.history.group(text, merge=_key("add", merge)):
            self._ds.add(P[:, :2], label, self._new_roles(P.shape[0]), merge=merge)

    def remove(self, indices, *, merge=None) -> None:
        """Delete points; removals with one ``merge`` token (an erase stroke) undo as one."""
        idx = np.unique(np.asarray(indices, dtype=np.int64))
        if idx.size:
            text = "Erase points" if merge is not None or idx.size > 1 else "Erase point"
            with self.history.group(text, merge=_key("erase", merge)):
                self._ds.remove(idx, merge=merge)

    def move(self, index: int, x: float, y: float, *, merge=None) -> None:
        with self.history.group("Move point", merge=_key("move", merge)):
            self._ds.move([int(index)], [[x, y]], merge=merge)

    def relabel(self, index: int, label: int) -> None:
        if self.regression:
            return
        if int(self._ds.y[index]) != int(label):
            with self.history.group(f"Relabel point as class {int(label) + 1}"):
                self._ds.relabel([int(index)], [int(label)])

    def clear(self) -> None:
        if self.n:
            with self.history.group("Clear points"):
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
        if roles is None and self.document.test_ratio > 0 and len(points) > 1:
            doc = self.document
            test = split_roles(
                len(points), doc.test_ratio, doc.split_seed, None if regression else labels
            )
            roles = np.where(test, "test", "train")
        with self.history.group("Replace points"):
            self._ds.replace(
                points, labels, roles, mode="regression" if regression else "classification"
            )

    # -- presentation ----------------------------------------------------------------------------
    def detach(self) -> tuple:
        """Put the current points, their split and the whole history aside; work on an empty
        data set with a history of its own. :meth:`attach` brings them back exactly (a
        presentation shows slides in between)."""
        doc = self.document
        saved = (doc.use_dataset(DrawnDataset(2)), doc.test_ratio, doc.split_seed)
        return (*saved, doc.history.put_aside())

    def attach(self, saved: tuple, *, notify: bool = True) -> None:
        """The points put aside by :meth:`detach`, with their history; emits "replace".

        With ``notify`` False only the history's listeners are told (the caller redraws and
        knows the pictures of these points are still valid: nothing is refitted).
        """
        ds, ratio, seed, steps = saved
        doc = self.document
        doc.use_dataset(ds)
        doc.set_split(ratio, seed)
        doc.history.take_back(steps)
        if notify:
            self._emit("replace")
        else:
            self.version += 1

    def set_regression(self, regression: bool) -> None:
        """Switch between classes and (x, y) samples; the canvas starts empty (undoable)."""
        if regression == self.regression:
            return
        self.replace(np.zeros((0, 1 if regression else 2)), np.zeros(0), regression=regression)

    def remember_split(self, ratio: float, seed: int) -> None:
        """Set the split's ratio and seed without touching the current roles."""
        self.document.set_split(ratio, seed)

    def split_seed(self) -> int:
        return self.document.split_seed

    def set_split(self, ratio: float, seed: int | None = None) -> None:
        """Hold out ``ratio`` of the points (stratified by class, chosen with ``seed``)."""
        doc = self.document
        with self.history.group(f"Split {round(100 * float(ratio))} % test"):
            doc.set_split(ratio, seed)
            if self.n > 1:
                self._ds.split(doc.test_ratio, doc.split_seed, stratify=not self.regression)

    def undo(self) -> None:
        self.history.undo()

    def redo(self) -> None:
        self.history.redo()


def _key(kind: str, merge):
    """The history's merge key of a stroke's edits (None: not merged)."""
    return None if merge is None else ("points", kind, merge)
