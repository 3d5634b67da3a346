"""The GUI scenarios of `kfdviz bench`: a quick run through the real window, its structure and
its checks. No time is asserted (the machines are noisy); that the pictures followed a dragged
point is a check of the scenario itself."""

from __future__ import annotations

import json

import pytest

from kfdviz import cli
from kfdviz.bench import gui_scenarios, registry
from kfdviz.bench.registry import ScenarioSkipped

GUI = {
    "gui-param-change": {"n", "grid"},
    "gui-drag": {"n", "grid", "drag"},
    "gui-redraw-2000": {"n", "centers", "grid"},  # gui-redraw-20k, quick
    "gui-startup": {"preset", "platform"},
}


def test_the_gui_scenarios_are_registered_in_one_place():
    assert "kfdviz.bench.gui_scenarios" in registry.SCENARIO_MODULES
    scenarios = registry.load_scenarios()
    for name in GUI:
        sc = next(s for s in scenarios.values() if s.name_for(True) == name)
        assert sc.group == "gui" and sc.target is not None and sc.target.kind == "absolute"
    assert scenarios["gui-drag"].target.seconds == pytest.approx(1 / 30)


def test_a_quick_run_drives_the_window_and_passes_its_checks(capsys):
    code = cli.main(["bench", "--quick", "--json", "--only", "gui-*"])
    out, _ = capsys.readouterr()
    report = json.loads(out)
    by_name = {s["name"]: s for s in report["scenarios"]}
    assert set(by_name) == set(GUI)
    assert code == 0, out
    for name, sizes in GUI.items():
        s = by_name[name]
        assert s["error"] is None and s["skipped"] is None, (name, s)
        assert s["ok"] and s["check"]["passed"], (name, s["check"])
        assert s["candidate"]["repeats"] >= 1 and s["candidate"]["median_s"] > 0
        assert s["baseline"] is None and s["target"] and s["target_met"] is None
        assert set(s["sizes"]) == sizes and s["notes"]
    drag = by_name["gui-drag"]["check"]
    assert drag["measure"] == "new pictures painted during the drag" and drag["value"] >= 2
    assert by_name["gui-param-change"]["check"]["value"] == 0  # every view shows the new fit
    assert by_name["gui-redraw-2000"]["check"]["value"] >= 2000  # the quick run's points
    assert gui_scenarios._OPEN == [], "each scenario closes its window"


def test_without_a_qt_platform_the_scenarios_skip(monkeypatch):
    monkeypatch.setattr(gui_scenarios, "_existing_application", lambda: None)
    monkeypatch.setattr(gui_scenarios, "_platform_problem", lambda p: f"no Qt platform ({p})")
    with pytest.raises(ScenarioSkipped, match="no Qt platform"):
        gui_scenarios.qt_application()


def test_a_platform_that_cannot_start_is_found_in_a_child():
    problem = gui_scenarios._platform_problem("no-such-platform")
    assert problem is not None and "no-such-platform" in problem
