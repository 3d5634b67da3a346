"""Background work for the app: cancellable threads feeding results back as data."""

from .fit_worker import FitWorker
from .sweep_job import SweepOutcome, SweepRequest, run_sweep_request

__all__ = ["FitWorker", "SweepOutcome", "SweepRequest", "run_sweep_request"]
