"""Re-run one cell of a table with a changed parameter grid, to measure what the grid decides.

    python docs/reproduce/grid_variant.py svm waveform --data DIR --width-steps 4 --c-steps 2
    python docs/reproduce/grid_variant.py kfd twonorm --data DIR --table mika-1999 --width-steps 4

``--width-steps`` and ``--c-steps`` are the grid's values per decade (the tables use 2 for the
width, 1 for C or mu) over the same ranges; the protocol (5-fold cross-validation on the first
five realizations, the median choice, test error over the realizations) and the options are the
tables' own. The results go to their own store (``--cache``), so a table's store is not mixed
with a variant's; the tables' grids are unchanged for everything else.
"""

from __future__ import annotations

import argparse
import dataclasses

import numpy as np

from kfdviz.experiments import methods
from kfdviz.experiments.run import reproduce


def decades(lo, hi, steps):
    n = round((hi - lo) * steps) + 1
    return [float(f"{v:.12g}") for v in np.logspace(lo, hi, n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("method", choices=("svm", "kfd"))
    parser.add_argument("dataset")
    parser.add_argument("--data", required=True)
    parser.add_argument("--table", default="mika-table1")
    parser.add_argument("--width-steps", type=int, default=2)
    parser.add_argument("--c-steps", type=int, default=1)
    parser.add_argument("--realizations", type=int)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--cache", default="kfdviz-reproduce/variant-cache")
    args = parser.parse_args()
    lo, hi = (-1, 3) if args.method == "svm" else (-6, 3)
    name = "C" if args.method == "svm" else "mu"

    def grid(d):
        widths = [float(f"{d * v:.12g}") for v in decades(-1.5, 2.5, args.width_steps)]
        return {"width": widths, name: decades(lo, hi, args.c_steps)}

    methods.METHODS[args.method] = dataclasses.replace(methods.METHODS[args.method], grid=grid)
    doc = reproduce(
        args.table,
        args.data,
        datasets=[args.dataset],
        methods=[args.method],
        realizations=args.realizations,
        n_jobs=args.n_jobs,
        cache_dir=args.cache,
        progress=False,
    )
    ours = doc["rows"][0]["cells"][args.method]["ours"]
    se = "–" if ours["se"] is None else f"{ours['se']:.2f}"
    print(
        f"{args.method} on {args.dataset}, {args.width_steps} widths and {args.c_steps} "
        f"{name} per decade: {ours['mean']:.2f} ± {se} over realizations {ours['realizations']}, "
        f"chosen {ours['params']}, choices {ours['cv_choices']}"
    )


if __name__ == "__main__":
    main()
