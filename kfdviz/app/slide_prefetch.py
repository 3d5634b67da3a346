"""The next slide's pictures, computed while the current slide is shown.

A deck's slide is a preset: its data, algorithms and parameters are known before it is shown,
and so are the fits its pictures will ask for, up to the box the grid covers (the data's box
widened to the plot's shape, which a slide of the same layout as the one on screen shares).
:class:`SlidePrefetch` computes those fits in a thread of its own once the slide on screen is
drawn, and answers the window's fit worker from them: the worker's requests go through
:meth:`SlidePrefetch.run`, which returns a prefetched result for a request equal to the one it
was computed for (the same data, parameters, feature, grid and options) and fits anything else
as usual. So stepping to the next slide shows its pictures at once instead of after its fits.

Only one fit runs at a time: the prefetch waits while the worker fits, and a request of the
worker that is not the one being prefetched cancels the prefetch (the slide on screen comes
first); a request that is waits for it instead of fitting it twice. threadpoolctl's BLAS limits
are process-wide, so two fits at once would also fight over them.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import replace
from numbers import Number

import numpy as np
from PySide6.QtCore import QObject

from .. import session
from ..estimators import registry
from ..pipeline import FitRequest, GridSpec, box_for_aspect, data_box, run_fit
from ..pipeline.request import FitCancelled, as_check

# Prefetched results kept (the slides around the one on screen; going back is free too).
KEPT = 12
# How often a fit waiting for the prefetch looks at its own cancel, in seconds.
POLL = 0.05


def _digest(a) -> tuple | None:
    if a is None:
        return None
    a = np.ascontiguousarray(a)
    return a.dtype.str, a.shape, hashlib.blake2b(a.tobytes(), digest_size=16).hexdigest()


def _plain(value):
    """A parameter as the same key whatever its numeric type (40, 40.0, np.float64(40))."""
    if isinstance(value, Number) and not isinstance(value, bool):
        return float(value)
    return value


# The kernel parameters each kernel reads (the others change nothing in a fit).
_KERNEL_READS = {"rbf": {"width"}, "poly": {"degree", "coef0"}, "linear": set()}
_KERNEL_PARAMS = {"width", "degree", "coef0"}


def _deciding_params(algorithm: str, params) -> dict:
    """The parameters that decide a fit: every one the algorithm takes (defaults filled in,
    fixed ones added), less the kernel parameters its kernel does not read. The window leaves
    some of those out of a request (a polynomial kernel's width), a preset may not."""
    params = dict(params)
    if algorithm in registry.ALGORITHMS:
        try:
            params = registry.get(algorithm).full_params(params)
        except ValueError:  # a parameter it does not take: the fit says so, keep the key exact
            return params
    reads = _KERNEL_READS.get(str(params.get("kernel")))
    if reads is not None:
        params = {k: v for k, v in params.items() if k not in _KERNEL_PARAMS - reads}
    return params


def request_key(r: FitRequest) -> tuple:
    """What decides a fit's result: everything in the request but its id and slot."""
    box = None if r.grid.box is None else tuple(float(f"{float(v):.12g}") for v in r.grid.box)
    deciding = _deciding_params(r.algorithm, r.params).items()
    params = tuple(sorted((k, repr(_plain(v))) for k, v in deciding))
    return (
        r.algorithm,
        params,
        _digest(r.X),
        _digest(r.y),
        _digest(r.test_mask),
        repr(r.feature),
        (int(r.grid.resolution), float(r.grid.padding), box),
        r.levels,
        r.bins,
        r.n_embed,
        bool(r.with_svr),
        bool(r.draft),
    )


def slide_requests(name: str, aspect: float | None, single: bool) -> list[FitRequest]:
    """The fits the window asks for when preset ``name`` is shown in a plot of shape
    ``aspect`` (width / height) and the layout on screen is single (``single``) or compare.

    Empty for a slide whose fits cannot be told in advance: a sweep, or a layout other than
    the one on screen (its plots' shape is not known before it is laid out)."""
    state = session.state_from_preset(name)
    if state.sweep is not None or (state.layout == "single") != single:
        return []
    out = []
    for r in session.fit_requests(state):
        box = None
        X = r.X
        if not state.regression and X.ndim == 2 and X.shape[1] == 2 and X.shape[0]:
            box = data_box(X, 0.15)
            if aspect is not None:
                box = box_for_aspect(box, aspect)
        # As the window builds its requests: the default levels and bins, its own box.
        params = dict(r.params)
        out.append(
            FitRequest(
                algorithm=r.algorithm,
                params=params,
                X=X,
                y=r.y,
                test_mask=r.test_mask,
                slot=r.slot,
                feature=r.feature,
                grid=GridSpec(resolution=r.grid.resolution, box=box),
                with_svr=r.with_svr,
            )
        )
    return out


class SlidePrefetch(QObject):
    """Fits the next slide ahead and serves the fit worker from them (see the module)."""

    def __init__(self, parent: QObject, *, worker):
        super().__init__(parent)
        self.worker = worker
        self.served = 0  # requests answered from a prefetched result
        self._cond = threading.Condition()
        self._results: dict[tuple, object] = {}
        self._computing: tuple | None = None  # the key the prefetch thread fits now
        self._fitting = False  # the worker fits (the prefetch waits)
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._planned: dict[int, list[tuple]] = {}  # slide index -> its requests' keys

    # -- on and off ----------------------------------------------------------------------------
    def start(self) -> None:
        """Serve the worker's requests (presentation begins)."""
        self.served = 0
        self.worker.set_run(self.run)

    def stop(self) -> None:
        """End any prefetch, forget the results, fit as usual again (presentation ends)."""
        self._end_thread()
        self.worker.set_run(run_fit)
        with self._cond:
            self._results.clear()
        self._planned.clear()

    def ready(self, index: int) -> bool:
        """Whether every picture of slide ``index`` is prefetched."""
        keys = self._planned.get(index)
        with self._cond:
            return bool(keys) and all(k in self._results for k in keys)

    # -- computing ahead -----------------------------------------------------------------------
    def prepare(self, index: int, name: str, workspace) -> None:
        """Fit slide ``index`` (preset ``name``) ahead, for the layout ``workspace`` shows."""
        view = workspace.active_view()
        w, h = view.viewbox.width(), view.viewbox.height()
        aspect = w / h if w >= 20 and h >= 20 else None
        single = workspace.pictures.layout_name != "compare"
        try:
            requests = slide_requests(name, aspect, single)
        except Exception:  # a preset that cannot be read: its slide says so when shown
            requests = []
        self._planned[index] = [request_key(r) for r in requests]
        with self._cond:
            todo = [r for r in requests if request_key(r) not in self._results]
        if not todo:
            return
        self._end_thread()
        stop = threading.Event()
        self._stop = stop
        self._thread = threading.Thread(
            target=self._compute, args=(todo, stop), name="kfdviz-slide-prefetch", daemon=True
        )
        self._thread.start()

    def _end_thread(self) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._thread is not None:
            self._thread.join(30.0)
        self._thread = self._stop = None

    def _compute(self, requests: list[FitRequest], stop: threading.Event) -> None:
        for request in requests:
            key = request_key(request)
            with self._cond:
                while self._fitting and not stop.is_set():
                    self._cond.wait(POLL)
                if stop.is_set():
                    return
                self._computing = key
            result = None
            try:
                result = run_fit(request, cancel=stop)
            except FitCancelled:
                pass
            except Exception:  # the slide's own fit reports what went wrong
                pass
            finally:
                with self._cond:
                    self._computing = None
                    if result is not None:
                        self._results[key] = result
                        while len(self._results) > KEPT:
                            self._results.pop(next(iter(self._results)))
                    self._cond.notify_all()

    # -- serving the worker (its thread) -------------------------------------------------------
    def run(self, request: FitRequest, *, cancel=None, progress=None):
        """``run_fit``'s stand-in in the fit worker: a prefetched result when there is one."""
        key = request_key(request)
        check = as_check(cancel)
        with self._cond:
            if self._computing is not None and self._computing != key and self._stop is not None:
                self._stop.set()  # the slide on screen comes first
            while self._computing is not None:
                self._cond.wait(POLL)
                check()
            hit = self._results.get(key)
            if hit is None:
                self._fitting = True
        if hit is not None:
            self.served += 1
            if progress is not None:
                progress(1.0, "Done")
            # the request's own parameters (a kernel parameter its kernel does not read may
            # differ from the prefetched request's), as run_fit records them
            params = hit.params
            if request.algorithm in registry.ALGORITHMS:
                params = registry.get(request.algorithm).full_params(dict(request.params))
            return replace(hit, request_id=request.request_id, slot=request.slot, params=params)
        try:
            return run_fit(request, cancel=cancel, progress=progress)
        finally:
            with self._cond:
                self._fitting = False
                self._cond.notify_all()


__all__ = ["SlidePrefetch", "request_key", "slide_requests"]
