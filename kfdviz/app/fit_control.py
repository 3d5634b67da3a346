"""Fit control: from "these pictures are out of date" to results drawn or failures shown.

One fit thread (``FitWorker``) serves every picture. Any edit or parameter change marks slots
dirty; in live mode a short debounce later (or at once, while fits are quick: ``LiveRefit``) the
dirty slots of the layout are fitted: the active slot's parameters are read from the algorithm
panel and validated (a bad value is marked on its widget and nothing is fitted), the other
slots' are validated as stored; a fit predicted to be large waits for the user's answer
(``LargeDataGuard``). A request per slot is frozen and submitted; the worker cancels what the
slot was still fitting. Its grid box follows what the plots show (``GridBox``: a pan, zoom or
resize past the pictures refits them over the visible range).

Outcomes come back as data on the GUI thread. Each request remembers the data version it was
made from; a slot counts as drawn (or failed) for that version only, so :meth:`is_settled` and
:meth:`is_up_to_date` never report a picture of older data as current. Stale outcomes (the
worker has a newer request for the slot) are dropped; a failure keeps the last good picture and
says why in the status line and on the widget concerned. ``drawn`` is emitted once the views
show a result, ``failed`` for a failure shown, ``all_drawn`` when every slot of the layout shows
a fit of the current data.

Its life: nothing is fitted before :meth:`FitControl.start` (the window was shown: the plots have
their size), nor while it is held (:meth:`hold` / :meth:`release`: a presentation's slide
settling its layout), nor after :meth:`shutdown`; :attr:`closing`, :attr:`started` and
:attr:`held` say where it stands. The changes the user makes through the algorithm panel are
steps of the document's history (a slider drag one step).

GUI thread only; the worker's thread sees nothing of this but frozen requests.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from ..core.kernels import KERNEL_PARAMETERS
from ..estimators import registry
from ..pipeline import FitFailure, FitRequest, GridSpec
from ..workers import FitWorker
from .document import param_label
from .grid_box import GridBox
from .large_data import LargeDataGuard
from .live_refit import LiveRefit
from .picture_marks import Fix, PictureMarks
from .pictures import SlotState, param_names

DEBOUNCE_MS = 150


class FitControl(QObject):
    """Requests, the fit thread, live refits and outcomes (see the module's docstring)."""

    drawn = Signal(object)  # a FitResult, after the views show it
    failed = Signal(object)  # a FitFailure (not a cancellation) shown to the user
    all_drawn = Signal()  # every slot of the layout shows a fit of the current data

    def __init__(self, parent: QObject, *, data, pictures, workspace, status, canvas):
        super().__init__(parent)
        self.data = data
        self.history = data.history
        self.pictures = pictures
        self.workspace = workspace
        self.status = status
        self.panel = workspace.algorithm_panel
        self.live = True
        self._closing = False
        self._started = False  # the window was shown: the plots have their size
        self._held = False  # a slide's layout is being settled (presentation)
        self.dirty: set[str] = set()
        self.drawn_version: dict[str, int] = {}
        self.submitted_version: dict[str, int] = {}
        self.request_version: dict[int, int] = {}  # the data version of each request in flight
        self.failed_version: dict[str, int] = {}
        self.worker = FitWorker(self)
        self.worker.outcome.connect(self._on_outcome)
        self.worker.progress.connect(self._on_progress)
        self.worker.busy_changed.connect(status.set_busy)
        # stale pictures greyed with the reason, long fits' progress on the plot
        self.marks = PictureMarks(self, workspace=workspace, pictures=pictures)
        self.worker.busy_changed.connect(self.marks.busy_changed)
        self.marks.cancel_requested.connect(self.cancel)
        self.debounce = QTimer(self)
        self.debounce.setSingleShot(True)
        self.debounce.setInterval(DEBOUNCE_MS)
        self.debounce.timeout.connect(self.fit_now)
        # quick fits skip the debounce (live_refit.py)
        self.live_refit = LiveRefit(
            self,
            fit=self,
            data=data,
            pictures=pictures,
            canvas=canvas,
            draw_docks=workspace.draw_docks,
        )
        canvas.move_requested.connect(
            lambda i, x, y, stroke, final: self.live_refit.move_point(i, x, y, stroke, final=final)
        )
        # asks before a large fit (large_data.py); connected to the data before data_changed
        self.large_data = LargeDataGuard(
            self,
            fit=self,
            data=data,
            pictures=pictures,
            algorithm_panel=self.panel,
            status=status,
        )
        # the grid's box follows the plots' visible range (grid_box.py)
        self.grid_box = GridBox(self, fit=self, workspace=workspace, pictures=pictures, data=data)

    # -- life ------------------------------------------------------------------------------------
    @property
    def closing(self) -> bool:
        """Shut down (the window closes): nothing is fitted any more."""
        return self._closing

    @property
    def started(self) -> bool:
        """The window was shown: the plots have their size, fits may start."""
        return self._started

    @property
    def held(self) -> bool:
        """Fits wait (:meth:`hold`) until :meth:`release`."""
        return self._held

    def start(self) -> None:
        """The plots have their size: fits may start (the caller asks for the first)."""
        self._started = True

    def hold(self) -> None:
        """No fit starts until :meth:`release` (what waits stays marked)."""
        self._held = True

    def release(self) -> None:
        """Fits may start again; the caller asks for those it wants."""
        self._held = False

    def stop_waiting(self) -> None:
        """The debounce's wait ends without a fit (what waits stays marked)."""
        self.debounce.stop()

    # -- what changed ----------------------------------------------------------------------------
    def data_changed(self, kind: str) -> None:
        """The points changed: redraw them, and fit the layout (or clear it: no points)."""
        self.workspace.refresh_points(reframe=kind == "replace")
        if self.data.n == 0:
            self.debounce.stop()
            self.worker.cancel()
            for slot in self.pictures.all_slots():
                slot.set_result(None)
            self.workspace.clear_results()
            self.marks.clear()
            self.dirty.clear()
            self.status.show(
                "No points: pick a data set and Generate, or click to draw.", kind="info"
            )
            return
        self.request_fit(slots=self.pictures.layout_slot_names())

    def panel_changed(self) -> None:
        """The algorithm or a parameter changed in the algorithm panel: one step of the
        history, merged with the last while one slider is dragged."""
        slot = self.pictures.active_slot()
        gesture = self.panel.gesture()
        merge = None if gesture is None else ("param", slot.name, *gesture)
        with self.history.group(merge=merge):
            changed = self.workspace.sync_slot_from_panel()
        self.request_fit(slots=changed)

    def feature_changed(self) -> None:
        slot = self.pictures.active_slot()
        with self.history.group():
            slot.set_setting(feature=self.panel.feature_value())
        self.request_fit(slots=[slot.name], now=True)

    def set_live(self, on: bool) -> None:
        self.live = on
        if on and self.dirty:
            self.request_fit()

    def set_svr(self, on: bool) -> None:
        with self.history.group():
            self.pictures.set_view(with_svr=on)
        if self.data.regression:
            self.request_fit()

    # -- requests --------------------------------------------------------------------------------
    def request_fit(self, *, slots: list[str] | None = None, now: bool = False) -> None:
        """Mark ``slots`` (default: the current layout's) for fitting; fit soon when live."""
        names = slots or self.pictures.layout_slot_names()
        self.dirty.update(names)
        if now:
            self.debounce.stop()
            self.fit_now()
        elif self.live and not self.live_refit.request():
            self.debounce.start()
        elif not self.live:
            for name in names:
                if self.pictures.slot(name).result is not None:
                    self.marks.stale(
                        name,
                        "Not fitted since the last change (live fitting is off).",
                        ("Fit now", self.request_now),
                    )

    def request_now(self) -> None:
        self.request_fit(now=True)

    def fit_now(self, *, follow: bool = False) -> None:
        """Submit the fits of the layout's slots that wait; ``follow``: queue each behind its
        slot's running fit instead of cancelling it (``FitWorker.submit``)."""
        if self._closing or not self._started or self._held:
            return  # the first fit (of a window or a slide) waits for the layout's size
        follow = follow or self.live_refit.drafts.follows()  # the exact fit follows a draft
        names = self.pictures.layout_slot_names()
        wanted = [s for s in names if s in self.dirty]
        if not wanted:
            wanted = names if not self.dirty else []
        if self.data.n == 0:
            self.dirty.clear()
            return
        if self.large_data.holds(wanted):
            # a large fit waits for the banner's answer (large_data.py)
            for name in wanted:
                self.marks.stale(
                    name,
                    "Not fitted yet: this fit is predicted to be large. Choose in the banner above.",
                )
            return
        for name in wanted:
            self.dirty.discard(name)
            slot = self.pictures.slot(name)
            if slot is self.pictures.active_slot():
                # the slot has the panel's valid values (panel_changed); a value typed that is
                # not one is the panel's to show
                _, problems = self.panel.collect()
                if problems:
                    self.panel.mark_errors(problems)
                    name0, reason = next(iter(problems.items()))
                    label = param_label(slot.algorithm, name0)
                    # The registry's reasons name the parameter already ("Width c must be ...").
                    said = reason if reason.startswith(label) else f"{label}: {reason}"
                    slot.set_failure(reason, name0)
                    self.failed_version[name] = self.data.version  # settled: a reason
                    self.status.show(f"{said} Nothing was fitted.", kind="error")
                    self.marks.stale(name, f"{said} This picture is of the last valid value.")
                    self.worker.cancel(name)
                    continue
            else:
                problems = registry.get(slot.algorithm).validate(slot.params)
                if problems:
                    param, reason = next(iter(problems.items()))
                    self._slot_failed(slot, FitFailure(0, slot.name, reason, param=param))
                    continue
            rid = self.worker.submit(self._request(slot), follow=follow)
            self.submitted_version[name] = self.request_version[rid] = self.data.version

    def _request(self, slot: SlotState) -> FitRequest:
        data = self.data
        params = slot.params
        if slot is self.pictures.active_slot():
            # what the algorithm panel shows: a session's values for parameters the algorithm
            # does not take (another algorithm's, kept in its panel) are not the fit's
            own = param_names(slot.algorithm)
            params = {k: v for k, v in params.items() if k in own}
        request = FitRequest(
            algorithm=slot.algorithm,
            params=params,
            # the points as the kernel sees them (standardized when the document says so)
            X=data.document.kernel_data(data.X(), ~np.asarray(data.test_mask(), dtype=bool)),
            y=data.y(),
            test_mask=data.test_mask(),
            slot=slot.name,
            feature=slot.feature,
            grid=GridSpec(resolution=self.pictures.resolution, box=self.grid_box.box()),
            with_svr=self.pictures.with_svr and data.regression,
            draft=self.live_refit.draft(),  # see live_refit.py
        )
        return self.live_refit.drafts.adapt(request)  # a draft while drafts are made (drafts.py)

    def cancel(self) -> None:
        self.debounce.stop()
        self.worker.cancel()

    def forget_pending(self) -> None:
        """Nothing waits to be fitted (the pictures on screen are taken as they are)."""
        self.debounce.stop()
        self.dirty.clear()

    def mark_drawn(self, name: str) -> None:
        """Slot ``name``'s result is current for the data as they are now."""
        self.drawn_version[name] = self.data.version

    # -- outcomes --------------------------------------------------------------------------------
    def _on_outcome(self, outcome) -> None:
        version = self.request_version.pop(outcome.request_id, None)
        if self._closing or not self.worker.is_current(outcome):
            return
        slot = self.pictures.slot(outcome.slot)
        if isinstance(outcome, FitFailure):
            if outcome.cancelled:
                self.status.show("Fit cancelled; the last picture stays.", kind="info")
                return
            self._slot_failed(slot, outcome)
            return
        slot.set_result(outcome)
        self.marks.current(slot.name)
        if version is None:
            version = self.submitted_version.get(slot.name, -1)
        self.drawn_version[slot.name] = version
        if slot.name in self.pictures.layout_slot_names():
            active = slot is self.pictures.active_slot()
            self.workspace.draw(outcome, docks=active and not self.live_refit.hold_docks())
        self.live_refit.drafts.drawn(outcome)  # the draft badge; the exact fit follows a draft
        self.drawn.emit(outcome)
        if self.is_up_to_date():
            self.all_drawn.emit()

    def _slot_failed(self, slot: SlotState, failure: FitFailure) -> None:
        slot.set_failure(failure.message, failure.param)
        self.failed_version[slot.name] = self.data.version
        where = self._show_failure(slot, failure)
        title = registry.get(slot.algorithm).title if slot.algorithm in registry.ALGORITHMS else ""
        self.status.show(
            f"{title} — {where}{failure.message} The last good picture stays.", kind="error"
        )
        if slot.result is not None or slot.name == "main":
            self.marks.stale(
                slot.name,
                f"Not fitted: {failure.message} The picture is of the last fit that worked.",
                self._fix_for(slot),
            )
        self.failed.emit(failure)

    def _show_failure(self, slot: SlotState, failure: FitFailure) -> str:
        """Mark a failed fit where it belongs (the parameter's widget, the compare panel);
        returns "<parameter label>: " when a widget shows it, else ""."""
        where = ""
        p = self.pictures
        if slot is p.active_slot() and failure.param:
            if self.panel.show_error(failure.param, failure.message):
                label = param_label(slot.algorithm, failure.param)
                where = "" if failure.message.startswith(label) else f"{label}: "
        index = p.compare_index(slot.name)
        if p.layout_name == "compare" and index is not None:
            self.workspace.compare_view.panels[index].set_error(failure.message)
        return where

    def _fix_for(self, slot: SlotState) -> Fix | None:
        """A one-click way out of a failure, where there is one."""
        if self.data.regression or slot.algorithm == "novelty" or self.data.n == 0:
            return None
        y = np.asarray(self.data.y())[~np.asarray(self.data.test_mask(), dtype=bool)]
        if np.unique(y).size < 2:
            return ("Use KPCA novelty detection (one class)", lambda: self.switch(slot, "novelty"))
        return None

    def switch(self, slot: SlotState, algorithm: str) -> None:
        """Give ``slot`` another algorithm, keeping its kernel, and fit it now."""
        kernel = {k: v for k, v in slot.params.items() if k in KERNEL_PARAMETERS}
        title = registry.get(algorithm).title
        with self.history.group(f"Use {title}"):
            slot.set_setting(algorithm=algorithm, params=kernel, feature="auto")
        if slot is self.pictures.active_slot():
            self.workspace.bind_panel(slot)
        self.request_fit(slots=[slot.name], now=True)

    def _on_progress(self, slot: str, request_id: int, fraction: float, message: str) -> None:
        if self.worker.latest_id(slot) == request_id:
            self.status.set_progress(fraction, message)
            self.marks.progress(slot, fraction, message)

    # -- state -----------------------------------------------------------------------------------
    def waiting(self, names) -> bool:
        """Whether a fit runs, or one of ``names`` waits to be fitted."""
        if self.worker.is_busy() or self.debounce.isActive():
            return True
        if any(self.live_refit.drafts.is_draft(self.pictures.slot(n).result) for n in names):
            return True  # a draft shows: its exact fit is to come (drafts.py)
        return any(name in self.dirty for name in names)

    def is_settled(self) -> bool:
        """Nothing left to do: every slot of the layout has a fit or a failure for the current
        data and parameters, and no fit is running or waiting."""
        names = self.pictures.layout_slot_names()
        if self.waiting(names):
            return False
        v = self.data.version
        return all(
            self.data.n == 0 or self.drawn_version.get(s) == v or self.failed_version.get(s) == v
            for s in names
        )

    def is_up_to_date(self) -> bool:
        """Every slot of the layout shows a fit of the current data and parameters."""
        names = self.pictures.layout_slot_names()
        if self.waiting(names):
            return False
        return all(
            self.drawn_version.get(s) == self.data.version
            and self.pictures.slot(s).result is not None
            for s in names
        )

    def shutdown(self) -> None:
        """Stop for good (the window closes): no more fits, the thread joined."""
        self._closing = True
        self.debounce.stop()
        self.grid_box.settle.stop()
        self.worker.shutdown()


__all__ = ["DEBOUNCE_MS", "FitControl"]
