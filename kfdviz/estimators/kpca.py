"""Kernel PCA and oriented kernel PCA (TPAMI sec. 1.2, eqs. 2-3, Fig. 1)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ..core import scatter, tangents
from ..core.expansion import Expansion
from ..core.kpca import centred_kpca
from ..core.rayleigh import solve_rayleigh
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from .spec import (
    KERNEL_PARAMS,
    TANGENT_CHOICES,
    TANGENT_STEP,
    AlgorithmSpec,
    CostModel,
    Kind,
    ParamSpec,
    Problem,
    Work,
    mu_param,
)

# Variances below this fraction of the uncentred second moment (relative 1e-12 in amplitude) are
# round-off: the features are constant.
_NO_VARIANCE = 1e-24
# Rayleigh values (feature variances for a'N_reg a = 1) below this fraction of the largest are
# round-off, as kernel PCA's eigenvalues below 1e-12 of the largest.
_FLAT_FEATURE = 1e-12


class KernelPCA(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Centred kernel PCA.

    Parameters
    ----------
    n_components : int
        Number of leading features to extract.
    kernel, width, degree, coef0
        The kernel: "rbf" exp(-||x - z||^2 / width), "poly" (x.z + coef0)^degree, or "linear".

    Attributes
    ----------
    eigenvalues_ : ndarray (n_components,)
        Eigenvalues of the centred Gram matrix (as scikit-learn's ``KernelPCA.eigenvalues_``).
    expansion_ : Expansion
        The features as kernel expansions over the training points (centring folded in).
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_PARAMETER_CONSTRAINTS,
    }

    def __init__(self, n_components=2, *, kernel="rbf", width=1.0, degree=3, coef0=1.0):
        self.n_components = n_components
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y=None):
        self._validate_params()
        X = self._check_X(X, reset=True)
        kern = self._make_kernel()
        solution = centred_kpca(kern(X, X), self.n_components)
        if solution.eigenvalues.size == 0:
            raise ValueError(
                "The centred Gram matrix has no positive eigenvalue: the data show no variance "
                "in feature space (identical points, or a kernel width far too small or large)."
            )
        self.eigenvalues_ = solution.eigenvalues
        self.expansion_ = Expansion(kern, X, solution.coef, solution.offset)
        self.n_components_ = solution.eigenvalues.size
        self._n_features_out = self.n_components_
        self.diagnostics_ = {
            "spectrum": solution.spectrum,
            "explained_fraction": solution.eigenvalues / max(kern.diag(X).sum(), 1e-300),
            "warnings": []
            if self.n_components_ == self.n_components
            else [
                f"Only {self.n_components_} of the {self.n_components} requested components "
                "have a positive eigenvalue."
            ],
        }
        return self

    def transform(self, X):
        """Feature values at the rows of X; a row whose kernel values overflow raises ValueError."""
        return self._feature_values(X)


class OrientedKernelPCA(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Oriented kernel PCA: maximize covariance (eq. 2) against tangent covariance (eq. 3).

    The features maximize a'(Kzx H Kxz / n)a / a'(T T' + mu K_zz)a, where T holds finite
    differences of the kernel along one-parameter transformations L_t of the training points.
    With no tangents this is kernel PCA.

    Parameters
    ----------
    tangents : str or sequence of str or None
        "rotation" (about ``center``), "translate-x", "translate-y", "scale"; several are summed
        with ``tangent_weights``.
    tangent_step : float
        The finite-difference step t: radians for rotation; a fraction of the data's spread for
        translations; 1 + t is the factor for scaling.
    center : array-like of shape (2,) or None
        Centre of rotations and scalings; None means the training data's mean.
    mu : float
        Weight of ||w||^2 = a'K_zz a in the denominator: keeps it positive definite on the span
        and excludes the trivial constant feature.
    expand_transformed : bool
        Also expand over the transformed points L_t x (TPAMI footnote 3).
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_PARAMETER_CONSTRAINTS,
        "tangents": [str, list, tuple, None],
        "tangent_step": [Interval(Real, 0.0, None, closed="neither")],
        "tangent_weights": ["array-like", None],
        "center": ["array-like", None],
        "mu": [Interval(Real, 0.0, None, closed="left")],
        "expand_transformed": ["boolean"],
    }

    def __init__(
        self,
        n_components=2,
        *,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        tangents=("rotation",),
        tangent_step=0.05,
        tangent_weights=None,
        center=None,
        mu=1e-3,
        expand_transformed=False,
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.tangents = tangents
        self.tangent_step = tangent_step
        self.tangent_weights = tangent_weights
        self.center = center
        self.mu = mu
        self.expand_transformed = expand_transformed

    def fit(self, X, y=None):
        self._validate_params()
        X = self._check_X(X, reset=True)
        names = tangents.check_tangents(self.tangents, X.shape[1])
        kern = self._make_kernel()
        center = X.mean(axis=0) if self.center is None else np.asarray(self.center, dtype=float)
        if center.shape != (X.shape[1],) or not np.all(np.isfinite(center)):
            raise ValueError(
                f"center must be {X.shape[1]} finite numbers (one coordinate per input "
                f"dimension), got {center.tolist()}."
            )
        if self.tangent_weights is not None:
            weights = np.asarray(self.tangent_weights, dtype=float)
            if weights.shape != (len(names),) or not np.all(np.isfinite(weights) & (weights >= 0)):
                raise ValueError(
                    f"tangent_weights must be {len(names)} finite numbers >= 0 (one per tangent: "
                    f"{', '.join(names) or 'none'}), got {weights.tolist()}."
                )
        spread = tangents.data_spread(X)
        Z = X
        if names and self.expand_transformed:
            Z = np.vstack(
                [
                    X,
                    tangents.transformed_points(
                        X, names, self.tangent_step, center=center, spread=spread
                    ),
                ]
            )
        Kzx = kern(Z, X)
        Kzz = Kzx if Z is X else kern(Z, Z)
        M = scatter.covariance(Kzx)
        if names:
            T = tangents.tangent_matrix(
                kern,
                Z,
                X,
                names,
                self.tangent_step,
                weights=self.tangent_weights,
                center=center,
                spread=spread,
            )
            N = scatter.tangent_covariance(T)
        else:
            N = np.zeros_like(M)
        mu = self.mu if self.mu > 0 else 0.0
        # A tiny multiple of I guards round-off on top of the ||w||^2 term.
        jitter = 1e-10 * max(np.trace(N) + mu * np.trace(Kzz), 1e-300) / N.shape[0]
        N[np.diag_indices_from(N)] += jitter
        k = min(self.n_components, Z.shape[0])
        # Total variance of the expansion's features: trace(M) = ||H Kxz||_F^2 / n. At the
        # round-off level of the kernel values themselves, every feature would be constant.
        if np.trace(M) <= _NO_VARIANCE * np.einsum("ij,ij->", Kzx, Kzx) / X.shape[0]:
            raise ValueError(
                "The data show no variance in feature space (identical points, or a kernel "
                "width far too small or large): every oriented KPCA feature would be constant. "
                "Change the kernel parameters or the data."
            )
        sol = solve_rayleigh(M, N, k, mu=mu, regularizer="gram", K=Kzz)
        A = sol.vectors
        warnings = list(sol.warnings)
        flat = int(np.count_nonzero(sol.values <= _FLAT_FEATURE * max(sol.values[0], 0.0)))
        if flat:
            warnings.append(
                f"{flat} of the {k} features carry no variance on the training data (constant "
                "features): the data span fewer directions in feature space."
            )
        # Centre each feature on the training data, as the covariance criterion does.
        offset = -(Kzx.T @ A).mean(axis=0)
        self.expansion_ = Expansion(kern, Z, A, offset)
        self.rayleigh_values_ = sol.values
        self.center_ = center
        self.spread_ = spread
        self.tangents_ = names
        self.n_components_ = A.shape[1]
        self._n_features_out = self.n_components_
        self.diagnostics_ = {
            "rayleigh_values": sol.values,
            "condition": sol.condition,
            "effective_rank": sol.effective_rank,
            "regularization": sol.regularization,
            "method": sol.method,
            "warnings": warnings,
        }
        return self

    def transform(self, X):
        """Feature values at the rows of X; a row whose kernel values overflow raises ValueError."""
        return self._feature_values(X)

    def tangent_directions(self, X) -> np.ndarray:
        """d(L_t x)/dt at each row of X for the first tangent (arrows for the picture)."""
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        if not self.tangents_:
            return np.zeros_like(X)
        return tangents.tangent_directions(
            X, self.tangents_[0], center=self.center_, spread=self.spread_
        )


# -- what the window and the pipeline know of these estimators ----------------------------------
N_COMPONENTS = ParamSpec(
    "n_components",
    default=3,
    low=1,
    high=50,
    label="Components",
    tooltip="Number of leading features computed (the view shows the one you pick).",
)


def expansion_over_all_points(p: Problem, flops: float) -> Work:
    """An eigenproblem of the n x n kernel matrix: the Gram matrix, its centred copy and the
    evaluation at the training points are kernel values, ``flops`` the solver's products."""
    n = p.n
    return Work(kernel_values=3.0 * n * n, flops=flops, peak_bytes=8.0 * 3.0 * n * n, centers=n)


def lanczos_flops(p: Problem, components: int) -> float:
    """A Lanczos solve for ``components`` eigenvectors: about 30 (2k + 20) products with K."""
    return (2 * components + 20) * 30.0 * 2.0 * p.n * p.n


def _kpca_work(p: Problem) -> Work:
    return expansion_over_all_points(p, lanczos_flops(p, int(p.param("n_components", 3))))


def _okpca_work(p: Problem) -> Work:
    # The tangent covariance and a full generalized eigenproblem.
    return expansion_over_all_points(p, 12.0 * p.n**3)


SPECS = (
    AlgorithmSpec(
        "kpca",
        "Kernel PCA",
        Kind.FEATURES,
        KernelPCA,
        (N_COMPONENTS, *KERNEL_PARAMS),
        cost=CostModel(_kpca_work, prices_spectrum=False),
        description="Directions of largest variance in feature space (S_I covariance, S_N identity).",
    ),
    AlgorithmSpec(
        "okpca",
        "Oriented kernel PCA",
        Kind.FEATURES,
        OrientedKernelPCA,
        (
            N_COMPONENTS,
            *KERNEL_PARAMS,
            ParamSpec(
                "tangents",
                "tuple-choice",
                ("rotation",),
                choices=TANGENT_CHOICES,
                label="Invariances",
                tooltip="Transformations L_t whose tangent covariance (TPAMI eq. 3) the feature "
                "should ignore.",
            ),
            TANGENT_STEP,
            mu_param(
                1e-3,
                "Weight of ||w||^2 in the denominator: a'(TT' + μK)a. Small μ: strongly "
                "invariant features; large μ: towards plain kernel PCA.",
            ),
            ParamSpec(
                "expand_transformed",
                default=False,
                label="Expand over L_t x",
                tooltip="Also expand w over the transformed points (TPAMI footnote 3).",
            ),
        ),
        cost=CostModel(_okpca_work),
        description="Variance against tangent covariance: features invariant under L_t (TPAMI Fig. 1).",
    ),
)
