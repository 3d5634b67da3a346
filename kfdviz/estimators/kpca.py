"""Kernel PCA and oriented kernel PCA (TPAMI sec. 1.2, eqs. 2-3, Fig. 1)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ..core import scatter, tangents
from ..core.expansion import Expansion
from ..core.kpca import centred_kpca
from ..core.rayleigh import solve_rayleigh
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin
from ._compat import Interval
from .spec import (
    KERNEL_PARAMS,
    TANGENT_CHOICES,
    TANGENT_STEP,
    AlgorithmSpec,
    CostModel,
    Guide,
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
    """Centred kernel PCA: the directions of largest variance in feature space.

    Parameters
    ----------
    n_components : int, default=2
        Number of leading features to extract. Fewer are kept when the centred Gram matrix has
        fewer positive eigenvalues (``n_components_`` says how many, ``diagnostics_`` why).
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z.
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c), the papers' convention
        (scikit-learn's gamma = 1/c).
    degree : int, default=3
        Degree d of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel; 0 gives TPAMI's homogeneous kernel (x.z)^d.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (``n_components_``,)
        The leading eigenvalues of the centred Gram matrix H K H, H = I - 11'/n, in descending
        order (as scikit-learn's ``KernelPCA.eigenvalues_``; the feature variances times n).
    expansion_ : Expansion
        The features as kernel expansions over the training points, f_l(x) =
        sum_i coef[i, l] k(x_i, x) + offset[l], with the centring folded into the coefficients
        and offsets.
    n_components_ : int
        Number of features kept: ``n_components``, or fewer where the spectrum runs out.
    diagnostics_ : dict
        ``"spectrum"`` (the computed eigenvalues), ``"explained_fraction"`` (each eigenvalue
        over trace K, the total uncentred second moment in feature space) and ``"warnings"``
        (list of str).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features, when X has string column names.

    See Also
    --------
    OrientedKernelPCA : The same variance against the covariance of known transformations.
    KernelPCANoveltyDetector : The distance to the principal subspace as a novelty score.
    sklearn.decomposition.KernelPCA : The same eigenvalues and features, up to each feature's
        sign, with gamma = 1/width.

    Notes
    -----
    Kernel PCA is the Rayleigh coefficient (1) of [1]_ with S_I the covariance (2) in feature
    space and S_N the identity. Expanding w = sum_i alpha_i Phi(x_i) (eq. 4) turns it into the
    symmetric eigenproblem of the centred Gram matrix H K H [2]_. Feature l is the projection
    f_l(x) = (v_l . (Phi(x) - m)) of the mapped point, less the training mean m, onto the l-th
    unit eigenvector v_l of the feature-space covariance; with the centring written out it is
    an ordinary kernel expansion plus an offset (``expansion_``). On the training points the
    features have mean 0 and variance ``eigenvalues_ / n``. Each feature's sign is fixed
    deterministically but is otherwise arbitrary, as for any eigenvector. Only the leading
    eigenpairs are computed: by a Lanczos iteration for fewer than 10 components of more than
    200 points, by LAPACK otherwise (the same eigenpairs to machine precision).

    The fit keeps the squared distances (Gaussian kernel) or inner products of the training
    points in ``kfdviz.core.kernels.PAIRWISE_CACHE``, a bounded (512 MiB, 32 entries), least
    recently used, module-level cache shared by every fit, so that a refit on the same points
    with another width skips them; ``PAIRWISE_CACHE.clear()`` empties it.

    References
    ----------
    .. [1] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: the Rayleigh coefficient (1), the covariance
       (2), the expansion (4), and kernel PCA as one choice of S_I and S_N (sec. 1.2, 2.2).
    .. [2] B. Schölkopf, A. J. Smola, K.-R. Müller, "Nonlinear Component Analysis as a Kernel
       Eigenvalue Problem", Neural Computation 10, pp. 1299-1319, 1998.

    Examples
    --------
    >>> import numpy as np
    >>> from kfdviz import KernelPCA
    >>> X = np.random.default_rng(0).standard_normal((100, 2)) * [2.0, 0.5]
    >>> kpca = KernelPCA(n_components=2, width=2.0).fit(X)
    >>> Z = kpca.transform(X)
    >>> Z.shape
    (100, 2)
    >>> bool(np.allclose(Z.mean(axis=0), 0.0, atol=1e-10))  # centred on the training data
    True

    The same eigenvalues and features as scikit-learn's, whose gamma is 1 / width:

    >>> from sklearn.decomposition import KernelPCA as ScikitKernelPCA
    >>> ref = ScikitKernelPCA(n_components=2, kernel="rbf", gamma=1 / 2.0).fit(X)
    >>> bool(np.allclose(kpca.eigenvalues_, ref.eigenvalues_))
    True
    >>> bool(np.allclose(np.abs(Z), np.abs(ref.transform(X)), atol=1e-8))
    True
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
        """Compute the leading eigenpairs of the centred Gram matrix of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, at least two.
        y : None
            Ignored.

        Returns
        -------
        KernelPCA
            The fitted estimator.

        Raises
        ------
        ValueError
            If the centred Gram matrix has no positive eigenvalue (no variance in feature
            space), or if the kernel values overflow on X.
        """
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
        """Evaluate the fitted features at the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to project.

        Returns
        -------
        ndarray of shape (n_samples, ``n_components_``)
            The feature values f_l(x), the projections onto the principal axes in feature space.

        Raises
        ------
        ValueError
            If a row's kernel values overflow (a polynomial kernel far from the data): such a
            row has no finite feature value and is refused rather than given NaN.
        """
        return self._feature_values(X)


class OrientedKernelPCA(
    ClassNamePrefixFeaturesOutMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Oriented kernel PCA: variance in feature space against the variance of transformations.

    Parameters
    ----------
    n_components : int, default=2
        Number of leading features to extract (at most the number of expansion points).
    kernel : {"rbf", "poly", "linear"}, default="rbf"
        The kernel: Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or
        linear x.z.
    width : float, default=1.0
        Width c of the Gaussian kernel exp(-||x - z||^2 / c), the papers' convention
        (scikit-learn's gamma = 1/c).
    degree : int, default=3
        Degree d of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the polynomial kernel; 0 gives TPAMI's homogeneous kernel (x.z)^d.
    tangents : str, sequence of str or None, default=("rotation",)
        The one-parameter transformations L_t the features should be invariant to:
        "rotation" (in the plane of the first two input features, about ``center``),
        "translate-x", "translate-y" (along the first or second input feature), "scale" (about
        ``center``). Several are combined with ``tangent_weights``. None or an empty sequence
        leaves mu ||w||^2 alone in the denominator: kernel PCA's directions (for mu > 0).
    tangent_step : float, default=0.05
        The finite-difference step t of L_t: radians for a rotation; a fraction of the data's
        spread (root mean squared distance from the mean) for a translation; 1 + t is the
        factor of a scaling.
    tangent_weights : array-like of shape (n_tangents,) or None, default=None
        Non-negative weight of each tangent covariance in the sum; None weighs all equally (1).
    center : array-like of shape (n_features,) or None, default=None
        Centre of rotations and scalings; None uses the training data's mean.
    mu : float, default=1e-3
        Weight of the regularizer mu ||w||^2 = mu a'K a added to the tangent covariance in the
        denominator. It keeps the denominator positive definite on the span of the expansion
        points; small mu gives strongly invariant features, large mu tends to kernel PCA.
    expand_transformed : bool, default=False
        Also expand the features over the transformed points L_t x (TPAMI footnote 3), which
        the tangent covariance involves: n (1 + n_tangents) expansion points instead of n.

    Attributes
    ----------
    expansion_ : Expansion
        The features as kernel expansions over the expansion points (the training points, and
        with ``expand_transformed`` the transformed points), each centred on the training
        points by its offset.
    rayleigh_values_ : ndarray of shape (``n_components_``,)
        The Rayleigh coefficient a'Ma / a'(TT' + mu K)a of each feature, descending.
    n_components_ : int
        Number of features extracted.
    tangents_ : tuple of str
        The transformations used, in order (empty for none).
    center_ : ndarray of shape (n_features,)
        Centre of rotations and scalings.
    spread_ : float
        The training data's spread, the length unit of translation steps.
    diagnostics_ : dict
        The solve: ``"rayleigh_values"``, ``"condition"`` (of the regularized denominator),
        ``"effective_rank"``, ``"regularization"``, ``"method"`` and ``"warnings"`` (list of
        str; e.g. features with no variance on the training data).
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features, when X has string column names.

    See Also
    --------
    KernelPCA : The variance alone (no tangents).
    KernelFisherDiscriminant : The same tangent covariance added to the within-class scatter.

    Notes
    -----
    Oriented kernel PCA maximizes the Rayleigh coefficient (1) of [1]_ with S_I the covariance
    (2) of the mapped data and S_N the tangent covariance (3), sum_x (Phi(x) - Phi(L_t x))
    (Phi(x) - Phi(L_t x))'. With w = sum_j a_j Phi(z_j) over the expansion points z_j
    (eq. 4), the features are the leading generalized eigenvectors of

        a'(Kzx H Kxz / n) a  /  a'(T T' + mu Kzz) a,

    where H = I - 11'/n centres over the training points and T holds the kernel's finite
    differences along L_t, T_ji = (k(z_j, x_i) - k(z_j, L_t x_i)) / t, one block of columns
    per tangent scaled by the square root of its weight, so that T T' is the weighted sum of
    the tangent covariances (3) in expansion coefficients, over t^2. Dividing by t keeps mu
    comparable across steps. A multiple 1e-10 of the denominator's mean diagonal is added
    against round-off. Fig. 1 of [1]_ compares kernel PCA with oriented kernel PCA under
    rotations and under translations along x; [2]_ introduced the method.

    The fit keeps the squared distances (Gaussian kernel) or inner products of the expansion
    and training points in ``kfdviz.core.kernels.PAIRWISE_CACHE``, a bounded (512 MiB, 32
    entries), least recently used, module-level cache shared by every fit, so that a refit on
    the same points with another width or ``mu`` skips them; ``PAIRWISE_CACHE.clear()``
    empties it.

    References
    ----------
    .. [1] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: eqs. (1)-(4), footnote 3, sec. 5.1, Fig. 1.
    .. [2] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Invariant
       Feature Extraction and Classification in Kernel Spaces", Advances in Neural Information
       Processing Systems 12, 2000.

    Examples
    --------
    A feature invariant under rotations about the origin barely changes when the data are
    rotated; the leading kernel PCA feature of the same points does change:

    >>> import numpy as np
    >>> from kfdviz import KernelPCA, OrientedKernelPCA
    >>> X = np.random.default_rng(0).uniform(-1, 1, (60, 2))
    >>> t = 0.05
    >>> rotated = X @ np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])
    >>> okpca = OrientedKernelPCA(n_components=1, tangents="rotation", center=[0, 0]).fit(X)
    >>> f, f_rotated = okpca.transform(X)[:, 0], okpca.transform(rotated)[:, 0]
    >>> bool(np.max(np.abs(f_rotated - f)) < 1e-3 * np.ptp(f))
    True
    >>> kpca = KernelPCA(n_components=1).fit(X)
    >>> g, g_rotated = kpca.transform(X)[:, 0], kpca.transform(rotated)[:, 0]
    >>> bool(np.max(np.abs(g_rotated - g)) > 1e-2 * np.ptp(g))
    True
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
        """Solve the generalized eigenproblem of the covariance against the tangent covariance.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, at least two; a rotation or "translate-y" needs at least two
            input features.
        y : None
            Ignored.

        Returns
        -------
        OrientedKernelPCA
            The fitted estimator.

        Raises
        ------
        ValueError
            If a tangent name is unknown or needs more input features, if ``center`` or
            ``tangent_weights`` do not match the data and tangents, if the data show no
            variance in feature space, or if the kernel values overflow on X.
        """
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
        """Evaluate the fitted features at the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to project.

        Returns
        -------
        ndarray of shape (n_samples, ``n_components_``)
            The feature values f_l(x) = (w_l . Phi(x)) + offset_l, each centred on the training
            points.

        Raises
        ------
        ValueError
            If a row's kernel values overflow (a polynomial kernel far from the data): such a
            row has no finite feature value and is refused rather than given NaN.
        """
        return self._feature_values(X)

    def tangent_directions(self, X) -> np.ndarray:
        """Return the derivative d(L_t x)/dt at t = 0 of the first tangent at each row of X.

        The window draws these as arrows. A rotation gives (-(x_2 - c_2), x_1 - c_1) in the
        first two features, a translation ``spread_`` along its feature, a scaling x - c (c is
        ``center_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points at which to evaluate the direction.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            The tangent direction at each row, in the units of the steps (per radian, per
            fraction of the spread, per unit of scaling); zeros when there are no tangents.
        """
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


# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "kpca": Guide(
        computes=(
            "The directions in which the mapped points vary most (the kernel's feature "
            "space), one feature per direction: the leading eigenvectors of the centred "
            "kernel matrix."
        ),
        picture=(
            "The colour and the level sets are one feature's value over the plane: points "
            "on one line get the same value. Nothing here knows the classes."
        ),
        try_this=(
            "Step the feature from 1 to 2 and 3 and watch the level sets split the "
            "clusters; make the width small and each feature circles a few points only."
        ),
        source=(
            "Mika et al., TPAMI 2003: the Rayleigh coefficient (1) with S_I the covariance "
            "(2) and S_N = I; kernelized by the expansion (4) (Schölkopf, Smola & Müller "
            "1998)."
        ),
    ),
    "okpca": Guide(
        computes=(
            "Features with much variance in the data but little along a transformation you "
            "name (a small rotation or shift): the generalized eigenvectors of covariance "
            "against tangent covariance."
        ),
        picture=(
            "Level sets that follow the transformation: with rotation tangents they become "
            "circles round the origin, so a feature's value does not change when a point "
            "turns."
        ),
        try_this=(
            "Switch Invariances between rotation and x-translation and compare with kernel "
            "PCA on the same data: the level sets turn into circles round the origin, or "
            "into vertical lines."
        ),
        source=(
            "Mika et al., TPAMI 2003: the Rayleigh coefficient (1) with S_N the tangent "
            "covariance (3); Fig. 1."
        ),
    ),
}

SPECS = (
    AlgorithmSpec(
        "kpca",
        "Kernel PCA",
        Kind.FEATURES,
        KernelPCA,
        (N_COMPONENTS, *KERNEL_PARAMS),
        cost=CostModel(_kpca_work, prices_spectrum=False),
        guide=_GUIDES["kpca"],
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
        guide=_GUIDES["okpca"],
        description="Variance against tangent covariance: features invariant under L_t (TPAMI Fig. 1).",
    ),
)
