"""``kfdviz reproduce``: its arguments (standard library only) and its run.

The run's modules (the data sets, scikit-learn, joblib, and Qt for ``--figure``) are imported by
:func:`run`, so that building the parser, as ``kfdviz --help`` does, loads none of them.

stdout carries the table (Markdown) or, with ``--json``, one JSON document and nothing else:
the progress bar, notices and the wall time go to stderr, and while the tasks run stdout is
pointed at stderr at the file-descriptor level, so that nothing a worker process prints can
reach it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

from .cache import write_text_atomic
from .tables import TABLES

DEFAULT_OUT = "kfdviz-reproduce"


def _names(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one name, separated by commas")
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _nu(text: str):
    if text == "cv":
        return text
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number in (0, 1] or 'cv', got {text!r}"
        ) from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1] (or 'cv'), got {value}")
    return value


def _workers(text: str) -> list[int]:
    return [_positive(part) for part in _names(text)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", choices=tuple(TABLES), help="the table to reproduce")
    parser.add_argument(
        "--data",
        metavar="PATH",
        default=os.environ.get("KFDVIZ_DATA_DIR"),
        help="the benchmark data: benchmarks.mat, a folder of NAME_train_data_K.asc files or "
        "of NAME.npz files; for the protocol table also one data file with --splits "
        "(default: $KFDVIZ_DATA_DIR)",
    )
    parser.add_argument(
        "--datasets", type=_names, metavar="a,b", help="only these data sets (file names)"
    )
    parser.add_argument("--methods", type=_names, metavar="a,b", help="only these columns")
    parser.add_argument(
        "--realizations",
        type=_positive,
        metavar="N",
        help="use the first N realizations of each data set (default: all in the folder)",
    )
    parser.add_argument(
        "--n-jobs", type=_positive, default=1, metavar="J", help="parallel workers (default 1)"
    )
    parser.add_argument(
        "--backend",
        choices=("loky", "dask"),
        default="loky",
        help="joblib's loky processes (default) or a Dask cluster",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --backend dask: a running scheduler, e.g. tcp://host:8786 (default: a "
        "LocalCluster of --n-jobs workers on this machine)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        default=DEFAULT_OUT,
        help=f"write TABLE.md, TABLE.csv and TABLE.json here (default: ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="stored task results, shared by all tables (default: OUT/cache)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the JSON document (only it) on stdout"
    )
    parser.add_argument(
        "--figure", metavar="FILE", help="also draw ours against the paper's (.svg, .png, .pdf)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    group = parser.add_argument_group(
        "protocol options", "what the papers leave open (docs/reproduce.md, Protocol)"
    )
    group.add_argument(
        "--no-zero-mean",
        action="store_true",
        help="SKFD and LSKFD without NIPS 2001's class zero-mean constraints (4b)",
    )
    group.add_argument(
        "--threshold-nu",
        type=_nu,
        default=0.1,
        metavar="NU",
        help="eq. (15)'s C = 1/(NU n), NU in (0, 1], or 'cv' to cross-validate it (default 0.1)",
    )
    group.add_argument(
        "--program-width",
        choices=("kfd", "search"),
        default="kfd",
        help="SKFD and LSKFD take KFD's width (default) or search their own",
    )
    group.add_argument(
        "--ties",
        choices=("median", "first"),
        default="median",
        help="equal cross-validated accuracies: the median of the non-constant tied candidates "
        "(default) or the first in grid order (GridSearchCV's)",
    )
    group.add_argument(
        "--splits",
        type=_positive,
        metavar="N",
        help="protocol table: split one data file (CSV, TSV, svmlight) into N random "
        "train/test realizations",
    )
    group.add_argument(
        "--seed", type=int, default=0, help="protocol table: seed of the random splits (default 0)"
    )
    parser.add_argument(
        "--expected-time",
        type=_workers,
        metavar="P,P",
        help="after the run, print the expected wall time on P workers, simulated from the "
        "stored durations of the table's tasks (e.g. 1,8,16,64)",
    )
    parser.add_argument(
        "--time-measure",
        choices=("cpu", "wall"),
        default="cpu",
        help="with --expected-time: the tasks' CPU seconds (default; independent of the "
        "machine's load) or their wall seconds as measured",
    )


@contextlib.contextmanager
def _stdout_to_stderr():
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _say(message: str) -> None:
    print(f"kfdviz reproduce: {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if not args.data:
        _say("error: give the benchmark data with --data PATH (or set KFDVIZ_DATA_DIR)")
        return 2
    if args.scheduler and args.backend != "dask":
        _say("error: --scheduler names a Dask scheduler; add --backend dask")
        return 2
    if args.figure:
        # The figure code brings the pipeline: loaded for --figure only, not for the parser.
        from kfdviz.figure.export import format_of

        try:
            format_of(args.figure)
        except ValueError as exc:
            _say(f"error: --figure: {exc}")
            return 2
    out = Path(args.out)
    cache = Path(args.cache) if args.cache else out / "cache"
    start = time.perf_counter()
    try:
        with _stdout_to_stderr() if args.json else contextlib.nullcontext():
            # The run loads the data sets, scikit-learn and joblib: for a run only, not for the
            # parser (`kfdviz --help`); imported here, what they print goes to stderr.
            from .methods import ProtocolOptions
            from .report import to_csv, to_json, to_markdown
            from .run import reproduce

            options = ProtocolOptions(
                zero_mean=not args.no_zero_mean,
                threshold_nu=args.threshold_nu,
                program_width=args.program_width,
                ties=args.ties,
            )
            timings: list = []

            doc = reproduce(
                args.table,
                args.data,
                datasets=args.datasets,
                methods=args.methods,
                realizations=args.realizations,
                n_jobs=args.n_jobs,
                backend=args.backend,
                scheduler=args.scheduler,
                cache_dir=cache,
                progress=not args.no_progress,
                options=options,
                timings=timings,
                splits=args.splits,
                seed=args.seed,
            )
            written = _write_outputs(doc, out, to_markdown, to_csv, to_json)
            if args.figure:
                from .figures import save_table_figure  # Qt: for --figure only

                written.append(save_table_figure(doc, args.figure))
    except KeyboardInterrupt:
        _say(f"interrupted; finished tasks are kept in {cache}: run the same command to resume")
        return 130
    except (ValueError, RuntimeError, OSError) as exc:
        _say(f"error: {exc}")
        return 1
    seconds = time.perf_counter() - start
    for path in written:
        _say(f"wrote {path}")
    _say(f"{args.table} done in {seconds:.1f} s")
    if args.expected_time:
        from .schedule import describe, expected_times  # only for --expected-time

        measure = f"{args.time_measure}_s"
        times, summary = expected_times(timings, args.expected_time, measure)
        for line in describe(times, summary, measure).splitlines():
            _say(line)
    if args.json:
        sys.stdout.write(to_json(doc))
    else:
        sys.stdout.write(to_markdown(doc))
    sys.stdout.flush()
    return 0


def _write_outputs(doc: dict, out: Path, to_markdown, to_csv, to_json) -> list[Path]:
    name = doc["table"]
    return [
        write_text_atomic(out / f"{name}.md", to_markdown(doc)),
        write_text_atomic(out / f"{name}.csv", to_csv(doc)),
        write_text_atomic(out / f"{name}.json", to_json(doc)),
    ]
