"""Figures on a full disk: the old file stays, the failure is said, naming the target.

Qt's PDF and SVG writers report no write error (they drop what the disk refuses), and libpng's
error names the file Qt was given: these run on a real full disk (a small tmpfs), not on an
injected fault.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kfdviz.figure.export import check_figure_file, save_figure
from kfdviz.render import compute, figure_plan, state_from_preset

OLD = b"the user's old figure, which must survive\n" * 1000


@pytest.fixture(scope="module")
def plan():
    return figure_plan(compute(state_from_preset("default")))


@pytest.mark.parametrize("suffix", ["pdf", "svg", "png"])
def test_a_full_disk_keeps_the_old_figure_and_says_so(plan, small_disk, suffix):
    target = small_disk.folder / f"figure.{suffix}"
    target.write_bytes(OLD)
    small_disk.fill()
    with pytest.raises(OSError) as caught:
        save_figure(plan, target)
    assert target.read_bytes() == OLD
    assert small_disk.temporaries() == []
    message = str(caught.value)
    assert str(target) in message and ".kfdviz-tmp" not in message


def test_a_whole_figure_passes_the_check_and_a_cut_one_does_not(plan, tmp_path):
    for suffix in ("pdf", "svg", "png"):
        path = tmp_path / f"f.{suffix}"
        save_figure(plan, path)
        check_figure_file(suffix, path)
        whole = path.read_bytes()
        path.write_bytes(whole[: len(whole) // 2])
        with pytest.raises(OSError, match="incomplete"):
            check_figure_file(suffix, path)


def test_render_on_a_full_disk_exits_non_zero_and_keeps_the_old_pdf(small_disk):
    target = small_disk.folder / "figure.pdf"
    target.write_bytes(OLD)
    small_disk.fill()
    done = subprocess.run(
        [sys.executable, "-m", "kfdviz", "render", "--preset", "default", "--out", str(target)],
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=240,
    )
    assert done.returncode != 0
    assert target.read_bytes() == OLD
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("kfdviz: error: ") and str(target) in lines[-1]
    assert ".kfdviz-tmp" not in done.stderr
    assert str(target) not in done.stdout  # not reported as written


def test_errors_name_the_target_not_the_temporary_file(tmp_path):
    from kfdviz import atomic_file

    missing = tmp_path / "no-such-folder" / "x.csv"
    with pytest.raises(OSError) as caught:
        atomic_file.write_text(missing, "x")
    assert caught.value.filename == str(missing)
    assert ".kfdviz-tmp" not in str(caught.value)
