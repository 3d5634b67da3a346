"""Stoppable solves (core/stoppable.py): the solvers poll a cancel scope's check at each
iteration, and an isolated solve runs in a child process that a cancel terminates.

No timing here: a solve counts as stopped early when its check was asked fewer times than the
uncancelled solve asks it (one question per iteration), or when its child process was ended by a
signal instead of returning an answer.
"""

from __future__ import annotations

import multiprocessing
import os
import threading

import numpy as np
import pytest

from kfdviz.core import stoppable
from kfdviz.core.kernels import Kernel
from kfdviz.core.kfd_programs import ProgramError, solve_kfd_program
from kfdviz.pipeline import CancelToken, FitCancelled, FitRequest, run_fit
from kfdviz.pipeline import run as run_module


class Stop(Exception):
    """What the tests' cancel checks raise."""


class CountingCheck:
    """A cancel check that raises from its ``stop_at``-th question on (never when None)."""

    def __init__(self, stop_at: int | None = None):
        self.stop_at = stop_at
        self.calls = 0

    def __call__(self) -> None:
        self.calls += 1
        if self.stop_at is not None and self.calls >= self.stop_at:
            raise Stop()


def problem(n, seed=0, m=None):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    Z = X if m is None else X[:m]
    return Kernel("rbf", 1.0)(X, Z), y


# The three solver paths with an iteration loop: Clarabel's interior point (squared loss + l1,
# TPAMI eq. 12), HiGHS's dual simplex on the primal LP (eq. 14) and on its dual (eq. 13: many
# more points than centers).
PATHS = {
    "clarabel-qp": dict(n=80, loss="squared"),
    "highs-lp": dict(n=80, loss="absolute"),
    "highs-lp-dual": dict(n=200, m=20, loss="absolute"),
}


@pytest.mark.parametrize("path", list(PATHS))
def test_a_solver_polls_the_check_once_per_iteration_and_stops_when_it_raises(path):
    spec = PATHS[path]
    K, y = problem(spec["n"], m=spec.get("m"))
    kwargs = dict(loss=spec["loss"], regularizer="l1", mu=0.05)
    plain = solve_kfd_program(K, y, **kwargs)

    full = CountingCheck()
    with stoppable.cancel_scope(full):
        polled = solve_kfd_program(K, y, **kwargs)
    assert polled.solver == path
    # Polling changes nothing in the solve.
    np.testing.assert_array_equal(polled.alpha, plain.alpha)
    assert polled.b == plain.b
    assert full.calls >= 6, f"the {path} solve asked its check only {full.calls} times"

    stop_at = 3
    early = CountingCheck(stop_at=stop_at)
    with stoppable.cancel_scope(early), pytest.raises(Stop):
        solve_kfd_program(K, y, **kwargs)
    # Stopped at the iteration whose question raised, long before the full solve's last one.
    assert early.calls == stop_at < full.calls


def test_outside_a_scope_nothing_is_polled_and_no_process_starts():
    K, y = problem(40)
    assert stoppable.current() is None
    sol = solve_kfd_program(K, y, loss="absolute", regularizer="l1", mu=0.05)
    assert sol.solver == "highs-lp"
    assert not multiprocessing.active_children()


def test_scopes_nest_and_belong_to_their_thread():
    outer, inner = CountingCheck(), CountingCheck()
    seen = []
    with stoppable.cancel_scope(outer):
        with stoppable.cancel_scope(inner, isolate=True):
            assert stoppable.current().check is inner and stoppable.current().isolate
            worker = threading.Thread(target=lambda: seen.append(stoppable.current()))
            worker.start()
            worker.join()
        assert stoppable.current().check is outer and not stoppable.current().isolate
    assert stoppable.current() is None
    assert seen == [None]
    with stoppable.cancel_scope(None):  # no check: no scope
        assert stoppable.current() is None


@pytest.mark.parametrize("loss", ["squared", "absolute"])
def test_an_isolated_solve_gives_the_in_thread_solution(loss):
    K, y = problem(60, seed=1)
    kwargs = dict(loss=loss, regularizer="l1", mu=0.05)
    here = solve_kfd_program(K, y, **kwargs)
    with stoppable.cancel_scope(CountingCheck(), isolate=True, blas_threads=1):
        there = solve_kfd_program(K, y, **kwargs)
    assert there.solver == here.solver
    scale = np.abs(here.alpha).max()
    np.testing.assert_allclose(there.alpha, here.alpha, rtol=0, atol=1e-7 * scale)
    assert there.b == pytest.approx(here.b, rel=1e-7, abs=1e-7)
    assert there.objective == pytest.approx(here.objective, rel=1e-9)
    assert not multiprocessing.active_children()


def test_an_isolated_solve_raises_the_childs_error_here():
    K, y = problem(20)
    with stoppable.cancel_scope(CountingCheck(), isolate=True):
        with pytest.raises(ValueError, match="Unknown loss='cubic'"):
            solve_kfd_program(K, y, loss="cubic")
        # An LP the zero-mean rows make infeasible fails there as it would here.
        with pytest.raises(ProgramError):
            solve_kfd_program(
                np.ones((4, 1)),
                np.array([1.0, 1.0, -1.0, -1.0]),
                loss="absolute",
                regularizer="l1",
                groups=np.array([0, 0, 1, 1]),
                mu=1.0,
            )
    assert not multiprocessing.active_children()


def test_a_child_that_dies_without_an_answer_is_reported():
    control = stoppable.SolveControl(CountingCheck())
    with pytest.raises(stoppable.SolverProcessError, match="exit code 3"):
        stoppable.run_isolated(os._exit, 3, control=control)
    assert not multiprocessing.active_children()


def test_a_cancel_terminates_the_isolated_solve_and_leaves_no_process():
    # Seconds of interior-point work on any machine; the check raises on its fourth question
    # (the parent asks every POLL_SECONDS while the child solves).
    K, y = problem(700, seed=2)
    children: list = []

    def check():
        children.extend(c for c in multiprocessing.active_children() if c not in children)
        if check.calls == 3:
            raise Stop()
        check.calls += 1

    check.calls = 0
    with stoppable.cancel_scope(check, isolate=True), pytest.raises(Stop):
        solve_kfd_program(K, y, loss="squared", regularizer="l1", mu=1e-3)
    assert len(children) == 1
    child = children[0]
    assert child.name == "kfdviz-solver"
    # Ended by a signal (terminated), not by returning an answer.
    assert not child.is_alive() and child.exitcode is not None and child.exitcode < 0
    assert not multiprocessing.active_children()


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


def test_the_pipeline_isolates_only_the_long_program_solves():
    def long(algorithm, n):
        X, y = _moons(n)
        request = FitRequest(algorithm, {"width": 1.0, "mu": 1e-3}, X, y)
        spec = run_module.registry.get(algorithm)
        return run_module._long_solve(request, spec, y)

    assert long("kfd-sparse", 1500) and long("kfd-lp", 1500) and long("kfd-qp", 2500)
    assert not long("kfd-sparse", 30) and not long("kfd-lp", 30)
    assert not long("kfd", 2500) and not long("kpca", 2500)  # no program to solve


def test_a_cancelled_long_program_fit_ends_as_cancelled_with_its_solver_process_gone():
    X, y = _moons(1200)
    request = FitRequest("kfd-sparse", {"width": 1.0, "mu": 1e-3}, X, y)
    token = CancelToken()
    children: list = []
    outcome: list = []

    def fit():
        try:
            run_fit(request, cancel=token)
            outcome.append("finished")
        except FitCancelled:
            outcome.append("cancelled")

    thread = threading.Thread(target=fit)
    thread.start()
    try:
        # Wait for the solve's child process, then cancel.
        while not children and thread.is_alive():
            children.extend(multiprocessing.active_children())
            thread.join(0.01)
    finally:
        token.cancel()
        thread.join()
    assert outcome == ["cancelled"]
    assert len(children) == 1 and children[0].exitcode is not None and children[0].exitcode < 0
    assert not multiprocessing.active_children()


class _SlowStartingProcess:
    """Stands in for a child whose start waits (for a fork server still loading)."""

    def __init__(self):
        self.may_start = threading.Event()
        self.pid = None
        self.alive = False
        self.calls: list[str] = []

    def start(self):
        self.may_start.wait(30)
        self.pid, self.alive = 12345, True
        self.calls.append("start")

    def is_alive(self):
        return self.alive

    def terminate(self):
        self.calls.append("terminate")
        self.alive = False

    def kill(self):
        self.calls.append("kill")
        self.alive = False

    def join(self, timeout=None):
        self.calls.append("join")


class _Pipe:
    closed = False

    def close(self):
        self.closed = True


def test_a_cancel_while_the_child_starts_returns_and_the_child_is_ended_once_started():
    process, pipe = _SlowStartingProcess(), _Pipe()
    start = stoppable._Start(process, pipe)
    check = CountingCheck(stop_at=3)
    with pytest.raises(Stop):
        start.wait(check)
    assert process.calls == []  # still starting: the cancel did not wait for it
    assert not start.settle()  # not started, so the starting thread ends it
    process.may_start.set()
    for thread in threading.enumerate():
        if thread.name == "kfdviz-solver-start":
            thread.join(30)
    assert process.calls[:2] == ["start", "terminate"] and process.calls[-1] == "join"
    assert not process.alive and pipe.closed


def test_a_started_child_is_left_to_the_caller_to_end():
    process, pipe = _SlowStartingProcess(), _Pipe()
    process.may_start.set()
    start = stoppable._Start(process, pipe)
    start.wait(CountingCheck())
    assert start.settle()  # the caller ends it
    assert process.calls == ["start"] and pipe.closed
