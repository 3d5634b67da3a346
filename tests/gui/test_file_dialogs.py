"""The window's file dialogs, driven through its menu actions with the dialogs answered by the
test: each starts where the user last chose a file, and what it names is written or read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gui_helpers import OFFSCREEN_NOISE

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


class Dialogs:
    """Stands in for QFileDialog: records where each dialog starts, answers from a queue."""

    def __init__(self, monkeypatch):
        from kfdviz.app import file_dialogs

        self.starts: list[tuple[str, str]] = []  # (caption, start)
        self.answers: list[str] = []
        dialog = file_dialogs.QFileDialog
        monkeypatch.setattr(dialog, "getSaveFileName", self._answer)
        monkeypatch.setattr(dialog, "getOpenFileName", self._answer)

    def _answer(self, _parent, caption, start, _filters):
        self.starts.append((caption, start))
        return (self.answers.pop(0) if self.answers else "", "")


def test_save_points_then_sessions_start_in_the_folder_last_chosen(
    window, qtbot, tmp_path, monkeypatch
):
    w = window
    dialogs = Dialogs(monkeypatch)
    folder = tmp_path / "figures"
    folder.mkdir()

    dialogs.answers.append(str(folder / "moons"))  # typed without a suffix
    w.action_table["save"].trigger()
    assert dialogs.starts[-1] == ("Save points", str(Path.cwd() / "points.csv"))
    saved = folder / "moons.csv"
    assert saved.is_file() and w.last_status[0] == "info"

    w.action_table["open_session"].trigger()  # cancelled: nothing happens, nothing is said
    assert dialogs.starts[-1] == ("Open session", str(folder))
    assert w.last_status[0] == "info"

    dialogs.answers.append(str(folder / "work"))
    w.action_table["save_session"].trigger()
    assert dialogs.starts[-1] == ("Save session", str(folder / "figure.kfdviz"))
    assert (folder / "work.kfdviz").is_file()

    n = w.data.n
    dialogs.answers.append(str(saved))
    w.action_table["open"].trigger()
    assert dialogs.starts[-1] == ("Load points", str(folder))
    assert w.data.n == n and w.last_status == ("info", f"Loaded {n} points from moons.csv")


def test_screenshot_failure_is_said_in_place_and_the_export_folder_is_its_own(
    window, qtbot, tmp_path, monkeypatch
):
    w = window
    dialogs = Dialogs(monkeypatch)
    dialogs.answers.append(str(tmp_path / "no such folder" / "shot.png"))
    w.action_table["screenshot"].trigger()
    kind, text = w.last_status
    assert kind == "error" and "Could not save the screenshot" in text
    assert "no such folder" in text

    shots = tmp_path / "shots"
    shots.mkdir()
    dialogs.answers.append(str(shots / "window"))
    w.action_table["screenshot"].trigger()
    assert (shots / "window.png").stat().st_size > 1000
    assert w.last_status[0] == "info"
    # figures and screenshots share the export folder; data files keep theirs
    w.action_table["screenshot"].trigger()
    assert dialogs.starts[-1] == ("Save screenshot", str(shots / "kfdviz.png"))
    w.action_table["save"].trigger()
    assert dialogs.starts[-1][1] == str(Path.cwd() / "points.csv")


def test_a_remembered_folder_that_is_gone_falls_back_to_the_working_directory(tmp_path, settings):
    from kfdviz.app.file_dialogs import last_folder, remember_folder

    gone = tmp_path / "gone"
    gone.mkdir()
    remember_folder(settings, gone / "a.csv")
    assert last_folder(settings) == str(gone)
    os.rmdir(gone)
    assert last_folder(settings) == str(Path.cwd())
    assert last_folder(None) == str(Path.cwd())


def test_ctrl_s_saves_the_session_and_ctrl_o_opens_one(window, qtbot, tmp_path, monkeypatch):
    from gui_helpers import press_key
    from PySide6.QtCore import Qt

    w = window
    dialogs = Dialogs(monkeypatch)
    dialogs.answers.append(str(tmp_path / "lecture"))
    press_key(qtbot, w, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert dialogs.starts[-1][0] == "Save session"
    assert (tmp_path / "lecture.kfdviz").is_file()
    press_key(qtbot, w, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert dialogs.starts[-1][0] == "Open session"
