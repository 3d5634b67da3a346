"""The Help menu's dialogs: the keys and mouse gestures (F1), and a guide to each algorithm.

The key list is read from the window's actions, so a shortcut added there is listed here; the
mouse gestures and the presentation keys, which are no actions, are written out beside them.
Each row names its key once (the actions' tooltips end in their key, which the list leaves out).
The dialog fits the screen it opens on (a 1024 x 768 projector too): its text scrolls, its OK
button stays on screen.

The algorithm guide shows an algorithm's :class:`~kfdviz.estimators.spec.Guide` (the text lives
on its spec, beside its parameters): what it computes, what the picture shows, what to try, and
the paper and equation.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..estimators import registry

# Tooltips longer than this are given as rich text, which Qt wraps (plain text runs on in one
# line as wide as the screen).
WRAP_TIP_CHARS = 70
# The dialogs' preferred size, reduced to the room the screen leaves.
SHORTCUTS_SIZE = (660, 900)
GUIDE_SIZE = (820, 560)
# Room left around a dialog on its screen (window frame, task bar).
SCREEN_MARGIN = 40

MOUSE_ROWS = (
    ("Left click / drag", "Use the drawing tool on the plot (Add, Spray, Erase, Move, Relabel)"),
    ("Right click / drag, or Shift + click", "Draw the other class (Add and Spray)"),
    ("Wheel", "Zoom the plot, in every tool"),
    ("Drag (Pan tool)", "Move the view"),
    ("Right click (Pan tool)", "The plot's menu: view all, export"),
    ("Hover a point", "Its class, role and value under the plot"),
)
PRESENTATION_ROWS = (
    ("Right, Down, Page Down, Space", "Next slide"),
    ("Left, Up, Page Up", "Previous slide"),
    ("Home, End", "First, last slide"),
    ("B or .", "Black screen"),
    ("W or ,", "White screen"),
    ("Any key (blank screen)", "Back to the slide"),
    ("Esc or F5", "Leave presentation"),
)
CLASS_ROW = ("1 … 8", "Choose the class to draw")


def wrapped_tip(text: str) -> str:
    """``text`` as a tooltip that wraps: rich text when it is long, else as it is."""
    if not text or len(text) <= WRAP_TIP_CHARS or text.lstrip().startswith("<"):
        return text
    body = "<br>".join(escape(part, quote=False) for part in text.split("\n"))
    return f"<p>{body}</p>"


def available_rect(widget: QWidget) -> QRect:
    """The room the screen of ``widget`` leaves for windows."""
    screen = widget.screen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 768)


def fit_to_screen(dialog: QDialog, parent: QWidget, size: tuple[int, int]) -> None:
    """Size ``dialog`` to ``size`` or the room on ``parent``'s screen, whichever is smaller,
    centred on that room."""
    room = available_rect(parent)
    w = min(size[0], room.width() - SCREEN_MARGIN)
    h = min(size[1], room.height() - SCREEN_MARGIN)
    dialog.setMaximumSize(room.width() - SCREEN_MARGIN, room.height() - SCREEN_MARGIN)
    dialog.resize(w, h)
    dialog.move(room.x() + (room.width() - w) // 2, room.y() + (room.height() - h) // 2)


def _key_text(action) -> str:
    return ", ".join(s.toString() for s in action.shortcuts())


def _plain_tip(action) -> str:
    """The action's tooltip without the key it ends in (the list shows the key already)."""
    tip = action.toolTip()
    if tip.startswith("<"):  # a rich-text tooltip: its text
        doc = QTextDocument()
        doc.setHtml(tip)
        tip = doc.toPlainText().strip()
    first = action.shortcuts()[0].toString() if action.shortcuts() else ""
    if first and tip.endswith(f" ({first})"):
        tip = tip[: -len(first) - 3]
    return tip or action.text().replace("&", "")


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(keys, what they do) of the window's actions with shortcuts, one row each."""
    rows = []
    for a in window.actions():
        keys = _key_text(a)
        if keys and not a.text().startswith("Class "):
            name = a.text().replace("&", "").rstrip("…")
            tip = _plain_tip(a)
            what = name if tip.rstrip(".") == name else f"{name}: {tip}"
            rows.append((keys, what))
    rows.append(CLASS_ROW)
    return rows


def _table(title: str, rows) -> str:
    cells = "".join(
        f"<tr><td style='padding-right:14px'><b>{escape(k)}</b></td><td>{escape(v)}</td></tr>"
        for k, v in rows
    )
    return f"<h3>{escape(title)}</h3><table cellspacing=3>{cells}</table>"


class ShortcutsDialog(QDialog):
    """Every key and mouse gesture, in a scrolling list that fits the screen."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keys and mouse")
        self.text = QTextBrowser()
        self.text.setObjectName("shortcutsText")
        self.text.setAccessibleName("Keys and mouse")
        self.text.setHtml(
            _table("Keys", shortcut_rows(window))
            + _table("Mouse on the plot", MOUSE_ROWS)
            + _table("Presentation (F5)", PRESENTATION_ROWS)
        )
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.buttons)
        fit_to_screen(self, window, SHORTCUTS_SIZE)


def guide_html(key: str) -> str:
    """The guide to algorithm ``key`` as the dialog shows it."""
    spec = registry.get(key)
    g = spec.guide
    parts = [f"<h2>{escape(spec.title)}</h2>", f"<p><i>{escape(spec.description)}</i></p>"]
    if g is not None:
        for head, text in (
            ("What it computes", g.computes),
            ("What the picture shows", g.picture),
            ("Try this", g.try_this),
            ("Paper and equation", g.source),
        ):
            parts.append(f"<h4>{head}</h4><p>{escape(text)}</p>")
    return "".join(parts)


class GuideDialog(QDialog):
    """Help → Algorithm guide: the algorithms on the left, the chosen one's guide beside."""

    def __init__(self, window: QWidget, key: str | None = None):
        super().__init__(window)
        self.setObjectName("guideDialog")
        self.setWindowTitle("Algorithm guide")
        self.list = QListWidget()
        self.list.setAccessibleName("Algorithms")
        for spec in registry.ALGORITHMS.values():
            item = QListWidgetItem(spec.title)
            item.setData(Qt.ItemDataRole.UserRole, spec.key)
            self.list.addItem(item)
        self.list.setMaximumWidth(240)
        self.text = QTextBrowser()
        self.text.setAccessibleName("Guide")
        self.list.currentItemChanged.connect(self._show)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        middle = QHBoxLayout()
        middle.addWidget(self.list)
        middle.addWidget(self.text, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(middle, 1)
        layout.addWidget(self.buttons)
        fit_to_screen(self, window, GUIDE_SIZE)
        self.show_algorithm(key or next(iter(registry.ALGORITHMS)))

    def show_algorithm(self, key: str) -> None:
        for i in range(self.list.count()):
            if self.list.item(i).data(Qt.ItemDataRole.UserRole) == key:
                self.list.setCurrentRow(i)
                return

    def key(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def _show(self, item, _previous=None) -> None:
        if item is not None:
            self.text.setHtml(guide_html(item.data(Qt.ItemDataRole.UserRole)))


def show_shortcuts(window) -> ShortcutsDialog:
    """Open the keys-and-mouse list (not modal: it may stay open beside the window)."""
    dialog = ShortcutsDialog(window)
    dialog.finished.connect(dialog.deleteLater)
    dialog.show()
    return dialog


def show_guide(window, key: str | None = None) -> GuideDialog:
    """Open the algorithm guide at ``key`` (the algorithm on screen by default)."""
    if key is None:
        pictures = getattr(window, "pictures", None)
        key = pictures.active_slot().algorithm if pictures is not None else None
        if key not in registry.ALGORITHMS:
            key = None
    dialog = GuideDialog(window, key)
    dialog.finished.connect(dialog.deleteLater)
    dialog.show()
    return dialog


__all__ = [
    "GuideDialog",
    "ShortcutsDialog",
    "available_rect",
    "guide_html",
    "shortcut_rows",
    "show_guide",
    "show_shortcuts",
    "wrapped_tip",
]
