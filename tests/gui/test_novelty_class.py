"""KPCA novelty detection on labelled data learns one class and scores the others as novel."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def test_novelty_on_two_classes_learns_the_first_and_flags_the_second(window, qtbot):
    """KPCA novelty on the two moons: the first class is learned, the histogram's summary says
    how much of it and how much of the second class (what should be novel) is flagged."""
    w = window
    combo = w.workspace.algorithm_panel.combo
    with qtbot.waitSignal(w.all_drawn, timeout=60_000):
        combo.setCurrentIndex(combo.findData("novelty"))
    field = w.workspace.algorithm_panel.widget("learn_class")
    assert field.value() == 1
    result = w.pictures.main_slot.result
    assert result.diagnostics["learned_class"] == "Class 1"
    summary = w.workspace.outputs_view.summary.text()
    assert "class 1 flagged: training" in summary
    assert f"should be novel: {result.diagnostics['other_classes_flagged']}" in summary
