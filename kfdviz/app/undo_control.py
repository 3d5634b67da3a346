"""Undo, redo and the history view: the window's face of the document's history.

The history itself is Qt-free (:class:`~kfdviz.app.document.History`); this keeps the Edit
menu's Undo and Redo named after the step they take back or do again ("Undo width c = 2"),
shows the History window (every step, the current one selected; a click goes to any), and, when
undo or redo puts a snapshot of the document back, makes the widgets show it: the points
(through the data model's ``changed``, which refits), the Data panel's split and generator, the
layout, the compare panels and the algorithm panel; then the slots whose setting changed are
fitted again (the fit cache gives back pictures already computed). GUI thread only.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from .document import DocState, Document, Restored, Step, generator_tuple

START = "Start (as opened)"


class HistoryView(QDialog):
    """Every step of the history; the current one selected; a click goes to that step."""

    def __init__(self, parent: QWidget, history):
        super().__init__(parent)
        self.setWindowTitle("History")
        self.history = history
        self.list = QListWidget()
        self.list.setAccessibleName("History")
        self.list.setToolTip("Every change you made; click one to go back (or forward) to it")
        hint = QLabel("Click a step to go back or forward to it; greyed steps were undone.")
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.list, 1)
        self.resize(320, 420)
        self.list.itemClicked.connect(self._clicked)
        self.refresh()

    def refresh(self) -> None:
        h = self.history
        self.list.blockSignals(True)
        self.list.clear()
        for i, text in enumerate([START, *h.texts()]):
            item = QListWidgetItem(text)
            if i > h.index:
                font = QFont(item.font())
                font.setItalic(True)
                item.setFont(font)
                item.setForeground(self.palette().placeholderText())
            self.list.addItem(item)
        self.list.setCurrentRow(h.index)
        self.list.blockSignals(False)

    def _clicked(self, item: QListWidgetItem) -> None:
        self.history.jump(self.list.row(item))


class UndoControl(QObject):
    """Undo, Redo and History of the Edit menu (see the module's docstring)."""

    def __init__(self, window, *, document: Document, data, workspace, fit, actions, status):
        super().__init__(window)
        self.window = window
        self.document = document
        self.history = document.history
        self.data = data
        self.workspace = workspace
        self.fit = fit
        self.actions = actions
        self.status = status
        self.view: HistoryView | None = None
        self.history.listeners.append(self._history_changed)
        document.restored_listeners.append(self._restored)
        self._history_changed()

    # -- the Edit menu ---------------------------------------------------------------------------
    def undo(self) -> None:
        text = self.history.undo_text
        if self.history.undo():
            self.status.show(f"Undid {text}.", kind="info")

    def redo(self) -> None:
        text = self.history.redo_text
        if self.history.redo():
            self.status.show(f"Redid {text}.", kind="info")

    def show_history(self) -> None:
        if self.view is None:
            self.view = HistoryView(self.window, self.history)
        self.view.refresh()
        self.view.show()
        self.view.raise_()

    def _history_changed(self) -> None:
        h = self.history
        for name, can, text in (
            ("undo", h.can_undo, h.undo_text),
            ("redo", h.can_redo, h.redo_text),
        ):
            action = self.actions[name]
            word = "Undo" if name == "undo" else "Redo"
            action.setEnabled(can)
            action.setText(f"{word} {text}" if can else word)
            action.setIconText(word)  # the toolbar's button keeps its width; its tip names it
            shortcut = action.shortcut().toString()
            tip = f"{word} {text}" if can else f"Nothing to {word.lower()}"
            action.setToolTip(f"{tip} ({shortcut})" if shortcut else tip)
            action.setStatusTip(tip)
        if self.view is not None:
            self.view.refresh()

    # -- showing a snapshot put back ------------------------------------------------------------
    def _restored(self, state: DocState, _step: Step, restored: Restored) -> None:
        ws = self.workspace
        panel = ws.data_panel
        panel.set_test_ratio(state.test_ratio)
        panel.set_regression(state.mode == "regression")
        # the box is shown by the window's own listener (after this one); a change refits
        restandardized = panel.standardize.isChecked() != state.standardize
        generator = generator_tuple(state.generator)
        if generator is not None:
            panel.set_generator(*generator)
        self.actions.set_checked_quietly("svr", state.with_svr)
        self._show_pictures(restored.layout)  # first: a fit reads the algorithm panel
        if restored.data is not None:
            self.data.restored(restored.data)  # redraws the points and refits the layout
        names = self.document.pictures.layout_slot_names()
        if restored.data is None:
            wanted = [s for s in restored.slots if s in names]
            if restored.layout or restandardized:
                wanted = names
            if wanted:
                self.fit.request_fit(slots=wanted)

    def _show_pictures(self, layout_changed: bool) -> None:
        """Show the layout, the compare panels and the algorithm panel as the document has
        them now: nothing here changes them."""
        ws, p = self.workspace, self.document.pictures
        compare_shown = ws.central.currentWidget() is not ws.single_page
        if layout_changed or (p.layout_name == "compare") != compare_shown:
            ws.set_layout(p.layout_name, fit=False)
        elif p.layout_name == "compare":
            view = ws.compare_view
            view.set_mode(p.compare_mode)
            view.set_count(p.compare_count)
            view.show_slots(p.shown_compare_slots(), p.compare_mode)
            ws.activate_compare_panel(p.active_compare, refit=False)
            ws.compare_mode_shown()
        else:
            ws.bind_panel(p.main_slot)


__all__ = ["START", "HistoryView", "UndoControl"]
