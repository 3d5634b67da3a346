"""KFD's cross-validation over mu on one fold: one tridiagonal reduction of N serves every mu.

At a fixed kernel width the two-class Rayleigh KFD (TPAMI eq. 11) takes the direction
a(mu) = (N + mu I)^-1 d, d the difference of the class means. With the Householder reduction
N = Q T Q' (LAPACK ``sytrd``: Q orthogonal, T tridiagonal),

    (N + mu I)^-1 d = Q (T + mu I)^-1 Q' d,

so one reduction per fold and width (about the work of three Cholesky factorizations of N)
leaves each mu an O(m) tridiagonal solve and one application of Q, instead of a Cholesky
factorization and a condition estimate per mu. T has N's eigenvalues, so the condition number
of N + mu I, (l_max + mu) / (l_min + mu), comes with them.

Everything after the direction is the estimator's own arithmetic: the outputs scaled so that
the projected class means lie 2 apart, the offset midway between them, the threshold by the
estimator's rule (for the tables the margin LP of eq. 15, see below), and the validation
points classified by the sign of their output. The inputs are validated once
per fold, as the estimator validates them.

The estimator solves with a Cholesky factor where N + mu I is well conditioned, and on N's
numerical range with a warning where it is not (:mod:`kfdviz.core.rayleigh`). Here only mu
whose condition number is at most ``FAST_CONDITION`` take the reduction; that is a hundredth
of the bound above which the estimator leaves the Cholesky route, so the estimator too takes
its closed form there and both compute the same direction up to round-off. Round-off must not
decide a score either: a candidate with a validation output within ``TIE_TOLERANCE`` of the
threshold is left to the estimator (on data with few distinct points, as titanic's, the
margin LP's offset sits on a group of tied outputs, and validation points share their value).
Repeated training points alone are not a reason: identical rows give identical outputs in
both routes. The estimator also fits the other mu, and every fold or configuration this path
does not cover (more than two classes, expansion over a subset, tangents, the mu K
regularizer, other formulations, input the estimator refuses), warnings and refusals included.

The margin LP threshold of eq. (15) stays HiGHS's, but need not always be solved. Its
optimum is often not unique: with C = 1/(0.1 n) and 0.05 n a whole number (every 320-point
fold) a whole interval of offsets b is optimal, and which point of it the simplex method
returns follows no rule another solver could reproduce. The interval itself has a closed form
(:func:`kfdviz.core.thresholds.margin_lp_optimal_offsets`): where no validation output lies
within it (widened by ``OFFSET_MARGIN`` for HiGHS's tolerances and round-off), every optimal
offset classifies the validation points alike, and the score needs no LP. Otherwise HiGHS
gives the offset, as in the estimator.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.base import clone
from sklearn.utils.multiclass import check_classification_targets

from ..core import fit_cache, tangents
from ..core.mu_path import FAST_CONDITION, TridiagonalN
from ..core.thresholds import fit_threshold, margin_lp_optimal_offsets
from .crossval import FoldScorer, constant_prediction, estimator_params, fit_each_scorer

# A validation output this close to the threshold (relative to the largest training output)
# is left to the estimator: the direction here and the estimator's Cholesky solve differ by up
# to about FAST_CONDITION x unit round-off.
TIE_TOLERANCE = 1e-7
# The margin around eq. (15)'s interval of optimal offsets (relative to the largest training
# output) that covers HiGHS's tolerances (1e-7 on outputs normalized to unit spread) and the
# round-off between the two directions.
OFFSET_MARGIN = 1e-6


def _covered(est) -> bool:
    """Whether the estimator's configuration is the plain two-class Rayleigh KFD."""
    return (
        est.formulation == "rayleigh"
        and est.regularizer == "identity"
        and est.n_centers is None
        and not (est.tangents and est.tangent_weight > 0)
    )


def _fold_setup(est, X_train, y_train, X_val):
    """The fold's validated arrays, labels and kernel terms, or None where the path stops.

    The checks are the estimator's own (parameters, X and y, the tangents' names, two classes
    of two points or more); any refusal hands the fold to the estimator, which then refuses it
    per candidate.
    """
    try:
        est._validate_params()
        X, y = est._check_X_y(X_train, y_train)
        check_classification_targets(y)
        tangents.check_tangents(est.tangents, X.shape[1])
        classes, y_index = np.unique(y, return_inverse=True)
        if classes.size != 2 or np.bincount(y_index).min() < 2:
            return None
        X_val = est._check_X(X_val, reset=False)
    except ValueError:
        return None
    kern = est._make_kernel()
    # The estimator's own cache entry: any candidate it fits below finds these terms.
    terms = fit_cache.two_class_terms(kern, X, X, y_index)
    with np.errstate(over="ignore", invalid="ignore"):
        K_val = kern(X_val, X)
    if not (np.all(np.isfinite(terms.N)) and np.all(np.isfinite(K_val))):
        return None
    return classes, y_index, terms, K_val


def kfd_mu_path_scorer(estimator) -> FoldScorer:
    """A fold scorer for a two-class Rayleigh KFD whose candidates differ only in mu.

    Scores equal those of fitting a clone of ``estimator`` per candidate (up to round-off in
    the direction, see the module's notes), at one reduction of N per fold and width.
    """
    fallback = fit_each_scorer(estimator)

    def score(X_train, y_train, X_val, y_val, candidates: Sequence[dict]) -> list:
        fixed = {k: v for k, v in candidates[0].items() if k != "mu"}
        if any({k: v for k, v in c.items() if k != "mu"} != fixed for c in candidates):
            return fallback(X_train, y_train, X_val, y_val, candidates)
        est = clone(estimator).set_params(**estimator_params(fixed, len(y_train)))
        mus = [c.get("mu", est.mu) for c in candidates]
        if not _covered(est) or not all(isinstance(mu, int | float) for mu in mus):
            return fallback(X_train, y_train, X_val, y_val, candidates)
        setup = _fold_setup(est, X_train, y_train, X_val)
        if setup is None:
            return fallback(X_train, y_train, X_val, y_val, candidates)
        classes, y_index, terms, K_val = setup
        reduced = TridiagonalN(terms.N)
        fast = [
            j
            for j, mu in enumerate(mus)
            if np.isfinite(mu) and mu > 0 and reduced.condition(float(mu)) <= FAST_CONDITION
        ]
        scores: list = [None] * len(candidates)
        if fast:
            A = reduced.solve(terms.mean_difference, [float(mus[j]) for j in fast])
            s = np.where(y_index == 1, 1.0, -1.0)
            Z_train, Z_val = terms.Kzx.T @ A, K_val @ A
            for col, j in enumerate(fast):
                scores[j] = _score_direction(est, Z_train[:, col], Z_val[:, col], s, classes, y_val)
        rest = [j for j, value in enumerate(scores) if value is None]
        if rest:
            slow = fallback(X_train, y_train, X_val, y_val, [candidates[j] for j in rest])
            for j, value in zip(rest, slow, strict=True):
                scores[j] = value
        return scores

    return score


def _score_direction(est, z, z_val, s, classes, y_val) -> tuple | None:
    """Validation accuracy of the direction with training outputs z, as the estimator ends a fit,
    and whether it predicted one class for every validation point.

    None where round-off could decide the score, so that the estimator decides it: a validation
    output within ``TIE_TOLERANCE`` of the threshold. Data with few distinct points (titanic)
    put whole groups of validation points there, as the margin LP's offset then sits on a
    group of tied training outputs.
    """
    gap = z[s > 0].mean() - z[s < 0].mean()
    if not np.isfinite(gap) or gap == 0:
        return (float("nan"), False)  # the estimator refuses a direction that separates nothing
    z = z * (2.0 / gap)
    offset = -0.5 * (z[s > 0].mean() + z[s < 0].mean())
    z = z + offset
    size = max(1.0, float(np.max(np.abs(z))))
    tol = TIE_TOLERANCE * size
    outputs = z_val * (2.0 / gap) + offset  # before the offset b
    if est.threshold == "margin-lp":
        try:
            optimal = margin_lp_optimal_offsets(z, s, est.threshold_C)
        except ValueError:
            return (float("nan"), False)  # eq. (15) unbounded for this C: the estimator refuses
        if optimal is not None and np.all(np.isfinite(outputs)):
            # Every offset HiGHS may return lies in the interval (up to its tolerances and
            # the round-off between the two directions): if no validation output is near it,
            # the predictions do not depend on which one.
            lo, hi = optimal[0] - OFFSET_MARGIN * size, optimal[1] + OFFSET_MARGIN * size
            positive, negative = outputs + lo > 0, outputs + hi < 0
            if np.all(positive | negative):
                pred = classes[positive.astype(int)]
                return (float(np.mean(pred == y_val)), constant_prediction(pred))
    try:
        b = float(fit_threshold(est.threshold, z, s, margin_C=est.threshold_C))
    except (ValueError, ArithmeticError):
        return (float("nan"), False)
    outputs = outputs + b
    if not np.all(np.isfinite(outputs)):
        return (float("nan"), False)
    if np.any(np.abs(outputs) <= tol):
        return None
    pred = classes[(outputs > 0).astype(int)]
    return (float(np.mean(pred == y_val)), constant_prediction(pred))
