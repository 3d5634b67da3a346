"""The program formulations' cost model: the solver it prices is the one the fit runs, and its
predictions are large where the measured fits are (docs/performance.md). Nothing is timed here:
predictions are computed at stated rates."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kfdviz.core.kfd_programs import solve_kfd_program
from kfdviz.estimators import program_cost, registry
from kfdviz.estimators.spec import Problem
from kfdviz.pipeline import cost

# The machine the program times were measured on: its one-thread rate, and two BLAS threads for a
# large fit; the kernel values' rate is set high so that the prediction is the solve's.
ONE_THREAD = program_cost.CALIBRATION_FLOPS
CALIBRATION = cost.Rates(flops=2 * ONE_THREAD, kernel_values=1e9, serial_flops=ONE_THREAD)
# A machine with sixteen cores, each twice as fast.
FAST = cost.Rates(flops=32 * ONE_THREAD, kernel_values=2e10, serial_flops=2 * ONE_THREAD)

# Every program fit: (algorithm, parameters) with the solver it reaches.
PROGRAM_FITS = [
    ("kfd-sparse", {}, "qp"),
    ("kfd-lp", {}, "lp"),
    ("kfd-regression", {}, "qp"),
    ("kfd-qp", {"loss": "huber"}, "qp"),
    ("kfd-qp", {"loss": "absolute"}, "qp"),
    ("kfd-lp", {"loss": "epsilon-insensitive"}, "lp"),
    ("kfd-sparse", {"loss": "huber"}, "qp"),
    ("kfd-regression", {"loss": "absolute"}, "lp"),
]
_SOLVER_NAMES = {"closed-form": "closed-form", "highs": "lp", "clarabel": "qp"}


def _solver_kind(name: str) -> str:
    return next(kind for prefix, kind in _SOLVER_NAMES.items() if name.startswith(prefix))


@pytest.mark.parametrize("loss", ["squared", "absolute", "epsilon-insensitive", "huber"])
@pytest.mark.parametrize("regularizer", ["l1", "l2", "rkhs"])
@pytest.mark.parametrize("mu", [0.0, 0.1])
def test_the_priced_solver_is_the_one_the_program_runs(loss, regularizer, mu):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(24, 2))
    K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    solution = solve_kfd_program(K, y, loss=loss, regularizer=regularizer, mu=mu, Kzz=K)
    assert _solver_kind(solution.solver) == program_cost.program_solver(loss, regularizer, mu)


def _estimate(algorithm, params, n, rates, d=2):
    d = 1 if algorithm == "kfd-regression" else d
    return cost.estimate(algorithm, params, n, d, resolution=0, rates=rates, spectrum=False)


@pytest.mark.parametrize(("algorithm", "params", "solver"), PROGRAM_FITS)
def test_program_fits_of_a_thousand_points_and_more_ask_first(algorithm, params, solver):
    spec = registry.get(algorithm)
    work = spec.cost.work(Problem(100, 2, 2, params, 0))
    assert work.serial_flops == pytest.approx(
        program_cost.program_seconds(solver, 100, 100) * program_cost.CALIBRATION_FLOPS
    ), "priced as the solver the fit runs"
    # At the calibration machine's rates the solve is predicted to take the measured model's time.
    e = _estimate(algorithm, params, 1000, CALIBRATION)
    assert e.parts["linear algebra"] == pytest.approx(
        program_cost.program_seconds(solver, 1000, 1000)
    )
    for n in (1000, 1200, 1500):
        assert _estimate(algorithm, params, n, CALIBRATION).large, n
    for n in (50, 100, 200):
        assert not _estimate(algorithm, params, n, CALIBRATION).large, n
    if solver == "qp":  # the interior point's fits are long on any machine: one core solves
        assert _estimate(algorithm, params, 1200, FAST).large
        assert not _estimate(algorithm, params, 200, FAST).large


@pytest.mark.parametrize("solver", ["qp", "lp"])
def test_predictions_grow_with_n_as_the_measured_exponent(solver):
    _, exponent = program_cost.PROGRAM_TIMES[solver]
    algorithm = "kfd-sparse" if solver == "qp" else "kfd-lp"
    seconds = {
        n: _estimate(algorithm, {}, n, CALIBRATION).parts["linear algebra"]
        for n in (200, 400, 800, 1600)
    }
    for n in (200, 400, 800):
        assert seconds[2 * n] / seconds[n] == pytest.approx(2.0**exponent, rel=1e-9)
    # Over a subset of m centers the solve grows as (m^2 n)^(p / 3).
    p = Problem(2000, 2, 2, {"n_centers": 300}, 0)
    whole = Problem(2000, 2, 2, {}, 0)
    ratio = (
        program_cost.program_work(p, solver).serial_flops
        / program_cost.program_work(whole, solver).serial_flops
    )
    assert ratio == pytest.approx((300**2 * 2000 / 2000**3) ** (exponent / 3.0), rel=1e-9)
    assert 2.0 <= exponent <= 3.5  # interior-point and simplex fits: between n^2 and n^3.5


def test_the_squared_loss_kfd_is_priced_as_its_closed_form():
    closed = _estimate("kfd-qp", {}, 1500, CALIBRATION)
    program = _estimate("kfd-qp", {"loss": "huber"}, 1500, CALIBRATION)
    assert registry.get("kfd-qp").cost.work(Problem(1500, 2, 2, {}, 0)).flops == pytest.approx(
        program_cost.CLOSED_FORM_FLOPS * (1500**3 + 1500**3 / 3.0)
    )
    assert closed.seconds < cost.WARN_SECONDS < program.seconds
    # A gram regularizer is still a quadratic one: the closed form.
    gram = _estimate("kfd-qp", {"regularizer": "gram"}, 1500, CALIBRATION)
    assert gram.parts["linear algebra"] == pytest.approx(closed.parts["linear algebra"])


def test_mu_zero_and_unreadable_mu():
    # mu = 0 leaves the squared loss without a regularizer: a least-squares solve.
    assert program_cost.program_solver("squared", "l1", 0.0) == "closed-form"
    assert program_cost.program_solver("squared", "l1", 1e-3) == "qp"
    p = Problem(500, 2, 2, {"mu": "not a number"}, 0)
    assert math.isfinite(registry.get("kfd-sparse").cost.work(p).flops)
