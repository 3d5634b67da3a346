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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", choices=tuple(TABLES), help="the table to reproduce")
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=os.environ.get("KFDVIZ_DATA_DIR"),
        help="the benchmark data folder (NAME.npz per data set; default: $KFDVIZ_DATA_DIR)",
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
        _say("error: give the benchmark data folder with --data DIR (or set KFDVIZ_DATA_DIR)")
        return 2
    data = Path(args.data)
    if not data.is_dir():
        _say(f"error: --data {data}: no such folder (it holds banana.npz etc.)")
        return 2
    if not any(p.is_file() for p in data.glob("*.npz")):
        _say(f"error: --data {data}: no data files in this folder (it holds banana.npz etc.)")
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
            from .report import to_csv, to_json, to_markdown
            from .run import reproduce

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
