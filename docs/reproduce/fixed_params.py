"""One method at fixed parameters on every realization: the test error a neighbouring grid
point, or a value outside the grid, would give.

    python docs/reproduce/fixed_params.py lskfd ringnorm --data DIR width=20 mu=10
    python docs/reproduce/fixed_params.py kfd twonorm --data DIR width=20 mu=1 threshold_nu=0.5

The fits are the tables' evaluation tasks (the method's estimator, its threshold, (4b) for the
programs unless ``--no-zero-mean``), on the first ``--realizations`` realizations; prints the
mean test error and its standard error.
"""

from __future__ import annotations

import argparse

import numpy as np

from kfdviz.datasets.benchmark import open_benchmark
from kfdviz.experiments.methods import ProtocolOptions
from kfdviz.experiments.protocol import Split, eval_task, mean_and_se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("method")
    parser.add_argument("dataset")
    parser.add_argument("params", nargs="+", metavar="NAME=VALUE")
    parser.add_argument("--data", required=True)
    parser.add_argument("--realizations", type=int, default=10)
    parser.add_argument("--no-zero-mean", action="store_true")
    args = parser.parse_args()
    params = {k: float(v) for k, v in (p.split("=", 1) for p in args.params)}
    options = ProtocolOptions(zero_mean=not args.no_zero_mean).as_dict()
    source = open_benchmark(args.data)
    errors = []
    for r in source.realizations(args.dataset)[: args.realizations]:
        result = eval_task(args.method, params, Split(*source.load(args.dataset, r)), options)
        if "failed" in result:
            raise SystemExit(f"realization {r}: {result['failed']}")
        errors.append(result["error"])
    mean, se = mean_and_se(errors)
    se_text = "–" if se is None else f"{se:.2f}"
    print(
        f"{args.method} on {args.dataset} at {params}: {mean:.2f} ± {se_text} "
        f"(errors {np.round(errors, 2).tolist()})"
    )


if __name__ == "__main__":
    main()
