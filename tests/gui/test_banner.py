"""The banner above the plots: a message, action buttons and a dismiss button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from kfdviz.app.autosave import RecoveryBanner
from kfdviz.app.banner import Banner
from kfdviz.app.large_data import LargeDataBanner

pytestmark = pytest.mark.gui

LEFT = Qt.MouseButton.LeftButton


def _shown(qtbot, banner):
    holder = QWidget()
    qtbot.addWidget(holder)
    QVBoxLayout(holder).addWidget(banner)
    holder.resize(700, 120)
    holder.show()
    qtbot.waitExposed(holder)
    return holder


def test_a_banner_is_hidden_until_it_has_a_message(qtbot):
    banner = Banner("testBanner", tone="warning", dismiss_text="Close")
    _holder = _shown(qtbot, banner)  # keeps the banner alive
    assert not banner.isVisible()
    banner.show_message("Something to decide.")
    assert banner.isVisible() and banner.message() == "Something to decide."
    assert banner.label.wordWrap()


def test_action_buttons_emit_their_key_and_leave_the_banner_up(qtbot):
    banner = Banner("testBanner", dismiss_text="Close")
    first = banner.add_action("first", "First")
    second = banner.add_action("second", "Second")
    _holder = _shown(qtbot, banner)  # keeps the banner alive
    banner.show_message("Choose.")
    # the actions come in order, before the dismiss button
    xs = [b.geometry().x() for b in (first, second, banner.dismiss_button)]
    assert xs == sorted(xs)
    assert banner.button("second") is second
    with qtbot.waitSignal(banner.action_triggered, timeout=1_000) as blocker:
        qtbot.mouseClick(second, LEFT)
    assert blocker.args == ["second"]
    with qtbot.assertNotEmitted(banner.dismissed):
        with qtbot.waitSignal(banner.action_triggered, timeout=1_000) as blocker:
            qtbot.mouseClick(first, LEFT)
    assert blocker.args == ["first"]
    assert banner.isVisible()


def test_dismiss_hides_the_banner_and_says_so(qtbot):
    banner = Banner("testBanner", dismiss_text="Close")
    banner.add_action("go", "Go")
    _holder = _shown(qtbot, banner)  # keeps the banner alive
    banner.show_message("Choose.")
    with qtbot.assertNotEmitted(banner.action_triggered):
        with qtbot.waitSignal(banner.dismissed, timeout=1_000):
            qtbot.mouseClick(banner.dismiss_button, LEFT)
    assert not banner.isVisible()


def test_a_banner_without_dismiss_text_has_no_dismiss_button(qtbot):
    banner = Banner("testBanner")
    banner.add_action("go", "Go")
    assert banner.dismiss_button is None
    with pytest.raises(ValueError):
        banner.add_action("go", "Again")
    with pytest.raises(ValueError):
        Banner("testBanner", tone="purple")


def test_the_window_banners_share_the_shape_and_differ_in_tone(qtbot):
    recovery = RecoveryBanner()
    large = LargeDataBanner()
    holder = QWidget()
    qtbot.addWidget(holder)
    column = QVBoxLayout(holder)
    column.addWidget(recovery)
    column.addWidget(large)
    holder.show()
    qtbot.waitExposed(holder)
    assert isinstance(recovery, Banner) and isinstance(large, Banner)
    assert recovery.tone == "warning" and large.tone == "info"
    assert recovery.styleSheet() != large.styleSheet()
    assert recovery.discard_button is recovery.dismiss_button
    assert large.dismiss_button is None

    large.offer("Large.", 120)
    assert large.isVisible() and large.subset_button.isVisible()
    assert "120 centers" in large.subset_button.text()
    with qtbot.waitSignal(large.subset, timeout=1_000) as blocker:
        qtbot.mouseClick(large.subset_button, LEFT)
    assert blocker.args == [120]
    with qtbot.waitSignal(large.fit_anyway, timeout=1_000):
        qtbot.mouseClick(large.fit_button, LEFT)
    large.offer("Large, no subset.", None)
    assert not large.subset_button.isVisible() and large.fit_button.isVisible()

    with qtbot.waitSignal(recovery.recover, timeout=1_000):
        recovery.show_message("Recover?")
        qtbot.mouseClick(recovery.recover_button, LEFT)
    assert recovery.isVisible(), "Recover leaves the banner to its owner"
    with qtbot.waitSignal(recovery.dismissed, timeout=1_000):
        qtbot.mouseClick(recovery.discard_button, LEFT)
    assert not recovery.isVisible()
