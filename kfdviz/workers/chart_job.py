"""A session's charts (:mod:`kfdviz.charts`) computed as a job for a ``FitWorker``.

``FitWorker(run=run_chart_request)`` runs :class:`ChartRequest` objects on its thread as it runs
fits: one at a time, a newer request cancelling the one before (checked between chart
builders), each ending in one outcome (a :class:`ChartOutcome`, or a ``FitFailure`` when
cancelled or failed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..charts import Chart, build_charts


@dataclass(frozen=True, eq=False)
class ChartRequest:
    names: tuple[str, ...]
    X: np.ndarray
    y: np.ndarray
    test_mask: np.ndarray
    slot: str = "charts"
    request_id: int = 0


@dataclass(frozen=True, eq=False)
class ChartOutcome:
    request_id: int
    slot: str
    charts: tuple[Chart, ...]


def run_chart_request(request: ChartRequest, *, cancel=None, progress=None) -> ChartOutcome:
    charts = build_charts(
        request.names,
        request.X,
        request.y,
        request.test_mask,
        cancel=cancel,
        progress=progress,
    )
    return ChartOutcome(request.request_id, request.slot, tuple(charts))


__all__ = ["ChartOutcome", "ChartRequest", "run_chart_request"]
