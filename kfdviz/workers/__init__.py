"""Background work for the app: one cancellable fit thread feeding results back as data."""

from .fit_worker import FitWorker

__all__ = ["FitWorker"]
