"""What a fit of the program formulations costs: the solver it reaches and that solver's work.

:func:`kfdviz.core.kfd_programs.solve_kfd_program` (solver "auto") solves the squared loss with
a quadratic regularizer (l2, rkhs) or none in closed form (a dense normal-equation solve), a linear
loss (absolute, ε-insensitive) with l1 or no regularizer as a linear program (HiGHS), and every
other pair as a quadratic program (Clarabel's interior point). :func:`program_solver` makes the
same choice from the parameters, so the price follows the solver the fit will run.

The two programs' times do not follow a flop count: their iteration counts depend on the data,
and their factorizations are sparse-matrix code on a dense kernel block, far below the rate of a
matrix product. They are measured instead (docs/performance.md): the CPU seconds of one fit with
one BLAS thread, n = 150 to 1400 training points expanded over all of them, fitted by
``seconds = a (m^2 n)^(p/3)`` (m expansion points; ``n^p`` when m = n). The solvers run on one
core whatever the BLAS threads, so the work is stated as ``Work.serial_flops``: the seconds at
the one-thread matrix-product rate measured beside them (:data:`CALIBRATION_FLOPS`), which the
one-thread rate of the machine at hand (kfdviz.pipeline.cost) turns into that machine's seconds.
No Qt here.
"""

from __future__ import annotations

from .spec import CostModel, Problem, Work

# The single-thread rate of a 500 x 500 matrix product (flops per CPU second) on the machine
# where the program times were measured; a program's work is its measured seconds at this rate.
CALIBRATION_FLOPS = 6.8e10
# seconds = a * (m^2 n)^(p / 3) of each program: least squares in log-log over the fits of
# 300 to 1400 points (docs/performance.md); every one measured within a factor of two of it.
PROGRAM_TIMES = {
    "qp": (2.88e-8, 2.81),  # Clarabel: sparse KFD, regression, Huber and absolute loss with l2
    "lp": (1.65e-7, 2.37),  # HiGHS: absolute and epsilon-insensitive loss with l1
}
# The closed form: the normal matrix K'K (m^2 n flops, a symmetric product) and its Cholesky
# factor (m^3 / 3); ill-conditioned normal equations (small mu) fall back to an orthogonal
# least-squares solve of the stacked system, a few times that.
CLOSED_FORM_FLOPS = 4.0

LINEAR_LOSSES = ("absolute", "epsilon-insensitive")
QUADRATIC_REGULARIZERS = ("l2", "rkhs")


def program_solver(loss: str, regularizer: str, mu: float) -> str:
    """The solver ``solve_kfd_program`` picks ("auto") for this loss, regularizer and weight μ:
    "closed-form", "lp" or "qp"."""
    quadratic = regularizer in QUADRATIC_REGULARIZERS and mu > 0
    if loss == "squared" and (quadratic or mu == 0):
        return "closed-form"
    if loss in LINEAR_LOSSES and not quadratic:
        return "lp"
    return "qp"


def program_seconds(solver: str, n: int, m: int) -> float:
    """The measured model's CPU seconds of the program ``solver`` ("qp" or "lp") on n training
    points over m expansion points, on the calibration machine."""
    a, p = PROGRAM_TIMES[solver]
    return a * (float(m) * m * n) ** (p / 3.0)


def _centers(p: Problem) -> int:
    n_centers = p.params.get("n_centers")
    return min(int(n_centers), p.n) if n_centers else p.n


def program_work(p: Problem, solver: str) -> Work:
    """One program fit over m expansion points: the n x m cross-Gram and three evaluations at
    the training points (outputs, labels, embedding) are kernel values; the solve is flops."""
    n, m = p.n, _centers(p)
    kernel_values, peak_bytes = 4.0 * m * n, 8.0 * (3.0 * m * n + 2.0 * m * m)
    if solver == "closed-form":
        flops = CLOSED_FORM_FLOPS * (m * m * n + m**3 / 3.0)
        return Work(kernel_values, flops, peak_bytes, m)
    serial_flops = program_seconds(solver, n, m) * CALIBRATION_FLOPS
    return Work(kernel_values, 0.0, peak_bytes, m, serial_flops=serial_flops)


def _mu(p: Problem) -> float:
    """μ as given; an absent or unreadable one counts as positive (every default is)."""
    try:
        return float(p.param("mu", 1.0))
    except (TypeError, ValueError):
        return 1.0


def kfd_program_cost(formulation: str) -> CostModel:
    """The cost model of the KFD ``formulation`` ("qp", "sparse", "linear-sparse"), whose loss
    and regularizer follow the estimator's (``KernelFisherDiscriminant._solve_program``)."""
    default_loss = "absolute" if formulation == "linear-sparse" else "squared"

    def work(p: Problem) -> Work:
        if formulation in ("sparse", "linear-sparse"):
            regularizer = "l1"
        else:
            regularizer = "rkhs" if p.param("regularizer", "identity") == "gram" else "l2"
        solver = program_solver(str(p.param("loss", default_loss)), regularizer, _mu(p))
        return program_work(p, solver)

    return CostModel(work, iterative=True)


def regression_work(p: Problem) -> Work:
    """The KFD regression's program: its loss and regularizer are its own parameters."""
    loss = str(p.param("loss", "squared"))
    solver = program_solver(loss, str(p.param("regularizer", "l1")), _mu(p))
    return program_work(p, solver)


REGRESSION_COST = CostModel(regression_work, iterative=True)

__all__: list[str] = [
    "CALIBRATION_FLOPS",
    "PROGRAM_TIMES",
    "REGRESSION_COST",
    "kfd_program_cost",
    "program_seconds",
    "program_solver",
    "program_work",
]
