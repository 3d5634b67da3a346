"""Presentation mode: full screen, big type and thick lines, a deck of presets stepped by keys.

F5 (or View → Presentation) puts the window in full screen with the docks, the toolbar, the menu
and the status bar hidden, and everything drawn larger: axis text of 20 pt and more, thick level
sets and boundaries, big markers — readable from the back of a lecture hall. The deck (an ordered
list of presets, edited in a small dialog, kept in the settings and in ``.kfddeck`` files) is
stepped with the keys a clicker sends: Right, Down, PageDown or Space for the next slide, Left,
Up or PageUp for the previous one, Home and End for the first and the last. Esc (or F5) leaves,
and the window comes back exactly as it was: docks, geometry, the user's points with their undo
history, the algorithms and their parameters, the zoom.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .. import deck as decks
from .. import presets
from .file_dialogs import ask_open_path, ask_save_path

SCALE = 2.3  # 9 pt axis text becomes 20.7 pt; lines and markers grow alike
NEXT_KEYS = {Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_Space}
PREVIOUS_KEYS = {Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_PageUp}
SLIDE_KEYS = NEXT_KEYS | PREVIOUS_KEYS | {Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Escape}
DECK_FILTER = f"kfdviz decks (*{decks.SUFFIX});;All files (*)"


class _SlideKeys(QObject):
    """Takes the slide keys before any widget or shortcut sees them (while presenting)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if event.key() not in SLIDE_KEYS:
            return False
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods != Qt.KeyboardModifier.NoModifier:
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self.window:
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut (Esc cancels fits otherwise): the key press comes next
            return True
        self.window.slide_key(event.key())
        return True


class SlideCounter(QLabel):
    """A small "3 / 12" in the bottom right corner."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("slideCounter")
        font = QFont(self.font())
        font.setPointSizeF(11)
        self.setFont(font)
        self.setStyleSheet("color: rgba(128, 128, 128, 170); background: transparent;")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()

    def show_slide(self, index: int, count: int, title: str = "") -> None:
        self.setText(f"{index + 1} / {count}")
        self.setToolTip(title)
        self.adjustSize()
        self.place()
        self.show()
        self.raise_()

    def place(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.move(parent.width() - self.width() - 14, parent.height() - self.height() - 8)


class DeckDialog(QDialog):
    """Edit the deck: add, remove and reorder presets; load and save ``.kfddeck`` files."""

    deck_chosen = Signal(list)

    def __init__(self, parent: QWidget | None, names: list[str]):
        super().__init__(parent)
        self.setWindowTitle("Presentation deck")
        self.setObjectName("deckDialog")
        self.list = QListWidget()
        self.list.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        self.choice = QComboBox()
        for name in presets.names():
            self.choice.addItem(f"{name} — {presets.get(name).title}", name)
        add = QPushButton("Add")
        add.clicked.connect(lambda: self.add(self.choice.currentData()))
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(lambda: self.remove_row(self.list.currentRow()))
        up = QPushButton("Up")
        up.clicked.connect(lambda: self.move(self.list.currentRow(), -1))
        down = QPushButton("Down")
        down.clicked.connect(lambda: self.move(self.list.currentRow(), 1))
        default = QPushButton("Papers' figures")
        default.setToolTip("The papers' figures in the order of the figure table")
        default.clicked.connect(lambda: self.set_names(decks.default_deck()))
        load = QPushButton("Open…")
        load.clicked.connect(self._open)
        save = QPushButton("Save…")
        save.clicked.connect(self._save)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        side = QVBoxLayout()
        for b in (self.remove_button, up, down, default, load, save):
            side.addWidget(b)
        side.addStretch(1)
        middle = QHBoxLayout()
        middle.addWidget(self.list, 1)
        middle.addLayout(side)
        adding = QHBoxLayout()
        adding.addWidget(self.choice, 1)
        adding.addWidget(add)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(middle, 1)
        layout.addLayout(adding)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.resize(640, 420)
        self.set_names(names)

    def names(self) -> list[str]:
        return [self.list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.list.count())]

    def set_names(self, names) -> None:
        self.list.clear()
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        item = QListWidgetItem(f"{name} — {presets.get(name).title}")
        item.setData(Qt.ItemDataRole.UserRole, name)
        self.list.addItem(item)
        self.list.setCurrentRow(self.list.count() - 1)

    def remove_row(self, row: int) -> None:
        if 0 <= row < self.list.count():
            self.list.takeItem(row)

    def move(self, row: int, delta: int) -> None:
        target = row + delta
        if 0 <= row < self.list.count() and 0 <= target < self.list.count():
            item = self.list.takeItem(row)
            self.list.insertItem(target, item)
            self.list.setCurrentRow(target)

    def save_to(self, path) -> bool:
        try:
            decks.save_deck(path, self.names())
        except (decks.DeckError, OSError) as exc:
            self.message.setText(f"Could not save the deck: {exc}")
            return False
        self.message.setText(f"Saved {Path(path).name}")
        return True

    def load_from(self, path) -> bool:
        try:
            names = decks.load_deck(path)
        except decks.DeckError as exc:
            self.message.setText(f"Could not open the deck: {exc}")
            return False
        self.set_names(names)
        self.message.setText(f"Opened {Path(path).name}")
        return True

    def _open(self) -> None:
        path = ask_open_path(self, "Open deck", DECK_FILTER, self._settings())
        if path:
            self.load_from(path)

    def _save(self) -> None:
        path = ask_save_path(
            self, "Save deck", f"deck{decks.SUFFIX}", DECK_FILTER, self._settings()
        )
        if path:
            if not path.endswith(decks.SUFFIX):
                path += decks.SUFFIX
            self.save_to(path)

    def _settings(self):
        """The window's settings (where its file dialogs last were), if it has any."""
        return getattr(self.parent(), "settings", None)

    def _accept(self) -> None:
        try:
            names = decks.check_deck(self.names())
        except decks.DeckError as exc:
            self.message.setText(str(exc))
            return
        self.deck_chosen.emit(names)
        self.accept()


class PresentationMixin:
    """The main window's presentation mode and deck."""

    presenting = False
    slide_index = 0
    _slide_pending = False
    _state_after_resize = None

    # -- the deck ------------------------------------------------------------------------------
    def deck(self) -> list[str]:
        """The deck in the settings, or the papers' figures."""
        text = self._setting("deck", "")
        try:
            return decks.check_deck(json.loads(text)) if text else decks.default_deck()
        except (ValueError, TypeError):
            return decks.default_deck()

    def set_deck(self, names) -> None:
        names = decks.check_deck(list(names))
        self._deck_override = names
        if self.settings is not None:
            self.settings.setValue("deck", json.dumps(names))
        if self.presenting:
            self.go_to_slide(min(self.slide_index, len(names) - 1))

    def _slides(self) -> list[str]:
        override = getattr(self, "_deck_override", None)
        return list(override) if override else self.deck()

    def edit_deck(self) -> DeckDialog:
        dialog = DeckDialog(self, self._slides())
        dialog.deck_chosen.connect(self.set_deck)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    # -- entering and leaving ------------------------------------------------------------------
    def toggle_presentation(self) -> None:
        if self.presenting:
            self.leave_presentation()
        else:
            self.enter_presentation()

    def enter_presentation(self, start: int = 0) -> None:
        if self.presenting:
            return
        slides = self._slides()
        if self.autosaver is not None:
            self.autosaver.save_now()
            self.autosaver.pause(True)
        self._before_presentation = self._snapshot()
        self._state_after_resize = None
        self.presenting = True
        self._hide_chrome()
        self._set_view_scale(SCALE, presenting=True)
        self.presentation_action.blockSignals(True)
        self.presentation_action.setChecked(True)
        self.presentation_action.blockSignals(False)
        screen = self.screen()
        if screen is not None:
            # Without a window manager (a bare X server) full screen is only a flag: take the
            # screen's size first.
            self.setGeometry(screen.geometry())
        self.showFullScreen()
        self._slide_keys = _SlideKeys(self)
        QApplication.instance().installEventFilter(self._slide_keys)
        self.slide_index = -1
        self.go_to_slide(max(0, min(start, len(slides) - 1)))

    def leave_presentation(self) -> None:
        if not self.presenting:
            return
        QApplication.instance().removeEventFilter(self._slide_keys)
        self._slide_keys.deleteLater()
        self._slide_keys = None
        self.presenting = False
        self.slide_counter.hide()
        self._set_view_scale(1.0, presenting=False)
        self._restore(self._before_presentation)
        self._before_presentation = None
        self.presentation_action.blockSignals(True)
        self.presentation_action.setChecked(False)
        self.presentation_action.blockSignals(False)
        if self.autosaver is not None:
            self.autosaver.pause(False)

    # -- stepping ------------------------------------------------------------------------------
    def slide_key(self, key) -> None:
        if key == Qt.Key.Key_Escape:
            self.leave_presentation()
        elif key in NEXT_KEYS:
            self.next_slide()
        elif key in PREVIOUS_KEYS:
            self.previous_slide()
        elif key == Qt.Key.Key_Home:
            self.go_to_slide(0)
        elif key == Qt.Key.Key_End:
            self.go_to_slide(len(self._slides()) - 1)

    def next_slide(self) -> None:
        self.go_to_slide(min(self.slide_index + 1, len(self._slides()) - 1))

    def previous_slide(self) -> None:
        self.go_to_slide(max(self.slide_index - 1, 0))

    def go_to_slide(self, index: int) -> None:
        slides = self._slides()
        if not self.presenting or not slides or index == self.slide_index:
            return
        self.slide_index = index
        name = slides[index]
        # Fit once the slide's layout has its final size, so the picture fills its plots.
        self._slide_pending = True
        self.load_preset(name)
        self._hide_chrome()  # a change of layout brings back docks it had put away
        if self.sweep_spec is not None:
            self.sweep_dock.show()  # the slide's figure is the sweep's curves
        self._set_view_scale(SCALE, presenting=True)
        self.slide_counter.show_slide(index, len(slides), presets.get(name).title)
        QTimer.singleShot(0, self._settle_slide)

    def _settle_slide(self) -> None:
        if not self._slide_pending:
            return
        self._slide_pending = False
        if not self.presenting or self._closing:
            return
        if self.sweep_spec is not None:
            # the sweep's curves are half of this slide
            self.resizeDocks([self.sweep_dock], [self.height() * 9 // 20], Qt.Orientation.Vertical)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self._reframe()
        self.request_fit(now=True, slots=self._layout_slot_names())

    # -- the window around the slides ----------------------------------------------------------
    def _docks(self) -> list:
        return [
            self.data_dock,
            self.algorithm_dock,
            self.outputs_dock,
            self.embedding_dock,
            self.diagnostics_dock,
            self.sweep_dock,
        ]

    def _hide_chrome(self) -> None:
        for dock in self._docks():
            dock.hide()
        self.toolbar.hide()
        self.menuBar().hide()
        self.statusBar().hide()
        self.recovery_banner.hide()

    def _set_view_scale(self, scale: float, *, presenting: bool) -> None:
        self.input_view.set_scale(scale)
        self.input3d.set_scale(scale)
        self.sweep_panel.set_scale(scale)
        self.sweep_panel.run_button.setVisible(not presenting)
        if self._compare_view is not None:
            self._compare_view.set_scale(scale, presenting=presenting)

    def _snapshot(self) -> dict:
        """Everything presentation mode changes, to put back when it ends."""
        (x0, x1), (y0, y1) = self.input_view.viewbox.viewRange()
        return {
            "geometry": self.saveGeometry(),
            "size": self.size(),
            "state": self.saveState(),
            "window_state": self.windowState(),
            "sweep_dock": self.sweep_dock.toggleViewAction().isChecked(),
            "toolbar": self.toolbar.isVisible(),
            "banner": self.recovery_banner.isVisible(),
            "data": self.data.detach(),
            "regression": self.data.regression,
            "layout": self.layout_name,
            "main_slot": copy.copy(self.main_slot),
            "compare_slots": [copy.copy(s) for s in self.compare_slots],
            "compare_count": self.compare_count,
            "compare_mode": self.compare_mode,
            "active_compare": self.active_compare,
            "docks_before_compare": self._docks_before_compare,
            "generator": self._generator_state,
            "with_svr": self.with_svr,
            "view_settings": dict(self._view_settings),
            "preset": self.preset_name,
            "sweep": (self.sweep_spec, self.sweep_result),
            "title": self.windowTitle(),
            "split": (self.data.test_ratio(), self.data.split_seed()),
            "range": ((x0, x1), (y0, y1)),
            "status": self.last_status,
        }

    def _restore(self, snap: dict) -> None:
        # No fit while the window changes back (a resize asks for one): the slide's fits are
        # cancelled, and the user's pictures are still valid.
        self._slide_pending = True
        self._debounce.stop()
        self.worker.cancel()
        self.cancel_sweep()
        # the window first: its size decides the picture's box
        if snap["window_state"] & Qt.WindowState.WindowFullScreen:
            self.showFullScreen()
        elif snap["window_state"] & Qt.WindowState.WindowMaximized:
            self.showMaximized()
        else:
            self.showNormal()
        self.restoreGeometry(snap["geometry"])
        self.menuBar().show()
        self.statusBar().show()
        self.toolbar.setVisible(snap["toolbar"])
        self.recovery_banner.setVisible(snap["banner"])
        # the picture
        self.main_slot = snap["main_slot"]
        self.compare_slots = snap["compare_slots"]
        self.compare_count = snap["compare_count"]
        self.compare_mode = snap["compare_mode"]
        self.active_compare = snap["active_compare"]
        self._generator_state = snap["generator"]
        self.with_svr = snap["with_svr"]
        self.svr_action.blockSignals(True)
        self.svr_action.setChecked(self.with_svr)
        self.svr_action.blockSignals(False)
        self._view_settings = snap["view_settings"]
        self.apply_view_settings(self._view_settings)
        self.preset_name = snap["preset"]
        self.setWindowTitle(snap["title"])
        if self._generator_state is not None:
            name, params, seed = self._generator_state
            self.data_panel.set_generator(name, dict(params), seed)
        ratio, seed = snap["split"]
        self.data_panel.set_test_ratio(ratio)
        self.data_panel.set_regression(snap["regression"])
        self.algorithm_panel.blockSignals(True)
        self.algorithm_panel.set_mode("regression" if snap["regression"] else "classification")
        self.algorithm_panel.blockSignals(False)
        if self._compare_view is not None:
            self._compare_view.set_mode(self.compare_mode)
        self._docks_before_compare = None
        self.set_layout(snap["layout"], fit=False)
        self._docks_before_compare = snap["docks_before_compare"]
        # The docks after the user's layout: with a slide's compare panels still setting the
        # central area's minimum, the docks' widths widened the window (1200 px became 1263).
        self.restoreState(snap["state"])
        if self.size() != snap["size"]:
            # The window system resizes the window later: the docks' sizes are relative to the
            # window's, so lay them out again once it has its size.
            self._state_after_resize = (snap["size"], snap["state"])
        # the fits of the user's data are still there: show them, no refit
        self.data.attach(snap["data"], notify=False)
        self._refresh_points(reframe=True)
        self._relayout_plots()
        self._slide_pending = False
        self._debounce.stop()
        self._dirty.clear()
        for name in self._layout_slot_names():
            slot = self.slot(name)
            if slot.result is not None:
                self._drawn_version[name] = self.data.version
                self._draw(slot.result)
        self.sweep_spec, self.sweep_result = snap["sweep"]
        self._sweep_version = self.data.version
        self._show_sweep()
        self.sweep_dock.setVisible(snap["sweep_dock"])  # restoreState put back the others
        (x0, x1), (y0, y1) = snap["range"]
        self.input_view.viewbox.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0.0)
        kind, text = snap["status"]
        self._show_status(text, kind=kind)
        if not all(self.slot(n).result is not None for n in self._layout_slot_names()):
            self.request_fit(now=True)

    def _relayout_plots(self) -> None:
        """Fit every plot's scene to its widget again. A plot that shrank while its large
        presentation-size text still set its minimum keeps the larger scene otherwise."""
        import pyqtgraph as pg

        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for view in self.findChildren(pg.GraphicsView):
            view.resizeEvent(None)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        pending = getattr(self, "_state_after_resize", None)
        if pending is not None and not self.presenting and event.size() == pending[0]:
            self._state_after_resize = None
            self.restoreState(pending[1])
        counter = getattr(self, "slide_counter", None)
        if counter is not None:
            counter.place()


__all__ = ["SCALE", "DeckDialog", "PresentationMixin", "SlideCounter"]
