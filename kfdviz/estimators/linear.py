"""Linear baselines: PCA, Fisher's linear discriminant and a rank-k SVD, with their expansions.

The papers set KPCA and KFD beside their linear counterparts, and KOC beside a rank-3 SVD (Park &
Park, Fig. 1). Their features are affine maps, written as expansions over the linear kernel, so
the same fast grid evaluator draws them.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.linalg as sla
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    TransformerMixin,
)
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.utils.extmath import svd_flip
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core.expansion import Expansion
from ..core.kernels import Kernel
from ._compat import Interval, StrOptions
from .spec import AlgorithmSpec, CostModel, Guide, Kind, ParamSpec, Problem, Work


def _affine_expansion(transform, n_features: int) -> Expansion:
    """An affine map x -> x W + c as features over the linear kernel (centers = columns of W)."""
    offset = transform(np.zeros((1, n_features)))[0]
    W = transform(np.eye(n_features)) - offset  # (d, k): row i is the image of e_i, less c
    return Expansion(Kernel("linear"), W.T, np.eye(W.shape[1]), offset, centers_are_points=False)


def _check_scale(X: np.ndarray, method: str) -> None:
    """Refuse finite data whose squares overflow: their covariance would hold inf or NaN, and
    scikit-learn would then say only that the array "must not contain infs or NaNs"."""
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(np.sum(np.square(X)))
    if not np.isfinite(total):
        raise ValueError(
            f"The training data are too large for {method}: the largest |x| is "
            f"{float(np.max(np.abs(X))):.3g}, and the sums of squares of a covariance exceed the "
            "largest floating-point number; scale the data (e.g. to unit variance)."
        )


class LinearPCA(TransformerMixin, BaseEstimator):
    """Principal component analysis (scikit-learn's PCA, exact SVD); ``expansion_`` = transform.

    The features are the projections (x - mean) v_j on the leading eigenvectors v_j of the
    data's covariance matrix.

    Parameters
    ----------
    n_components : int, default=2
        Number of principal components kept, at most min(n_samples, n_features) (scikit-learn's
        PCA refuses more).
    whiten : bool, default=False
        Divide each component by its standard deviation, so that every feature has unit
        variance on the training points.

    Attributes
    ----------
    pca_ : sklearn.decomposition.PCA
        The fitted scikit-learn estimator ``transform`` delegates to.
    components_ : ndarray of shape (n_components, n_features)
        The principal axes, unit vectors in order of decreasing variance.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Fraction of the total variance along each axis.
    expansion_ : Expansion
        The affine map ``transform`` as n_components features over the linear kernel (its
        centres are directions, not training points).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelPCA : Principal components in the feature space of a kernel.
    TruncatedSVDEmbedding : The same projection without centring the data.
    sklearn.decomposition.PCA : The scikit-learn estimator this one wraps.

    Notes
    -----
    PCA maximizes the Rayleigh coefficient w' S_I w / w' S_N w with S_I the covariance and
    S_N = I (TPAMI eqs. (1) and (2)); kernel PCA does the same in feature space, and kernel PCA
    with the linear kernel gives these features. The app offers it beside kernel PCA and
    oriented kernel PCA, to show what the kernel adds.

    Fitting and the methods run in scikit-learn and use none of kfdviz's module-level caches.
    Only ``expansion_.evaluate`` at a few points (the training points of a picture) keeps its
    inner products in the bounded, least recently used ``kfdviz.core.kernels.PAIRWISE_CACHE``,
    as every kfdviz expansion does; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: sec. 1.2, eqs. (1) and (2).
    .. [2] B. Schölkopf, A. Smola, K.-R. Müller, "Nonlinear component analysis as a kernel
       eigenvalue problem", Neural Computation 10, 1998.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import LinearPCA
    >>> X = np.random.default_rng(0).standard_normal((100, 3)) * [3.0, 1.0, 0.1]
    >>> pca = LinearPCA(n_components=2).fit(X)
    >>> pca.transform(X).shape
    (100, 2)
    >>> np.argmax(np.abs(pca.components_), axis=1).tolist()  # the two widest axes, in order
    [0, 1]
    >>> bool(np.allclose(pca.expansion_.evaluate(X), pca.transform(X)))
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "whiten": ["boolean"],
    }

    def __init__(self, n_components=2, whiten=False):
        self.n_components = n_components
        self.whiten = whiten

    def fit(self, X, y=None):
        """Find the principal axes of the training points.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points.
        y : None
            Ignored.

        Returns
        -------
        LinearPCA
            The fitted estimator.
        """
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        _check_scale(X, "PCA")
        self.pca_ = PCA(n_components=self.n_components, whiten=self.whiten, svd_solver="full")
        self.pca_.fit(X)
        self.components_ = self.pca_.components_
        self.explained_variance_ratio_ = self.pca_.explained_variance_ratio_
        self._n_features_out = self.components_.shape[0]
        self.expansion_ = _affine_expansion(self.pca_.transform, X.shape[1])
        return self

    def transform(self, X):
        """Project points on the principal axes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to project.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The projections (x - mean) v_j, divided by the components' standard deviations
            when ``whiten``.
        """
        check_is_fitted(self, "pca_")
        return self.pca_.transform(validate_data(self, X, dtype=np.float64, reset=False))


class LinearDiscriminant(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Fisher's linear discriminant (scikit-learn's LinearDiscriminantAnalysis).

    ``transform`` gives the (at most r - 1, for r classes) discriminant directions;
    ``expansion_`` equals it. ``predict`` assigns the class of highest posterior under Gaussian
    classes with a shared covariance.

    Parameters
    ----------
    n_components : int or None, default=None
        Number of discriminant directions ``transform`` gives, at most
        min(n_classes - 1, n_features) (scikit-learn refuses more); None takes that maximum.
    solver : {"svd", "eigen"}, default="svd"
        "svd" works on the data without forming a scatter matrix (fine with more features than
        samples); "eigen" solves the generalized eigenproblem of the between- and within-class
        scatter and is the one that takes ``shrinkage``.
    shrinkage : "auto", float in [0, 1] or None, default=None
        Shrink the within-class covariance toward a multiple of the identity, the linear
        counterpart of KFD's regularized N + mu I: a fixed weight, "auto" for the Ledoit-Wolf
        weight, or None for none. Only with ``solver="eigen"``; with "svd", ``fit`` raises
        ValueError.
    tol : float, default=1e-4
        The SVD solver's threshold: singular values of X below it count as zero when
        estimating the rank.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    lda_ : sklearn.discriminant_analysis.LinearDiscriminantAnalysis
        The fitted scikit-learn estimator the methods delegate to.
    expansion_ : Expansion
        The affine map ``transform`` as features over the linear kernel (its centres are
        directions, not training points).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelFisherDiscriminant : Fisher's discriminant in the feature space of a kernel.
    LinearPCA : The linear features that ignore the labels.
    sklearn.discriminant_analysis.LinearDiscriminantAnalysis : The scikit-learn estimator this
        one wraps.

    Notes
    -----
    Fisher's discriminant maximizes the Rayleigh coefficient w' S_I w / w' S_N w with the
    between-class scatter as S_I and the within-class scatter as S_N (TPAMI sec. 1.2, eq. (1));
    KFD does the same in feature space, and KFD with the linear kernel and vanishing mu finds
    this direction. The app offers it beside KFD, to show what the kernel adds.

    Fitting and the methods run in scikit-learn and use none of kfdviz's module-level caches.
    Only ``expansion_.evaluate`` at a few points (the training points of a picture) keeps its
    inner products in the bounded, least recently used ``kfdviz.core.kernels.PAIRWISE_CACHE``,
    as every kfdviz expansion does; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] R. A. Fisher, "The use of multiple measurements in taxonomic problems", Annals of
       Eugenics 7(2), 1936.
    .. [2] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, K.-R. Müller, "Fisher discriminant
       analysis with kernels", Neural Networks for Signal Processing IX, IEEE, 1999.
    .. [3] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: sec. 1.2, eq. (1).

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import LinearDiscriminant
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2.0, 1.0, (50, 2)), rng.normal(2.0, 1.0, (50, 2))])
    >>> y = np.repeat([0, 1], 50)
    >>> lda = LinearDiscriminant().fit(X, y)
    >>> lda.predict([[-3.0, -3.0], [3.0, 3.0]]).tolist()
    [0, 1]
    >>> lda.transform(X).shape  # two classes, one direction
    (100, 1)
    >>> bool(np.allclose(lda.expansion_.evaluate(X), lda.transform(X)))
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "solver": [StrOptions({"svd", "eigen"})],
        "shrinkage": [StrOptions({"auto"}), Interval(Real, 0.0, 1.0, closed="both"), None],
        "tol": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(self, n_components=None, solver="svd", shrinkage=None, tol=1e-4):
        self.n_components = n_components
        self.solver = solver
        self.shrinkage = shrinkage
        self.tol = tol

    def fit(self, X, y):
        """Find the discriminant directions and the class model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points.
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.

        Returns
        -------
        LinearDiscriminant
            The fitted estimator.

        Raises
        ------
        ValueError
            If ``shrinkage`` is set with ``solver="svd"``.
        """
        self._validate_params()
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        if self.solver == "svd" and self.shrinkage is not None:
            raise ValueError("shrinkage needs solver='eigen' (the SVD solver does not use it).")
        _check_scale(X, "a linear discriminant")
        labels = np.unique(y, return_inverse=True)[1]
        means = np.zeros((labels.max() + 1, X.shape[1]))
        np.add.at(means, labels, X)
        means /= np.bincount(labels)[:, None]
        if not np.any(X - means[labels]):
            raise ValueError(
                "Every training point equals the mean of its class (the points of each class "
                "are identical): the within-class scatter is zero, so no discriminant direction "
                "is defined; give each class points that differ."
            )
        self.lda_ = LinearDiscriminantAnalysis(
            n_components=self.n_components,
            solver=self.solver,
            shrinkage=self.shrinkage,
            tol=self.tol,
        ).fit(X, y)
        self.classes_ = self.lda_.classes_
        self._n_features_out = self.lda_.transform(X[:1]).shape[1]
        self.expansion_ = _affine_expansion(self.lda_.transform, X.shape[1])
        return self

    def _X(self, X):
        check_is_fitted(self, "lda_")
        return validate_data(self, X, dtype=np.float64, reset=False)

    def transform(self, X):
        """Project points on the discriminant directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to project.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The projections, ``n_components`` of them (min(n_classes - 1, n_features) when it
            is None).
        """
        X = self._X(X)
        return self.lda_.transform(X)

    def decision_function(self, X):
        """Log-posterior scores of the classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to evaluate.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: the log-likelihood ratio of ``classes_[1]`` to ``classes_[0]``,
            positive for ``classes_[1]``. More classes: one score per class.
        """
        X = self._X(X)
        return self.lda_.decision_function(X)

    def predict(self, X):
        """The class of each point.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            The label in ``classes_`` of highest posterior probability.
        """
        X = self._X(X)
        return self.lda_.predict(X)

    def predict_proba(self, X):
        """Posterior probabilities of the classes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to evaluate.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Each row sums to one; columns in the order of ``classes_``.
        """
        X = self._X(X)
        return self.lda_.predict_proba(X)


class TruncatedSVDEmbedding(TransformerMixin, BaseEstimator):
    """The optimal rank-k approximation of the data matrix by its SVD (Park & Park, Fig. 1).

    X = U S V' (uncentered, as in the KOC paper); a point x is represented by its coordinates
    V_k' x in the leading k right singular vectors. ``expansion_`` equals ``transform``. When k
    exceeds min(n_samples, n_features) the rank-k approximation is the data itself: the extra
    coordinates are identically zero (``n_components_`` counts the real ones).

    Parameters
    ----------
    n_components : int, default=3
        The rank k. More than min(n_samples, n_features) is accepted with a UserWarning: the
        extra coordinates are zero.

    Attributes
    ----------
    n_components_ : int
        Number of real coordinates, min(n_components, n_samples, n_features).
    components_ : ndarray of shape (n_components, n_features)
        The leading right singular vectors V_k' as rows, signs fixed by scikit-learn's
        ``svd_flip`` so that refits on the same data agree; rows beyond ``n_components_`` are
        zero.
    singular_values_ : ndarray of shape (n_components,)
        The leading singular values of X, decreasing; zero beyond ``n_components_``.
    expansion_ : Expansion
        The linear map ``transform`` as n_components features over the linear kernel (its
        centres are the singular vectors, not training points).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelOrthogonalCentroid : The kernel method Park & Park compare this with.
    LinearPCA : The same projection after centring the data.
    sklearn.decomposition.TruncatedSVD : The truncated SVD of scikit-learn, by randomized or
        ARPACK iterations for large or sparse X: the same uncentred coordinates up to signs.

    Notes
    -----
    By the Eckart-Young theorem X_k = U_k S_k V_k' is the closest rank-k matrix to X in the
    Frobenius norm, and the points' coordinates are the rows of U_k S_k = X V_k. Park & Park
    show the Iris data reduced this way to three dimensions (their Fig. 1, the app's koc-iris
    preset): two of the three classes stay mixed, where the Kernel Orthogonal Centroid method
    with a narrow Gaussian separates all three. The SVD is exact (LAPACK through SciPy).

    Fitting and ``transform`` use none of kfdviz's module-level caches. Only
    ``expansion_.evaluate`` at a few points (the training points of a picture) keeps its inner
    products in the bounded, least recently used ``kfdviz.core.kernels.PAIRWISE_CACHE``, as
    every kfdviz expansion does; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] C. Park, H. Park, "Nonlinear Feature Extraction based on Centroids and Kernel
       Functions", University of Minnesota, 2002: sec. 4.1 and Fig. 1.
    .. [2] G. H. Golub, C. F. Van Loan, "Matrix Computations", 3rd ed., Johns Hopkins
       University Press, 1996.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_iris
    >>> from kfdviz import TruncatedSVDEmbedding
    >>> X = load_iris().data
    >>> svd = TruncatedSVDEmbedding(n_components=3).fit(X)
    >>> Z = svd.transform(X)
    >>> Z.shape
    (150, 3)
    >>> s = np.linalg.svd(X, compute_uv=False)
    >>> bool(np.allclose(svd.singular_values_, s[:3]))
    True
    >>> # The rank-3 approximation misses X by the fourth singular value (Eckart-Young).
    >>> bool(np.isclose(np.linalg.norm(X - Z @ svd.components_), s[3]))
    True
    """

    _parameter_constraints = {"n_components": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, n_components=3):
        self.n_components = n_components

    def fit(self, X, y=None):
        """Compute the SVD of the training data and keep its leading k right singular vectors.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points (not centred).
        y : None
            Ignored.

        Returns
        -------
        TruncatedSVDEmbedding
            The fitted estimator.
        """
        self._validate_params()
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        U, s, Vt = sla.svd(X, full_matrices=False)
        U, Vt = svd_flip(U, Vt)  # deterministic signs, so that pictures do not flip between fits
        k = min(self.n_components, s.size)
        if k < self.n_components:
            warnings.warn(
                f"A rank-{self.n_components} SVD of {X.shape[0]} points in {X.shape[1]} "
                f"dimensions has only {k} real coordinates; the other "
                f"{self.n_components - k} are zero. Choose n_components <= {k}.",
                UserWarning,
                stacklevel=2,
            )
        self.n_components_ = k
        self.components_ = np.zeros((self.n_components, X.shape[1]))
        self.components_[:k] = Vt[:k]
        self.singular_values_ = np.zeros(self.n_components)
        self.singular_values_[:k] = s[:k]
        self._n_features_out = self.n_components
        self.expansion_ = Expansion(
            Kernel("linear"),
            self.components_,
            np.eye(self.n_components),
            0.0,
            centers_are_points=False,
        )
        return self

    def transform(self, X):
        """The coordinates of points in the leading singular vectors.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to represent.

        Returns
        -------
        ndarray of shape (n_samples, n_components)
            The coordinates V_k' x of each row (zero beyond ``n_components_``).
        """
        check_is_fitted(self, "components_")
        return validate_data(self, X, dtype=np.float64, reset=False) @ self.components_.T


# -- what the window and the pipeline know of these estimators ----------------------------------
def _linear_work(p: Problem) -> Work:
    # The d x d scatter and its factorization; the features are affine maps of the d inputs.
    n, d = p.n, p.d
    return Work(0.0, 4.0 * n * d * d + 10.0 * d**3, 8.0 * 3.0 * n * d, d)


_LINEAR_COST = CostModel(_linear_work)

# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "pca": Guide(
        computes="The directions of largest variance in the input space itself (no kernel).",
        picture="Straight, parallel level sets: a linear feature.",
        try_this="Compare with kernel PCA's first feature on the same data.",
        source="Mika et al., TPAMI 2003, (1) with S_I the covariance (2) and S_N = I.",
    ),
    "lda": Guide(
        computes=(
            "Fisher's linear discriminant: the direction best separating the class means "
            "against the spread within classes, in the input space."
        ),
        picture="A straight boundary and parallel level sets.",
        try_this="Compare with KFD: on two moons no straight line separates the classes.",
        source=(
            "Fisher 1936; KFD with the linear kernel (TPAMI 2003, (1) with S_I, S_N as in Sec. 1)."
        ),
    ),
    "svd": Guide(
        computes=(
            "Each point's coordinates along the leading singular vectors of the data matrix "
            "(a rank-k SVD)."
        ),
        picture="The embedding in those coordinates: a linear projection.",
        try_this="Compare with KOC on iris in 3-D, as Park & Park's Fig. 1 does.",
        source="Park & Park 2002, Fig. 1 (rank-3 SVD).",
    ),
}

SPECS = (
    AlgorithmSpec(
        "pca",
        "Linear PCA",
        Kind.FEATURES,
        LinearPCA,
        (ParamSpec("n_components", default=2, low=1, high=50, label="Components"),),
        cost=_LINEAR_COST,
        guide=_GUIDES["pca"],
        description="Principal components of the input space.",
    ),
    AlgorithmSpec(
        "lda",
        "Linear discriminant",
        Kind.CLASSIFIER,
        LinearDiscriminant,
        (),
        cost=_LINEAR_COST,
        min_classes=2,
        guide=_GUIDES["lda"],
        description="Fisher's linear discriminant: KFD with the linear kernel.",
    ),
    AlgorithmSpec(
        "svd",
        "Rank-k SVD",
        Kind.EMBEDDING,
        TruncatedSVDEmbedding,
        (ParamSpec("n_components", default=3, low=1, high=10, label="Rank k"),),
        cost=_LINEAR_COST,
        guide=_GUIDES["svd"],
        description="Coordinates in the leading singular vectors (Park & Park, Fig. 1).",
    ),
)
