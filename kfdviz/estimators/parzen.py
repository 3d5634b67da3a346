"""Parzen-window novelty detection: the Gaussian kernel density estimate as a measure of normality.

The classical baseline Hoffmann (2007) compares kernel PCA's reconstruction error with: a point
is as normal as the density the training points' Gaussian windows put at it,

    p(z) = (1/n) sum_i (pi c)^(-d/2) exp(-||z - x_i||^2 / c),

with kfdviz's width c (each window is a normal density of variance c/2 per coordinate). With the
Gaussian kernel, k(z, z) = 1 and Hoffmann's distance to the feature-space mean is
p_S(z) = 1 - (2/n) sum_i k(z, x_i) + const: an affine, decreasing function of p(z). The Parzen
score is therefore his reconstruction error with no principal component removed (q = 0).
"""

from __future__ import annotations

from dataclasses import replace
from numbers import Real

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core.kernels import chunk_rows
from ._compat import Interval
from .spec import WIDTH, AlgorithmSpec, CostModel, Guide, Kind, ParamSpec, Problem, Work


class ParzenNoveltyDetector(OutlierMixin, BaseEstimator):
    """Novelty detection by a Gaussian kernel density estimate (Parzen windows).

    Parameters
    ----------
    width : float, default=1.0
        The Gaussian window's width c in exp(-||x - z||^2 / c), the papers' convention (Hoffmann's
        sigma is width = 2 sigma^2; scikit-learn's KernelDensity bandwidth is sqrt(width / 2)).
    contamination : float in (0, 0.5], default=0.1
        Fraction of training points that ``predict`` calls outliers: ``offset_`` is that
        percentile of the training points' scores.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features)
        The training points, the windows' centres.
    offset_ : float
        ``decision_function = score_samples - offset_``.
    n_features_in_ : int
        Number of input features.

    See Also
    --------
    KernelPCANoveltyDetector : Hoffmann's reconstruction error, which removes q components.
    OneClassSupportVector : Schölkopf's one-class SVM, Hoffmann's other comparison.

    Notes
    -----
    Every scored point meets every training point: scoring costs n kernel values a point, in
    memory-bounded chunks. Nothing is cached between fits.

    References
    ----------
    .. [1] H. Hoffmann, "Kernel PCA for novelty detection", Pattern Recognition 40(3), 2007:
       the Parzen density estimate among the classical methods compared with the
       reconstruction error p(z) and its distance to the mean p_S(z).

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import ParzenNoveltyDetector
    >>> X = np.random.default_rng(0).standard_normal((200, 2))
    >>> det = ParzenNoveltyDetector(width=0.5, contamination=0.05).fit(X)
    >>> det.predict([[0.0, 0.0], [6.0, 6.0]]).tolist()
    [1, -1]
    """

    _parameter_constraints = {
        "width": [Interval(Real, 0.0, None, closed="neither")],
        "contamination": [Interval(Real, 0.0, 0.5, closed="right")],
    }

    def __init__(self, width=1.0, *, contamination=0.1):
        self.width = width
        self.contamination = contamination

    def fit(self, X, y=None):
        """Keep the training points and place the offset at the ``contamination`` percentile.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, all taken as normal.
        y : None
            Ignored.

        Returns
        -------
        ParzenNoveltyDetector
            The fitted detector.
        """
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        self.X_fit_ = X
        self.offset_ = float(np.percentile(self._log_density(X), 100.0 * self.contamination))
        return self

    def _validated(self, X) -> np.ndarray:
        """X validated against the fitted detector: fitted, finite, as many features."""
        check_is_fitted(self, "X_fit_")
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _log_density(self, X: np.ndarray) -> np.ndarray:
        """log p(z) at the rows of the validated X, in memory-bounded chunks."""
        centres = self.X_fit_
        n, d = centres.shape
        c = float(self.width)
        log_norm = np.log(n) + 0.5 * d * np.log(np.pi * c)
        out = np.empty(X.shape[0])
        step = chunk_rows(X.shape[0], n, factor=2)
        for start in range(0, X.shape[0], step):
            D2 = cdist(X[start : start + step], centres, "sqeuclidean")
            out[start : start + step] = logsumexp(-D2 / c, axis=1) - log_norm
        return out

    def score_samples(self, X):
        """Log of the density estimate at each row of X: higher is more normal.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The log density log p(z), computed as a log-sum-exp so that far points get a
            finite, very negative score instead of the log of an underflowed zero.
        """
        return self._log_density(self._validated(X))

    def decision_function(self, X):
        """Log density less the offset: positive inside the boundary, negative outside.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The scores less the offset, ``score_samples(X) - offset_``.
        """
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        """+1 for a normal point, -1 for a novelty.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            1 where ``decision_function`` is at least 0, else -1.
        """
        return np.where(self.decision_function(X) >= 0, 1, -1)


# -- what the window and the pipeline know of this estimator ------------------------------------
def _parzen_work(p: Problem) -> Work:
    # Every scored point (the training points for the offset, then the grid's points one by
    # one) meets all n windows; the distances are computed in bounded chunks.
    n = p.n
    return Work((n + p.grid_points) * n, 0.0, min(8.0 * 2 * n * n, 64 * 2**20), n)


# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "parzen": Guide(
        computes=(
            "A Gaussian bump on every training point, summed: a density estimate; low "
            "density is novel."
        ),
        picture=(
            "The density over the plane, with the boundary that leaves the chosen fraction "
            "of training points outside."
        ),
        try_this=(
            "Compare with KPCA novelty at the same width: Parzen ranks points as its q = 0 "
            "case, so it cannot stretch along a line or a spiral arm."
        ),
        source="Hoffmann 2007: the Parzen density, his classical baseline.",
    ),
}

SPECS = (
    AlgorithmSpec(
        "parzen",
        "Parzen density novelty",
        Kind.NOVELTY,
        ParzenNoveltyDetector,
        (
            # The only kernel here is the Gaussian: its width is always shown.
            replace(WIDTH, visible_when=None),
            ParamSpec(
                "contamination",
                low=0.001,
                high=0.5,
                log=True,
                label="Contamination",
                tooltip="Fraction of training points left outside the decision boundary.",
            ),
        ),
        cost=CostModel(_parzen_work, prices_spectrum=False),
        score_label="log density (Parzen window)",
        guide=_GUIDES["parzen"],
        description="Gaussian kernel density estimate of the training points: Hoffmann's "
        "classical baseline, his reconstruction error with no component removed.",
    ),
)
