"""Grid search by k-fold cross-validation that shares the work a parameter grid repeats.

A grid over a regularization constant (KFD's mu, an SVM's C) at a fixed kernel width repeats,
for every value, the kernel matrix of the fold and (for KFD) the within-class scatter N. Here the
candidates are visited fold by fold and, within a fold, grouped by the parameters that shape that
shared work (``shared``, e.g. the width), so that:

- KFD refits inside a group find Kzx, the class means and N in the fit cache
  (:mod:`kfdviz.core.fit_cache`) and pay only for the solve and the threshold;
- a :class:`FoldScorer` may go further for its method (an SVM on a precomputed Gram matrix of the
  fold, one KOC embedding for all C of a linear SVM).

One (fold, group) is the unit of work: :func:`score_group` scores it, so that the protocol can
send each to another worker (protocol.py) and :func:`choose_best` merges the folds' scores.

The folds and the candidates' order are scikit-learn's ``GridSearchCV``'s (``StratifiedKFold``
with shuffling, ``ParameterGrid`` order). Among equal mean accuracies :func:`choose_best` takes,
by ``ties="first"``, the first (GridSearchCV's rank 1), so both choose the same parameters from
the same scores; ``ties="median"`` avoids a degenerate model (see there). A candidate whose fit
fails scores NaN on that fold and cannot be chosen (``GridSearchCV(error_score=nan)`` does the
same).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import ParameterGrid, StratifiedKFold

# scores(X_train, y_train, X_val, y_val, candidates) -> one entry per candidate: its accuracy
# (NaN: failed), or (accuracy, constant) where ``constant`` says that it predicted one class for
# every validation point
FoldScorer = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Sequence[dict]], list]

# Mean accuracies closer than this are equal: a mean of k fold accuracies reached by different
# sums may differ in its last bits.
TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class GridSearchResult:
    candidates: list[dict]  # in ParameterGrid order
    fold_scores: np.ndarray  # (n_candidates, n_folds) accuracy; NaN where the fit failed
    best_index: int
    # (n_candidates, n_folds): the candidate predicted a single class on that fold's validation
    constant: np.ndarray | None = None

    @property
    def mean_scores(self) -> np.ndarray:
        return np.average(self.fold_scores, axis=1)

    @property
    def best_params(self) -> dict:
        return dict(self.candidates[self.best_index])


def stratified_folds(y: np.ndarray, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The folds of ``StratifiedKFold(n_folds, shuffle=True, random_state=seed)``."""
    splitter = StratifiedKFold(n_folds, shuffle=True, random_state=seed)
    return list(splitter.split(np.zeros((len(y), 1)), y))


def constant_prediction(pred: np.ndarray) -> bool:
    """Whether ``pred`` names one class only (a constant predictor on these points)."""
    pred = np.asarray(pred)
    return bool(pred.size and np.all(pred == pred.flat[0]))


def estimator_params(params: dict, n: int) -> dict:
    """The estimator's parameters for a fit on ``n`` points: the protocol's ``threshold_nu``
    becomes eq. (15)'s ``threshold_C = 1/(nu n)``; the others pass as they are."""
    if "threshold_nu" not in params:
        return dict(params)
    out = {k: v for k, v in params.items() if k != "threshold_nu"}
    out["threshold_C"] = 1.0 / (float(params["threshold_nu"]) * n)
    return out


def fit_each_scorer(estimator) -> FoldScorer:
    """Fit a clone of ``estimator`` per candidate; the fit cache shares what it can."""

    def score(X_train, y_train, X_val, y_val, candidates):
        scores = []
        for params in candidates:
            try:
                params = estimator_params(params, len(y_train))
                model = clone(estimator).set_params(**params).fit(X_train, y_train)
                pred = model.predict(X_val)
                scores.append((float(np.mean(pred == y_val)), constant_prediction(pred)))
            except (ValueError, ArithmeticError, np.linalg.LinAlgError):
                scores.append((float("nan"), False))
        return scores

    return score


def _all_failed() -> ValueError:
    return ValueError(
        "every candidate of the parameter grid failed to fit on some fold; widen the grid "
        "(smaller regularization, other kernel widths)"
    )


def first_best(mean_scores: np.ndarray) -> int:
    """Index of the first highest mean score, NaN never chosen (GridSearchCV's rank 1)."""
    if not np.any(np.isfinite(mean_scores)):
        raise _all_failed()
    filled = np.where(np.isfinite(mean_scores), mean_scores, -np.inf)
    return int(np.flatnonzero(filled == filled.max())[0])


def choose_best(
    fold_scores: np.ndarray, constant: np.ndarray | None = None, ties: str = "first"
) -> int:
    """The chosen candidate from its folds' accuracies (rows in ParameterGrid order).

    The best mean accuracy wins (NaN never). Among candidates within :data:`TIE_TOLERANCE` of it:

    - ``ties="first"``: the first, as GridSearchCV;
    - ``ties="median"``: those that predicted a single class on the fewest folds (``constant``,
      a boolean array shaped like ``fold_scores``), and among them the median in grid order (the
      lower one of an even count). A flat stretch of a grid (accuracy that does not change over
      a range of C, as where a linear SVM predicts the majority class) then resolves to its
      middle rather than to its edge, and a constant predictor is taken only where every tied
      candidate is one as often.
    """
    if ties not in ("first", "median"):
        raise ValueError(f"ties must be 'first' or 'median', got {ties!r}")
    mean_scores = np.average(fold_scores, axis=1)
    if ties == "first":
        return first_best(mean_scores)
    if not np.any(np.isfinite(mean_scores)):
        raise _all_failed()
    filled = np.where(np.isfinite(mean_scores), mean_scores, -np.inf)
    tied = np.flatnonzero(filled >= filled.max() - TIE_TOLERANCE)
    if constant is not None:
        degenerate = np.asarray(constant, dtype=bool)[tied].sum(axis=1)
        tied = tied[degenerate == degenerate.min()]
    return int(tied[(tied.size - 1) // 2])


def candidate_groups(grid: dict, shared: Sequence[str] = ()) -> tuple[list[dict], list[list[int]]]:
    """The grid's candidates (ParameterGrid order) and the index lists of those scored together:
    one group per value of the ``shared`` parameters (one group in all without)."""
    candidates = list(ParameterGrid(grid))
    if not candidates:
        raise ValueError("the parameter grid is empty: give at least one value per parameter")
    groups: dict[tuple, list[int]] = {}
    for i, params in enumerate(candidates):
        groups.setdefault(tuple(params.get(k) for k in shared), []).append(i)
    return candidates, list(groups.values())


def _unpack(got) -> tuple[list[float], list[bool]]:
    scores, constant = [], []
    for entry in got:
        if isinstance(entry, tuple):
            scores.append(float(entry[0]))
            constant.append(bool(entry[1]))
        else:
            scores.append(float(entry))
            constant.append(False)
    return scores, constant


def score_group(
    scorer: FoldScorer,
    X: np.ndarray,
    y: np.ndarray,
    fold: tuple[np.ndarray, np.ndarray],
    candidates: Sequence[dict],
) -> tuple[list[float], list[bool]]:
    """One fold's accuracies of ``candidates`` (one group) and whether each predicted one class."""
    train, val = fold
    got = scorer(X[train], y[train], X[val], y[val], list(candidates))
    return _unpack(got)


def grid_search(
    scorer: FoldScorer,
    grid: dict,
    X: np.ndarray,
    y: np.ndarray,
    *,
    shared: Sequence[str] = (),
    n_folds: int = 5,
    seed: int = 0,
    ties: str = "first",
) -> GridSearchResult:
    """Cross-validated accuracy of every candidate of ``grid``; the best chosen by ``ties``.

    Candidates with equal values of the ``shared`` parameters are scored together, one call of
    ``scorer`` per fold and group.
    """
    candidates, groups = candidate_groups(grid, shared)
    folds = stratified_folds(y, n_folds, seed)
    scores = np.full((len(candidates), len(folds)), np.nan)
    constant = np.zeros((len(candidates), len(folds)), dtype=bool)
    for f, fold in enumerate(folds):
        for members in groups:
            got, flat = score_group(scorer, X, y, fold, [candidates[i] for i in members])
            scores[members, f] = got
            constant[members, f] = flat
    return GridSearchResult(candidates, scores, choose_best(scores, constant, ties), constant)
