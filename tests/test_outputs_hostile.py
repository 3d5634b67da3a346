"""Nothing a user made is lost, and the command line fails in one line.

Faults are injected into every file kfdviz writes (a disk that fills up mid-write), unrelated
files beside an export are left alone, and the command line refuses bad options before any work.
"""

from __future__ import annotations

import errno
import json
import os
from dataclasses import replace

import numpy as np
import pytest

from kfdviz import atomic_file, cli, datasets, deck
from kfdviz.export_data import export_data, parameters_path
from kfdviz.pipeline.geometry import grid_axes, output_histograms
from kfdviz.render import compute, figure_plan, render_state
from kfdviz.session import (
    PanelState,
    SessionError,
    load_session,
    save_session,
    state_from_preset,
)


@pytest.fixture(scope="module")
def computed():
    return compute(state_from_preset("default"))


def _temporaries(folder):
    return [p.name for p in folder.iterdir() if p.name.endswith(atomic_file.TEMP_SUFFIX)]


# -- item 5: atomic saves under injected faults ------------------------------------------------------
def test_export_csv_survives_a_full_disk(computed, tmp_path, disk_full):
    target = tmp_path / "points.csv"
    csv_path, json_path = export_data(computed, target)
    before = (csv_path.read_bytes(), json_path.read_bytes())
    assert len(before[0]) > 10_000
    disk_full.arm(300)
    with pytest.raises(OSError) as caught:
        export_data(computed, target)
    assert caught.value.errno == errno.ENOSPC
    assert (csv_path.read_bytes(), json_path.read_bytes()) == before
    assert _temporaries(tmp_path) == []


def test_export_npz_survives_a_full_disk(computed, tmp_path, disk_full):
    target = tmp_path / "points.npz"
    export_data(computed, target)
    before = target.read_bytes()
    disk_full.arm(300)
    with pytest.raises(OSError):
        export_data(computed, target)
    assert target.read_bytes() == before
    with np.load(target, allow_pickle=False) as archive:
        assert archive["X"].shape == computed.state.X.shape


def test_session_deck_and_points_survive_a_full_disk(tmp_path, disk_full):
    state = state_from_preset("default")
    session = save_session(tmp_path / "s.kfdviz", state)
    deck_path = deck.save_deck(tmp_path / "d.kfddeck", deck.default_deck())
    points = tmp_path / "p.csv"
    datasets.save(points, state.X, state.y)
    before = [p.read_bytes() for p in (session, deck_path, points)]
    disk_full.arm(300)
    with pytest.raises(SessionError, match="could not be written"):
        save_session(session, replace(state, title="changed"))
    with pytest.raises(OSError):
        deck.save_deck(deck_path, ["koc-iris"] * 200)
    with pytest.raises(OSError):
        datasets.save(points, state.X + 1.0, state.y)
    assert [p.read_bytes() for p in (session, deck_path, points)] == before
    assert load_session(session) == state
    assert _temporaries(tmp_path) == []


def test_exporting_name_csv_leaves_a_users_name_json_alone(computed, tmp_path):
    mine = tmp_path / "results.json"
    mine.write_text('{"my": "own results"}', encoding="utf-8")
    with pytest.raises(FileExistsError, match=r"results\.json exists"):
        export_data(computed, tmp_path / "results.csv")
    assert mine.read_text(encoding="utf-8") == '{"my": "own results"}'
    assert not (tmp_path / "results.csv").exists()
    # the parameters file of an earlier export is replaced, as before
    csv_path, json_path = export_data(computed, tmp_path / "points.csv")
    assert json_path == parameters_path(csv_path) == tmp_path / "points.json"
    export_data(computed, tmp_path / "points.csv")
    assert json.loads(json_path.read_text())["format"] == "kfdviz-export-parameters"


def test_exports_keep_permissions_and_follow_symlinks(computed, tmp_path):
    real = tmp_path / "store" / "points.npz"
    real.parent.mkdir()
    export_data(computed, real)
    real.chmod(0o640)
    link = tmp_path / "points.npz"
    link.symlink_to(real)
    export_data(computed, link)
    assert link.is_symlink()
    assert oct(real.stat().st_mode & 0o777) == oct(0o640)


# -- item 6: the command line ---------------------------------------------------------------------
def _run(capsys, *argv) -> tuple[int, list[str]]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("dpi", ["inf", "nan", "0", "-5", "1e9"])
def test_bad_dpi_is_one_line_about_the_dpi(capsys, tmp_path, dpi):
    code, err = _run(
        capsys, "render", "--preset", "default", "--out", str(tmp_path / "a.png"), "--dpi", dpi
    )
    assert code != 0 and len(err) == 1, err
    assert err[0].startswith("kfdviz: error: the resolution must be between 24 and 1200 dpi")
    assert "size" not in err[0]
    assert not (tmp_path / "a.png").exists()


def test_bench_output_is_checked_before_the_run(capsys, tmp_path, monkeypatch):
    from kfdviz.bench import runner

    def never(*args, **kwargs):
        raise AssertionError("the benchmark ran although its report could not be written")

    monkeypatch.setattr(runner, "run", never)
    for bad in (tmp_path / "no" / "such" / "folder" / "r.json", tmp_path):
        code, err = _run(capsys, "bench", "--quick", "--output", str(bad))
        assert code != 0 and len(err) == 1 and "cannot write --output" in err[0], err
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not os.access(locked, os.W_OK):  # root may write anyway
            code, err = _run(capsys, "bench", "--quick", "--output", str(locked / "r.json"))
            assert code != 0 and "cannot write --output" in err[0]
    finally:
        locked.chmod(0o700)


def test_unexpected_errors_are_one_line(capsys, monkeypatch):
    def broken(args):
        raise TypeError("a bug")

    monkeypatch.setitem(cli.COMMANDS, "info", cli.Command("info", "x", broken))
    code, err = _run(capsys, "info")
    assert code == 1 and len(err) == 1
    assert "unexpected TypeError" in err[0] and cli.TRACEBACK_VARIABLE in err[0]


def test_a_sweep_with_an_unknown_algorithm_exits_non_zero(capsys, tmp_path):
    path = save_session(tmp_path / "s.kfdviz", state_from_preset("koc-linear-svm"))
    doc = json.loads(path.read_text())
    doc["sweep"]["curves"][0]["steps"][0]["algorithm"] = "no-such-algorithm"
    path.write_text(json.dumps(doc))
    code, err = _run(capsys, "render", "--session", str(path), "--out", str(tmp_path / "a.png"))
    assert code == 1 and len(err) == 1 and "no-such-algorithm" in err[0], err


# -- item 3: one failing panel of a comparison ----------------------------------------------------
def test_a_failing_regression_panel_is_drawn_as_failed_and_the_other_draws(qapp, tmp_path, capsys):
    state = state_from_preset("kfd-regression")
    good = state.panels[0]
    bad = PanelState(good.algorithm, {**good.params, "width": 1e9}, good.feature, "too wide")
    state = replace(state, layout="compare", panels=(good, bad))
    computed = compute(state)
    assert not isinstance(computed.results[0], str)
    assert isinstance(computed.results[1], str) and "fit failed" in computed.results[1]
    plan = figure_plan(computed)
    assert [p.kind for p in plan.panels] == ["regression", "message"]
    assert plan.panels[1].message == computed.results[1]
    path, _ = render_state(state, tmp_path / "both.png", computed=computed, size=(800, 400))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    session = save_session(tmp_path / "both.kfdviz", state)
    code, err = _run(capsys, "render", "--session", str(session), "--out", str(tmp_path / "c.png"))
    assert code == 0 and (tmp_path / "c.png").exists()
    assert any("could not be fitted" in line for line in err)


# -- the geometry's own guards ---------------------------------------------------------------------
@pytest.mark.parametrize("resolution", [0, 1, False, 2.5, -3])
def test_grid_axes_refuse_degenerate_resolutions(resolution):
    with pytest.raises(ValueError, match="resolution"):
        grid_axes((0.0, 1.0, 0.0, 1.0), resolution)


def test_grid_axes_refuse_an_empty_box_and_histograms_zero_bins():
    with pytest.raises(ValueError, match="box"):
        grid_axes((0.0, 0.0, 1.0, 1.0), 50)
    with pytest.raises(ValueError, match="bins"):
        output_histograms(np.arange(5.0), None, np.zeros(5, bool), 0)
    xs, ys = grid_axes((0.0, 1.0, 0.0, 1.0), 2)
    assert xs.tolist() == [0.25, 0.75] and ys.size == 8  # the short side keeps 8 points
