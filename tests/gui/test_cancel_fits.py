"""Cancel and close during long solves, through the real fit worker and the real window.

A long mathematical program (sparse KFD, eq. 12; linear sparse KFD, eq. 14) is solved in a child
process (core/stoppable.py). The tests wait until that child runs, cancel (or shut down, or close
the window) and check what happened, not how long it took: the fit ends as cancelled, the child
was ended by a signal (so the solve did not run to its end, which takes many seconds at these
sizes), and no child process and no fit thread remain.
"""

from __future__ import annotations

import multiprocessing
import threading

import numpy as np
import pytest
from gui_helpers import make_window, press_key
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Slot

from kfdviz.pipeline import FitFailure, FitRequest, FitResult, run_fit
from kfdviz.workers import FitWorker

pytestmark = pytest.mark.gui


def _moons(n, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    upper = rng.random(n) < 0.5
    X = np.where(
        upper[:, None],
        np.column_stack([np.cos(t), np.sin(t)]),
        np.column_stack([1 - np.cos(t), 0.5 - np.sin(t)]),
    )
    return X + 0.2 * rng.standard_normal((n, 2)), upper.astype(int)


def _long_request(algorithm, n=1200):
    X, y = _moons(n)
    return FitRequest(algorithm, {"width": 1.0, "mu": 1e-3}, X, y)


def _solver_child(qtbot):
    """Wait (processing events) until a solve's child process runs; return it."""
    found = []

    def running():
        found[:] = multiprocessing.active_children()
        return bool(found)

    qtbot.waitUntil(running, timeout=120_000)
    assert len(found) == 1 and found[0].name == "kfdviz-solver"
    return found[0]


def _ended_by_a_signal(process) -> bool:
    """Terminated or killed: it did not return an answer."""
    return not process.is_alive() and process.exitcode is not None and process.exitcode < 0


@pytest.mark.parametrize("algorithm", ["kfd-sparse", "kfd-lp"])
def test_cancel_during_a_long_solve_ends_the_fit_and_its_process(qtbot, algorithm):
    worker = FitWorker()
    try:
        rid = worker.submit(_long_request(algorithm))
        child = _solver_child(qtbot)
        with qtbot.waitSignal(worker.outcome, timeout=30_000) as blocker:
            worker.cancel()
        outcome = blocker.args[0]
        assert isinstance(outcome, FitFailure) and outcome.cancelled
        assert outcome.request_id == rid
        assert _ended_by_a_signal(child)
        assert not multiprocessing.active_children()
        qtbot.waitUntil(lambda: not worker.is_busy(), timeout=5_000)
        # The thread is idle, not lost: the next request is fitted.
        with qtbot.waitSignal(worker.outcome, timeout=60_000) as blocker:
            worker.submit(_long_request("kfd-sparse", n=40))
        assert isinstance(blocker.args[0], FitResult)
    finally:
        assert worker.shutdown()


def test_shutdown_during_a_long_solve_joins_the_thread_and_ends_the_process(qtbot):
    worker = FitWorker()
    worker.submit(_long_request("kfd-sparse"))
    child = _solver_child(qtbot)
    assert worker.shutdown()
    assert not worker.thread.is_alive()
    assert _ended_by_a_signal(child)
    assert not multiprocessing.active_children()
    assert worker.thread not in threading.enumerate()


def test_closing_the_window_during_a_long_sparse_fit_leaves_no_thread_or_process(qtbot, settings):
    w = make_window(qtbot, settings)
    press_key(qtbot, w, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)  # live off
    assert not w.fit.live
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData("moons"))
    panel.n_samples.setValue(1500)
    panel.generate.click()
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData("kfd-sparse"))
    w.fit.large_data.approved = True  # this long fit is wanted: no cost banner first
    press_key(qtbot, w, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    child = _solver_child(qtbot)
    thread = w.fit.worker.thread
    w.close()
    assert not thread.is_alive(), "closing the window must stop the fit thread"
    assert _ended_by_a_signal(child)
    assert not multiprocessing.active_children()
    assert all(t.name != "kfdviz-fit-worker" for t in threading.enumerate())


class _Receiver(QObject):
    """A receiver of the worker's outcomes with its own events, as the window is."""

    def __init__(self, worker):
        super().__init__()
        self.worker = worker
        self.got: list[tuple[int, bool]] = []  # (request id, worker busy when it arrived)

    @Slot(object)
    def take(self, outcome) -> None:
        self.got.append((outcome.request_id, self.worker.is_busy()))


def _small_request(slot):
    X = np.array([[0.0, 0.0], [0.1, 0.3], [1.0, 1.0], [1.2, 0.8]])
    return FitRequest("kfd", {"width": 1.0}, X, np.array([0, 0, 1, 1]), slot=slot)


def test_an_outcome_reaches_its_receivers_in_the_step_that_ends_its_request(qtbot):
    # The window's is_settled() asks the worker whether it is busy; had the worker's bookkeeping
    # and the window's handler been separate queued calls, the GUI thread could run the first,
    # find the worker idle and report settled before the window drew the new fit.
    started = threading.Event()
    release = threading.Event()

    def run(request, *, cancel, progress):
        if request.slot == "second":
            started.set()
            release.wait(30)
        return run_fit(request, cancel=cancel, progress=progress)

    worker = FitWorker(run=run)
    receiver = _Receiver(worker)
    worker.outcome.connect(receiver.take)
    try:
        first = worker.submit(_small_request("first"))
        second = worker.submit(_small_request("second"))
        # The thread hands the first outcome over before it starts the second request.
        assert started.wait(30)
        # Deliver only the worker's own queued calls: the receiver must have the outcome too.
        QCoreApplication.sendPostedEvents(worker, QEvent.Type.MetaCall)
        assert receiver.got == [(first, True)]
        release.set()
        qtbot.waitUntil(lambda: len(receiver.got) == 2, timeout=30_000)
        # When the last outcome arrives the worker is already idle, so a receiver that asks
        # whether everything is drawn gets a true answer.
        assert receiver.got[1] == (second, False)
        assert not worker.is_busy()
    finally:
        release.set()
        worker.shutdown()
