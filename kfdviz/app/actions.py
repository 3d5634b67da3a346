"""The window's actions, toolbar and menus, as a table.

Every command the user can give by menu, toolbar or shortcut is one :class:`ActionSpec`: its
text, its shortcuts, its tip, whether it is a toggle, and the name of its handler — a dotted path
from the window ("fit.request_now", "files.open_file"). :func:`build_actions` makes the QActions
(added to the window, so their shortcuts work wherever the focus is) without connecting them;
:meth:`ActionTable.connect_handlers` connects them once every handler's owner exists, and
:meth:`ActionTable.build_bars` lays out the toolbar and the menus from :data:`TOOLBAR` and
:data:`MENUS`. A checkable action's handler gets the new state (``toggled``); any other action's
handler is called without arguments (``triggered``).

Entries of the toolbar and the menus are action names; ``None`` is a separator, and "@tools",
"@docks" and "@presets" stand for the drawing tools, the docks' show/hide toggles and one entry
per preset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QToolBar

from .. import __version__, presets
from . import help_dialogs
from .help_dialogs import wrapped_tip

MAX_CLASSES = 8  # the class actions 1 … 8 (DataModel.max_classes)


@dataclass(frozen=True)
class ActionSpec:
    """One command: ``handler`` is a dotted path from the window to a callable."""

    name: str
    text: str
    shortcut: str | tuple[str, ...] | None = None
    tip: str = ""
    handler: str | None = None
    checkable: bool = False
    checked: bool = False  # the initial state of a toggle (set without calling the handler)
    enabled: bool = True


# (key, text, shortcut, tip) of the drawing tools: an exclusive group, handler canvas.set_tool.
TOOLS = (
    ("pan", "Pan", "H", "Pan and zoom the view (wheel zooms in every tool)"),
    ("add", "Add", "A", "Click to add a point of the selected class"),
    ("spray", "Spray", "S", "Drag to spray points of the selected class"),
    ("erase", "Erase", "E", "Click or drag over points to remove them"),
    ("move", "Move", "M", "Drag a point to move it"),
    ("relabel", "Relabel", "R", "Click a point to give it the selected class"),
)

ACTIONS = (
    # Undo and Redo name the step they take back or do again (undo_control.py).
    ActionSpec("undo", "Undo", "Ctrl+Z", "Undo the last change", "edits.undo", enabled=False),
    ActionSpec(
        "redo",
        "Redo",
        ("Ctrl+Shift+Z", "Ctrl+Y"),
        "Redo the change undone last",
        "edits.redo",
        enabled=False,
    ),
    ActionSpec(
        "history",
        "History…",
        "Ctrl+H",
        "Every change you made, to go back or forward to any of them",
        "edits.show_history",
    ),
    ActionSpec(
        "clear",
        "Clear",
        "Ctrl+Shift+Backspace",
        "Remove all points (undo brings them back)",
        "data.clear",
    ),
    ActionSpec("fit", "Fit", "Ctrl+Return", "Fit now", "fit.request_now"),
    ActionSpec("cancel", "Cancel", "Esc", "Cancel the running fit", "fit.cancel", enabled=False),
    ActionSpec(
        "live",
        "Live",
        "Ctrl+L",
        "Refit after every edit and parameter change",
        "fit.set_live",
        checkable=True,
        checked=True,
    ),
    ActionSpec(
        "compare",
        "Compare",
        "F6",
        "Two to four algorithms side by side on the same data",
        "workspace.toggle_compare",
        checkable=True,
    ),
    ActionSpec(
        "dark",
        "Dark theme",
        "Ctrl+T",
        "Switch between the light and the dark theme",
        "workspace.set_dark",
        checkable=True,
    ),
    # The session is the document (Ctrl+O, Ctrl+S, as in every editor); points alone are data
    # files loaded into it or saved from it.
    ActionSpec(
        "open", "Load points…", "Ctrl+Shift+O", "Load points from a file", "files.open_file"
    ),
    ActionSpec(
        "save", "Save points…", "Ctrl+Shift+S", "Save the points to a file", "files.save_file"
    ),
    ActionSpec(
        "open_session",
        "Open session…",
        "Ctrl+O",
        "Open a saved session: the points, the algorithms and the layout",
        "files.open_session",
    ),
    ActionSpec(
        "save_session",
        "Save session…",
        "Ctrl+S",
        "Save the points, the algorithms and the layout, to redraw this picture exactly",
        "files.save_session",
    ),
    ActionSpec(
        "export",
        "Export figure…",
        "Ctrl+E",
        "Export the picture as PNG (chosen size and resolution), SVG or PDF (vector)",
        "exporter.export_figure",
    ),
    ActionSpec(
        "export_data",
        "Export data…",
        "Ctrl+Shift+E",
        "Export the points, labels, roles, outputs and embeddings (CSV or NPZ) with the "
        "parameters (JSON)",
        "exporter.export_data",
    ),
    ActionSpec(
        "export_script",
        "Export as Python script…",
        None,
        "Write a script that rebuilds this picture with the library, its points beside it",
        "exporter.export_script",
    ),
    ActionSpec(
        "export_3d",
        "Export 3-D view…",
        None,
        "Export the 3-D view: PNG from the OpenGL picture, SVG or PDF as a vector projection",
        "exporter.export_3d",
    ),
    ActionSpec(
        "screenshot",
        "Save screenshot…",
        None,
        "Save the window's plots as a PNG image",
        "files.export_png",
    ),
    ActionSpec(
        "copy",
        "Copy figure",
        "Ctrl+Shift+C",
        "Copy the picture to the clipboard as an image",
        "exporter.copy_figure",
    ),
    ActionSpec(
        "presentation",
        "Presentation",
        "F5",
        "Full screen with large type for a lecture hall; arrow keys, PageUp/PageDown or a "
        "clicker step through the deck of presets; Esc leaves",
        "presenter.toggle",
        checkable=True,
    ),
    ActionSpec(
        "deck",
        "Presentation deck…",
        None,
        "Choose and order the presets that presentation mode steps through",
        "presenter.edit_deck",
    ),
    ActionSpec(
        "gallery",
        "Gallery…",
        "Ctrl+G",
        "Every preset as a thumbnail; a click opens it",
        "gallery.show",
    ),
    ActionSpec("quit", "Quit", "Ctrl+Q", "Close kfdviz", "close"),
    ActionSpec("help", "Keys and mouse", "F1", "Every key and mouse gesture", "show_shortcuts"),
    ActionSpec(
        "guide",
        "Algorithm guide…",
        "Shift+F1",
        "What each algorithm computes and shows, what to try, and the paper",
        "show_guide",
    ),
    ActionSpec(
        "expansion",
        "Expansion points",
        None,
        "Circle the expansion points with non-zero coefficients, sized by |α| "
        "(automatic: when some coefficients are zero)",
        "workspace.show_expansion",
        checkable=True,
    ),
    ActionSpec(
        "contours",
        "Level sets",
        None,
        "Draw labelled level-set lines",
        "workspace.show_contours",
        checkable=True,
        checked=True,
    ),
    ActionSpec(
        "svr",
        "SVR tube",
        None,
        "Regression: fit a support vector regression with the same kernel "
        "and show its ε-tube beside the KFD fit",
        "fit.set_svr",
        checkable=True,
    ),
)

TOOLBAR = ("@tools", None, "undo", "redo", None, "fit", "live", "cancel", None, "compare")

MENUS = (
    (
        "&File",
        (
            "open",
            "save",
            None,
            "open_session",
            "save_session",
            None,
            "export",
            "export_data",
            "export_script",
            "export_3d",
            "screenshot",
            None,
            "quit",
        ),
    ),
    ("&Edit", ("undo", "redo", "history", "clear", None, "copy", None, "@tools")),
    ("F&it", ("fit", "cancel", "live")),
    (
        "&View",
        (
            "compare",
            "contours",
            "expansion",
            "svr",
            "dark",
            None,
            "presentation",
            "deck",
            None,
            "@docks",
        ),
    ),
    ("&Presets", ("gallery", None, "@presets")),
    ("&Help", ("help", "guide", "about")),
)


class ActionTable:
    """The QActions of :data:`ACTIONS`, the tools and the classes, by name."""

    def __init__(self, window: QMainWindow, specs=ACTIONS):
        self.window = window
        self.specs = {spec.name: spec for spec in specs}
        self.actions: dict[str, QAction] = {}
        self.tool_group = QActionGroup(window)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for key, text, shortcut, tip in TOOLS:
            action = self._make(ActionSpec(f"tool:{key}", text, shortcut, tip, checkable=True))
            action.setData(key)
            self.tool_group.addAction(action)
            self.tool_actions[key] = action
        self.tool_actions["pan"].setChecked(True)
        self.class_actions = [
            self._make(
                ActionSpec(
                    f"class:{k}", f"Class {k + 1}", str(k + 1), f"Draw points of class {k + 1}"
                )
            )
            for k in range(MAX_CLASSES)
        ]
        for spec in specs:
            self.actions[spec.name] = self._make(spec)
        # "About kfdviz" is a menu entry only (not a window action: no shortcut to list).
        self.about = QAction("About kfdviz", window)

    def _make(self, spec: ActionSpec) -> QAction:
        action = QAction(spec.text, self.window)
        tip = spec.tip
        if spec.shortcut:
            keys = [spec.shortcut] if isinstance(spec.shortcut, str) else list(spec.shortcut)
            action.setShortcuts([QKeySequence(k) for k in keys])
            tip = f"{tip} ({QKeySequence(keys[0]).toString()})" if tip else tip
        action.setToolTip(wrapped_tip(tip or spec.text))
        action.setStatusTip(tip or spec.text)
        action.setCheckable(spec.checkable)
        action.setChecked(spec.checked)
        action.setEnabled(spec.enabled)
        self.window.addAction(action)
        return action

    def __getitem__(self, name: str) -> QAction:
        return self.actions[name]

    def set_checked_quietly(self, name: str, on: bool) -> None:
        """Check or uncheck a toggle without calling its handler."""
        action = self.actions[name]
        action.blockSignals(True)
        action.setChecked(on)
        action.blockSignals(False)

    def connect_handlers(self, resolve: Callable[[str], Callable]) -> None:
        """Connect every action to ``resolve(spec.handler)``; the tools to ``resolve(
        "canvas.set_tool")`` with the tool's key, the classes to ``resolve("canvas.set_class")``
        with the class's index, About to ``resolve("show_about")``."""
        for name, spec in self.specs.items():
            if spec.handler is None:
                continue
            handler = resolve(spec.handler)
            action = self.actions[name]
            if spec.checkable:
                action.toggled.connect(_with_state(handler))
            else:
                action.triggered.connect(_without_arguments(handler))
        set_tool = resolve("canvas.set_tool")
        self.tool_group.triggered.connect(lambda a: set_tool(a.data()))
        set_class = resolve("canvas.set_class")
        for k, action in enumerate(self.class_actions):
            action.triggered.connect(lambda _c=False, k=k: set_class(k))
        self.about.triggered.connect(_without_arguments(resolve("show_about")))

    def build_bars(self, docks, load_preset: Callable[[str], None]) -> QToolBar:
        """The toolbar (returned, added to the window) and the menus, from TOOLBAR and MENUS;
        ``docks`` give the View menu's toggles, ``load_preset`` the Presets menu's handler."""
        bar = QToolBar("Tools")
        bar.setObjectName("tools")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._fill(bar, TOOLBAR, docks, load_preset)
        self.window.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        menu_bar = self.window.menuBar()
        for title, entries in MENUS:
            self._fill(menu_bar.addMenu(title), entries, docks, load_preset)
        return bar

    def _fill(self, target, entries, docks, load_preset) -> None:
        for entry in entries:
            if entry is None:
                target.addSeparator()
            elif entry == "@tools":
                for key, *_ in TOOLS:
                    target.addAction(self.tool_actions[key])
            elif entry == "@docks":
                for dock in docks:
                    target.addAction(dock.toggleViewAction())
            elif entry == "@presets":
                for name in presets.names():
                    p = presets.get(name)
                    a = target.addAction(p.title)
                    a.setToolTip(p.description)
                    a.triggered.connect(lambda _c=False, n=name: load_preset(n))
            elif entry == "about":
                target.addAction(self.about)
            else:
                target.addAction(self.actions[entry])


def _with_state(handler: Callable) -> Callable[[bool], None]:
    def call(on: bool) -> None:
        handler(on)

    return call


def _without_arguments(handler: Callable) -> Callable[..., None]:
    def call(*_ignored) -> None:  # triggered(checked) passes a flag the handler does not take
        handler()

    return call


def show_shortcuts(window) -> None:
    """The list of every key and mouse gesture (help_dialogs.py)."""
    help_dialogs.show_shortcuts(window)


def show_guide(window) -> None:
    """The guide to the algorithm on screen (help_dialogs.py)."""
    help_dialogs.show_guide(window)


def show_about(window) -> None:
    QMessageBox.about(
        window,
        "About kfdviz",
        f"<b>kfdviz {__version__}</b><br>Kernel PCA, oriented kernel PCA, kernel Fisher "
        "discriminants and the Kernel Orthogonal Centroid, by pointing and clicking.",
    )


__all__ = [
    "ACTIONS",
    "MENUS",
    "TOOLBAR",
    "TOOLS",
    "ActionSpec",
    "ActionTable",
    "show_about",
    "show_guide",
    "show_shortcuts",
]
