"""What one fit is asked to do (a frozen request) and how it is told to stop (a cancel token)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np


class FitCancelled(Exception):
    """Raised inside ``run_fit`` when its cancel flag is set; never shown to the user."""


class FitError(Exception):
    """A fit that cannot be done or failed, with the parameter to blame when there is one."""

    def __init__(self, message: str, *, param: str | None = None):
        super().__init__(message)
        self.message = message
        self.param = param


@dataclass(frozen=True)
class GridSpec:
    """The regular grid the chosen feature is evaluated on (2-D data only).

    ``resolution`` points along the longer side of the box; the box is the data's bounding box
    enlarged by ``padding`` (a fraction of its extent) unless ``box`` = (x0, x1, y0, y1) fixes it
    (linked views in the compare layout share one box).
    """

    resolution: int = 200
    padding: float = 0.15
    box: tuple[float, float, float, float] | None = None


def _frozen_array(a, dtype=None) -> np.ndarray | None:
    if a is None:
        return None
    out = np.array(a, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class FitRequest:
    """One fit, frozen: the data are read-only copies, so the GUI may keep editing its own.

    ``feature`` chooses the output drawn: "auto" (the decision value for classifiers and novelty
    detectors, the first feature otherwise), "decision", "score" (novelty score), "prediction"
    (regression) or an integer index into ``transform``'s columns (into the per-class score
    margins for a multi-class classifier without ``transform``). ``y`` holds class labels, or
    real targets for regressors (then ``X`` has one column). ``test_mask`` marks test points
    (never used for fitting).
    """

    algorithm: str
    params: Mapping[str, Any] = field(default_factory=dict)
    X: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    y: np.ndarray | None = None
    test_mask: np.ndarray | None = None
    request_id: int = 0
    slot: str = "main"
    feature: int | str = "auto"
    grid: GridSpec = GridSpec()
    levels: int = 9
    bins: int = 30
    n_embed: int = 3
    with_svr: bool = False
    # A picture that follows an edit still in progress (a dragged point): what only the docks
    # show is left out (the kernel matrix's spectrum); the fit when the edit ends has it all.
    draft: bool = False
    # A draft of an approximated fit (pipeline/drafts.py): what was approximated, in a
    # sentence the window shows; None for the exact fit.
    approximation: str | None = None

    def __post_init__(self):
        X = np.array(self.X, dtype=float, copy=True)
        if X.ndim == 1:
            X = X[:, None]
        X.setflags(write=False)
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", _frozen_array(self.y))
        mask = (
            np.zeros(X.shape[0], bool)
            if self.test_mask is None
            else np.array(self.test_mask, dtype=bool, copy=True)
        )
        mask.setflags(write=False)
        object.__setattr__(self, "test_mask", mask)
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


class CancelToken:
    """A thread-safe cancel flag; calling it answers "has this fit been cancelled?"."""

    def __init__(self):
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    __call__ = is_set


def as_check(cancel) -> Callable[[], None]:
    """A function raising FitCancelled once ``cancel`` (callable, Event-like or None) is set."""
    if cancel is None:
        return lambda: None
    test = cancel.is_set if hasattr(cancel, "is_set") else cancel

    def check() -> None:
        if test():
            raise FitCancelled()

    return check


# Python frames that must run to completion even after a cancel: interrupting them would skip
# the release of a resource (a context manager's exit, a finalizer).
_UNINTERRUPTIBLE = frozenset(
    {"__exit__", "__aexit__", "__del__", "__enter__", "close", "release", "interruptible"}
)


@contextmanager
def interruptible(check: Callable[[], None]):
    """Let a cancel stop code that knows nothing about cancelling (an estimator's ``fit``).

    While the block runs, every Python function entered in this thread first asks ``check``; a
    cancel therefore lands at the next Python-level call, without waiting for the whole fit.
    Calls into C (BLAS, a solver) run to their end. Context-manager exits are never interrupted,
    so locks and settings are restored.
    """
    previous = sys.getprofile()

    def profile(frame, event, arg):
        if previous is not None:
            previous(frame, event, arg)
        if event == "call" and frame.f_code.co_name not in _UNINTERRUPTIBLE:
            check()

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(previous)
