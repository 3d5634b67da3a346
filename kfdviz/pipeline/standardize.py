"""Standardized features: what the kernel sees when the data's columns are in other units.

A Gaussian kernel measures squared distances, so a feature in thousands (wine's proline) drowns
one in tenths: the kernel then sees one feature. Standardizing subtracts each feature's mean and
divides by its standard deviation, both taken over the training points only (test points must
not shape the fit), so that every feature counts alike.
"""

from __future__ import annotations

import numpy as np

# Feature scales (standard deviations) differing by more than this factor call for standardizing.
SCALE_RATIO = 10.0


def feature_scales(X, train=None) -> np.ndarray:
    """Each feature's standard deviation over the training points (all points if ``train`` is
    None); a constant feature's is 1, so that dividing by it leaves the feature as it is."""
    X = np.asarray(X, dtype=float)
    rows = X if train is None else X[np.asarray(train, dtype=bool)]
    if rows.shape[0] == 0:
        return np.ones(X.shape[1])
    std = rows.std(axis=0)
    return np.where(std > 0, std, 1.0)


def scale_ratio(X) -> float:
    """The largest feature scale over the smallest (constant features left out); 1 for fewer
    than two varying features."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] < 2:
        return 1.0
    std = X.std(axis=0)
    std = std[std > 0]
    if std.size < 2:
        return 1.0
    return float(std.max() / std.min())


def needs_standardizing(X) -> bool:
    """Whether the features' scales differ by more than :data:`SCALE_RATIO`."""
    return scale_ratio(X) > SCALE_RATIO


def standardized(X, train=None) -> np.ndarray:
    """``X`` with each feature centred and divided by its standard deviation, both over the
    training points (``train``, a boolean mask; all points when None)."""
    X = np.asarray(X, dtype=float)
    rows = X if train is None else X[np.asarray(train, dtype=bool)]
    mean = rows.mean(axis=0) if rows.shape[0] else np.zeros(X.shape[1])
    return (X - mean) / feature_scales(X, train)


__all__ = ["SCALE_RATIO", "feature_scales", "needs_standardizing", "scale_ratio", "standardized"]
