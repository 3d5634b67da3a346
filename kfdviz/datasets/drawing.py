"""The point set the user draws and edits: points, labels or targets, train/test roles, undo.

Plain Python and numpy (no Qt): the GUI owns a :class:`DrawnDataset`, calls its editing methods
and listens through ``observers``, a list of callables ``f(dataset, change)`` run after every
change (including undo and redo).

Every edit is a command on an undo stack. Commands given the same ``merge`` token one after the
other form a single undo step: a drag that moves a point sixty times a second is undone in one
go, and so is a brush stroke that adds points as the mouse moves.

The arrays handed out (``X``, ``y``, ``roles``, ...) are read-only snapshots: an edit builds new
arrays instead of writing into them, so a snapshot taken by a background fit stays valid.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

MAX_CLASSES = 8
MODES = ("classification", "regression")
ROLES = ("train", "test")
HISTORY_LIMIT = 1000
# Whole data sets kept for undo (each holds all the arrays it replaced).
REPLACE_LIMIT = 20


@dataclass(frozen=True)
class Change:
    """What an edit did, as told to observers.

    kind: "add", "remove", "move", "relabel", "roles", "clear", "restore", "mode" or
    "replace" (a whole new data set, possibly of another dimension or mode).
    indices: the rows concerned (for "remove", their numbers before the removal; for "add", the
    new rows) or None for all rows. source: "do", "undo" or "redo". version: the dataset's
    version after the change.
    """

    kind: str
    indices: np.ndarray | None
    source: str
    version: int


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.flags.writeable = False
    return a


@dataclass
class _State:
    X: np.ndarray
    y: np.ndarray
    test: np.ndarray  # bool: True where the role is "test"
    mode: str


class _Command:
    text = ""
    kind = ""

    def apply(self, state: _State) -> np.ndarray | None:
        raise NotImplementedError

    def revert(self, state: _State) -> np.ndarray | None:
        raise NotImplementedError

    def merge(self, other: _Command) -> bool:
        return False


class _Add(_Command):
    kind = "add"

    def __init__(self, X, y, test, merge):
        self.X, self.y, self.test, self.token = X, y, test, merge
        self.text = "Add point" if len(X) == 1 else "Add points"

    def apply(self, s):
        n = len(s.X)
        s.X = _frozen(np.concatenate([s.X, self.X]))
        s.y = _frozen(np.concatenate([s.y, self.y.astype(s.y.dtype)]))
        s.test = _frozen(np.concatenate([s.test, self.test]))
        return np.arange(n, n + len(self.X))

    def revert(self, s):
        n = len(s.X) - len(self.X)
        s.X, s.y, s.test = _frozen(s.X[:n]), _frozen(s.y[:n]), _frozen(s.test[:n])
        return np.arange(n, n + len(self.X))

    def merge(self, other):
        if self.token is None or not isinstance(other, _Add) or other.token != self.token:
            return False
        self.X = np.concatenate([self.X, other.X])
        self.y = np.concatenate([self.y, other.y])
        self.test = np.concatenate([self.test, other.test])
        self.text = "Add points"
        return True


class _Remove(_Command):
    """Remove rows; removals with one ``merge`` token (an erase stroke) form one step.

    A merged step keeps its parts in order: each part's indices count the rows left by the
    parts before it.
    """

    kind = "remove"

    def __init__(self, indices, merge=None):
        self.parts = [indices]
        self.saved: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.token = merge
        self.text = "Delete point" if len(indices) == 1 else "Delete points"

    @property
    def indices(self) -> np.ndarray:
        """The removed rows, numbered as before the whole step."""
        if len(self.parts) == 1:
            return self.parts[0]
        n = sum(len(p) for p in self.parts) + self._n_after
        alive = np.arange(n)
        gone = []
        for part in self.parts:
            gone.append(alive[part])
            alive = np.delete(alive, part)
        return np.sort(np.concatenate(gone))

    @staticmethod
    def _take(s, indices):
        saved = (s.X[indices], s.y[indices], s.test[indices])
        keep = np.ones(len(s.X), dtype=bool)
        keep[indices] = False
        s.X, s.y, s.test = _frozen(s.X[keep]), _frozen(s.y[keep]), _frozen(s.test[keep])
        return saved

    @staticmethod
    def _put(s, indices, saved):
        n = len(s.X) + len(indices)
        back = np.zeros(n, dtype=bool)
        back[indices] = True
        X = np.empty((n, s.X.shape[1]))
        y = np.empty(n, dtype=s.y.dtype)
        test = np.empty(n, dtype=bool)
        X[back], y[back], test[back] = saved
        X[~back], y[~back], test[~back] = s.X, s.y, s.test
        s.X, s.y, s.test = _frozen(X), _frozen(y), _frozen(test)

    def apply(self, s):
        self.saved = [self._take(s, part) for part in self.parts]
        self._n_after = len(s.X)
        return self.indices

    def revert(self, s):
        for part, saved in zip(reversed(self.parts), reversed(self.saved), strict=True):
            self._put(s, part, saved)
        return self.indices

    def merge(self, other):
        if self.token is None or not isinstance(other, _Remove) or other.token != self.token:
            return False
        # ``other`` has been applied already, on the rows this step left.
        self.parts.extend(other.parts)
        self.saved.extend(other.saved)
        self._n_after = other._n_after
        self.text = "Delete points"
        return True


class _Move(_Command):
    kind = "move"

    def __init__(self, indices, old, new, merge):
        self.indices, self.old, self.new, self.token = indices, old, new, merge
        self.text = "Move point" if len(indices) == 1 else "Move points"

    def _put(self, s, values):
        X = s.X.copy()
        X[self.indices] = values
        s.X = _frozen(X)
        return self.indices

    def apply(self, s):
        return self._put(s, self.new)

    def revert(self, s):
        return self._put(s, self.old)

    def merge(self, other):
        if (
            self.token is None
            or not isinstance(other, _Move)
            or other.token != self.token
            or not np.array_equal(other.indices, self.indices)
        ):
            return False
        self.new = other.new
        return True


class _Relabel(_Command):
    kind = "relabel"
    text = "Change label"

    def __init__(self, indices, old, new):
        self.indices, self.old, self.new = indices, old, new

    def _put(self, s, values):
        y = s.y.copy()
        y[self.indices] = values
        s.y = _frozen(y)
        return self.indices

    def apply(self, s):
        return self._put(s, self.new)

    def revert(self, s):
        return self._put(s, self.old)


class _Roles(_Command):
    kind = "roles"

    def __init__(self, indices, old, new, text="Change role"):
        self.indices, self.old, self.new, self.text = indices, old, new, text

    def _put(self, s, values):
        test = s.test.copy()
        test[self.indices] = values
        s.test = _frozen(test)
        return self.indices

    def apply(self, s):
        return self._put(s, self.new)

    def revert(self, s):
        return self._put(s, self.old)


class _Replace(_Command):
    """Swap the whole state (clear, mode changes, a new data set): keeps the old one for undo."""

    def __init__(self, kind, text, new_state: _State):
        self.kind, self.text, self.new = kind, text, new_state
        self.old: _State | None = None

    def apply(self, s):
        self.old = _State(s.X, s.y, s.test, s.mode)
        s.X, s.y, s.test, s.mode = self.new.X, self.new.y, self.new.test, self.new.mode
        return None

    def revert(self, s):
        s.X, s.y, s.test, s.mode = self.old.X, self.old.y, self.old.test, self.old.mode
        return None


Observer = Callable[["DrawnDataset", Change], None]


class DrawnDataset:
    """Points (any dimension, usually 2 or 3) with class labels or regression targets and roles.

    Class labels are ints 0..max_classes-1 (8 by default); regression targets are floats. Each
    point's role is "train" or "test". Build an empty one with ``DrawnDataset(dim)`` or one from
    arrays with :meth:`from_arrays`.
    """

    def __init__(
        self,
        dim: int = 2,
        *,
        mode: str = "classification",
        max_classes: int = MAX_CLASSES,
        feature_names=None,
        class_names=None,
    ) -> None:
        if isinstance(dim, bool) or not isinstance(dim, int | np.integer) or dim < 1:
            raise ValueError(f"dim must be a positive integer, got {dim!r}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if isinstance(max_classes, bool) or not isinstance(max_classes, int) or max_classes < 1:
            raise ValueError(f"max_classes must be a positive integer, got {max_classes!r}")
        ydtype = np.int64 if mode == "classification" else np.float64
        self._s = _State(
            _frozen(np.empty((0, int(dim)))),
            _frozen(np.empty(0, dtype=ydtype)),
            _frozen(np.empty(0, dtype=bool)),
            mode,
        )
        self.max_classes = max_classes
        self.feature_names = None if feature_names is None else [str(n) for n in feature_names]
        self.class_names = None if class_names is None else [str(n) for n in class_names]
        self.observers: list[Observer] = []
        self._undo: list[_Command] = []
        self._redo: list[_Command] = []
        self._version = 0
        self._tokens = itertools.count(1)
        self._roles_cache: tuple[int, np.ndarray] | None = None

    @classmethod
    def from_arrays(
        cls,
        X,
        y=None,
        roles=None,
        *,
        mode: str | None = None,
        max_classes: int = MAX_CLASSES,
        feature_names=None,
        class_names=None,
    ) -> DrawnDataset:
        """A dataset holding copies of the given arrays; the history starts empty.

        X: (n, d). y: class labels (ints, or whole floats) or regression targets; None gives
        class 0 for all. roles: "train"/"test" per point, default all "train". mode: inferred
        when None (float targets that are not all whole numbers mean regression).
        """
        X = np.array(X, dtype=np.float64, copy=True)
        if X.ndim != 2 or X.shape[1] < 1:
            raise ValueError(f"X must have shape (n_points, n_features), got {X.shape}")
        n = X.shape[0]
        if mode is None:
            y_arr = None if y is None else np.asarray(y)
            regression = (
                y_arr is not None
                and y_arr.dtype.kind == "f"
                and not np.all(np.isfinite(y_arr) & (y_arr == np.round(y_arr)))
            )
            mode = "regression" if regression else "classification"
        ds = cls(
            X.shape[1],
            mode=mode,
            max_classes=max_classes,
            feature_names=feature_names,
            class_names=class_names,
        )
        X = ds._points(X)
        labels = ds._labels(0 if y is None else y, n)
        test = ds._roles(ROLES[0] if roles is None else roles, n)
        ds._s = _State(_frozen(X), _frozen(labels), _frozen(test), mode)
        return ds

    # --- state -------------------------------------------------------------------------------

    @property
    def X(self) -> np.ndarray:
        """Points, (n_points, dim) float64, read-only."""
        return self._s.X

    @property
    def y(self) -> np.ndarray:
        """Class labels (int64) or regression targets (float64), read-only."""
        return self._s.y

    @property
    def roles(self) -> np.ndarray:
        """ "train"/"test" per point ('<U5'), read-only."""
        if self._roles_cache is None or self._roles_cache[0] != self._version:
            roles = np.where(self._s.test, "test", "train").astype("<U5")
            self._roles_cache = (self._version, _frozen(roles))
        return self._roles_cache[1]

    @property
    def train_mask(self) -> np.ndarray:
        return _frozen(~self._s.test)

    @property
    def test_mask(self) -> np.ndarray:
        return self._s.test

    @property
    def mode(self) -> str:
        return self._s.mode

    @property
    def dim(self) -> int:
        return int(self._s.X.shape[1])

    @property
    def n_points(self) -> int:
        return int(self._s.X.shape[0])

    def __len__(self) -> int:
        return self.n_points

    @property
    def version(self) -> int:
        """Goes up by one with every change (edits, undo, redo), never down."""
        return self._version

    def class_counts(self) -> np.ndarray:
        """Points per class 0..max_classes-1 (classification mode)."""
        if self.mode != "classification":
            raise ValueError("class counts need classification mode")
        return np.bincount(self._s.y, minlength=self.max_classes)

    def snapshot(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(X, y, roles) as independent, writable copies."""
        return self.X.copy(), self.y.copy(), self.roles.copy()

    def nearest(self, point, max_distance: float | None = None) -> int | None:
        """Index of the point closest to ``point`` (within ``max_distance``), or None."""
        if self.n_points == 0:
            return None
        p = np.asarray(point, dtype=np.float64).reshape(-1)
        if p.shape != (self.dim,):
            raise ValueError(f"point must have {self.dim} coordinates, got {p.shape[0]}")
        d2 = np.einsum("ij,ij->i", self.X - p, self.X - p)
        i = int(np.argmin(d2))
        if max_distance is not None and d2[i] > max_distance**2:
            return None
        return i

    # --- observers ---------------------------------------------------------------------------

    def subscribe(self, observer: Observer) -> Observer:
        self.observers.append(observer)
        return observer

    def unsubscribe(self, observer: Observer) -> None:
        if observer in self.observers:
            self.observers.remove(observer)

    def _changed(self, kind: str, indices, source: str) -> None:
        self._version += 1
        change = Change(
            kind, None if indices is None else np.asarray(indices), source, self._version
        )
        for observer in list(self.observers):
            observer(self, change)

    # --- checks ------------------------------------------------------------------------------

    def _points(self, points) -> np.ndarray:
        P = np.array(points, dtype=np.float64)
        if P.ndim == 1:
            P = P[None, :]
        if P.ndim != 2 or P.shape[1] != self.dim:
            raise ValueError(f"points must have {self.dim} coordinates each, got shape {P.shape}")
        if not np.all(np.isfinite(P)):
            raise ValueError("points must be finite numbers")
        return P

    def _labels(self, labels, n: int) -> np.ndarray:
        values = np.asarray(labels)
        if values.ndim == 0:
            values = np.full(n, values)
        if values.shape != (n,):
            raise ValueError(f"expected one label or {n} labels, got shape {values.shape}")
        if self.mode == "regression":
            if values.dtype.kind not in "biuf" or not np.all(np.isfinite(values.astype(float))):
                raise ValueError("regression targets must be finite numbers")
            return values.astype(np.float64)
        if (
            values.dtype.kind == "f"
            and np.all(np.isfinite(values))
            and np.all(values == np.round(values))
        ):
            values = values.astype(np.int64)
        if values.dtype.kind not in "iu" or (
            n and (values.min() < 0 or values.max() >= self.max_classes)
        ):
            raise ValueError(
                f"class labels must be integers 0..{self.max_classes - 1}, got "
                f"{values.tolist() if n <= 10 else 'values outside that range'}"
            )
        return values.astype(np.int64)

    def _roles(self, roles, n: int) -> np.ndarray:
        values = np.asarray(roles)
        if values.ndim == 0:
            values = np.full(n, values)
        if values.shape != (n,):
            raise ValueError(f"expected one role or {n} roles, got shape {values.shape}")
        values = values.astype(str)
        bad = ~np.isin(values, ROLES)
        if bad.any():
            raise ValueError(f"roles must be 'train' or 'test', got {values[bad][0]!r}")
        return values == "test"

    def _indices(self, indices) -> np.ndarray:
        idx = np.asarray(indices)
        if idx.ndim == 0:
            idx = idx[None]
        if idx.size == 0:
            return np.empty(0, dtype=np.int64)
        if idx.dtype.kind not in "iu" or idx.ndim != 1:
            raise ValueError(f"indices must be integers, got {indices!r}")
        if idx.min() < 0 or idx.max() >= self.n_points:
            raise ValueError(f"indices must be in 0..{self.n_points - 1}, got {indices!r}")
        if len(np.unique(idx)) != len(idx):
            raise ValueError("indices must not repeat")
        return idx.astype(np.int64)

    # --- editing -----------------------------------------------------------------------------

    def new_merge_token(self) -> int:
        """A fresh token for ``merge=``: one per drag or brush stroke."""
        return next(self._tokens)

    def _do(self, command: _Command) -> np.ndarray | None:
        indices = command.apply(self._s)
        top = self._undo[-1] if self._undo and not self._redo else None
        if top is None or not top.merge(command):
            self._undo.append(command)
            del self._undo[:-HISTORY_LIMIT]
            if command.kind == "replace":
                replaces = [i for i, c in enumerate(self._undo) if c.kind == "replace"]
                if len(replaces) > REPLACE_LIMIT:
                    # Steps before the oldest kept data set apply to data no longer kept.
                    del self._undo[: replaces[-REPLACE_LIMIT - 1] + 1]
        self._redo.clear()
        self._changed(command.kind, indices, "do")
        return indices

    def add(self, points, labels=0, roles="train", *, merge=None) -> np.ndarray:
        """Append points (one point or an (k, dim) array); returns their indices."""
        P = self._points(points)
        if len(P) == 0:
            return np.empty(0, dtype=np.int64)
        command = _Add(P, self._labels(labels, len(P)), self._roles(roles, len(P)), merge)
        return self._do(command)

    def remove(self, indices, *, merge=None) -> None:
        """Delete points; removals with one ``merge`` token (an erase stroke) undo as one."""
        idx = np.sort(self._indices(indices))
        if idx.size:
            self._do(_Remove(idx, merge))

    def move(self, indices, positions, *, merge=None) -> None:
        """Put points ``indices`` at ``positions``; moves with one ``merge`` token undo as one."""
        idx = self._indices(indices)
        if idx.size == 0:
            return
        P = self._points(positions)
        if len(P) != len(idx):
            raise ValueError(f"expected {len(idx)} positions, got {len(P)}")
        self._do(_Move(idx, self.X[idx].copy(), P, merge))

    def relabel(self, indices, labels) -> None:
        """Give points new class labels (classification) or targets (regression)."""
        idx = self._indices(indices)
        new = self._labels(labels, len(idx))
        old = self.y[idx].copy()
        if idx.size and not np.array_equal(old, new):
            self._do(_Relabel(idx, old, new))

    def set_roles(self, indices, roles) -> None:
        idx = self._indices(indices)
        new = self._roles(roles, len(idx))
        old = self._s.test[idx].copy()
        if idx.size and not np.array_equal(old, new):
            self._do(_Roles(idx, old, new))

    def replace(self, X, y=None, roles=None, *, mode: str | None = None) -> None:
        """Put a whole new data set in place of the current one, as ONE undoable step.

        X: (n, d) points, any dimension d. y: labels or targets as for :meth:`from_arrays`
        (None: class 0). roles: "train"/"test" per point (None: all "train"). mode: the new
        data's mode (None keeps the current one). Undo brings back the previous points, labels,
        roles and mode exactly; observers see a change of kind "replace".
        """
        mode = self.mode if mode is None else mode
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        P = np.array(X, dtype=np.float64, copy=True)
        if P.ndim == 1:
            P = P[:, None]
        if P.ndim != 2 or P.shape[1] < 1:
            raise ValueError(f"X must have shape (n_points, n_features), got {P.shape}")
        if not np.all(np.isfinite(P)):
            raise ValueError("points must be finite numbers")
        n = P.shape[0]
        checker = DrawnDataset(P.shape[1], mode=mode, max_classes=self.max_classes)
        labels = checker._labels(0 if y is None else y, n)
        test = checker._roles(ROLES[0] if roles is None else roles, n)
        state = _State(_frozen(P), _frozen(labels), _frozen(test), mode)
        self._do(_Replace("replace", "Replace data", state))

    def clear(self) -> None:
        if self.n_points:
            empty = _State(
                _frozen(np.empty((0, self.dim))),
                _frozen(np.empty(0, dtype=self.y.dtype)),
                _frozen(np.empty(0, dtype=bool)),
                self.mode,
            )
            self._do(_Replace("clear", "Clear", empty))

    def split(self, test_ratio: float, seed=0, *, stratify: bool = True) -> None:
        """Make a random ``test_ratio`` of the points "test" and the rest "train" (one step).

        In classification mode the split is stratified: each class gives round(ratio * size)
        points to the test set. The same seed gives the same split.
        """
        ratio = float(test_ratio)
        if not 0.0 <= ratio <= 1.0:
            raise ValueError(f"test_ratio must be between 0 and 1, got {test_ratio!r}")
        rng = np.random.default_rng(seed)
        n = self.n_points
        test = np.zeros(n, dtype=bool)
        groups = (
            [np.flatnonzero(self.y == c) for c in np.unique(self.y)]
            if stratify and self.mode == "classification"
            else [np.arange(n)]
        )
        for members in groups:
            k = round(ratio * len(members))
            test[rng.permutation(members)[:k]] = True
        if not np.array_equal(test, self._s.test):
            self._do(_Roles(np.arange(n), self._s.test.copy(), test, "Split train/test"))

    def set_mode(self, mode: str) -> None:
        """Switch between classification and regression, converting the labels (one step).

        To regression: class k becomes the target k.0. To classification: targets are rounded
        and clipped to 0..max_classes-1.
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if mode == self.mode:
            return
        if mode == "regression":
            y = self.y.astype(np.float64)
        else:
            y = np.clip(np.rint(self.y), 0, self.max_classes - 1).astype(np.int64)
        state = _State(self.X, _frozen(y), self._s.test, mode)
        self._do(_Replace("mode", "Change mode", state))

    # --- history -----------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_text(self) -> str:
        """What undo would undo ("Move point", ...), or "" (for menus)."""
        return self._undo[-1].text if self._undo else ""

    @property
    def redo_text(self) -> str:
        return self._redo[-1].text if self._redo else ""

    def undo(self) -> bool:
        """Undo the last step; False if there is nothing to undo."""
        if not self._undo:
            return False
        command = self._undo.pop()
        indices = command.revert(self._s)
        self._redo.append(command)
        self._changed(_undo_kind(command), indices, "undo")
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        command = self._redo.pop()
        indices = command.apply(self._s)
        self._undo.append(command)
        self._changed(command.kind, indices, "redo")
        return True

    def clear_history(self) -> None:
        self._undo.clear()
        self._redo.clear()


def _undo_kind(command: _Command) -> str:
    """The kind of change that undoing ``command`` makes."""
    return {"add": "remove", "remove": "add", "clear": "restore"}.get(command.kind, command.kind)


__all__ = ["MAX_CLASSES", "MODES", "REPLACE_LIMIT", "ROLES", "Change", "DrawnDataset"]
