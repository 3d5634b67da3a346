"""Compare panels keep their own parameters unless a parameter is linked; captions follow them.

Driven as a user would: the real window, clicks on the panels' Edit buttons, on the chain beside
a parameter, typing into the Width field, F6 for the compare layout.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from gui_helpers import make_window, press_key, save_and_check, wait_idle
from PySide6.QtCore import Qt

from kfdviz import session
from kfdviz.app.param_links import LINKED_TIP, UNLINKED_TIP

pytestmark = pytest.mark.gui


@pytest.fixture
def koc_iris(qtbot, settings):
    w = make_window(qtbot, settings, "koc-iris")
    yield w
    w.close()


def edit_panel(qtbot, w, index: int) -> None:
    panel = w.workspace.compare_view.panels[index]
    qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
    assert w.pictures.active_compare == index


def type_value(qtbot, w, name: str, text: str) -> None:
    """Select the parameter's field, type ``text`` and press Enter."""
    field = w.workspace.algorithm_panel.widget(name).field
    assert field.isVisible()
    field.setFocus()
    qtbot.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def click_link(qtbot, w, name: str) -> None:
    button = w.workspace.algorithm_panel.link_button(name)
    assert button is not None and button.isVisible(), f"a link toggle beside {name}"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def fitted_width(w, index: int):
    r = w.pictures.compare_slots[index].result
    assert r is not None
    return r.params.get("width")


def caption_text(w, index: int) -> str:
    return w.workspace.compare_view.panels[index].caption.text()


def caption_width(w, index: int) -> float:
    """The width a caption names ("c = …" or a paper's "σ = …", Park & Park's σ being c)."""
    found = re.search(r"(?:c|σ) = ([0-9.eE+-]+)", caption_text(w, index))
    assert found, f"the caption names the width: {caption_text(w, index)!r}"
    return float(found.group(1))


def assert_no_panel_errors(w) -> None:
    for i, panel in enumerate(w.workspace.compare_view.panels[: w.pictures.compare_count]):
        assert not panel.status.isVisibleTo(panel), f"panel {i}: {panel.status.text()}"
        assert w.pictures.compare_slots[i].error is None


def test_editing_a_panel_changes_only_that_panel(koc_iris, qtbot):
    w = koc_iris
    assert [s.algorithm for s in w.pictures.shown_compare_slots()] == ["svd", "koc", "koc"]
    before = [fitted_width(w, i) for i in range(3)]
    assert before == [None, 1.0, 0.01]
    assert caption_width(w, 1) == 1.0 and caption_width(w, 2) == 0.01

    edit_panel(qtbot, w, 1)
    type_value(qtbot, w, "width", "2")
    wait_idle(qtbot, w)

    assert [fitted_width(w, i) for i in range(3)] == [None, 2.0, 0.01]
    assert "width" not in w.pictures.compare_slots[0].params
    assert_no_panel_errors(w)
    # the edited panel's caption says what it was drawn with; the others keep their titles
    assert caption_width(w, 1) == fitted_width(w, 1) == 2.0
    assert caption_width(w, 2) == fitted_width(w, 2) == 0.01
    assert caption_text(w, 0).startswith("Rank-3 SVD")
    # the pictures differ: each panel drew its own width
    e1 = w.pictures.compare_slots[1].result.embedding
    e2 = w.pictures.compare_slots[2].result.embedding
    assert e1.shape == e2.shape and not np.allclose(e1, e2)

    # going to another panel shows that panel's own value, not the one just typed
    edit_panel(qtbot, w, 2)
    assert w.workspace.algorithm_panel.widget("width").value() == 0.01
    edit_panel(qtbot, w, 1)
    assert w.workspace.algorithm_panel.widget("width").value() == 2.0


def test_a_linked_parameter_follows_across_panels_that_have_it(koc_iris, qtbot):
    w = koc_iris
    edit_panel(qtbot, w, 1)
    button = w.workspace.algorithm_panel.link_button("width")
    assert not button.isChecked() and button.toolTip() == UNLINKED_TIP
    click_link(qtbot, w, "width")
    assert button.isChecked() and button.toolTip() == LINKED_TIP
    assert w.pictures.linked == {"width"}
    wait_idle(qtbot, w)
    # linking gave the right panel the middle one's value; the SVD panel has no width
    assert [fitted_width(w, i) for i in range(3)] == [None, 1.0, 1.0]
    assert_no_panel_errors(w)

    edit_panel(qtbot, w, 2)
    assert w.workspace.algorithm_panel.link_button("width").isChecked()
    type_value(qtbot, w, "width", "5")
    wait_idle(qtbot, w)
    assert [fitted_width(w, i) for i in range(3)] == [None, 5.0, 5.0]
    assert caption_width(w, 1) == caption_width(w, 2) == 5.0
    assert_no_panel_errors(w)
    save_and_check(w, "compare-koc-iris-linked-width")

    # an unlinked parameter stays per panel while the width is linked
    type_value(qtbot, w, "width", "5")  # unchanged: no fit
    combo = w.workspace.algorithm_panel.widget("algorithm").combo
    combo.setCurrentIndex(combo.findData("gram-schmidt"))
    wait_idle(qtbot, w)
    assert w.pictures.compare_slots[2].params["algorithm"] == "gram-schmidt"
    assert w.pictures.compare_slots[1].params.get("algorithm", "cholesky") == "cholesky"

    # the SVD panel given an algorithm with a width takes the linked value
    panel0 = w.workspace.compare_view.panels[0]
    panel0.combo.setCurrentIndex(panel0.combo.findData("kpca"))
    panel0.combo.activated.emit(panel0.combo.currentIndex())
    wait_idle(qtbot, w)
    assert fitted_width(w, 0) == 5.0
    assert caption_text(w, 0).startswith("Kernel PCA · Gaussian, c = 5")

    # unlinked, each keeps the value it has and changes alone again
    click_link(qtbot, w, "width")
    assert w.pictures.linked == set()
    type_value(qtbot, w, "width", "0.3")
    wait_idle(qtbot, w)
    assert [fitted_width(w, i) for i in range(3)] == [5.0, 5.0, 0.3]
    assert [caption_width(w, i) for i in range(3)] == [5.0, 5.0, 0.3]


def test_links_show_only_in_the_compare_layout_and_are_saved(koc_iris, qtbot, tmp_path):
    w = koc_iris
    edit_panel(qtbot, w, 1)
    click_link(qtbot, w, "width")
    wait_idle(qtbot, w)
    path = tmp_path / "linked.kfdviz"
    assert w.save_session_file(str(path))
    saved = session.load_session(path)
    assert saved.view_settings["linked_params"] == ["width"]
    # a title is saved while it describes its panel; the right panel's caption is built from
    # its parameters (c = 1 since linking), so its c = 0.01 title is not saved
    assert [p.title for p in saved.panels] == ["Rank-3 SVD", "KOC, Gaussian c = 1 (σ = 1)", ""]

    press_key(qtbot, w, Qt.Key.Key_F6)  # back to the single layout
    assert w.pictures.layout_name == "single"
    assert not w.workspace.algorithm_panel.link_button("width").isVisible()
    w.load_preset("koc-cuboids")
    wait_idle(qtbot, w)
    assert w.pictures.linked == set()
    assert w.open_session_file(str(path))
    wait_idle(qtbot, w)
    assert w.pictures.linked == {"width"}
    edit_panel(qtbot, w, 2)
    assert w.workspace.algorithm_panel.link_button("width").isChecked()
    assert [fitted_width(w, i) for i in range(3)] == [None, 1.0, 1.0]
    assert caption_width(w, 1) == caption_width(w, 2) == 1.0


def test_a_session_linking_a_parameter_no_panel_has_is_refused(koc_iris):
    state = session.with_settings(koc_iris.session_state(), linked_params=["mu"])
    with pytest.raises(session.SessionError, match="links 'mu', which no panel's algorithm has"):
        session.check_state(state)
    state = session.with_settings(koc_iris.session_state(), linked_params="width")
    with pytest.raises(
        session.SessionError, match="allowed: a list of the panels' parameter names"
    ):
        session.check_state(state)


def test_compare_from_a_plain_session_starts_from_its_algorithm(koc_iris, qtbot):
    w = koc_iris
    w.load_preset("default")  # a plain 2-D session, after a compare preset
    wait_idle(qtbot, w)
    assert w.pictures.layout_name == "single"
    panel = w.workspace.algorithm_panel
    panel.combo.setCurrentIndex(panel.combo.findData("kpca"))
    wait_idle(qtbot, w)
    type_value(qtbot, w, "width", "0.3")
    wait_idle(qtbot, w)
    main = w.pictures.main_slot
    assert main.algorithm == "kpca" and main.params["width"] == 0.3

    press_key(qtbot, w, Qt.Key.Key_F6)
    wait_idle(qtbot, w)
    assert w.pictures.layout_name == "compare"
    first = w.pictures.compare_slots[0]
    assert first.algorithm == "kpca" and first.params == main.params
    assert first.result.params["width"] == 0.3
    assert panel.algorithm() == "kpca" and panel.widget("width").value() == 0.3
    assert w.workspace.compare_view.panels[0].combo.currentData() == "kpca"
    assert caption_width(w, 0) == 0.3
    # the level sets in the input space, not the last preset's embeddings
    assert w.pictures.compare_mode == "input"
    assert w.workspace.compare_view.mode.currentData() == "input"
    view = w.workspace.compare_view.panels[0].view
    assert w.workspace.compare_view.panels[0].stack.currentWidget() is view
    assert "svd" not in [s.algorithm for s in w.pictures.shown_compare_slots()]
    assert_no_panel_errors(w)
    # leaving and coming back keeps the panels as they are
    edit_panel(qtbot, w, 1)
    type_value(qtbot, w, "width", "4")
    wait_idle(qtbot, w)
    press_key(qtbot, w, Qt.Key.Key_F6)
    wait_idle(qtbot, w)
    press_key(qtbot, w, Qt.Key.Key_F6)
    wait_idle(qtbot, w)
    assert fitted_width(w, 1) == 4.0 and fitted_width(w, 0) == 0.3
    save_and_check(w, "compare-from-plain-session")


def test_captions_match_the_parameters_on_screen(koc_iris, qtbot):
    w = koc_iris
    edit_panel(qtbot, w, 2)
    type_value(qtbot, w, "width", "0.05")
    wait_idle(qtbot, w)
    edit_panel(qtbot, w, 1)
    type_value(qtbot, w, "width", "2")
    wait_idle(qtbot, w)
    for i in (1, 2):
        assert caption_width(w, i) == fitted_width(w, i)
        assert "σ" not in caption_text(w, i), "no paper's title names a value not drawn"
        # every panel says what its page shows, edited last or not
        assert caption_text(w, i).endswith("— embedding of all points (3 features)")
    pixels = save_and_check(w, "compare-koc-iris-own-widths")
    assert pixels.std() > 0
