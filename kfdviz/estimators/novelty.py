"""Kernel PCA novelty detection (Hoffmann 2007): distance to the principal subspace in feature space."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, OutlierMixin
from sklearn.utils.validation import check_is_fitted

from ..core.expansion import Expansion
from ..core.kpca import centred_kpca
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from ._compat import Interval
from .kpca import expansion_over_all_points, lanczos_flops
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Guide, Kind, ParamSpec, Problem, Work


class KernelPCANoveltyDetector(OutlierMixin, KernelEstimatorMixin, BaseEstimator):
    """Novelty detection by the reconstruction error of kernel PCA (Hoffmann 2007).

    Parameters
    ----------
    n_components : int, default=40
        Hoffmann's q: the number of principal components spanning the subspace. Fewer are used
        when the centred Gram matrix has fewer positive eigenvalues.
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z.
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c). Hoffmann writes
        exp(-||x - z||^2 / (2 sigma^2)): his sigma is width = 2 sigma^2 (scikit-learn's
        gamma = 1/width).
    degree : int, default=3
        Degree d of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    contamination : float in (0, 0.5], default=0.1
        Fraction of training points that ``predict`` calls novel: ``offset_`` lies halfway
        between the training scores that leave floor(contamination n) of them below it (below
        all of them when that is 0).
    learn_class : int, default=0
        With labels given to ``fit``: the class whose points are learned as normal, counted
        from 1 in the order of the sorted labels (the other classes are what should score as
        novel). 0, or no labels: every point is learned.

    Attributes
    ----------
    expansion_ : Expansion
        The q centred kernel PCA features f_l(z) (projections onto unit principal axes in
        feature space) as kernel expansions over the training points.
    mean_expansion_ : Expansion
        -(2/n) sum_i k(z, x_i) + (1/n^2) sum_ij k(x_i, x_j): the squared feature-space distance
        to the training mean, less k(z, z).
    eigenvalues_ : ndarray of shape (``n_components_``,)
        The leading eigenvalues of the centred Gram matrix, descending.
    n_components_ : int
        The q actually used.
    offset_ : float
        ``decision_function = score_samples - offset_``.
    diagnostics_ : dict
        ``"spectrum"`` (the computed eigenvalues) and ``"warnings"`` (list of str).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features, when X has string column names.

    See Also
    --------
    KernelPCA : The features whose subspace is used here.
    ParzenNoveltyDetector : The Parzen density, which ranks points as the reconstruction
        error with q = 0 does for the Gaussian kernel.
    OneClassSupportVector : The one-class SVM Hoffmann compares with.

    Notes
    -----
    Hoffmann's measure of novelty [1]_ is the squared distance of Phi(z) to the principal
    subspace of the mapped training data, the reconstruction error::

        p(z) = p_S(z) - sum_{l <= q} f_l(z)^2,
        p_S(z) = ||Phi(z) - mean||^2
               = k(z, z) - (2/n) sum_i k(z, x_i) + (1/n^2) sum_ij k(x_i, x_j),

    with f_l the centred kernel PCA features [2]_ of unit feature-space norm. ``score_samples``
    is -p(z), so that higher is more normal, as scikit-learn's outlier detectors have it.
    Values below 1e-9 of the largest k(z, z) are round-off of the cancellation between p_S and
    the sum, and are set to 0. A point whose kernel values overflow (a polynomial kernel far
    from the data) gets p = inf: it is novel.

    The fit keeps the squared distances (Gaussian kernel) or inner products of the training
    points in ``kfdviz.core.kernels.PAIRWISE_CACHE``, a bounded (512 MiB, 32 entries), least
    recently used, module-level cache shared by every fit, so that a refit on the same points
    with another width skips them; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] H. Hoffmann, "Kernel PCA for novelty detection", Pattern Recognition 40(3),
       pp. 863-874, 2007: the reconstruction error p(z), the distance to the mean p_S(z),
       Figs. 3 and 4 (ring-line-square, spiral) and Fig. 6 (sine-noise, against the one-class
       SVM).
    .. [2] B. Schölkopf, A. J. Smola, K.-R. Müller, "Nonlinear Component Analysis as a Kernel
       Eigenvalue Problem", Neural Computation 10, pp. 1299-1319, 1998.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import KernelPCANoveltyDetector
    >>> X = np.random.default_rng(0).standard_normal((200, 2))
    >>> det = KernelPCANoveltyDetector(n_components=40, contamination=0.05).fit(X)
    >>> det.predict([[0.0, 0.0], [6.0, 6.0]]).tolist()
    [1, -1]
    >>> float(np.mean(det.predict(X) == -1))  # the contamination, on the training points
    0.05
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_PARAMETER_CONSTRAINTS,
        "contamination": [Interval(Real, 0.0, 0.5, closed="right")],
        "learn_class": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_components=40,
        *,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        contamination=0.1,
        learn_class=0,
    ):
        self.n_components = n_components
        self.learn_class = learn_class
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.contamination = contamination

    def fit(self, X, y=None):
        """Compute the principal subspace of the mapped training points and the offset.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, all taken as normal (with ``learn_class``, those of that class).
        y : array-like of shape (n_samples,), optional
            Class labels; used only with ``learn_class`` > 0.

        Returns
        -------
        KernelPCANoveltyDetector
            The fitted detector.

        Raises
        ------
        ValueError
            If the centred Gram matrix has no positive eigenvalue (the training points
            coincide in feature space), or if the kernel values overflow on X.
        """
        self._validate_params()
        X = self._check_X(X, reset=True)
        self.learned_class_ = None
        if self.learn_class and y is not None:
            X = self._points_of_learned_class(X, np.asarray(y))
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

    def _points_of_learned_class(self, X: np.ndarray, y: np.ndarray) -> np.ndarray:
        if y.shape[0] != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} rows but y has {y.shape[0]} labels.")
        classes = np.unique(y)
        if self.learn_class > classes.size:
            raise ValueError(
                f"learn_class={self.learn_class}, but the labels have {classes.size} "
                f"class{'es' if classes.size != 1 else ''}: choose 1 to {classes.size}, or 0 "
                "to learn every point."
            )
        self.learned_class_ = classes[self.learn_class - 1]
        X = X[y == self.learned_class_]
        if X.shape[0] < 2:
            raise ValueError(
                f"The class to learn (number {self.learn_class}) has {X.shape[0]} training "
                "point: it needs at least two."
            )
        return X

    def reconstruction_error(self, X) -> np.ndarray:
        """Return Hoffmann's p(z), the squared feature-space distance to the principal subspace.

        A row whose kernel values overflow (a polynomial kernel far from the data) gets
        p = inf: k(z, z) >= k(z, x)^2 / k(x, x) for every training point x, so its feature-space
        norm is beyond any representable number and it is novel. ``score_samples`` is then
        -inf and ``predict`` -1; no row is given a NaN score.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The reconstruction error p(z) >= 0 of each row; larger is more novel.
        """
        check_is_fitted(self, "expansion_")
        return self._reconstruction_error(self._check_X(X, reset=False))

    def _reconstruction_error(self, X: np.ndarray) -> np.ndarray:
        """p(z) at the rows of an already validated X."""
        with np.errstate(over="ignore", invalid="ignore"):
            diag = self.expansion_.kernel.diag(X)
            terms = self._terms().evaluate(X)
        return _reconstruction_from(diag, terms.T)

    def _terms(self) -> Expansion:
        """The distance to the mean (less k(z, z)) and the q features as one expansion over the
        training points: one kernel evaluation serves both."""
        e, mean = self.expansion_, self.mean_expansion_
        coef = np.hstack([mean.coef, e.coef])
        return Expansion(e.kernel, e.centers, coef, np.r_[mean.offset, e.offset])

    def score_grid(self, xs, ys, *, check_cancel=None) -> np.ndarray:
        """Return ``score_samples`` at the nodes of the regular grid xs x ys of 2-D input.

        The kernel expansions are evaluated on the grid as a whole (for the Gaussian kernel, a
        product of one-dimensional factors), which gives the values ``score_samples`` gives
        point by point.

        Parameters
        ----------
        xs, ys : array-like of shape (nx,) and (ny,)
            The grid's coordinates along the two input axes.
        check_cancel : callable, optional
            Called between blocks of the evaluation; what it raises ends it.

        Returns
        -------
        ndarray of shape (ny, nx)
            -p(z) at (xs[a], ys[b]) in row b, column a.
        """
        check_is_fitted(self, "expansion_")
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        with np.errstate(over="ignore", invalid="ignore"):
            terms = self._terms().evaluate_grid(xs, ys, check_cancel=check_cancel)
            gx, gy = np.meshgrid(xs, ys)
            diag = self.expansion_.kernel.diag(np.column_stack([gx.ravel(), gy.ravel()]))
        p = _reconstruction_from(diag, terms.reshape(terms.shape[0], -1))
        return -p.reshape(ys.size, xs.size)

    def score_samples(self, X):
        """Return the negated reconstruction error: higher is more normal.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            -p(z) for each row (-inf where the kernel values overflow).
        """
        return -self.reconstruction_error(X)

    def decision_function(self, X):
        """Return the score less the offset: negative for novel rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``score_samples(X) - offset_`` (-inf where the kernel values overflow).
        """
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        """Classify each row as normal (+1) or novel (-1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            1 where ``decision_function`` is at least 0, else -1 (also for every row whose
            kernel values overflow).
        """
        return np.where(self.decision_function(X) >= 0, 1, -1)


def _reconstruction_from(diag: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """p(z) from k(z, z) and the terms (1 + q, n): the distance to the mean less k(z, z), then
    the q features."""
    with np.errstate(over="ignore", invalid="ignore"):
        p = diag + terms[0] - np.einsum("ij,ij->j", terms[1:], terms[1:])
    overflow = ~(np.isfinite(p) & np.isfinite(diag))
    # Below this the value is round-off of a cancellation between terms of size ~k(z, z):
    # call it zero so that points inside the subspace score identically and stably.
    finite_diag = np.abs(diag[~overflow])
    floor = 1e-9 * max(float(np.max(finite_diag, initial=0.0)), 1e-300)
    p = np.where(p > floor, p, 0.0)
    p[overflow] = np.inf
    return p


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


# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "novelty": Guide(
        computes=(
            "How far each point's image lies from the subspace of the first q principal "
            "components in feature space: the reconstruction error p(z) = p_S(z) − Σ "
            "f_l(z)²."
        ),
        picture=(
            "The colour is −p(z) shifted by the threshold: inside the thick line is what "
            "the model calls normal, outside novel."
        ),
        try_this=(
            "Lower the width until the boundary hugs each shape; raise q and the inside "
            "grows along the data."
        ),
        source=(
            "Hoffmann 2007, Pattern Recognition 40: the reconstruction error and the "
            "potential p_S(z); Figs. 3 and 4."
        ),
    ),
}

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
            ParamSpec(
                "learn_class",
                default=1,
                low=0,
                high=8,
                label="Class to learn",
                tooltip="The class whose points are learned as normal (1: the first); the other "
                "classes are scored as what should be novel. 0: every point.",
            ),
        ),
        cost=CostModel(_novelty_work),
        score_label="novelty score (−reconstruction error)",
        guide=_GUIDES["novelty"],
        description="Squared distance to the principal subspace in feature space (Hoffmann 2007).",
    ),
)
