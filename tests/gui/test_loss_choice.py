"""The algorithm panel offers the loss on ξ for the program formulations, and the fit uses it."""

from __future__ import annotations

import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def test_the_loss_is_offered_for_the_programs_only(window, qtbot):
    w = window
    panel = w.workspace.algorithm_panel
    combo = panel.combo
    assert panel.widget("loss") is None  # the closed-form KFD has no loss to choose
    combo.setCurrentIndex(combo.findData("kfd-lp"))
    loss = panel.widget("loss")
    assert loss is not None
    names = [loss.combo.itemText(i) for i in range(loss.combo.count())]
    assert names == ["Gaussian (ξ²)", "Laplacian (|ξ|)", "Huber's robust", "ε-insensitive"]
    assert loss.value() == "absolute"  # LSKFD's own loss by default
    combo.setCurrentIndex(combo.findData("kfd-qp"))
    loss = panel.widget("loss")
    assert loss.value() == "squared"
    wait_idle(qtbot, w)
    qtbot.waitUntil(
        lambda: (
            w.pictures.main_slot.result is not None
            and w.pictures.main_slot.result.algorithm == "kfd-qp"
        ),
        timeout=30_000,
    )
    with qtbot.waitSignal(w.fit_drawn, timeout=30_000):
        loss.combo.setCurrentIndex(loss.combo.findData("huber"))
    assert panel.params()["loss"] == "huber"
    qtbot.waitUntil(
        lambda: w.pictures.main_slot.result.params.get("loss") == "huber", timeout=30_000
    )
    wait_idle(qtbot, w)
