"""A cancel scope ends with its block, even when the cancel that ends the block is raised by the
per-call hook (``interruptible``) at every Python call, the scope's own exit included."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from kfdviz.core import stoppable
from kfdviz.pipeline import CancelToken, FitCancelled, FitRequest, run_fit
from kfdviz.pipeline.request import interruptible


class Stop(Exception):
    pass


def _python_call() -> int:
    return 1


def test_a_hooked_cancel_leaves_no_scope_behind():
    cancelled = [False]

    def check():
        if cancelled[0]:
            raise Stop

    with pytest.raises(Stop):
        with interruptible(check), stoppable.cancel_scope(check, isolate=True):
            assert stoppable.current().check is check
            cancelled[0] = True
            _python_call()  # the hook raises here, and again at every call on the way out
    assert stoppable.current() is None
    # As a solver's call raises it: with the hook suspended, restored on the way out.
    cancelled[0] = False
    with pytest.raises(Stop):
        with interruptible(check), stoppable.cancel_scope(check, isolate=True):
            with stoppable.unprofiled():
                cancelled[0] = True
                check()
    assert stoppable.current() is None


def test_no_check_opens_no_scope():
    with stoppable.cancel_scope(None):
        assert stoppable.current() is None


def _two_class(n, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    return rng.normal(size=(n, 2)) + 2.0 * y[:, None], y


def test_after_a_cancelled_program_fit_the_next_fit_on_the_thread_is_not_cancelled():
    # The first fit's scope, left behind, held its (cancelled) check: the next fit's kernel
    # evaluations after its own scope would ask it and be cancelled.
    X, y = _two_class(300)
    first = FitRequest("kfd-sparse", {"width": 1.0, "mu": 1e-3}, X, y)
    X2, y2 = _two_class(40, seed=1)
    second = FitRequest("kfd-sparse", {"width": 1.0, "mu": 1e-3}, X2, y2)
    outcomes = []

    latch = [False]

    def cancel() -> bool:
        # Set once asked with the per-call hook suspended: by the solve, inside the fit's scope.
        inside_solve = sys.getprofile() is None and stoppable.current() is not None
        latch[0] = latch[0] or inside_solve
        return latch[0]

    def fits():
        try:
            run_fit(first, cancel=cancel)
            outcomes.append("finished")
        except FitCancelled:
            outcomes.append("cancelled")
        outcomes.append(stoppable.current())
        result = run_fit(second, cancel=CancelToken())
        outcomes.append(result.algorithm)

    thread = threading.Thread(target=fits)
    thread.start()
    thread.join()
    assert outcomes == ["cancelled", None, "kfd-sparse"]
