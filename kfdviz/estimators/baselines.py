"""scikit-learn baselines under kfdviz's parameter names, with their fitted expansions.

The papers compare KFD with support vector machines (TPAMI Table 1, NIPS 2000 Table 2 and Fig. 3)
and KOC with a rank-3 SVD (Park & Park, Fig. 1). These wrap scikit-learn's estimators, take the
kernel as ``kernel``/``width``/``degree``/``coef0`` (converted only by ``Kernel.sklearn_params``),
and expose the fitted function as an ``Expansion`` so the same fast grid evaluator draws them. The
linear methods' features are affine maps, written as expansions over the linear kernel.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.linalg as sla
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    OutlierMixin,
    RegressorMixin,
    TransformerMixin,
)
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.svm import SVC, SVR, OneClassSVM
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.extmath import svd_flip
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core.expansion import Expansion
from ..core.kernels import Kernel
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Kind, ParamSpec, Problem, Work

_SVM_CONSTRAINTS = {
    **KERNEL_PARAMETER_CONSTRAINTS,
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "max_iter": [Interval(Integral, -1, None, closed="left")],
}


def _kernel_expansion(kern: Kernel, svm) -> Expansion:
    """f(x) = sum_i dual_coef_i k(sv_i, x) + intercept: what libsvm's decision function computes."""
    return Expansion(kern, svm.support_vectors_, svm.dual_coef_[0], svm.intercept_[0])


def _affine_expansion(transform, n_features: int) -> Expansion:
    """An affine map x -> x W + c as features over the linear kernel (centers = columns of W)."""
    offset = transform(np.zeros((1, n_features)))[0]
    W = transform(np.eye(n_features)) - offset  # (d, k): row i is the image of e_i, less c
    return Expansion(Kernel("linear"), W.T, np.eye(W.shape[1]), offset, centers_are_points=False)


class _SVMBase(KernelEstimatorMixin, BaseEstimator):
    def _svm_params(self) -> dict:
        return {
            **self._make_kernel().sklearn_params(),
            "tol": self.tol,
            "max_iter": self.max_iter,
        }

    def _delegate(self, method: str, X):
        """The fitted libsvm machine's ``method`` on X, validated as at fit time."""
        check_is_fitted(self, "svm_")
        return getattr(self.svm_, method)(self._check_X(X, reset=False))

    def _record(self, svm, kern: Kernel, n_samples: int, expansion: bool = True):
        self.svm_ = svm
        self.support_ = svm.support_
        self.support_vectors_ = svm.support_vectors_
        self.n_iter_ = svm.n_iter_
        # The papers count the expansion coefficients that vanish: training points that are not
        # support vectors.
        self.sparsity_ = 1.0 - svm.support_.size / n_samples
        if expansion:
            self.expansion_ = _kernel_expansion(kern, svm)


class SupportVectorClassifier(ClassifierMixin, _SVMBase):
    """C-support vector classifier (libsvm through scikit-learn's SVC).

    Two classes: ``expansion_`` is the decision function f(x) = sum_i y_i a_i k(x_i, x) + b over
    the support vectors, positive for ``classes_[1]``. More classes: scikit-learn's one-vs-one
    machines, without an expansion.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z. ``Kernel.sklearn_params`` gives libsvm the same kernel in scikit-learn's
        naming (for the polynomial kernel, gamma = 1).
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c), the papers' convention;
        scikit-learn's gamma is 1/c (Hoffmann's sigma is c = 2 sigma^2). Unused by the other
        kernels.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    C : float, default=1.0
        Trade-off between the margin and the training errors: larger C, fewer errors.
    class_weight : dict, "balanced" or None, default=None
        Multiplies C for each class: ``{label: weight}``, or "balanced" for weights
        n_samples / (n_classes * count of the class); None weighs every class 1.
    tol : float, default=1e-3
        Tolerance of libsvm's stopping criterion.
    max_iter : int, default=-1
        Limit on libsvm's iterations, -1 for none; a fit stopped by the limit warns with
        scikit-learn's ConvergenceWarning.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    svm_ : sklearn.svm.SVC
        The fitted scikit-learn machine the methods delegate to.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors, ``X[support_]``.
    n_iter_ : ndarray of shape (n_classes * (n_classes - 1) // 2,)
        libsvm's iterations, one count per pair of classes.
    sparsity_ : float
        Fraction of the training points that are not support vectors: the expansion
        coefficients that vanish, as the papers count them.
    expansion_ : Expansion
        Two classes only: f(x) = sum_i dual_coef_i k(sv_i, x) + b, equal to
        ``decision_function``; the app draws its level sets with the grid evaluator every
        kernel expansion shares.
    dual_coef_ : ndarray of shape (n_SV,)
        Two classes only: the expansion's coefficients y_i a_i.
    expansion_points_ : ndarray of shape (n_SV, n_features)
        Two classes only: the points the expansion runs over, the support vectors.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelFisherDiscriminant : The kernel Fisher discriminant the papers compare with this SVM.
    sklearn.svm.SVC : The scikit-learn estimator this one wraps.

    Notes
    -----
    The papers' classification baseline: TPAMI Table 1 and NIPS 2000 Table 2 compare KFD, SKFD
    and LSKFD with an SVM on the IDA benchmarks, the fraction of zero expansion coefficients in
    brackets being ``sparsity_``; NIPS 2000 Fig. 2 compares the two methods' output
    distributions on ringnorm. The SVM maximizes the smallest margin where KFD maximizes the
    average one.

    Fitting and the methods run in libsvm, which computes its own kernel values and keeps a
    per-fit kernel-row cache (scikit-learn's ``cache_size``, 200 MB); they use none of kfdviz's
    module-level caches. Only ``expansion_.evaluate`` at a few points (the training points of a
    picture) keeps its kernel values in the bounded, least recently used
    ``kfdviz.core.kernels.PAIRWISE_CACHE``, as every kfdviz expansion does;
    ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] C. Cortes, V. Vapnik, "Support-vector networks", Machine Learning 20(3), 1995.
    .. [2] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: Table 1, the SVM column.
    .. [3] S. Mika, G. Rätsch, K.-R. Müller, "A Mathematical Programming Approach to the Kernel
       Fisher Algorithm", NIPS 13, 2001: Fig. 2 (output distributions) and Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import SupportVectorClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(-2.0, 1.0, (50, 2)), rng.normal(2.0, 1.0, (50, 2))])
    >>> y = np.repeat([0, 1], 50)
    >>> clf = SupportVectorClassifier(width=2.0, C=10.0).fit(X, y)
    >>> clf.predict([[-3.0, -3.0], [3.0, 3.0]]).tolist()
    [0, 1]
    >>> float(clf.svm_.gamma)  # scikit-learn's gamma = 1 / width
    0.5
    >>> bool(np.allclose(clf.expansion_.evaluate(X)[:, 0], clf.decision_function(X)))
    True
    """

    _parameter_constraints = {
        **_SVM_CONSTRAINTS,
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "class_weight": [StrOptions({"balanced"}), dict, None],
    }

    def __init__(
        self,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        C=1.0,
        class_weight=None,
        tol=1e-3,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.C = C
        self.class_weight = class_weight
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        """Train libsvm's soft-margin machine on the samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points.
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.

        Returns
        -------
        SupportVectorClassifier
            The fitted classifier.
        """
        self._validate_params()
        X, y = self._check_X_y(X, y)
        check_classification_targets(y)
        kern = self._make_kernel()
        svm = SVC(C=self.C, class_weight=self.class_weight, **self._svm_params()).fit(X, y)
        self.classes_ = svm.classes_
        self._record(svm, kern, X.shape[0], expansion=self.classes_.size == 2)
        return self

    def decision_function(self, X):
        """Signed decision values: the side of the separating surface, +-1 on the margin.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to evaluate.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: f(x), positive for ``classes_[1]``. More classes: scikit-learn's
            one-vs-rest values aggregated from the one-vs-one machines, one column per class.
        """
        return self._delegate("decision_function", X)

    def predict(self, X):
        """The class of each point.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``: with two classes ``classes_[1]`` where f(x) > 0, else
            ``classes_[0]``; with more, the one-vs-one vote.
        """
        return self._delegate("predict", X)


class OneClassSupportVector(OutlierMixin, _SVMBase):
    """One-class SVM (Schölkopf et al.) through scikit-learn's OneClassSVM.

    Separates the training points from the origin in feature space with maximal margin:
    ``decision_function`` = ``expansion_`` = sum_i a_i k(x_i, x) - rho, positive inside the
    estimated support of the distribution.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z. ``Kernel.sklearn_params`` gives libsvm the same kernel in scikit-learn's
        naming (for the polynomial kernel, gamma = 1).
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c), the papers' convention;
        scikit-learn's gamma is 1/c (Hoffmann's sigma is c = 2 sigma^2). Unused by the other
        kernels.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    nu : float in (0, 1], default=0.5
        An upper bound on the fraction of training points outside the boundary and a lower
        bound on the fraction of support vectors.
    tol : float, default=1e-3
        Tolerance of libsvm's stopping criterion.
    max_iter : int, default=-1
        Limit on libsvm's iterations, -1 for none; a fit stopped by the limit warns with
        scikit-learn's ConvergenceWarning.

    Attributes
    ----------
    svm_ : sklearn.svm.OneClassSVM
        The fitted scikit-learn machine the methods delegate to.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors, ``X[support_]``.
    n_iter_ : int
        libsvm's iterations.
    sparsity_ : float
        Fraction of the training points that are not support vectors (at most 1 - nu).
    offset_ : float
        rho: ``decision_function = score_samples - offset_``.
    expansion_ : Expansion
        f(x) = sum_i dual_coef_i k(sv_i, x) - offset_, equal to ``decision_function``.
    dual_coef_ : ndarray of shape (n_SV,)
        The expansion's coefficients a_i.
    expansion_points_ : ndarray of shape (n_SV, n_features)
        The points the expansion runs over, the support vectors.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelPCANoveltyDetector : Hoffmann's reconstruction error, the method compared with this.
    ParzenNoveltyDetector : The Gaussian density estimate, Hoffmann's classical baseline.
    sklearn.svm.OneClassSVM : The scikit-learn estimator this one wraps.

    Notes
    -----
    Hoffmann (2007) compares kernel PCA's reconstruction error with the one-class SVM: with the
    Gaussian kernel every point lies on a sphere in feature space and the SVM cuts off a cap of
    it (his Fig. 1); on the sine-noise data (his Fig. 6, sigma = 0.489 and nu = 2/7, so
    width = 2 sigma^2 = 0.478) its boundary is blobby where the reconstruction error's follows
    the sine. The app's novelty presets draw the two side by side and compare their ROC curves.

    Fitting and the methods run in libsvm, which computes its own kernel values and keeps a
    per-fit kernel-row cache (scikit-learn's ``cache_size``, 200 MB); they use none of kfdviz's
    module-level caches. Only ``expansion_.evaluate`` at a few points (the training points of a
    picture) keeps its kernel values in the bounded, least recently used
    ``kfdviz.core.kernels.PAIRWISE_CACHE``, as every kfdviz expansion does;
    ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] B. Schölkopf, J. C. Platt, J. Shawe-Taylor, A. J. Smola, R. C. Williamson,
       "Estimating the Support of a High-Dimensional Distribution", Neural Computation 13(7),
       2001.
    .. [2] H. Hoffmann, "Kernel PCA for novelty detection", Pattern Recognition 40(3), 2007:
       Fig. 1 (the one-class SVM's boundary in feature space) and Fig. 6 (sine-noise).

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import OneClassSupportVector
    >>> X = np.random.default_rng(0).standard_normal((200, 2))
    >>> det = OneClassSupportVector(width=2.0, nu=0.1).fit(X)
    >>> det.predict([[0.0, 0.0], [5.0, 5.0]]).tolist()
    [1, -1]
    >>> bool(det.support_.size >= 0.1 * 200)  # nu bounds the support vectors from below
    True
    >>> bool(np.allclose(det.decision_function(X), det.score_samples(X) - det.offset_))
    True
    """

    _parameter_constraints = {
        **_SVM_CONSTRAINTS,
        "nu": [Interval(Real, 0.0, 1.0, closed="right")],
    }

    def __init__(self, kernel="rbf", width=1.0, degree=3, coef0=1.0, nu=0.5, tol=1e-3, max_iter=-1):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.nu = nu
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y=None):
        """Estimate the support of the training points' distribution.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, all taken as normal.
        y : None
            Ignored.

        Returns
        -------
        OneClassSupportVector
            The fitted detector.
        """
        self._validate_params()
        X = self._check_X(X, reset=True)
        kern = self._make_kernel()
        svm = OneClassSVM(nu=self.nu, **self._svm_params()).fit(X)
        self._record(svm, kern, X.shape[0])
        self.offset_ = float(svm.offset_[0]) if np.ndim(svm.offset_) else float(svm.offset_)
        return self

    def decision_function(self, X):
        """Signed distance to the boundary: positive inside, negative outside.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The values f(x) = sum_i a_i k(x_i, x) - rho, ``score_samples(X) - offset_``.
        """
        return self._delegate("decision_function", X)

    def score_samples(self, X):
        """The unshifted decision values: higher is more normal.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,)
            The values sum_i a_i k(x_i, x), ``decision_function(X) + offset_``.
        """
        return self._delegate("score_samples", X)

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
        return self._delegate("predict", X)


class SupportVectorRegressor(RegressorMixin, _SVMBase):
    """Epsilon-support vector regression (libsvm through scikit-learn's SVR).

    Fits f(x) = sum_i (a_i - a_i*) k(x_i, x) + b with the epsilon-insensitive loss and the
    regularizer ||w||^2; ``expansion_`` is its prediction.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z. ``Kernel.sklearn_params`` gives libsvm the same kernel in scikit-learn's
        naming (for the polynomial kernel, gamma = 1).
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c), the papers' convention;
        scikit-learn's gamma is 1/c (Hoffmann's sigma is c = 2 sigma^2). Unused by the other
        kernels.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel.
    C : float, default=1.0
        Trade-off between the flatness of f and the deviations beyond epsilon: larger C,
        fewer deviations.
    epsilon : float, default=0.1
        Half-width of the epsilon-insensitive tube: residuals inside it cost nothing.
    tol : float, default=1e-3
        Tolerance of libsvm's stopping criterion.
    max_iter : int, default=-1
        Limit on libsvm's iterations, -1 for none; a fit stopped by the limit warns with
        scikit-learn's ConvergenceWarning.

    Attributes
    ----------
    svm_ : sklearn.svm.SVR
        The fitted scikit-learn machine the methods delegate to.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors in the training set: the points on or outside the tube.
    support_vectors_ : ndarray of shape (n_SV, n_features)
        The support vectors, ``X[support_]``.
    n_iter_ : int
        libsvm's iterations.
    sparsity_ : float
        Fraction of the training points that are not support vectors, as the papers count.
    expansion_ : Expansion
        f(x) = sum_i dual_coef_i k(sv_i, x) + b, equal to ``predict``.
    dual_coef_ : ndarray of shape (n_SV,)
        The expansion's coefficients a_i - a_i*.
    expansion_points_ : ndarray of shape (n_SV, n_features)
        The points the expansion runs over, the support vectors.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of the input features; defined only when X has feature names that are all
        strings.

    See Also
    --------
    KernelFisherRegressor : KFD regression, which NIPS 2000 compares with this.
    sklearn.svm.SVR : The scikit-learn estimator this one wraps.

    Notes
    -----
    NIPS 2000 (sec. 4) relates KFD regression to SVM regression, the epsilon-insensitive loss
    with the regularizer alpha' K alpha = ||w||^2, and reports for its Fig. 3 (sinc) far fewer
    non-zero coefficients than SVM regression. The app's "SVR tube" action fits this
    estimator with the same kernel beside a KFD regression and draws its tube.

    Fitting and ``predict`` run in libsvm, which computes its own kernel values and keeps a
    per-fit kernel-row cache (scikit-learn's ``cache_size``, 200 MB); they use none of kfdviz's
    module-level caches. Only ``expansion_.evaluate`` at a few points (the training points of a
    picture) keeps its kernel values in the bounded, least recently used
    ``kfdviz.core.kernels.PAIRWISE_CACHE``, as every kfdviz expansion does;
    ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] A. J. Smola, B. Schölkopf, "A tutorial on support vector regression", Statistics
       and Computing 14(3), 2004.
    .. [2] S. Mika, G. Rätsch, K.-R. Müller, "A Mathematical Programming Approach to the Kernel
       Fisher Algorithm", NIPS 13, 2001: sec. 4 (regression and the connection to SVM) and
       Fig. 3.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import SupportVectorRegressor
    >>> x = np.linspace(-10, 10, 60)[:, None]
    >>> y = np.sinc(x[:, 0] / np.pi)
    >>> reg = SupportVectorRegressor(width=4.0, C=10.0, epsilon=0.05).fit(x, y)
    >>> bool(np.max(np.abs(reg.predict(x) - y)) < 0.1)
    True
    >>> bool(np.allclose(reg.expansion_.evaluate(x)[:, 0], reg.predict(x)))
    True
    """

    _parameter_constraints = {
        **_SVM_CONSTRAINTS,
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(
        self,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        C=1.0,
        epsilon=0.1,
        tol=1e-3,
        max_iter=-1,
    ):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.C = C
        self.epsilon = epsilon
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        """Solve libsvm's epsilon-SVR program on the samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training inputs.
        y : array-like of shape (n_samples,)
            Real-valued targets.

        Returns
        -------
        SupportVectorRegressor
            The fitted regressor.
        """
        self._validate_params()
        X, y = self._check_X_y(X, y, y_numeric=True)
        kern = self._make_kernel()
        svm = SVR(C=self.C, epsilon=self.epsilon, **self._svm_params()).fit(X, y)
        self._record(svm, kern, X.shape[0])
        return self

    def predict(self, X):
        """The fitted function at the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The values f(x) = sum_i dual_coef_i k(sv_i, x) + b.
        """
        return self._delegate("predict", X)


# -- linear baselines -------------------------------------------------------------------------------


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
    feature_names_in_ : ndarray of shape (n_features_in_,)
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
    feature_names_in_ : ndarray of shape (n_features_in_,)
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
    feature_names_in_ : ndarray of shape (n_features_in_,)
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
def _svm_work(p: Problem) -> Work:
    # At most every training point is a support vector; libsvm caches kernel rows (200 MB).
    n = p.n
    return Work(3.0 * n * n, 0.0, min(8.0 * n * n, 200 * 2**20), n)


def _linear_work(p: Problem) -> Work:
    # The d x d scatter and its factorization; the features are affine maps of the d inputs.
    n, d = p.n, p.d
    return Work(0.0, 4.0 * n * d * d + 10.0 * d**3, 8.0 * 3.0 * n * d, d)


def _C_param(default: float) -> ParamSpec:
    return ParamSpec(
        "C",
        default=default,
        low=1e-3,
        high=1e4,
        log=True,
        label="C",
        tooltip="SVM trade-off between margin and training errors (larger: fewer errors).",
    )


_SVM_COST = CostModel(_svm_work)
_LINEAR_COST = CostModel(_linear_work)

SPECS = (
    AlgorithmSpec(
        "svm",
        "Support vector machine",
        Kind.CLASSIFIER,
        SupportVectorClassifier,
        (*KERNEL_PARAMS, _C_param(1.0)),
        cost=_SVM_COST,
        min_classes=2,
        description="The papers' baseline: maximizes the smallest margin (libsvm's SVC).",
    ),
    AlgorithmSpec(
        "one-class-svm",
        "One-class SVM",
        Kind.NOVELTY,
        OneClassSupportVector,
        (
            *KERNEL_PARAMS,
            ParamSpec(
                "nu",
                default=0.5,
                low=1e-3,
                high=1.0,
                log=True,
                label="ν",
                tooltip="Upper bound on the fraction of outliers, lower bound on support vectors.",
            ),
        ),
        cost=_SVM_COST,
        score_label="novelty score (unshifted decision value)",
        description="Schölkopf's one-class SVM, Hoffmann's comparison for KPCA novelty.",
    ),
    AlgorithmSpec(
        "svr",
        "Support vector regression",
        Kind.REGRESSOR,
        SupportVectorRegressor,
        (
            *KERNEL_PARAMS,
            _C_param(10.0),
            ParamSpec(
                "epsilon",
                default=0.1,
                low=1e-4,
                high=10.0,
                log=True,
                label="ε",
                tooltip="Half-width of the ε-insensitive tube.",
            ),
        ),
        cost=_SVM_COST,
        description="ε-SVR, NIPS 2000's comparison for KFD regression (Fig. 3).",
    ),
    AlgorithmSpec(
        "pca",
        "Linear PCA",
        Kind.FEATURES,
        LinearPCA,
        (ParamSpec("n_components", default=2, low=1, high=50, label="Components"),),
        cost=_LINEAR_COST,
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
        description="Fisher's linear discriminant: KFD with the linear kernel.",
    ),
    AlgorithmSpec(
        "svd",
        "Rank-k SVD",
        Kind.EMBEDDING,
        TruncatedSVDEmbedding,
        (ParamSpec("n_components", default=3, low=1, high=10, label="Rank k"),),
        cost=_LINEAR_COST,
        description="Coordinates in the leading singular vectors (Park & Park, Fig. 1).",
    ),
)
