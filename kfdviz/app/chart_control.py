"""A session's charts in the window, computed in the background.

Some presets' figures are charts (:mod:`kfdviz.charts`: ROC curves, the area under them against
a parameter, a row of the most unusual images) besides or instead of fitted pictures. The
window shows them under the pictures, in a :class:`~kfdviz.views.chart_view.ChartView`: the same
:class:`~kfdviz.charts.Chart` objects an exported figure paints, computed by the same builders
on the window's data, on a worker thread of their own (the GUI thread never waits on them; the
view is marked busy meanwhile). When the data change the charts are computed again; a newer
request cancels the one before. Charts are kept only for the data they were computed from.
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
        self._data_edited = False
        view.hide()

    def _thread(self) -> FitWorker:
        if self.worker is None:
            self.worker = FitWorker(self, run=run_chart_request)
            self.worker.outcome.connect(self._on_outcome)
        return self.worker

    def set_view_settings(self, settings: dict | None) -> None:
        """The charts a session's (or preset's) view settings ask for: computed and shown, or
        the view hidden when there are none."""
        self.view.primary = bool((settings or {}).get("charts_only"))
        try:
            names = tuple(requested_charts(settings))
        except ValueError as exc:
            self.set_names(())
            self.view.show()
            self.view.show_message(f"No charts: {exc}")
            return
        self.set_names(names)

    def set_names(self, names) -> None:
        names = tuple(names)
        current = names == self.names and self._version == self.data.version
        self.names = names
        if not names:
            self.cancel()
            self.charts = None
            self.view.clear()
            self.view.hide()
            return
        self.view.show()
        if not current:
            self.charts = None
            self.run()

    def run(self) -> int | None:
        """Compute the charts of the data as they are now (the view is marked busy)."""
        self._data_edited = False
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

    def data_changed(self, _kind: str = "") -> None:
        """New or edited data: the charts are computed again once the change is complete (a
        session being opened names its charts first)."""
        if not self._data_edited:
            self._data_edited = True
            QTimer.singleShot(0, self._rerun)

    def _rerun(self) -> None:
        if self._data_edited and not self.closing:
            self._data_edited = False
            if self.names and self._version != self.data.version:
                self.run()

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
        if not self.names or self.data.n == 0:
            return not self.running()
        if self._data_edited or self.running():
            return False
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
