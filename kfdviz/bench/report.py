"""The bench report as a plain-text table (for people, and the README) or as JSON."""

from __future__ import annotations

import json

from .runner import BenchReport, ScenarioResult, Timing


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1.0:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def _timing(t: Timing | None) -> str:
    if t is None:
        return "-"
    return f"{format_seconds(t.median)} ±{100 * t.relative_spread:.0f}%"


def _sizes(sizes: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sizes.items())


def _ratio(r: ScenarioResult) -> str:
    if r.ratio is None:
        return "-"
    return f"{r.ratio:.3g}x"


def _target(r: ScenarioResult) -> str:
    if not r.target or r.target_met is None:
        return "-"  # not judged (a quick run, or no ratio): no target beside the numbers
    mark = {True: "met", False: "NOT met", None: ""}[r.target_met]
    return f"{r.target} {mark}".strip()


def _check(r: ScenarioResult) -> str:
    if r.error is not None:
        return f"ERROR {r.error}"
    if r.skipped is not None:
        return f"skipped: {r.skipped}"
    if r.check is None:
        return "-"
    return ("ok " if r.check.passed else "FAILED ") + r.check.describe()


def _memory(r: ScenarioResult) -> str:
    if r.peak_memory_bytes is None:
        return "-"
    return f"{r.peak_memory_bytes / 2**20:.0f} MB"


def machine_lines(report: BenchReport) -> list[str]:
    m = report.machine
    lines = [
        f"machine: {m.get('cores')} cores ({m.get('cpu')}), "
        f"{(m.get('memory_bytes') or 0) / 2**30:.0f} GiB; {m.get('platform')}",
        f"python {m.get('python')}, numpy {m.get('numpy')}, scipy {m.get('scipy')}, "
        f"scikit-learn {m.get('scikit-learn')}, kfdviz {m.get('kfdviz')}",
    ]
    for lib in m.get("blas", []):
        lines.append(
            f"BLAS: {lib['library']} {lib['version']} ({lib['architecture']}), "
            f"{lib['threads']} threads, {lib['file']}"
        )
    if m.get("environment"):
        lines.append("environment: " + ", ".join(f"{k}={v}" for k, v in m["environment"].items()))
    lines.append(
        f"load average (1, 5, 15 min): before {report.load_before}, after {report.load_after}"
    )
    return lines


COLUMNS = ("scenario", "size", "candidate", "baseline", "ratio", "target", "peak mem", "check")


def table_rows(report: BenchReport) -> list[tuple[str, ...]]:
    return [
        (
            r.name,
            _sizes(r.sizes),
            _timing(r.candidate),
            _timing(r.baseline),
            _ratio(r),
            _target(r),
            _memory(r),
            _check(r),
        )
        for r in report.results
    ]


def format_table(report: BenchReport, *, markdown: bool = False) -> str:
    rows = table_rows(report)
    if markdown:
        out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        out += ["| " + " | ".join(v.replace("|", "\\|") for v in row) + " |" for row in rows]
        return "\n".join(out)
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(COLUMNS)]
    line = "  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True))
    out = [line.rstrip(), "  ".join("-" * w for w in widths)]
    out += [
        "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    return "\n".join(out)


def format_report(report: BenchReport, *, markdown: bool = False) -> str:
    head = (
        f"kfdviz bench, {report.mode} run, {report.threads} BLAS thread(s), "
        f"started {report.started}, took {format_seconds(report.duration_s)}"
    )
    legend = (
        "times: median ± half the interquartile range; ratio = baseline median / candidate "
        "median, both timed interleaved in this run"
    )
    if report.mode == "quick":
        legend += "; quick run: small sizes, targets not judged"
    body = [head, *machine_lines(report), legend, "", format_table(report, markdown=markdown)]
    notes = [f"  {r.name}: {r.notes}" for r in report.results if r.notes]
    if notes:
        body += ["", "notes:", *notes]
    baselines = [f"  {r.name}: {r.baseline_label}" for r in report.results if r.baseline_label]
    if baselines:
        body += ["", "baselines:", *baselines]
    verdict = "all checks passed" if report.ok else "SOME CHECKS FAILED"
    body += ["", verdict]
    return "\n".join(body)


def to_json(report: BenchReport) -> str:
    return json.dumps(report.to_dict(), indent=2, allow_nan=True)
