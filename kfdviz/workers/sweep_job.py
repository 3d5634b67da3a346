"""A sweep (a measure against a parameter, one fit per value) as a job for a ``FitWorker``.

``FitWorker(run=run_sweep_request)`` runs :class:`SweepRequest` objects on its thread exactly as
it runs fits: one at a time, cancellable between and inside fits, with progress, each ending in
one outcome (a :class:`SweepOutcome`, or a ``FitFailure`` when cancelled or failed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sweep import Sweep, SweepResult, run_sweep


@dataclass(frozen=True, eq=False)
class SweepRequest:
    sweep: Sweep
    X: np.ndarray
    y: np.ndarray
    test_mask: np.ndarray | None = None
    slot: str = "sweep"
    request_id: int = 0


@dataclass(frozen=True, eq=False)
class SweepOutcome:
    request_id: int
    slot: str
    result: SweepResult


def run_sweep_request(request: SweepRequest, *, cancel=None, progress=None) -> SweepOutcome:
    result = run_sweep(
        request.sweep,
        request.X,
        request.y,
        request.test_mask,
        cancel=cancel,
        progress=progress,
    )
    return SweepOutcome(request.request_id, request.slot, result)


__all__ = ["SweepOutcome", "SweepRequest", "run_sweep_request"]
