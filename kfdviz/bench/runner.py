"""Run benchmark scenarios: candidate and baseline interleaved, repeated, checked, summarized.

Each scenario's candidate and baseline are called once untimed (their answers are checked against
each other then), and then alternately, ``repeats`` times each, in alternating order (candidate
first on even rounds, baseline first on odd ones), so that a change of machine load during a
scenario hits both sides alike. The garbage collector is off during a timed call. Reported: the
median, the quartiles and the extremes of each side, and the ratio of the medians (baseline /
candidate). BLAS runs with ``threads`` threads (default: every core), except in scenarios that
keep the app's own thread policy (the GUI's: one thread per idle core, chosen by the fit
thread); the machine's description and its load average before and after go with the numbers.
"""

from __future__ import annotations

import fnmatch
import gc
import os
import platform
import time
import tracemalloc
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from time import perf_counter

import numpy  # noqa: F401  (loads numpy's BLAS so that threadpoolctl sees it)
import scipy.linalg  # noqa: F401  (and scipy's, when it has its own)
from threadpoolctl import threadpool_info, threadpool_limits

from kfdviz import __version__

from .registry import Check, Measured, Scenario, ScenarioSkipped, load_scenarios

DEFAULT_REPEATS = {"full": 7, "quick": 2}
# Seconds one scenario may spend on its timed rounds before fewer repeats are used (at least
# MIN_REPEATS in a full run, one in a quick run).
DEFAULT_BUDGET = {"full": 60.0, "quick": 2.0}
MIN_REPEATS = 3


@dataclass
class Timing:
    samples: list[float]

    @property
    def median(self) -> float:
        return _quantile(self.samples, 0.5)

    def to_dict(self) -> dict:
        s = self.samples
        return {
            "median_s": self.median,
            "q1_s": _quantile(s, 0.25),
            "q3_s": _quantile(s, 0.75),
            "min_s": min(s),
            "max_s": max(s),
            "repeats": len(s),
            "samples_s": list(s),
        }

    @property
    def relative_spread(self) -> float:
        """Half the interquartile range over the median."""
        med = self.median
        if med <= 0:
            return 0.0
        return 0.5 * (_quantile(self.samples, 0.75) - _quantile(self.samples, 0.25)) / med


def _quantile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    if s[hi] == s[lo]:
        return s[lo]  # also for infinite times (a scenario that drew nothing)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass
class ScenarioResult:
    name: str
    title: str
    group: str
    baseline_label: str
    target: str
    sizes: dict = field(default_factory=dict)
    candidate: Timing | None = None
    baseline: Timing | None = None
    ratio: float | None = None
    target_met: bool | None = None
    check: Check | None = None
    peak_memory_bytes: int | None = None
    setup_s: float | None = None
    skipped: str | None = None
    error: str | None = None
    notes: str = ""

    @property
    def ok(self) -> bool:
        """Ran without error and its check (if any) passed; skipped scenarios count as ok."""
        if self.error is not None:
            return False
        return self.check is None or self.check.passed

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "group": self.group,
            "sizes": dict(self.sizes),
            "baseline_label": self.baseline_label,
            "target": self.target,
            "candidate": None if self.candidate is None else self.candidate.to_dict(),
            "baseline": None if self.baseline is None else self.baseline.to_dict(),
            "ratio": self.ratio,
            "target_met": self.target_met,
            "check": None if self.check is None else {**asdict(self.check)},
            "peak_memory_bytes": self.peak_memory_bytes,
            "setup_s": self.setup_s,
            "skipped": self.skipped,
            "error": self.error,
            "notes": self.notes,
            "ok": self.ok,
        }


@dataclass
class BenchReport:
    mode: str  # "quick" or "full"
    threads: int | None
    machine: dict
    started: str
    results: list[ScenarioResult] = field(default_factory=list)
    load_before: tuple[float, ...] | None = None
    load_after: tuple[float, ...] | None = None
    duration_s: float | None = None

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "threads": self.threads,
            "machine": self.machine,
            "started": self.started,
            "load_before": self.load_before,
            "load_after": self.load_after,
            "duration_s": self.duration_s,
            "ok": self.ok,
            "scenarios": [r.to_dict() for r in self.results],
        }


# -- the machine ---------------------------------------------------------------------------------
def _load_average() -> tuple[float, ...] | None:
    try:
        return tuple(round(v, 2) for v in os.getloadavg())
    except (AttributeError, OSError):
        return None


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_bytes() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def blas_libraries() -> list[dict]:
    found = []
    for lib in threadpool_info():
        if lib.get("user_api") != "blas":
            continue
        path = lib.get("filepath") or ""
        found.append(
            {
                "library": lib.get("internal_api"),
                "version": lib.get("version"),
                "threads": lib.get("num_threads"),
                "architecture": lib.get("architecture"),
                "file": os.path.join(
                    os.path.basename(os.path.dirname(path)), os.path.basename(path)
                ),
            }
        )
    return found


def machine_info() -> dict:
    return {
        "cores": os.cpu_count(),
        "cpu": _cpu_model(),
        "memory_bytes": _memory_bytes(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "kfdviz": __version__,
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
        "scikit-learn": _version("scikit-learn"),
        "blas": blas_libraries(),
        "environment": {
            k: os.environ[k]
            for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "KFDVIZ_BLAS_THREADS")
            if k in os.environ
        },
    }


@contextmanager
def blas_threads(threads: int | None):
    """BLAS limited to ``threads`` threads for the block (None: leave it as it is)."""
    if threads is None:
        yield
        return
    with threadpool_limits(limits=int(threads), user_api="blas"):
        yield


# -- running -------------------------------------------------------------------------------------
def select(registry: dict[str, Scenario], patterns: Iterable[str] | None) -> list[Scenario]:
    """Scenarios whose names match any of the shell-style patterns (all without patterns)."""
    patterns = [p for p in (patterns or []) if p]
    if not patterns:
        return list(registry.values())
    chosen = [
        s
        for s in registry.values()
        if any(
            fnmatch.fnmatchcase(name, p) for p in patterns for name in {s.name, s.name_for(True)}
        )
    ]
    if not chosen:
        raise ValueError(
            f"no benchmark scenario matches {', '.join(patterns)}; "
            f"the scenarios are: {', '.join(registry)}"
        )
    return chosen


def _timed(prepare: Callable[[], None] | None, func: Callable[[], object]) -> float:
    if prepare is not None:
        prepare()
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = perf_counter()
        out = func()
        elapsed = perf_counter() - start
    finally:
        if was_enabled:
            gc.enable()
    return out.seconds if isinstance(out, Measured) else elapsed


def _first_call(prepare, func) -> tuple[object, float]:
    if prepare is not None:
        prepare()
    gc.collect()
    start = perf_counter()
    result = func()
    elapsed = perf_counter() - start
    return result, (result.seconds if isinstance(result, Measured) else elapsed)


def _peak_memory(prepare, func) -> int:
    """Peak bytes traced (Python objects and numpy buffers) during one call, above the start."""
    if prepare is not None:
        prepare()
    gc.collect()
    already = tracemalloc.is_tracing()
    if not already:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        func()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if not already:
            tracemalloc.stop()
    return max(0, peak - start)


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def run_scenario(
    sc: Scenario,
    *,
    quick: bool,
    repeats: int | None = None,
    budget: float | None = None,
) -> ScenarioResult:
    mode = "quick" if quick else "full"
    result = ScenarioResult(
        sc.name_for(quick),
        sc.title,
        sc.group,
        sc.baseline,
        "" if sc.target is None else sc.target.describe(),
    )
    t0 = perf_counter()
    try:
        case = sc.setup(quick)
    except ScenarioSkipped as exc:
        result.skipped = str(exc) or "skipped"
        return result
    except Exception as exc:
        result.error = f"setup failed: {_error_text(exc)}"
        return result
    result.setup_s = perf_counter() - t0
    result.sizes = dict(case.sizes)
    result.notes = case.notes
    try:
        cand_out, cand_first = _first_call(case.prepare_candidate, case.candidate)
        base_out, base_first = (None, 0.0)
        if case.baseline is not None:
            base_out, base_first = _first_call(case.prepare_baseline, case.baseline)
        if case.check is not None:
            result.check = case.check(cand_out, base_out)
        del cand_out, base_out

        n = repeats if repeats is not None else DEFAULT_REPEATS[mode]
        if repeats is None:
            limit = DEFAULT_BUDGET[mode] if budget is None else budget
            per_round = max(cand_first + base_first, 1e-9)
            floor = 1 if quick else MIN_REPEATS
            n = max(floor, min(n, int(limit / per_round)))
        cand_times: list[float] = []
        base_times: list[float] = []
        for i in range(n):
            sides = [(case.prepare_candidate, case.candidate, cand_times)]
            if case.baseline is not None:
                side = (case.prepare_baseline, case.baseline, base_times)
                sides = [*sides, side] if i % 2 == 0 else [side, *sides]
            for prepare, func, times in sides:
                times.append(_timed(prepare, func))
        result.candidate = Timing(cand_times)
        if base_times:
            result.baseline = Timing(base_times)
            result.ratio = result.baseline.median / max(result.candidate.median, 1e-12)
        if sc.measure_memory:
            result.peak_memory_bytes = _peak_memory(case.prepare_candidate, case.candidate)
    except Exception as exc:
        result.error = _error_text(exc)
        return result
    finally:
        if case.teardown is not None:
            try:
                case.teardown()
            except Exception as exc:
                result.error = result.error or f"teardown failed: {_error_text(exc)}"
    if sc.target is not None and not quick:
        result.target_met = sc.target.met(
            result.ratio, result.candidate.median, result.peak_memory_bytes
        )
    return result


def run(
    patterns: Iterable[str] | None = None,
    *,
    quick: bool = False,
    repeats: int | None = None,
    threads: int | None = None,
    budget: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> BenchReport:
    """Run the selected scenarios (all by default) and return the report."""
    scenarios = select(load_scenarios(), patterns)
    if quick and not [p for p in (patterns or []) if p]:
        scenarios = [s for s in scenarios if s.in_quick]
    if threads is None:
        threads = os.cpu_count() or 1
    started = datetime.now(UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    with blas_threads(threads):
        report = BenchReport(
            mode="quick" if quick else "full",
            threads=threads,
            machine=machine_info(),
            started=started,
            load_before=_load_average(),
        )
    for sc in scenarios:
        if progress is not None:
            progress(f"running {sc.name} ...")
        with blas_threads(None if sc.app_threads else threads):
            report.results.append(run_scenario(sc, quick=quick, repeats=repeats, budget=budget))
    report.load_after = _load_average()
    report.duration_s = time.perf_counter() - t0
    return report
