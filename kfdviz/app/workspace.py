"""The window's workspace: the views in the middle, the docks around them, the layouts.

The middle is a column of banners over a stack of two layouts: the single layout (the input
space view, or the 3-D view for data of three or more dimensions) and the compare layout (two to
four panels, built the first time it is needed); below them, for a session that has charts, the
chart view (curves and images a paper's figure computes, :mod:`kfdviz.app.chart_control`). The
docks are Data, Algorithm, Outputs, Embedding, Diagnostics and Sweep. The workspace draws results into the views and the docks,
frames the data, follows the plot's shape, switches layouts and themes; it never fits. When the
pictures need a new fit (another layout, another panel count, a plot that changed shape) it says
so through :attr:`Workspace.refit_wanted`; the window hands that to the fit control.

Invariants: every slot of the layout on screen is drawn from its last result; every compare
panel draws the same points over the same grid box (:meth:`Workspace.picture_box`), the one the
active plot has the shape of. GUI thread only.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDockWidget,
    QMainWindow,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..pipeline import FitResult, box_for_aspect, data_box
from ..views import DiagnosticsView, InputSpaceView, OutputsView, Scatter3DView
from ..views.chart_view import ChartArea
from ..views.style import THEMES, apply_theme
from .actions import TOOLS
from .algorithm_panel import AlgorithmPanel
from .compare import CompareView
from .data_panel import DataPanel
from .focus_order import name_views, order_tabs
from .main_3d import Main3D
from .pictures import SlotState, caption, settled_params
from .show_results import (
    counts_text,
    draw_compare_panel,
    draw_embedding,
    summary,
)
from .sweep_panel import SweepPanel

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


class Workspace(QObject):
    """Views, docks and layouts of the window (see the module's docstring)."""

    refit_wanted = Signal(object, bool)  # slot names (None: the layout's), now
    view_added = Signal(object)  # an InputSpaceView of the compare layout, once built

    def __init__(self, window: QMainWindow, *, data, pictures, history, actions, status, theme):
        """``history``: the document's (:class:`~kfdviz.app.document.History`); each change the
        user makes here (the compare layout, its panels, links) is one step of it."""
        super().__init__(window)
        self.window = window
        self.data = data
        self.pictures = pictures
        self.history = history
        self.actions = actions
        self.status = status
        self.theme = theme
        self.follow_resize = False  # the plots have their size (the window was shown)
        self.scale = 1.0  # of text, lines and markers (presentation mode: larger)
        self.presenting = False
        self._docks_before_compare: dict | None = None
        self._build_views()
        self._build_docks()
        actions.set_checked_quietly("dark", theme.name == "dark")

    # -- construction ----------------------------------------------------------------------------
    def _build_views(self) -> None:
        self.input_view = InputSpaceView(theme=self.theme)
        self.input3d = Scatter3DView(theme=self.theme)
        self.single = QStackedWidget()
        self.single.addWidget(self.input_view)
        self.single.addWidget(self.input3d)
        self.single_page = QWidget()  # the single layout: the toggle of 3-D data, the view
        page = QVBoxLayout(self.single_page)
        page.setContentsMargins(0, 0, 0, 0)
        page.setSpacing(2)
        self.main3d = Main3D(self.input3d, self.single_page)
        self.shown_bar = self.main3d.bar
        self.show_buttons = self.main3d.buttons
        self.main3d.chosen.connect(self.show_main_3d)
        page.addWidget(self.shown_bar)
        page.addWidget(self.single, 1)
        self._compare_view: CompareView | None = None
        self.central = QStackedWidget()
        self.central.addWidget(self.single_page)
        holder = QWidget()
        self.column = QVBoxLayout(holder)
        self.column.setContentsMargins(0, 0, 0, 0)
        self.column.setSpacing(4)
        self.middle = ChartArea(self.central, theme=self.theme)  # the charts below the pictures
        self.chart_view = self.middle.charts
        self.column.addWidget(self.middle, 1)
        self.window.setCentralWidget(holder)
        self.input_view.viewbox.sigResized.connect(self.view_resized)

    def show_main_3d(self, *, from_result: bool = True) -> None:
        """The large 3-D view: the main picture's embedding or the input points (main_3d.py)."""
        self.main3d.show(self.data, self.pictures.main_slot.result, from_result=from_result)

    def follow_resizes(self, on: bool) -> None:
        """Whether the pictures follow the plots' shape (from the first show until closing)."""
        self.follow_resize = on

    def add_banner(self, banner: QWidget) -> None:
        """A strip above the plots (below those added before)."""
        self.column.insertWidget(self.column.count() - 1, banner)

    @property
    def compare_view(self) -> CompareView:
        """The compare layout, built the first time it is needed (it is not, at start-up)."""
        if self._compare_view is None:
            p = self.pictures
            view = CompareView(theme=self.theme)
            view.activated.connect(self.activate_compare_panel)
            view.algorithm_chosen.connect(self.compare_algorithm_chosen)
            view.count_changed.connect(self.set_compare_count)
            view.mode_changed.connect(self.compare_mode_changed)
            view.set_mode(p.compare_mode)
            self._compare_view = view
            self.central.addWidget(view)
            self.order_tabs()
            view.panels[0].view.viewbox.sigResized.connect(self.view_resized)
            if self.presenting:
                view.set_scale(self.scale, presenting=True)
            for v in view.views():
                self.view_added.emit(v)
                v.set_theme(self.theme)
                v.set_options(
                    expansion=self.input_view._show_expansion,
                    contours=self.actions["contours"].isChecked(),
                )
        return self._compare_view

    def _dock(self, title: str, widget: QWidget, area, name: str) -> QDockWidget:
        dock = QDockWidget(title, self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.window.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        a = self.actions
        tools = [a.tool_actions[k] for k, *_ in TOOLS] + [a["clear"]]
        self.data_panel = DataPanel(tools, [a["open"], a["save"]])
        self.algorithm_panel = AlgorithmPanel()
        self.algorithm_panel.link_toggled.connect(self.set_link)
        data_scroll = QScrollArea()
        data_scroll.setWidgetResizable(True)
        data_scroll.setWidget(self.data_panel)
        algo_scroll = QScrollArea()
        algo_scroll.setWidgetResizable(True)
        algo_scroll.setWidget(self.algorithm_panel)
        for scroll in (data_scroll, algo_scroll):
            scroll.setMinimumWidth(325)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.data_dock = self._dock("Data", data_scroll, LEFT, "data")
        self.algorithm_dock = self._dock("Algorithm", algo_scroll, LEFT, "algorithm")
        self.outputs_view = OutputsView(theme=self.theme)
        self.embedding_view = Scatter3DView(theme=self.theme)
        self.diagnostics_view = DiagnosticsView(theme=self.theme)
        for view in (self.outputs_view, self.embedding_view, self.diagnostics_view):
            view.setMinimumWidth(290)
        self.outputs_dock = self._dock("Outputs", self.outputs_view, RIGHT, "outputs")
        self.embedding_dock = self._dock("Embedding", self.embedding_view, RIGHT, "embedding")
        self.diagnostics_dock = self._dock(
            "Diagnostics", self.diagnostics_view, RIGHT, "diagnostics"
        )
        self.window.tabifyDockWidget(self.embedding_dock, self.diagnostics_dock)
        self.diagnostics_dock.raise_()
        self.sweep_panel = SweepPanel(theme=self.theme)
        self.sweep_dock = self._dock("Sweep", self.sweep_panel, BOTTOM, "sweep")
        self.sweep_dock.hide()
        self.window.resizeDocks(
            [self.data_dock, self.outputs_dock], [300, 380], Qt.Orientation.Horizontal
        )
        name_views(self, data_scroll, algo_scroll)
        self.algorithm_panel.rebuilt.connect(self.order_tabs)
        self.order_tabs()

    def order_tabs(self) -> None:
        """Tab goes through the docks top to bottom (:func:`order_tabs`)."""
        order_tabs(self)

    def docks(self) -> list[QDockWidget]:
        """Every dock, in the View menu's order."""
        return [
            self.data_dock,
            self.algorithm_dock,
            self.outputs_dock,
            self.embedding_dock,
            self.diagnostics_dock,
            self.sweep_dock,
        ]

    def arrange_first_show(self) -> None:
        """The left docks' heights, once the window has its size."""
        self.window.resizeDocks(
            [self.data_dock, self.algorithm_dock], [440, 300], Qt.Orientation.Vertical
        )

    # -- theme, options, scale ------------------------------------------------------------------
    def set_theme(self, name: str) -> None:
        self.theme = THEMES[name]
        apply_theme(self.theme)
        for view in (
            self.input_view,
            self.input3d,
            self.outputs_view,
            self.embedding_view,
            self.diagnostics_view,
            self.chart_view,
            *([self._compare_view] if self._compare_view is not None else []),
        ):
            view.set_theme(self.theme)
        self.sweep_panel.set_theme(self.theme)
        self.actions.set_checked_quietly("dark", name == "dark")
        self.status.set_theme(self.theme)

    def set_dark(self, on: bool) -> None:
        self.set_theme("dark" if on else "light")

    def all_views(self) -> list[InputSpaceView]:
        """The input-space views: the single layout's and the compare panels' (once built)."""
        compare = self._compare_view.views() if self._compare_view is not None else []
        return [self.input_view, *compare]

    def compare_panels(self) -> list:
        return self._compare_view.panels if self._compare_view is not None else []

    def set_view_options(self, *, expansion=None, contours=None) -> None:
        """Expansion points (True, False or "auto") and level sets in every view; the View
        menu's toggles follow."""
        if contours is not None:
            self.actions.set_checked_quietly("contours", bool(contours))
        if expansion is not None:
            self.actions.set_checked_quietly("expansion", expansion is True)
        for v in self.all_views():
            v.set_options(expansion=expansion, contours=contours)

    def expansion_option(self):
        """What the views do with expansion points: True, False or "auto"."""
        return self.input_view._show_expansion

    def show_expansion(self, on: bool) -> None:
        self.set_view_options(expansion=on)

    def show_contours(self, on: bool) -> None:
        for v in self.all_views():
            v.set_options(contours=on)

    def set_view_scale(self, scale: float, *, presenting: bool) -> None:
        """Text, lines and markers of the plots ``scale`` times their size."""
        self.scale, self.presenting = scale, presenting
        self.input_view.set_scale(scale)
        self.input_view.set_presenting(presenting)
        self.input3d.set_scale(scale)
        self.sweep_panel.set_scale(scale)
        self.sweep_panel.run_button.setVisible(not presenting)
        self.chart_view.set_scale(scale)
        if self._compare_view is not None:
            self._compare_view.set_scale(scale, presenting=presenting)

    # -- layouts ---------------------------------------------------------------------------------
    def active_view(self) -> InputSpaceView:
        p = self.pictures
        if p.layout_name == "compare":
            return self.compare_view.panels[p.active_compare].view
        return self.input_view

    def set_layout(self, name: str, *, fit: bool = True) -> None:
        """Show the single or the compare layout, each slot drawn from its last result;
        ``fit``: ask for the layout's fits now."""
        p = self.pictures
        if name == "compare" and self.data.regression:
            self.status.show("The compare layout is for classification data.", kind="error")
            self.actions["compare"].setChecked(False)
            return
        p.set_view(layout_name=name)
        self.actions.set_checked_quietly("compare", name == "compare")
        self._right_docks_for(name)
        if name == "compare":
            if not p.compare_seeded:
                p.seed_compare_from_main()
                self.compare_view.set_mode(p.compare_mode)
            self.compare_view.set_count(p.compare_count)
            for i, slot in enumerate(p.compare_slots):
                self.compare_view.panels[i].set_slot(slot)
            # bound first: showing the layout resizes its plots, which may ask for a fit of
            # the active slot from the algorithm panel's values
            self.activate_compare_panel(p.active_compare, refit=False)
            self.central.setCurrentWidget(self.compare_view)
        else:
            self.bind_panel(p.main_slot)
            self.central.setCurrentWidget(self.single_page)
        self.refresh_points(reframe=True)
        for slot_name in p.layout_slot_names():
            r = p.slot(slot_name).result
            if r is not None:
                self.draw(r)
        if fit:
            self.refit_wanted.emit(p.layout_slot_names(), True)

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

    def docks_before_compare(self) -> dict | None:
        """Which right-hand docks were shown before the compare layout (None: not in it)."""
        return self._docks_before_compare

    def set_docks_before_compare(self, shown: dict | None) -> None:
        self._docks_before_compare = shown

    def toggle_compare(self, on: bool) -> None:
        with self.history.group("Compare on" if on else "Compare off"):
            self.set_layout("compare" if on else "single")

    def set_compare_count(self, n: int) -> None:
        p = self.pictures
        with self.history.group(f"{n} compare panels"):
            active = p.active_compare
            pulled = p.set_compare_count(n)
        self.compare_view.set_count(n)
        for slot in pulled:
            self.compare_view.panels[p.compare_index(slot.name)].set_slot(slot)
        if active >= n:
            self.activate_compare_panel(0, refit=False)
        self.refit_wanted.emit(p.layout_slot_names(), False)

    def activate_compare_panel(self, index: int, *, refit: bool = False) -> None:
        """Make compare panel ``index`` the one the algorithm panel edits."""
        p = self.pictures
        p.set_view(active_compare=index)
        self.compare_view.set_active(index)
        slot = p.compare_slots[index]
        self.bind_panel(slot)
        if slot.result is not None:
            self.draw_docks(slot.result)
        if refit:
            self.refit_wanted.emit([slot.name], False)

    def compare_algorithm_chosen(self, index: int, key: str) -> None:
        p = self.pictures
        with self.history.group():
            slot = p.choose_compare_algorithm(index, key)
        self.compare_view.panels[index].set_slot(slot)
        if index == p.active_compare:
            self.bind_panel(slot)
        self.refit_wanted.emit([slot.name], False)

    def compare_mode_changed(self, mode: str) -> None:
        p = self.pictures
        with self.history.group():
            p.set_view(compare_mode=mode)
        self.compare_mode_shown()

    def bind_panel(self, slot: SlotState) -> None:
        """Show ``slot``'s algorithm and every parameter (none remembered from another slot) in
        the algorithm panel, and the links in the compare layout."""
        panel = self.algorithm_panel
        panel.blockSignals(True)
        panel.set_links(self.pictures.linked, shown=self.pictures.layout_name == "compare")
        panel.set_state(slot.algorithm, settled_params(slot.algorithm, slot.params), slot.feature)
        index = self.pictures.compare_index(slot.name)
        panel.set_name_prefix("" if index is None else f"Panel {index + 1} ")
        panel.blockSignals(False)
        self.order_tabs()  # the panel's widgets may be new (its rebuilt was not heard)
        if slot.result is not None:
            panel.set_feature_options(slot.result.feature_options, slot.result.feature)
        if slot.error_param:
            panel.show_error(slot.error_param, slot.error or "")

    def sync_slot_from_panel(self) -> list[str]:
        """Copy the panel's values into the active slot; the slots that need a new fit. Other
        compare panels change only in linked parameters their algorithm has (valid values only);
        a slot given another algorithm takes the linked values the other panels have."""
        p = self.pictures
        panel = self.algorithm_panel
        params, problems = panel.collect()
        changed, taken = p.set_values(
            p.active_slot(), panel.algorithm(), params, panel.feature_value(), problems
        )
        if taken:
            panel.set_values(taken)
        if p.layout_name == "compare":
            self.compare_view.show_slots(p.shown_compare_slots(), p.compare_mode)
        return changed

    def set_link(self, name: str, on: bool) -> None:
        """Link parameter ``name`` across the compare panels (every shown panel whose algorithm
        has it takes the active panel's value) or unlink it (each keeps the value it has)."""
        p = self.pictures
        _, problems = self.algorithm_panel.collect()
        with self.history.group(f"Link {name}" if on else f"Unlink {name}"):
            changed = p.set_link(name, on, valid=name not in problems)
        self.algorithm_panel.set_links(p.linked, shown=p.layout_name == "compare")
        if not on or p.layout_name != "compare":
            return
        self.compare_view.show_slots(p.shown_compare_slots(), p.compare_mode)
        if changed:
            self.refit_wanted.emit(changed, False)

    def compare_mode_shown(self) -> None:
        """Each shown compare panel on the page of the compare mode, drawn from its result."""
        p = self.pictures
        for i, slot in enumerate(p.compare_slots[: p.compare_count]):
            if slot.result is not None:
                self._draw_compare_panel(i, slot.result)
            else:
                self.compare_view.panels[i].page(p.compare_mode, self.data.dimension > 2)

    # -- points and framing ----------------------------------------------------------------------
    def refresh_points(self, *, reframe: bool = False) -> None:
        """Every view shows the data's points; ``reframe``: and is framed to them."""
        data = self.data
        P = data.display_points()
        labels = data.labels()
        test = data.test_mask()
        three_d = not data.regression and data.dimension >= 3
        for view in self.all_views():
            view.set_regression(data.regression)
            view.set_points(P, labels, test)
        self.shown_bar.setVisible(three_d)
        if three_d:
            self.single.setCurrentWidget(self.input3d)
            self.show_main_3d(from_result=False)
        else:
            self.single.setCurrentWidget(self.input_view)
        for panel in self.compare_panels():
            panel.page(self.pictures.compare_mode, three_d)
        if not data.regression:
            self.data_panel.show_classes(int(data.y().max()) + 1 if data.n else 1)
        self.data_panel.set_counts(counts_text(data))
        if reframe and not three_d:
            self.reframe()

    def picture_box(self) -> tuple[float, float, float, float] | None:
        """The box the level-set image covers: the data's, widened to the view's shape.

        Every compare panel gets the same box. With the view's aspect ratio the image fills the
        plot once the view shows this box (:meth:`reframe`).
        """
        data = self.data
        if data.regression or data.dimension != 2 or data.n == 0:
            return None
        x0, x1, y0, y1 = data_box(data.X(), 0.15)
        view = self.active_view()  # every compare panel has its shape
        w, h = view.viewbox.width(), view.viewbox.height()
        if w < 20 or h < 20:
            return (x0, x1, y0, y1)
        return box_for_aspect((x0, x1, y0, y1), w / h)

    def reframe(self) -> None:
        """Every view shows the picture's box (or the points' when there is no picture)."""
        P = self.data.display_points()
        if P.shape[0] == 0:
            box = (-1.0, 1.0, -1.0, 1.0)
        else:
            box = self.picture_box() or data_box(P, 0.12)
        for view in self.all_views():
            view.viewbox.setRange(xRange=box[:2], yRange=box[2:], padding=0.0)

    def view_resized(self, *_args) -> None:
        """Keep the picture filling the plot when the plot changes shape (the window or a dock
        was resized), unless the user has zoomed or panned away from it."""
        if not self.follow_resize:
            return
        r = self.pictures.active_slot().result
        box = self.picture_box()
        if r is None or r.grid is None or box is None:
            return
        old = r.grid.box
        aspect_old = (old[1] - old[0]) / (old[3] - old[2])
        aspect_new = (box[1] - box[0]) / (box[3] - box[2])
        if abs(aspect_new / aspect_old - 1.0) < 0.02:
            return
        (vx0, vx1), (vy0, vy1) = self.active_view().viewbox.viewRange()
        cx, cy = 0.5 * (old[0] + old[1]), 0.5 * (old[2] + old[3])
        near = abs(0.5 * (vx0 + vx1) - cx) < 0.1 * (old[1] - old[0]) and abs(
            0.5 * (vy0 + vy1) - cy
        ) < 0.1 * (old[3] - old[2])
        similar = (
            0.7 < (vx1 - vx0) / (old[1] - old[0]) < 1.4
            or 0.7 < (vy1 - vy0) / (old[3] - old[2]) < 1.4
        )
        if near and similar:
            self.reframe()
            self.refit_wanted.emit(self.pictures.layout_slot_names(), False)

    # -- results ---------------------------------------------------------------------------------
    def draw(self, r: FitResult, *, docks: bool = True) -> None:
        """Show ``r`` in its slot's picture; ``docks``: and in the docks when its slot is the
        active one."""
        if r.slot == "main":
            self.input_view.set_result(r)
            if r.points3d is not None:
                self.show_main_3d()
        else:
            self._draw_compare_panel(int(r.slot.split("-")[1]), r)
        if docks and r.slot == self.pictures.active_slot().name:
            self.draw_docks(r)

    def _draw_compare_panel(self, i: int, r: FitResult) -> None:
        slot = self.pictures.compare_slots[i]
        heading = caption(slot) or r.title
        draw_compare_panel(self.compare_view.panels[i], heading, r, self.pictures.compare_mode)

    def draw_docks(self, r: FitResult) -> None:
        """Show ``r`` in the docks (outputs, diagnostics, embedding, feature choice) and its
        summary in the status line."""
        self.algorithm_panel.set_feature_options(r.feature_options, r.feature)
        self.algorithm_panel.clear_errors()
        self.outputs_view.set_result(r)
        self.diagnostics_view.set_result(r)
        draw_embedding(self.embedding_view, r)
        self.status.show(summary(r), kind="ok")

    def clear_results(self) -> None:
        """No picture anywhere (no points)."""
        for view in self.all_views():
            view.clear_result()
        self.outputs_view.clear()
        self.diagnostics_view.clear()
        self.embedding_view.set_points(None, None, None)


__all__ = ["Workspace"]
