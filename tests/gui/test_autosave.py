"""Autosave and crash recovery: the session is written after edits, removed on a clean exit,
and offered back in a banner after an unclean one."""

from __future__ import annotations

import os

import numpy as np
import pytest
from gui_helpers import click_data, press_key
from PySide6.QtCore import Qt

from kfdviz import session
from kfdviz.app import autosave
from kfdviz.app.main_window import MainWindow

pytestmark = pytest.mark.gui

KEY = Qt.Key


def _window(qtbot, settings, folder, **kwargs):
    from gui_helpers import wait_idle

    w = MainWindow(None, settings=settings, restore=False, autosave_dir=folder, **kwargs)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=5_000)
    wait_idle(qtbot, w)
    return w


def _close(w):
    w.close()
    assert not w.fit.worker.thread.is_alive()


def test_autosave_writes_the_session_after_an_edit(qtbot, settings, tmp_path):
    w = _window(qtbot, settings, tmp_path, autosave_delay_ms=200)
    try:
        saver = w.autosave.autosaver
        assert saver is not None and saver.active and saver.marker.exists()
        assert not w.autosave.banner.isVisible(), "nothing to recover on a first start"
        press_key(qtbot, w, KEY.Key_A)
        with qtbot.waitSignal(saver.saved, timeout=10_000) as blocker:
            click_data(qtbot, w.workspace.input_view, 0.3, 1.4)
        path = blocker.args[0]
        state = session.load_session(path)
        np.testing.assert_array_equal(state.X, w.data.X())
        assert state.panels[0].algorithm == w.pictures.main_slot.algorithm
    finally:
        _close(w)
    assert not os.path.exists(path), "a clean exit removes the autosave"
    assert not saver.marker.exists()
    assert autosave.find_recoverable(tmp_path) == []


def test_an_unclean_exit_is_offered_for_recovery_in_a_banner(qtbot, settings, tmp_path):
    w = _window(qtbot, settings, tmp_path, autosave_delay_ms=100)
    try:
        press_key(
            qtbot,
            w,
            KEY.Key_Backspace,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
        )
        press_key(qtbot, w, KEY.Key_A)
        w.workspace.input_view.viewbox.setRange(xRange=(-2, 2), yRange=(-2, 2), padding=0)
        qtbot.wait(20)
        for x, y, k in ((-1.0, -0.5, KEY.Key_1), (-0.8, 0.6, KEY.Key_1), (0.9, 0.2, KEY.Key_2)):
            press_key(qtbot, w, k)
            click_data(qtbot, w.workspace.input_view, x, y)
        press_key(qtbot, w, KEY.Key_2)
        with qtbot.waitSignal(w.autosave.autosaver.saved, timeout=10_000):
            click_data(qtbot, w.workspace.input_view, 1.1, -0.7)
        drawn, labels = w.data.X().copy(), w.data.y().copy()
        assert len(drawn) == 4
        # the process "dies": the autosave and its marker stay behind
        w.autosave.autosaver.stop(clean=False)
    finally:
        _close(w)
    found = autosave.find_recoverable(tmp_path)
    assert len(found) == 1

    w2 = _window(qtbot, settings, tmp_path)
    try:
        assert w2.autosave.banner.isVisible()
        assert "4 points" in w2.autosave.banner.label.text()
        assert w2.data.n != 4, "the window opens as usual; nothing is replaced before asked"
        qtbot.mouseClick(w2.autosave.banner.recover_button, Qt.MouseButton.LeftButton)
        np.testing.assert_array_equal(w2.data.X(), drawn)
        np.testing.assert_array_equal(w2.data.y(), labels)
        assert not w2.autosave.banner.isVisible()
        assert autosave.find_recoverable(tmp_path) == []
        press_key(qtbot, w2, KEY.Key_Z, Qt.KeyboardModifier.ControlModifier)
        assert w2.data.n != 4, "recovering is one undoable step"
    finally:
        _close(w2)


def test_discard_removes_the_old_autosave(qtbot, settings, tmp_path):
    state = session.state_from_preset("default")
    stale = tmp_path / "session-999999999-dead.kfdviz"
    session.save_session(stale, state)
    stale.with_suffix(".running").write_text('{"pid": 999999999, "token": "dead"}')
    w = _window(qtbot, settings, tmp_path)
    try:
        assert w.autosave.banner.isVisible()
        qtbot.mouseClick(w.autosave.banner.discard_button, Qt.MouseButton.LeftButton)
        assert not w.autosave.banner.isVisible()
        assert not stale.exists() and not stale.with_suffix(".running").exists()
    finally:
        _close(w)


def test_a_running_instance_autosave_is_left_alone(qtbot, settings, tmp_path):
    first = _window(qtbot, settings, tmp_path)
    try:
        assert first.autosave.autosaver.save_now()
        second = _window(qtbot, settings, tmp_path)
        try:
            assert not second.autosave.banner.isVisible()
        finally:
            _close(second)
        assert first.autosave.autosaver.path.exists()
    finally:
        _close(first)


def test_no_autosave_and_no_banner_without_a_folder(window, tmp_path):
    assert window.autosave.autosaver is None
    assert not window.autosave.banner.isVisible()


def test_pid_alive():
    assert autosave.pid_alive(os.getpid())
    assert not autosave.pid_alive(999_999_999)
