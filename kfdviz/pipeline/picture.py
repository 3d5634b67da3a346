"""The grid picture of one fitted estimator: the shown output over the input plane, its level
sets, and the decision boundary.

The grid covers the request's box (or the data's, padded) finely enough for the kernel's length
scale. The colour range is symmetric about the threshold when the output has one (diverging),
runs from the bulk of the outside up to the most typical point for a novelty score, and pads the
output's range otherwise. The boundary is the decision value's zero level (refined where a
narrow kernel makes regions smaller than a grid cell) or, for more than two classes, the borders
between the predicted classes: zero levels of continuous per-class score margins where the
estimator has per-class scores, else the lines where the grid's predicted labels change.
"""

from __future__ import annotations

import numpy as np

from ..estimators.spec import Kind
from .geometry import (
    choose_levels,
    contour_lines,
    data_box,
    grid_axes,
    label_boundaries,
    pack_lines,
    refine_level_set,
    resolution_for_scale,
    score_boundaries,
    split_pieces,
)
from .outputs import FittedOutputs
from .request import FitRequest
from .result import GridPicture


def length_scale(params: dict) -> float | None:
    """The Gaussian kernel's length scale sqrt(c), the size of its finest details; None for any
    other kernel."""
    if params.get("kernel") != "rbf":
        return None
    width = params.get("width")
    return float(np.sqrt(width)) if width is not None and width > 0 else None


def grid_picture(
    fitted: FittedOutputs,
    request: FitRequest,
    feature,
    outputs: np.ndarray,
    decision: np.ndarray | None,
    threshold: float | None,
    scale: float | None,
) -> GridPicture:
    """``feature`` of ``fitted`` over the request's grid, with its levels and the boundary.

    ``outputs`` and ``decision`` are the feature and the decision value at the request's points
    (``decision`` None when the estimator has no single decision value), ``threshold`` the
    output's decision threshold, if any, and ``scale`` the kernel's length scale, if any.
    """
    r = request
    kind = fitted.kind
    box = tuple(r.grid.box) if r.grid.box is not None else data_box(r.X, r.grid.padding)
    xs, ys = grid_axes(box, resolution_for_scale(box, r.grid.resolution, scale))
    values = fitted.grid_values(feature, xs, ys, (0.45, 0.7))
    fitted.check()
    fitted.report(0.72, "Contours")

    diverging = threshold is not None and kind != Kind.NOVELTY
    lo, hi = _color_range(outputs, values, threshold, kind, diverging)
    # Novelty scores fall steeply away from the data: fewer lines keep the picture readable.
    count = max(3, r.levels // 2) if kind == Kind.NOVELTY else r.levels
    levels = choose_levels(np.array([lo, hi]), count, include=threshold)
    lines = contour_lines(xs, ys, values, levels)
    # Only levels the grid actually reaches produce lines.
    contours = [c for c in lines if c.n_pieces]

    boundary = None
    if decision is not None:
        if feature == "decision" and r.approximation is None:
            boundary = _refined_zero_level(fitted, r.X, decision, xs, ys, values, lines, scale)
        elif feature == "decision":  # a draft: the grid's zero level, not refined
            zero = [c for c in lines if c.level == 0.0]
            boundary = zero[0] if zero else contour_lines(xs, ys, values, [0.0])[0]
        else:
            dec_values = fitted.grid_values("decision", xs, ys, (0.75, 0.8))
            boundary = contour_lines(xs, ys, dec_values, [0.0])[0]
    elif kind == Kind.CLASSIFIER and fitted.classes.size > 2:
        scores = fitted.grid_scores(xs, ys)
        if scores is not None:
            boundary = score_boundaries(xs, ys, scores)
        else:
            boundary = label_boundaries(xs, ys, fitted.grid_labels(xs, ys), fitted.classes)
    return GridPicture(
        xs=xs,
        ys=ys,
        values=values,
        box=box,
        color_range=(lo, hi),
        diverging=diverging,
        contours=contours,
        boundary=boundary,
    )


def _color_range(outputs, values, threshold, kind, diverging) -> tuple[float, float]:
    finite = outputs[np.isfinite(outputs)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (-1.0, 1.0)
    if kind == Kind.NOVELTY and threshold is not None:
        # Inside (above the threshold) is where the data are; the colour runs from the
        # bulk of the outside up to the most typical point, so the boundary region shows.
        grid_values = values[np.isfinite(values)]
        outside = float(np.percentile(grid_values, 10)) if grid_values.size else lo
        span = max(hi - threshold, 1e-12)
        lo = min(max(outside, threshold - 4.0 * span), threshold - 0.25 * span)
        hi = hi + 0.05 * span
    elif diverging:
        m = max(abs(lo - threshold), abs(hi - threshold), 1e-12)
        lo, hi = threshold - 1.15 * m, threshold + 1.15 * m
    else:
        pad = 0.15 * max(hi - lo, 1e-12 * max(1.0, abs(hi)))
        lo, hi = lo - pad, hi + pad
    return lo, hi


def _refined_zero_level(fitted, X, decision, xs, ys, values, lines, scale):
    """The zero level set of the decision values on the grid: the level 0 traced with the
    contours when it is one of their levels (the same lines), else traced now; regions smaller
    than a cell (a narrow kernel's islands) traced again on finer blocks."""
    zero = [c for c in lines if c.level == 0.0]
    boundary = zero[0] if zero else contour_lines(xs, ys, values, [0.0])[0]
    pieces = split_pieces(boundary)
    refined = refine_level_set(
        xs,
        ys,
        values,
        pieces,
        X,
        decision,
        0.0,
        lambda P: fitted.values_at("decision", P),
        scale=scale,
        evaluate_grid=lambda fx, fy: fitted.grid_values("decision", fx, fy, None),
    )
    if len(refined) != len(pieces) or any(a is not b for a, b in zip(refined, pieces, strict=True)):
        return pack_lines(0.0, refined)
    return boundary


__all__ = ["grid_picture", "length_scale"]
