"""``kfdviz bench``: the arguments (standard library only) and the handler."""

from __future__ import annotations

import argparse
import sys

from ..atomic_file import check_writable, write_text
from .registry import load_scenarios


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run on small sizes, named by them (what CI runs): a few minutes, most "
        "of it the window's scenarios (6 min on two cores at load average 15; the live-* "
        "scenarios only when named with --only); targets are not judged",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--markdown", action="store_true", help="print the table as a Markdown table"
    )
    parser.add_argument(
        "--only",
        metavar="PATTERN",
        action="append",
        help="run the scenarios whose names match this shell pattern (repeatable), e.g. 'kfd-*'",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        metavar="N",
        help="timed calls of each side (default: 7, fewer for slow baselines; 2 with --quick)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="BLAS threads (default: every core, as the app's fit worker uses)",
    )
    parser.add_argument("--output", metavar="FILE", help="also write the JSON report to this file")
    parser.add_argument(
        "--list", action="store_true", help="list the scenarios and exit without running"
    )


def run(args: argparse.Namespace) -> int:
    # The runner loads numpy and the BLAS: for a run only, not for the parser (`kfdviz --help`).
    from .report import format_report, to_json
    from .runner import run as run_bench

    if args.list:
        for sc in load_scenarios().values():
            target = sc.target.describe() if sc.target else "-"
            quick = [sc.name_for(True)] if sc.name_for(True) != sc.name else []
            quick += [] if sc.in_quick else ["only when named with --only"]
            also = f" (--quick: {', '.join(quick)})" if quick else ""
            print(f"{sc.name:<18} {sc.title}; target {target}{also}")
        return 0
    if args.only is not None and not all(pattern.strip() for pattern in args.only):
        print(
            "kfdviz: error: --only needs a pattern of scenario names, e.g. 'kfd-*'", file=sys.stderr
        )
        return 2
    if args.repeats is not None and args.repeats < 1:
        print("kfdviz: error: --repeats must be at least 1", file=sys.stderr)
        return 2
    if args.threads is not None and args.threads < 1:
        print("kfdviz: error: --threads must be at least 1", file=sys.stderr)
        return 2

    if args.output:
        try:  # before the run, not after it: a long run's results must not be lost
            check_writable(args.output)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            print(f"kfdviz: error: cannot write --output {args.output}: {reason}", file=sys.stderr)
            return 2

    def progress(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        report = run_bench(
            args.only,
            quick=args.quick,
            repeats=args.repeats,
            threads=args.threads,
            progress=None if args.json else progress,
        )
    except ValueError as exc:
        print(f"kfdviz: error: {exc}", file=sys.stderr)
        return 2
    text = to_json(report)
    if args.output:
        try:
            write_text(args.output, text + "\n")
        except OSError as exc:
            print(text)  # the results, not lost with the file
            reason = exc.strerror or str(exc)
            print(f"kfdviz: error: cannot write --output {args.output}: {reason}", file=sys.stderr)
            return 2
    print(text if args.json else format_report(report, markdown=args.markdown))
    return 0 if report.ok else 1
