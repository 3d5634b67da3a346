"""The pictures of a classroom demonstration, each through the whole pipeline (``run_fit``).

KPCA novelty detection on Hoffmann's spiral (400 points) and ring, line and square (600 points)
at the papers' widths, and two-class KFD on 150 points at a width so narrow (1e-12) that every
point is an island far smaller than a grid cell, whose boundary is refined block by block. Each
must be drawn within half a second; the baseline is the estimator's own point-by-point output at
every grid node, computed in the same run, and the picture's grid must agree with it.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from kfdviz import presets
from kfdviz.estimators.spec import Kind
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.pipeline.run import _make, _spec
from kfdviz.session import fit_requests, state_from_preset

from .numeric import _clear_caches, two_class_data
from .registry import Case, Check, Target, scenario

# The picture's grid vs the point-by-point values, relative to the largest value on the grid or
# at the data.
GRID_RTOL = 1e-9


def _point_by_point(request: FitRequest, result, rows: int = 1) -> np.ndarray:
    """The request's estimator fitted again and evaluated at the nodes of every ``rows``-th row
    of the result's grid, one point at a time (in chunks), as ``decision_function`` gives it."""
    spec = _spec(request.algorithm)
    train = ~request.test_mask
    est = _make(spec, dict(request.params))
    if spec.kind == Kind.NOVELTY:
        est.fit(request.X[train])
    else:
        est.fit(request.X[train], request.y[train])
    gx, gy = np.meshgrid(result.grid.xs, result.grid.ys[::rows])
    points = np.column_stack([gx.ravel(), gy.ravel()])
    values = np.concatenate(
        [est.decision_function(points[s : s + 4096]) for s in range(0, len(points), 4096)]
    )
    return values.reshape(gy.shape)


def _case(request: FitRequest, quick: bool) -> Case:
    # The demonstration's sizes are small already; a quick run's baseline takes every 8th row.
    rows = 8 if quick else 1
    first = run_fit(request)

    def candidate():
        return run_fit(request)

    def baseline():
        return _point_by_point(request, first, rows)

    def check(result, reference):
        if reference is None:
            reference = _point_by_point(request, result, rows)
        finite = np.isfinite(reference)
        values = result.grid.values[::rows]
        if values.shape != reference.shape or not np.array_equal(finite, np.isfinite(values)):
            return Check.at_most("grid shape or infinities differ", float("inf"), GRID_RTOL)
        # The values' scale is that at the data: far from a narrow kernel's points the grid
        # holds only the offset, itself zero up to round-off.
        outputs = result.outputs[np.isfinite(result.outputs)]
        scale = max(float(np.abs(reference[finite]).max(initial=0.0)), float(np.abs(outputs).max()))
        diff = float(np.abs(values[finite] - reference[finite]).max(initial=0.0)) / scale
        return Check.at_most("max |grid - point by point| / max |value|", diff, GRID_RTOL)

    n_grid = first.grid.values.shape
    return Case(
        candidate,
        baseline,
        check,
        prepare_candidate=_clear_caches,
        prepare_baseline=_clear_caches,
        sizes={"n": int(request.X.shape[0]), "grid": f"{n_grid[1]}x{n_grid[0]}"},
        notes="cold fits: distance and fit caches emptied before every call",
    )


def _preset_case(name: str, quick: bool) -> Case:
    return _case(fit_requests(state_from_preset(presets.get(name)))[0], quick)


def _narrow_kfd_case(quick: bool) -> Case:
    X, y = two_class_data(150)
    return _case(FitRequest("kfd", {"width": 1e-12, "mu": 1e-3}, X, y), quick)


for _name, _title in (
    ("novelty-spiral", "KPCA novelty detection, Hoffmann's spiral (400 points, q = 40)"),
    ("novelty-ring-line-square", "KPCA novelty detection, ring, line and square (600 points)"),
):
    scenario(
        f"demo-{_name}",
        title=_title + ": fit + grid + boundary",
        baseline="decision_function at every grid node, point by point",
        target=Target.absolute(0.5),
        group="demo",
    )(partial(_preset_case, _name))

scenario(
    "demo-kfd-narrow",
    title="two-class KFD, 150 points, width 1e-12: fit + grid + refined boundary",
    baseline="decision_function at every grid node, point by point",
    target=Target.absolute(0.5),
    group="demo",
)(_narrow_kfd_case)
