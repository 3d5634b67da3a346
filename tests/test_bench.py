"""`kfdviz bench`: the quick run's structure and checks, the registry, the runner, the output.

No timing is asserted anywhere: the machines are noisy. What is asserted is that every scenario
ran, timed both sides, and that every correctness check (candidate vs baseline) passed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from kfdviz import cli
from kfdviz.bench import registry
from kfdviz.bench.registry import Case, Check, ScenarioSkipped, Target, scenario
from kfdviz.bench.report import format_report
from kfdviz.bench.runner import run

# The numeric scenarios as a quick run names them (by the sizes it runs): has a baseline.
NUMERIC = {
    "grid-rbf": True,
    "grid-poly": True,
    "kfd-fit-300": True,
    "kfd-fit-400": True,
    "kpca-300": True,
    "kpca-400": True,
    "kfd-refit-width": True,
    "kfd-refit-mu": True,
    "kfd-refit-width-2000": True,
    "kfd-refit-mu-2000": True,
    "large-fit-grid": False,
    "lskfd-4000": True,
}


def _run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["bench", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_quick_json_run_passes_every_check(capsys):
    code, out, _ = _run_cli(capsys, "--quick", "--json", "--threads", "1")
    report = json.loads(out)
    assert code == 0, out
    assert report["mode"] == "quick" and report["threads"] == 1 and report["ok"] is True
    machine = report["machine"]
    assert machine["cores"] >= 1 and isinstance(machine["blas"], list)
    assert {"numpy", "scipy", "scikit-learn", "python"} <= set(machine)
    by_name = {s["name"]: s for s in report["scenarios"]}
    assert set(NUMERIC) <= set(by_name)
    for name, has_baseline in NUMERIC.items():
        s = by_name[name]
        assert s["error"] is None and s["skipped"] is None, (name, s)
        assert s["ok"] is True
        assert s["check"]["passed"] is True, (name, s["check"])
        assert s["candidate"]["repeats"] >= 1 and s["candidate"]["median_s"] > 0
        assert len(s["candidate"]["samples_s"]) == s["candidate"]["repeats"]
        assert s["target"]  # every numeric scenario states its target
        assert s["target_met"] is None  # quick runs use small sizes: targets are not judged
        assert s["sizes"]
        if has_baseline:
            assert s["baseline"]["repeats"] == s["candidate"]["repeats"]
            assert s["ratio"] == pytest.approx(
                s["baseline"]["median_s"] / s["candidate"]["median_s"]
            )
            assert s["baseline_label"]
        else:
            assert s["baseline"] is None and s["ratio"] is None
    # A size in a scenario's name is the size it ran (the full run's names state the full sizes).
    for name, s in by_name.items():
        size = re.search(r"-(\d+)(k?)$", name)
        if size and "n" in s["sizes"]:
            assert int(size.group(1)) * (1000 if size.group(2) else 1) == s["sizes"]["n"], name
    assert by_name["large-fit-grid"]["peak_memory_bytes"] > 0
    assert by_name["grid-rbf"]["peak_memory_bytes"] is not None


def test_bench_as_a_command_prints_only_json_on_stdout():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    result = subprocess.run(
        [sys.executable, "-m", "kfdviz", "bench", "--quick", "--json", "--only", "grid-poly"],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [s["name"] for s in report["scenarios"]] == ["grid-poly"]
    assert report["scenarios"][0]["check"]["passed"]


def test_list_names_every_scenario(capsys):
    code, out, _ = _run_cli(capsys, "--list")
    assert code == 0
    for name in NUMERIC:
        assert name in out


def test_unknown_scenario_pattern_is_an_error(capsys):
    code, _, err = _run_cli(capsys, "--quick", "--only", "no-such-*")
    assert code == 2
    assert "no benchmark scenario matches no-such-*" in err and "grid-rbf" in err


# -- the registry and the runner, on scenarios made here ------------------------------------------
@pytest.fixture
def own_scenarios(monkeypatch):
    """An empty registry that loads no modules; scenarios registered in the test land there."""
    monkeypatch.setattr(registry, "SCENARIO_MODULES", ())
    monkeypatch.setattr(registry, "SCENARIOS", {})
    return registry.SCENARIOS


def test_runner_interleaves_prepares_and_checks(own_scenarios):
    log = []

    @scenario("toy", title="a toy", baseline="the slow way", target=Target.ratio(2))
    def toy(quick):
        return Case(
            candidate=lambda: log.append("c") or 1.0,
            baseline=lambda: log.append("b") or 1.0,
            check=lambda c, b: Check.at_most("difference", abs(c - b), 0.0),
            prepare_candidate=lambda: log.append("pc"),
            prepare_baseline=lambda: log.append("pb"),
            sizes={"n": 3},
            notes="a note",
        )

    report = run(quick=False, repeats=3, threads=1)
    (r,) = report.results
    assert r.ok and r.check.passed and r.candidate is not None and r.baseline is not None
    assert len(r.candidate.samples) == len(r.baseline.samples) == 3
    assert r.target_met in (True, False)  # judged in a full run (its value is the machine's)
    # First calls (for the check), then rounds alternating which side goes first.
    first = ["pc", "c", "pb", "b"]
    rounds = [["pc", "c", "pb", "b"], ["pb", "b", "pc", "c"], ["pc", "c", "pb", "b"]]
    assert log == first + [step for r in rounds for step in r]
    text = format_report(report)
    assert "toy" in text and "n=3" in text and "a note" in text and "the slow way" in text
    assert "all checks passed" in text and "BLAS" in text
    assert "| toy |" in format_report(report, markdown=True)


def test_failed_check_skip_and_errors_are_reported(own_scenarios, capsys):
    @scenario("wrong", title="a fast wrong answer")
    def wrong(quick):
        return Case(lambda: 1.0, lambda: 2.0, lambda c, b: Check.at_most("diff", abs(c - b), 0.1))

    @scenario("absent", title="needs what is not here")
    def absent(quick):
        raise ScenarioSkipped("no display")

    @scenario("broken-setup", title="setup raises")
    def broken_setup(quick):
        raise RuntimeError("boom")

    @scenario("broken-run", title="candidate raises")
    def broken_run(quick):
        return Case(lambda: 1 / 0)

    code, out, _ = _run_cli(capsys, "--quick", "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False
    by_name = {s["name"]: s for s in report["scenarios"]}
    assert by_name["wrong"]["check"]["passed"] is False and by_name["wrong"]["ok"] is False
    assert by_name["absent"]["skipped"] == "no display" and by_name["absent"]["ok"] is True
    assert "boom" in by_name["broken-setup"]["error"]
    assert "ZeroDivisionError" in by_name["broken-run"]["error"]
    code, out, _ = _run_cli(capsys, "--quick", "--only", "wrong", "--only", "absent")
    assert code == 1 and "FAILED diff 1" in out and "skipped: no display" in out
    assert "SOME CHECKS FAILED" in out


def test_output_file_and_pattern_selection(own_scenarios, capsys, tmp_path):
    for name in ("alpha-1", "alpha-2", "beta"):
        scenario(name, title=name)(lambda quick: Case(lambda: None))
    target = tmp_path / "bench.json"
    code, out, _ = _run_cli(capsys, "--quick", "--only", "alpha-*", "--output", str(target))
    assert code == 0
    saved = json.loads(target.read_text())
    assert [s["name"] for s in saved["scenarios"]] == ["alpha-1", "alpha-2"]
    assert "alpha-1" in out and "beta" not in out


def test_registering_a_name_twice_is_an_error(own_scenarios):
    scenario("once", title="once")(lambda quick: Case(lambda: None))
    with pytest.raises(ValueError, match="registered twice"):
        scenario("once", title="again")(lambda quick: Case(lambda: None))


def test_targets():
    assert Target.ratio(50).met(60.0, 0.1, None) is True
    assert Target.ratio(50).met(40.0, 0.1, None) is False
    assert Target.ratio(1).describe() == ">= 1x (no slower)"
    big = Target.absolute(3.0, memory_bytes=2**30)
    assert big.describe() == "<= 3 s, <= 1 GB"
    assert big.met(None, 2.0, 2**29) is True
    assert big.met(None, 2.0, 2**31) is False
    assert big.met(None, 4.0, 2**29) is False
    assert big.met(None, 2.0, None) is None  # memory not measured: undecided
    assert Check.at_least("cos", 0.99999, 0.9999).passed
    assert not Check.at_least("cos", 0.9, 0.9999).passed


def test_bad_counts_are_refused(capsys):
    assert _run_cli(capsys, "--repeats", "0")[0] == 2
    assert _run_cli(capsys, "--threads", "0")[0] == 2
