"""A session's charts in the window, computed in the background.

Some presets' figures are charts (:mod:`kfdviz.charts`: ROC curves, the area under them against
a parameter, a row of the most unusual images) besides or instead of fitted pictures. The
window shows them under the pictures, in a :class:`~kfdviz.views.chart_view.ChartView`: the same
:class:`~kfdviz.charts.Chart` objects an exported figure paints, computed by the same builders
on the window's data, on a worker thread of their own (the GUI thread never waits on them; the
view is marked busy meanwhile). When the data change the charts are computed again; a newer
request cancels the one before. Charts are kept only for the data they were computed from.

A session names its charts before its data are on screen (and presentation mode puts a session
back in several steps), so the control acts once the change is complete: on the next turn of
the event loop after the view settings or the data changed.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from ..charts import requested_charts
from ..pipeline import FitFailure
from ..views.chart_view import ChartView
from ..workers import FitWorker
from ..workers.chart_job import ChartOutcome, ChartRequest, run_chart_request


class ChartControl(QObject):
    """The session's charts: which builders, their view, their worker (made when first needed),
    the charts of the data on screen once computed."""

    drawn = Signal(object)  # the list of Chart objects, once the view shows them

    def __init__(self, parent: QObject, *, view: ChartView, data):
        super().__init__(parent)
        self.view = view
        self.data = data
        self.names: tuple[str, ...] = ()  # the session's chart builders
        self.charts: list | None = None  # of the data version ``_version``, once computed
        self.worker: FitWorker | None = None
        self.closing = False
        self._version = -1  # the data version the charts running or shown are computed from
        self._failed_version = -2  # the data version whose charts could not be computed
        self._settings: dict | None = None  # view settings not acted on yet
        self._data_edited = False
        self._scheduled = False
        view.hide()

    def _thread(self) -> FitWorker:
        if self.worker is None:
            self.worker = FitWorker(self, run=run_chart_request)
            self.worker.outcome.connect(self._on_outcome)
        return self.worker

    # -- what changed ----------------------------------------------------------------------------
    def set_view_settings(self, settings: dict | None) -> None:
        """The view settings of the session on screen: its charts (``{"charts": [...]}``) are
        computed and shown, or the view is hidden when it has none."""
        self._settings = dict(settings or {})
        self._schedule()

    def data_changed(self, _kind: str = "") -> None:
        """New or edited data: the charts are computed again."""
        self._data_edited = True
        self._schedule()

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self._update)

    def _update(self) -> None:
        self._scheduled = False
        if self.closing:
            return
        settings, self._settings = self._settings, None
        edited, self._data_edited = self._data_edited, False
        if settings is not None:
            self._apply(settings)
        elif edited and self.names and self._version != self.data.version:
            self.run()

    def _apply(self, settings: dict) -> None:
        self.view.set_primary(bool(settings.get("charts_only")))
        try:
            names = tuple(requested_charts(settings))
        except ValueError as exc:
            self._show_names(())
            self.view.show()
            self.view.show_message(f"No charts: {exc}")
            return
        self._show_names(names)

    def _show_names(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.charts = None
        if not names:
            self.cancel()
            self.view.clear()
            self.view.hide()
            return
        self.view.show()
        self.run()

    # -- computing -------------------------------------------------------------------------------
    def run(self) -> int | None:
        """Compute the charts of the data as they are now (the view is marked busy)."""
        if not self.names:
            return None
        if self.data.n == 0:
            self.charts = None
            self.view.clear()
            self.view.show_message("No points: no charts.")
            return None
        request = ChartRequest(
            self.names,
            np.array(self.data.X(), dtype=float),
            np.array(self.data.y()),
            np.array(self.data.test_mask(), dtype=bool),
        )
        self._version = self.data.version
        self.view.set_busy(True)
        return self._thread().submit(request)

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def running(self) -> bool:
        return self.worker is not None and self.worker.is_busy()

    def is_current(self) -> bool:
        """Whether the view shows the charts of the data on screen (or there are none)."""
        if not self.names:
            return True
        return self.charts is not None and self._version == self.data.version

    def is_settled(self) -> bool:
        """Nothing left to do: the charts of the data on screen are shown or could not be
        computed (or there are none, or no points), and none is being computed."""
        if self._scheduled or self.running():
            return False
        if not self.names or self.data.n == 0:
            return True
        return self.is_current() or self._failed_version == self.data.version

    def _on_outcome(self, outcome) -> None:
        if self.closing or not self.worker.is_current(outcome):
            return
        if isinstance(outcome, FitFailure):
            if not outcome.cancelled:
                self._failed_version = self._version
                self.view.show_message(f"The charts could not be computed: {outcome.message}")
            return
        if isinstance(outcome, ChartOutcome) and self._version == self.data.version:
            self.charts = list(outcome.charts)
            self.view.set_charts(self.charts)
            self.drawn.emit(self.charts)

    def shutdown(self) -> None:
        self.closing = True
        if self.worker is not None:
            self.worker.shutdown()


__all__ = ["ChartControl"]
