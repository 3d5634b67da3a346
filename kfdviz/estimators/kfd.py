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
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from ..core import fit_cache, incremental, scatter, tangents
from ..core.centers import CENTER_METHODS, choose_centers
from ..core.expansion import Expansion
from ..core.greedy_kfd import greedy_kfd
from ..core.kfd_programs import solve_kfd_program
from ..core.rayleigh import solve_rayleigh
from ..core.thresholds import THRESHOLD_NAMES, GaussianOutputModel, fit_threshold
from ._base import KERNEL_PARAMETER_CONSTRAINTS, KernelEstimatorMixin, label_text
from .program_cost import kfd_program_cost
from .spec import (
    CENTERS,
    KERNEL_PARAMS,
    N_CENTERS,
    TANGENT_CHOICES,
    TANGENT_STEP,
    AlgorithmSpec,
    CostModel,
    Kind,
    ParamSpec,
    Problem,
    Work,
    mu_param,
)

FORMULATIONS = ("rayleigh", "eigen", "qp", "sparse", "linear-sparse", "greedy")
PROGRAM_LOSSES = ("squared", "absolute", "epsilon-insensitive", "huber")


class KernelFisherDiscriminant(
    ClassifierMixin, TransformerMixin, KernelEstimatorMixin, BaseEstimator
):
    """Kernel Fisher discriminant.

    Parameters
    ----------
    kernel, width, degree, coef0
        The kernel: "rbf" exp(-||x - z||^2 / width), "poly" (x.z + coef0)^degree, or "linear".
    mu : float
        Regularization of the within-class scatter, N + mu*I (TPAMI eq. 11), or N + mu*K with
        ``regularizer="gram"`` (penalizing ||w||^2). For the programs, the weight C of eq. (9).
    regularizer : {"identity", "gram"}
    threshold : {"prior", "midpoint", "min-error", "margin-lp"}
        How the offset is estimated from the training projections: the Bayes threshold of two
        1-D Gaussians with class priors; the midpoint of the projected class means; the cut with
        the fewest training errors; or the margin LP of TPAMI eq. (15).
    threshold_C : float or None
        The trade-off C of eq. (15), max rho - C sum xi, used by ``threshold="margin-lp"``:
        larger C tolerates fewer margin violations. None uses 1/(0.1 n) for n training points
        (about a tenth of the points may lie inside the margin). The LP is bounded only for
        C >= 1/(2 m), m the size of the smaller class; a smaller value is rejected at fit time.
    n_centers : int or None
        Expand over this many points only (TPAMI eq. 13); None uses every training point.
    centers : {"random", "kmeans"}
    tangents, tangent_step, tangent_weight
        Invariant KFD (TPAMI sec. 5.1): N + tangent_weight * (tangent covariance, eq. 3).
    multi_class : {"ovr", "gda"}
        More than two classes: one-vs-rest discriminants with winner-takes-all ("ovr"), or the
        nearest class mean in the r - 1 discriminant features ("gda"). ``transform`` always
        gives the GDA features then.
    formulation : {"rayleigh", "eigen", "qp", "sparse", "linear-sparse", "greedy"}
    loss : {"squared", "absolute", "epsilon-insensitive", "huber"} or None
        Loss of the program formulations; None uses each formulation's own (TPAMI eqs. 9, 12, 14).
    zero_mean_constraints : bool
        Add NIPS 2000's (4b): the residuals of each class sum to zero.
    random_state : int, RandomState or None
        Seeds the choice of centers.
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
            if self.formulation == "rayleigh":
                sol = solve_rayleigh(
                    None, N, 1, mu=self.mu, regularizer=self.regularizer, K=Kzz, rank_one=d
                )
            else:
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
        """An expansion whose value equals ``decision_function`` (two classes)."""
        check_is_fitted(self, "expansion_")
        if self.classes_.size != 2:
            return self.ovr_expansion_
        e = self.expansion_
        return Expansion(e.kernel, e.centers, e.coef, e.offset + self.intercept_)

    def transform(self, X):
        """Projections w.Phi(x) (two classes: one column) or the r - 1 GDA features."""
        return self._feature_values(X)

    def decision_function(self, X):
        """Signed distance to the threshold (two classes) or one score per class.

        Rows whose kernel values overflow (non-finite outputs) raise ValueError; so do
        ``predict``, ``predict_proba`` and ``transform``.
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
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_proba(self, X):
        """Posterior class probabilities from 1-D Gaussian models of the outputs (TPAMI sec. 3)."""
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
        return np.log(np.maximum(self.predict_proba(X), 1e-300))

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "_n_features_out")
        return np.asarray([f"kfd{i}" for i in range(self._n_features_out)], dtype=object)


# -- what the window and the pipeline know of this estimator ------------------------------------
MU_KFD = mu_param(
    1e-3,
    "Regularization of the within-class scatter: N + μI (TPAMI eq. 11). Larger μ: smoother, "
    "more robust discriminant; μ → 0 may over-fit or be singular.",
)
THRESHOLD = ParamSpec(
    "threshold",
    choices=("prior", "midpoint", "min-error", "margin-lp"),
    default="prior",
    label="Threshold",
    tooltip="Offset of the decision: Bayes rule of 1-D Gaussians with class priors; midpoint of "
    "the projected class means; fewest training errors; or the margin LP of TPAMI eq. (15).",
)
_KFD_COMMON = (*KERNEL_PARAMS, MU_KFD, THRESHOLD, N_CENTERS, CENTERS)


def _loss(default: str) -> ParamSpec:
    """The loss on the residuals ξ of the program formulations (NIPS 2001, Table 1)."""
    return ParamSpec(
        "loss",
        kind="choice",
        default=default,
        choices=("squared", "absolute", "huber", "epsilon-insensitive"),
        label="Loss on ξ",
        tooltip="The noise model of the residuals (NIPS 2001, Table 1): Gaussian (squared ξ²), "
        "Laplacian (absolute |ξ|), Huber's robust loss (squared near 0, linear beyond 1) or "
        "the ε-insensitive loss (zero inside ±0.1, linear outside).",
    )


def _centers(p: Problem) -> int:
    n_centers = p.params.get("n_centers")
    return min(int(n_centers), p.n) if n_centers else p.n


def _expansion_work(p: Problem, m: int, flops: float) -> Work:
    """A KFD over m expansion points: the n x m cross-Gram and three evaluations at the training
    points (outputs, labels, embedding) are kernel values; ``flops`` the solver's."""
    n = p.n
    return Work(4.0 * m * n, flops, 8.0 * (3.0 * m * n + 2.0 * m * m), m)


def rayleigh_work(p: Problem) -> Work:
    """The closed-form KFD: the scatter product (syrk) and the Cholesky factorization, at about
    half the calibration's rate on matrices of thousands of rows (measured at n = 2000, 4000);
    more than two classes repeat it (one-vs-rest) and add GDA's generalized eigenproblem."""
    m, r = _centers(p), max(p.classes, 2)
    repeats = 1 if r == 2 else r + 1
    flops = 2.0 * repeats * (m * m * p.n + m**3 / 3.0)
    if r > 2:
        flops += 10.0 * m**3
    work = _expansion_work(p, m, flops)
    if str(p.params.get("regularizer", "identity")) == "gram":
        work = Work(work.kernel_values + m * m, work.flops, work.peak_bytes, m)
    return work


def greedy_work(p: Problem) -> Work:
    """Forward selection: candidates scored against the Gram matrix (a sample of 59 columns on
    large data), one center a step. Setting up and scoring the candidates are passes over an
    n x pool block, memory-bound work counted in kernel values (fitted to 0.68 s at n = 2000 and
    30 steps, 1.3 s and 4.0 s at n = 1875 and 100 or 400 steps)."""
    n = p.n
    m = min(int(p.param("n_centers", 30)), n)
    pool = n if n <= 4000 else 59
    return Work(11.0 * n * pool + 0.31 * m * n * pool, 0.0, 8.0 * (n * pool + 2 * n * m), m)


SPECS = (
    AlgorithmSpec(
        "kfd",
        "Kernel Fisher discriminant",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (
            *_KFD_COMMON,
            ParamSpec(
                "regularizer",
                choices=("identity", "gram"),
                default="identity",
                label="Regularizer",
                tooltip="N + μI (eq. 11) or N + μK (penalizes ||w||^2).",
            ),
            ParamSpec(
                "tangents",
                "tuple-choice",
                (),
                choices=TANGENT_CHOICES,
                label="Invariances",
                tooltip="Invariant KFD (TPAMI 5.1): add λ times the tangent covariance (eq. 3) to N.",
            ),
            ParamSpec(
                "tangent_weight",
                default=0.0,
                low=0.0,
                high=10.0,
                label="Tangent weight λ",
                tooltip="Weight λ of the tangent covariance added to the within-class scatter.",
            ),
            TANGENT_STEP,
            ParamSpec(
                "multi_class",
                choices=("ovr", "gda"),
                default="ovr",
                label="Multi-class",
                tooltip="More than two classes: one-vs-rest winner-takes-all, or nearest class "
                "mean in the r - 1 discriminant (GDA) features.",
            ),
        ),
        cost=CostModel(rayleigh_work),
        fixed={"formulation": "rayleigh"},
        min_classes=2,
        subset_expansion=True,
        description="Maximizes between- over regularized within-class variance (TPAMI eqs. 6-8, "
        "11), solved in closed form α ∝ (N + μI)^-1 (μ2 - μ1).",
    ),
    AlgorithmSpec(
        "kfd-qp",
        "KFD as a QP",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (
            *_KFD_COMMON,
            ParamSpec(
                "zero_mean_constraints",
                default=False,
                label="Zero-mean residuals",
                tooltip="NIPS 2000 (4b): the residuals of each class sum to zero.",
            ),
            _loss("squared"),
        ),
        cost=kfd_program_cost("qp"),
        fixed={"formulation": "qp"},
        min_classes=2,
        max_classes=2,
        subset_expansion=True,
        description="min ||ξ||² + μ||α||² s.t. Kα + 1b = y - ξ (TPAMI eq. 9).",
    ),
    AlgorithmSpec(
        "kfd-sparse",
        "Sparse KFD (ℓ1)",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (*_KFD_COMMON, _loss("squared")),
        cost=kfd_program_cost("sparse"),
        fixed={"formulation": "sparse"},
        min_classes=2,
        max_classes=2,
        subset_expansion=True,
        description="min ||ξ||² + μ||α||₁ (TPAMI eq. 12): few non-zero coefficients.",
    ),
    AlgorithmSpec(
        "kfd-lp",
        "Linear sparse KFD (LP)",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (*_KFD_COMMON, _loss("absolute")),
        cost=kfd_program_cost("linear-sparse"),
        fixed={"formulation": "linear-sparse"},
        min_classes=2,
        max_classes=2,
        subset_expansion=True,
        description="min ||ξ||₁ + μ||α||₁ (TPAMI eq. 14), a linear program.",
    ),
    AlgorithmSpec(
        "kfd-greedy",
        "Greedy sparse KFD",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (
            *KERNEL_PARAMS,
            MU_KFD,
            THRESHOLD,
            # Here n_centers is the forward selection's stopping rule, not a subset to train on.
            ParamSpec(
                "n_centers",
                default=30,
                low=1,
                high=500,
                log=True,
                label="Max centers",
                tooltip="Stop the forward selection (TPAMI 4.2) at this many expansion points.",
            ),
        ),
        cost=CostModel(greedy_work, iterative=True),
        fixed={"formulation": "greedy"},
        min_classes=2,
        max_classes=2,
        description="Forward selection of expansion points with the largest gain (TPAMI sec. 4.2).",
    ),
)
