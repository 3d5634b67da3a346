"""The Kernel Orthogonal Centroid method (Park & Park) as a supervised transformer."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets

from ..core.expansion import Expansion
from ..core.koc import KOC_ALGORITHMS, centroid_indicator, koc_cholesky, koc_gram_schmidt
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin, label_text
from ._compat import StrOptions
from .kpca import expansion_over_all_points
from .spec import KERNEL_PARAMS, AlgorithmSpec, CostModel, Guide, Kind, ParamSpec, Problem, Work


class KernelOrthogonalCentroid(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Kernel Orthogonal Centroid: project onto an orthonormal basis of the class centroids.

    Parameters
    ----------
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z.
    width : float, default=1.0
        Width of the Gaussian kernel: Park & Park write it exp(-||x - y||^2 / sigma) (their
        eq. 22), so width = sigma (scikit-learn's gamma = 1/width).
    degree : int, default=3
        Degree d of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel; Park & Park's experiments use (x.y + 1)^d.
    algorithm : {"cholesky", "gram-schmidt"}, default="cholesky"
        Park & Park's Algorithm 2 (Cholesky factor of the r x r matrix M'KM) or Algorithm 3
        (modified Gram-Schmidt on the implicit centroids in feature space). Both give the same
        r-dimensional embedding, up to round-off.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, in the order of the features: feature j belongs to centroid j.
    expansion_ : Expansion
        The r = n_classes features as kernel expansions over the training points,
        Q_r' Phi(x) = A' k(X, x), with zero offsets.
    diagnostics_ : dict
        ``"centroid_gram_condition"`` (condition number of M'KM: large when two centroids are
        nearly parallel in feature space) and ``"warnings"`` (list of str).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features, when X has string column names.

    See Also
    --------
    KernelFisherDiscriminant : The r - 1 discriminant (GDA) features, from a generalized
        eigenproblem instead of an r x r factorization.
    KernelPCA : Directions of largest variance, ignoring the classes.

    Notes
    -----
    The Orthogonal Centroid method [1]_ takes the class centroids as representatives of the
    classes and maps x to its coordinates in an orthonormal basis Q_r of their span, the QR
    factorization C = Q_r R of the centroid matrix (eqs. 7-8); that basis maximizes
    trace(G' S_b G), the between-class scatter (9), over all G with orthonormal columns
    (eqs. 11-18). The kernel version applies it to the mapped data: the centroid matrix
    C = [c_1, ..., c_r] in feature space (eq. 24) has Gram matrix C'C = M'KM (eq. 25) with
    M_ij = 1/n_j for the points i of class j (eq. 27). Algorithm 2 factors M'KM = R'R
    (eq. 28), and x maps to Q_r' Phi(x) = R^-T M' k(X, x) (eqs. 29-31), here written as the
    expansion A = M R^-1; Algorithm 3 builds the same coefficients by modified Gram-Schmidt
    (eqs. 32-39). Each class centroid maps to a column of the upper triangular R: the mean
    feature vector of class j is zero beyond its j-th entry.

    M'KM must be positive definite: the centroids must be linearly independent in feature
    space. A Gaussian kernel on distinct points ensures it; with a linear or low-degree
    polynomial kernel more classes than the feature space has dimensions make it singular,
    and ``fit`` raises ValueError.

    The fit keeps the squared distances (Gaussian kernel) or inner products of the training
    points in ``kfdviz.core.kernels.PAIRWISE_CACHE``, a bounded (512 MiB, 32 entries), least
    recently used, module-level cache shared by every fit, so that a refit on the same points
    with another width skips them; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] C. Park, H. Park, "Nonlinear Feature Extraction based on Centroids and Kernel
       Functions", Dept. of Computer Science and Engineering, University of Minnesota, 2002:
       the Orthogonal Centroid method (Algorithm 1, eqs. 7-18), the kernel version
       (eqs. 22-39, Algorithms 2 and 3), Figs. 1-3 and Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import KernelOrthogonalCentroid
    >>> rng = np.random.default_rng(0)
    >>> X = np.vstack([rng.normal(c, 0.5, (20, 2)) for c in ([0, 0], [3, 0], [0, 3])])
    >>> y = np.repeat([0, 1, 2], 20)
    >>> koc = KernelOrthogonalCentroid(width=2.0).fit(X, y)
    >>> F = koc.transform(X)
    >>> F.shape  # one feature per class
    (60, 3)

    The class means of the features form the triangular factor R: class j's mean is zero
    beyond its j-th coordinate.

    >>> means = np.array([F[y == j].mean(axis=0) for j in range(3)])
    >>> bool(np.allclose(np.triu(means, 1), 0.0, atol=1e-12))
    True

    Algorithm 3 gives the same embedding:

    >>> gs = KernelOrthogonalCentroid(width=2.0, algorithm="gram-schmidt").fit(X, y)
    >>> bool(np.allclose(gs.transform(X), F))
    True
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
        """Compute the orthonormal basis of the class centroids in feature space.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points.
        y : array-like of shape (n_samples,)
            Class labels; at least two classes.

        Returns
        -------
        KernelOrthogonalCentroid
            The fitted estimator.

        Raises
        ------
        ValueError
            If y holds fewer than two classes, if two centroids coincide (or are linearly
            dependent) in feature space, or if the kernel values overflow on X.
        """
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
        """Map the rows of X to their coordinates in the centroids' orthonormal basis.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to map.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Q_r' Phi(x) for each row: coordinate j along the j-th orthonormalized centroid.

        Raises
        ------
        ValueError
            If a row's kernel values overflow (a polynomial kernel far from the data): such a
            row has no finite image and is refused rather than given NaN.
        """
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


# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "koc": Guide(
        computes=(
            "An orthonormal basis of the class centroids in feature space: one coordinate "
            "per class, by a Cholesky factorization of MᵀKM."
        ),
        picture=(
            "The embedding: every point placed by its coordinates along the centroids' "
            "basis; the classes gather at their own corners."
        ),
        try_this=(
            "On 3-D data (cuboids, iris) compare a narrow Gaussian with a wide one, and "
            "with the rank-k SVD."
        ),
        source=(
            "Park & Park 2002, Algorithm 2 (and the Gram–Schmidt form, Algorithm 3); Figs. 1 and 2."
        ),
    ),
}

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
        guide=_GUIDES["koc"],
        description="Orthonormal basis of the class centroids in feature space (Park & Park).",
    ),
)
