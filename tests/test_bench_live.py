"""The live scenarios of `kfdviz bench` (drafts, mu steps): a quick run through the real
window, its structure and its checks. No time is asserted."""

from __future__ import annotations

import json

from kfdviz import cli
from kfdviz.bench import gui_scenarios, registry

LIVE = {  # the quick run's names (by the sizes it runs) -> the full run's
    "live-slider-800": "live-slider-2000",
    "live-mu-800": "live-mu-2000",
    "live-drag-800": "live-drag-1000",
    "live-drag-900": "live-drag-2000",
}


def test_a_quick_run_draws_drafts_and_exact_pictures(capsys):
    scenarios = registry.load_scenarios()
    for quick, full in LIVE.items():
        sc = scenarios[full]
        assert sc.name_for(True) == quick and sc.target.kind == "absolute" and sc.baseline
    code = cli.main(["bench", "--quick", "--json", "--only", "live-*"])
    out, _ = capsys.readouterr()
    report = json.loads(out)
    by_name = {s["name"]: s for s in report["scenarios"]}
    assert set(by_name) == set(LIVE)
    for name, s in by_name.items():
        assert s["error"] is None and s["skipped"] is None, (name, s)
        assert s["check"]["passed"], (name, s["check"])
        assert s["baseline"]["repeats"] == s["candidate"]["repeats"] >= 1
        assert s["target_met"] is None  # a quick run judges no target
        assert s["sizes"]["n"] == int(name.rsplit("-", 1)[1])
    assert by_name["live-slider-800"]["check"]["value"] == 0  # the exact picture replaced it
    assert by_name["live-mu-800"]["check"]["measure"] == "mu steps solved on the reduction"
    assert code == 0, out
    assert gui_scenarios._OPEN == [], "each scenario closes its window"
