"""Points of three or more features as 3-D points: the features themselves, or a PCA projection.

Data of more than three features are shown on their first three principal axes; the axes say so
with the share of the variance each carries ("PC 1 (43 %)"), so that a picture of 13-D data is
not taken for the data themselves.
"""

from __future__ import annotations

import numpy as np


def points_in_3d(X) -> tuple[np.ndarray, tuple[str, ...]]:
    """``X`` (n points, d >= 3 features) as 3-D points and their axes' labels: the features
    "x₁", "x₂", "x₃" of 3-D data, else the first three principal components of the centred
    points, labelled with their share of the total variance."""
    X = np.asarray(X, dtype=float)
    if X.shape[1] == 3:
        return X, ("x₁", "x₂", "x₃")
    centred = X - X.mean(axis=0) if X.shape[0] else X
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    total = float(np.sum(s**2))
    labels = []
    for j in range(3):
        share = 100.0 * float(s[j] ** 2) / total if total > 0 and j < s.size else 0.0
        labels.append(f"PC {j + 1} ({share:.0f} %)")
    P = centred @ vt[:3].T
    if P.shape[1] < 3:  # fewer points than three: the missing components are zero
        P = np.hstack([P, np.zeros((P.shape[0], 3 - P.shape[1]))])
    return P, tuple(labels)


def input_title(dimension: int, *, standardized: bool = False) -> str:
    """The title of a view of the input points of ``dimension`` features: "Input data (3-D)",
    or for more features, that the view is a PCA projection (of the standardized features
    when they are)."""
    if dimension <= 3:
        return f"Input data ({dimension}-D)"
    of = " of the standardized features" if standardized else ""
    return f"Input data ({dimension}-D): PCA projection{of}"


__all__ = ["input_title", "points_in_3d"]
