"""Stored settings (kfdviz.conf): a corrupt file never stops the window from opening; values
that do not validate are reset, with a notice in the status line; valid ones are kept."""

from __future__ import annotations

import json

import pytest
from gui_helpers import make_window

from kfdviz import deck as decks
from kfdviz.app.settings import StoredSettings

pytestmark = pytest.mark.gui


def _default_algorithm() -> str:
    from kfdviz import session

    return session.state_from_preset("default").panels[0].algorithm


def test_a_corrupt_settings_file_is_reset_with_a_notice(qtbot, settings):
    settings.setValue("algorithm", json.dumps({"algorithm": "kpca", "params": [1, 2]}))
    settings.setValue("geometry", "garbage, not Qt's bytes")
    settings.setValue("window_state", b"\x00\x01 not a dock layout")
    settings.setValue("theme", "neon")
    settings.setValue("live", "sometimes")
    settings.setValue("deck", json.dumps(["no-such-preset"]))
    settings.sync()
    w = make_window(qtbot, settings, restore=True)
    assert w.is_up_to_date(), "the window opens and fits as usual"
    assert w.pictures.main_slot.algorithm == _default_algorithm()
    assert w.workspace.theme.name == "light" and w.fit.live
    assert w.presenter.deck() == decks.default_deck()
    notice = w.status.notice_text()
    for key in ("algorithm", "geometry", "window_state", "theme", "live", "deck"):
        assert f"{key}:" in notice, (key, notice)
    assert "params is a list" in notice and "neon" in notice
    assert w.status.notice_label.isVisible()
    for key in ("algorithm", "geometry", "window_state", "theme", "live", "deck"):
        assert not settings.contains(key), f"{key} is reset to its default"
    w.close()
    # the next start finds the values the window wrote on closing, all valid: no notice
    again = make_window(qtbot, settings, restore=True)
    try:
        assert again.status.notice_text() == ""
        assert not again.status.notice_label.isVisible()
    finally:
        again.close()


@pytest.mark.parametrize(
    "stored",
    [
        "{not json",
        json.dumps(["kfd", {}]),
        json.dumps({"algorithm": "no-such-algorithm", "params": {}}),
        json.dumps({"algorithm": "kfd", "params": {"mu": -1.0}}),
        json.dumps({"algorithm": "kfd", "params": {}, "feature": [0]}),
    ],
)
def test_every_kind_of_bad_stored_algorithm_is_reset(settings, stored):
    settings.setValue("algorithm", stored)
    checked = StoredSettings(settings)
    notices = checked.check()
    assert len(notices) == 1 and notices[0].startswith("algorithm: ")
    assert not settings.contains("algorithm")
    assert checked.algorithm() is None


def test_valid_settings_are_kept_and_restored(qtbot, settings):
    stored = {"algorithm": "kpca", "params": {"n_components": 3}, "feature": 1}
    settings.setValue("algorithm", json.dumps(stored))
    settings.setValue("theme", "dark")
    settings.setValue("live", "false")
    settings.sync()
    w = make_window(qtbot, settings, restore=True)
    try:
        assert w.status.notice_text() == "" and not w.stored.notices
        slot = w.pictures.main_slot
        assert (slot.algorithm, slot.params["n_components"], slot.feature) == ("kpca", 3, 1)
        assert w.workspace.theme.name == "dark" and not w.fit.live
        assert w.action_table["dark"].isChecked() and not w.action_table["live"].isChecked()
    finally:
        w.close()


def test_notices_of_two_sources_are_shown_together(qtbot, settings, tmp_path):
    from kfdviz.app.main_window import MainWindow

    settings.setValue("theme", "neon")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    w = MainWindow(None, settings=settings, restore=True, autosave_dir=blocker / "autosave")
    qtbot.addWidget(w)
    try:
        notice = w.status.notice_text()
        assert "neon" in notice and "Autosave is not working" in notice
        w.status.clear_notice("autosave")
        assert "neon" in w.status.notice_text()
        assert "Autosave" not in w.status.notice_text()
    finally:
        w.close()
