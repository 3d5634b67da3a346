"""Names and Tab order of the workspace's controls.

Every control Tab reaches has an accessible name (what a screen reader says, what UI automation
finds): the controls of a panel are named as labelled there (``params.py``, ``data_panel.py``,
``compare.py``); the plots, tables and scroll areas get the name of the dock or view they are
in. Tab goes through the docks top to bottom, left to right: Data, Algorithm, the pictures,
Outputs, Embedding, Diagnostics, Sweep, the charts. The algorithm panel's widgets are made anew
for each algorithm, so the order is set again each time (:meth:`Workspace.order_tabs`).
"""

from __future__ import annotations

import itertools

from PySide6.QtWidgets import QTabBar, QWidget

from .params import name_unnamed, tab_focusable


def name_views(ws, data_scroll: QWidget, algorithm_scroll: QWidget) -> None:
    """Name the workspace's plots, tables and scroll areas after their dock or view."""
    for widget, name in (
        (data_scroll, "Data"),
        (algorithm_scroll, "Algorithm panel"),
        (ws.input_view, "Input space"),
        (ws.input3d, "3-D view"),
        (ws.outputs_view, "Outputs"),
        (ws.embedding_view, "Embedding"),
        (ws.diagnostics_view, "Diagnostics"),
        (ws.sweep_panel, "Sweep"),
        (ws.chart_view, "Charts"),
    ):
        name_unnamed(widget, name)


def order_tabs(ws) -> None:
    """Tab through the workspace ``ws`` dock by dock (see the module's docstring)."""
    chain = tab_focusable(ws.data_dock.widget())
    chain += [ws.algorithm_dock.widget(), *ws.algorithm_panel.tab_chain()]
    chain += tab_focusable(ws.central)
    for dock in (ws.outputs_dock, ws.embedding_dock, ws.diagnostics_dock, ws.sweep_dock):
        chain += tab_focusable(dock.widget())
    chain += tab_focusable(ws.chart_view)
    for first, second in itertools.pairwise(chain):
        QWidget.setTabOrder(first, second)
    window = ws.window
    for bar in window.findChildren(QTabBar):  # the tabs of docks stacked together
        if bar.parent() is window and not bar.accessibleName():
            bar.setAccessibleName("Docks")


__all__ = ["name_views", "order_tabs"]
