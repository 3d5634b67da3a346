"""What one fit produces: plain arrays and numbers, ready to draw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .geometry import ContourLine, Histograms


@dataclass(frozen=True, eq=False)
class GridPicture:
    """The chosen feature on a regular grid over the input plane (2-D data).

    ``values[b, a]`` is the feature at (xs[a], ys[b]) (row-major: rows go along y); ``box`` =
    (x0, x1, y0, y1) is the rectangle the image must cover so that each value sits under the point
    it belongs to (the grid points are the centres of the box's cells). ``color_range`` is the
    suggested (low, high) for the colour map, symmetric about 0 when ``diverging``. ``boundary``
    holds the decision boundary of a classifier or novelty detector (decision value 0, or the
    borders between predicted classes).
    """

    xs: np.ndarray
    ys: np.ndarray
    values: np.ndarray
    box: tuple[float, float, float, float]
    color_range: tuple[float, float]
    diverging: bool
    contours: list[ContourLine]
    boundary: ContourLine | None


@dataclass(frozen=True, eq=False)
class RegressionCurve:
    """A fitted 1-D function sampled densely over (a bit more than) the data's range."""

    x: np.ndarray
    y: np.ndarray
    epsilon: float | None = None  # an SVR's tube half-width
    expansion_x: np.ndarray | None = None
    expansion_y: np.ndarray | None = None
    title: str = ""


@dataclass(frozen=True, eq=False)
class Tangents:
    """Small arrows showing the transformations an oriented KPCA is made invariant to."""

    name: str
    starts: np.ndarray  # (n, 2)
    vectors: np.ndarray  # (n, 2), in data units, scaled for display


@dataclass(frozen=True, eq=False)
class FitResult:
    request_id: int
    slot: str
    algorithm: str
    title: str
    kind: str  # "classifier" | "features" | "novelty" | "regressor" | "embedding"
    params: dict
    X: np.ndarray
    y: np.ndarray | None
    test_mask: np.ndarray
    classes: np.ndarray
    feature: int | str
    feature_label: str
    feature_options: tuple[tuple[int | str, str], ...]
    outputs: np.ndarray | None  # the shown output at every point (n,)
    predictions: np.ndarray | None  # predicted label / +-1 / fitted value at every point
    threshold: float | None  # on the outputs' scale
    train_error: float | None
    test_error: float | None
    error_name: str  # "error" | "outliers" | "RMSE"
    grid: GridPicture | None = None
    histograms: Histograms | None = None
    embedding: np.ndarray | None = None  # (n, k <= 3)
    embedding_labels: tuple[str, ...] = ()
    points3d: np.ndarray | None = None  # raw input for 3-D (or more) data: (n, 3)
    points3d_labels: tuple[str, ...] = ()
    expansion_points: np.ndarray | None = None  # (m, d) with non-zero coefficient
    expansion_coef: np.ndarray | None = None  # (m,) for the shown output
    n_expansion_total: int = 0
    sparsity: float | None = None  # fraction of training points with a zero coefficient
    curve: RegressionCurve | None = None
    svr_curve: RegressionCurve | None = None
    tangents: tuple[Tangents, ...] = ()
    diagnostics: dict = field(default_factory=dict)  # name -> number or short text
    series: dict = field(default_factory=dict)  # name -> 1-D array (spectrum, objective path)
    warnings: tuple[str, ...] = ()
    timings: dict = field(default_factory=dict)  # stage -> seconds
    # A draft (pipeline/drafts.py): what was approximated; None for an exact fit. A draft is
    # shown marked as such while an edit is in progress and is never exported.
    approximation: str | None = None

    @property
    def n_train(self) -> int:
        return int((~self.test_mask).sum())

    @property
    def n_test(self) -> int:
        return int(self.test_mask.sum())


@dataclass(frozen=True)
class FitFailure:
    """A fit that did not produce a result, as data (the worker sends it like a result)."""

    request_id: int
    slot: str
    message: str
    param: str | None = None
    cancelled: bool = False
    detail: str = ""


Outcome = FitResult | FitFailure


def describe_number(value: Any) -> str:
    """A compact human reading of a diagnostic value."""
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer):
        return f"{int(value):,}"
    if isinstance(value, float | np.floating):
        v = float(value)
        if not np.isfinite(v):
            return str(v)
        if v != 0 and (abs(v) >= 1e5 or abs(v) < 1e-3):
            return f"{v:.3g}"
        return f"{v:.4g}"
    return str(value)
