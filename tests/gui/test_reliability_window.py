"""The window under hostile use: every path ends settled, nothing is lost, failures are said."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from gui_helpers import wait_idle

pytestmark = pytest.mark.gui


def test_a_full_disk_keeps_the_old_figure_and_the_window_says_so(window, small_disk):
    old = b"an older figure\n" * 500
    targets = [small_disk.folder / f"figure.{s}" for s in ("pdf", "svg", "png")]
    for target in targets:
        target.write_bytes(old)
    small_disk.fill()
    for target in targets:
        assert not window.export_figure_to(target)
        assert target.read_bytes() == old
        _kind, message = window.status.last
        assert message.startswith("Could not export the figure") and str(target) in message
        assert ".kfdviz-tmp" not in message
    assert small_disk.temporaries() == []


def test_export_data_after_a_change_without_refit_writes_the_points_on_screen(
    window, qtbot, tmp_path
):
    w = window
    w.action_table["live"].setChecked(False)
    n = w.data.n
    w.data.add_points([[0.1, 0.2], [0.3, -0.4]], label=1)
    assert w.data.n == n + 2
    path = tmp_path / "points.csv"
    assert w.export_data_to(path), w.status.last
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert len(body) == n + 2
    # the outputs shown were fitted to the old points: not exported as if they were these
    assert not any(h.endswith("_output") for h in header)
    meta = json.loads(path.with_suffix(".json").read_text())
    assert all("error" in p for p in meta["panels"])
    # fitted again: the outputs are back, one per point
    w.fit.fit_now()
    wait_idle(qtbot, w)
    assert w.export_data_to(path)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert any(h.endswith("_output") for h in rows[0]) and len(rows) == n + 3
    column = rows[0].index(next(h for h in rows[0] if h.endswith("_output")))
    assert np.isfinite([float(r[column]) for r in rows[1:]]).all()


def _tool(w, label: str):
    return next(
        a for a in w.action_table.tool_actions.values() if a.text().replace("&", "") == label
    )


def test_a_single_click_of_each_tool_does_what_it_says(window, qtbot):
    from gui_helpers import click_data

    from kfdviz.app.canvas_tools import SPRAY_BURST

    w = window
    view = w.workspace.input_view
    view.viewbox.setRange(xRange=(-2, 2), yRange=(-2, 2), padding=0)
    n = w.data.n
    _tool(w, "Spray").trigger()
    click_data(qtbot, view, 0.5, 0.5)
    assert w.data.n == n + SPRAY_BURST
    _tool(w, "Add").trigger()
    click_data(qtbot, view, -0.5, 0.5)
    assert w.data.n == n + SPRAY_BURST + 1
    _tool(w, "Erase").trigger()
    click_data(qtbot, view, -0.5, 0.5)
    assert w.data.n < n + SPRAY_BURST + 1
    wait_idle(qtbot, w)


@pytest.mark.parametrize("scale", [1e308, 1e100])
def test_finite_data_of_any_size_draws_or_is_refused_with_a_reason(window, qtbot, tmp_path, scale):
    w = window
    rng = np.random.default_rng(3)
    X = rng.uniform(-1, 1, size=(40, 2)) * scale
    path = tmp_path / "huge.csv"
    path.write_text(
        "x1,x2,label\n"
        + "".join(f"{float(a)!r},{float(b)!r},{i % 2}\n" for i, (a, b) in enumerate(X))
    )
    before = w.data.X().copy()
    loaded = w.load_file(str(path))
    if scale > 1e150:
        assert not loaded
        kind, message = w.status.last
        assert kind == "error" and "too large" in message and "rescale" in message
        np.testing.assert_array_equal(w.data.X(), before)
    else:
        assert loaded and w.data.n == 40
    wait_idle(qtbot, w)


def test_generating_digits_says_why_it_cannot_and_keeps_the_points(window, qtbot):
    from PySide6.QtCore import Qt

    w = window
    panel = w.workspace.data_panel
    before = w.data.X().copy()
    panel.generator.setCurrentIndex(panel.generator.findData("digits"))
    panel.classes.setValue(8)
    qtbot.mouseClick(panel.generate, Qt.MouseButton.LeftButton)
    kind, message = w.status.last  # the digits are ten classes: more than the canvas holds
    assert kind == "error" and message.startswith("Could not generate digits")
    assert "10 classes" in message and "at most 8" in message
    np.testing.assert_array_equal(w.data.X(), before)
    wait_idle(qtbot, w)


def test_an_invalid_value_then_new_data_ends_settled_with_the_reason(window, qtbot):
    w = window
    field = w.workspace.algorithm_panel.widget("width").field
    field.setText("-1")
    field.editingFinished.emit()
    wait_idle(qtbot, w)
    w.data.add_points([[0.2, 0.3]], 1)  # as a click of Add does
    # the new points cannot be fitted with this value: the window says so and settles
    wait_idle(qtbot, w, timeout=10_000)
    kind, message = w.status.last
    assert kind == "error" and "Nothing was fitted" in message
    assert w.workspace.input_view.overlay.state == "stale"
    field.setText("0.4")
    field.editingFinished.emit()
    wait_idle(qtbot, w)
    assert w.is_up_to_date()


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_said_and_the_window_keeps_working(window, qtbot, capsys):
    from PySide6.QtCore import QTimer

    from kfdviz.app.crash_report import CrashReporter

    def broken_action():
        raise RuntimeError("a broken action")

    reporter = CrashReporter(window)
    reporter.install()
    try:
        QTimer.singleShot(0, broken_action)  # Qt calls it from its event loop, as a slot
        qtbot.waitUntil(lambda: reporter.box is not None and reporter.box.isVisible())
        box = reporter.box
        assert not box.isModal()
        assert "RuntimeError: a broken action" in box.text()
        assert "Traceback" in box.detailedText() and "broken_action" in box.detailedText()
        assert "a broken action" in capsys.readouterr().err  # passed on to the hook before
        # the window keeps working while the message is open
        n = window.data.n
        window.data.add_points([[0.1, 0.1]], 0)
        wait_idle(qtbot, window)
        assert window.data.n == n + 1 and window.is_up_to_date()
        box.close()
        qtbot.waitUntil(lambda: reporter.box is None)
    finally:
        reporter.uninstall()


def test_the_suite_fails_a_test_whose_slot_raises(pytester):
    """pytest-qt records exceptions raised in Qt's event loop; the suite's settings keep it on."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    options = config["tool"]["pytest"]["ini_options"]
    assert not options.get("qt_no_exception_capture")
    pytester.makeini(f"[pytest]\nqt_api = {options['qt_api']}\n")
    pytester.makepyfile(
        """
        from PySide6.QtCore import QTimer

        def test_slot(qtbot):
            def slot():
                raise RuntimeError("raised in a slot")
            QTimer.singleShot(0, slot)
            qtbot.wait(50)
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*raised in a slot*"])
