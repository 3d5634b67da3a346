"""Parameter checks and class-size arithmetic shared by the generators.

Every check raises ``ValueError`` naming the parameter and saying what was expected, so that a
value typed into the app or on the command line gets a message the user can act on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high}, got {value}")
    return value


def check_float(
    name: str,
    value,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if low is not None and (value < low or (low_open and value == low)):
        relation = "greater than" if low_open else "at least"
        raise ValueError(f"{name} must be {relation} {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high}, got {value}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value, choices: Sequence[str]) -> str:
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}, got {value!r}")
    return value


def check_weights(name: str, weights, n_classes: int) -> np.ndarray:
    """Class proportions: ``None`` (equal) or ``n_classes`` non-negative numbers, not all zero."""
    if weights is None:
        return np.full(n_classes, 1.0 / n_classes)
    if isinstance(weights, str) or not isinstance(weights, Sequence | np.ndarray):
        raise ValueError(f"{name} must be a sequence of {n_classes} class proportions")
    try:
        w = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a sequence of {n_classes} numbers, got {weights!r}"
        ) from None
    if w.shape != (n_classes,):
        raise ValueError(f"{name} must have {n_classes} entries (one per class), got {w.size}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or w.sum() <= 0:
        raise ValueError(
            f"{name} must be non-negative finite numbers, not all zero, got {weights!r}"
        )
    return w / w.sum()


def class_counts(n_samples: int, proportions: np.ndarray) -> np.ndarray:
    """Split ``n_samples`` by ``proportions`` (largest remainder): deterministic, sums exactly."""
    exact = n_samples * np.asarray(proportions, dtype=float)
    counts = np.floor(exact).astype(np.int64)
    short = n_samples - int(counts.sum())
    if short > 0:
        # Stable order: ties go to the lower class index.
        order = np.argsort(-(exact - counts), kind="stable")
        counts[order[:short]] += 1
    return counts


def shuffled(X: np.ndarray, y: np.ndarray, rng: np.random.Generator):
    """Rows of (X, y) in a random order, so that any prefix is a fair sample of the classes."""
    order = rng.permutation(X.shape[0])
    return np.ascontiguousarray(X[order], dtype=np.float64), np.ascontiguousarray(y[order])


def class_sizes(n_samples, weights, n_classes: int) -> np.ndarray:
    """Validated class sizes for ``n_samples`` points split by ``weights`` (None: balanced)."""
    n_samples = check_int("n_samples", n_samples, low=1)
    return class_counts(n_samples, check_weights("weights", weights, n_classes))


def stack_classes(parts) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate per-class point arrays; class k gets label k."""
    X = np.concatenate(parts, axis=0)
    y = np.concatenate([np.full(len(p), k, dtype=np.int64) for k, p in enumerate(parts)])
    return X, y
