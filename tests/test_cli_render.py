"""`kfdviz render` and `kfdviz presets` as a user runs them: separate processes, no display."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from kfdviz import presets

SVG = "{http://www.w3.org/2000/svg}"


def kfdviz(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    """Run ``python -m kfdviz ARGS`` as on a headless machine: no display, no Qt platform set."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("PYTHONSTARTUP", None)
    return subprocess.run(
        [sys.executable, "-m", "kfdviz", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_presets_lists_names_and_titles():
    result = kfdviz("presets")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(presets.names())
    for line, name in zip(lines, presets.names(), strict=True):
        assert line.startswith(name + " ")
        assert presets.get(name).title in line
    verbose = kfdviz("presets", "--verbose")
    assert verbose.returncode == 0
    assert "Source: Hoffmann" in verbose.stdout and "2σ²" in verbose.stdout


def test_render_a_preset_to_svg_headless(tmp_path):
    out = tmp_path / "x.svg"
    result = kfdviz("render", "--preset", "kfd-vs-kpca", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(out)
    root = ET.parse(out).getroot()
    assert len(list(root.iter(f"{SVG}path"))) > 20
    assert len(list(root.iter(f"{SVG}image"))) >= 3
    texts = "".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "KFD" in texts and "KPCA feature 1" in texts


def test_render_png_size_dpi_data_and_session(tmp_path):
    png = tmp_path / "moons.png"
    session = tmp_path / "moons.kfdviz"
    csv = tmp_path / "moons.csv"
    result = kfdviz(
        "render",
        "--preset",
        "default",
        "--out",
        str(png),
        "--size",
        "1200x700",
        "--dpi",
        "200",
        "--data",
        str(csv),
        "--save-session",
        str(session),
    )
    assert result.returncode == 0, result.stderr
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert (width, height) == (1200, 700)
    # the points with their roles and outputs, the parameters beside them
    rows = csv.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    assert header[:4] == ["x1", "x2", "label", "role"] and "kfd_output" in header
    assert len(rows) == 201
    assert sum(r.split(",")[3] == "test" for r in rows[1:]) == 50
    params = json.loads(csv.with_suffix(".json").read_text(encoding="utf-8"))
    assert params["panels"][0]["params"]["width"] == 0.5
    assert params["data"]["generator"]["name"] == "moons"
    # the session renders the same picture again
    again = tmp_path / "again.png"
    result = kfdviz(
        "render",
        "--session",
        str(session),
        "--out",
        str(again),
        "--size",
        "1200x700",
        "--dpi",
        "200",
    )
    assert result.returncode == 0, result.stderr
    assert again.read_bytes() == png.read_bytes()


def test_render_data_as_npz_opens_without_pickle(tmp_path):
    npz = tmp_path / "iris.npz"
    result = kfdviz(
        "render", "--preset", "koc-iris", "--out", str(tmp_path / "iris.pdf"), "--data", str(npz)
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "iris.pdf").read_bytes().startswith(b"%PDF")
    with np.load(npz, allow_pickle=False) as data:
        assert data["X"].shape == (150, 4)
        assert data["roles"].tolist() == ["train"] * 150
        assert data["koc_gaussian_c_0_01_sigma_0_01_embedding"].shape == (150, 3)
        params = json.loads(str(data["params_json"]))
    assert [p["algorithm"] for p in params["panels"]] == ["svd", "koc", "koc"]


def test_render_data_are_the_pictures_maps(tmp_path):
    """At a paper column the maps are fitted again over a box of their rooms' shape: the grids
    written with --data are those the picture shows, not the first fit's."""
    from kfdviz import render, session

    npz = tmp_path / "column.npz"
    result = kfdviz(
        "render", "--preset", "kfd-vs-kpca", "--out", str(tmp_path / "column.png"),
        "--size", "1050x700", "--dpi", "300", "--data", str(npz),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    computed = render.compute(session.state_from_preset("kfd-vs-kpca"))
    shown, _ = render.picture(computed, (1050, 700), 300)
    assert shown is not computed, "the column's rooms are not of the data's shape"
    with np.load(npz, allow_pickle=False) as data:
        names = sorted(k.removesuffix("_grid_xs") for k in data.files if k.endswith("_grid_xs"))
        assert len(names) == 3

        def same(grid, name) -> bool:
            xs, ys = data[f"{name}_grid_xs"], data[f"{name}_grid_ys"]
            return (
                xs.shape == grid.xs.shape
                and ys.shape == grid.ys.shape
                and np.allclose(xs, grid.xs)
                and np.allclose(ys, grid.ys)
            )

        for name in names:
            assert any(same(r.grid, name) for r in shown.results), name
            assert not any(same(r.grid, name) for r in computed.results), name


@pytest.mark.slow
def test_render_all(tmp_path):
    result = kfdviz("render", "--all", "--out-dir", str(tmp_path / "figures"), timeout=600)
    assert result.returncode == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert written == sorted(f"{name}.png" for name in presets.names())
    for name in written:
        assert (tmp_path / "figures" / name).stat().st_size > 20_000


def test_render_errors_are_plain(tmp_path):
    result = kfdviz("render", "--preset", "no-such-preset", "--out", str(tmp_path / "a.png"))
    assert result.returncode == 1
    assert "Unknown preset 'no-such-preset'" in result.stderr and "kfd-vs-kpca" in result.stderr
    assert "Traceback" not in result.stderr
    result = kfdviz("render", "--preset", "default", "--out", str(tmp_path / "a.bmp"))
    assert result.returncode == 1 and ".png, .svg, .pdf" in result.stderr
    assert not (tmp_path / "a.bmp").exists()
    broken = tmp_path / "broken.kfdviz"
    broken.write_text('{"format": "kfdviz-session", "format_version": 1, "data": {', "utf-8")
    result = kfdviz("render", "--session", str(broken), "--out", str(tmp_path / "b.png"))
    assert result.returncode == 1
    assert "broken.kfdviz" in result.stderr and "truncated" in result.stderr
    assert "Traceback" not in result.stderr
    result = kfdviz("render", "--all")
    assert result.returncode == 1 and "--out-dir" in result.stderr
    result = kfdviz("render", "--preset", "default")
    assert result.returncode == 1 and "--out" in result.stderr
    result = kfdviz("render", "--preset", "default", "--out", "x.png", "--size", "big")
    assert result.returncode == 2 and "WIDTHxHEIGHT" in result.stderr
    result = kfdviz("render", "--out", "x.png")
    assert result.returncode == 2  # one of --preset, --session, --all is required
