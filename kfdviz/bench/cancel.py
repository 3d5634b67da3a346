"""The cancel scenarios of ``kfdviz bench``: from a cancel to the end of a long program fit.

A fit of the sparse KFD (a QP, TPAMI eq. 12) or of the linear sparse KFD (an LP, eq. 14) runs
in a thread as the app's fit thread runs it (``run_fit`` with a cancel token). Once the fit
waits for its solver (a child process, or Clarabel or HiGHS in the thread) and
:data:`SOLVING_SECONDS` more have passed, the token is set, and the time until the thread has
ended is measured. The candidate is the app's path (a
solve predicted long runs in a child process, terminated on cancel); the baseline solves in the
fit thread, where the solvers poll the cancel once per iteration (Clarabel's termination
callback, HiGHS's interrupt callback) but not during HiGHS's presolve or Clarabel's setup.
Before either, the solve ran to its end: 25 to 35 s after a cancel at 1500 points.

The check: every fit ended as cancelled, and no solver process was left running.

A kernel PCA fit of 3000 points spends its first second or so building the kernel matrix
(core/kernels.py), in row blocks with the cancel checked between them: the cancel scenario of
the build sets the token as soon as the fit thread is inside it and measures the time until the
thread has ended. Its baseline builds the matrix as one block, so the cancel waits for the
whole build.
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import threading
import time
from time import perf_counter

from kfdviz.core import kernels
from kfdviz.core.fit_cache import FIT_CACHE
from kfdviz.core.kernels import PAIRWISE_CACHE
from kfdviz.pipeline import CancelToken, FitCancelled, FitRequest, run_fit
from kfdviz.pipeline import run as run_module

from .numeric import WIDTH, two_class_data
from .registry import Case, Check, Measured, Target, scenario

# How long the solve runs before the cancel.
SOLVING_SECONDS = 0.3
# How long the fit may take to reach its solve.
REACH_SECONDS = 120.0


# The functions that call Clarabel and HiGHS in the fit thread.
_SOLVER_CALLS = frozenset({"_clarabel_qp", "_run_highs"})


def _in_solve(thread: threading.Thread) -> bool:
    """Whether ``thread`` waits for a solver: inside a native Clarabel or HiGHS call (its
    innermost Python frame is the caller), or for a child process's solve."""
    frame = sys._current_frames().get(thread.ident)
    if frame is not None and frame.f_code.co_name in _SOLVER_CALLS:
        return True
    while frame is not None:
        if frame.f_code.co_name == "run_isolated":
            return True
        frame = frame.f_back
    return False


def _fit_and_cancel(request, reached, *, poll: float, after: float = 0.0) -> tuple[float, str]:
    """Run ``request`` in a fit thread and cancel it once ``reached(thread)`` holds (or
    REACH_SECONDS have passed) and ``after`` seconds more; (the seconds from the cancel until
    the thread ended, how the fit ended)."""

    token = CancelToken()
    ended: list[str] = []

    def fit() -> None:
        try:
            run_fit(request, cancel=token)
            ended.append("finished")
        except FitCancelled:
            ended.append("cancelled")
        except Exception as exc:  # reported by the check
            ended.append(f"failed: {exc}")

    thread = threading.Thread(target=fit, name="kfdviz-bench-fit")
    thread.start()
    deadline = perf_counter() + REACH_SECONDS
    while thread.is_alive() and not reached(thread) and perf_counter() < deadline:
        time.sleep(poll)
    time.sleep(after)
    t0 = perf_counter()
    token.cancel()
    thread.join()
    return perf_counter() - t0, ended[0] if ended else "lost"


def _cancel_during_solve(request) -> Measured:
    seconds, ended = _fit_and_cancel(request, _in_solve, poll=0.002, after=SOLVING_SECONDS)
    return Measured(seconds, (ended, multiprocessing.active_children()))


def _cancel_case(algorithm: str, quick: bool) -> Case:
    n = 400 if quick else 1500
    X, y = two_class_data(n, seed=8)
    request = FitRequest(algorithm, {"width": WIDTH, "mu": 1e-3}, X, y)
    isolate_seconds = run_module.ISOLATE_SECONDS

    def candidate():
        run_module.ISOLATE_SECONDS = isolate_seconds
        return _cancel_during_solve(request)

    def baseline():
        run_module.ISOLATE_SECONDS = math.inf  # every solve in the fit thread
        try:
            return _cancel_during_solve(request)
        finally:
            run_module.ISOLATE_SECONDS = isolate_seconds

    # The quick run's small fit may end before the cancel lands, on a fast machine: there it
    # must end either way; the full run's fit takes tens of seconds and must be cancelled.
    allowed = {"cancelled", "finished"} if quick else {"cancelled"}

    def check(c, b):
        bad = 0
        for measured in (c, b):
            ended, children = measured.value
            bad += (ended not in allowed) + len(children)
        return Check.at_most("fits not ended as they should + solver processes left", bad, 0)

    return Case(
        candidate,
        baseline,
        check,
        sizes={"n": n},
        notes=f"cancelled {SOLVING_SECONDS:g} s into the solver's work; until the fit thread ended",
    )


@scenario(
    "cancel-kfd-sparse",
    title="cancel during a sparse KFD solve (QP, eq. 12) -> the fit thread has ended",
    baseline="the solve in the fit thread, Clarabel polling the cancel once per iteration",
    target=Target.absolute(0.5),
    group="cancel",
    app_threads=True,
)
def _cancel_sparse(quick: bool) -> Case:
    return _cancel_case("kfd-sparse", quick)


@scenario(
    "cancel-kfd-lp",
    title="cancel during a linear sparse KFD solve (LP, eq. 14) -> the fit thread has ended",
    baseline="the solve in the fit thread, HiGHS polling the cancel every few iterations",
    target=Target.absolute(0.5),
    group="cancel",
    app_threads=True,
)
def _cancel_lp(quick: bool) -> Case:
    return _cancel_case("kfd-lp", quick)


# The functions that build a kernel matrix (core/kernels.py).
_BUILD_CALLS = frozenset({"_pairwise", "from_sqdist", "from_dot"})


def _in_build(thread: threading.Thread) -> bool:
    """Whether ``thread`` is building a kernel matrix."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None:
        if frame.f_code.co_name in _BUILD_CALLS:
            return True
        frame = frame.f_back
    return False


def _cancel_during_build(request) -> Measured:
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    seconds, ended = _fit_and_cancel(request, _in_build, poll=0.001)
    return Measured(seconds, ended)


@scenario(
    "cancel-kernel-build",
    title="cancel while a 3000-point KPCA fit builds its kernel matrix -> the fit thread has ended",
    baseline="the kernel matrix built as one block: the cancel waits for the whole build",
    target=Target.absolute(0.1),
    group="cancel",
    app_threads=True,
)
def _cancel_build(quick: bool) -> Case:
    n = 800 if quick else 3000
    X, y = two_class_data(n, seed=9)
    request = FitRequest("kpca", {"width": WIDTH, "n_components": 2}, X, y)
    bounds = kernels.BLOCK_VALUES, kernels.CHUNK_BYTES

    def candidate():
        kernels.BLOCK_VALUES, kernels.CHUNK_BYTES = bounds
        return _cancel_during_build(request)

    def baseline():
        # The whole matrix in one block (its temporaries unbounded too).
        kernels.BLOCK_VALUES, kernels.CHUNK_BYTES = n * n, 2**62
        try:
            return _cancel_during_build(request)
        finally:
            kernels.BLOCK_VALUES, kernels.CHUNK_BYTES = bounds

    # As for the solves: the quick run's small build may end before the cancel lands.
    allowed = {"cancelled", "finished"} if quick else {"cancelled"}

    def check(c, b):
        bad = sum(measured.value not in allowed for measured in (c, b))
        return Check.at_most("fits not ended as they should", bad, 0)

    return Case(
        candidate,
        baseline,
        check,
        sizes={"n": n},
        notes="cancelled once the fit thread was inside the kernel build; until it ended",
    )
