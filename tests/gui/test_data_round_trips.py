"""Data round trips: what the window writes, it reads back as the same data set."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def test_save_then_open_keeps_the_points_classes_and_roles(window, qtbot, tmp_path):
    w = window
    X, y, test = np.array(w.data.X()), np.array(w.data.y()), np.array(w.data.test_mask())
    assert test.any() and not test.all()
    path = tmp_path / "points.csv"
    assert w.save_to(str(path))
    w.files.generate("circles", {"n_samples": 50}, 1)
    wait_idle(qtbot, w)
    assert w.load_file(str(path))
    wait_idle(qtbot, w)
    np.testing.assert_allclose(w.data.X(), X)
    np.testing.assert_array_equal(w.data.y(), y)
    np.testing.assert_array_equal(w.data.test_mask(), test)
    assert not w.data.regression


def test_exported_data_reopen_as_the_same_data_set(window, qtbot, tmp_path):
    w = window
    X, y = np.array(w.data.X()), np.array(w.data.y())
    path = tmp_path / "export.csv"
    assert w.export_data_to(str(path))
    assert w.load_file(str(path))
    wait_idle(qtbot, w)
    assert not w.data.regression and w.data.dimension == 2
    np.testing.assert_allclose(w.data.X(), X)
    np.testing.assert_array_equal(w.data.y(), y)


def test_a_file_with_too_many_classes_is_refused_in_place(window, qtbot, tmp_path):
    w = window
    n = w.data.n
    path = tmp_path / "ten.csv"
    rows = ["x1,x2,label"] + [f"{i},{i % 3},{i % 10}" for i in range(40)]
    path.write_text("\n".join(rows) + "\n")
    assert not w.load_file(str(path))
    kind, text = w.last_status
    assert kind == "error" and "ten.csv" in text and "10" in text
    assert w.data.n == n  # the points on screen stay
