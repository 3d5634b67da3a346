"""The document's history, without a window: steps, merging, nesting, names, limits."""

from __future__ import annotations

import numpy as np

from kfdviz.app import document
from kfdviz.app.document import Document


def _add(doc: Document, x: float, merge=None) -> None:
    with doc.history.group("Add point", merge=merge):
        doc.dataset.add([[x, 0.0]], 0)


def _width(doc: Document, value: float, merge=None) -> None:
    with doc.history.group(merge=merge):
        doc.pictures.main_slot.set_setting(params={**doc.pictures.main_slot.params, "width": value})


def test_undo_and_redo_walk_the_steps_in_order():
    doc = Document()
    h = doc.history
    states = [doc.state()]
    _add(doc, 1.0)
    states.append(doc.state())
    _width(doc, 2.0)
    states.append(doc.state())
    _add(doc, 3.0)
    states.append(doc.state())
    assert h.texts() == ["Add point", "width c = 2", "Add point"]
    for i in (2, 1, 0):
        assert h.undo()
        assert doc.state() == states[i]
    assert not h.undo()
    for i in (1, 2, 3):
        assert h.redo()
        assert doc.state() == states[i]
    h.jump(1)
    assert doc.state() == states[1] and h.index == 1
    _width(doc, 5.0)  # a new step drops the ones undone
    assert h.texts() == ["Add point", "width c = 5"] and not h.can_redo


def test_groups_nest_and_merge_and_no_change_is_no_step():
    doc = Document()
    h = doc.history
    with h.group("Generate"):
        _add(doc, 1.0)
        _width(doc, 0.5)
    assert h.texts() == ["Generate"]
    for value in (1.0, 1.5, 2.0):
        _width(doc, value, merge="drag")
    assert h.texts() == ["Generate", "width c = 2"]
    _width(doc, 2.0)
    assert h.index == 2, "setting the value it has is no step"
    h.undo()
    assert doc.pictures.main_slot.params["width"] == 0.5
    _width(doc, 3.0, merge="drag")  # after an undo nothing merges into the step undone
    assert h.texts() == ["Generate", "width c = 3"]


def test_a_snapshot_shares_the_points_and_undo_puts_them_back_exactly():
    doc = Document()
    for x in range(5):
        _add(doc, float(x))
    before = doc.state()
    with doc.history.group("Split"):
        doc.dataset.split(0.4, 1)
    assert doc.state().X is before.X, "a roles change keeps the points' array"
    doc.history.undo()
    np.testing.assert_array_equal(doc.dataset.X, before.X)
    np.testing.assert_array_equal(doc.dataset.test_mask, before.test)
    assert doc.state() == before


def test_the_history_keeps_its_limit(monkeypatch):
    monkeypatch.setattr(document, "HISTORY_LIMIT", 5)
    doc = Document()
    for x in range(8):
        _add(doc, float(x))
    assert doc.history.index == 5
    while doc.history.undo():
        pass
    assert doc.dataset.n_points == 3


def test_steps_are_named_by_what_changed():
    doc = Document()
    before = doc.state()
    doc.pictures.main_slot.set_setting(algorithm="kpca", params={})
    assert document.describe(before, doc.state()) == "algorithm Kernel PCA"
    before = doc.state()
    doc.pictures.set_view(layout_name="compare")
    assert document.describe(before, doc.state()) == "Compare on"
    before = doc.state()
    doc.pictures.set_link("width", True)
    assert document.describe(before, doc.state()) == "Link width"
    assert document.short_label("Width c") == "width c"
    assert document.short_label("C") == "C" and document.short_label("μ") == "μ"
