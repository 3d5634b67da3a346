"""Kernel PCA novelty detection (Hoffmann 2007): distance to the principal subspace in feature space."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted

from ..core.expansion import Expansion
from ..core.kpca import centred_kpca
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from .kpca import expansion_over_all_points, lanczos_flops
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Kind, ParamSpec, Problem, Work


class KernelPCANoveltyDetector(OutlierMixin, KernelEstimatorMixin, BaseEstimator):
    """Reconstruction error in feature space as a novelty measure.

    p(z) = ||Phi(z) - mean||^2 - sum_{l <= q} f_l(z)^2, with f_l the centred KPCA features of unit
    feature-space norm. Hoffmann writes the Gaussian as exp(-||x - z||^2 / (2 sigma^2)), so his
    sigma corresponds to width = 2 sigma^2.

    Parameters
    ----------
    n_components : int
        q, the number of principal components spanning the subspace.
    contamination : float in (0, 0.5]
        Fraction of training points that ``predict`` calls outliers: the offset is the
        corresponding quantile of the training scores.

    Attributes
    ----------
    offset_ : float
        ``decision_function = score_samples - offset_``.
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_PARAMETER_CONSTRAINTS,
        "contamination": [Interval(Real, 0.0, 0.5, closed="right")],
    }

    def __init__(
        self, n_components=40, *, kernel="rbf", width=1.0, degree=3, coef0=1.0, contamination=0.1
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.contamination = contamination

    def fit(self, X, y=None):
        self._validate_params()
        X = self._check_X(X, reset=True)
        kern = self._make_kernel()
        K = kern(X, X)
        sol = centred_kpca(K, min(self.n_components, X.shape[0]))
        if sol.eigenvalues.size == 0:
            raise ValueError(
                "The centred Gram matrix has no positive eigenvalue: the training points "
                f"coincide in feature space at {_kernel_text(kern)} (identical points, or a "
                "kernel width far too small or large), so no point could score as novel. "
                "Change the kernel parameters or the data."
            )
        n = X.shape[0]
        self.expansion_ = Expansion(kern, X, sol.coef, sol.offset)
        # The squared distance to the feature-space mean is itself an expansion plus k(z, z).
        self.mean_expansion_ = Expansion(kern, X, np.full(n, -2.0 / n), K.mean())
        self.eigenvalues_ = sol.eigenvalues
        self.n_components_ = sol.eigenvalues.size
        self.offset_ = _cut_between(-self._reconstruction_error(X), self.contamination)
        self.diagnostics_ = {"spectrum": sol.spectrum, "warnings": []}
        if self.n_components_ < self.n_components:
            self.diagnostics_["warnings"].append(
                f"Only {self.n_components_} of q = {self.n_components} components have positive "
                "eigenvalues; the subspace is all the data span."
            )
        return self

    def reconstruction_error(self, X) -> np.ndarray:
        """p(z): the squared feature-space distance of each row to the principal subspace.

        A row whose kernel values overflow (a polynomial kernel far from the data) gets
        p = inf: k(z, z) >= k(z, x)^2 / k(x, x) for every training point x, so its feature-space
        norm is beyond any representable number and it is novel. ``score_samples`` is then
        -inf and ``predict`` -1; no row is given a NaN score.
        """
        check_is_fitted(self, "expansion_")
        return self._reconstruction_error(self._check_X(X, reset=False))

    def _reconstruction_error(self, X: np.ndarray) -> np.ndarray:
        """p(z) at the rows of an already validated X."""
        kern = self.expansion_.kernel
        with np.errstate(over="ignore", invalid="ignore"):
            diag = kern.diag(X)
            dist_to_mean = diag + self.mean_expansion_.evaluate(X)[:, 0]
            F = self.expansion_.evaluate(X)
            p = dist_to_mean - np.sum(F**2, axis=1)
        overflow = ~(np.isfinite(p) & np.isfinite(diag))
        # Below this the value is round-off of a cancellation between terms of size ~k(z, z):
        # call it zero so that points inside the subspace score identically and stably.
        finite_diag = np.abs(diag[~overflow])
        floor = 1e-9 * max(float(np.max(finite_diag, initial=0.0)), 1e-300)
        p = np.where(p > floor, p, 0.0)
        p[overflow] = np.inf
        return p

    def score_samples(self, X):
        """Higher is more normal: the negated reconstruction error."""
        return -self.reconstruction_error(X)

    def decision_function(self, X):
        """score_samples - offset_: negative for outliers (-inf where the kernel overflows)."""
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        """+1 for normal rows, -1 for novel ones (every row whose kernel values overflow)."""
        return np.where(self.decision_function(X) >= 0, 1, -1)


def _kernel_text(kern) -> str:
    if kern.name == "rbf":
        return f"width={kern.width:g}"
    if kern.name == "poly":
        return f"degree={kern.degree}, coef0={kern.coef0:g}"
    return "the linear kernel"


def _cut_between(scores: np.ndarray, fraction: float) -> float:
    """A cut with about ``fraction`` of the scores below it, placed between two training scores.

    Placing it halfway between neighbours keeps every training point clearly on one side, so
    round-off in a later evaluation cannot flip its prediction.
    """
    s = np.sort(scores)
    k = int(np.floor(fraction * s.size))
    if k <= 0:
        return float(s[0] - 0.5 * (s[1] - s[0]) if s.size > 1 else s[0]) - 1e-12
    return float(0.5 * (s[k - 1] + s[k]))


# -- what the window and the pipeline know of this estimator ------------------------------------
def _novelty_work(p: Problem) -> Work:
    work = expansion_over_all_points(p, lanczos_flops(p, int(p.param("n_components", 3))))
    # The grid's reconstruction errors are evaluated point by point, not as one expansion.
    return Work(work.kernel_values + p.grid_points * p.n, work.flops, work.peak_bytes, work.centers)


SPECS = (
    AlgorithmSpec(
        "novelty",
        "KPCA novelty detection",
        Kind.NOVELTY,
        KernelPCANoveltyDetector,
        (
            ParamSpec(
                "n_components",
                default=40,
                low=1,
                high=200,
                label="q",
                tooltip="Number of principal components spanning the subspace (Hoffmann's q).",
            ),
            *KERNEL_PARAMS,
            ParamSpec(
                "contamination",
                default=0.1,
                low=0.001,
                high=0.5,
                log=True,
                label="Contamination",
                tooltip="Fraction of training points left outside the decision boundary.",
            ),
        ),
        cost=CostModel(_novelty_work),
        score_label="novelty score (−reconstruction error)",
        description="Squared distance to the principal subspace in feature space (Hoffmann 2007).",
    ),
)
