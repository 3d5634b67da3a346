"""The one place benchmark scenarios are registered.

A scenario is a function ``setup(quick: bool) -> Case`` decorated with :func:`scenario`. Setup
builds the data (untimed) and returns the candidate to time, the baseline it is compared with in
the same run (or None), and a check of the candidate's answer against the baseline's, so that a
fast path that got faster by getting wrong fails the run. ``quick`` asks for a short smoke
run (small sizes; what CI executes).

The modules holding scenarios are listed in :data:`SCENARIO_MODULES`; :func:`load_scenarios`
imports them, and importing registers. To add scenarios (the GUI's, say), write a module with
decorated setup functions and add its name to that tuple. A setup that cannot run here (no
display, a missing optional package) raises :class:`ScenarioSkipped` with the reason.

This module imports only the standard library, so ``kfdviz --help`` stays fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Every module that registers scenarios, in the order the table lists them.
SCENARIO_MODULES: tuple[str, ...] = (
    "kfdviz.bench.numeric",
    "kfdviz.bench.cancel",
    "kfdviz.bench.demo_scenarios",
    "kfdviz.bench.reproduce_scenarios",
    "kfdviz.bench.gui_scenarios",
    "kfdviz.bench.live_scenarios",
)


class ScenarioSkipped(Exception):
    """Raised by a scenario's setup when it cannot run on this machine; the reason is shown."""


@dataclass(frozen=True)
class Target:
    """What the issue asks of a scenario.

    ``kind="ratio"``: baseline median / candidate median >= ``value`` (1.0 is "no slower").
    ``kind="absolute"``: candidate median <= ``seconds`` and peak memory <= ``memory_bytes``.
    """

    kind: str
    value: float = 1.0
    seconds: float | None = None
    memory_bytes: int | None = None

    @classmethod
    def ratio(cls, value: float) -> Target:
        return cls("ratio", float(value))

    @classmethod
    def absolute(cls, seconds: float, memory_bytes: int | None = None) -> Target:
        return cls("absolute", seconds=float(seconds), memory_bytes=memory_bytes)

    def describe(self) -> str:
        if self.kind == "ratio":
            if self.value == 1.0:
                return ">= 1x (no slower)"
            return f">= {self.value:g}x"
        parts = [f"<= {self.seconds:g} s"]
        if self.memory_bytes is not None:
            parts.append(f"<= {self.memory_bytes / 2**30:g} GB")
        return ", ".join(parts)

    def met(self, ratio: float | None, seconds: float, peak_bytes: int | None) -> bool | None:
        if self.kind == "ratio":
            return None if ratio is None else bool(ratio >= self.value)
        ok = seconds <= self.seconds
        if self.memory_bytes is not None:
            if peak_bytes is None:
                return None
            ok = ok and peak_bytes <= self.memory_bytes
        return bool(ok)


@dataclass(frozen=True)
class Check:
    """The outcome of comparing the candidate's answer with the baseline's (or with the truth)."""

    passed: bool
    measure: str  # what was compared, e.g. "max relative difference"
    value: float
    limit: float
    comparison: str = "<="  # how value is held against limit: "<=" or ">="

    def describe(self) -> str:
        return f"{self.measure} {self.value:.3g} ({self.comparison} {self.limit:g})"

    @classmethod
    def at_most(cls, measure: str, value: float, limit: float) -> Check:
        value = float(value)
        return cls(bool(value <= limit), measure, value, float(limit), "<=")

    @classmethod
    def at_least(cls, measure: str, value: float, limit: float) -> Check:
        value = float(value)
        return cls(bool(value >= limit), measure, value, float(limit), ">=")


@dataclass(frozen=True)
class Measured:
    """What a candidate (or baseline) returns when it times an interval itself.

    The runner records ``seconds`` instead of the call's wall time, and the check sees the whole
    object (``value`` holds the answer). GUI scenarios use it to time from an edit to the picture
    drawn, or the interval between pictures drawn during a drag, without the set-up and tear-down
    around them.
    """

    seconds: float
    value: Any = None


@dataclass
class Case:
    """What a scenario's setup returns.

    ``candidate()`` and ``baseline()`` are timed; ``prepare_candidate()`` and
    ``prepare_baseline()`` run untimed before each of their calls (to empty or to warm a cache).
    ``check(candidate_result, baseline_result)`` -> :class:`Check` runs once, on the results of
    the first (untimed) calls; ``baseline_result`` is None without a baseline. A call that returns
    :class:`Measured` is timed by the seconds it reports. ``teardown()`` runs once at the end,
    whatever happened (a GUI scenario closes its window). ``sizes`` describe
    the problem for the table (e.g. ``{"n": 2000, "grid": "200x200"}``).
    """

    candidate: Callable[[], Any]
    baseline: Callable[[], Any] | None = None
    check: Callable[[Any, Any], Check] | None = None
    prepare_candidate: Callable[[], None] | None = None
    prepare_baseline: Callable[[], None] | None = None
    teardown: Callable[[], None] | None = None
    sizes: dict = field(default_factory=dict)
    notes: str = ""


SetupFunction = Callable[[bool], Case]


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    setup: SetupFunction
    baseline: str = ""  # what the baseline is, in words ("" without one)
    target: Target | None = None
    group: str = ""
    measure_memory: bool = False  # also run the candidate once under tracemalloc
    # Keep the app's own BLAS thread policy (kfdviz.pipeline.run.blas_threads) instead of the
    # run's thread count: a limit set in the main thread overrides the fit thread's own.
    app_threads: bool = False
    # The name under --quick where the quick run's sizes differ from those the name states
    # ("kfd-fit-2000" runs n = 300 quick: "kfd-fit-300"); "" keeps the name.
    quick_name: str = ""
    # Part of a quick run of every scenario; False: only when named (``--only``), as the long
    # window scenarios that a smoke run need not repeat.
    in_quick: bool = True

    def name_for(self, quick: bool) -> str:
        return (self.quick_name or self.name) if quick else self.name


# Scenarios in registration order.
SCENARIOS: dict[str, Scenario] = {}


def scenario(
    name: str,
    *,
    title: str,
    baseline: str = "",
    target: Target | None = None,
    group: str = "",
    measure_memory: bool = False,
    app_threads: bool = False,
    quick_name: str = "",
    in_quick: bool = True,
) -> Callable[[SetupFunction], SetupFunction]:
    """Register ``setup(quick) -> Case`` as the scenario ``name``."""

    def register(setup: SetupFunction) -> SetupFunction:
        if name in SCENARIOS:
            raise ValueError(f"benchmark scenario {name!r} is registered twice")
        SCENARIOS[name] = Scenario(
            name,
            title,
            setup,
            baseline,
            target,
            group,
            measure_memory,
            app_threads,
            quick_name,
            in_quick,
        )
        return setup

    return register


def load_scenarios() -> dict[str, Scenario]:
    """Import every module in SCENARIO_MODULES (which registers its scenarios); the registry."""
    for module in SCENARIO_MODULES:
        importlib.import_module(module)
    return SCENARIOS
