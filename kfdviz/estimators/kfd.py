"""The kernel Fisher discriminant (TPAMI 2003; Mika et al. 1999; NIPS 2000) as a classifier.

Two classes: maximize a'Ma / a'(N + mu I)a with M = (mu_2 - mu_1)(mu_2 - mu_1)', N = K D K'
(eqs. 6-8, 11), solved in closed form a = (N + mu I)^{-1}(mu_2 - mu_1), or as the generalized
eigenproblem (``formulation="eigen"``, for checking), or as one of the mathematical programs of
TPAMI sec. 2.3 / 4 (``"qp"``, ``"sparse"``, ``"linear-sparse"``, ``"greedy"``). More classes:
one-vs-rest discriminants with winner-takes-all, and ``transform`` giving the r - 1 features of
the multi-class generalization (GDA) from the same engine.
"""

from __future__ import annotations

from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ..core import fit_cache, incremental, mu_path, scatter, tangents
from ..core.centers import CENTER_METHODS, choose_centers
from ..core.expansion import Expansion
from ..core.greedy_kfd import greedy_kfd
from ..core.kfd_programs import solve_kfd_program
from ..core.rayleigh import solve_rayleigh
from ..core.thresholds import THRESHOLD_NAMES, GaussianOutputModel, fit_threshold
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin, label_text
from ._compat import Interval, StrOptions

FORMULATIONS = ("rayleigh", "eigen", "qp", "sparse", "linear-sparse", "greedy")
PROGRAM_LOSSES = ("squared", "absolute", "epsilon-insensitive", "huber")


class KernelFisherDiscriminant(
    ClassifierMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Kernel Fisher discriminant: Fisher's discriminant in a kernel feature space.

    Parameters
    ----------
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
    mu : float, default=1e-3
        The regularization constant, TPAMI's C. For ``formulation="rayleigh"`` or ``"eigen"``
        the within-class scatter N becomes N + mu I (eq. 11) or, with ``regularizer="gram"``,
        N + mu K; mu = 0 is allowed but fails where N is singular, as it is with every
        training point an expansion point and no tangents. For the programs it weighs the
        regularizer Omega(alpha) against the loss (eqs. 9, 12, 14); for ``"greedy"`` it weighs
        ||alpha||^2 and must be positive.
    regularizer : {"identity", "gram"}, default="identity"
        The quadratic regularizer: ||alpha||^2 ("identity": N + mu I, eq. 11) or
        ||w||^2 = alpha' K alpha ("gram": N + mu K, as in SVMs; TPAMI sec. 3). Used by
        ``"rayleigh"``, ``"eigen"`` and ``"qp"``; the sparse programs always penalize
        ||alpha||_1, the greedy selection ||alpha||^2.
    threshold : {"prior", "midpoint", "min-error", "margin-lp"}, default="prior"
        How the offset b of the decision sign(w.Phi(x) + b) is estimated from the training
        projections, separately from the direction (TPAMI advises so after eq. 9): "prior",
        the Bayes threshold of two 1-D Gaussians with a pooled variance and the class
        frequencies as priors (the midpoint where that is undefined: no spread);
        "midpoint", halfway between the projected class means; "min-error", the cut with the
        fewest training errors (among ties, the one nearest the midpoint); "margin-lp", the
        linear program of TPAMI eq. (15), max rho - C sum xi subject to
        y_i (w.Phi(x_i) + b) >= rho - xi_i, rho >= 0, xi >= 0. The programs' own offset is
        replaced as well (TPAMI footnote 7) and kept in ``program_offset_``. With more than two
        classes each one-vs-rest discriminant gets its offset by the same rule.
    threshold_C : float or None, default=None
        The trade-off C of eq. (15), used by ``threshold="margin-lp"`` only: larger C tolerates
        fewer margin violations. None uses 1/(0.1 n) for n training points (about a tenth of
        the points may lie inside the margin). The LP is bounded only for C >= 1/(2 m), m the
        size of the smaller class; a smaller value is rejected at fit time.
    n_centers : int or None, default=None
        For every formulation but ``"greedy"``: expand w over this many points only, chosen
        by ``centers`` (training on a subset, TPAMI eq. 13); None (or at least n) uses every
        training point (eq. 4). For ``"greedy"``: the largest number of expansion points the
        forward selection adds; None means min(n, 50).
    centers : {"random", "kmeans"}, default="random"
        How the expansion points are chosen when ``n_centers`` is set: a random subset of the
        training points, stratified so that each class keeps at least one where there are as
        many centers as classes; or the centres of a k-means clustering (points that are not
        training points). Not used by ``"greedy"``.
    tangents : str, sequence of str or None, default=None
        Invariant KFD (TPAMI sec. 5.1): the transformations whose tangent covariance (eq. 3)
        is added to N, as for :class:`OrientedKernelPCA`: "rotation", "translate-x",
        "translate-y", "scale", about the training mean. Several are summed. Used by
        ``"rayleigh"`` and ``"eigen"`` only, and only when ``tangent_weight`` > 0.
    tangent_step : float, default=0.05
        The finite-difference step t of the transformations: radians for a rotation; a
        fraction of the data's spread for a translation; 1 + t is the factor of a scaling.
    tangent_weight : float, default=0.0
        The weight lambda of the tangent covariance in N + lambda T T' (TPAMI sec. 5.1);
        0 turns the tangents off.
    multi_class : {"ovr", "gda"}, default="ovr"
        The decision with more than two classes (``"rayleigh"`` or ``"eigen"`` only): "ovr",
        the largest output of one two-class discriminant per class against the rest
        (winner-takes-all, as TPAMI sec. 5.1 classifies the digits); "gda", the nearest class
        mean in the r - 1 discriminant features of the multi-class generalization. ``transform``
        gives those r - 1 features with either.
    formulation : {"rayleigh", "eigen", "qp", "sparse", "linear-sparse", "greedy"}, default="rayleigh"
        How the discriminant is computed:

        - "rayleigh": maximize the Rayleigh coefficient (8), alpha'M alpha / alpha'N_mu alpha
          with M = d d' (eq. 6) and N = K D K' (eq. 7), in closed form: M has rank one, so
          alpha is proportional to N_mu^-1 d, one Cholesky solve (an eigen-decomposition of
          N_mu where it is too ill-conditioned for one). See Notes for d and N.
        - "eigen": the same coefficient as a generalized eigenproblem of (M, N_mu); the same
          direction, for checking the closed form.
        - "qp": the program (9), min L(xi) + mu Omega(alpha) subject to
          K alpha + 1 b = y - xi with labels y = +-1, a regression onto the labels; with the
          default squared loss and ``regularizer="identity"`` it is the same discriminant as
          "rayleigh" (TPAMI sec. 2.3).
        - "sparse": sparse KFD (SKFD, eq. 12), Omega = ||alpha||_1: many coefficients are
          exactly zero.
        - "linear-sparse": linear sparse KFD (LSKFD, eq. 14), ||xi||_1 + mu ||alpha||_1, a
          linear program.
        - "greedy": sparse greedy KFD (TPAMI sec. 4.2): forward selection of expansion points
          for the program (9) with squared loss and ||alpha||^2, adding the point that lowers
          the objective most, up to ``n_centers`` points or until the best relative decrease is
          below 1e-4. Beyond 4000 training points each step scores a random sample of 59
          candidates.

        All but "rayleigh" and "eigen" are two-class methods.
    loss : {"squared", "absolute", "epsilon-insensitive", "huber"} or None, default=None
        The loss L(xi) on the residuals of the programs ("qp", "sparse", "linear-sparse"),
        the noise models of NIPS 2001's Table 1: ||xi||^2 (Gaussian), ||xi||_1 (Laplacian),
        sum max(0, abs(xi_i) - 0.1) (epsilon-insensitive, epsilon = 0.1) or Huber's loss
        xi^2 / 2 for abs(xi) <= 1 and abs(xi) - 1/2 beyond. None uses each program's own: squared
        for "qp" and "sparse" (eqs. 9, 12), absolute for "linear-sparse" (eq. 14). Not used by
        the other formulations.
    zero_mean_constraints : bool, default=False
        Add NIPS 2001's constraints (4b) to the programs: the residuals xi of each class sum to
        zero. Not used by the other formulations.
    random_state : int, RandomState instance or None, default=None
        Seeds the choice of centers (random subset or k-means) and the greedy selection's
        candidate samples.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels; with two classes ``classes_[1]`` is the one with positive outputs.
    expansion_ : Expansion
        Two classes: the projection w.Phi(x) + offset as a kernel expansion over the expansion
        points, scaled and shifted so that the training classes' mean projections are -1 and
        +1 (the threshold is not included). More classes: the r - 1 discriminant (GDA)
        features, centred on the training points.
    intercept_ : float or ndarray of shape (n_classes,)
        Two classes: the offset b of the decision, from ``threshold``. More classes: the
        offsets of the one-vs-rest discriminants in ``ovr_expansion_``.
    output_model_ : GaussianOutputModel
        Two classes: the 1-D Gaussian model of the training outputs that ``predict_proba``
        reads (TPAMI sec. 3).
    rayleigh_quotient_ : float
        The Rayleigh coefficient of the discriminant (of the first discriminant feature with
        more classes). Only for ``"rayleigh"`` and ``"eigen"``.
    sparsity_ : float
        Fraction of the expansion coefficients that are zero (relative to the largest, as the
        papers count; ``"greedy"``: 1 - selected / n). 0 for the Rayleigh formulations.
    objective_ : float
        The program's objective at the solution. Only for the programs.
    program_offset_ : float
        The offset b the program found (before ``threshold`` replaces it). Only for the
        programs.
    objective_path_ : ndarray of shape (n_selected + 1,)
        The program's objective before the selection and after each added point. Only for
        ``"greedy"``.
    center_index_ : ndarray of int or None
        Indices into the training set of the expansion points (in the order of selection for
        ``"greedy"``); None for k-means centres.
    rayleigh_values_ : ndarray of shape (n_classes - 1,)
        More classes only: the Rayleigh coefficient of each discriminant feature.
    class_centroids_ : ndarray of shape (n_classes, n_classes - 1)
        More classes only: each class's mean in the discriminant features.
    ovr_expansion_ : Expansion
        More classes only: the n_classes one-vs-rest discriminants, each scaled so that its two
        groups' mean outputs lie 2 apart, with its threshold in the offset.
    output_models_ : list of GaussianOutputModel
        More classes only: the output model of each one-vs-rest discriminant.
    tangents_ : tuple of str
        The transformations the discriminant is made invariant to (empty when
        ``tangent_weight`` is 0).
    center_ : ndarray of shape (n_features,)
        The training mean, the centre of rotations and scalings.
    spread_ : float
        The training data's spread, the length unit of translation steps.
    diagnostics_ : dict
        What the solve reported: always ``"warnings"`` (list of str); for two classes
        ``"threshold"`` and ``"sparsity"``; for the Rayleigh formulations ``"condition"``,
        ``"effective_rank"``, ``"regularization"`` and ``"method"``; for the programs
        ``"solver"``, ``"status"``, ``"objective"`` and ``"regularization"``; for ``"greedy"``
        ``"objective_path"``.
    n_features_in_ : int
        Number of input features.
    feature_names_in_ : ndarray of shape (n_features_in,)
        Names of the input features, when X has string column names.

    See Also
    --------
    KernelFisherRegressor : The same programs with real-valued targets.
    OrientedKernelPCA : The tangent covariance against the variance, without classes.
    KernelOrthogonalCentroid : Features from the class centroids alone.
    SupportVectorClassifier : The SVM the papers compare with.

    Notes
    -----
    With w = sum_j alpha_j Phi(z_j) over the expansion points z_j (eq. 4 of [1]_, or eq. 13
    for a subset), Fisher's criterion in feature space becomes the Rayleigh coefficient (8)
    alpha'M alpha / alpha'N alpha in the coefficients. With kbar_i the mean over class i of
    the kernel columns k(z, x) (TPAMI's mu_i, eq. 5), M = d d' with d = kbar_2 - kbar_1
    (eq. 6), and N = K D K' is the within-class scatter (eq. 7), K = k(z_j, x_i) the
    expansion points against the n training points. Over all n training points N is singular
    (D has rank n - 2), hence the regularization N + mu I of eq. (11), introduced with KFD in
    [3]_. The two-class problem is equivalent to a regularized least-squares regression onto
    the labels +-1, the program (9) (TPAMI sec. 2.3), which admits other regularizers (sparse
    KFD, eq. 12), other losses [2]_ and a linear program (eq. 14). Whatever the formulation,
    the discriminant is then scaled so that the projected class means are -1 and +1, and the
    offset is set by ``threshold``.

    ``predict_proba`` reads the outputs as TPAMI sec. 3 does, as 1-D Gaussians per class.
    With more than two classes ``transform`` gives the r - 1 leading generalized eigenvectors
    of the between-class scatter sum_j l_j (kbar_j - kbar)(kbar_j - kbar)' against the
    regularized N (generalized discriminant analysis).

    Fits share bounded, module-level caches. A two-class fit with ``"rayleigh"`` or
    ``"eigen"`` keeps the cross-Gram matrix, the class means and N in
    ``kfdviz.core.fit_cache.FIT_CACHE`` (at most 4 entries, 256 MiB, least recently used
    first out), keyed by the content of the data and labels, the kernel, the expansion points
    and the tangent settings: a refit that changes only ``mu``, ``regularizer`` or
    ``threshold`` does no kernel work and no scatter product. With every training point an
    expansion point and no tangents, the latest such fit is also remembered so that a fit on
    data that differ in one point updates those terms instead of recomputing them. Squared
    distances (Gaussian kernel) and inner products are kept in
    ``kfdviz.core.kernels.PAIRWISE_CACHE`` (512 MiB, 32 entries) by every fit, so that a
    width change skips them. ``FIT_CACHE.clear()``, ``kfdviz.core.incremental.forget()`` and
    ``PAIRWISE_CACHE.clear()`` empty them.

    References
    ----------
    .. [1] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, A. Smola, K.-R. Müller, "Constructing
       Descriptive and Discriminative Nonlinear Features: Rayleigh Coefficients in Kernel
       Feature Spaces", IEEE TPAMI 25(5), 2003: KFD in expansion coefficients (eqs. 4-8),
       the program (9), regularization (11), sparse KFD (12), training on a subset (13), the
       linear program (14), the greedy approach (sec. 4.2), the margin threshold (15),
       invariances (sec. 5.1).
    .. [2] S. Mika, G. Rätsch, K.-R. Müller, "A Mathematical Programming Approach to the
       Kernel Fisher Algorithm", Advances in Neural Information Processing Systems 13,
       pp. 591-597, 2001: the program (4) with the class zero-mean constraints (4b), the
       losses of Table 1, SKFD and LSKFD, Table 2.
    .. [3] S. Mika, G. Rätsch, J. Weston, B. Schölkopf, K.-R. Müller, "Fisher Discriminant
       Analysis with Kernels", Neural Networks for Signal Processing IX, pp. 41-48, 1999:
       KFD with N + mu I, Fig. 1 (KFD against kernel PCA), Table 1.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_circles
    >>> from kfdviz import KernelFisherDiscriminant
    >>> X, y = make_circles(200, factor=0.3, noise=0.05, random_state=0)
    >>> kfd = KernelFisherDiscriminant(width=0.5).fit(X, y)
    >>> kfd.predict([[0.0, 0.0], [1.0, 0.0]]).tolist()  # the inner circle is class 1
    [1, 0]
    >>> kfd.predict_proba([[0.0, 0.0]]).round(2).tolist()
    [[0.0, 1.0]]

    The program (9) with squared loss and ||alpha||^2 finds the same discriminant:

    >>> qp = KernelFisherDiscriminant(width=0.5, formulation="qp").fit(X, y)
    >>> bool(np.allclose(qp.dual_coef_, kfd.dual_coef_, atol=1e-6))
    True

    Sparse KFD (eq. 12) expands over few training points:

    >>> sparse = KernelFisherDiscriminant(width=0.5, formulation="sparse", mu=0.1).fit(X, y)
    >>> bool(sparse.sparsity_ > 0.8), sparse.predict([[0.0, 0.0], [1.0, 0.0]]).tolist()
    (True, [1, 0])
    """

    _parameter_constraints = {
        **KERNEL_PARAMETER_CONSTRAINTS,
        "mu": [Interval(Real, 0.0, None, closed="left")],
        "regularizer": [StrOptions({"identity", "gram"})],
        "threshold": [StrOptions(set(THRESHOLD_NAMES))],
        "threshold_C": [Interval(Real, 0.0, None, closed="neither"), None],
        "n_centers": [Interval(Integral, 1, None, closed="left"), None],
        "centers": [StrOptions(set(CENTER_METHODS))],
        "tangents": [str, list, tuple, None],
        "tangent_step": [Interval(Real, 0.0, None, closed="neither")],
        "tangent_weight": [Interval(Real, 0.0, None, closed="left")],
        "multi_class": [StrOptions({"ovr", "gda"})],
        "formulation": [StrOptions(set(FORMULATIONS))],
        "loss": [StrOptions(set(PROGRAM_LOSSES)), None],
        "zero_mean_constraints": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        width=1.0,
        degree=3,
        coef0=1.0,
        mu=1e-3,
        regularizer="identity",
        threshold="prior",
        threshold_C=None,
        n_centers=None,
        centers="random",
        tangents=None,
        tangent_step=0.05,
        tangent_weight=0.0,
        multi_class="ovr",
        formulation="rayleigh",
        loss=None,
        zero_mean_constraints=False,
        random_state=None,
    ):
        self.kernel = kernel
        self.width = width
        self.degree = degree
        self.coef0 = coef0
        self.mu = mu
        self.regularizer = regularizer
        self.threshold = threshold
        self.threshold_C = threshold_C
        self.n_centers = n_centers
        self.centers = centers
        self.tangents = tangents
        self.tangent_step = tangent_step
        self.tangent_weight = tangent_weight
        self.multi_class = multi_class
        self.formulation = formulation
        self.loss = loss
        self.zero_mean_constraints = zero_mean_constraints
        self.random_state = random_state

    # -- fitting ------------------------------------------------------------------------------
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # The mathematical programs and the greedy selection separate two classes only.
        tags.classifier_tags.multi_class = self.formulation in ("rayleigh", "eigen")
        return tags

    def fit(self, X, y):
        """Compute the discriminant direction, its scale and the threshold.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points.
        y : array-like of shape (n_samples,)
            Class labels: at least two classes of at least two points each; exactly two for
            every ``formulation`` but "rayleigh" and "eigen".

        Returns
        -------
        KernelFisherDiscriminant
            The fitted classifier.

        Raises
        ------
        ValueError
            If y has fewer than two classes or a class with a single point, if a two-class
            formulation gets more classes, if the regularized problem is singular or the
            discriminant does not separate the class means (increase or decrease ``mu``), if
            the margin LP threshold is unbounded for ``threshold_C``, or if the kernel values
            overflow on X.
        """
        self._validate_params()
        X, y = self._check_X_y(X, y)
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(
                f"KernelFisherDiscriminant needs at least two classes, but y holds only one class "
                f"({label_text(self.classes_[0])}); add points of another class."
            )
        counts = np.bincount(y_index)
        if counts.min() < 2:
            lonely = self.classes_[np.argmin(counts)]
            raise ValueError(
                f"Class {label_text(lonely)} has only {counts.min()} point; the within-class scatter needs "
                "at least two points per class. Add points to that class."
            )
        if n_classes > 2 and self.formulation not in ("rayleigh", "eigen"):
            raise ValueError(
                f"Only binary classification is supported: formulation={self.formulation!r} is "
                f"a two-class program; with {n_classes} classes use formulation='rayleigh' "
                "(one-vs-rest / GDA)."
            )
        kern = self._make_kernel()
        self._tangent_names = tangents.check_tangents(self.tangents, X.shape[1])
        # The transformations the discriminant is made invariant to, and their frame (the
        # data's mean and spread, as the tangent covariance uses them).
        self.tangents_ = self._tangent_names if self.tangent_weight > 0 else ()
        self.center_ = X.mean(axis=0)
        self.spread_ = tangents.data_spread(X)
        self.diagnostics_ = {"warnings": []}

        if self.formulation == "greedy":
            self._fit_greedy(kern, X, y_index)
        else:
            Z, index = choose_centers(X, self.n_centers, self.centers, self.random_state, y=y_index)
            self.center_index_ = index
            if n_classes == 2:
                self._fit_two_class(kern, X, Z, y_index)  # computes or reuses Kzx itself
            else:
                self._fit_multi_class(kern, X, Z, kern(Z, X), y_index)
        return self

    def _within_scatter(self, kern, X, Z, Kzx, y_index, n_classes):
        N = scatter.within_class_scatter(Kzx, y_index, n_classes)
        if self._tangent_names and self.tangent_weight > 0:
            T = tangents.tangent_matrix(
                kern,
                Z,
                X,
                self._tangent_names,
                self.tangent_step,
                center=X.mean(axis=0),
                spread=tangents.data_spread(X),
            )
            N = N + self.tangent_weight * scatter.tangent_covariance(T)
        return N

    def _record(self, sol):
        d = self.diagnostics_
        d.update(
            condition=sol.condition,
            effective_rank=sol.effective_rank,
            regularization=sol.regularization,
            method=sol.method,
        )
        d["warnings"].extend(sol.warnings)

    def _fit_two_class(self, kern, X, Z, y_index):
        s = np.where(y_index == 1, 1.0, -1.0)
        Kzz = kern(Z, Z) if self.regularizer == "gram" else None
        if self.formulation in ("rayleigh", "eigen"):
            # Kzx, the class means and N = Kzx D Kxz (+ tangent term) come from the fit cache
            # (core/fit_cache.py), keyed by data, labels, kernel, centers and tangent settings:
            # a refit that changes only mu, the regularizer or the threshold does no kernel
            # work and no scatter product.
            tangent_key = (
                (tuple(self._tangent_names), self.tangent_step, self.tangent_weight)
                if self._tangent_names and self.tangent_weight > 0
                else ()
            )
            # With every point a center and no tangent term, a fit on data that differ from the
            # previous fit's in one point (a dragged point) updates its terms (core/incremental.py).
            plain = Z is X and not tangent_key
            terms = fit_cache.two_class_terms(
                kern,
                X,
                Z,
                y_index,
                within=lambda Kzx: self._within_scatter(kern, X, Z, Kzx, y_index, 2),
                extra=tangent_key,
                update=partial(incremental.moved_point_terms, kern, X, y_index) if plain else None,
            )
            if plain:
                incremental.remember(kern, X, y_index, terms)
            Kzx, d, N = terms.Kzx, terms.mean_difference, terms.N
            # N (read-only, shared by the fit cache) may be decomposed after an earlier fit:
            # a new mu is then O(m^2) instead of a Cholesky factorization (core/mu_path.py).
            plain_mu = self.formulation == "rayleigh" and self.regularizer == "identity"
            sol = mu_path.rayleigh_solution(N, d, self.mu) if plain_mu else None
            if sol is None and self.formulation == "rayleigh":
                sol = solve_rayleigh(
                    None, N, 1, mu=self.mu, regularizer=self.regularizer, K=Kzz, rank_one=d
                )
            elif sol is None:
                sol = solve_rayleigh(
                    np.outer(d, d), N, 1, mu=self.mu, regularizer=self.regularizer, K=Kzz
                )
            a = sol.vectors[:, 0]
            if d @ a < 0:
                a = -a
            self._record(sol)
            self.rayleigh_quotient_ = float(sol.values[0])
            self.sparsity_ = 0.0
        else:
            Kzx = kern(Z, X)
            a = self._solve_program(Kzx, s, Kzz if Kzz is not None else None, kern, Z)
        self._finish_two_class(kern, Z, a, Kzx, s)

    def _solve_program(self, Kzx, s, Kzz, kern, Z):
        loss = self.loss or ("absolute" if self.formulation == "linear-sparse" else "squared")
        reg = (
            "l1"
            if self.formulation in ("sparse", "linear-sparse")
            else ("rkhs" if self.regularizer == "gram" else "l2")
        )
        if reg == "rkhs" and Kzz is None:
            Kzz = kern(Z, Z)
        groups = (s > 0).astype(int) if self.zero_mean_constraints else None
        sol = solve_kfd_program(
            Kzx.T, s, loss=loss, regularizer=reg, mu=self.mu, Kzz=Kzz, groups=groups
        )
        self.program_offset_ = float(sol.b)
        self.objective_ = float(sol.objective)
        self.sparsity_ = float(sol.sparsity)
        self.diagnostics_.update(
            solver=sol.solver,
            status=sol.status,
            objective=sol.objective,
            regularization=f"{reg} penalty, μ = {self.mu:g}",
        )
        self.diagnostics_["warnings"].extend(sol.warnings)
        a = np.asarray(sol.alpha, dtype=float)
        if not np.any(a):
            raise ValueError(
                f"The {self.formulation!r} program returned all-zero coefficients at mu={self.mu:g}: "
                "the regularization is too strong; decrease mu."
            )
        return a

    def _fit_greedy(self, kern, X, y_index):
        if self.classes_.size != 2:
            raise ValueError("formulation='greedy' is a two-class method.")
        s = np.where(y_index == 1, 1.0, -1.0)
        max_centers = self.n_centers or min(X.shape[0], 50)
        # Scoring every point needs the full Gram matrix; on large data score a random sample
        # of candidates per step (59 finds one of the best 5 % with probability 0.95).
        n_candidates = None if X.shape[0] <= 4000 else 59
        sol = greedy_kfd(
            kern,
            X,
            s,
            max_centers=max_centers,
            mu=self.mu,
            n_candidates=n_candidates,
            random_state=self.random_state,
        )
        index = np.asarray(sol.center_index)
        Z = X[index]
        self.center_index_ = index
        self.objective_path_ = np.asarray(sol.objective_path)
        self.diagnostics_["objective_path"] = self.objective_path_
        self.sparsity_ = 1.0 - index.size / X.shape[0]
        self._finish_two_class(kern, Z, np.asarray(sol.alpha, dtype=float), kern(Z, X), s)

    def _finish_two_class(self, kern, Z, a, Kzx, s):
        z = Kzx.T @ a
        gap = z[s > 0].mean() - z[s < 0].mean()
        if not np.isfinite(gap) or gap == 0:
            raise ValueError(
                "The discriminant does not separate the class means at all (zero gap); "
                "check the kernel parameters or decrease mu."
            )
        # Scale so that the projected class means lie 2 apart, as in the regression onto +-1.
        a = a * (2.0 / gap)
        z = z * (2.0 / gap)
        self.expansion_ = Expansion(kern, Z, a, -0.5 * (z[s > 0].mean() + z[s < 0].mean()))
        z = z + self.expansion_.offset[0]
        self.intercept_ = float(fit_threshold(self.threshold, z, s, margin_C=self.threshold_C))
        self.output_model_ = GaussianOutputModel.fit(z + self.intercept_, s)
        self._n_features_out = 1
        self.diagnostics_["threshold"] = self.intercept_
        if "sparsity" not in self.diagnostics_:
            self.diagnostics_["sparsity"] = getattr(self, "sparsity_", 0.0)

    def _fit_multi_class(self, kern, X, Z, Kzx, y_index):
        r = self.classes_.size
        Kzz = kern(Z, Z) if self.regularizer == "gram" else None
        # GDA features: between- against within-class scatter, r - 1 of them.
        M = scatter.between_class_scatter(Kzx, y_index, r)
        N = self._within_scatter(kern, X, Z, Kzx, y_index, r)
        sol = solve_rayleigh(M, N, r - 1, mu=self.mu, regularizer=self.regularizer, K=Kzz)
        self._record(sol)
        self.rayleigh_quotient_ = float(sol.values[0])
        self.rayleigh_values_ = sol.values
        A = sol.vectors
        F = Kzx.T @ A
        offset = -F.mean(axis=0)
        self.expansion_ = Expansion(kern, Z, A, offset)
        self.class_centroids_ = np.array(
            [(F + offset)[y_index == k].mean(axis=0) for k in range(r)]
        )
        self._n_features_out = r - 1
        self.sparsity_ = 0.0
        # One-vs-rest two-class discriminants for winner-takes-all.
        coefs, offsets, scales = [], [], []
        for k in range(r):
            yk = (y_index == k).astype(int)
            means = scatter.class_means(Kzx, yk, 2)
            Nk = self._within_scatter(kern, X, Z, Kzx, yk, 2)
            solk = solve_rayleigh(
                None,
                Nk,
                1,
                mu=self.mu,
                regularizer=self.regularizer,
                K=Kzz,
                rank_one=means[:, 1] - means[:, 0],
            )
            a = solk.vectors[:, 0]
            z = Kzx.T @ a
            sk = np.where(yk == 1, 1.0, -1.0)
            b = fit_threshold(self.threshold, z, sk, margin_C=self.threshold_C)
            half_gap = 0.5 * (z[yk == 1].mean() - z[yk == 0].mean())
            coefs.append(a / half_gap)
            offsets.append(b / half_gap)
            scales.append(half_gap)
        self.ovr_expansion_ = Expansion(kern, Z, np.column_stack(coefs), np.array(offsets))
        outputs = self.ovr_expansion_.evaluate(X)
        self.output_models_ = [
            GaussianOutputModel.fit(outputs[:, k], np.where(y_index == k, 1.0, -1.0))
            for k in range(r)
        ]
        self.intercept_ = self.ovr_expansion_.offset.copy()

    # -- prediction ---------------------------------------------------------------------------
    @property
    def decision_expansion_(self) -> Expansion:
        """The kernel expansion whose value is ``decision_function``.

        Two classes: ``expansion_`` with ``intercept_`` added to its offset. More classes:
        ``ovr_expansion_`` (the one-vs-rest discriminants, also with ``multi_class="gda"``).
        """
        check_is_fitted(self, "expansion_")
        if self.classes_.size != 2:
            return self.ovr_expansion_
        e = self.expansion_
        return Expansion(e.kernel, e.centers, e.coef, e.offset + self.intercept_)

    def transform(self, X):
        """Project the rows of X onto the discriminant direction(s).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to project.

        Returns
        -------
        ndarray of shape (n_samples, 1) or (n_samples, n_classes - 1)
            Two classes: w.Phi(x) + offset, the projection scaled so that the training classes'
            means are -1 and +1 (the threshold ``intercept_`` not added). More classes: the
            n_classes - 1 discriminant (GDA) features.

        Raises
        ------
        ValueError
            If a row's kernel values overflow (a polynomial kernel far from the data): such a
            row has no finite output and is refused rather than given a class.
        """
        return self._feature_values(X)

    def decision_function(self, X):
        """Return the classifier's output: above zero for ``classes_[1]``, or one score per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to score.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: w.Phi(x) + offset + ``intercept_``, positive for ``classes_[1]``, on the
            scale where the training classes' mean projections are -1 and +1. More classes:
            with ``multi_class="ovr"`` the one-vs-rest outputs (each positive where its class
            wins against the rest); with "gda" minus the squared distance to each class
            centroid in the discriminant features.

        Raises
        ------
        ValueError
            If a row's kernel values overflow (a polynomial kernel far from the data): such a
            row has no finite output and is refused rather than given a class.
        """
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        if self.classes_.size == 2:
            return self._finite_values(self.expansion_, X)[:, 0] + self.intercept_
        if self.multi_class == "gda":
            F = self._finite_values(self.expansion_, X)
            d2 = ((F[:, None, :] - self.class_centroids_[None]) ** 2).sum(axis=2)
            return -d2
        return self._finite_values(self.ovr_expansion_, X)

    def predict(self, X):
        """Classify the rows of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples,)
            Two classes: ``classes_[1]`` where ``decision_function`` is positive, else
            ``classes_[0]``. More classes: the class with the largest score.

        Raises
        ------
        ValueError
            As ``decision_function``, for rows whose kernel values overflow.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_proba(self, X):
        """Return posterior class probabilities from Gaussian models of the outputs.

        The training outputs of each class are modelled as 1-D Gaussians with a pooled
        variance (TPAMI sec. 3): the posterior of ``classes_[1]`` is the logistic function of
        slope ``(m_+ - m_-) / variance`` in ``decision_function``, so that it is 1/2 at the
        threshold. More classes: ``multi_class="ovr"`` takes a softmax of the one-vs-rest
        outputs with the mean of their slopes; "gda" one of unit-variance Gaussians about the
        class centroids in the discriminant features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The probability of each class, in the order of ``classes_``; each row sums to 1 and
            its largest entry is the class ``predict`` gives.

        Raises
        ------
        ValueError
            As ``decision_function``, for rows whose kernel values overflow.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = self.output_model_.posterior_positive(scores)
            return np.column_stack([1.0 - p, p])
        if self.multi_class == "gda":
            logits = 0.5 * (scores - scores.max(axis=1, keepdims=True))
            P = np.exp(logits)
        else:
            # One common slope keeps the most probable class equal to the winner-takes-all one.
            slope = np.mean([m.slope for m in self.output_models_])
            logits = slope * scores
            P = np.exp(logits - logits.max(axis=1, keepdims=True))
        return P / P.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        """Return the logarithm of ``predict_proba``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points to classify.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The log probabilities, in the order of ``classes_`` (probabilities below 1e-300
            give log(1e-300) instead of -inf).

        Raises
        ------
        ValueError
            As ``decision_function``, for rows whose kernel values overflow.
        """
        return np.log(np.maximum(self.predict_proba(X), 1e-300))

    def get_feature_names_out(self, input_features=None):
        """Return the names of the features ``transform`` gives.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Ignored: the features are kernel expansions, not input columns.

        Returns
        -------
        ndarray of str objects
            "kfd0", "kfd1", ...: one name for two classes, n_classes - 1 for more.
        """
        check_is_fitted(self, "_n_features_out")
        return np.asarray([f"kfd{i}" for i in range(self._n_features_out)], dtype=object)
