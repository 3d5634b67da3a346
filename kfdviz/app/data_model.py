"""The points the user works on, with undo and redo, as a Qt object the widgets can watch.

The window never edits arrays directly: every change goes through this model as an undoable
command, so nothing drawn is ever lost (a generated or loaded data set replaces the points as one
command, which Undo reverts). ``changed(kind)`` tells the views what happened: "edit" (points
added, moved, removed or relabelled), "replace" (a new data set: views re-frame) or "roles" (the
train/test split changed).

In regression mode the points are (x, y) samples: X is the x column and the targets are y.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal

UNDO_DEPTH = 200


@dataclass(frozen=True)
class Snapshot:
    X: np.ndarray  # (n, d)
    y: np.ndarray  # (n,) int labels, or float targets in regression mode
    test: np.ndarray  # (n,) bool
    regression: bool

    @staticmethod
    def empty(regression: bool = False) -> Snapshot:
        return Snapshot(
            np.zeros((0, 1 if regression else 2)),
            np.zeros(0, float if regression else np.int64),
            np.zeros(0, bool),
            regression,
        )


class DataModel(QObject):
    changed = Signal(str)  # "edit" | "replace" | "roles"
    undo_state = Signal(bool, bool)  # can undo, can redo

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._state = Snapshot.empty()
        self._undo: list[tuple[Snapshot, str, object]] = []
        self._redo: list[tuple[Snapshot, str, object]] = []
        self._merge_key: object = None
        self._test_ratio = 0.0
        self._split_seed = 0
        self.version = 0

    # -- reading ---------------------------------------------------------------------------------
    @property
    def regression(self) -> bool:
        return self._state.regression

    @property
    def n(self) -> int:
        return int(self._state.X.shape[0])

    @property
    def dimension(self) -> int:
        return int(self._state.X.shape[1])

    def X(self) -> np.ndarray:
        return self._state.X

    def y(self) -> np.ndarray:
        return self._state.y

    def test_mask(self) -> np.ndarray:
        return self._state.test

    def labels(self) -> np.ndarray | None:
        return None if self.regression else self._state.y

    def classes(self) -> np.ndarray:
        return np.zeros(0, int) if self.regression else np.unique(self._state.y)

    def display_points(self) -> np.ndarray:
        """(n, 2) coordinates as drawn: (x1, x2) of 2-D data, (x, y) of regression samples."""
        s = self._state
        if s.regression:
            return np.column_stack([s.X[:, 0], s.y]) if self.n else np.zeros((0, 2))
        if s.X.shape[1] >= 2:
            return s.X[:, :2]
        return np.column_stack([s.X[:, 0], np.zeros(self.n)])

    def test_ratio(self) -> float:
        return self._test_ratio

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- commands ----------------------------------------------------------------------------
    def _commit(self, new: Snapshot, kind: str, merge: object = None) -> None:
        """Make ``new`` current; ``merge`` joins this command with the previous one (drags)."""
        if merge is None or merge != self._merge_key or not self._undo:
            self._undo.append((self._state, kind, merge))
            del self._undo[:-UNDO_DEPTH]
        self._merge_key = merge
        self._redo.clear()
        self._state = new
        self.version += 1
        self.changed.emit(kind)
        self.undo_state.emit(self.can_undo(), self.can_redo())

    def end_stroke(self) -> None:
        """The drag that merged its edits into one command is over."""
        self._merge_key = None

    def _new_roles(self, n_new: int) -> np.ndarray:
        """Roles for appended points: a test point with probability of the split's ratio."""
        if self._test_ratio <= 0 or n_new == 0:
            return np.zeros(n_new, bool)
        rng = np.random.default_rng(self.version + 7919 * self._split_seed + 1)
        return rng.random(n_new) < self._test_ratio

    def add_points(self, points: np.ndarray, label=0, *, merge: object = None) -> None:
        """Append display-coordinate points of class ``label`` (regression: (x, y) samples)."""
        P = np.atleast_2d(np.asarray(points, dtype=float))
        if P.shape[0] == 0:
            return
        s = self._state
        if s.regression:
            X = np.vstack([s.X, P[:, :1]])
            y = np.concatenate([s.y, P[:, 1]])
        else:
            if s.X.shape[1] != 2:
                raise ValueError("points can be drawn on 2-D data only")
            X = np.vstack([s.X, P[:, :2]])
            y = np.concatenate([s.y, np.full(P.shape[0], int(label), dtype=s.y.dtype)])
        test = np.concatenate([s.test, self._new_roles(P.shape[0])])
        self._commit(Snapshot(X, y, test, s.regression), "edit", merge)

    def remove(self, indices, *, merge: object = None) -> None:
        idx = np.unique(np.asarray(indices, dtype=int))
        if idx.size == 0:
            return
        s = self._state
        keep = np.ones(self.n, bool)
        keep[idx] = False
        self._commit(Snapshot(s.X[keep], s.y[keep], s.test[keep], s.regression), "edit", merge)

    def move(self, index: int, x: float, y: float, *, merge: object = None) -> None:
        s = self._state
        X, yy = s.X.copy(), s.y.copy()
        if s.regression:
            X[index, 0] = x
            yy[index] = y
        else:
            X[index, :2] = (x, y)
        self._commit(Snapshot(X, yy, s.test, s.regression), "edit", merge)

    def relabel(self, index: int, label: int) -> None:
        s = self._state
        if s.regression or int(s.y[index]) == int(label):
            return
        y = s.y.copy()
        y[index] = int(label)
        self._commit(Snapshot(s.X, y, s.test, s.regression), "edit")

    def clear(self) -> None:
        if self.n == 0:
            return
        self._commit(Snapshot.empty(self.regression), "replace")

    def replace(self, X, y, *, regression: bool = False, test=None) -> None:
        """A new data set (generated or loaded) as one undoable command."""
        X = np.asarray(X, dtype=float)
        if X.ndim == 1:
            X = X[:, None]
        y = np.asarray(y, dtype=float if regression else np.int64)
        if test is None:
            test = self._split_roles(X.shape[0], self._test_ratio, self._split_seed)
        self._commit(Snapshot(X, y, np.asarray(test, bool), regression), "replace")

    def set_regression(self, regression: bool) -> None:
        """Switch between classes and (x, y) samples; the points start empty (undoable)."""
        if regression == self.regression:
            return
        self._commit(Snapshot.empty(regression), "replace")

    @staticmethod
    def _split_roles(n: int, ratio: float, seed: int) -> np.ndarray:
        test = np.zeros(n, bool)
        k = round(ratio * n)
        if k > 0 and n > 1:
            k = min(k, n - 1)
            test[np.random.default_rng(seed).permutation(n)[:k]] = True
        return test

    def set_split(self, ratio: float, seed: int | None = None) -> None:
        """Hold out ``ratio`` of the points, chosen with ``seed``, as test points."""
        self._test_ratio = float(ratio)
        if seed is not None:
            self._split_seed = int(seed)
        s = self._state
        test = self._split_roles(self.n, self._test_ratio, self._split_seed)
        if np.array_equal(test, s.test):
            return
        self._commit(Snapshot(s.X, s.y, test, s.regression), "roles")

    def undo(self) -> None:
        if not self._undo:
            return
        previous, kind, _ = self._undo.pop()
        self._redo.append((self._state, kind, None))
        self._apply(previous, kind)

    def redo(self) -> None:
        if not self._redo:
            return
        nxt, kind, _ = self._redo.pop()
        self._undo.append((self._state, kind, None))
        self._apply(nxt, kind)

    def _apply(self, state: Snapshot, kind: str) -> None:
        self._merge_key = None
        self._state = state
        self.version += 1
        self.changed.emit("replace" if kind == "replace" else "edit")
        self.undo_state.emit(self.can_undo(), self.can_redo())
