"""The solvers the KFD programs go to: HiGHS's simplex for LPs, Clarabel for QPs, each stoppable.

A program reaches a solver as a :class:`Program`,

    min  cost'x + x' diag(hess) x / 2   s.t.   A x = rhs,   lower <= x <= upper,

or, for the LP dual of core/kfd_programs.py, as dense columns with ranged rows. HiGHS runs its
simplex (it ends on a vertex, so an LP's zero coefficients are exactly zero) and Clarabel its
interior point; a program without an optimum raises :class:`ProgramError` naming the solver, its
status and what to change.

Inside a cancel scope (core/stoppable.py) both ask the scope's stop flag at every iteration:
HiGHS through its interrupt callbacks, Clarabel through its termination callback. The check's
exception is raised once the solver has returned, so a solver is never left mid-call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import stoppable
from .highs import quiet_highs


class ProgramError(ValueError):
    """The program could not be solved as posed (infeasible, unbounded, solver failure)."""


@dataclass
class Program:
    """min cost'x + x' diag(hess) x / 2 s.t. A x = rhs, lower <= x <= upper (bounds may be ±inf)."""

    A: sp.csc_array
    rhs: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    cost: np.ndarray
    hess: np.ndarray


_ADVICE = {
    "iterations": "the iteration limit was reached: increase max_iter (or mu)",
    "infeasible": (
        "the program is infeasible: drop the zero-mean constraints or change the kernel/centers"
    ),
    "unbounded": "the program is unbounded: increase mu",
    "numerical": "the solver hit numerical difficulties: increase mu or rescale the targets",
}


def failure(kind: str, reason: str, detail: str) -> ProgramError:
    """The error for a ``kind`` solver ("LP", "Clarabel QP") that ended for ``reason``, one of
    "iterations", "infeasible", "unbounded", "numerical", with the solver's ``detail``."""
    return ProgramError(f"The {kind} solver found no optimum ({detail}); {_ADVICE[reason]}.")


# -- HiGHS ---------------------------------------------------------------------------------------
def new_highs(max_iter: int):
    """A quiet HiGHS instance that solves by the simplex method within ``max_iter`` iterations."""
    highs = quiet_highs()
    highs.setOptionValue("solver", "simplex")
    highs.setOptionValue("simplex_iteration_limit", int(max_iter))
    return highs


def run_highs(highs) -> None:
    """``highs.run()``; inside a cancel scope, interrupted when the scope's check raises.

    HiGHS asks its interrupt callbacks every few simplex iterations (a few milliseconds apart on
    these programs); its presolve and the first factorization come before the first question.
    The check's exception is raised once HiGHS has returned.
    """
    flag = stoppable.stop_flag()
    if flag is None:
        highs.run()
        return

    def poll(event) -> None:
        if flag.requested():
            event.interrupt()

    with stoppable.unprofiled():
        highs.cbSimplexInterrupt += poll
        highs.cbIpmInterrupt += poll
        try:
            highs.run()
        finally:
            highs.cbSimplexInterrupt -= poll
            highs.cbIpmInterrupt -= poll
    flag.raise_kept()


def _check_optimal(highs, *, dual: bool) -> None:
    """Raise :class:`ProgramError` unless HiGHS found an optimum. ``dual``: the LP solved is the
    dual of the program, whose unboundedness is the program's infeasibility and vice versa."""
    import highspy  # a compiled library: loaded when the first program is solved

    model_status = highs.getModelStatus()
    if model_status == highspy.HighsModelStatus.kOptimal:
        return
    status = highspy.HighsModelStatus
    reason = {
        status.kIterationLimit: "iterations",
        status.kInfeasible: "unbounded" if dual else "infeasible",
        status.kUnbounded: "infeasible" if dual else "unbounded",
        status.kUnboundedOrInfeasible: "infeasible",
    }.get(model_status, "numerical")
    raise failure("LP", reason, highs.modelStatusToString(model_status))


def _pass_model(highs, n_col, n_row, cost, lower, upper, row_lower, row_upper, A_csc) -> None:
    import highspy  # a compiled library: loaded when the first program is solved

    status = highs.passModel(
        n_col,
        n_row,
        A_csc.nnz,
        1,  # column-wise matrix
        1,  # minimize
        0.0,
        cost,
        lower,
        upper,
        row_lower,
        row_upper,
        A_csc.indptr.astype(np.int32),
        A_csc.indices.astype(np.int32),
        A_csc.data,
        np.zeros(n_col, dtype=np.int32),
    )
    if status == highspy.HighsStatus.kError:
        raise failure("LP", "numerical", "HiGHS refused the program")


def solve_lp(prog: Program, max_iter: int) -> np.ndarray:
    """The optimal vertex x of the LP ``prog`` (its ``hess`` must be zero), by the dual simplex.

    Through highspy rather than scipy's linprog, so that a cancel can interrupt the simplex.
    """
    A = prog.A.tocsc()
    n_row, n_col = A.shape
    highs = new_highs(max_iter)
    highs.setOptionValue("simplex_strategy", 1)  # dual simplex
    # HiGHS's presolve finds nothing to remove from these dense programs and took 13 s of a
    # 56 s solve on 1500 points (then 8 s more before the first simplex iteration, during which
    # no interrupt is asked); without it the same 5428 iterations reached the same optimum in
    # 33 s, the first interrupt question after 1.6 s.
    highs.setOptionValue("presolve", "off")
    _pass_model(highs, n_col, n_row, prog.cost, prog.lower, prog.upper, prog.rhs, prog.rhs, A)
    run_highs(highs)
    _check_optimal(highs, dual=False)
    return np.asarray(highs.getSolution().col_value, dtype=float)


def solve_ranged_lp(
    columns: np.ndarray,
    cost: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    row_lower: np.ndarray,
    row_upper: np.ndarray,
    max_iter: int,
    *,
    start: Callable | None = None,
    with_basis: bool = False,
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """min cost'x s.t. row_lower <= M x <= row_upper, lower <= x <= upper, by the simplex.

    ``columns`` is M's transpose, dense: one row per variable. ``start(highs)``, when given, is
    called with the HiGHS instance holding the model before it runs (to give it a starting
    basis, :func:`set_basis`). Returns the rows' duals (HiGHS's signs) and, ``with_basis``, the
    optimal basis as status codes of the columns and of the rows (else None). The program is
    taken to be the dual of the one the caller wants: an unbounded result reads infeasible.
    """
    columns = np.asarray(columns, dtype=float)
    n_col, n_row = columns.shape
    highs = new_highs(max_iter)
    # Devex pricing: on these wide, dense programs it took half the time of HiGHS's default.
    highs.setOptionValue("simplex_dual_edge_weight_strategy", 1)
    matrix = sp.csc_array(
        (
            columns.ravel(),
            np.tile(np.arange(n_row, dtype=np.int32), n_col),
            np.arange(0, columns.size + 1, n_row, dtype=np.int32),
        ),
        shape=(n_row, n_col),
    )
    _pass_model(highs, n_col, n_row, cost, lower, upper, row_lower, row_upper, matrix)
    if start is not None:
        start(highs)
    run_highs(highs)
    _check_optimal(highs, dual=True)
    row_dual = np.asarray(highs.getSolution().row_dual, dtype=float)
    codes = None
    if with_basis:
        basis = highs.getBasis()
        codes = (
            np.array([int(v) for v in basis.col_status], dtype=np.int8),
            np.array([int(v) for v in basis.row_status], dtype=np.int8),
        )
    return row_dual, codes


def at_bound_codes(upper: np.ndarray) -> np.ndarray:
    """Basis status codes of non-basic columns: at the upper bound where ``upper``, else lower."""
    import highspy  # a compiled library: loaded when the first program is solved

    status = highspy.HighsBasisStatus
    return np.where(upper, int(status.kUpper), int(status.kLower)).astype(np.int8)


def set_basis(highs, col_codes: np.ndarray, row_codes: np.ndarray) -> None:
    """Give HiGHS a starting basis as status codes (a basis it cannot use it repairs or drops)."""
    import highspy  # a compiled library: loaded when the first program is solved

    to_status = {int(v): v for v in highspy.HighsBasisStatus.__members__.values()}
    basis = highspy.HighsBasis()
    basis.col_status = [to_status[c] for c in np.asarray(col_codes).tolist()]
    basis.row_status = [to_status[c] for c in np.asarray(row_codes).tolist()]
    basis.valid = True
    highs.setBasis(basis)


# -- Clarabel ------------------------------------------------------------------------------------
def solve_qp(prog: Program, max_iter: int) -> tuple[np.ndarray, str]:
    """The optimum x of ``prog`` by Clarabel's interior point and its status: "optimal", or
    "almost solved" (within Clarabel's reduced tolerances, about 1e-5 relative)."""
    import clarabel  # a compiled library: loaded when the first program is solved

    A = prog.A
    n_col = A.shape[1]
    lo = np.flatnonzero(np.isfinite(prog.lower))
    hi = np.flatnonzero(np.isfinite(prog.upper))
    eye = sp.identity(n_col, format="csr")
    # Clarabel's form: A x + s = b with s in a cone; bounds become non-negative slack rows.
    A_all = sp.vstack([A, -eye[lo], eye[hi]], format="csc")
    b_all = np.concatenate([prog.rhs, -prog.lower[lo], prog.upper[hi]])
    cones = [clarabel.ZeroConeT(A.shape[0]), clarabel.NonnegativeConeT(lo.size + hi.size)]
    settings = clarabel.DefaultSettings()
    settings.verbose = False
    settings.max_iter = int(min(max_iter, 10_000))
    # Tighter than the defaults (1e-8): cleanly separates the l1 zeros from small coefficients.
    settings.tol_gap_abs = settings.tol_gap_rel = settings.tol_feas = 1e-10
    solver = clarabel.DefaultSolver(
        sp.diags(prog.hess).tocsc(), prog.cost, A_all, b_all, cones, settings
    )
    flag = stoppable.stop_flag()
    if flag is None:
        sol = solver.solve()
    else:
        # Asked once per interior-point iteration; True stops the solve.
        solver.set_termination_callback(lambda _info: flag.requested())
        with stoppable.unprofiled():
            sol = solver.solve()
        flag.raise_kept()
    status = sol.status
    if status == clarabel.SolverStatus.Solved:
        return np.asarray(sol.x, dtype=float), "optimal"
    if status == clarabel.SolverStatus.AlmostSolved:
        return np.asarray(sol.x, dtype=float), "almost solved"
    reason = {
        clarabel.SolverStatus.MaxIterations: "iterations",
        clarabel.SolverStatus.PrimalInfeasible: "infeasible",
        clarabel.SolverStatus.AlmostPrimalInfeasible: "infeasible",
        clarabel.SolverStatus.DualInfeasible: "unbounded",
        clarabel.SolverStatus.AlmostDualInfeasible: "unbounded",
    }.get(status, "numerical")
    raise failure("Clarabel QP", reason, str(status))


__all__ = [
    "Program",
    "ProgramError",
    "at_bound_codes",
    "failure",
    "new_highs",
    "run_highs",
    "set_basis",
    "solve_lp",
    "solve_qp",
    "solve_ranged_lp",
]
