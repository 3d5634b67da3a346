"""KFD regression (NIPS 2000, sec. 4 and Fig. 3): the KFD program with real-valued targets.

Fit f(x) = sum_j alpha_j k(z_j, x) + b by

    min L(xi) + mu Omega(alpha)   s.t.  K alpha + 1 b = y - xi   (and 1'xi = 0),

the classification program with one class: the zero-mean constraint asks the errors to average
to zero while their spread (the loss) is minimized. An l1 regularizer gives sparse expansions, with
far fewer non-zero coefficients than samples, as with relevance vector machines.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from ..core.centers import CENTER_METHODS, choose_centers
from ..core.expansion import Expansion
from ..core.kfd_programs import LOSSES, REGULARIZERS, solve_kfd_program
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin


class KernelFisherRegressor(RegressorMixin, KernelEstimatorMixin, BaseEstimator):
    """Kernel Fisher regression (NIPS 2000).

    Parameters
    ----------
    kernel, width, degree, coef0
        The kernel: "rbf" exp(-||x - z||^2 / width), "poly" (x.z + coef0)^degree, or "linear".
    mu : float
        Weight of the regularizer (the C of NIPS 2000 / TPAMI eq. 9).
    regularizer : {"l1", "l2", "rkhs"}
        ||alpha||_1 (sparse), ||alpha||^2, or ||w||^2 = alpha' K alpha.
    loss : {"squared", "absolute", "epsilon-insensitive", "huber"}
        Loss on the residuals xi (NIPS 2000, Table 1).
    zero_mean_constraint : bool
        Require the residuals to sum to zero (NIPS 2000's (4b) with one class). With squared
        loss the optimal offset satisfies it anyway.
    epsilon : float
        Half-width of the insensitive band of the epsilon-insensitive loss.
    huber_delta : float
        Where Huber's loss turns from quadratic to linear.
    n_centers : int or None
        Expand over this many points only (TPAMI eq. 13); None uses every training point.
    centers : {"random", "kmeans"}
        How the expansion points are picked when ``n_centers`` is set.
    random_state : int, RandomState or None
        Seeds the choice of centers.

    Attributes
    ----------
    expansion_ : Expansion
        f(x) = sum_j coef_j k(z_j, x) + intercept_, over the centers with non-zero coefficients.
    intercept_ : float
    sparsity_ : float
        Fraction of the coefficients (over all centers) that are zero, as the papers count.
    objective_ : float
        The program's objective at the solution.
    support_ : ndarray of int or None
        Indices into the training set of the retained expansion points (None for k-means centers).
    solver_ : str
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        "mu": [Interval(Real, 0.0, None, closed="left")],
        "regularizer": [StrOptions(set(REGULARIZERS))],
        "loss": [StrOptions(set(LOSSES))],
        "zero_mean_constraint": ["boolean"],
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
        "huber_delta": [Interval(Real, 0.0, None, closed="neither")],
        "n_centers": [Interval(Integral, 1, None, closed="left"), None],
        "centers": [StrOptions(set(CENTER_METHODS))],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        mu=0.01,
        regularizer="l1",
        loss="squared",
        zero_mean_constraint=True,
        epsilon=0.1,
        huber_delta=1.0,
        n_centers=None,
        centers="random",
        random_state=None,
    ):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.mu = mu
        self.regularizer = regularizer
        self.loss = loss
        self.zero_mean_constraint = zero_mean_constraint
        self.epsilon = epsilon
        self.huber_delta = huber_delta
        self.n_centers = n_centers
        self.centers = centers
        self.random_state = random_state

    def fit(self, X, y):
        self._validate_params()
        X, y = self._check_X_y(X, y, y_numeric=True)
        y = np.asarray(y, dtype=float)
        kern = self._make_kernel()
        Z, index = choose_centers(X, self.n_centers, self.centers, self.random_state)
        # Only the n x m cross-Gram is formed: with n_centers set, never an n x n matrix.
        Kxz = kern(X, Z, cache=self.n_centers is None)
        Kzz = None
        if self.regularizer == "rkhs":
            Kzz = Kxz[index] if index is not None else kern(Z, Z)
        groups = np.zeros(X.shape[0], dtype=int) if self.zero_mean_constraint else None
        sol = solve_kfd_program(
            Kxz,
            y,
            loss=self.loss,
            regularizer=self.regularizer,
            mu=self.mu,
            Kzz=Kzz,
            groups=groups,
            epsilon=self.epsilon,
            huber_delta=self.huber_delta,
        )
        keep = sol.alpha != 0.0
        if not np.any(keep):
            # Everything regularized away: f is the constant b; keep one center so that the
            # expansion stays well formed (with a zero coefficient).
            keep[0] = True
        self.expansion_ = Expansion(kern, Z[keep], sol.alpha[keep], sol.b)
        self.support_ = None if index is None else np.asarray(index)[keep]
        self.intercept_ = float(sol.b)
        self.sparsity_ = float(sol.sparsity)
        self.objective_ = float(sol.objective)
        self.solver_ = sol.solver
        self.fit_warnings_ = sol.warnings
        return self

    def predict(self, X):
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        return self.expansion_.evaluate(X)[:, 0]


def _algorithm_specs():
    # Imported here: the registry imports this module at its end to collect these specs.
    from . import registry as reg

    spec = reg.AlgorithmSpec(
        "kfd-regression",
        "KFD regression",
        "regressor",
        "kfdviz.estimators.regression:KernelFisherRegressor",
        (
            *reg.KERNEL_PARAMS,
            reg.ParamSpec(
                "mu",
                "float",
                0.01,
                1e-6,
                1e2,
                log=True,
                label="μ",
                tooltip="Weight C of the regularizer (NIPS 2000, Fig. 3 uses 0.01 and 0.1).",
            ),
            reg.ParamSpec(
                "regularizer",
                "choice",
                "l1",
                choices=REGULARIZERS,
                label="Regularizer",
                tooltip="||α||₁ (sparse), ||α||², or ||w||² = α'Kα.",
            ),
            reg.ParamSpec(
                "loss",
                "choice",
                "squared",
                choices=LOSSES,
                label="Loss",
                tooltip="Loss on the residuals ξ (NIPS 2000, Table 1).",
            ),
            reg.ParamSpec(
                "epsilon",
                "float",
                0.1,
                1e-4,
                10.0,
                log=True,
                label="ε",
                tooltip="Half-width of the ε-insensitive band.",
                visible_when={"loss": ("epsilon-insensitive",)},
            ),
            reg.ParamSpec(
                "huber_delta",
                "float",
                1.0,
                1e-3,
                10.0,
                log=True,
                label="Huber δ",
                tooltip="Where Huber's loss turns from quadratic to linear.",
                visible_when={"loss": ("huber",)},
            ),
            reg.N_CENTERS,
            reg.CENTERS,
        ),
        description="min L(ξ) + μ Ω(α) s.t. Kα + 1b = y − ξ, 1'ξ = 0 (NIPS 2000, Fig. 3).",
    )
    # Registered here too, for when this module is imported before the registry (idempotent).
    reg.register(spec)
    return (spec,)


ALGORITHM_SPECS = _algorithm_specs()
