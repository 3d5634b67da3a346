"""The fit thread on its own: one outcome per request, stale ones marked, cancels, shutdown."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from kfdviz.pipeline import FitError, FitFailure, FitRequest, FitResult, run_fit
from kfdviz.workers import FitWorker

pytestmark = pytest.mark.gui


def _request(slot="main", **kw):
    X = np.array([[0.0, 0.0], [0.1, 0.3], [1.0, 1.0], [1.2, 0.8]])
    y = np.array([0, 0, 1, 1])
    return FitRequest("kfd", {"width": 1.0}, X, y, slot=slot, **kw)


class SlowRun:
    """A stand-in for run_fit that takes ``seconds`` unless cancelled, and records calls."""

    def __init__(self, seconds=0.3):
        self.seconds = seconds
        self.started: list[int] = []
        self.cancelled: list[int] = []
        self.threads: set[str] = set()

    def __call__(self, request, *, cancel, progress):
        self.started.append(request.request_id)
        self.threads.add(threading.current_thread().name)
        t_end = time.monotonic() + self.seconds
        while time.monotonic() < t_end:
            if cancel():
                from kfdviz.pipeline import FitCancelled

                self.cancelled.append(request.request_id)
                raise FitCancelled()
            progress(0.5, "working")
            time.sleep(0.01)
        return run_fit(request)


def test_results_come_back_on_the_gui_thread_as_data(qtbot):
    worker = FitWorker()
    try:
        with qtbot.waitSignal(worker.outcome, timeout=30_000) as blocker:
            rid = worker.submit(_request())
        result = blocker.args[0]
        assert isinstance(result, FitResult) and result.request_id == rid
        assert worker.is_current(result)
        assert worker.thread.name == "kfdviz-fit-worker" and worker.thread.is_alive()
    finally:
        assert worker.shutdown()
    assert not worker.thread.is_alive()


def test_a_new_request_cancels_the_previous_one_of_its_slot(qtbot):
    run = SlowRun(seconds=2.0)
    worker = FitWorker(run=run)
    outcomes = []
    worker.outcome.connect(outcomes.append)
    try:
        first = worker.submit(_request())
        qtbot.waitUntil(lambda: run.started == [first], timeout=5_000)
        run.seconds = 0.05
        second = worker.submit(_request())
        other = worker.submit(_request(slot="compare-0"))
        qtbot.waitUntil(lambda: len(outcomes) == 3, timeout=30_000)
    finally:
        worker.shutdown()
    by_id = {o.request_id: o for o in outcomes}
    assert isinstance(by_id[first], FitFailure) and by_id[first].cancelled
    assert not worker.is_current(by_id[first])
    assert isinstance(by_id[second], FitResult) and worker.is_current(by_id[second])
    assert isinstance(by_id[other], FitResult) and worker.is_current(by_id[other])
    assert run.threads == {"kfdviz-fit-worker"}  # one thread does all the work


def test_requests_cancelled_while_queued_never_start(qtbot):
    run = SlowRun(seconds=0.5)
    worker = FitWorker(run=run)
    outcomes = []
    worker.outcome.connect(outcomes.append)
    try:
        ids = [worker.submit(_request()) for _ in range(5)]
        qtbot.waitUntil(lambda: len(outcomes) == 5, timeout=30_000)
    finally:
        worker.shutdown()
    assert [o.request_id for o in outcomes] == ids  # exactly one outcome each, in order
    assert set(run.started) <= {ids[0], ids[-1]}
    assert isinstance(outcomes[-1], FitResult)
    assert all(isinstance(o, FitFailure) and o.cancelled for o in outcomes[:-1])


def test_errors_come_back_as_failures_naming_the_parameter(qtbot):
    def failing(request, *, cancel, progress):
        raise FitError("μ must be positive", param="mu")

    worker = FitWorker(run=failing)
    try:
        with qtbot.waitSignal(worker.outcome, timeout=10_000) as blocker:
            worker.submit(_request())
    finally:
        worker.shutdown()
    failure = blocker.args[0]
    assert isinstance(failure, FitFailure) and failure.param == "mu" and not failure.cancelled


def test_an_unexpected_exception_is_reported_and_the_thread_survives(qtbot):
    calls = []

    def flaky(request, *, cancel, progress):
        calls.append(request.request_id)
        if len(calls) == 1:
            raise ZeroDivisionError("boom")
        return run_fit(request)

    worker = FitWorker(run=flaky)
    try:
        with qtbot.waitSignal(worker.outcome, timeout=10_000) as blocker:
            worker.submit(_request())
        assert "ZeroDivisionError" in blocker.args[0].message
        assert "Traceback" in blocker.args[0].detail
        with qtbot.waitSignal(worker.outcome, timeout=30_000) as blocker:
            worker.submit(_request())
        assert isinstance(blocker.args[0], FitResult)
    finally:
        worker.shutdown()


def test_busy_and_progress_signals(qtbot):
    run = SlowRun(seconds=0.3)
    worker = FitWorker(run=run)
    busy = []
    progress = []
    worker.busy_changed.connect(busy.append)
    worker.progress.connect(lambda *a: progress.append(a))
    try:
        with qtbot.waitSignal(worker.outcome, timeout=10_000):
            rid = worker.submit(_request())
        qtbot.waitUntil(lambda: busy == [True, False], timeout=5_000)
    finally:
        worker.shutdown()
    assert progress and all(p[0] == "main" and p[1] == rid for p in progress)
    assert not worker.is_busy()


def test_shutdown_during_a_fit_joins_promptly(qtbot):
    run = SlowRun(seconds=30.0)
    worker = FitWorker(run=run)
    worker.submit(_request())
    qtbot.waitUntil(lambda: bool(run.started), timeout=5_000)
    # The 30-second fit was stopped by its cancel, not waited for: the thread is joined.
    assert worker.shutdown(timeout=30)
    assert run.cancelled == run.started
    assert not worker.thread.is_alive()
    with pytest.raises(RuntimeError):
        worker.submit(_request())


def test_a_followed_fit_runs_to_its_end_and_stays_current(qtbot):
    run = SlowRun(seconds=0.5)
    worker = FitWorker(run=run)
    outcomes = []
    worker.outcome.connect(outcomes.append)
    try:
        first = worker.submit(_request())
        qtbot.waitUntil(lambda: run.started == [first], timeout=5_000)
        run.seconds = 0.05
        # Queued behind the running fit: the second replaces nothing that has started, the third
        # replaces the second, which has not.
        second = worker.submit(_request(), follow=True)
        third = worker.submit(_request(), follow=True)
        qtbot.waitUntil(lambda: len(outcomes) == 3, timeout=30_000)
    finally:
        worker.shutdown()
    by_id = {o.request_id: o for o in outcomes}
    assert [o.request_id for o in outcomes] == [first, second, third]
    assert isinstance(by_id[first], FitResult)  # not cancelled
    assert isinstance(by_id[second], FitFailure) and by_id[second].cancelled
    assert run.started == [first, third]
    assert isinstance(by_id[third], FitResult) and worker.is_current(by_id[third])
    assert not worker.is_current(by_id[second])


def test_the_followed_fit_is_current_when_it_returns(qtbot):
    run = SlowRun(seconds=0.5)
    worker = FitWorker(run=run)
    current = []
    worker.outcome.connect(lambda o: current.append((o.request_id, worker.is_current(o))))
    try:
        first = worker.submit(_request())
        qtbot.waitUntil(lambda: run.started == [first], timeout=5_000)
        second = worker.submit(_request(), follow=True)
        qtbot.waitUntil(lambda: len(current) == 2, timeout=30_000)
    finally:
        worker.shutdown()
    assert current == [(first, True), (second, True)]


def test_cancelling_a_slot_cancels_its_followed_fit(qtbot):
    run = SlowRun(seconds=5.0)
    worker = FitWorker(run=run)
    outcomes = []
    worker.outcome.connect(outcomes.append)
    try:
        first = worker.submit(_request())
        qtbot.waitUntil(lambda: run.started == [first], timeout=5_000)
        worker.submit(_request(), follow=True)
        worker.cancel("main")
        qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=10_000)
    finally:
        worker.shutdown()
    assert all(isinstance(o, FitFailure) and o.cancelled for o in outcomes)
    assert outcomes[0].request_id == first and not worker.is_current(outcomes[0])
