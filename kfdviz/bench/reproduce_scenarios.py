"""The benchmark protocol's cross-validation: the shared-work grid search against GridSearchCV.

One data set of the papers' kind (Breiman's ringnorm: 20-D, class 1 N(0, 4I), class 2
N(a 1, I) with a = 2/sqrt(20), 400 training points) is cross-validated over ``kfdviz
reproduce``'s KFD grid (9 widths x 10 mu, margin-LP threshold) both ways: by
:func:`kfdviz.experiments.crossval.grid_search` with the KFD mu path
(:mod:`kfdviz.experiments.kfd_path`: per fold and width one kernel matrix, one within-class
scatter N and one tridiagonal reduction of N serve every mu, and the margin LP is solved only
where its optimal offsets do not all classify the validation points alike), and by
scikit-learn's ``GridSearchCV`` over the same estimator, grid and folds. Both must choose the
same parameters from the same scores.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from kfdviz.estimators import KernelFisherDiscriminant
from kfdviz.experiments.crossval import grid_search
from kfdviz.experiments.kfd_path import kfd_mu_path_scorer
from kfdviz.experiments.methods import KFD_MU, width_grid

from .numeric import _clear_caches
from .registry import Case, Check, Target, scenario


def ringnorm(n: int, d: int = 20, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Breiman's ringnorm: half N(0, 4I), half N(a 1, I), a = 2/sqrt(d); labels 0 and 1."""
    rng = np.random.RandomState(seed)
    n0 = n // 2
    a = 2.0 / np.sqrt(d)
    X = np.vstack([2.0 * rng.randn(n0, d), a + rng.randn(n - n0, d)])
    y = np.r_[np.zeros(n0, int), np.ones(n - n0, int)]
    order = rng.permutation(n)
    return X[order], y[order]


@scenario(
    "cv-kfd-grid",
    title="5-fold CV of KFD over the reproduce grid (9 widths x 10 mu), ringnorm 400 x 20",
    baseline="scikit-learn GridSearchCV, same estimator, grid and folds",
    target=Target.ratio(3.0),
    group="reproduce",
)
def _cv_kfd_grid(quick: bool) -> Case:
    d = 20
    n = 120 if quick else 400
    X, y = ringnorm(n, d, seed=3)
    widths = width_grid(d)
    grid = {"width": widths[2:5], "mu": KFD_MU[::3]} if quick else {"width": widths, "mu": KFD_MU}
    estimator = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    n_folds, seed = 5, 0

    def candidate():
        result = grid_search(
            kfd_mu_path_scorer(estimator), grid, X, y, shared=("width",), n_folds=n_folds, seed=seed
        )
        return result.best_params, result.mean_scores

    def baseline():
        search = GridSearchCV(
            estimator,
            grid,
            cv=StratifiedKFold(n_folds, shuffle=True, random_state=seed),
            scoring="accuracy",
            n_jobs=1,
            refit=False,
        ).fit(X, y)
        return search.best_params_, search.cv_results_["mean_test_score"]

    def check(c, b):
        same = c[0] == b[0]
        scores = float(np.nanmax(np.abs(np.asarray(c[1]) - np.asarray(b[1]))))
        return Check.at_most(
            "chosen parameters differ (0/1) + max |mean accuracy diff|",
            (0.0 if same else 1.0) + scores,
            1e-12,
        )

    return Case(
        candidate,
        baseline,
        check,
        prepare_candidate=_clear_caches,
        prepare_baseline=_clear_caches,
        sizes={"n": n, "d": d, "grid": f"{len(grid['width'])}x{len(grid['mu'])}", "folds": 5},
    )
