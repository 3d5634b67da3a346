"""Support vector machines under kfdviz's parameter names, with their fitted expansions.

The papers compare KFD with support vector machines (TPAMI Table 1, NIPS 2000 Table 2 and Fig. 3)
and KPCA novelty detection with the one-class SVM (Hoffmann 2007). These wrap scikit-learn's
libsvm estimators, take the kernel as ``kernel``/``width``/``degree``/``coef0`` (converted only by
``Kernel.sklearn_params``), and expose the fitted function as an ``Expansion`` so the same fast
grid evaluator draws them.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    OutlierMixin,
    RegressorMixin,
)
from sklearn.svm import SVC, SVR, OneClassSVM
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ..core.expansion import Expansion
from ..core.kernels import Kernel
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from ._compat import Interval, StrOptions
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Guide, Kind, ParamSpec, Problem, Work

_SVM_CONSTRAINTS = {
    **KERNEL_PARAMETER_CONSTRAINTS,
    "tol": [Interval(Real, 0.0, None, closed="neither")],
    "max_iter": [Interval(Integral, -1, None, closed="left")],
}


def _kernel_expansion(kern: Kernel, svm) -> Expansion:
    """f(x) = sum_i dual_coef_i k(sv_i, x) + intercept: what libsvm's decision function computes."""
    return Expansion(kern, svm.support_vectors_, svm.dual_coef_[0], svm.intercept_[0])


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
    feature_names_in_ : ndarray of shape (n_features_in,)
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
        f(x) = sum_i dual_coef_i k(sv_i, x) - ``offset_``, equal to ``decision_function``.
    dual_coef_ : ndarray of shape (n_SV,)
        The expansion's coefficients a_i.
    expansion_points_ : ndarray of shape (n_SV, n_features)
        The points the expansion runs over, the support vectors.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
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
    feature_names_in_ : ndarray of shape (n_features_in,)
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


# -- what the window and the pipeline know of these estimators ----------------------------------
def _svm_work(p: Problem) -> Work:
    # At most every training point is a support vector; libsvm caches kernel rows (200 MB).
    n = p.n
    return Work(3.0 * n * n, 0.0, min(8.0 * n * n, 200 * 2**20), n)


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

# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "svm": Guide(
        computes=(
            "The boundary with the widest margin to the nearest points of each class "
            "(libsvm's C-SVC)."
        ),
        picture="The decision value, its zero line and the support vectors (circled).",
        try_this=(
            "Lower C and the margin widens with more points inside it; compare with KFD at "
            "the same width."
        ),
        source="The papers' baseline (Boser, Guyon & Vapnik 1992; Cortes & Vapnik 1995).",
    ),
    "one-class-svm": Guide(
        computes=(
            "The smallest region in feature space holding all but a fraction ν of the "
            "training points."
        ),
        picture="The decision value and the boundary around the data; support vectors circled.",
        try_this="Compare with KPCA novelty on the noisy sine, as Hoffmann does (Fig. 6).",
        source="Schölkopf et al. 2001; Hoffmann 2007, Fig. 6.",
    ),
    "svr": Guide(
        computes=(
            "A regression that ignores errors smaller than ε and penalizes larger ones linearly."
        ),
        picture=(
            "The fitted curve with its ε-tube; the samples outside the tube are support vectors."
        ),
        try_this="Widen ε and watch the curve flatten as fewer samples hold it.",
        source="Vapnik's ε-SVR; Mika, Rätsch & Müller, NIPS 2001, Fig. 3 (the comparison).",
    ),
}

SPECS = (
    AlgorithmSpec(
        "svm",
        "Support vector machine",
        Kind.CLASSIFIER,
        SupportVectorClassifier,
        (*KERNEL_PARAMS, _C_param(1.0)),
        cost=_SVM_COST,
        min_classes=2,
        guide=_GUIDES["svm"],
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
        guide=_GUIDES["one-class-svm"],
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
        guide=_GUIDES["svr"],
        description="ε-SVR, NIPS 2000's comparison for KFD regression (Fig. 3).",
    ),
)
