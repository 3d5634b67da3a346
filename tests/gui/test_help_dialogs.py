"""Help: the keys-and-mouse list fits a projector's screen and names each key once; the
algorithm guide explains the algorithm on screen; long tooltips wrap; the compact layout keeps
a one-line description."""

from __future__ import annotations

import pytest
from gui_helpers import press_key, save_and_check
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QToolTip

from kfdviz.app import help_dialogs
from kfdviz.estimators import registry

pytestmark = pytest.mark.gui

PROJECTOR = QRect(0, 0, 1024, 768)


def _dialog(kind):
    found = [w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()]
    assert len(found) == 1
    return found[0]


def test_f1_lists_every_key_and_gesture_once_and_fits_1024x768(window, qtbot, monkeypatch):
    w = window
    monkeypatch.setattr(help_dialogs, "available_rect", lambda _widget: QRect(PROJECTOR))
    press_key(qtbot, w, Qt.Key.Key_F1)
    dialog = _dialog(help_dialogs.ShortcutsDialog)
    qtbot.waitExposed(dialog)
    save_and_check(dialog, "shortcuts-1024x768")
    assert PROJECTOR.contains(dialog.frameGeometry())
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    top_left = ok.mapToGlobal(ok.rect().topLeft())
    assert ok.isVisible() and PROJECTOR.contains(QRect(top_left, ok.size()))
    text = dialog.text.toPlainText()
    for action in w.actions():
        if action.text().startswith("Class "):
            continue  # one row: "1 … 8"
        for key in action.shortcuts():
            assert key.toString() in text, action.text()
    assert "1 … 8" in text
    for gesture in ("Right click", "Shift + click", "Wheel", "B or .", "W or ,", "Page Down"):
        assert gesture in text
    for keys, what in help_dialogs.shortcut_rows(w):
        for key in keys.split(", "):
            assert f"({key})" not in what, f"{keys}: the key is repeated in its row"
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_algorithm_guide_opens_at_the_algorithm_on_screen(window, qtbot):
    w = window
    algorithm = w.pictures.active_slot().algorithm
    action = next(a for a in w.actions() if a.text() == "Algorithm guide…")
    action.trigger()
    dialog = _dialog(help_dialogs.GuideDialog)
    qtbot.waitExposed(dialog)
    assert dialog.key() == algorithm
    guide = registry.get(algorithm).guide
    shown = " ".join(dialog.text.toPlainText().split())
    for part in (guide.computes, guide.picture, guide.try_this, guide.source):
        assert " ".join(part.split()) in shown
    save_and_check(dialog, "guide")
    dialog.show_algorithm("novelty")
    assert "Hoffmann" in dialog.text.toPlainText()
    dialog.reject()


def test_long_tooltips_wrap(window, qtbot):
    w = window
    panel = w.workspace.algorithm_panel
    widget = panel.widget("mu")
    tip = widget.field.toolTip()
    assert len(help_dialogs.wrapped_tip("x " * 100)) > 200
    QToolTip.showText(widget.field.mapToGlobal(widget.field.rect().center()), tip, widget.field)
    qtbot.waitUntil(QToolTip.isVisible, timeout=5_000)
    label = next(
        t for t in QApplication.topLevelWidgets() if t.metaObject().className() == "QTipLabel"
    )
    # μ's tooltip is about 150 characters: as plain text, one line wider than most of a screen
    plain_width = label.fontMetrics().horizontalAdvance(widget.spec.tooltip)
    assert plain_width > 600
    assert label.width() < 0.8 * plain_width, "a long tooltip wraps instead of running on"
    QToolTip.hideText()


def test_compact_layout_keeps_a_one_line_description(window, qtbot):
    w = window
    w.resize(1024, 700)
    panel = w.workspace.algorithm_panel
    label = panel.description
    qtbot.waitUntil(lambda: label._one_line, timeout=5_000)
    qtbot.waitUntil(label.isVisible, timeout=5_000)
    description = panel.spec().description
    assert label.height() < 2 * label.fontMetrics().height()
    assert label.text() == description or label.text().endswith("…")
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    assert description in label.toolTip() or description.replace("'", "&#x27;") in label.toolTip()
