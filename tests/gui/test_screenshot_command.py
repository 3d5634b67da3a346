"""`kfdviz --screenshot FILE.png` (and `--preset NAME`): open, wait for the fit, save, exit 0."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

pytestmark = [pytest.mark.gui, pytest.mark.slow]


def _run(*args: str, timeout: int = 180) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    return subprocess.run(
        [sys.executable, "-m", "kfdviz", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def _pixels(path) -> np.ndarray:
    from PySide6.QtGui import QImage

    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
    assert not image.isNull()
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(h, image.bytesPerLine())
    return data[:, : 3 * w].reshape(h, w, 3).copy()


@pytest.mark.parametrize("preset", [None, "kfd-vs-kpca"])
def test_screenshot_of_the_window_after_the_fit(tmp_path, preset, qapp):
    out = tmp_path / "shot.png"
    args = (
        ["--screenshot", str(out)]
        if preset is None
        else ["--preset", preset, "--screenshot", str(out)]
    )
    result = _run(*args)
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr, result.stderr
    pixels = _pixels(out)
    h, w, _ = pixels.shape
    assert 1100 <= w <= 1400 and 700 <= h <= 900
    assert pixels.std() > 20
    # the diverging map's orange and blue tints are both on the picture
    orange = (pixels[..., 0].astype(int) - pixels[..., 2] > 60).sum()
    blue = (pixels[..., 2].astype(int) - pixels[..., 0] > 60).sum()
    assert orange > 2000 and blue > 2000


def test_an_unknown_preset_is_refused_with_the_list(tmp_path):
    result = _run("--preset", "no-such-figure", "--screenshot", str(tmp_path / "x.png"))
    assert result.returncode != 0
    assert "default" in result.stderr and "kfd-vs-kpca" in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_a_screenshot_waits_for_the_presets_sweep(qtbot, settings, tmp_path):
    from gui_helpers import make_window
    from PySide6.QtWidgets import QApplication

    from kfdviz.app import _screenshot

    w = make_window(qtbot, settings, "koc-linear-svm")  # waits for the fits, not the sweep
    assert w.sweep.spec is not None, "the preset has a sweep"
    out = tmp_path / "sweep.png"
    assert _screenshot(QApplication.instance(), w, out) == 0
    assert not w.sweep.running() and w.sweep.result is not None
    assert out.is_file()
