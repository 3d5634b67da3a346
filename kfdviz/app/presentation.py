"""Presentation mode: full screen, big type and thick lines, a deck of presets stepped by keys.

F5 (or View → Presentation) puts the window in full screen with the docks, the toolbar, the menu
and the status bar hidden, and everything drawn larger: axis text of 20 pt and more, thick level
sets and boundaries, big markers — readable from the back of a lecture hall. The first slide is
the picture on screen (its data, algorithms and parameters, titled by the algorithm and the data
set), the deck's presets follow (an ordered list, edited in a small dialog, kept in the settings
and in ``.kfddeck`` files). The slides are stepped with the keys a clicker sends: Right, Down,
PageDown or Space for the next slide, Left, Up or PageUp for the previous one, Home and End for
the first and the last. B or . blacks the screen and W or , whites it (the keys clickers and
slide programs use to take the audience's eyes off the screen); any key brings the slide back.
While a slide is shown, the next one's pictures are computed (slide_prefetch.py), so stepping
shows them at once. Esc (or F5) leaves, and the window comes back exactly as it was: docks,
geometry, the user's points with their undo history, the algorithms and their parameters, the
zoom and the pictures (not refitted when nothing changed).
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .. import datasets, presets
from .. import deck as decks
from ..estimators import registry
from .file_dialogs import ask_open_path, ask_save_path
from .slide_prefetch import SlidePrefetch

TITLE_POINTS = 26.0  # the slide's title
COUNTER_POINTS = 20.0  # the slide counter
SCALE = 2.3  # 9 pt axis text becomes 20.7 pt; lines and markers grow alike
NEXT_KEYS = {Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_PageDown, Qt.Key.Key_Space}
PREVIOUS_KEYS = {Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_PageUp}
BLACK_KEYS = {Qt.Key.Key_B, Qt.Key.Key_Period}
WHITE_KEYS = {Qt.Key.Key_W, Qt.Key.Key_Comma}
SLIDE_KEYS = (
    NEXT_KEYS
    | PREVIOUS_KEYS
    | BLACK_KEYS
    | WHITE_KEYS
    | {Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Escape}
)
DECK_FILTER = f"kfdviz decks (*{decks.SUFFIX});;All files (*)"


def picture_title(pictures, generator) -> str:
    """The title of the slide showing the picture on screen: its algorithms, and the data set
    its points were generated as (``generator``: (name, params, seed) or None)."""
    if pictures.layout_name == "compare":
        slots = pictures.shown_compare_slots()
    else:
        slots = [pictures.main_slot]
    names = [
        registry.get(s.algorithm).title if s.algorithm in registry.ALGORITHMS else s.algorithm
        for s in slots
    ]
    what = " versus ".join(dict.fromkeys(names))
    if generator is None:
        return what
    try:
        data_name = datasets.describe(generator[0])["title"]
    except (KeyError, ValueError):
        return what
    return f"{what} — {data_name}"


class _SlideKeys(QObject):
    """Takes the slide keys before any widget or shortcut sees them (while presenting) and
    hands them to ``slide_key``; while the screen is blank (``blank``), every key."""

    def __init__(self, window, slide_key, blank):
        super().__init__(window)
        self.window = window
        self.slide_key = slide_key
        self.blank = blank

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress):
            return False
        if not isinstance(obj, QWidget) or obj.window() is not self.window:
            return False
        if self.blank.isVisible():
            if event.key() in _MODIFIER_KEYS:
                return False
            if kind == QEvent.Type.KeyPress and not event.isAutoRepeat():
                self.blank.hide()  # any key: the slide again, nothing else
            event.accept()
            return True
        if event.key() not in SLIDE_KEYS:
            return False
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods != Qt.KeyboardModifier.NoModifier:
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut (Esc cancels fits otherwise): the key press comes next
            return True
        self.slide_key(event.key())
        return True


_MODIFIER_KEYS = {
    Qt.Key.Key_Shift,
    Qt.Key.Key_Control,
    Qt.Key.Key_Alt,
    Qt.Key.Key_Meta,
    Qt.Key.Key_AltGr,
}


class SlideBlank(QWidget):
    """The whole window in one colour (black or white), over everything, while the audience
    should look at the lecturer instead."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("slideBlank")
        self.setAutoFillBackground(True)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground, False)
        self.hide()

    def show_colour(self, colour: QColor) -> None:
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, colour)
        self.setPalette(palette)
        self.setGeometry(self.parentWidget().rect())
        self.show()
        self.raise_()


class SlideTitle(QLabel):
    """The slide's title, in large type above the plots (shown only while presenting)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("slideTitle")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        font = QFont(self.font())
        font.setPointSizeF(TITLE_POINTS)
        font.setBold(True)
        self.setFont(font)
        self.hide()


class SlideCounter(QLabel):
    """The "3 / 12" in the bottom right corner, readable from the back of a lecture hall."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("slideCounter")
        font = QFont(self.font())
        font.setPointSizeF(COUNTER_POINTS)
        font.setBold(True)
        self.setFont(font)
        self.setStyleSheet("color: rgba(110, 110, 110, 230); background: transparent;")
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


class Presenter(QObject):
    """Presentation mode and its deck (see the module's docstring)."""

    def __init__(
        self,
        window: QMainWindow,
        *,
        workspace,
        pictures,
        data,
        fit,
        files,
        sweep,
        status,
        autosave,
        actions,
        toolbar,
        stored,
    ):
        """``files``: the session actions (load_preset, the document on screen); ``stored``:
        the window's StoredSettings (where the deck is kept)."""
        super().__init__(window)
        self.window = window
        self.workspace = workspace
        self.pictures = pictures
        self.data = data
        self.fit = fit
        self.files = files
        self.sweep = sweep
        self.status = status
        self.autosave = autosave
        self.actions = actions
        self.toolbar = toolbar
        self.stored = stored
        self.presenting = False
        self.slide_index = 0
        self.slide_counter = SlideCounter(window)
        self.blank = SlideBlank(window)
        self.prefetch = SlidePrefetch(self, worker=fit.worker)
        fit.all_drawn.connect(self._slide_drawn)
        self.slide_title = SlideTitle()
        workspace.add_banner(self.slide_title)
        self._deck_override: list[str] | None = None
        self._before: dict | None = None
        # Whether the user's points are the data model's (slide 0), and the data version they
        # were shown at: a later version means they were edited while presenting.
        self._user_shown = False
        self._user_version = -1
        self._user_edited = False
        self._slide_keys: _SlideKeys | None = None
        self._state_after_resize = None

    # -- the deck ------------------------------------------------------------------------------
    def deck(self) -> list[str]:
        """The deck in the settings, or the papers' figures."""
        return self.stored.deck() or decks.default_deck()

    def set_deck(self, names) -> None:
        names = decks.check_deck(list(names))
        self._deck_override = names
        self.stored.save(deck=names)
        if self.presenting:
            index = min(self.slide_index, len(names))
            if index == self.slide_index:
                self._show_counter()
            else:
                self.go_to_slide(index)

    def slides(self) -> list[str]:
        """The deck's presets (the slides after the first, the picture on screen)."""
        return list(self._deck_override) if self._deck_override else self.deck()

    def slide_count(self) -> int:
        """The picture on screen, then the deck's presets."""
        return len(self.slides()) + 1

    def edit_deck(self) -> DeckDialog:
        dialog = DeckDialog(self.window, self.slides())
        dialog.deck_chosen.connect(self.set_deck)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    # -- entering and leaving ------------------------------------------------------------------
    def toggle(self, _on: bool = False) -> None:
        if self.presenting:
            self.leave()
        else:
            self.enter()

    def enter(self, start: int = 0) -> None:
        if self.presenting:
            return
        w = self.window
        self.autosave.pause(True)
        self._before = self._snapshot()
        self._user_shown, self._user_version, self._user_edited = True, self.data.version, False
        self._state_after_resize = None
        self.presenting = True
        self._hide_chrome()
        self.workspace.set_view_scale(SCALE, presenting=True)
        self.actions.set_checked_quietly("presentation", True)
        screen = w.screen()
        if screen is not None:
            # Without a window manager (a bare X server) full screen is only a flag: take the
            # screen's size first.
            w.setGeometry(screen.geometry())
        w.showFullScreen()
        self.prefetch.start()
        self._slide_keys = _SlideKeys(w, self.slide_key, self.blank)
        QApplication.instance().installEventFilter(self._slide_keys)
        self.slide_index = -1
        self.go_to_slide(max(0, min(start, self.slide_count() - 1)))

    def leave(self) -> None:
        if not self.presenting:
            return
        QApplication.instance().removeEventFilter(self._slide_keys)
        self._slide_keys.deleteLater()
        self._slide_keys = None
        self.presenting = False
        self.prefetch.stop()
        self.blank.hide()
        self.slide_counter.hide()
        self.slide_title.hide()
        self.workspace.set_view_scale(1.0, presenting=False)
        self._views_presenting(False)
        self._restore(self._before)
        self._before = None
        self.actions.set_checked_quietly("presentation", False)
        self.autosave.pause(False)

    # -- stepping ------------------------------------------------------------------------------
    def slide_key(self, key) -> None:
        if key == Qt.Key.Key_Escape:
            self.leave()
        elif key in BLACK_KEYS:
            self.blank.show_colour(QColor(0, 0, 0))
        elif key in WHITE_KEYS:
            self.blank.show_colour(QColor(255, 255, 255))
        elif key in NEXT_KEYS:
            self.next_slide()
        elif key in PREVIOUS_KEYS:
            self.previous_slide()
        elif key == Qt.Key.Key_Home:
            self.go_to_slide(0)
        elif key == Qt.Key.Key_End:
            self.go_to_slide(self.slide_count() - 1)

    def next_slide(self) -> None:
        self.go_to_slide(min(self.slide_index + 1, self.slide_count() - 1))

    def previous_slide(self) -> None:
        self.go_to_slide(max(self.slide_index - 1, 0))

    def go_to_slide(self, index: int) -> None:
        """Show slide ``index``: 0 is the picture on screen when presenting began, 1 and on
        the deck's presets."""
        if not self.presenting or index == self.slide_index:
            return
        self.slide_index = index
        # Fit once the slide's layout has its final size, so the picture fills its plots.
        self.fit.hold()
        if index == 0:
            self._show_user_picture()
            title = picture_title(self.pictures, self.files.generator_state)
        else:
            self._put_user_points_aside()
            name = self.slides()[index - 1]
            self.files.load_preset(name)
            title = presets.get(name).title
        self._hide_chrome()  # a change of layout brings back docks it had put away
        if self.sweep.spec is not None:
            self.workspace.sweep_dock.show()  # the slide's figure is the sweep's curves
        self.workspace.set_view_scale(SCALE, presenting=True)
        self._views_presenting(True)
        self.slide_title.setText(title)
        self.slide_title.show()
        self._show_counter()
        QTimer.singleShot(0, self._settle_slide)

    def _views_presenting(self, presenting: bool) -> None:
        """Every input-space view (the compare panels' too): no readout and no hover circle
        on a slide."""
        for view in self.workspace.all_views():
            view.set_presenting(presenting)

    def _slide_drawn(self) -> None:
        """The slide's pictures are drawn: compute the next slide's meanwhile."""
        if not self.presenting:
            return
        index = self.slide_index + 1
        if 1 <= index < self.slide_count():
            self.prefetch.prepare(index, self.slides()[index - 1], self.workspace)

    def _show_counter(self) -> None:
        self.slide_counter.show_slide(self.slide_index, self.slide_count(), self.slide_title.text())

    def _put_user_points_aside(self) -> None:
        """Keep the user's points (with their undo history) out of the deck's presets' way."""
        if not self._user_shown:
            return
        self._user_edited |= self.data.version != self._user_version
        self._before["data"] = self.data.detach()
        self._user_shown = False

    def _show_user_picture(self) -> None:
        """Back to the user's points, algorithms and pictures (slide 0, after a deck slide)."""
        if self._user_shown:
            return
        self.fit.cancel()
        self.sweep.cancel()
        self._put_back_pictures(self._before)
        self.workspace.set_docks_before_compare(None)
        self.workspace.set_layout(self.pictures.layout_name, fit=False)
        self._attach_user_points(self._before)
        self.workspace.refresh_points(reframe=True)
        self.fit.forget_pending()  # the slide's fit follows (_settle_slide)
        self.sweep.restore(*self._before["sweep"])

    def _settle_slide(self) -> None:
        if not self.fit.held:
            return
        self.fit.release()
        if not self.presenting or self.fit.closing:
            return
        w = self.window
        if self.sweep.spec is not None:
            # the sweep's curves are half of this slide
            w.resizeDocks(
                [self.workspace.sweep_dock], [w.height() * 9 // 20], Qt.Orientation.Vertical
            )
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.workspace.reframe()
        self.fit.request_fit(now=True, slots=self.pictures.layout_slot_names())

    # -- the window around the slides ----------------------------------------------------------
    def _hide_chrome(self) -> None:
        for dock in self.workspace.docks():
            dock.hide()
        self.toolbar.hide()
        self.window.menuBar().hide()
        self.window.statusBar().hide()
        self.autosave.banner.hide()
        # a strip along the bottom for the slide counter: nothing of a slide lies under it
        footer = QFontMetrics(self.slide_counter.font()).height() + 12
        self.window.setContentsMargins(0, 0, 0, footer)

    def _snapshot(self) -> dict:
        """Everything presentation mode changes, to put back when it ends."""
        w, ws = self.window, self.workspace
        (x0, x1), (y0, y1) = ws.input_view.viewbox.viewRange()
        return {
            "geometry": w.saveGeometry(),
            "rect": w.geometry(),
            "size": w.size(),
            "state": w.saveState(),
            "window_state": w.windowState(),
            "sweep_dock": ws.sweep_dock.toggleViewAction().isChecked(),
            "toolbar": self.toolbar.isVisible(),
            "banner": self.autosave.banner.isVisible(),
            "data": None,  # the user's points, once a deck slide puts them aside
            "regression": self.data.regression,
            "pictures": self.pictures.snapshot(),
            "docks_before_compare": ws.docks_before_compare(),
            "document": self.files.document(),
            "sweep": (self.sweep.spec, self.sweep.result),
            "split": (self.data.test_ratio(), self.data.split_seed()),
            "range": ((x0, x1), (y0, y1)),
            "status": self.status.last,
        }

    def _restore(self, snap: dict) -> None:
        w, ws, p, fit = self.window, self.workspace, self.pictures, self.fit
        # No fit while the window changes back (a resize asks for one): the slide's fits are
        # cancelled, and the user's pictures are still valid.
        fit.hold()
        fit.cancel()
        self.sweep.cancel()
        # the window first: its size decides the picture's box
        if snap["window_state"] & Qt.WindowState.WindowFullScreen:
            w.showFullScreen()
        elif snap["window_state"] & Qt.WindowState.WindowMaximized:
            w.showMaximized()
        else:
            w.showNormal()
        w.restoreGeometry(snap["geometry"])
        if not snap["window_state"] & (
            Qt.WindowState.WindowFullScreen | Qt.WindowState.WindowMaximized
        ):
            # restoreGeometry counts the window manager's frame in, which a window coming
            # back from full screen may not have yet: 1280 x 720 came back as 1278 x 694.
            w.setGeometry(snap["rect"])
        w.menuBar().show()
        w.statusBar().show()
        w.setContentsMargins(0, 0, 0, 0)
        self.toolbar.setVisible(snap["toolbar"])
        self.autosave.banner.setVisible(snap["banner"])
        # the picture
        edited = self._user_edited or (self._user_shown and self.data.version != self._user_version)
        self._put_back_pictures(snap)
        ws.set_docks_before_compare(None)
        ws.set_layout(p.layout_name, fit=False)
        ws.set_docks_before_compare(snap["docks_before_compare"])
        # The docks after the user's layout: with a slide's compare panels still setting the
        # central area's minimum, the docks' widths widened the window (1200 px became 1263).
        w.restoreState(snap["state"])
        if w.size() != snap["size"]:
            # The window system resizes the window later: the docks' sizes are relative to the
            # window's, so lay them out again once it has its size.
            self._state_after_resize = (snap["size"], snap["state"])
        # the fits of the user's data are still there: show them, no refit (unless the points
        # were edited on the first slide)
        self._attach_user_points(snap)
        ws.refresh_points(reframe=True)
        self._relayout_plots()
        fit.release()
        fit.forget_pending()
        for name in p.layout_slot_names():
            slot = p.slot(name)
            if slot.result is not None:
                if not edited:
                    fit.mark_drawn(name)
                ws.draw(slot.result)
        self.sweep.restore(*snap["sweep"])
        ws.sweep_dock.setVisible(snap["sweep_dock"])  # restoreState put back the others
        (x0, x1), (y0, y1) = snap["range"]
        ws.input_view.viewbox.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0.0)
        kind, text = snap["status"]
        self.status.show(text, kind=kind)
        if edited or not all(p.slot(n).result is not None for n in p.layout_slot_names()):
            fit.request_fit(now=True)

    def _put_back_pictures(self, snap: dict) -> None:
        """The user's slots (a copy: a slide's fits must not change the snapshot), document,
        split and mode, as they were when presenting began."""
        ws = self.workspace
        self.pictures.restore(snap["pictures"].snapshot())
        self.files.restore_document(snap["document"])
        ratio, _seed = snap["split"]
        ws.data_panel.set_test_ratio(ratio)
        ws.data_panel.set_regression(snap["regression"])
        ws.algorithm_panel.blockSignals(True)
        ws.algorithm_panel.set_mode("regression" if snap["regression"] else "classification")
        ws.algorithm_panel.blockSignals(False)
        if ws.compare_panels():
            ws.compare_view.set_mode(self.pictures.compare_mode)

    def _attach_user_points(self, snap: dict) -> None:
        """The user's points back in the data model, if a deck slide put them aside."""
        if self._user_shown:
            return
        self.data.attach(snap["data"], notify=False)
        snap["data"] = None
        self._user_shown, self._user_version = True, self.data.version

    def _relayout_plots(self) -> None:
        """Fit every plot's scene to its widget again. A plot that shrank while its large
        presentation-size text still set its minimum keeps the larger scene otherwise."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for view in self.window.findChildren(pg.GraphicsView):
            view.resizeEvent(None)

    def window_resized(self, event) -> None:
        """The window's resizeEvent: the dock layout kept for the size it was waiting for,
        and the slide counter in its corner."""
        pending = self._state_after_resize
        if pending is not None and not self.presenting and event.size() == pending[0]:
            self._state_after_resize = None
            self.window.restoreState(pending[1])
        self.slide_counter.place()
        if self.blank.isVisible():
            self.blank.setGeometry(self.window.rect())


__all__ = ["SCALE", "DeckDialog", "Presenter", "SlideBlank", "SlideCounter"]
