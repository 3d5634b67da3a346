"""The main window: data and algorithm panels, the views, the fit loop.

One fit thread (``FitWorker``) serves every picture. Each picture is a slot: "main" in the single
layout, "compare-0".."compare-2" in the compare layout. Any edit or parameter change marks slots
dirty; in live mode a short debounce later the window validates the parameters (a bad value is
marked on its widget and nothing is fitted), freezes a request per dirty slot and submits it;
the worker cancels what the slot was still fitting. Results come back as data on the GUI thread;
stale ones are dropped, failures are shown in the status bar and on the widget concerned while
the last good picture stays.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import datasets, presets, session
from ..estimators import registry
from ..pipeline import FitFailure, FitRequest, FitResult, GridSpec, data_box
from ..views import DiagnosticsView, InputSpaceView, OutputsView, Scatter3DView
from ..views.style import THEMES, apply_theme
from ..workers import FitWorker
from .algorithm_panel import KERNEL_NAMES, AlgorithmPanel
from .autosave import AutosaveMixin
from .compare import CompareView, SlotState, default_compare_slots
from .data_model import DataModel
from .data_panel import DataPanel
from .export import ExportMixin
from .file_dialogs import EXPORT_FOLDER, ask_open_path, ask_save_path
from .gallery import GalleryMixin
from .large_data import LargeDataGuard
from .live_refit import LiveRefit
from .presentation import SCALE as PRESENTATION_SCALE
from .presentation import PresentationMixin, SlideCounter
from .sweep_panel import SweepMixin

SESSION_FILTER = "kfdviz sessions (*.kfdviz);;All files (*)"
POINTS_OPEN_FILTER = "Data files (*.csv *.txt *.npz *.json);;All files (*)"
POINTS_SAVE_FILTER = "CSV (*.csv);;NumPy (*.npz)"

DEBOUNCE_MS = 150
# Show the progress bar only for fits that take longer than this.
PROGRESS_DELAY_MS = 250
SPRAY_PIXELS = 14.0
ERASE_PIXELS = 12.0
TOOLS = (
    ("pan", "Pan", "H", "Pan and zoom the view (wheel zooms in every tool)"),
    ("add", "Add", "A", "Click to add a point of the selected class"),
    ("spray", "Spray", "S", "Drag to spray points of the selected class"),
    ("erase", "Erase", "E", "Click or drag over points to remove them"),
    ("move", "Move", "M", "Drag a point to move it"),
    ("relabel", "Relabel", "R", "Click a point to give it the selected class"),
)


class MainWindow(
    ExportMixin, AutosaveMixin, PresentationMixin, SweepMixin, GalleryMixin, QMainWindow
):
    fit_drawn = Signal(object)  # a FitResult, after the views show it
    fit_failed = Signal(object)  # a FitFailure (not a cancellation) shown to the user
    all_drawn = Signal()  # every slot of the current layout shows a fit of the current data

    def __init__(
        self,
        preset: str | None = None,
        *,
        settings: QSettings | None = None,
        theme: str | None = None,
        restore: bool = True,
        autosave_dir=None,
        autosave_interval: float | None = None,
        autosave_delay_ms: int | None = None,
    ):
        """``autosave_dir``: where the session is autosaved and looked for after a crash (None:
        no autosave, as in ``--screenshot`` runs and most tests)."""
        super().__init__()
        self.setWindowTitle("kfdviz")
        self.settings = settings
        self.theme = THEMES.get(theme or self._setting("theme", "light"), THEMES["light"])
        apply_theme(self.theme)
        self.worker = FitWorker(self)
        self.worker.outcome.connect(self._on_outcome)
        self.worker.progress.connect(self._on_progress)
        self.worker.busy_changed.connect(self._on_busy)
        self.live_refit = LiveRefit(self)  # quick fits skip the debounce (live_refit.py)
        self.data = DataModel(self)
        self.large_data = LargeDataGuard(self)  # asks before a large fit (large_data.py)
        self.data.changed.connect(self._on_data_changed)
        self.data.undo_state.connect(self._on_undo_state)

        self.layout_name = "single"
        self.main_slot = SlotState("main", "kfd")
        self.compare_slots: list[SlotState] = default_compare_slots()
        self.compare_count = 3
        self.compare_mode = "input"  # what each compare panel shows
        self._docks_before_compare: dict | None = None
        self.active_compare = 0
        self.live = True
        self.resolution = 200
        self.with_svr = False
        self.tool = "pan"
        self._dirty: set[str] = set()
        self._drawn_version: dict[str, int] = {}
        self._submitted_version: dict[str, int] = {}
        self._request_version: dict[int, int] = {}  # the data version of each request in flight
        self._failed_version: dict[str, int] = {}
        self._stroke: object = None
        self._moving: int | None = None
        self._last_spray = (None, 0.0)
        self._rng = np.random.default_rng(12345)
        self._closing = False
        self._first_show = True
        self.last_status: tuple[str, str] = ("info", "")
        self._generator_state: tuple[str, dict, int] | None = None
        self.preset_name: str | None = None  # the preset (or session's preset) on screen
        self._view_settings: dict = {}  # the session's view settings, also those for figures
        self.sweep_spec: dict | None = None  # the session's sweep (kfdviz.sweep.Sweep as a dict)
        self.sweep_result = None  # a SweepResult for the session's sweep, once computed

        self._init_autosave(autosave_dir, autosave_interval, autosave_delay_ms)
        self._build_actions()
        self._build_views()
        self._build_docks()
        self._build_toolbar_and_menus()
        self._build_status()
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.fit_now)
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(PROGRESS_DELAY_MS)
        self._progress_timer.timeout.connect(self._reveal_progress)

        self.resize(1280, 800)
        if restore and self.settings is not None and preset is None:
            self._restore_settings()
        self.load_preset(preset or "default", restore_params=restore and preset is None)
        self.data.changed.connect(self._autosave_edit)
        self.data.changed.connect(self._sweep_data_changed)
        self.algorithm_panel.changed.connect(self._autosave_edit)

    # -- settings ------------------------------------------------------------------------------
    def _setting(self, key: str, default):
        if self.settings is None:
            return default
        value = self.settings.value(key, default)
        return default if value is None else value

    def _restore_settings(self) -> None:
        geometry = self._setting("geometry", None)
        if isinstance(geometry, QByteArray | bytes):
            self.restoreGeometry(geometry)
        state = self._setting("window_state", None)
        if isinstance(state, QByteArray | bytes):
            self.restoreState(state)
        live = self._setting("live", "true")
        self.live = str(live).lower() in ("true", "1")
        self.live_action.setChecked(self.live)

    def _saved_algorithm(self):
        text = self._setting("algorithm", "")
        try:
            saved = json.loads(text) if text else None
        except (TypeError, ValueError):
            return None
        if not isinstance(saved, dict) or saved.get("algorithm") not in registry.ALGORITHMS:
            return None
        return saved

    def save_settings(self) -> None:
        if self.settings is None:
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("window_state", self.saveState())
        self.settings.setValue("theme", self.theme.name)
        self.settings.setValue("live", "true" if self.live else "false")
        slot = self.main_slot
        try:
            text = json.dumps(
                {"algorithm": slot.algorithm, "params": slot.params, "feature": slot.feature}
            )
        except (TypeError, ValueError):
            text = ""
        self.settings.setValue("algorithm", text)
        if self._generator_state is not None:
            self.settings.setValue("generator", json.dumps(list(self._generator_state)))
        self.settings.sync()

    # -- construction ------------------------------------------------------------------------
    def _action(self, text, shortcut=None, tip="", slot=None, checkable=False) -> QAction:
        action = QAction(text, self)
        if shortcut:
            keys = shortcut if isinstance(shortcut, list | tuple) else [shortcut]
            action.setShortcuts([QKeySequence(k) for k in keys])
            tip = f"{tip} ({QKeySequence(keys[0]).toString()})" if tip else tip
        action.setToolTip(tip or text)
        action.setStatusTip(tip or text)
        action.setCheckable(checkable)
        if slot is not None:
            (action.toggled if checkable else action.triggered).connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.tool_group = QActionGroup(self)
        self.tool_group.setExclusive(True)
        self.tool_actions: dict[str, QAction] = {}
        for key, text, shortcut, tip in TOOLS:
            a = self._action(text, shortcut, tip, checkable=True)
            a.setData(key)
            self.tool_group.addAction(a)
            self.tool_actions[key] = a
        self.tool_group.triggered.connect(lambda a: self.set_tool(a.data()))
        self.tool_actions["pan"].setChecked(True)
        self.class_actions = []
        for k in range(DataModel.max_classes):
            a = self._action(
                f"Class {k + 1}",
                str(k + 1),
                f"Draw points of class {k + 1}",
                slot=lambda _c=False, k=k: self.set_class(k),
            )
            self.class_actions.append(a)
        self.undo_action = self._action("Undo", "Ctrl+Z", "Undo the last edit", self.data.undo)
        self.redo_action = self._action(
            "Redo", ["Ctrl+Shift+Z", "Ctrl+Y"], "Redo the edit undone last", self.data.redo
        )
        self.undo_action.setEnabled(False)
        self.redo_action.setEnabled(False)
        self.clear_action = self._action(
            "Clear",
            "Ctrl+Shift+Backspace",
            "Remove all points (undo brings them back)",
            self.data.clear,
        )
        self.fit_action = self._action(
            "Fit", "Ctrl+Return", "Fit now", lambda: self.request_fit(now=True)
        )
        self.cancel_action = self._action("Cancel", "Esc", "Cancel the running fit", self.cancel)
        self.cancel_action.setEnabled(False)
        self.live_action = self._action(
            "Live",
            "Ctrl+L",
            "Refit after every edit and parameter change",
            self._set_live,
            checkable=True,
        )
        self.live_action.blockSignals(True)
        self.live_action.setChecked(True)
        self.live_action.blockSignals(False)
        self.compare_action = self._action(
            "Compare",
            "F6",
            "Two or three algorithms side by side on the same data",
            self._toggle_compare,
            checkable=True,
        )
        self.dark_action = self._action(
            "Dark theme",
            "Ctrl+T",
            "Switch between the light and the dark theme",
            lambda on: self.set_theme("dark" if on else "light"),
            checkable=True,
        )
        self.dark_action.blockSignals(True)
        self.dark_action.setChecked(self.theme.name == "dark")
        self.dark_action.blockSignals(False)
        self.open_action = self._action(
            "Open…", "Ctrl+O", "Load points from a file", self.open_file
        )
        self.save_action = self._action(
            "Save…", "Ctrl+S", "Save the points to a file", self.save_file
        )
        self.open_session_action = self._action(
            "Open session…",
            "Ctrl+Shift+O",
            "Open a saved session: the points, the algorithms and the layout",
            self.open_session,
        )
        self.save_session_action = self._action(
            "Save session…",
            "Ctrl+Shift+S",
            "Save the points, the algorithms and the layout, to redraw this picture exactly",
            self.save_session,
        )
        self.export_action = self._action(
            "Export figure…",
            "Ctrl+E",
            "Export the picture as PNG (chosen size and resolution), SVG or PDF (vector)",
            self.export_figure,
        )
        self.export_data_action = self._action(
            "Export data…",
            "Ctrl+Shift+E",
            "Export the points, labels, roles, outputs and embeddings (CSV or NPZ) with the "
            "parameters (JSON)",
            self.export_data,
        )
        self.export_3d_action = self._action(
            "Export 3-D view…",
            None,
            "Export the 3-D view: PNG from the OpenGL picture, SVG or PDF as a vector projection",
            self.export_3d,
        )
        self.screenshot_action = self._action(
            "Save screenshot…", None, "Save the window's plots as a PNG image", self.export_png
        )
        self.copy_action = self._action(
            "Copy figure",
            "Ctrl+Shift+C",
            "Copy the picture to the clipboard as an image",
            self.copy_figure,
        )
        self.presentation_action = self._action(
            "Presentation",
            "F5",
            "Full screen with large type for a lecture hall; arrow keys, PageUp/PageDown or a "
            "clicker step through the deck of presets; Esc leaves",
            lambda _on: self.toggle_presentation(),
            checkable=True,
        )
        self.deck_action = self._action(
            "Presentation deck…",
            None,
            "Choose and order the presets that presentation mode steps through",
            self.edit_deck,
        )
        self.gallery_action = self._action(
            "Gallery…",
            "Ctrl+G",
            "Every preset as a thumbnail; a click opens it",
            self.show_gallery,
        )
        self.quit_action = self._action("Quit", "Ctrl+Q", "Close kfdviz", self.close)
        self.help_action = self._action(
            "Shortcuts", "F1", "List the keyboard shortcuts", self.show_shortcuts
        )
        self.expansion_action = self._action(
            "Expansion points",
            None,
            "Circle the expansion points with non-zero coefficients, sized by |α| "
            "(automatic: when some coefficients are zero)",
            self._toggle_expansion,
            checkable=True,
        )
        self.contours_action = self._action(
            "Level sets",
            None,
            "Draw labelled level-set lines",
            self._toggle_contours,
            checkable=True,
        )
        self.contours_action.blockSignals(True)
        self.contours_action.setChecked(True)
        self.contours_action.blockSignals(False)
        self.svr_action = self._action(
            "SVR tube",
            None,
            "Regression: fit a support vector regression with the same kernel "
            "and show its ε-tube beside the KFD fit",
            self._toggle_svr,
            checkable=True,
        )

    def _build_views(self) -> None:
        self.input_view = InputSpaceView(theme=self.theme)
        self.input3d = Scatter3DView(theme=self.theme)
        self.single = QStackedWidget()
        self.single.addWidget(self.input_view)
        self.single.addWidget(self.input3d)
        self._compare_view: CompareView | None = None
        self.central = QStackedWidget()
        self.central.addWidget(self.single)
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(self.recovery_banner)
        column.addWidget(self.large_data.banner)
        column.addWidget(self.central, 1)
        self.setCentralWidget(holder)
        self._connect_canvas(self.input_view)
        self.input_view.viewbox.sigResized.connect(self._view_resized)

    def _connect_canvas(self, view: InputSpaceView) -> None:
        vb = view.viewbox
        vb.clicked.connect(lambda x, y, v=view: self._canvas_click(v, x, y))
        vb.pressed.connect(lambda x, y, v=view: self._canvas_press(v, x, y))
        vb.dragged.connect(lambda x, y, v=view: self._canvas_drag(v, x, y))
        vb.released.connect(lambda x, y, v=view: self._canvas_release(v, x, y))

    @property
    def compare_view(self) -> CompareView:
        """The compare layout, built the first time it is needed (it is not, at start-up)."""
        if self._compare_view is None:
            view = CompareView(theme=self.theme)
            view.activated.connect(self.activate_compare_panel)
            view.algorithm_chosen.connect(self._compare_algorithm_chosen)
            view.count_changed.connect(self.set_compare_count)
            view.mode_changed.connect(self._compare_mode_changed)
            view.set_mode(self.compare_mode)
            self._compare_view = view
            self.central.addWidget(view)
            view.panels[0].view.viewbox.sigResized.connect(self._view_resized)
            if self.presenting:
                view.set_scale(PRESENTATION_SCALE, presenting=True)
            for v in view.views():
                self._connect_canvas(v)
                v.set_theme(self.theme)
                v.set_tool_active(self.tool != "pan")
                v.set_options(
                    expansion=self.input_view._show_expansion,
                    contours=self.contours_action.isChecked(),
                )
        return self._compare_view

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        tools = [self.tool_actions[k] for k, *_ in TOOLS] + [self.clear_action]
        self.data_panel = DataPanel(tools, [self.open_action, self.save_action])
        self.data_panel.generate_requested.connect(self.generate)
        self.data_panel.split_changed.connect(self._split_changed)
        self.data_panel.mode_changed.connect(self.set_mode)
        self.algorithm_panel = AlgorithmPanel()
        self.algorithm_panel.changed.connect(self._panel_changed)
        self.algorithm_panel.feature_changed.connect(self._feature_changed)
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        data_scroll = QScrollArea()
        data_scroll.setWidgetResizable(True)
        data_scroll.setWidget(self.data_panel)
        algo_scroll = QScrollArea()
        algo_scroll.setWidgetResizable(True)
        algo_scroll.setWidget(self.algorithm_panel)
        for scroll in (data_scroll, algo_scroll):
            scroll.setMinimumWidth(325)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.data_dock = self._dock("Data", data_scroll, left, "data")
        self.algorithm_dock = self._dock("Algorithm", algo_scroll, left, "algorithm")
        self.outputs_view = OutputsView(theme=self.theme)
        self.embedding_view = Scatter3DView(theme=self.theme)
        self.diagnostics_view = DiagnosticsView(theme=self.theme)
        for view in (self.outputs_view, self.embedding_view, self.diagnostics_view):
            view.setMinimumWidth(290)
        self.outputs_dock = self._dock("Outputs", self.outputs_view, right, "outputs")
        self.embedding_dock = self._dock("Embedding", self.embedding_view, right, "embedding")
        self.diagnostics_dock = self._dock(
            "Diagnostics", self.diagnostics_view, right, "diagnostics"
        )
        self.tabifyDockWidget(self.embedding_dock, self.diagnostics_dock)
        self.diagnostics_dock.raise_()
        self._init_sweep()
        self.resizeDocks([self.data_dock, self.outputs_dock], [300, 380], Qt.Orientation.Horizontal)

    def _build_toolbar_and_menus(self) -> None:
        bar = QToolBar("Tools")
        bar.setObjectName("tools")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for key, *_ in TOOLS:
            bar.addAction(self.tool_actions[key])
        bar.addSeparator()
        bar.addAction(self.undo_action)
        bar.addAction(self.redo_action)
        bar.addSeparator()
        bar.addAction(self.fit_action)
        bar.addAction(self.live_action)
        bar.addAction(self.cancel_action)
        bar.addSeparator()
        bar.addAction(self.compare_action)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        for a in (self.open_action, self.save_action):
            file_menu.addAction(a)
        file_menu.addSeparator()
        for a in (self.open_session_action, self.save_session_action):
            file_menu.addAction(a)
        file_menu.addSeparator()
        for a in (
            self.export_action,
            self.export_data_action,
            self.export_3d_action,
            self.screenshot_action,
        ):
            file_menu.addAction(a)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit = menu.addMenu("&Edit")
        for a in (self.undo_action, self.redo_action, self.clear_action):
            edit.addAction(a)
        edit.addSeparator()
        edit.addAction(self.copy_action)
        edit.addSeparator()
        for key, *_ in TOOLS:
            edit.addAction(self.tool_actions[key])
        fit_menu = menu.addMenu("F&it")
        for a in (self.fit_action, self.cancel_action, self.live_action):
            fit_menu.addAction(a)
        view = menu.addMenu("&View")
        for a in (
            self.compare_action,
            self.contours_action,
            self.expansion_action,
            self.svr_action,
            self.dark_action,
        ):
            view.addAction(a)
        view.addSeparator()
        view.addAction(self.presentation_action)
        view.addAction(self.deck_action)
        view.addSeparator()
        for dock in self._docks():
            view.addAction(dock.toggleViewAction())
        preset_menu = menu.addMenu("&Presets")
        preset_menu.addAction(self.gallery_action)
        preset_menu.addSeparator()
        for name in presets.names():
            p = presets.get(name)
            a = preset_menu.addAction(p.title)
            a.setToolTip(p.description)
            a.triggered.connect(lambda _c=False, n=name: self.load_preset(n))
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(self.help_action)
        about = help_menu.addAction("About kfdviz")
        about.triggered.connect(self.show_about)

    def _build_status(self) -> None:
        self.slide_counter = SlideCounter(self)
        self.status_label = QLabel("")
        self.status_label.setObjectName("fitStatus")
        self.status_label.setTextFormat(Qt.TextFormat.RichText)
        # Long messages must not widen the window: they are elided by the layout instead.
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status_label.setMinimumWidth(50)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(180)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QToolButton()
        self.cancel_button.setDefaultAction(self.cancel_action)
        self.cancel_button.hide()
        sb = self.statusBar()
        sb.addWidget(self.status_label, 1)
        sb.addPermanentWidget(self.progress)
        sb.addPermanentWidget(self.cancel_button)

    # -- presets and data sets ------------------------------------------------------------------
    def load_preset(self, name: str, *, restore_params: bool = False) -> None:
        """Open a preset: its data (generated with its seed and split) and its panels."""
        self.apply_session(session.state_from_preset(name), restore_params=restore_params)

    def apply_session(self, state: session.SessionState, *, restore_params=False) -> None:
        """Show a session (a preset, or a file): data, roles, panels, layout, view."""
        self._debounce.stop()
        split = dict(state.split or {})
        ratio, seed = float(split.get("test_ratio", 0.0)), int(split.get("seed", 0))
        self.data.remember_split(ratio, seed)
        self.data_panel.set_test_ratio(ratio)
        gen = state.generator
        if gen:
            self._generator_state = (gen["name"], dict(gen.get("params") or {}), gen["seed"])
            self.data_panel.set_generator(gen["name"], dict(gen.get("params") or {}), gen["seed"])
        self.data_panel.set_regression(state.regression)
        self.with_svr = bool(state.with_svr)
        self.svr_action.blockSignals(True)
        self.svr_action.setChecked(self.with_svr)
        self.svr_action.blockSignals(False)
        settings = state.view_settings or {}
        self.preset_name = state.preset
        self._view_settings = dict(settings)
        self.apply_view_settings(settings)
        self.sweep_spec = dict(state.sweep) if state.sweep else None
        self.sweep_result = None
        panels = state.panels
        saved = self._saved_algorithm() if restore_params else None
        if state.layout == "single":
            panel = panels[0]
            self.main_slot = SlotState(
                "main", panel.algorithm, dict(panel.params), panel.feature, panel.title
            )
            if saved is not None:
                self.main_slot = SlotState(
                    "main",
                    saved["algorithm"],
                    dict(saved.get("params") or {}),
                    saved.get("feature", "auto"),
                )
        else:
            slots = []
            for i, panel in enumerate(panels):
                title = panel.title or registry.get(panel.algorithm).title
                slots.append(
                    SlotState(
                        f"compare-{i}", panel.algorithm, dict(panel.params), panel.feature, title
                    )
                )
            defaults = default_compare_slots()
            self.compare_slots = slots + defaults[len(slots) :]
            self.compare_count = len(panels)
            self.active_compare = 0
            self.compare_mode = state.view if state.view in ("outputs", "embedding") else "input"
            if self._compare_view is not None:
                self._compare_view.set_mode(self.compare_mode)
        self.setWindowTitle(f"kfdviz — {state.title}" if state.title else "kfdviz")
        y = state.y if state.y is not None else np.zeros(len(state.X), np.int64)
        roles = np.where(state.test_mask, "test", "train")
        self.data.replace(state.X, y, regression=state.regression, roles=roles)
        self.set_layout(state.layout, fit=False)
        view = {
            "outputs": self.outputs_dock,
            "embedding": self.embedding_dock,
            "diagnostics": self.diagnostics_dock,
        }.get(state.view)
        if view is not None and state.layout == "single":
            view.raise_()
        self._show_status(state.description or state.title or "Session opened.", kind="info")
        self.request_fit(now=True, slots=self._layout_slot_names())
        self._show_sweep(run=True)
        self._autosave_edit()

    def apply_view_settings(self, settings: dict) -> None:
        """The view settings of a session or preset the window understands (resolution, level
        sets, expansion points, theme); the others stay in the session for figures."""
        self.resolution = int(settings.get("resolution", session.VIEW_DEFAULTS["resolution"]))
        contours = bool(settings.get("show_contours", True))
        self.contours_action.blockSignals(True)
        self.contours_action.setChecked(contours)
        self.contours_action.blockSignals(False)
        expansion = settings.get("show_expansion", "auto")
        expansion = expansion if expansion == "auto" else bool(expansion)
        self.expansion_action.blockSignals(True)
        self.expansion_action.setChecked(expansion is True)
        self.expansion_action.blockSignals(False)
        for v in self._all_views():
            v.set_options(expansion=expansion, contours=contours)
        theme = settings.get("theme")
        if theme in THEMES and theme != self.theme.name:
            self.set_theme(theme)

    def session_state(self) -> session.SessionState:
        """What is on screen, as a session (the data, the roles, the panels, the layout)."""
        if self.layout_name == "compare":
            slots = self.compare_slots[: self.compare_count]
            view = self.compare_mode
        else:
            slots = [self.main_slot]
            view = "input"
        panels = tuple(
            session.PanelState(s.algorithm, dict(s.params), s.feature, s.title) for s in slots
        )
        gen = None
        if self._generator_state is not None:
            name, params, seed = self._generator_state
            gen = {"name": name, "params": params, "seed": seed}
        return session.SessionState(
            X=np.array(self.data.X(), dtype=float),
            y=np.array(self.data.y()),
            test_mask=np.array(self.data.test_mask(), dtype=bool),
            panels=panels,
            layout=self.layout_name,
            view=view,
            regression=self.data.regression,
            with_svr=self.with_svr,
            generator=gen,
            split={"test_ratio": self.data.test_ratio(), "seed": self.data.split_seed()},
            view_settings={
                **self._view_settings,
                "resolution": self.resolution,
                "theme": self.theme.name,
                "show_contours": self.contours_action.isChecked(),
                "show_expansion": self.input_view._show_expansion,
            },
            title=self.windowTitle().removeprefix("kfdviz — ").removeprefix("kfdviz"),
            preset=self.preset_name,
            sweep=self.sweep_spec,
        )

    def open_session(self) -> None:
        path = ask_open_path(self, "Open session", SESSION_FILTER, self.settings)
        if path:
            self.open_session_file(path)

    def open_session_file(self, path: str) -> bool:
        try:
            state = session.load_session(path)
        except (session.SessionError, OSError) as exc:
            self._show_status(f"Could not open the session: {exc}", kind="error")
            return False
        self.apply_session(state)
        return True

    def save_session(self) -> None:
        path = ask_save_path(
            self, "Save session", "figure.kfdviz", SESSION_FILTER, self.settings, suffix=".kfdviz"
        )
        if path:
            self.save_session_file(path)

    def save_session_file(self, path: str) -> bool:
        try:
            written = session.save_session(path, self.session_state())
        except (session.SessionError, OSError, ValueError) as exc:
            self._show_status(f"Could not save the session: {exc}", kind="error")
            return False
        self._show_status(f"Saved the session to {Path(written).name}", kind="info")
        return True

    def generate(self, name: str, params: dict, seed: int) -> None:
        try:
            X, y = datasets.make(name, seed=seed, **params)
        except (ValueError, TypeError) as exc:
            self._show_status(f"Could not generate {name}: {exc}", kind="error")
            return
        regression = datasets.describe(name)["task"] == "regression"
        self._generator_state = (name, dict(params), seed)
        if regression != self.data.regression:
            self.data_panel.set_regression(regression)
            self.algorithm_panel.set_mode("regression" if regression else "classification")
            self._sync_slot_from_panel()
        self.data.replace(X, y, regression=regression)

    def set_mode(self, mode: str) -> None:
        regression = mode == "regression"
        if regression == self.data.regression:
            return
        self.algorithm_panel.set_mode(mode)
        self._sync_slot_from_panel()
        if regression and self.layout_name == "compare":
            self.set_layout("single", fit=False)
        self.data.set_regression(regression)
        self._show_status(
            "Regression mode: click to add (x, y) samples of a function."
            if regression
            else "Classification mode: click to add points of the selected class.",
            kind="info",
        )

    def open_file(self) -> None:
        path = ask_open_path(self, "Load points", POINTS_OPEN_FILTER, self.settings)
        if path:
            self.load_file(path)

    def load_file(self, path: str) -> bool:
        try:
            X, y = datasets.load(path)
        except Exception as exc:  # show every reason a file cannot be read
            self._show_status(f"Could not load {Path(path).name}: {exc}", kind="error")
            return False
        regression = np.asarray(y).dtype.kind == "f" and not np.all(np.mod(y, 1) == 0)
        self.data_panel.set_regression(regression)
        self.algorithm_panel.set_mode("regression" if regression else "classification")
        self._sync_slot_from_panel()
        self.data.replace(X, y, regression=regression)
        self._show_status(f"Loaded {len(X)} points from {Path(path).name}", kind="info")
        return True

    def save_file(self) -> None:
        path = ask_save_path(
            self, "Save points", "points.csv", POINTS_SAVE_FILTER, self.settings, suffix=".csv"
        )
        if path:
            self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            roles = np.where(self.data.test_mask(), "test", "train")
            datasets.save(path, self.data.X(), self.data.y(), roles=roles)
        except Exception as exc:  # a full disk, a bad folder, ...: say so, keep the points
            self._show_status(f"Could not save {Path(path).name}: {exc}", kind="error")
            return False
        self._show_status(f"Saved {self.data.n} points to {Path(path).name}", kind="info")
        return True

    def export_png(self) -> None:
        path = ask_save_path(
            self,
            "Save screenshot",
            "kfdviz.png",
            "PNG (*.png)",
            self.settings,
            key=EXPORT_FOLDER,
            suffix=".png",
        )
        if path:
            self.save_screenshot_to(path)

    def save_screenshot_to(self, path: str) -> bool:
        """The window's plots as they are on screen, as a PNG image; failures are said in place."""
        if not self.central.grab().save(path, "PNG"):
            self._show_status(
                f"Could not save the screenshot to {path}: check that the folder exists and can "
                "be written to",
                kind="error",
            )
            return False
        self._show_status(f"Saved the screenshot to {Path(path).name}", kind="info")
        return True

    # -- layout, theme, options ----------------------------------------------------------------
    def _layout_slot_names(self) -> list[str]:
        if self.layout_name == "compare":
            return [s.name for s in self.compare_slots[: self.compare_count]]
        return ["main"]

    def slot(self, name: str) -> SlotState:
        if name == "main":
            return self.main_slot
        return self.compare_slots[int(name.split("-")[1])]

    def active_slot(self) -> SlotState:
        if self.layout_name == "compare":
            return self.compare_slots[self.active_compare]
        return self.main_slot

    def active_view(self) -> InputSpaceView:
        if self.layout_name == "compare":
            return self.compare_view.panels[self.active_compare].view
        return self.input_view

    def set_layout(self, name: str, *, fit: bool = True) -> None:
        if name == "compare" and self.data.regression:
            self._show_status("The compare layout is for classification data.", kind="error")
            self.compare_action.setChecked(False)
            return
        self.layout_name = name
        self.compare_action.blockSignals(True)
        self.compare_action.setChecked(name == "compare")
        self.compare_action.blockSignals(False)
        self._right_docks_for(name)
        if name == "compare":
            self.central.setCurrentWidget(self.compare_view)
            self.compare_view.set_count(self.compare_count)
            for i, slot in enumerate(self.compare_slots):
                self.compare_view.panels[i].set_slot(slot)
            self.activate_compare_panel(self.active_compare, refit=False)
        else:
            self.central.setCurrentWidget(self.single)
            self._bind_panel(self.main_slot)
        self._refresh_points(reframe=True)
        for slot_name in self._layout_slot_names():
            r = self.slot(slot_name).result
            if r is not None:
                self._draw(r)
        if fit:
            self.request_fit(slots=self._layout_slot_names(), now=True)

    def _right_docks_for(self, layout: str) -> None:
        """The compare panels need the width: the right-hand docks make way for them (View
        menu brings them back) and return with the single layout."""
        docks = (self.outputs_dock, self.embedding_dock, self.diagnostics_dock)
        if layout == "compare" and self._docks_before_compare is None:
            self._docks_before_compare = {d: d.isVisible() or d.isHidden() is False for d in docks}
            for d in docks:
                d.hide()
        elif layout == "single" and self._docks_before_compare is not None:
            for d, shown in self._docks_before_compare.items():
                d.setVisible(shown)
            self._docks_before_compare = None
            self.diagnostics_dock.raise_()

    def _toggle_compare(self, on: bool) -> None:
        self.set_layout("compare" if on else "single")

    def set_compare_count(self, n: int) -> None:
        self.compare_count = n
        self.compare_view.set_count(n)
        if self.active_compare >= n:
            self.activate_compare_panel(0, refit=False)
        self.request_fit(slots=self._layout_slot_names())

    def activate_compare_panel(self, index: int, *, refit: bool = False) -> None:
        self.active_compare = index
        self.compare_view.set_active(index)
        slot = self.compare_slots[index]
        self._bind_panel(slot)
        if slot.result is not None:
            self._draw_docks(slot.result)
        if refit:
            self.request_fit(slots=[slot.name])

    def _compare_algorithm_chosen(self, index: int, key: str) -> None:
        slot = self.compare_slots[index]
        kernel = {k: v for k, v in slot.params.items() if k in KERNEL_NAMES}
        slot.algorithm = key
        slot.params = kernel
        slot.feature = "auto"
        slot.title = registry.get(key).title
        self.compare_view.panels[index].set_slot(slot)
        if index == self.active_compare:
            self._bind_panel(slot)
        self.request_fit(slots=[slot.name])

    def _bind_panel(self, slot: SlotState) -> None:
        """Show ``slot``'s algorithm and parameters in the algorithm panel."""
        self.algorithm_panel.blockSignals(True)
        self.algorithm_panel.set_state(slot.algorithm, slot.params, slot.feature)
        self.algorithm_panel.blockSignals(False)
        if slot.result is not None:
            self.algorithm_panel.set_feature_options(
                slot.result.feature_options, slot.result.feature
            )
        if slot.error_param:
            self.algorithm_panel.show_error(slot.error_param, slot.error or "")

    def _sync_slot_from_panel(self) -> list[str]:
        """Copy the panel's values into the active slot; the slots that need a new fit."""
        slot = self.active_slot()
        params, _ = self.algorithm_panel.collect()
        kernel_before = {k: slot.params.get(k) for k in KERNEL_NAMES}
        slot.algorithm = self.algorithm_panel.algorithm()
        slot.params = params
        slot.feature = self.algorithm_panel.feature_value()
        slot.error = slot.error_param = None
        changed = [slot.name]
        if self.layout_name == "compare":
            panel = self.compare_view.panels[self.active_compare]
            if panel.combo.currentData() != slot.algorithm:
                slot.title = registry.get(slot.algorithm).title
                panel.set_slot(slot)
            kernel_now = {k: v for k, v in params.items() if k in KERNEL_NAMES}
            if kernel_now and kernel_now != {k: kernel_before.get(k) for k in kernel_now}:
                # Same kernel in every panel: TPAMI Fig. 1 and the 1999 Fig. 1 compare
                # algorithms, not kernels.
                for other in self.compare_slots[: self.compare_count]:
                    if other is not slot:
                        other.params = {**other.params, **kernel_now}
                        changed.append(other.name)
        return changed

    def set_theme(self, name: str) -> None:
        self.theme = THEMES[name]
        apply_theme(self.theme)
        for view in (
            self.input_view,
            self.input3d,
            self.outputs_view,
            self.embedding_view,
            self.diagnostics_view,
            *([self._compare_view] if self._compare_view is not None else []),
        ):
            view.set_theme(self.theme)
        self.sweep_panel.set_theme(self.theme)
        self.dark_action.blockSignals(True)
        self.dark_action.setChecked(name == "dark")
        self.dark_action.blockSignals(False)
        self._show_status(self.last_status[1], kind=self.last_status[0])

    def _all_views(self) -> list[InputSpaceView]:
        compare = self._compare_view.views() if self._compare_view is not None else []
        return [self.input_view, *compare]

    def _compare_panels(self) -> list:
        return self._compare_view.panels if self._compare_view is not None else []

    def _toggle_expansion(self, on: bool) -> None:
        for v in self._all_views():
            v.set_options(expansion=on)

    def _toggle_contours(self, on: bool) -> None:
        for v in self._all_views():
            v.set_options(contours=on)

    def _toggle_svr(self, on: bool) -> None:
        self.with_svr = on
        if self.data.regression:
            self.request_fit()

    def _set_live(self, on: bool) -> None:
        self.live = on
        if on and self._dirty:
            self.request_fit()

    # -- tools -----------------------------------------------------------------------------
    def set_tool(self, key: str) -> None:
        self.tool = key
        self.tool_actions[key].setChecked(True)
        for view in self._all_views():
            view.set_tool_active(key != "pan")
        if key != "pan" and self.data.dimension > 2 and not self.data.regression:
            self._show_status(
                f"Drawing works on 2-D data; these points have {self.data.dimension} dimensions.",
                kind="error",
            )

    def set_class(self, k: int) -> None:
        self.data_panel.set_current_class(k)

    def _can_draw(self) -> bool:
        return self.data.regression or self.data.dimension == 2

    def _canvas_click(self, view: InputSpaceView, x: float, y: float) -> None:
        if not self._can_draw():
            return
        k = self.data_panel.current_class()
        if self.tool == "add":
            self.data.add_points([[x, y]], k)
        elif self.tool == "spray":
            self._spray(view, x, y, merge=None)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=None)
        elif self.tool == "relabel":
            i = view.nearest_point(x, y)
            if i is not None:
                self.data.relabel(i, k)

    def _canvas_press(self, view: InputSpaceView, x: float, y: float) -> None:
        if not self._can_draw():
            return
        self._stroke = self.data.new_stroke()
        self._moving = view.nearest_point(x, y) if self.tool == "move" else None
        if self.tool == "spray":
            self._spray(view, x, y, merge=self._stroke)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=self._stroke)
        elif self.tool == "add":
            self.data.add_points([[x, y]], self.data_panel.current_class(), merge=self._stroke)

    def _canvas_drag(self, view: InputSpaceView, x: float, y: float) -> None:
        if self._stroke is None:
            return
        if self.tool == "spray":
            self._spray(view, x, y, merge=self._stroke)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=self._stroke)
        elif self.tool == "move" and self._moving is not None:
            self.live_refit.move_point(self._moving, x, y, self._stroke)  # once per frame

    def _canvas_release(self, view: InputSpaceView, x: float, y: float) -> None:
        if self._stroke is not None and self.tool == "move" and self._moving is not None:
            self.live_refit.move_point(self._moving, x, y, self._stroke, final=True)
        self._stroke = None
        self._moving = None
        self.data.end_stroke()

    def _spray(self, view: InputSpaceView, x: float, y: float, merge) -> None:
        sx, sy = view.pixel_size()
        last, t = self._last_spray
        now = time.monotonic()
        if last is not None and merge is not None and now - t < 0.03:
            dx, dy = (x - last[0]) / sx, (y - last[1]) / sy
            if dx * dx + dy * dy < 16:
                return
        self._last_spray = ((x, y), now)
        k = 3
        offsets = self._rng.normal(size=(k, 2)) * (SPRAY_PIXELS * 0.5)
        P = np.column_stack([x + offsets[:, 0] * sx, y + offsets[:, 1] * sy])
        self.data.add_points(P, self.data_panel.current_class(), merge=merge)

    def _erase(self, view: InputSpaceView, x: float, y: float, merge) -> None:
        P = self.data.display_points()
        if P.shape[0] == 0:
            return
        sx, sy = view.pixel_size()
        d2 = ((P[:, 0] - x) / sx) ** 2 + ((P[:, 1] - y) / sy) ** 2
        hit = np.flatnonzero(d2 <= ERASE_PIXELS**2)
        if hit.size:
            self.data.remove(hit, merge=merge)

    # -- data changes --------------------------------------------------------------------------
    def _split_changed(self, ratio: float) -> None:
        self.data.set_split(ratio)

    def _on_undo_state(self, can_undo: bool, can_redo: bool) -> None:
        self.undo_action.setEnabled(can_undo)
        self.redo_action.setEnabled(can_redo)

    def _refresh_points(self, *, reframe: bool = False) -> None:
        data = self.data
        P = data.display_points()
        labels = data.labels()
        test = data.test_mask()
        three_d = not data.regression and data.dimension >= 3
        for view in self._all_views():
            view.set_regression(data.regression)
            view.set_points(P, labels, test)
        if three_d:
            self.single.setCurrentWidget(self.input3d)
            pts3 = data.X()[:, :3] if data.dimension == 3 else None
            if pts3 is None:
                centred = data.X() - data.X().mean(axis=0)
                _, _, vt = np.linalg.svd(centred, full_matrices=False)
                pts3 = centred @ vt[:3].T
                axes = ("PC 1", "PC 2", "PC 3")
            else:
                axes = ("x₁", "x₂", "x₃")
            self.input3d.set_points(pts3, labels, test, axes, f"Input data ({data.dimension}-D)")
        else:
            self.single.setCurrentWidget(self.input_view)
        for panel in self._compare_panels():
            panel.page(self.compare_mode, three_d)
        n = data.n
        if data.regression:
            text = f"{n} samples"
        else:
            classes, counts = np.unique(data.y(), return_counts=True)
            per = ", ".join(
                f"class {int(c) + 1}: {k}" for c, k in zip(classes, counts, strict=True)
            )
            text = f"{n} points ({per})" if n else "no points"
            self.data_panel.show_classes(int(classes.max()) + 1 if n else 1)
        n_test = int(test.sum())
        if n_test:
            text += f"; {n_test} held out for testing"
        self.data_panel.set_counts(text)
        if reframe and not three_d:
            self._reframe()

    def _picture_box(self) -> tuple[float, float, float, float] | None:
        """The box the level-set image covers: the data's, widened to the view's shape.

        Every compare panel gets the same box. With the view's aspect ratio the image fills the
        plot once the view shows this box (``_reframe``).
        """
        data = self.data
        if data.regression or data.dimension != 2 or data.n == 0:
            return None
        x0, x1, y0, y1 = data_box(data.X(), 0.15)
        if self.layout_name == "compare":
            view = self.compare_view.panels[0].view
        else:
            view = self.input_view
        w, h = view.viewbox.width(), view.viewbox.height()
        if w < 20 or h < 20:
            return (x0, x1, y0, y1)
        aspect = w / h
        bw, bh = x1 - x0, y1 - y0
        cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        if bw / bh < aspect:
            bw = bh * aspect
        else:
            bh = bw / aspect
        return (cx - bw / 2, cx + bw / 2, cy - bh / 2, cy + bh / 2)

    def _reframe(self) -> None:
        P = self.data.display_points()
        if P.shape[0] == 0:
            box = (-1.0, 1.0, -1.0, 1.0)
        else:
            box = self._picture_box() or data_box(P, 0.12)
        for view in self._all_views():
            view.viewbox.setRange(xRange=box[:2], yRange=box[2:], padding=0.0)

    def _view_resized(self, *_args) -> None:
        """Keep the picture filling the plot when the plot changes shape (the window or a dock
        was resized), unless the user has zoomed or panned away from it."""
        if self._first_show or self._closing:
            return
        r = self.active_slot().result
        box = self._picture_box()
        if r is None or r.grid is None or box is None:
            return
        old = r.grid.box
        aspect_old = (old[1] - old[0]) / (old[3] - old[2])
        aspect_new = (box[1] - box[0]) / (box[3] - box[2])
        if abs(aspect_new / aspect_old - 1.0) < 0.02:
            return
        view = (
            self.compare_view.panels[0].view if self.layout_name == "compare" else (self.input_view)
        )
        (vx0, vx1), (vy0, vy1) = view.viewbox.viewRange()
        cx, cy = 0.5 * (old[0] + old[1]), 0.5 * (old[2] + old[3])
        near = abs(0.5 * (vx0 + vx1) - cx) < 0.1 * (old[1] - old[0]) and abs(
            0.5 * (vy0 + vy1) - cy
        ) < 0.1 * (old[3] - old[2])
        similar = (
            0.7 < (vx1 - vx0) / (old[1] - old[0]) < 1.4
            or 0.7 < (vy1 - vy0) / (old[3] - old[2]) < 1.4
        )
        if near and similar:
            self._reframe()
            self.request_fit(slots=self._layout_slot_names())

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._first_show:
            # The views have their size only now: frame the data to it, then fit.
            self._first_show = False
            self.resizeDocks(
                [self.data_dock, self.algorithm_dock], [440, 300], Qt.Orientation.Vertical
            )
            QTimer.singleShot(0, self._after_first_show)

    def _after_first_show(self) -> None:
        if self._closing:
            return
        # Settle the layout first, so the picture's box has the plot's final shape (one fit,
        # not two).
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.processEvents()
        self._reframe()
        self.request_fit(now=True)

    def _on_data_changed(self, kind: str) -> None:
        self._refresh_points(reframe=kind == "replace")
        if self.data.n == 0:
            self._debounce.stop()
            self.worker.cancel()
            for name in ["main", *(s.name for s in self.compare_slots)]:
                s = self.slot(name)
                s.result = None
            for view in self._all_views():
                view.clear_result()
            self.outputs_view.clear()
            self.diagnostics_view.clear()
            self.embedding_view.set_points(None, None, None)
            self._dirty.clear()
            self._show_status(
                "No points: pick a data set and Generate, or click to draw.", kind="info"
            )
            return
        self.request_fit(slots=self._layout_slot_names())

    def _panel_changed(self) -> None:
        slots = self._sync_slot_from_panel()
        self.request_fit(slots=slots)

    def _feature_changed(self) -> None:
        slot = self.active_slot()
        slot.feature = self.algorithm_panel.feature_value()
        self.request_fit(slots=[slot.name], now=True)

    # -- fitting ---------------------------------------------------------------------------------
    def request_fit(self, *, slots: list[str] | None = None, now: bool = False) -> None:
        """Mark ``slots`` (default: the current layout's) for fitting; fit soon when live."""
        self._dirty.update(slots or self._layout_slot_names())
        if now:
            self._debounce.stop()
            self.fit_now()
        elif self.live and not self.live_refit.request():
            self._debounce.start()

    def fit_now(self, *, follow: bool = False) -> None:
        """Submit the fits of the layout's slots that wait; ``follow``: queue each behind its
        slot's running fit instead of cancelling it (``FitWorker.submit``)."""
        if self._closing or self._first_show or self._slide_pending:
            return  # the first fit (of a window or a slide) waits for the layout's size
        wanted = [s for s in self._layout_slot_names() if s in self._dirty]
        if not wanted:
            wanted = self._layout_slot_names() if not self._dirty else []
        if self.data.n == 0:
            self._dirty.clear()
            return
        if self.large_data.holds(wanted):
            return  # a large fit waits for the banner's answer (large_data.py)
        for name in wanted:
            self._dirty.discard(name)
            slot = self.slot(name)
            if slot is self.active_slot():
                params, problems = self.algorithm_panel.collect()
                if problems:
                    self.algorithm_panel.mark_errors(problems)
                    name0, reason = next(iter(problems.items()))
                    label = self._param_label(slot.algorithm, name0)
                    slot.error, slot.error_param = reason, name0
                    self._show_status(f"{label}: {reason} Nothing was fitted.", kind="error")
                    self.worker.cancel(name)
                    continue
                slot.params = params
            else:
                problems = registry.get(slot.algorithm).validate(slot.params)
                if problems:
                    self._slot_failed(
                        slot,
                        FitFailure(
                            0, slot.name, next(iter(problems.values())), param=next(iter(problems))
                        ),
                    )
                    continue
            rid = self.worker.submit(self._request(slot), follow=follow)
            self._submitted_version[name] = self._request_version[rid] = self.data.version

    def _request(self, slot: SlotState) -> FitRequest:
        data = self.data
        X = data.X()
        box = self._picture_box()
        return FitRequest(
            algorithm=slot.algorithm,
            params=slot.params,
            X=X,
            y=data.y(),
            test_mask=data.test_mask(),
            slot=slot.name,
            feature=slot.feature,
            grid=GridSpec(resolution=self.resolution, box=box),
            with_svr=self.with_svr and data.regression,
            draft=self.live_refit.draft(),  # see live_refit.py
        )

    def cancel(self) -> None:
        self._debounce.stop()
        self.worker.cancel()

    def _param_label(self, algorithm: str, name: str) -> str:
        for p in registry.get(algorithm).params:
            if p.name == name:
                return p.label or name
        return name

    # -- outcomes --------------------------------------------------------------------------------
    def _on_outcome(self, outcome) -> None:
        version = self._request_version.pop(outcome.request_id, None)
        if self._closing or not self.worker.is_current(outcome):
            return
        slot = self.slot(outcome.slot)
        if isinstance(outcome, FitFailure):
            if outcome.cancelled:
                self._show_status("Fit cancelled; the last picture stays.", kind="info")
                return
            self._slot_failed(slot, outcome)
            return
        slot.result = outcome
        slot.error = slot.error_param = None
        if version is None:
            version = self._submitted_version.get(slot.name, -1)
        self._drawn_version[slot.name] = version
        if slot.name in self._layout_slot_names():
            self._draw(outcome)
        self.fit_drawn.emit(outcome)
        if self.is_up_to_date():
            self.all_drawn.emit()

    def is_settled(self) -> bool:
        """Nothing left to do: every slot of the layout has a fit or a failure for the current
        data and parameters, and no fit is running or waiting."""
        names = self._layout_slot_names()
        if self.worker.is_busy() or self._debounce.isActive():
            return False
        if any(name in self._dirty for name in names):
            return False
        return all(
            self.data.n == 0
            or self._drawn_version.get(s) == self.data.version
            or self._failed_version.get(s) == self.data.version
            for s in names
        )

    def is_up_to_date(self) -> bool:
        """Every slot of the layout shows a fit of the current data and parameters."""
        names = self._layout_slot_names()
        if self.worker.is_busy() or self._debounce.isActive():
            return False
        if any(name in self._dirty for name in names):
            return False
        return all(
            self._drawn_version.get(s) == self.data.version and self.slot(s).result is not None
            for s in names
        )

    def _slot_failed(self, slot: SlotState, failure: FitFailure) -> None:
        slot.error, slot.error_param = failure.message, failure.param
        self._failed_version[slot.name] = self.data.version
        where = ""
        if slot is self.active_slot() and failure.param:
            if self.algorithm_panel.show_error(failure.param, failure.message):
                where = f"{self._param_label(slot.algorithm, failure.param)}: "
        if self.layout_name == "compare" and slot.name.startswith("compare-"):
            self.compare_view.panels[int(slot.name.split("-")[1])].set_error(failure.message)
        title = registry.get(slot.algorithm).title if slot.algorithm in registry.ALGORITHMS else ""
        self._show_status(
            f"{title} — {where}{failure.message} The last good picture stays.", kind="error"
        )
        self.fit_failed.emit(failure)

    def _draw(self, r: FitResult) -> None:
        if r.slot == "main":
            self.input_view.set_result(r)
            if r.points3d is not None:
                self.input3d.set_points(
                    r.points3d,
                    r.y,
                    r.test_mask,
                    r.points3d_labels,
                    f"Input data ({r.X.shape[1]}-D)",
                )
        else:
            self._draw_compare_panel(int(r.slot.split("-")[1]), r)
        if r.slot == self.active_slot().name and not self.live_refit.hold_docks():
            self._draw_docks(r)

    def _draw_compare_panel(self, i: int, r: FitResult) -> None:
        panel = self.compare_view.panels[i]
        panel.set_error(None)
        slot = self.compare_slots[i]
        heading = slot.title or r.title
        three_d = r.X.shape[1] != 2 and r.kind != "regressor"
        page = panel.page(self.compare_mode, three_d)
        shown = r.feature_label.split(": ", 1)[-1]
        if page is panel._embedding:
            shown = f"embedding of all points ({len(r.embedding_labels) or 'no'} features)"
        same = shown.lower() in heading.lower()
        panel.caption.setText(heading if same else f"{heading} — {shown}")
        panel.caption.setToolTip(r.feature_label)
        if not three_d:
            panel.view.set_result(r, title=heading)
        if page is panel._outputs:
            panel.outputs.set_result(r)
        elif page is panel._embedding:
            labels = None if r.kind == "regressor" else r.y
            if r.embedding is not None:
                panel.embedding.set_points(r.embedding, labels, r.test_mask, r.embedding_labels)
            else:
                points = r.points3d if r.points3d is not None else r.X
                panel.embedding.set_points(
                    points,
                    labels,
                    r.test_mask,
                    r.points3d_labels or ("x₁", "x₂", "x₃"),
                    "no embedding: the input data",
                )

    def _compare_mode_changed(self, mode: str) -> None:
        self.compare_mode = mode
        for i, slot in enumerate(self.compare_slots[: self.compare_count]):
            if slot.result is not None:
                self._draw_compare_panel(i, slot.result)
            else:
                self.compare_view.panels[i].page(mode, self.data.dimension > 2)

    def _draw_docks(self, r: FitResult) -> None:
        self.algorithm_panel.set_feature_options(r.feature_options, r.feature)
        self.algorithm_panel.clear_errors()
        self.outputs_view.set_result(r)
        self.diagnostics_view.set_result(r)
        if r.embedding is not None:
            labels = None if r.kind == "regressor" else r.y
            self.embedding_view.set_points(
                r.embedding,
                labels,
                r.test_mask,
                r.embedding_labels,
                f"{r.title}: embedding of all points",
            )
        else:
            self.embedding_view.set_points(None, None, None, title=f"{r.title}: no embedding")
        self._show_status(self._summary(r), kind="ok")

    def _summary(self, r: FitResult) -> str:
        parts = [r.title]
        if r.error_name == "error" and r.train_error is not None:
            parts.append(f"training error {100 * r.train_error:.1f} %")
            if r.test_error is not None:
                parts.append(f"test error {100 * r.test_error:.1f} %")
        elif r.error_name == "RMSE" and r.train_error is not None:
            parts.append(f"training RMSE {r.train_error:.3g}")
        elif r.error_name == "outliers" and r.train_error is not None:
            parts.append(f"{100 * r.train_error:.1f} % of training points flagged")
        parts.append(f"{1000 * r.timings.get('total', 0.0):.0f} ms")
        text = " · ".join(parts)
        if r.warnings:
            text += f" · ⚠ {r.warnings[0]}"
        return text

    def _on_progress(self, slot: str, request_id: int, fraction: float, message: str) -> None:
        if self.worker.latest_id(slot) != request_id:
            return
        self.progress.setRange(0, 100)
        self.progress.setValue(int(100 * fraction))
        self.progress.setToolTip(message)

    def _on_busy(self, busy: bool) -> None:
        self.cancel_action.setEnabled(busy)
        if busy:
            self.progress.setRange(0, 0)
            self._progress_timer.start()
        else:
            self._progress_timer.stop()
            self.progress.hide()
            self.cancel_button.hide()

    def _reveal_progress(self) -> None:
        if self.worker.is_busy():
            self.progress.show()
            self.cancel_button.show()

    def _show_status(self, text: str, *, kind: str = "info") -> None:
        color = {"error": "#D55E00", "ok": self.theme.foreground}.get(kind, self.theme.muted)
        from html import escape

        self.status_label.setText(f"<span style='color:{color}'>{escape(text)}</span>")
        self.status_label.setToolTip(text)
        self.last_status = (kind, text)

    # -- help --------------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        rows = []
        for a in self.actions():
            keys = ", ".join(s.toString() for s in a.shortcuts())
            if keys and not a.text().startswith("Class "):
                rows.append(f"<tr><td><b>{keys}</b></td><td>{a.toolTip()}</td></tr>")
        rows.append("<tr><td><b>1 … 8</b></td><td>Choose the class to draw</td></tr>")
        QMessageBox.information(
            self, "Keyboard shortcuts", "<table cellspacing=4>" + "".join(rows) + "</table>"
        )

    def show_about(self) -> None:
        from .. import __version__

        QMessageBox.about(
            self,
            "About kfdviz",
            f"<b>kfdviz {__version__}</b><br>Kernel PCA, oriented kernel PCA, kernel Fisher "
            "discriminants and the Kernel Orthogonal Centroid, by pointing and clicking.",
        )

    # -- closing -----------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        if self.presenting:
            self.leave_presentation()
        self._close_gallery()
        self._closing = True
        self._debounce.stop()
        self._progress_timer.stop()
        self.save_settings()
        if self.autosaver is not None:
            self.autosaver.stop(clean=True)
        self.worker.shutdown()
        self._shutdown_sweep()
        super().closeEvent(event)
