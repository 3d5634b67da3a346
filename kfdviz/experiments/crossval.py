"""Grid search by k-fold cross-validation that shares the work a parameter grid repeats.

A grid over a regularization constant (KFD's mu, an SVM's C) at a fixed kernel width repeats,
for every value, the kernel matrix of the fold and (for KFD) the within-class scatter N. Here the
candidates are visited fold by fold and, within a fold, grouped by the parameters that shape that
shared work (``shared``, e.g. the width), so that:

- KFD refits inside a group find Kzx, the class means and N in the fit cache
  (:mod:`kfdviz.core.fit_cache`) and pay only for the solve and the threshold;
- a :class:`FoldScorer` may go further for its method (an SVM on a precomputed Gram matrix of the
  fold, one KOC embedding for all C of a linear SVM).

The folds, the candidates' order and the tie-breaking are scikit-learn's ``GridSearchCV``'s
(``StratifiedKFold`` with shuffling, ``ParameterGrid`` order, the first best mean accuracy), so
both choose the same parameters from the same scores. A candidate whose fit fails scores NaN on
that fold and cannot be chosen (``GridSearchCV(error_score=nan)`` does the same).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import ParameterGrid, StratifiedKFold

# scores(X_train, y_train, X_val, y_val, candidates) -> accuracies, one per candidate (NaN: failed)
FoldScorer = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Sequence[dict]], list]


@dataclass(frozen=True)
class GridSearchResult:
    candidates: list[dict]  # in ParameterGrid order
    fold_scores: np.ndarray  # (n_candidates, n_folds) accuracy; NaN where the fit failed
    best_index: int

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


def fit_each_scorer(estimator) -> FoldScorer:
    """Fit a clone of ``estimator`` per candidate; the fit cache shares what it can."""

    def score(X_train, y_train, X_val, y_val, candidates):
        scores = []
        for params in candidates:
            try:
                model = clone(estimator).set_params(**params).fit(X_train, y_train)
                scores.append(float(np.mean(model.predict(X_val) == y_val)))
            except (ValueError, ArithmeticError, np.linalg.LinAlgError):
                scores.append(float("nan"))
        return scores

    return score


def first_best(mean_scores: np.ndarray) -> int:
    """Index of the first highest mean score, NaN never chosen (GridSearchCV's rank 1)."""
    if not np.any(np.isfinite(mean_scores)):
        raise ValueError(
            "every candidate of the parameter grid failed to fit on some fold; widen the grid "
            "(smaller regularization, other kernel widths)"
        )
    filled = np.where(np.isfinite(mean_scores), mean_scores, -np.inf)
    return int(np.flatnonzero(filled == filled.max())[0])


def grid_search(
    scorer: FoldScorer,
    grid: dict,
    X: np.ndarray,
    y: np.ndarray,
    *,
    shared: Sequence[str] = (),
    n_folds: int = 5,
    seed: int = 0,
) -> GridSearchResult:
    """Cross-validated accuracy of every candidate of ``grid``; the first best one chosen.

    Candidates with equal values of the ``shared`` parameters are scored together, one call of
    ``scorer`` per fold and group.
    """
    candidates = list(ParameterGrid(grid))
    if not candidates:
        raise ValueError("the parameter grid is empty: give at least one value per parameter")
    groups: dict[tuple, list[int]] = {}
    for i, params in enumerate(candidates):
        groups.setdefault(tuple(params.get(k) for k in shared), []).append(i)
    folds = stratified_folds(y, n_folds, seed)
    scores = np.full((len(candidates), len(folds)), np.nan)
    for f, (train, val) in enumerate(folds):
        X_train, y_train, X_val, y_val = X[train], y[train], X[val], y[val]
        for members in groups.values():
            got = scorer(X_train, y_train, X_val, y_val, [candidates[i] for i in members])
            scores[members, f] = got
    return GridSearchResult(candidates, scores, first_best(np.average(scores, axis=1)))
