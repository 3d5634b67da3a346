"""The Kernel Orthogonal Centroid method (Park & Park) as a supervised transformer."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets

from ..core.expansion import Expansion
from ..core.koc import KOC_ALGORITHMS, centroid_indicator, koc_cholesky, koc_gram_schmidt
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin, label_text
from .kpca import expansion_over_all_points
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Kind, ParamSpec, Problem, Work


class KernelOrthogonalCentroid(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Project onto an orthonormal basis of the class centroids in feature space.

    Parameters
    ----------
    kernel, width, degree, coef0
        The kernel; the KOC paper writes the Gaussian as exp(-||x - y||^2 / sigma): width = sigma.
    algorithm : {"cholesky", "gram-schmidt"}
        Algorithm 2 (Cholesky of M'KM, r x r) or Algorithm 3 (modified Gram-Schmidt on the
        implicit centroids). Both give the same r-dimensional embedding.
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        "algorithm": [StrOptions(set(KOC_ALGORITHMS))],
    }

    def __init__(self, *, kernel="rbf", width=1.0, degree=3, coef0=1.0, algorithm="cholesky"):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.algorithm = algorithm

    def fit(self, X, y):
        self._validate_params()
        X, y = self._check_X_y(X, y)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(
                f"KernelOrthogonalCentroid needs at least two classes, but y holds only one class "
                f"({label_text(self.classes_[0])})."
            )
        kern = self._make_kernel()
        K = kern(X, X)
        M = centroid_indicator(y_index, self.classes_.size)
        solve = koc_cholesky if self.algorithm == "cholesky" else koc_gram_schmidt
        A = solve(K, M)
        self.expansion_ = Expansion(kern, X, A, np.zeros(A.shape[1]))
        self._n_features_out = A.shape[1]
        self.diagnostics_ = {
            "centroid_gram_condition": float(np.linalg.cond(M.T @ K @ M)),
            "warnings": [],
        }
        return self

    def transform(self, X):
        """Feature values at the rows of X; a row whose kernel values overflow raises ValueError."""
        return self._feature_values(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


# -- what the window and the pipeline know of this estimator ------------------------------------
def _koc_work(p: Problem) -> Work:
    # K M (n x n by n x r) and the r x r factorization, over the whole kernel matrix.
    n, r = p.n, max(p.classes, 2)
    return expansion_over_all_points(p, 2.0 * n * n * r + 4.0 * n * r * r)


SPECS = (
    AlgorithmSpec(
        "koc",
        "Kernel Orthogonal Centroid",
        Kind.EMBEDDING,
        KernelOrthogonalCentroid,
        (
            *KERNEL_PARAMS,
            ParamSpec(
                "algorithm",
                choices=KOC_ALGORITHMS,
                default="cholesky",
                label="Algorithm",
                tooltip="Park & Park Algorithm 2 (Cholesky of M'KM) or 3 "
                "(modified Gram-Schmidt); both give the same embedding.",
            ),
        ),
        cost=CostModel(_koc_work),
        min_classes=2,
        description="Orthonormal basis of the class centroids in feature space (Park & Park).",
    ),
)
