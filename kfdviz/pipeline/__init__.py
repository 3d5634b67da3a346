"""The one entry point from a fit request to everything a view draws (no Qt here).

``run_fit(request, *, cancel, progress) -> FitResult`` fits the requested estimator and computes
the level-set grid, contour lines, per-class output histograms, embeddings, expansion points and
diagnostics as plain arrays. The GUI's worker, the command line and the tests all call it.
"""

from .geometry import (
    ContourLine,
    Histograms,
    box_for_aspect,
    choose_levels,
    data_box,
    grid_axes,
)
from .request import CancelToken, FitCancelled, FitError, FitRequest, GridSpec, interruptible
from .result import FitFailure, FitResult, GridPicture, Outcome, RegressionCurve, Tangents
from .run import run_fit

__all__ = [
    "CancelToken",
    "ContourLine",
    "FitCancelled",
    "FitError",
    "FitFailure",
    "FitRequest",
    "FitResult",
    "GridPicture",
    "GridSpec",
    "Histograms",
    "Outcome",
    "RegressionCurve",
    "Tangents",
    "box_for_aspect",
    "choose_levels",
    "data_box",
    "grid_axes",
    "interruptible",
    "run_fit",
]
