"""Every control of the window can be found by name, and Tab goes through the docks in order.

The real window at 1280 × 800: every control Tab can reach has a non-empty accessible name (what
a screen reader says, what UI automation finds), a parameter's controls are named as its row is
labelled ("Width c"; "Panel 2 Width c" while the algorithm panel edits compare panel 2), and
the focus chain visits the Data dock, the Algorithm dock, the pictures and the right-hand docks
in that order.
"""

from __future__ import annotations

import pytest
from gui_helpers import named, wait_idle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QToolButton,
    QWidget,
)

from kfdviz.app.params import accessible_name

pytestmark = pytest.mark.gui


def _control(widget: QWidget) -> QWidget:
    """The control a focusable widget is part of: a spin box's field is the spin box, a
    scroll area's viewport the scroll area."""
    parent = widget.parentWidget()
    if isinstance(parent, QAbstractSpinBox):
        return parent
    if isinstance(parent, QAbstractScrollArea) and parent.viewport() is widget:
        return parent
    return widget


def _reachable(w) -> list[QWidget]:
    return [
        c
        for c in w.findChildren(QWidget)
        if c.focusPolicy() & Qt.FocusPolicy.TabFocus
        and c.isVisibleTo(w)
        and c.isEnabled()
        and c.window() is w
    ]


def _unnamed(w) -> list[str]:
    return [
        f"{type(c).__name__} in {type(c.parentWidget()).__name__}"
        for c in map(_control, _reachable(w))
        if not accessible_name(c).strip()
    ]


def _labels_match(w, prefix: str) -> None:
    """Each parameter row's controls are named as the row is labelled (with ``prefix``)."""
    panel = w.workspace.algorithm_panel
    for p in panel.spec().params:
        label, field = panel._rows[p.name]
        if field.isHidden():
            continue
        text = label.text() if isinstance(label, QLabel) and label.text() else p.label or p.name
        editors = [
            c for c in field.findChildren(QWidget) if c.focusPolicy() != Qt.FocusPolicy.NoFocus
        ]
        for c in editors:
            if isinstance(c, QToolButton) and c.objectName().startswith("link-"):
                assert c.accessibleName() == f"{prefix}Link {text}"
            else:
                assert c.accessibleName().startswith(prefix + text), (c, c.accessibleName())


def test_every_control_has_a_name(window, qtbot):
    w = window
    assert w.size().width() == 1280 and w.size().height() == 800
    assert not _unnamed(w), _unnamed(w)
    for name, kind in [
        ("Width c", QLineEdit),
        ("Width c", QSlider),
        ("μ", QLineEdit),
        ("Algorithm", QComboBox),
        ("Show", QComboBox),
        ("Points", QAbstractSpinBox),
        ("Generate", QPushButton),
        ("Add", QToolButton),
        ("Erase", QToolButton),
        ("Class 1", QToolButton),
        ("Train / test split", QSlider),
    ]:
        named(w, name, kind)
    _labels_match(w, "")
    combo = named(w, "Algorithm", QComboBox)
    for key in ("kpca", "svm", "koc"):
        combo.setCurrentIndex(combo.findData(key))
        assert not _unnamed(w), (key, _unnamed(w))
        _labels_match(w, "")
    w.action_table["compare"].trigger()
    wait_idle(qtbot, w)
    assert not _unnamed(w), _unnamed(w)
    qtbot.mouseClick(named(w, "Panel 2 Edit", QPushButton), Qt.MouseButton.LeftButton)
    named(w, "Panel 2 Width c", QLineEdit)
    named(w, "Panel 2 Algorithm", QComboBox)
    _labels_match(w, "Panel 2 ")
    assert not _unnamed(w), _unnamed(w)
    wait_idle(qtbot, w)


def _region(w, widget: QWidget) -> int:
    """Where ``widget`` is, in the order Tab should visit: 0 Data, 1 Algorithm, 2 the
    pictures, 3 the right-hand docks."""
    ws = w.workspace
    order = [
        [ws.data_dock],
        [ws.algorithm_dock],
        [ws.central],
        [ws.outputs_dock, ws.embedding_dock, ws.diagnostics_dock, ws.sweep_dock],
    ]
    for i, parents in enumerate(order):
        if any(p is widget or p.isAncestorOf(widget) for p in parents):
            return i
    return len(order)


@pytest.mark.parametrize("layout", ["single", "compare"])
def test_tab_goes_through_the_docks_top_to_bottom(window, qtbot, layout):
    w = window
    if layout == "compare":
        w.action_table["compare"].trigger()
        wait_idle(qtbot, w)
    start = w.workspace.data_dock.widget()  # the Data dock's scroll area, the first stop
    regions, widget = [], start
    for _ in range(1000):
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisibleTo(w):
            regions.append(_region(w, widget))
        widget = widget.nextInFocusChain()
        if widget is start:
            break
    inside = [r for r in regions if r < 4]
    assert inside == sorted(inside), inside
    assert set(inside) == {0, 1, 2} | ({3} if layout == "single" else set())
