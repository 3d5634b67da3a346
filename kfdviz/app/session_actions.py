"""Files and sessions: what the window opens, saves and generates, and the session on screen.

A session (:class:`kfdviz.session.SessionState`) is the whole picture: the points and their
roles, the slots' algorithms and parameters, the layout, the view settings, the sweep.
:meth:`SessionActions.apply_session` shows one (a preset or a file) and asks for its fits;
:meth:`SessionActions.session_state` reads the one on screen back, so that saving and opening a
session redraws the same picture. Besides the slots (:class:`~kfdviz.app.pictures.Pictures`)
and the data model, the session on screen has a part kept here: the preset it came from, its view settings (also those
only figures use) and its title; the generator that made its points is the document's.

Opening a preset, generating and loading points are one step each of the document's history;
a session file opened starts a fresh history (its steps were another document's).

Every read or write failure is said in the status line; the points on screen are never lost to
one. GUI thread only.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow

from .. import datasets, session
from ..pipeline.advice import width_from_data
from ..pipeline.standardize import SCALE_RATIO, needs_standardizing, scale_ratio
from ..views.style import THEMES
from .document import short_label
from .file_dialogs import EXPORT_FOLDER, ask_open_path, ask_save_path
from .pictures import SlotState, current_title, default_compare_slots, param_names
from .wording import count

SESSION_FILTER = "kfdviz sessions (*.kfdviz);;All files (*)"
POINTS_OPEN_FILTER = "Data files (*.csv *.txt *.npz *.json);;All files (*)"
POINTS_SAVE_FILTER = "CSV (*.csv);;NumPy (*.npz)"
LINKED_SETTING = session.LINKED_SETTING


def linked_params(settings: dict, panels) -> list[str]:
    """The parameters a compare session links across its panels (its view setting
    ``linked_params``, validated when the session was read), those a panel has."""
    names = settings.get(LINKED_SETTING) or []
    have = set().union(*(param_names(panel.algorithm) for panel in panels))
    return [name for name in names if name in have]


class SessionActions(QObject):
    """Open, save, generate; the session on screen (see the module's docstring)."""

    applied = Signal()  # a session (preset or file) is on screen
    # the view settings of the session on screen (a session applied, or put back after
    # presentation mode), before its data are
    view_settings_changed = Signal(object)

    def __init__(
        self,
        window: QMainWindow,
        *,
        data,
        document,
        workspace,
        fit,
        sweep,
        status,
        actions,
        settings,
        stored,
    ):
        """``settings``: the QSettings the file dialogs remember folders in (or None);
        ``stored``: the window's StoredSettings (the algorithm restored at start)."""
        super().__init__(window)
        self.window = window
        self.data = data
        self.doc = document
        self.history = document.history
        self.pictures = document.pictures
        self.workspace = workspace
        self.fit = fit
        self.sweep = sweep
        self.status = status
        self.actions = actions
        self.settings = settings
        self.stored = stored
        self.preset_name: str | None = None  # the preset (or session's preset) on screen
        self.view_settings: dict = {}  # the session's view settings, also those for figures

    @property
    def generator_state(self) -> tuple[str, dict, int] | None:
        """(name, parameters, seed) of the generator that made the points, or None."""
        return self.doc.generator

    # -- sessions --------------------------------------------------------------------------------
    def load_preset(self, name: str, *, restore_params: bool = False) -> None:
        """Open a preset: its data (generated with its seed and split) and its panels;
        ``restore_params``: the main picture's algorithm as stored in the settings. One step
        of the history."""
        state = session.state_from_preset(name)
        with self.history.group(f"Open preset {state.title or name}"):
            self.apply_session(state, restore_params=restore_params)

    def apply_session(self, state: session.SessionState, *, restore_params=False) -> None:
        """Show a session (a preset, or a file): data, roles, panels, layout, view."""
        with self.history.group(f"Open {state.title or 'session'}"):
            self._apply_session(state, restore_params=restore_params)

    def _apply_session(self, state: session.SessionState, *, restore_params=False) -> None:
        ws, p = self.workspace, self.pictures
        self.fit.stop_waiting()
        split = dict(state.split or {})
        ratio, seed = float(split.get("test_ratio", 0.0)), int(split.get("seed", 0))
        self.data.remember_split(ratio, seed)
        ws.data_panel.set_test_ratio(ratio)
        gen = state.generator
        if gen:
            self.doc.set_generator((gen["name"], dict(gen.get("params") or {}), gen["seed"]))
            ws.data_panel.set_generator(gen["name"], dict(gen.get("params") or {}), gen["seed"])
        ws.data_panel.set_regression(state.regression)
        self.doc.set_standardize(state.standardize)
        p.set_view(with_svr=bool(state.with_svr))
        self.actions.set_checked_quietly("svr", p.with_svr)
        settings = state.view_settings or {}
        self.preset_name = state.preset
        self.view_settings = dict(settings)
        self.apply_view_settings(settings)
        self.view_settings_changed.emit(self.view_settings)
        self.sweep.set_spec(state.sweep)
        panels = state.panels
        saved = self.stored.algorithm() if restore_params else None
        if state.layout == "single":
            panel = panels[0]
            main = SlotState("main", panel.algorithm, dict(panel.params), panel.feature).titled(
                panel.title
            )
            if saved is not None:
                main = SlotState(
                    "main", saved["algorithm"], dict(saved["params"]), saved["feature"]
                )
            # the compare layout, when opened, starts from this session's picture
            p.set_view(main_slot=main, compare_seeded=False, linked=set())
        else:
            slots = []
            for i, panel in enumerate(panels):
                # no title: the caption is built from the parameters
                slots.append(
                    SlotState(
                        f"compare-{i}", panel.algorithm, dict(panel.params), panel.feature
                    ).titled(panel.title)
                )
            defaults = default_compare_slots()
            p.set_view(
                compare_slots=slots + defaults[len(slots) :],
                compare_count=len(panels),
                active_compare=0,
                compare_seeded=True,
                linked=set(linked_params(settings, panels)),
                compare_mode=state.view if state.view in ("outputs", "embedding") else "input",
            )
            if ws.compare_panels():
                ws.compare_view.set_mode(p.compare_mode)
        self.window.setWindowTitle(f"kfdviz — {state.title}" if state.title else "kfdviz")
        y = state.y if state.y is not None else np.zeros(len(state.X), np.int64)
        roles = np.where(state.test_mask, "test", "train")
        self.data.replace(state.X, y, regression=state.regression, roles=roles)
        self.show_standardize()
        ws.set_layout(state.layout, fit=False)
        view = {
            "outputs": ws.outputs_dock,
            "embedding": ws.embedding_dock,
            "diagnostics": ws.diagnostics_dock,
        }.get(state.view)
        if view is not None and state.layout == "single":
            view.raise_()
        self.status.show(state.description or state.title or "Session opened.", kind="info")
        self.fit.request_fit(now=True, slots=p.layout_slot_names())
        self.sweep.show(run=True)
        self.applied.emit()

    def apply_view_settings(self, settings: dict) -> None:
        """The view settings of a session or preset the window understands (resolution, level
        sets, expansion points, theme); the others stay in the session for figures."""
        self.pictures.set_view(
            resolution=int(settings.get("resolution", session.VIEW_DEFAULTS["resolution"]))
        )
        contours = bool(settings.get("show_contours", True))
        expansion = settings.get("show_expansion", "auto")
        expansion = expansion if expansion == "auto" else bool(expansion)
        self.workspace.set_view_options(expansion=expansion, contours=contours)
        theme = settings.get("theme")
        if theme in THEMES and theme != self.workspace.theme.name:
            self.workspace.set_theme(theme)

    def session_state(self) -> session.SessionState:
        """What is on screen, as a session (the data, the roles, the panels, the layout)."""
        p = self.pictures
        if p.layout_name == "compare":
            slots = p.compare_slots[: p.compare_count]
            view = p.compare_mode
        else:
            slots = [p.main_slot]
            view = "input"
        # (only the parameters each algorithm takes: what its fit used)
        panels = tuple(
            session.PanelState(
                s.algorithm,
                {k: v for k, v in s.params.items() if k in param_names(s.algorithm)},
                s.feature,
                current_title(s),
            )
            for s in slots
        )
        links = {}
        if p.layout_name == "compare":
            have = set().union(*(param_names(s.algorithm) for s in slots))
            links = {LINKED_SETTING: sorted(p.linked & have)}
        gen = None
        if self.generator_state is not None:
            name, params, seed = self.generator_state
            gen = {"name": name, "params": params, "seed": seed}
        return session.SessionState(
            X=np.array(self.data.X(), dtype=float),
            y=np.array(self.data.y()),
            test_mask=np.array(self.data.test_mask(), dtype=bool),
            panels=panels,
            layout=p.layout_name,
            view=view,
            regression=self.data.regression,
            standardize=self.doc.standardize,
            with_svr=p.with_svr,
            generator=gen,
            split={"test_ratio": self.data.test_ratio(), "seed": self.data.split_seed()},
            view_settings={
                **{k: v for k, v in self.view_settings.items() if k != LINKED_SETTING},
                **links,
                "resolution": p.resolution,
                "theme": self.workspace.theme.name,
                "show_contours": self.actions["contours"].isChecked(),
                "show_expansion": self.workspace.expansion_option(),
            },
            title=self.window.windowTitle().removeprefix("kfdviz — ").removeprefix("kfdviz"),
            preset=self.preset_name,
            sweep=self.sweep.spec,
        )

    def document(self) -> dict:
        """The document part of the session on screen (to put back with restore_document)."""
        return {
            "generator": self.generator_state,
            "view_settings": dict(self.view_settings),
            "preset": self.preset_name,
            "title": self.window.windowTitle(),
        }

    def restore_document(self, doc: dict) -> None:
        """Put back a :meth:`document` (the slots' model is put back by its owner first)."""
        self.doc.set_generator(doc["generator"])
        self.actions.set_checked_quietly("svr", self.pictures.with_svr)
        self.view_settings = doc["view_settings"]
        self.apply_view_settings(self.view_settings)
        self.view_settings_changed.emit(self.view_settings)
        self.preset_name = doc["preset"]
        self.window.setWindowTitle(doc["title"])
        if self.generator_state is not None:
            name, params, seed = self.generator_state
            self.workspace.data_panel.set_generator(name, dict(params), seed)

    def open_session(self) -> None:
        path = ask_open_path(self.window, "Open session", SESSION_FILTER, self.settings)
        if path:
            self.open_session_file(path)

    def open_session_file(self, path: str, *, fresh_history: bool = True) -> bool:
        """Open a ``.kfdviz`` session; with ``fresh_history`` its history starts empty, else
        opening it is one step (recovering an autosave, which Undo takes back)."""
        try:
            state = session.load_session(path)
        except (session.SessionError, OSError) as exc:
            self.status.show(f"Could not open the session: {exc}", kind="error")
            return False
        self.apply_session(state)
        if fresh_history:
            self.history.clear()
        return True

    def recover_session_file(self, path: str) -> bool:
        """Open an autosaved session as one undoable step."""
        return self.open_session_file(path, fresh_history=False)

    def save_session(self) -> None:
        path = ask_save_path(
            self.window,
            "Save session",
            "figure.kfdviz",
            SESSION_FILTER,
            self.settings,
            suffix=".kfdviz",
        )
        if path:
            self.save_session_file(path)

    def save_session_file(self, path: str) -> bool:
        try:
            written = session.save_session(path, self.session_state())
        except (session.SessionError, OSError, ValueError) as exc:
            self.status.show(f"Could not save the session: {exc}", kind="error")
            return False
        self.status.show(f"Saved the session to {Path(written).name}", kind="info")
        return True

    # -- data sets -------------------------------------------------------------------------------
    def generate(self, name: str, params: dict, seed: int) -> None:
        try:
            X, y = datasets.make(name, seed=seed, **params)
        except (ValueError, TypeError) as exc:
            self.status.show(f"Could not generate {name}: {exc}", kind="error")
            return
        regression = datasets.describe(name)["task"] == "regression"
        n_classes = 0 if regression else len(np.unique(y))
        if n_classes > datasets.MAX_CLASSES:  # checked before anything changes: nothing is lost
            self.status.show(
                f"Could not generate {name}: it has {n_classes} classes, and the window holds "
                f"at most {datasets.MAX_CLASSES}; choose another data set (the points stay)",
                kind="error",
            )
            return
        title = str(datasets.describe(name).get("title", name))
        with self.history.group(f"Generate {short_label(title)}"):
            self._generated(name, params, seed, X, y)

    def _generated(self, name: str, params: dict, seed: int, X, y) -> None:
        regression = datasets.describe(name)["task"] == "regression"
        self.doc.set_generator((name, dict(params), seed))
        if regression != self.data.regression:
            self.workspace.data_panel.set_regression(regression)
            self.workspace.algorithm_panel.set_mode(
                "regression" if regression else "classification"
            )
            self.workspace.sync_slot_from_panel()
        self.doc.set_standardize(False)  # a generator's features share their units
        self.data.replace(X, y, regression=regression)
        self.show_standardize()
        self.width_from_data(quiet=True)

    def width_from_data(self, *, quiet: bool = False) -> None:
        """Set a Gaussian kernel's width to the training points' scale (the median squared
        distance, the papers' exp(-||x - z||^2 / c)); a new data set starts from it. One step
        (of its own, or of the action that asked for it)."""
        with self.history.group("Width from data"):
            self._width_from_data(quiet)

    def _width_from_data(self, quiet: bool) -> None:
        panel = self.workspace.algorithm_panel
        width = panel.widget("width")
        kernel = panel.widget("kernel")
        if width is None or (kernel is not None and kernel.value() != "rbf") or self.data.n < 2:
            if not quiet:
                self.status.show("Width from data applies to the Gaussian kernel.", kind="info")
            return
        train = ~np.asarray(self.data.test_mask(), dtype=bool)
        try:
            # the scale of what the kernel sees (standardized features when they are)
            seen = self.doc.kernel_data(self.data.X(), train)
            value = width_from_data(seen[train])
        except ValueError as exc:
            self.status.show(f"No width from these data: {exc}", kind="error")
            return
        panel.set_width(value)
        self.status.show(
            f"Width {value:.3g}: the median squared distance between training points.",
            kind="info",
        )

    def set_standardize(self, on: bool) -> None:
        """The Data panel's "Standardize features" box: the kernel sees the features
        standardized or as they are, with the width from what it sees; one step."""
        if bool(on) == self.doc.standardize:
            return
        with self.history.group(f"Standardize features {'on' if on else 'off'}"):
            self.doc.set_standardize(on)
            self.width_from_data(quiet=True)
        self.show_standardize()
        self.fit.request_fit()

    def show_standardize(self) -> None:
        """Show the document's choice in the Data panel, with a note when the features'
        scales differ by more than SCALE_RATIO."""
        X = np.asarray(self.data.X(), dtype=float)
        applies = X.ndim == 2 and X.shape[1] > 2
        note = ""
        if applies and needs_standardizing(X):
            ratio = scale_ratio(X)
            note = f"The features' scales differ {ratio:,.0f}× (more than {SCALE_RATIO:.0f}×): " + (
                "the kernel sees them standardized."
                if self.doc.standardize
                else "one feature drowns the others in the kernel's distances."
            )
        self.workspace.data_panel.set_standardize(self.doc.standardize, applies, note)

    def set_mode(self, mode: str) -> None:
        """Classification or regression (the Data panel's switch)."""
        regression = mode == "regression"
        if regression == self.data.regression:
            return
        with self.history.group("Regression mode" if regression else "Classification mode"):
            self._set_mode(mode, regression)

    def _set_mode(self, mode: str, regression: bool) -> None:
        self.workspace.algorithm_panel.set_mode(mode)
        self.workspace.sync_slot_from_panel()
        if regression and self.pictures.layout_name == "compare":
            self.workspace.set_layout("single", fit=False)
        self.data.set_regression(regression)
        self.status.show(
            "Regression mode: click to add (x, y) samples of a function."
            if regression
            else "Classification mode: click to add points of the selected class.",
            kind="info",
        )

    def open_file(self) -> None:
        path = ask_open_path(self.window, "Load points", POINTS_OPEN_FILTER, self.settings)
        if path:
            self.load_file(path)

    def load_file(self, path: str) -> bool:
        try:
            loaded = datasets.load_for_drawing(path)
        except Exception as exc:  # show every reason a file cannot be read; the points stay
            self.status.show(f"Could not load {Path(path).name}: {exc}", kind="error")
            return False
        with self.history.group(f"Load {Path(path).name}"):
            self._loaded(loaded)
        self.status.show(
            f"Loaded {count(len(loaded.X), 'point')} from {Path(path).name}", kind="info"
        )
        return True

    def _loaded(self, loaded) -> None:
        X, y = loaded.X, loaded.y
        regression = loaded.task == "regression"
        self.workspace.data_panel.set_regression(regression)
        self.workspace.algorithm_panel.set_mode("regression" if regression else "classification")
        self.workspace.sync_slot_from_panel()
        # A file's features may be in other units: the kernel sees them standardized when
        # their scales differ by more than SCALE_RATIO (the box says so; one click undoes it).
        X2 = np.asarray(X, dtype=float)
        self.doc.set_standardize(X2.ndim == 2 and X2.shape[1] > 2 and needs_standardizing(X2))
        # The file's train/test roles, where it has them (a file saved from here does).
        self.data.replace(X, y, regression=regression, roles=loaded.roles)
        self.show_standardize()
        self.doc.set_generator(None)  # the points are the file's, not a generator's
        self.width_from_data(quiet=True)

    def save_file(self) -> None:
        path = ask_save_path(
            self.window,
            "Save points",
            "points.csv",
            POINTS_SAVE_FILTER,
            self.settings,
            suffix=".csv",
        )
        if path:
            self.save_to(path)

    def save_to(self, path: str) -> bool:
        try:
            roles = np.where(self.data.test_mask(), "test", "train")
            datasets.save(path, self.data.X(), self.data.y(), roles=roles)
        except Exception as exc:  # a full disk, a bad folder, ...: say so, keep the points
            self.status.show(f"Could not save {Path(path).name}: {exc}", kind="error")
            return False
        self.status.show(f"Saved {self.data.n} points to {Path(path).name}", kind="info")
        return True

    # -- the screenshot --------------------------------------------------------------------------
    def export_png(self) -> None:
        path = ask_save_path(
            self.window,
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
        if not self.workspace.central.grab().save(path, "PNG"):
            self.status.show(
                f"Could not save the screenshot to {path}: check that the folder exists and can "
                "be written to",
                kind="error",
            )
            return False
        self.status.show(f"Saved the screenshot to {Path(path).name}", kind="info")
        return True


__all__ = ["POINTS_OPEN_FILTER", "POINTS_SAVE_FILTER", "SESSION_FILTER", "SessionActions"]
