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

    Two classes: ``expansion_`` is the decision function sum_i y_i a_i k(x_i, x) + b over the
    support vectors. More classes: scikit-learn's one-vs-one machines, without an expansion.
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
        self._validate_params()
        X, y = self._check_X_y(X, y)
        check_classification_targets(y)
        kern = self._make_kernel()
        svm = SVC(C=self.C, class_weight=self.class_weight, **self._svm_params()).fit(X, y)
        self.classes_ = svm.classes_
        self._record(svm, kern, X.shape[0], expansion=self.classes_.size == 2)
        return self

    def decision_function(self, X):
        return self._delegate("decision_function", X)

    def predict(self, X):
        return self._delegate("predict", X)


class OneClassSupportVector(OutlierMixin, _SVMBase):
    """One-class SVM (Schölkopf et al.) through scikit-learn's OneClassSVM.

    ``decision_function`` = ``expansion_`` = sum_i a_i k(x_i, x) - rho: positive inside.
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
        self._validate_params()
        X = self._check_X(X, reset=True)
        kern = self._make_kernel()
        svm = OneClassSVM(nu=self.nu, **self._svm_params()).fit(X)
        self._record(svm, kern, X.shape[0])
        self.offset_ = float(svm.offset_[0]) if np.ndim(svm.offset_) else float(svm.offset_)
        return self

    def decision_function(self, X):
        return self._delegate("decision_function", X)

    def score_samples(self, X):
        return self._delegate("score_samples", X)

    def predict(self, X):
        return self._delegate("predict", X)


class SupportVectorRegressor(RegressorMixin, _SVMBase):
    """epsilon-support vector regression (scikit-learn's SVR); ``expansion_`` is its prediction."""

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
        self._validate_params()
        X, y = self._check_X_y(X, y, y_numeric=True)
        kern = self._make_kernel()
        svm = SVR(C=self.C, epsilon=self.epsilon, **self._svm_params()).fit(X, y)
        self._record(svm, kern, X.shape[0])
        return self

    def predict(self, X):
        return self._delegate("predict", X)


# -- linear baselines -------------------------------------------------------------------------------


class LinearPCA(TransformerMixin, BaseEstimator):
    """Principal component analysis (scikit-learn's PCA, exact SVD); ``expansion_`` = transform."""

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "whiten": ["boolean"],
    }

    def __init__(self, n_components=2, whiten=False):
        self.n_components = n_components
        self.whiten = whiten

    def fit(self, X, y=None):
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
        check_is_fitted(self, "pca_")
        return self.pca_.transform(validate_data(self, X, dtype=np.float64, reset=False))


class LinearDiscriminant(ClassifierMixin, TransformerMixin, BaseEstimator):
    """Fisher's linear discriminant (scikit-learn's LinearDiscriminantAnalysis).

    ``transform`` gives the (at most r - 1) discriminant directions; ``expansion_`` equals it.
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
        X = self._X(X)
        return self.lda_.transform(X)

    def decision_function(self, X):
        X = self._X(X)
        return self.lda_.decision_function(X)

    def predict(self, X):
        X = self._X(X)
        return self.lda_.predict(X)

    def predict_proba(self, X):
        X = self._X(X)
        return self.lda_.predict_proba(X)


class TruncatedSVDEmbedding(TransformerMixin, BaseEstimator):
    """The optimal rank-k approximation of the data matrix by its SVD (Park & Park, Fig. 1).

    X = U S V' (uncentered, as in the KOC paper); a point x is represented by its coordinates
    V_k' x in the leading k right singular vectors. ``expansion_`` equals ``transform``. When k
    exceeds min(n_samples, n_features) the rank-k approximation is the data itself: the extra
    coordinates are identically zero (``n_components_`` counts the real ones).
    """

    _parameter_constraints = {"n_components": [Interval(Integral, 1, None, closed="left")]}

    def __init__(self, n_components=3):
        self.n_components = n_components

    def fit(self, X, y=None):
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
