"""The SVM column without the protocol's median: each realization uses its own choice.

    python docs/reproduce/svm_each_realization.py waveform --data DIR [--width-steps 2]

scikit-learn's ``GridSearchCV`` over ``SVC(kernel="rbf", gamma=1/c)`` with the tables' grid (c in
d x 10^-1.5 ... 10^2.5, ``--width-steps`` values per decade; C in 10^-1 ... 10^3), 5-fold
``StratifiedKFold(shuffle=True, random_state=r)`` on realization r's training set, and that
realization's test error at its own choice; the mean and standard error over the realizations.
An independent path (no kfdviz estimator, no shared-work scorer): it measures how much of the
SVM's gap the protocol's one median choice for every realization accounts for.
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC

from kfdviz.datasets.benchmark import open_benchmark


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--data", required=True)
    parser.add_argument("--width-steps", type=int, default=2)
    parser.add_argument("--realizations", type=int, default=10)
    args = parser.parse_args()
    source = open_benchmark(args.data)
    numbers = source.realizations(args.dataset)[: args.realizations]
    errors, choices = [], []
    for r in numbers:
        X, y, Xt, yt = source.load(args.dataset, r)
        d = X.shape[1]
        n = round(4 * args.width_steps) + 1
        widths = d * np.logspace(-1.5, 2.5, n)
        grid = {"gamma": list(1.0 / widths), "C": list(np.logspace(-1, 3, 5))}
        cv = StratifiedKFold(5, shuffle=True, random_state=r)
        search = GridSearchCV(SVC(kernel="rbf"), grid, cv=cv).fit(X, y)
        errors.append(100.0 * np.mean(search.predict(Xt) != yt))
        p = search.best_params_
        choices.append((round(1.0 / p["gamma"], 3), p["C"]))
    e = np.asarray(errors)
    se = e.std(ddof=1) / np.sqrt(e.size) if e.size > 1 else float("nan")
    print(f"SVC on {args.dataset}, own choice per realization: {e.mean():.2f} ± {se:.2f}")
    print(f"errors {np.round(e, 2).tolist()}; choices (c, C) {choices}")


if __name__ == "__main__":
    main()
