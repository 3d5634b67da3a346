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


def _crashed(folder, name: str, n_points: int, when: float):
    """An autosave of ``n_points`` left by a process that is gone, saved at ``when``."""
    state = session.state_from_preset("default")
    state = session.SessionState(
        X=state.X[:n_points],
        y=state.y[:n_points],
        test_mask=state.test_mask[:n_points],
        panels=state.panels,
        title=state.title,
    )
    path = folder / f"session-999999990-{name}.kfdviz"
    session.save_session(path, state)
    path.with_suffix(".running").write_text(f'{{"pid": 999999990, "token": "{name}"}}')
    os.utime(path, (when, when))
    return path


def test_every_crashed_session_is_offered_and_each_answer_acts_on_one(qtbot, settings, tmp_path):
    older = _crashed(tmp_path, "older", 30, 1_700_000_000)
    newer = _crashed(tmp_path, "newer", 50, 1_700_000_600)
    w = _window(qtbot, settings, tmp_path)
    try:
        banner = w.autosave.banner
        assert banner.isVisible() and banner.choice.isVisible()
        offered = [banner.choice.itemText(i) for i in range(banner.choice.count())]
        assert len(offered) == 2 and "50 points" in offered[0] and "30 points" in offered[1]
        # Discard the newer one: the older stays on disk and on offer.
        banner.choice.setCurrentIndex(0)
        qtbot.mouseClick(banner.discard_button, Qt.MouseButton.LeftButton)
        assert not newer.exists() and not newer.with_suffix(".running").exists()
        assert older.exists(), "Discard deletes only the session it acted on"
        assert banner.isVisible() and banner.choice.count() == 1
        assert not banner.choice.isVisible()
        assert "30 points" in banner.label.text()
        qtbot.mouseClick(banner.recover_button, Qt.MouseButton.LeftButton)
        assert w.data.n == 30
        assert not older.exists() and not banner.isVisible()
    finally:
        _close(w)


def test_recover_writes_the_new_autosave_before_deleting_the_old(qtbot, settings, tmp_path):
    crashed = _crashed(tmp_path, "gone", 40, 1_700_000_000)
    # An edit delay far longer than the test: only Recover itself can write the new autosave.
    w = _window(qtbot, settings, tmp_path, autosave_delay_ms=600_000)
    try:
        qtbot.mouseClick(w.autosave.banner.recover_button, Qt.MouseButton.LeftButton)
        assert w.data.n == 40 and not crashed.exists()
        recovered = w.data.X().copy()
        # kill -9 now: the window's own autosave and marker stay behind, nothing more.
        w.autosave.autosaver.stop(clean=False)
    finally:
        _close(w)
    found = autosave.find_recoverable(tmp_path)
    assert len(found) == 1, "the recovered session is recoverable again after a crash"
    np.testing.assert_array_equal(session.load_session(found[0].path).X, recovered)


def test_recover_keeps_the_old_autosave_when_the_new_cannot_be_written(
    qtbot, settings, tmp_path, monkeypatch
):
    crashed = _crashed(tmp_path, "gone", 40, 1_700_000_000)
    w = _window(qtbot, settings, tmp_path, autosave_delay_ms=600_000)
    try:

        def disk_full(path, state):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(autosave.session, "save_session", disk_full)
        qtbot.mouseClick(w.autosave.banner.recover_button, Qt.MouseButton.LeftButton)
        assert w.data.n == 40
        assert crashed.exists(), "its content is nowhere else yet"
        kind, text = w.last_status
        assert kind == "error" and crashed.name in text
        assert "No space left on device" in w.status.notice_text()
    finally:
        monkeypatch.undo()
        _close(w)


def test_an_autosave_folder_that_cannot_be_written_is_said_in_the_window(qtbot, settings, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the autosave folder should be")
    w = _window(qtbot, settings, blocker / "autosave")
    try:
        notice = w.status.notice_text()
        assert notice.startswith("Autosave is not working") and "autosave" in notice
        assert w.status.notice_label.isVisible()
        assert not w.autosave.autosaver.active
    finally:
        _close(w)


def test_a_failed_autosave_is_said_and_a_later_success_clears_it(
    qtbot, settings, tmp_path, monkeypatch
):
    w = _window(qtbot, settings, tmp_path, autosave_delay_ms=600_000)
    try:
        saver = w.autosave.autosaver
        real_save = autosave.session.save_session

        def read_only(path, state):
            raise PermissionError(13, "Permission denied", str(path))

        monkeypatch.setattr(autosave.session, "save_session", read_only)
        assert not saver.save_now()
        assert "Permission denied" in w.status.notice_text()
        monkeypatch.setattr(autosave.session, "save_session", real_save)
        assert saver.save_now()
        assert w.status.notice_text() == ""
    finally:
        monkeypatch.undo()
        _close(w)
