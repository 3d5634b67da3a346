"""The papers' benchmark protocol on the IDA data (TPAMI sec. 5.2, NIPS 2000 sec. 5), one call.

A compact form for tests and scripts: any estimator and grid, scikit-learn's GridSearchCV, one
data set, in this process. ``kfdviz reproduce`` (run.py) runs the same protocol as stored,
parallel tasks with the shared-work grid search.

Parameters are chosen by 5-fold cross-validation on each of the first five training
realizations; the median of the five choices is then used on every realization, and the test
error is averaged over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from threadpoolctl import threadpool_limits

from ..datasets.ida import ida_realizations, load_ida
from .protocol import median_choice

# The papers' KFD column (test error in %), TPAMI Table 1 and the 1999 table.
PAPER_KFD_ERROR = {
    "banana": 10.8,
    "breast-cancer": 25.8,
    "german": 23.7,
    "heart": 16.1,
    "image": 4.8,
    "ringnorm": 1.5,
    "titanic": 23.2,
    "twonorm": 2.6,
    "waveform": 9.9,
}


@dataclass(frozen=True)
class ProtocolResult:
    dataset: str
    params: dict  # the median of the per-realization CV choices
    cv_choices: list[dict]
    test_errors: np.ndarray  # percent, one per realization
    realizations: np.ndarray

    @property
    def mean_error(self) -> float:
        return float(np.mean(self.test_errors))


def run_protocol(
    folder,
    dataset: str,
    estimator,
    param_grid: dict,
    *,
    n_cv_realizations: int = 5,
    max_realizations: int | None = None,
    n_folds: int = 5,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> ProtocolResult:
    realizations = ida_realizations(folder, dataset)[:max_realizations]
    splits = {r: load_ida(folder, dataset, r) for r in realizations}
    # Hundreds of small fits: one BLAS thread each is fastest (threaded BLAS on a few-hundred
    # matrix mostly waits); parallelism belongs across fits.
    with threadpool_limits(1):
        choices = []
        for k, r in enumerate(realizations[:n_cv_realizations]):
            X_train, y_train, _, _ = splits[r]
            search = GridSearchCV(
                clone(estimator),
                param_grid,
                cv=StratifiedKFold(n_folds, shuffle=True, random_state=seed + k),
                scoring="accuracy",
                n_jobs=1,
            )
            search.fit(X_train, y_train)
            choices.append(search.best_params_)
            if progress:
                progress(f"{dataset}: realization {r} CV choice {search.best_params_}")
        params = median_choice(choices)
        errors = []
        for X_train, y_train, X_test, y_test in splits.values():
            model = clone(estimator).set_params(**params).fit(X_train, y_train)
            errors.append(100.0 * np.mean(model.predict(X_test) != y_test))
    return ProtocolResult(dataset, params, choices, np.array(errors), np.array(realizations))
