"""Empty or useless arguments get one line of error and a non-zero exit, before any work."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--screenshot", ""], "--screenshot needs a file name"),
        (
            ["reproduce", "mika-table1", "--data", "/etc", "--out", "{tmp}"],
            "holds no benchmark data",
        ),
        (
            ["reproduce", "mika-table1", "--data", "{tmp}/none", "--out", "{tmp}"],
            "no such file or folder",
        ),
        (["bench", "--only", ""], "--only needs a pattern"),
        (
            ["render", "--preset", "default", "--out", "{tmp}/x.png", "--save-session", ""],
            "--save-session needs a file name",
        ),
        (["render", "--session", "", "--out", "{tmp}/x.png"], "--session needs a file name"),
        (["render", "--preset", "default", "--out", ""], "--out needs a file name"),
    ],
)
def test_an_empty_or_useless_argument_is_one_line_of_error(tmp_path, args, fragment):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = subprocess.run(
        [sys.executable, "-m", "kfdviz", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=120,
    )
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr
    assert "error" in lines[0]
    assert not (tmp_path / "x.png").exists()
