"""The main window: it builds its collaborators and hands them to each other.

The window itself only wires. What it shows and does belongs to its collaborators, each built
here with what it needs, given explicitly (constructor arguments, signals):

- ``document`` (:class:`~kfdviz.app.document.Document`): everything the user edits, Qt-free, with
  its one history of undoable steps; ``pictures`` (its slots, the layout) is part of it;
- ``data`` (:class:`~kfdviz.app.data_model.DataModel`): the document's points, as signals;
- ``edits`` (:class:`~kfdviz.app.undo_control.UndoControl`): Undo, Redo and the History view;
- ``action_table`` (:class:`~kfdviz.app.actions.ActionTable`): the commands, toolbar and menus;
- ``status`` (:class:`~kfdviz.app.status_line.StatusLine`): the message, notice and progress;
- ``workspace`` (:class:`~kfdviz.app.workspace.Workspace`): the views, docks and layouts;
- ``canvas`` (:class:`~kfdviz.app.canvas_tools.CanvasTools`): drawing on the plots;
- ``fit`` (:class:`~kfdviz.app.fit_control.FitControl`): requests, the fit thread, outcomes;
- ``sweep``, ``charts``, ``files``, ``autosave``, ``exporter``, ``presenter``, ``gallery``: the
  sweep dock, the session's charts, files and sessions, autosave and recovery, export,
  presentation mode, the presets gallery.

Imports go one way: this module imports the collaborators, none of them imports it. Every
collaborator lives on the GUI thread; only the fit, sweep and chart workers' threads run fits, on
frozen requests. The methods below are the window's public face for code that drives it (the command
line, tests, the bench): each forwards to the collaborator that does the work.
"""

from __future__ import annotations

import operator

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QTimer, Signal
from PySide6.QtWidgets import QMainWindow

from .. import session
from ..views.style import THEMES, apply_theme
from .actions import ActionTable, show_about, show_guide, show_shortcuts
from .autosave import AutosaveControl
from .canvas_tools import CanvasTools
from .chart_control import ChartControl
from .compact_layout import CompactLayout
from .data_model import DataModel
from .document import Document
from .export import Exporter
from .fit_control import FitControl
from .gallery import GalleryControl
from .presentation import Presenter
from .session_actions import SessionActions
from .settings import StoredSettings
from .status_line import StatusLine
from .sweep_panel import SweepControl
from .undo_control import UndoControl
from .workspace import Workspace


class MainWindow(QMainWindow):
    """The kfdviz window (see the module's docstring)."""

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
        """Open on ``preset`` (None: the stored algorithm on the default preset when
        ``restore``). ``settings``: where the window's settings are kept (None: nowhere);
        settings that do not validate are reset, with a notice in the status line.
        ``autosave_dir``: where the session is autosaved and looked for after a crash (None:
        no autosave, as in ``--screenshot`` runs and most tests)."""
        super().__init__()
        self.setWindowTitle("kfdviz")
        self.settings = settings  # also where the file dialogs remember their folders
        self.stored = StoredSettings(settings)
        self.stored.check()
        theme_obj = THEMES[theme if theme in THEMES else self.stored.theme()]
        apply_theme(theme_obj)
        self.presenter: Presenter | None = None
        self._first_show = True

        self.document = Document()
        self.pictures = self.document.pictures
        self.data = DataModel(self.document, self)
        self.action_table = ActionTable(self)
        self.status = StatusLine(self.statusBar(), self.action_table["cancel"], theme_obj)
        self.workspace = ws = Workspace(
            self,
            data=self.data,
            pictures=self.pictures,
            history=self.document.history,
            actions=self.action_table,
            status=self.status,
            theme=theme_obj,
        )
        self.canvas = CanvasTools(
            self,
            data=self.data,
            data_panel=ws.data_panel,
            tool_actions=self.action_table.tool_actions,
            status=self.status,
            views=ws.all_views,
        )
        self.canvas.connect_view(ws.input_view)
        ws.view_added.connect(self.canvas.connect_view)
        self.fit = FitControl(
            self,
            data=self.data,
            pictures=self.pictures,
            workspace=ws,
            status=self.status,
            canvas=self.canvas,
        )
        self.sweep = SweepControl(self, panel=ws.sweep_panel, dock=ws.sweep_dock, data=self.data)
        self.charts = ChartControl(self, view=ws.chart_view, data=self.data)
        self.files = SessionActions(
            self,
            data=self.data,
            document=self.document,
            workspace=ws,
            fit=self.fit,
            sweep=self.sweep,
            status=self.status,
            actions=self.action_table,
            settings=settings,
            stored=self.stored,
        )
        self.autosave = AutosaveControl(
            self,
            folder=autosave_dir,
            session_state=self.files.session_state,
            open_session_file=self.files.recover_session_file,
            status=self.status,
            interval_seconds=autosave_interval,
            edit_delay_ms=autosave_delay_ms,
        )
        ws.add_banner(self.autosave.banner)
        ws.add_banner(self.fit.large_data.banner)
        self.exporter = Exporter(
            self,
            session=self.files,
            pictures=self.pictures,
            sweep=self.sweep,
            data=self.data,
            workspace=ws,
            status=self.status,
            settings=settings,
            charts=self.charts,
        )
        self.gallery = GalleryControl(self, load_preset=self.files.load_preset)
        self.toolbar = self.action_table.build_bars(ws.docks(), self.files.load_preset)
        self.presenter = Presenter(
            self,
            workspace=ws,
            pictures=self.pictures,
            data=self.data,
            fit=self.fit,
            files=self.files,
            sweep=self.sweep,
            status=self.status,
            autosave=self.autosave,
            actions=self.action_table,
            toolbar=self.toolbar,
            stored=self.stored,
        )
        self.compact_layout = CompactLayout(self, ws)  # small screens: tabbed docks
        self.edits = UndoControl(
            self,
            document=self.document,
            data=self.data,
            workspace=ws,
            fit=self.fit,
            actions=self.action_table,
            status=self.status,
        )
        self._wire()

        self.resize(1280, 800)
        if restore and settings is not None and preset is None:
            self.stored.restore_window(self)
            self.fit.set_live(self.stored.live())
            self.action_table.set_checked_quietly("live", self.fit.live)
        self.files.load_preset(preset or "default", restore_params=restore and preset is None)
        self.document.history.clear()  # the window opens on a fresh history
        self.data.changed.connect(self.autosave.edited)
        self.data.changed.connect(self.sweep.data_changed)
        ws.algorithm_panel.changed.connect(self.autosave.edited)
        if self.stored.notices:
            self.status.notice(self.stored.notice_text(), key="settings")
            self.status.show(self.stored.notice_text(), kind="error")

    def _wire(self) -> None:
        """Connect the collaborators' signals (the order of the data's listeners matters: the
        large-data guard, connected when the fit control was built, hears of new data first)."""
        ws, fit = self.workspace, self.fit
        self.action_table.connect_handlers(lambda path: operator.attrgetter(path)(self))
        self.data.changed.connect(fit.data_changed)
        self.data.changed.connect(self.canvas.data_changed)
        ws.algorithm_panel.changed.connect(fit.panel_changed)
        ws.algorithm_panel.feature_changed.connect(fit.feature_changed)
        ws.algorithm_panel.width_from_data_requested.connect(self.files.width_from_data)
        ws.data_panel.generate_requested.connect(self.files.generate)
        ws.data_panel.split_changed.connect(self.data.set_split)
        ws.data_panel.mode_changed.connect(self.files.set_mode)
        ws.data_panel.standardize_changed.connect(self.files.set_standardize)
        self.document.restored_listeners.append(lambda *_: self.files.show_standardize())
        ws.refit_wanted.connect(lambda slots, now: fit.request_fit(slots=slots, now=now))
        self.files.applied.connect(self.autosave.edited)
        self.files.view_settings_changed.connect(self.charts.set_view_settings)
        self.data.changed.connect(self.charts.data_changed)
        fit.drawn.connect(self.fit_drawn)
        fit.failed.connect(self.fit_failed)
        fit.all_drawn.connect(self.all_drawn)

    # -- the public face -------------------------------------------------------------------------
    def load_preset(self, name: str, *, restore_params: bool = False) -> None:
        """Open preset ``name`` (its data, panels and view)."""
        self.files.load_preset(name, restore_params=restore_params)

    def apply_session(self, state: session.SessionState, *, restore_params=False) -> None:
        """Show a session (data, roles, panels, layout, view) and fit it."""
        self.files.apply_session(state, restore_params=restore_params)

    def session_state(self) -> session.SessionState:
        """What is on screen, as a session."""
        return self.files.session_state()

    def open_session_file(self, path: str) -> bool:
        """Open a ``.kfdviz`` session; False (said in the status line) when it cannot be read."""
        return self.files.open_session_file(path)

    def save_session_file(self, path: str) -> bool:
        """Save the session on screen; False (said in the status line) when it cannot be."""
        return self.files.save_session_file(path)

    def load_file(self, path: str) -> bool:
        """Load points from a data file (CSV, text, NPZ, JSON)."""
        return self.files.load_file(path)

    def save_to(self, path: str) -> bool:
        """Save the points (CSV or NPZ) with their roles."""
        return self.files.save_to(path)

    def request_fit(self, *, slots: list[str] | None = None, now: bool = False) -> None:
        """Mark ``slots`` (default: the layout's) for fitting; fit soon when live, or now."""
        self.fit.request_fit(slots=slots, now=now)

    def is_settled(self) -> bool:
        """Every picture of the layout has a fit or a failure of the current data, and no fit
        is running or waiting; so have the session's charts, if it has any."""
        return self.fit.is_settled() and self.charts.is_settled()

    def is_up_to_date(self) -> bool:
        """Every picture of the layout shows a fit of the current data and parameters."""
        return self.fit.is_up_to_date()

    def export_figure_to(self, path, *, size=None, dpi=None, what: str = "picture") -> bool:
        """Write the picture on screen (or the sweep's curves) to a PNG, SVG or PDF file."""
        return self.exporter.export_figure_to(path, size=size, dpi=dpi, what=what)

    def export_data_to(self, path, what: str = "picture") -> bool:
        """Write the points, outputs, embeddings (CSV or NPZ) and the parameters (JSON)."""
        return self.exporter.export_data_to(path, what)

    def export_3d_to(self, path, *, size=None, dpi=None, view=None) -> bool:
        """Write the 3-D view the user looks at (or ``view``)."""
        return self.exporter.export_3d_to(path, size=size, dpi=dpi, view=view)

    @property
    def last_status(self) -> tuple[str, str]:
        """(kind, text) of the status line's message."""
        return self.status.last

    @property
    def presenting(self) -> bool:
        """Whether presentation mode is on."""
        return self.presenter is not None and self.presenter.presenting

    def show_shortcuts(self) -> None:
        show_shortcuts(self)

    def show_guide(self) -> None:
        show_guide(self)

    def show_about(self) -> None:
        show_about(self)

    # -- events ----------------------------------------------------------------------------------
    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._first_show:
            # The views have their size only now: frame the data to it, then fit.
            self._first_show = False
            self.fit.start()
            self.workspace.follow_resizes(True)
            self.workspace.arrange_first_show()
            self.compact_layout.follow(self.size())
            QTimer.singleShot(0, self._after_first_show)

    def _after_first_show(self) -> None:
        if self.fit.closing:
            return
        # Settle the layout first, so the picture's box has the plot's final shape (one fit,
        # not two).
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.processEvents()
        self.compact_layout.show_main_parameters()
        self.workspace.reframe()
        self.fit.request_fit(now=True)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.presenter is not None:
            self.presenter.window_resized(event)
        if not self._first_show and not self.presenting:
            self.compact_layout.follow(event.size())

    def save_settings(self) -> None:
        """Store the geometry, dock layout, theme, live mode and the main picture."""
        slot = self.pictures.main_slot
        self.stored.save(
            geometry=self.saveGeometry(),
            window_state=self.saveState(),
            theme=self.workspace.theme.name,
            live=self.fit.live,
            algorithm={"algorithm": slot.algorithm, "params": slot.params, "feature": slot.feature},
            generator=list(self.files.generator_state) if self.files.generator_state else None,
        )

    def closeEvent(self, event) -> None:
        self.presenter.leave()
        self.gallery.close()
        self.fit.shutdown()
        self.workspace.follow_resizes(False)
        self.status.stop()
        self.save_settings()
        self.autosave.stop()
        self.sweep.shutdown()
        self.charts.shutdown()
        super().closeEvent(event)


__all__ = ["MainWindow"]
