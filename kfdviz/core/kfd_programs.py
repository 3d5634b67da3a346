"""KFD as a mathematical program: TPAMI eqs. (9), (11), (12), (14) and NIPS 2000's program (4).

    min_{alpha, b, xi}  L(xi) + mu * Omega(alpha)
    subject to          Kxz alpha + 1 b = y - xi,
                        1_g' xi = 0 for every group g          (NIPS 2000, (4b); optional)

with Kxz[i, j] = k(x_i, z_j) over n training points and m expansion points. Losses (NIPS 2000,
Table 1): "squared" ||xi||^2 (Gaussian noise), "absolute" ||xi||_1 (Laplacian),
"epsilon-insensitive" sum max(0, |xi_i| - epsilon), "huber" sum xi^2/(2 delta) for |xi| <= delta
and |xi| - delta/2 beyond. Regularizers: "l2" ||alpha||^2 (eq. 11), "rkhs" ||w||^2 = alpha' Kzz alpha,
"l1" ||alpha||_1 (eq. 12). Every combination is convex; each goes to the solver that suits it:

- squared + l2/rkhs: an equality-constrained least-squares problem, solved exactly as a linear
  system (Cholesky of the normal equations with a Schur complement for the group constraints; an
  orthogonal least-squares solve when that matrix is singular). No iterations, no tolerances.
- absolute or epsilon-insensitive + l1 (LSKFD, eq. 14): a linear program, given to HiGHS (dual
  simplex, through highspy) with a sparse constraint matrix and alpha split as alpha+ - alpha-. A
  simplex ends on a vertex, so the removed coefficients are exactly zero. With many more points
  than centers (eq. 13) the absolute loss goes as its LP dual, started from the optimal basis of
  the same program on a part of the points.
- every other combination (SKFD: squared + l1, eq. 12; Huber; a linear loss with a quadratic
  regularizer): a convex QP with a diagonal Hessian, given to Clarabel, a maintained interior-point
  solver. For squared loss the n residual rows are first folded into at most m + 1 rows by a QR
  factorization, so the QP does not grow with n. Coefficients the l1 penalty removes come out of an
  interior point at ~1e-10 of the largest and are set to exactly zero (below ``zero_tol``).
- squared + l1 without class groups is also a Lasso with an unpenalized intercept:
  ``solver="lasso"`` hands it to scikit-learn's coordinate descent (kept for comparison; on the
  strongly correlated columns of a wide Gaussian kernel coordinate descent needs very many sweeps
  to reach the accuracy of the interior point).

This module holds the formulations; the solvers' call sites are in core/program_solvers.py.
Inside a cancel scope (core/stoppable.py) HiGHS and Clarabel poll the scope's cancel check at
every iteration, and a solve the caller predicts long runs whole in a child process that a
cancel terminates.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Lasso

from . import stoppable
from .eigen import extreme_eigenvalues, symmetric_eigh
from .program_solvers import (
    Program,
    ProgramError,
    at_bound_codes,
    set_basis,
    solve_lp,
    solve_qp,
    solve_ranged_lp,
)

LOSSES = ("squared", "absolute", "epsilon-insensitive", "huber")
REGULARIZERS = ("l2", "rkhs", "l1")
SOLVERS = ("auto", "closed-form", "clarabel", "lasso")

# Losses that are piecewise linear in xi, so that with an l1 (or no) regularizer the program is an LP.
_LINEAR_LOSSES = ("absolute", "epsilon-insensitive")


@dataclass(frozen=True)
class ProgramSolution:
    alpha: np.ndarray  # (m,) expansion coefficients over the centers
    b: float  # offset
    xi: np.ndarray  # (n,) residuals y - (K alpha + b)
    objective: float  # the program's objective, recomputed from alpha, b, xi
    sparsity: float  # fraction of |alpha| <= zero_tol * max|alpha|
    solver: str  # "closed-form", "highs-lp", "clarabel-qp", "lasso-cd"
    status: str
    warnings: tuple[str, ...]


# -- objective pieces ---------------------------------------------------------------------------


def loss_value(
    xi: np.ndarray, loss: str, *, epsilon: float = 0.1, huber_delta: float = 1.0
) -> float:
    """L(xi) of the program (not averaged)."""
    a = np.abs(xi)
    if loss == "squared":
        return float(xi @ xi)
    if loss == "absolute":
        return float(a.sum())
    if loss == "epsilon-insensitive":
        return float(np.maximum(a - epsilon, 0.0).sum())
    if loss == "huber":
        quad = a <= huber_delta
        return float(
            (xi[quad] ** 2).sum() / (2.0 * huber_delta) + (a[~quad] - huber_delta / 2.0).sum()
        )
    raise ValueError(f"Unknown loss={loss!r}: choose one of {', '.join(LOSSES)}.")


def regularizer_value(alpha: np.ndarray, regularizer: str, Kzz: np.ndarray | None = None) -> float:
    """Omega(alpha)."""
    if regularizer == "l2":
        return float(alpha @ alpha)
    if regularizer == "l1":
        return float(np.abs(alpha).sum())
    if regularizer == "rkhs":
        return float(alpha @ Kzz @ alpha)
    raise ValueError(
        f"Unknown regularizer={regularizer!r}: choose one of {', '.join(REGULARIZERS)}."
    )


def sparsity_of(alpha: np.ndarray, zero_tol: float) -> float:
    """Fraction of coefficients counted as zero, relative to the largest one (the papers' tables)."""
    if alpha.size == 0:
        return 1.0
    top = np.max(np.abs(alpha))
    if top == 0.0:
        return 1.0
    return float(np.mean(np.abs(alpha) <= zero_tol * top))


# -- input checks -------------------------------------------------------------------------------


def _check_inputs(
    Kxz,
    targets,
    Kzz,
    groups,
    loss,
    regularizer,
    mu,
    epsilon,
    huber_delta,
    zero_tol,
    max_iter,
    tol,
    solver,
):
    Kxz = np.asarray(Kxz, dtype=float)
    y = np.asarray(targets, dtype=float)
    if Kxz.ndim != 2 or Kxz.shape[0] < 1 or Kxz.shape[1] < 1:
        raise ValueError(f"Kxz must be a non-empty 2-D (n, m) array, got shape {Kxz.shape}.")
    n, m = Kxz.shape
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"targets must have shape ({n},) to match Kxz {Kxz.shape}, got {y.shape}.")
    if not np.all(np.isfinite(Kxz)):
        raise ValueError("Kxz contains NaN or infinite values.")
    if not np.all(np.isfinite(y)):
        raise ValueError("targets contain NaN or infinite values.")
    if loss not in LOSSES:
        raise ValueError(f"Unknown loss={loss!r}: choose one of {', '.join(LOSSES)}.")
    if regularizer not in REGULARIZERS:
        raise ValueError(
            f"Unknown regularizer={regularizer!r}: choose one of {', '.join(REGULARIZERS)}."
        )
    if solver not in SOLVERS:
        raise ValueError(f"Unknown solver={solver!r}: choose one of {', '.join(SOLVERS)}.")
    for name, value in (("mu", mu), ("epsilon", epsilon), ("zero_tol", zero_tol)):
        if not (isinstance(value, int | float | np.number) and np.isfinite(value) and value >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {name}={value!r}.")
    if not (np.isfinite(huber_delta) and huber_delta > 0):
        raise ValueError(f"huber_delta must be a positive number, got huber_delta={huber_delta!r}.")
    if not (int(max_iter) == max_iter and max_iter >= 1):
        raise ValueError(f"max_iter must be a whole number >= 1, got max_iter={max_iter!r}.")
    if not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol must be a positive number, got tol={tol!r}.")
    if regularizer == "rkhs":
        if Kzz is None:
            raise ValueError(
                "regularizer='rkhs' penalizes alpha' Kzz alpha: pass Kzz, the (m, m) kernel matrix "
                "of the centers."
            )
        Kzz = np.asarray(Kzz, dtype=float)
        if Kzz.shape != (m, m):
            raise ValueError(f"Kzz must have shape ({m}, {m}) to match Kxz, got {Kzz.shape}.")
        if not np.all(np.isfinite(Kzz)):
            raise ValueError("Kzz contains NaN or infinite values.")
        scale = max(np.max(np.abs(Kzz)), 1.0)
        if not np.allclose(Kzz, Kzz.T, rtol=0.0, atol=1e-10 * scale):
            raise ValueError("Kzz must be symmetric (a kernel matrix of the centers).")
        lowest = extreme_eigenvalues(Kzz, 1, largest=False, name="Kzz")[0]
        if lowest < -1e-8 * scale:
            raise ValueError(
                f"Kzz has a negative eigenvalue ({lowest:.3g}): with regularizer='rkhs' the "
                "program would not be convex. Use a positive semi-definite kernel or "
                "regularizer='l2'."
            )
    label_index = None
    if groups is not None:
        groups = np.asarray(groups)
        if groups.shape != (n,):
            raise ValueError(
                f"groups must have shape ({n},), one label per point, got {groups.shape}."
            )
        if groups.dtype.kind == "f" and not np.all(np.isfinite(groups)):
            raise ValueError("groups contain NaN or infinite values.")
        _, label_index = np.unique(groups, return_inverse=True)
    return Kxz, y, Kzz, label_index


def _group_matrix(label_index: np.ndarray | None, n: int) -> sp.csr_array | None:
    """G x n indicator rows 1_g' of the zero-mean constraints."""
    if label_index is None:
        return None
    G = int(label_index.max()) + 1
    return sp.csr_array((np.ones(n), (label_index, np.arange(n))), shape=(G, n))


def _psd_root(Kzz: np.ndarray) -> np.ndarray:
    """R with R'R = Kzz, rows the scaled eigenvectors (Kzz was checked to be semi-definite)."""
    s, V = symmetric_eigh(Kzz, name="Kzz")
    # Keep every positive eigenvalue: a direction whose penalty were dropped while K still acts on
    # it (however weakly) would be left unregularized, and a least-squares solve blows it up.
    keep = s > 0
    return np.sqrt(s[keep])[:, None] * V[:, keep].T


# -- the solver -----------------------------------------------------------------------------------


def solve_kfd_program(
    Kxz,
    targets,
    *,
    loss: str = "squared",
    regularizer: str = "l2",
    mu: float = 1e-3,
    Kzz=None,
    groups=None,
    epsilon: float = 0.1,
    huber_delta: float = 1.0,
    zero_tol: float = 1e-6,
    max_iter: int = 100_000,
    tol: float = 1e-9,
    solver: str = "auto",
) -> ProgramSolution:
    """Solve min L(xi) + mu Omega(alpha) s.t. Kxz alpha + 1 b = y - xi (and 1_g' xi = 0).

    ``groups``: None, or one label per training point; each distinct label g adds the zero-mean
    constraint 1_g' xi = 0 (classes for KFD, one group of all points for regression).
    ``solver``: "auto" picks as described in the module docstring; "clarabel" forces the QP solver
    (also for squared + l2 and the LPs, for comparisons); "lasso" sends squared + l1 without groups
    to coordinate descent; "closed-form" only applies to squared + l2/rkhs.
    ``max_iter``/``tol`` bound the iterative solvers (coordinate descent sweeps and its duality-gap
    tolerance relative to ||y||^2, HiGHS iterations); the closed form ignores them.
    Raises ProgramError (a ValueError) when the program is infeasible or a solver fails.

    Inside a :func:`kfdviz.core.stoppable.cancel_scope` the solvers poll its cancel check, whose
    exception then propagates; with ``isolate`` the whole solve runs in a child process.
    """
    control = stoppable.current()
    if control is not None and control.isolate:
        # The child has no scope: it solves in its own thread, and a cancel terminates it.
        return stoppable.run_isolated(
            solve_kfd_program,
            Kxz,
            targets,
            control=control,
            loss=loss,
            regularizer=regularizer,
            mu=mu,
            Kzz=Kzz,
            groups=groups,
            epsilon=epsilon,
            huber_delta=huber_delta,
            zero_tol=zero_tol,
            max_iter=max_iter,
            tol=tol,
            solver=solver,
        )
    Kxz, y, Kzz, label_index = _check_inputs(
        Kxz,
        targets,
        Kzz,
        groups,
        loss,
        regularizer,
        mu,
        epsilon,
        huber_delta,
        zero_tol,
        max_iter,
        tol,
        solver,
    )
    mu = float(mu)
    n = Kxz.shape[0]
    # Squared loss with a free offset already gives 1'xi = 0 at the optimum (the normal equation of
    # b), so a single group holding every point adds nothing and the program stays a Lasso.
    if label_index is not None and loss == "squared" and label_index.max() == 0:
        label_index = None
    C = _group_matrix(label_index, n)

    quadratic_reg = regularizer in ("l2", "rkhs") and mu > 0
    if solver == "closed-form" and not (loss == "squared" and (quadratic_reg or mu == 0)):
        raise ValueError("solver='closed-form' applies to squared loss with l2/rkhs only.")
    if solver == "lasso" and not (loss == "squared" and regularizer == "l1" and C is None):
        raise ValueError("solver='lasso' applies to squared loss + l1 without class groups only.")
    if solver == "clarabel":
        alpha, b, name, status, notes = _solve_qp(
            Kxz, y, C, mu, loss, regularizer, Kzz, epsilon, huber_delta, max_iter, zero_tol
        )
    elif loss == "squared" and (quadratic_reg or mu == 0):
        alpha, b, name, status, notes = _solve_least_squares(Kxz, y, C, mu, regularizer, Kzz)
    elif loss in _LINEAR_LOSSES and not quadratic_reg:
        alpha, b, name, status, notes = _solve_lp(Kxz, y, C, mu, loss, epsilon, max_iter)
    elif solver == "lasso":
        alpha, b, name, status, notes = _solve_lasso(Kxz, y, mu, max_iter, tol)
    else:
        alpha, b, name, status, notes = _solve_qp(
            Kxz, y, C, mu, loss, regularizer, Kzz, epsilon, huber_delta, max_iter, zero_tol
        )

    xi = y - (Kxz @ alpha + b)
    notes = list(notes)
    if C is not None:
        violation = np.max(np.abs(C @ xi))
        if violation > 1e-6 * max(1.0, np.max(np.abs(y))) * np.sqrt(n):
            notes.append(f"zero-mean constraints violated by up to {violation:.2e}")
    objective = loss_value(xi, loss, epsilon=epsilon, huber_delta=huber_delta)
    if mu > 0:
        objective += mu * regularizer_value(alpha, regularizer, Kzz)
    return ProgramSolution(
        alpha=alpha,
        b=float(b),
        xi=xi,
        objective=float(objective),
        sparsity=sparsity_of(alpha, zero_tol),
        solver=name,
        status=status,
        warnings=tuple(notes),
    )


# -- squared loss, quadratic regularizer: a linear system ------------------------------------------


def _solve_least_squares(Kxz, y, C, mu, regularizer, Kzz):
    """min ||y - A theta||^2 + theta' P theta s.t. E theta = d, theta = (alpha, b), A = [K 1]."""
    n, m = Kxz.shape
    ones = np.ones(n)
    # Normal matrix A'A + P, assembled blockwise so that A = [K 1] is never copied.
    H = np.empty((m + 1, m + 1))
    H[:m, :m] = Kxz.T @ Kxz
    H[:m, m] = H[m, :m] = Kxz.sum(axis=0)
    H[m, m] = n
    if mu > 0:
        H[:m, :m] += mu * (np.eye(m) if regularizer != "rkhs" else Kzz)
    g = np.concatenate([Kxz.T @ y, [y.sum()]])
    if C is not None:
        E = np.column_stack([(C @ Kxz), C @ ones])  # rows 1_g' A
        d = C @ y
    notes: list[str] = []
    try:
        factor = sla.cho_factor(H, lower=True)
        diag = np.abs(np.diag(factor[0]))
        # The Cholesky diagonal bounds the conditioning from below; beyond ~1/sqrt(eps) squared the
        # normal equations lose the digits an orthogonal solve keeps.
        if diag.min() <= 1e-7 * diag.max():
            raise np.linalg.LinAlgError("ill-conditioned normal equations")
        if C is None:
            theta = sla.cho_solve(factor, g)
        else:
            Hg = sla.cho_solve(factor, g)
            HE = sla.cho_solve(factor, E.T)
            S = E @ HE
            lam = np.linalg.lstsq(S, E @ Hg - d, rcond=None)[0]
            theta = Hg - HE @ lam
            _check_feasible(E, theta, d)
        return theta[:m], theta[m], "closed-form", "optimal (Cholesky)", notes
    except np.linalg.LinAlgError:
        pass
    # Singular or ill-conditioned: a least-squares solve on the stacked system [A; P^1/2] over the
    # null space of the constraints. It picks the minimum-norm one among equally good optima.
    if mu > 0:
        root = np.eye(m) if regularizer != "rkhs" else _psd_root(Kzz)
        P_half = np.column_stack([np.sqrt(mu) * root, np.zeros(root.shape[0])])
    else:
        P_half = np.zeros((0, m + 1))
    B = np.vstack([np.column_stack([Kxz, ones]), P_half])
    t = np.concatenate([y, np.zeros(P_half.shape[0])])
    if C is None:
        theta = np.linalg.lstsq(B, t, rcond=None)[0]
    else:
        theta0 = np.linalg.lstsq(E, d, rcond=None)[0]
        _check_feasible(E, theta0, d)
        N = sla.null_space(E)
        eta = np.linalg.lstsq(B @ N, t - B @ theta0, rcond=None)[0]
        theta = theta0 + N @ eta
    notes.append(
        "the normal equations are singular or ill-conditioned; solved by orthogonal least squares "
        "(the optimum may not be unique: increase mu for a unique one)"
    )
    return theta[:m], theta[m], "closed-form", "optimal (least squares)", notes


def _check_feasible(E, theta, d):
    residual = np.max(np.abs(E @ theta - d)) if d.size else 0.0
    if residual > 1e-8 * max(1.0, np.max(np.abs(d)), np.max(np.abs(E))):
        raise ProgramError(
            "The zero-mean constraints 1_g' xi = 0 cannot all hold: the groups' mean kernel rows "
            "coincide on the span of the centers (e.g. classes with equal means in feature space). "
            "Drop the constraints (zero_mean_constraints=False), or change the kernel or centers."
        )


# -- coordinate descent (scikit-learn's Lasso) ------------------------------------------------------


def _solve_lasso(Kxz, y, mu, max_iter, tol):

    n = Kxz.shape[0]
    # Lasso minimizes ||y - X w - c||^2 / (2n) + a ||w||_1 with a free intercept c: our objective
    # divided by 2n, so a = mu / (2n). Its tol is a duality gap relative to ||y - mean(y)||^2.
    model = Lasso(
        alpha=mu / (2.0 * n),
        fit_intercept=True,
        precompute=True,
        max_iter=int(max_iter),
        tol=tol,
        selection="cyclic",
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        model.fit(Kxz, y)
    notes = []
    if any(issubclass(w.category, ConvergenceWarning) for w in caught):
        gap = float(np.atleast_1d(model.dual_gap_)[0]) * 2.0 * n
        message = (
            f"coordinate descent stopped after {model.n_iter_} sweeps with duality gap {gap:.2e} "
            "(objective units): increase max_iter or tol, increase mu, or leave solver='auto'"
        )
        warnings.warn(message, ConvergenceWarning, stacklevel=3)
        notes.append(message)
        status = "not converged"
    else:
        status = "optimal"
    return model.coef_.astype(float), float(model.intercept_), "lasso-cd", status, notes


# -- LPs and QPs: one builder, several front ends ----------------------------------------------------


@dataclass
class _Block:
    size: int
    lower: float | np.ndarray
    upper: float | np.ndarray
    cost: float
    hess: float  # diagonal Hessian entry (the solvers minimize c'x + x'Qx/2)


@dataclass
class _Program:
    """A program in the solvers' form, and where alpha and b are among its variables."""

    form: Program
    alpha_slices: tuple[slice, ...]  # alpha = x[s0] (- x[s1] when split)
    b_index: int

    def unpack(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        alpha = x[self.alpha_slices[0]].copy()
        if len(self.alpha_slices) == 2:
            alpha -= x[self.alpha_slices[1]]
        return alpha, float(x[self.b_index])


def _design(Kxz, y, C, loss):
    """Rows (Kd, cd, yd) with Kd alpha + cd b + xi_d = yd, and the group rows E theta = d.

    The zero-mean constraints 1_g' xi = 0 are written on theta = (alpha, b): with xi = y - A theta
    they read (1_g' A) theta = 1_g' y. For squared loss the n residual rows are replaced by the
    min(n, m + 1) rows of a QR factorization, A = QR:
    ||y - A theta||^2 = ||Q'y - R theta||^2 + (||y||^2 - ||Q'y||^2) exactly. The QP then does not
    grow with n, and its triangular rows factorize faster inside the interior point than K's.
    """
    n, m = Kxz.shape
    ones = np.ones(n)
    E = d = None
    if C is not None:
        E = np.column_stack([C @ Kxz, C @ ones])
        d = C @ y
    if loss == "squared":
        Q, R = np.linalg.qr(np.column_stack([Kxz, ones]))
        return R[:, :m], R[:, m], Q.T @ y, E, d
    return Kxz, ones, y, E, d


def _build_program(Kxz, y, C, mu, loss, regularizer, Kzz, epsilon, huber_delta) -> _Program:
    """Columns, rows and bounds of the program in the split form the LP/QP solvers take.

    Variables: the alpha part, b, then the loss part of xi. Rows: Kd alpha + cd b + xi = yd, the
    zero-mean rows on (alpha, b), and u - R alpha = 0 for the rkhs regularizer, so that the Hessian
    stays diagonal: ||w||^2 = ||R alpha||^2 = ||u||^2 with R'R = Kzz.
    """
    Kd, cd, yd, E, d = _design(Kxz, y, C, loss)
    r_rows, m = Kd.shape
    inf = np.inf
    split = regularizer == "l1" or mu == 0
    root = _psd_root(Kzz) if (regularizer == "rkhs" and mu > 0) else None
    blocks: list[_Block] = []
    cols: list[sp.sparray] = []  # each block's coefficients in the rows Kd alpha + cd b + xi = yd
    theta_cols: list[np.ndarray | None] = []  # each block's coefficients in theta (for E theta)
    Kd_sp = sp.csc_array(Kd)
    if split:
        blocks += [_Block(m, 0.0, inf, mu, 0.0), _Block(m, 0.0, inf, mu, 0.0)]
        cols += [Kd_sp, -Kd_sp]
        theta_cols += [np.eye(m + 1, m), -np.eye(m + 1, m)]
    else:
        blocks.append(_Block(m, -inf, inf, 0.0, 2.0 * mu if root is None else 0.0))
        cols.append(Kd_sp)
        theta_cols.append(np.eye(m + 1, m))
        if root is not None:
            blocks.append(_Block(root.shape[0], -inf, inf, 0.0, 2.0 * mu))
            cols.append(sp.csc_array((r_rows, root.shape[0])))
            theta_cols.append(None)
    n_alpha = len(blocks)
    blocks.append(_Block(1, -inf, inf, 0.0, 0.0))  # b
    cols.append(sp.csc_array(cd[:, None]))
    theta_cols.append(np.eye(m + 1)[:, m:])

    eye = sp.identity(r_rows, format="csc")
    if loss == "squared":
        loss_blocks = [(_Block(r_rows, -inf, inf, 0.0, 2.0), 1.0)]
    elif loss == "huber":
        # huber(xi) = min_r r^2/(2 delta) + |xi - r|: r quadratic, xi - r = p+ - p- linear.
        loss_blocks = [
            (_Block(r_rows, -inf, inf, 0.0, 1.0 / huber_delta), 1.0),
            (_Block(r_rows, 0.0, inf, 1.0, 0.0), 1.0),
            (_Block(r_rows, 0.0, inf, 1.0, 0.0), -1.0),
        ]
    else:
        loss_blocks = [
            (_Block(r_rows, 0.0, inf, 1.0, 0.0), 1.0),
            (_Block(r_rows, 0.0, inf, 1.0, 0.0), -1.0),
        ]
        if loss == "epsilon-insensitive" and epsilon > 0:
            # |xi|_eps = min |xi - s| over |s| <= eps: a bounded band variable s.
            loss_blocks.append((_Block(r_rows, -epsilon, epsilon, 0.0, 0.0), 1.0))
    for block, sign in loss_blocks:
        blocks.append(block)
        cols.append(sign * eye)
        theta_cols.append(None)

    rows = [sp.hstack(cols, format="csc")]
    rhs = [yd]
    if E is not None:
        rows.append(
            sp.hstack(
                [
                    sp.csc_array((E.shape[0], blk.size)) if tc is None else sp.csc_array(E @ tc)
                    for blk, tc in zip(blocks, theta_cols, strict=True)
                ],
                format="csc",
            )
        )
        rhs.append(d)
    if root is not None:
        k = root.shape[0]
        rows.append(
            sp.hstack(
                [sp.csc_array(-root), sp.identity(k, format="csc")]
                + [sp.csc_array((k, blk.size)) for blk in blocks[2:]],
                format="csc",
            )
        )
        rhs.append(np.zeros(k))

    def expand(attr):
        return np.concatenate(
            [np.broadcast_to(np.asarray(getattr(blk, attr), float), (blk.size,)) for blk in blocks]
        )

    offsets = np.concatenate([[0], np.cumsum([blk.size for blk in blocks])])
    alpha_slices = (slice(offsets[0], offsets[1]),)
    if split:
        alpha_slices += (slice(offsets[1], offsets[2]),)
    form = Program(
        A=sp.vstack(rows, format="csc"),
        rhs=np.concatenate(rhs),
        lower=expand("lower"),
        upper=expand("upper"),
        cost=expand("cost"),
        hess=expand("hess"),
    )
    return _Program(
        form=form,
        alpha_slices=alpha_slices,
        b_index=int(offsets[n_alpha]),
    )


def _solve_lp(Kxz, y, C, mu, loss, epsilon, max_iter):
    n, m = Kxz.shape
    if loss == "absolute" and n > 4 * m:
        return _solve_lp_dual(Kxz, y, C, mu, max_iter)
    return _solve_lp_primal(Kxz, y, C, mu, loss, epsilon, max_iter)


# Below this many rows the LP dual is solved from HiGHS's own start; above it, from the optimal
# basis of the same program on a random quarter of the rows (solved the same way, recursively).
PILOT_MIN_ROWS = 3000
PILOT_FRACTION = 0.25


def _solve_lp_dual(Kxz, y, C, mu, max_iter):
    """LSKFD (absolute loss + l1) with many points over few centers (TPAMI eq. 13), as its LP dual.

    The primal has n equality rows, so a simplex basis of size n. Its dual,

        max y'u + d'v   s.t.   -mu <= Kxz'u + (C Kxz)'v <= mu,   1'u + (C 1)'v = 0,
                               -1 <= u <= 1,  v free            (v: one per zero-mean group)

    has m + 1 ranged rows and n box-bounded columns. alpha and b are the duals of its rows, and
    at the simplex's vertex alpha is exactly sparse. HiGHS takes it with ranged rows (m + 1 rows,
    not 2m + 1) and a starting basis (see :func:`_start_from_pilot`). On 20 000 points over 300
    centers, one BLAS thread, the solve took 16 to 27 s with 2m + 1 one-sided rows from HiGHS's
    own start (devex), 9 s with ranged rows and about 4 s from the pilot's basis; the optimum is
    the same, as the tests check.
    """
    rng = np.random.default_rng(0)  # a deterministic pilot: the same fit for the same data
    alpha, b, _ = _dual_simplex(Kxz, y, C, mu, max_iter, rng)
    return alpha, b, "highs-lp-dual", "optimal", []


def _dual_simplex(Kxz, y, C, mu, max_iter, rng, *, with_basis=False):
    """Solve the LP dual; return alpha, b and, ``with_basis``, the optimal basis (column and
    row status codes; else None)."""
    n, m = Kxz.shape
    E = None if C is None else C @ Kxz  # (G, m): the groups' summed kernel rows
    G = 0 if E is None else E.shape[0]
    # Columns: the n points (entries K[i, :] and 1), then the G group multipliers v.
    cols = np.ones((n + G, m + 1))
    cols[:n, :m] = Kxz
    if G:
        cols[n:, :m] = E
        cols[n:, m] = C @ np.ones(n)
    cost = -np.concatenate([y, [] if C is None else C @ y])  # HiGHS minimizes
    lower = np.concatenate([np.full(n, -1.0), np.full(G, -np.inf)])
    upper = np.concatenate([np.full(n, 1.0), np.full(G, np.inf)])
    start = None
    if n > max(PILOT_MIN_ROWS, 4 * m):

        def start(highs):
            _start_from_pilot(highs, Kxz, y, C, mu, max_iter, rng)

    # The dual unbounded is the primal infeasible (zero-mean rows that cannot hold), and so on.
    row_dual, codes = solve_ranged_lp(
        cols,
        cost,
        lower,
        upper,
        np.concatenate([np.full(m, -mu), [0.0]]),
        np.concatenate([np.full(m, mu), [0.0]]),
        max_iter,
        start=start,
        with_basis=with_basis,
    )
    alpha = -row_dual[:m]
    alpha[alpha == 0.0] = 0.0  # no negative zeros
    return alpha, -float(row_dual[m]), codes


def _start_from_pilot(highs, Kxz, y, C, mu, max_iter, rng):
    """Start HiGHS from the optimal basis of the program on a random part of the points.

    The part's basis (its active rows and its basic points, the ones its fit interpolates) is
    kept; every other point starts at u = +1 or -1 by the side of the part's fit it lies on.
    The row duals of that basis are the part's alpha and b, so every point's reduced cost has
    the sign its bound needs: the start is dual feasible, and the dual simplex only has to
    repair the rows' bounds.
    """
    n = Kxz.shape[0]
    part = np.sort(rng.choice(n, int(n * PILOT_FRACTION), replace=False))
    C_part = None if C is None else C[:, part]
    if C_part is not None and np.any(C_part.sum(axis=1) == 0):
        return  # a group missing from the part: no pilot
    try:
        alpha, b, (col_codes, row_codes) = _dual_simplex(
            Kxz[part], y[part], C_part, mu * part.size / n, max_iter, rng, with_basis=True
        )
    except ProgramError:
        return  # the pilot is only a start: HiGHS then starts on its own
    residual = y - (Kxz @ alpha + b)
    cols = at_bound_codes(residual > 0)
    cols[part] = col_codes[: part.size]
    cols = np.concatenate([cols, col_codes[part.size :]])  # the group multipliers
    set_basis(highs, cols, row_codes)


def _solve_lp_primal(Kxz, y, C, mu, loss, epsilon, max_iter):
    # LSKFD (14) is a plain LP, and HiGHS's dual simplex returns a vertex, i.e. the exactly sparse
    # alpha the paper is after (and was faster than the IPM with crossover here).
    prog = _build_program(Kxz, y, C, mu, loss, "l1", None, epsilon, 1.0)
    alpha, b = prog.unpack(solve_lp(prog.form, max_iter))
    return alpha, b, "highs-lp", "optimal", []


def _solve_qp(Kxz, y, C, mu, loss, regularizer, Kzz, epsilon, huber_delta, max_iter, zero_tol):
    # Clarabel, a maintained interior-point solver: robust on every convex QP here. HiGHS's
    # active-set QP was tried first and dropped: it stalls on directions of zero curvature (a linear
    # loss with a quadratic regularizer) and on SKFD returned residual infeasibilities of ~1e-4 or
    # objectives 0.1 % above the optimum.
    prog = _build_program(Kxz, y, C, mu, loss, regularizer, Kzz, epsilon, huber_delta)
    x, status = solve_qp(prog.form, max_iter)
    alpha, b = prog.unpack(x)
    notes = [] if status == "optimal" else [f"Clarabel stopped {status}"]
    if regularizer == "l1" and mu > 0:
        # An interior point approaches the optimal face from inside: the coefficients the l1
        # penalty removes come out ~1e-10 of the largest instead of 0 (or all ~1e-20 when the
        # penalty removes every one). Set those to exactly zero.
        effect = np.abs(alpha) * np.max(np.abs(Kxz), axis=0)
        negligible = effect <= 1e-12 * max(np.max(np.abs(y)), np.finfo(float).tiny)
        alpha[negligible | (np.abs(alpha) <= zero_tol * np.max(np.abs(alpha)))] = 0.0
    return alpha, b, "clarabel-qp", status, notes
