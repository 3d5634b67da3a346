"""File → Export as Python script: the script rebuilds the picture on screen with the library,
in a process of its own, and its display holds the picture's values."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from gui_helpers import make_window
from PySide6.QtGui import QAction, QImage

from kfdviz.app import script_export

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[2]


def export_from_the_menu(w, monkeypatch, path: Path) -> None:
    """Choose File → Export as Python script… and answer the file dialog with ``path``."""
    monkeypatch.setattr(script_export, "ask_save_path", lambda *args, **kwargs: str(path))
    (action,) = [a for a in w.findChildren(QAction) if a.text() == "Export as Python script…"]
    assert action.isEnabled()
    action.trigger()


def run_script(script: Path, out: Path) -> subprocess.CompletedProcess:
    """Run ``script`` in a child process with no display, from another folder, and keep its
    displays' arrays in ``out`` (.npz)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONSTARTUP")
    }
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    code = textwrap.dedent(
        """
        import runpy, sys
        import numpy as np
        shown = runpy.run_path(sys.argv[1], run_name="__main__")["displays"]
        arrays = {f"values{i}": d.values for i, d in enumerate(shown)}
        np.savez(sys.argv[2], kinds=[type(d).__name__ for d in shown], **arrays)
        """
    )
    return subprocess.run(
        [sys.executable, "-c", code, str(script), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=str(out.parent),
    )


def drawn_values(result, display: str) -> np.ndarray:
    """What a display of ``display``'s class holds as ``values``, from the window's result (a
    display's points are the training points, then the test points)."""
    if display == "LevelSetDisplay":
        return result.grid.values if result.grid is not None else result.curve.y
    at_points = result.outputs if display == "OutputHistogramDisplay" else result.embedding
    test = np.asarray(result.test_mask)
    return np.concatenate([at_points[~test], at_points[test]])


@pytest.mark.parametrize(
    "preset", [None, "output-distributions", "kfd-regression", "kfd-vs-kpca", "koc-iris"]
)
def test_exported_script_rebuilds_the_picture(preset, qtbot, settings, monkeypatch, tmp_path):
    w = make_window(qtbot, settings, preset)
    try:
        names = w.pictures.layout_slot_names()
        results = [w.pictures.slot(name).result for name in names]
        assert all(r is not None for r in results)
        folder = tmp_path / "export"
        folder.mkdir()
        export_from_the_menu(w, monkeypatch, folder / "picture.py")
        assert not w.fit.worker.is_busy(), "exporting must not refit"
        assert w.status.last == ("info", "Exported the script picture.py and its data picture.npz")
    finally:
        w.close()
    assert sorted(p.name for p in folder.iterdir()) == ["picture.npz", "picture.py"]

    elsewhere = tmp_path / "run"
    elsewhere.mkdir()
    done = run_script(folder / "picture.py", elsewhere / "values.npz")
    assert done.returncode == 0, done.stderr
    saved = np.load(elsewhere / "values.npz")
    kinds = [str(k) for k in saved["kinds"]]
    assert len(kinds) == len(results)
    pictures = sorted(p.name for p in folder.glob("*.png"))
    assert pictures == (
        ["picture.png"]
        if len(kinds) == 1
        else [f"picture-{i}.png" for i in range(1, 1 + len(kinds))]
    )
    for i, (result, kind) in enumerate(zip(results, kinds, strict=True)):
        shown = drawn_values(result, kind)
        values = saved[f"values{i}"]
        assert values.shape == shown.shape, kind
        scale = float(np.max(np.abs(shown)))
        np.testing.assert_allclose(values, shown, rtol=1e-6, atol=1e-8 * scale, err_msg=kind)
    image = QImage(str(folder / pictures[0]))
    assert image.width() == 1600 and not image.isNull()
    keep = os.environ.get("KFDVIZ_SHOTS")
    if keep:  # the pictures, for a person to look at
        for name in pictures:
            QImage(str(folder / name)).save(str(Path(keep) / f"script-{preset}-{name}"))


def test_nothing_to_export_is_said(tmp_path):
    from kfdviz import render
    from kfdviz.session import state_from_preset

    computed = render.Computed(state_from_preset("default"), [])
    with pytest.raises(ValueError, match="nothing is fitted yet"):
        script_export.write_script(computed, tmp_path / "x.py")
    assert list(tmp_path.iterdir()) == []


def test_a_sweep_is_not_written_as_a_script(tmp_path):
    from kfdviz import render
    from kfdviz.session import state_from_preset

    computed = render.Computed(state_from_preset("default"), [], sweep=object())
    with pytest.raises(ValueError, match="a sweep's curves refit the estimator"):
        script_export.write_script(computed, tmp_path / "x.py")
    assert list(tmp_path.iterdir()) == []


def test_what_no_display_draws_is_said_in_the_script():
    from kfdviz import render
    from kfdviz.session import state_from_preset

    computed = render.compute(state_from_preset("kfd-regression-noisy"))
    assert computed.state.with_svr
    text = script_export.script_text(computed, "x.npz", "x")
    assert "# Not rebuilt here: the window's support vector regression curve" in text
    compile(text, "x.py", "exec")
