"""One fit thread: frozen requests in, results and failures out through one queued signal.

The GUI thread never waits on a fit. ``submit`` stamps a request with a fresh id, cancels the
request still pending or running for the same slot (the main view and each compare panel are
slots) and queues the new one; the thread skips requests cancelled before they start. Every
request ends in exactly one ``outcome`` emission (a ``FitResult`` or a ``FitFailure``), delivered
on the GUI thread; ``is_current`` tells whether it is still the latest for its slot, so stale
pictures are dropped. ``shutdown`` cancels everything and joins the thread: a cancel stops a
fit at its next Python call or solver iteration, and a long solve's child process is terminated
(pipeline/run.py, core/stoppable.py), so the thread ends within a fraction of a second.

The thread hands an outcome to the GUI thread once, as one queued call; there the worker
updates its bookkeeping (``is_busy``, ``is_current``) and emits ``outcome`` to every receiver
within that same call. Receivers and anyone polling ``is_busy`` between events therefore never
see a worker that has finished a request whose outcome they have not yet received: with one
queued call per receiver, the GUI thread could run the worker's bookkeeping, return to its event
loop and report "idle" before the window had drawn the outcome (the window's ``is_settled``
then answered True over the previous picture).

``submit(request, follow=True)`` queues the request behind the slot's fit instead: a fit that has
started runs to its end and its picture stays current (it is drawn), a request of the slot not
yet started is cancelled (the newest state replaces it), and the thread starts the new request
as soon as the running one returns, without waiting for the GUI thread to see the outcome and
submit again (the window's live refits of quick fits; see app/live_refit.py).
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from dataclasses import replace

# The compiled modules a fit loads late (the solvers, scikit-learn's k-means) load here, with
# the app, on the GUI thread. The library loads them at their first use; were that on a fit
# thread, the extension's loading (under the dynamic loader's lock) would run beside a GUI
# thread holding the interpreter's lock, which can deadlock both: a fit thread never loads an
# extension module for the first time.
import clarabel  # noqa: F401
import highspy  # noqa: F401
import sklearn.cluster  # noqa: F401
from PySide6.QtCore import QObject, Signal

from ..pipeline import (
    CancelToken,
    FitCancelled,
    FitError,
    FitFailure,
    FitRequest,
    run_fit,
)

# Progress reports closer together than this are not forwarded.
PROGRESS_INTERVAL = 0.05


class FitWorker(QObject):
    outcome = Signal(object)  # FitResult | FitFailure, on the GUI thread
    progress = Signal(str, int, float, str)  # slot, request id, fraction 0..1, message
    busy_changed = Signal(bool)
    _finished = Signal(object)  # from the fit thread to _deliver, queued to the GUI thread

    def __init__(self, parent: QObject | None = None, *, run=run_fit):
        super().__init__(parent)
        self._run = run
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 0
        self._latest: dict[str, int] = {}
        self._tokens: dict[int, CancelToken] = {}
        self._pending: set[int] = set()
        self._queued: set[int] = set()  # submitted, not started yet
        # Started before a follow-up was queued, so still current: request id -> slot.
        self._followed: dict[int, str] = {}
        self._closed = False
        self._busy = False
        self._finished.connect(self._deliver)
        self._thread = threading.Thread(target=self._loop, name="kfdviz-fit-worker", daemon=True)
        self._thread.start()

    # -- GUI-thread API ------------------------------------------------------------------------
    def submit(self, request: FitRequest, *, follow: bool = False) -> int:
        """Queue a fit; cancels the previous one of the same slot. Returns the request's id.

        ``follow``: cancel the previous request of the slot only if it has not started; one that
        has started runs to its end, stays current and is followed by this one at once."""
        if self._closed:
            raise RuntimeError("the fit worker has been shut down")
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            old = self._latest.get(request.slot)
            if old is not None and old in self._pending:
                if follow and old not in self._queued:
                    self._followed[old] = request.slot
                elif old in self._tokens:
                    self._tokens[old].cancel()
            self._latest[request.slot] = rid
            self._tokens[rid] = CancelToken()
            self._pending.add(rid)
            self._queued.add(rid)
        self._set_busy(True)
        self._queue.put(replace(request, request_id=rid))
        return rid

    def set_run(self, run) -> None:
        """Compute the requests taken from now on with ``run`` (``run_fit``'s signature): a
        stand-in that answers some of them from results computed ahead."""
        self._run = run

    def cancel(self, slot: str | None = None) -> None:
        """Cancel the running or pending fit of ``slot`` (all slots when None)."""
        with self._lock:
            for rid, token in self._tokens.items():
                if slot is None or self._latest.get(slot) == rid or self._followed.get(rid) == slot:
                    token.cancel()
            self._followed = {r: s for r, s in self._followed.items() if slot not in (None, s)}

    def is_current(self, outcome) -> bool:
        """Whether ``outcome`` is the latest of its slot, or was followed (``submit(follow=True)``)
        by a request not yet returned."""
        rid = outcome.request_id
        if self._latest.get(outcome.slot) == rid:
            return True
        return rid in self._followed and not getattr(outcome, "cancelled", False)

    def latest_id(self, slot: str = "main") -> int | None:
        return self._latest.get(slot)

    def is_busy(self) -> bool:
        return bool(self._pending)

    def shutdown(self, timeout: float = 30.0) -> bool:
        """Cancel everything, stop the thread and join it; True when it has ended."""
        if not self._closed:
            self._closed = True
            self.cancel()
            self._queue.put(None)
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    # -- the fit thread ------------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            request = self._queue.get()
            if request is None:
                return
            with self._lock:
                token = self._tokens.get(request.request_id)
                self._queued.discard(request.request_id)
            outcome = self._execute(request, token)
            with self._lock:
                self._tokens.pop(request.request_id, None)
            if self._closed:
                continue
            self._finished.emit(outcome)

    def _execute(self, request: FitRequest, token: CancelToken | None):
        rid, slot = request.request_id, request.slot
        if token is None or token.is_set():
            return FitFailure(rid, slot, "Cancelled", cancelled=True)
        last = [0.0]

        def progress(fraction: float, message: str) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_INTERVAL or fraction >= 1.0:
                last[0] = now
                if not self._closed:
                    self.progress.emit(slot, rid, float(fraction), message)

        try:
            return self._run(request, cancel=token, progress=progress)
        except FitCancelled:
            return FitFailure(rid, slot, "Cancelled", cancelled=True)
        except FitError as exc:
            return FitFailure(rid, slot, exc.message, param=exc.param)
        except Exception as exc:  # a bug or an unexpected failure: report it, keep running
            return FitFailure(
                rid,
                slot,
                f"The fit failed: {exc.__class__.__name__}: {exc}",
                detail=traceback.format_exc(),
            )

    # -- bookkeeping on the GUI thread ------------------------------------------------------
    def _deliver(self, outcome) -> None:
        """The bookkeeping of a finished request and its ``outcome`` emission, as one step."""
        rid = outcome.request_id
        self._pending.discard(rid)
        # Outcomes arrive in order: a followed request older than this one is done.
        self._followed = {r: s for r, s in self._followed.items() if r >= rid}
        self.outcome.emit(outcome)
        if not self._pending:
            self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)
