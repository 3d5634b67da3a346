"""A comparison of four panels: the kfd-sparsity preset (the four columns of TPAMI Table 1) in a
2 × 2 grid, four panels from the count selector, links across four, sessions of four.

Driven as a user would: the real window, the panel-count selector, the chain beside a parameter,
F6 for the compare layout, File → Save session and Open session through the window's methods.
"""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import make_window, press_key, save_and_check, wait_idle
from PySide6.QtCore import Qt

from kfdviz import session
from kfdviz.app.compare import MAX_PANELS

pytestmark = pytest.mark.gui


@pytest.fixture
def sparsity(qtbot, settings):
    w = make_window(qtbot, settings, "kfd-sparsity")
    yield w
    w.close()


def shown_panels(w):
    return w.workspace.compare_view.panels[: w.pictures.compare_count]


def assert_every_picture_current(w) -> None:
    """Each shown panel draws its own slot's last fit, of the data on screen, with no card."""
    assert w.is_up_to_date()
    for panel, slot in zip(shown_panels(w), w.pictures.shown_compare_slots(), strict=True):
        r = slot.result
        assert r is not None and r.algorithm == slot.algorithm
        assert panel.isVisible() and panel.stack.currentWidget() is panel.view
        # the picture is this result's grid, and nothing greys or covers it
        np.testing.assert_array_equal(panel.view.image.image, r.grid.values)
        assert panel.view.overlay.state == "none", (slot.name, panel.view.overlay.state)
        assert not panel.view.overlay.card.isVisible()
        assert not panel.status.isVisibleTo(panel), panel.status.text()


def test_kfd_sparsity_draws_the_four_columns_of_the_table(sparsity, qtbot):
    w = sparsity
    assert MAX_PANELS == 4
    assert w.pictures.layout_name == "compare" and w.pictures.compare_count == 4
    assert [s.algorithm for s in w.pictures.shown_compare_slots()] == [
        "svm",
        "kfd",
        "kfd-sparse",
        "kfd-lp",
    ]
    assert w.workspace.compare_view.count.currentData() == 4
    assert_every_picture_current(w)
    # a 2 x 2 grid: two panels side by side over two more, all of one size
    p = [panel.geometry() for panel in shown_panels(w)]
    assert p[0].top() == p[1].top() < p[2].top() == p[3].top()
    assert p[0].left() == p[2].left() < p[1].left() == p[3].left()
    assert max(g.width() for g in p) - min(g.width() for g in p) <= 2
    assert max(g.height() for g in p) - min(g.height() for g in p) <= 2
    # every caption states its fit's measured fraction of zero coefficients, the KFD's 0 % too
    fractions = []
    for panel, slot in zip(shown_panels(w), w.pictures.shown_compare_slots(), strict=True):
        r = slot.result
        zeros = 1.0 - len(r.expansion_points) / r.n_train  # the points circled
        assert r.sparsity == pytest.approx(zeros)
        assert panel.caption.text().endswith(f"zero coefficients {100 * r.sparsity:.0f} %")
        fractions.append(r.sparsity)
    assert fractions[1] == 0.0 and min(fractions[0], fractions[2], fractions[3]) > 0.5
    save_and_check(w, "compare-four-kfd-sparsity")


def test_a_four_panel_session_saves_and_reopens_with_all_four(sparsity, qtbot, tmp_path):
    w = sparsity
    path = tmp_path / "four.kfdviz"
    assert w.save_session_file(str(path))
    saved = session.load_session(path)
    assert saved.layout == "compare" and len(saved.panels) == 4
    before = [(s.algorithm, dict(s.params)) for s in w.pictures.shown_compare_slots()]

    w.load_preset("default")
    wait_idle(qtbot, w)
    assert w.pictures.layout_name == "single"
    assert w.open_session_file(str(path))
    wait_idle(qtbot, w)
    assert w.pictures.compare_count == 4
    assert [(s.algorithm, dict(s.params)) for s in w.pictures.shown_compare_slots()] == before
    assert_every_picture_current(w)
    for panel, slot in zip(shown_panels(w), w.pictures.shown_compare_slots(), strict=True):
        assert f"zero coefficients {100 * slot.result.sparsity:.0f} %" in panel.caption.text()


def test_a_fourth_panel_from_the_count_selector_takes_the_links(qtbot, settings):
    w = make_window(qtbot, settings, "default")
    try:
        press_key(qtbot, w, Qt.Key.Key_F6)
        wait_idle(qtbot, w)
        view = w.workspace.compare_view
        assert w.pictures.compare_count == 3 and not view.panels[3].isVisible()
        # link the width across the panels, then show a fourth
        button = w.workspace.algorithm_panel.link_button("width")
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert w.pictures.linked == {"width"}
        wait_idle(qtbot, w)
        view.count.setCurrentIndex(view.count.findData(4))
        wait_idle(qtbot, w)
        assert w.pictures.compare_count == 4 and view.panels[3].isVisible()
        slots = w.pictures.shown_compare_slots()
        assert slots[3].algorithm == "svm"
        widths = {s.result.params["width"] for s in slots}
        assert len(widths) == 1, widths  # the fourth panel took the linked width
        assert_every_picture_current(w)
        # back to three: one row again
        view.count.setCurrentIndex(view.count.findData(3))
        wait_idle(qtbot, w)
        tops = {panel.geometry().top() for panel in shown_panels(w)}
        assert len(tops) == 1 and not view.panels[3].isVisible()
    finally:
        w.close()
