"""Output meant for a program is all there is on stdout: no library's banner or log before it.

Checked in child processes, because a C library writes to file descriptor 1 directly, where
pytest's capsys does not look. ``kfdviz bench --json`` is the command whose stdout is data.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

LSKFD_FIT = textwrap.dedent(
    """
    from sklearn.datasets import make_moons
    from kfdviz import KernelFisherDiscriminant

    X, y = make_moons(300, noise=0.1, random_state=0)
    # Many points over few centers: the LP dual, solved by HiGHS through highspy.
    kfd = KernelFisherDiscriminant(
        width=0.5, formulation="linear-sparse", n_centers=30, random_state=0
    ).fit(X, y)
    assert kfd.score(X, y) > 0.9
    """
)


def _child(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def test_a_fit_through_highs_writes_nothing_to_stdout():
    result = _child("-c", LSKFD_FIT)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def test_bench_json_of_the_highs_scenario_is_json_alone():
    result = _child(
        "-m", "kfdviz", "bench", "--quick", "--json", "--threads", "1", "--only", "lskfd-*"
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [s["name"] for s in report["scenarios"]] == ["lskfd-4000"]  # lskfd-20k, quick
    assert report["ok"] is True


@pytest.mark.slow
def test_the_whole_quick_bench_json_is_json_alone():
    result = _child("-m", "kfdviz", "bench", "--quick", "--json", "--threads", "1")
    # Exit 1 is a scenario's check failing (the window's ones depend on the machine's load); the
    # report is on stdout either way, and says so.
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is (result.returncode == 0)
    names = [s["name"] for s in report["scenarios"]]
    assert "lskfd-4000" in names and "kfd-fit-300" in names  # the quick run's sizes
    assert len(names) == len(set(names))
