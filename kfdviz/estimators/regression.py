"""KFD regression (NIPS 2000, sec. 4 and Fig. 3): the KFD program with real-valued targets.

Fit f(x) = sum_j alpha_j k(z_j, x) + b by

    min L(xi) + mu Omega(alpha)   s.t.  K alpha + 1 b = y - xi   (and 1'xi = 0),

the classification program with one class: the zero-mean constraint asks the errors to average
to zero while their spread (the loss) is minimized. An l1 regularizer gives sparse expansions, with
far fewer non-zero coefficients than samples, as with relevance vector machines.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from ..core.centers import CENTER_METHODS, choose_centers
from ..core.expansion import Expansion
from ..core.kfd_programs import LOSSES, REGULARIZERS, solve_kfd_program
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from ._compat import Hidden, Interval, StrOptions
from .program_cost import REGRESSION_COST
from .spec import CENTERS, KERNEL_PARAMS, N_CENTERS, AlgorithmSpec, Guide, Kind, ParamSpec, mu_param


class KernelFisherRegressor(RegressorMixin, KernelEstimatorMixin, BaseEstimator):
    """Kernel Fisher regression: the KFD program with real-valued targets (NIPS 2000, Fig. 3).

    Fits f(x) = sum_j alpha_j k(z_j, x) + b by min L(xi) + mu Omega(alpha) subject to
    K alpha + 1 b = y - xi and, with ``zero_mean_constraints``, 1'xi = 0.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z.
    width : float, default=1.0
        Width c of the Gaussian kernel (the papers' convention; scikit-learn's gamma = 1/c).
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    mu : float, default=0.01
        Weight of the regularizer (the C of NIPS 2000 / TPAMI eq. 9).
    regularizer : {"l1", "l2", "rkhs"}, default="l1"
        ||alpha||_1 (sparse), ||alpha||^2, or ||w||^2 = alpha' K alpha.
    loss : {"squared", "absolute", "epsilon-insensitive", "huber"}, default="squared"
        Loss on the residuals xi (NIPS 2000, Table 1).
    zero_mean_constraints : bool, default=True
        Require the residuals to sum to zero (NIPS 2000's (4b) with one class). With squared
        loss the optimal offset satisfies it anyway. The same name as the classifier's
        (:class:`KernelFisherDiscriminant`), which has one such constraint per class.
    epsilon : float, default=0.1
        Half-width of the insensitive band of the epsilon-insensitive loss.
    huber_delta : float, default=1.0
        Where Huber's loss turns from quadratic to linear.
    n_centers : int or None, default=None
        Expand over this many points only (TPAMI eq. 13); None uses every training point.
    centers : {"random", "kmeans"}, default="random"
        How the expansion points are picked when ``n_centers`` is set.
    random_state : int, RandomState instance or None, default=None
        Seeds the choice of centers.
    zero_mean_constraint : bool, default="deprecated"
        Deprecated name of ``zero_mean_constraints``; when given it wins, with a FutureWarning.

    Attributes
    ----------
    expansion_ : Expansion
        f(x) = sum_j coef_j k(z_j, x) + ``intercept_``, over the centers with non-zero coefficients.
    intercept_ : float
        The offset b.
    sparsity_ : float
        Fraction of the coefficients (over all centers) that are zero, as the papers count.
    objective_ : float
        The program's objective at the solution.
    support_ : ndarray of int or None
        Indices into the training set of the retained expansion points (None for k-means centers).
    solver_ : str
        The solver that found the solution.
    fit_warnings_ : list of str
        What the solver reported short of failing (iteration limits, near-infeasibility).
    n_features_in_ : int
        Number of input features.

    See Also
    --------
    KernelFisherDiscriminant : The same programs for two classes.
    SupportVectorRegressor : The epsilon-SVR NIPS 2000 compares with.

    Notes
    -----
    Without ``n_centers`` the kernel matrix's distances are kept in the bounded, least recently
    used module-level cache ``kfdviz.core.kernels.PAIRWISE_CACHE``, so that refits on the same
    points with another width skip the distances; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] S. Mika, G. Rätsch, K.-R. Müller, "A Mathematical Programming Approach to the Kernel
       Fisher Algorithm", NIPS 13, 2001: the program (4) with one class, Table 1, Fig. 3.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import KernelFisherRegressor
    >>> x = np.linspace(-10, 10, 60)[:, None]
    >>> y = np.sinc(x[:, 0] / np.pi)
    >>> reg = KernelFisherRegressor(width=4.0, mu=0.01).fit(x, y)
    >>> bool(np.max(np.abs(reg.predict(x) - y)) < 0.1)
    True
    >>> bool(reg.sparsity_ > 0.5)  # the l1 regularizer keeps few expansion points
    True
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        "mu": [Interval(Real, 0.0, None, closed="left")],
        "regularizer": [StrOptions(set(REGULARIZERS))],
        "loss": [StrOptions(set(LOSSES))],
        "zero_mean_constraints": ["boolean"],
        "zero_mean_constraint": ["boolean", Hidden(StrOptions({"deprecated"}))],
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
        zero_mean_constraints=True,
        epsilon=0.1,
        huber_delta=1.0,
        n_centers=None,
        centers="random",
        random_state=None,
        zero_mean_constraint="deprecated",
    ):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.mu = mu
        self.regularizer = regularizer
        self.loss = loss
        self.zero_mean_constraints = zero_mean_constraints
        self.epsilon = epsilon
        self.huber_delta = huber_delta
        self.n_centers = n_centers
        self.centers = centers
        self.random_state = random_state
        self.zero_mean_constraint = zero_mean_constraint

    def fit(self, X, y):
        """Solve the program on the training samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs.
        y : array-like of shape (n_samples,)
            Real-valued targets.

        Returns
        -------
        KernelFisherRegressor
            The fitted regressor.
        """
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
        groups = np.zeros(X.shape[0], dtype=int) if self._zero_mean() else None
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

    def _zero_mean(self) -> bool:
        """``zero_mean_constraints``, or the old keyword's value (with a FutureWarning) when a
        caller still passes ``zero_mean_constraint``."""
        if isinstance(self.zero_mean_constraint, str):
            return bool(self.zero_mean_constraints)
        warnings.warn(
            "KernelFisherRegressor's zero_mean_constraint is now called zero_mean_constraints "
            "(as KernelFisherDiscriminant's); the old name will be removed in a later release: "
            f"pass zero_mean_constraints={self.zero_mean_constraint!r} instead.",
            FutureWarning,
            stacklevel=3,
        )
        return bool(self.zero_mean_constraint)

    def predict(self, X):
        """The fitted function at the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The fitted function f(x) = sum_j coef_j k(z_j, x) + ``intercept_``.
        """
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        return self.expansion_.evaluate(X)[:, 0]


# -- what the window and the pipeline know of this estimator ------------------------------------
# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "kfd-regression": Guide(
        computes=(
            "A kernel regression with KFD's program: fit the targets with a chosen loss and "
            "the penalty μΩ(α), the residuals summing to zero."
        ),
        picture=(
            "The fitted curve over the samples; the ε-tube when the ε-insensitive loss is chosen."
        ),
        try_this=(
            "Switch the loss between squared, absolute and ε-insensitive and watch how "
            "outliers pull the curve."
        ),
        source="Mika, Rätsch & Müller, NIPS 2001: the program (4) with (4b); Fig. 3.",
    ),
}

SPECS = (
    AlgorithmSpec(
        "kfd-regression",
        "KFD regression",
        Kind.REGRESSOR,
        KernelFisherRegressor,
        (
            *KERNEL_PARAMS,
            mu_param(
                0.01, "Weight C of the regularizer (NIPS 2000, Fig. 3 uses 0.01 and 0.1).", low=1e-6
            ),
            ParamSpec(
                "regularizer",
                choices=REGULARIZERS,
                default="l1",
                label="Regularizer",
                tooltip="||α||₁ (sparse), ||α||², or ||w||² = α'Kα.",
            ),
            ParamSpec(
                "loss",
                choices=LOSSES,
                default="squared",
                label="Loss",
                tooltip="Loss on the residuals ξ (NIPS 2000, Table 1).",
            ),
            ParamSpec(
                "epsilon",
                default=0.1,
                low=1e-4,
                high=10.0,
                log=True,
                label="ε",
                tooltip="Half-width of the ε-insensitive band.",
                visible_when={"loss": ("epsilon-insensitive",)},
            ),
            ParamSpec(
                "huber_delta",
                default=1.0,
                low=1e-3,
                high=10.0,
                log=True,
                label="Huber δ",
                tooltip="Where Huber's loss turns from quadratic to linear.",
                visible_when={"loss": ("huber",)},
            ),
            N_CENTERS,
            CENTERS,
        ),
        cost=REGRESSION_COST,
        subset_expansion=True,
        guide=_GUIDES["kfd-regression"],
        description="min L(ξ) + μ Ω(α) s.t. Kα + 1b = y − ξ, 1'ξ = 0 (NIPS 2000, Fig. 3).",
    ),
)
