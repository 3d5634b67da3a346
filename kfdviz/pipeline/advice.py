"""Advice on parameters that make a picture misleading: a kernel far from the data's scale, and
a fit that memorizes its training points.

The Gaussian kernel is the papers' exp(-||x - z||^2 / c). Its natural scale is the data's
typical squared distance: the median over pairs of training points (``width_from_data``), a
starting point, not an optimum (a local kernel on structured data is often far narrower). The
advice is measured on the kernel values themselves: when most points' nearest neighbour has a
kernel value near 0 the kernel matrix is about the identity (every point an island of its own,
the picture flat between the points); when every kernel value is near 1, about the all-ones
matrix (every point alike, the features nearly linear).
"""

from __future__ import annotations

import numpy as np

# At most this many training points are used to measure the data's scale (pairwise distances of
# a fixed, evenly spaced subsample: repeatable and O(SCALE_POINTS^2)).
SCALE_POINTS = 400
# Kernel values: when the median point's nearest neighbour is below ISLAND the kernel matrix is
# about the identity; when the smallest value is above FLAT, about the all-ones matrix.
ISLAND = 1e-3
FLAT = 0.999
# Training error at most MEMORIZED while the test error is at least CHANCE_FRACTION of the error
# of guessing the most frequent class: the fit has learned the training points, not the classes.
MEMORIZED = 0.02
CHANCE_FRACTION = 0.8


def _subsample(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.shape[0] <= SCALE_POINTS:
        return X
    index = np.linspace(0, X.shape[0] - 1, SCALE_POINTS).round().astype(int)
    return X[index]


def _squared_distances(X: np.ndarray) -> np.ndarray:
    """The matrix of squared distances between the rows of X."""
    with np.errstate(over="ignore", invalid="ignore"):  # huge coordinates: inf/nan, checked
        sq = np.einsum("ij,ij->i", X, X)
        D2 = sq[:, None] + sq[None, :] - 2.0 * (X @ X.T)
    return np.maximum(D2, 0.0)


def _pairwise_squared(X: np.ndarray) -> np.ndarray:
    """The squared distances of distinct pairs of rows (the upper triangle)."""
    return _squared_distances(X)[np.triu_indices(X.shape[0], k=1)]


def width_from_data(X) -> float:
    """The median squared distance between training points: a Gaussian width (exp(-d^2 / c)) at
    the data's own scale.

    Raises ``ValueError`` when there are fewer than two distinct points, which have no scale.
    """
    X = _subsample(X)
    if X.ndim != 2 or X.shape[0] < 2:
        raise ValueError("The width from the data needs at least two points.")
    d2 = _pairwise_squared(X) if np.all(np.isfinite(X)) else np.array([np.inf])
    d2 = d2[d2 > 0]
    if d2.size == 0 or not np.all(np.isfinite(d2)):
        raise ValueError(
            "The width from the data needs at least two distinct points with finite coordinates."
        )
    return float(np.median(d2))


# The distance statistics of the latest subsample: (its bytes, its statistics). A width slider
# refits the same points many times; their distances do not change.
_LAST_STATS: list = [None]


def _distance_stats(X: np.ndarray) -> tuple[np.ndarray, float, float] | None:
    """(each point's squared distance to its nearest other point, the largest squared distance,
    the median squared distance between distinct points), or None where they are not finite or
    the points have no scale; the latest points' are kept."""
    key = (X.shape, X.tobytes())
    last = _LAST_STATS[0]
    if last is not None and last[0] == key:
        return last[1]
    D2 = _squared_distances(X)
    stats = None
    if np.all(np.isfinite(D2)):
        pairs = D2[np.triu_indices(X.shape[0], k=1)]
        distinct = pairs[pairs > 0]
        if distinct.size:
            np.fill_diagonal(D2, np.inf)
            stats = (D2.min(axis=1), float(pairs.max()), float(np.median(distinct)))
    _LAST_STATS[0] = (key, stats)
    return stats


def kernel_scale_advice(X_train, params: dict) -> str | None:
    """A warning when a Gaussian kernel's width is far from the data's scale, else None."""
    if params.get("kernel", "rbf") != "rbf" or "width" not in params:
        return None
    width = float(params["width"])
    X = _subsample(X_train)
    if X.shape[0] < 2 or not np.isfinite(width) or width <= 0 or not np.all(np.isfinite(X)):
        return None
    stats = _distance_stats(X)
    if stats is None:
        return None
    nearest_d2, largest_d2, scale = stats
    # exp(-d2 / c) decreases with d2: a point's largest kernel value to another point is at its
    # nearest neighbour, and the smallest value of all at the largest distance.
    with np.errstate(over="ignore", under="ignore"):
        nearest = np.exp(-nearest_d2 / width)
        smallest = float(np.exp(-largest_d2 / width))
    if np.median(nearest) < ISLAND:
        return (
            f"The kernel width {width:.3g} is far below the data's scale (median squared "
            f"distance {scale:.3g}): most points' nearest neighbour has a kernel value below "
            f"{ISLAND:g}, so the kernel matrix is almost the identity and the picture is flat "
            "between the points. Try a larger width (Width from data gives the data's scale)."
        )
    if smallest > FLAT:
        return (
            f"The kernel width {width:.3g} is far above the data's scale (median squared "
            f"distance {scale:.3g}): every kernel value is almost 1, so the features are nearly "
            "linear. Try a smaller width (Width from data gives the data's scale)."
        )
    return None


def memorization_advice(train_error, test_error, y_test) -> str | None:
    """A warning when a classifier is (nearly) perfect on its training points and no better
    than guessing on the test points, else None."""
    if train_error is None or test_error is None or y_test is None or len(y_test) < 10:
        return None
    _, counts = np.unique(np.asarray(y_test), return_counts=True)
    chance = 1.0 - counts.max() / counts.sum()
    if chance <= 0:
        return None
    if train_error <= MEMORIZED and test_error >= CHANCE_FRACTION * chance:
        return (
            f"Training error {100 * train_error:.1f} % but test error {100 * test_error:.1f} % "
            f"(guessing: {100 * chance:.0f} %): the fit memorizes the training points. Increase "
            "the kernel width or the regularization μ."
        )
    return None


def fit_advice(params: dict, result) -> list[str]:
    """The advice for one fit's result (a ``FitResult``): what on screen may mislead, and why."""
    train = ~np.asarray(result.test_mask, dtype=bool)
    notes = [kernel_scale_advice(np.asarray(result.X)[train], params)]
    if result.error_name == "error" and result.y is not None:
        y_test = np.asarray(result.y)[~train]
        notes.append(memorization_advice(result.train_error, result.test_error, y_test))
    return [n for n in notes if n]


__all__ = ["fit_advice", "kernel_scale_advice", "memorization_advice", "width_from_data"]
