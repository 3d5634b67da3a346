"""``kfdviz bench``: timed scenarios, each against a baseline computed in the same run.

- :mod:`.registry`: :func:`scenario` registers a setup function; :data:`SCENARIO_MODULES` lists
  the modules that hold scenarios (the one place to add more).
- :mod:`.numeric`: grids, KFD and KPCA fits, refits, and a large problem through ``run_fit``.
- :mod:`.runner`: interleaved repeats, medians and spread, checks, peak memory, machine facts.
- :mod:`.report`: the table and the JSON.

Importing this package imports only the standard library; numpy and the scenarios load when a
run starts.
"""

from .registry import (
    SCENARIO_MODULES,
    SCENARIOS,
    Case,
    Check,
    Measured,
    Scenario,
    ScenarioSkipped,
    Target,
    load_scenarios,
    scenario,
)

__all__ = [
    "SCENARIOS",
    "SCENARIO_MODULES",
    "Case",
    "Check",
    "Measured",
    "Scenario",
    "ScenarioSkipped",
    "Target",
    "load_scenarios",
    "scenario",
]
