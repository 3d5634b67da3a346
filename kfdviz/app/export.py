"""Export from the window: the figure (PNG, SVG, PDF), the data, the clipboard, the 3-D view.

Everything here works on what the window shows now — its session and the results already drawn —
and never refits. The figure goes through :mod:`kfdviz.figure` (``plan_figure`` then
``save_figure``), the same renderer as ``kfdviz render``; the data through
:func:`kfdviz.export_data.export_data`.

The 3-D view exports its OpenGL framebuffer as PNG (what is on screen, at its size); at a chosen
size, and as SVG or PDF, it goes through the figure renderer's projection of the same points from
the same camera angles (vector paths and text).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .. import render
from ..export_data import export_data
from ..figure.export import (
    DEFAULT_DPI,
    MAX_DPI,
    MAX_PIXELS,
    default_size,
    format_of,
    render_image,
    save_figure,
    titles_for,
)
from ..figure.plan import FigurePlan, PanelPlan
from ..session import VIEW_DEFAULTS
from .file_dialogs import EXPORT_FOLDER, ask_save_path, last_folder, remember_folder
from .script_export import export_script

SLIDE = (1600, 900)
# A draft (app/drafts.py) is never exported: the exact picture replaces it a moment later.
DRAFT_REFUSAL = (
    "The picture on screen is a draft (the exact fit is still being computed): "
    "wait for it to replace the draft, then export again."
)
COLUMN_INCHES = 3.5
PAGE_INCHES = 7.0
PAGE_HEIGHT_INCHES = 9.0  # the tallest figure a page's text block holds
PRINT_DPI = 300

# (key, label): the size choices of the export dialog.
SIZE_PRESETS = (
    ("slide", "Slide 1600 × 900 px"),
    ("column", f"Paper column {COLUMN_INCHES:g} in @ {PRINT_DPI} dpi"),
    ("page", f"Paper page width {PAGE_INCHES:g} in @ {PRINT_DPI} dpi"),
    ("custom", "Custom size"),
)
FIGURE_FILTER = "PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"
DATA_FILTER = "CSV table with JSON parameters (*.csv);;NumPy archive (*.npz)"
# (value, label): the panels' arrangement choices of the export dialog (render's options).
ARRANGEMENTS = (
    ("auto", "Automatic"),
    ("row", "One row"),
    ("column", "One column"),
    ("grid", "Grid"),
)
# (value, label): which titles an exported figure shows (kfdviz.figure.plan.TITLES).
TITLE_CHOICES = (
    ("all", "Figure and panel titles"),
    ("panels", "Panel titles only (the caption names the figure)"),
    ("none", "No titles (the caption names the figure and its panels)"),
)
# Size presets whose figures go into a paper, under a caption that names the figure: they
# start with the panels' titles only.
PAPER_SIZES = ("column", "page")


@dataclass(frozen=True)
class ExportChoice:
    path: str
    size: tuple[int, int] | None  # pixels; None: the natural size of a 3-D grab
    dpi: float
    what: str = "picture"  # "picture" or "sweep"
    titles: str = "all"  # one of TITLE_CHOICES' values
    arrangement: str = "auto"  # one of ARRANGEMENTS' values


def with_layout(plan: FigurePlan, titles: str, arrangement: str) -> FigurePlan:
    """``plan`` with the titles and the panels' arrangement chosen."""
    return dataclasses.replace(
        plan, settings={**plan.settings, "titles": titles, "arrangement": arrangement}
    )


def preset_size(key: str, plan: FigurePlan | None) -> tuple[tuple[int, int], float]:
    """((width, height), dpi) of a size preset; paper sizes are as tall as the panels need."""
    if key == "slide":
        return SLIDE, DEFAULT_DPI
    inches = COLUMN_INCHES if key == "column" else PAGE_INCHES
    width = round(inches * PRINT_DPI)
    if plan is None:
        return (width, round(width * 0.75)), float(PRINT_DPI)
    tallest = round(PAGE_HEIGHT_INCHES * PRINT_DPI)
    return default_size(plan, PRINT_DPI, width, tallest), float(PRINT_DPI)


class ExportDialog(QDialog):
    """File, size and resolution of an exported figure; the format follows the file's suffix."""

    chosen = Signal(object)  # an ExportChoice, when accepted

    def __init__(
        self,
        parent: QWidget | None,
        *,
        title: str = "Export figure",
        path: str = "figure.png",
        plan_for=None,
        sweep_available: bool = False,
        allow_natural: bool = False,
    ):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("exportDialog")
        self._plan_for = plan_for  # what -> FigurePlan, for the paper sizes' heights
        self.path_edit = QLineEdit(path)
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.format_label = QLabel("")
        self.what = QComboBox()
        self.what.addItem("The picture on screen", "picture")
        if sweep_available:
            self.what.addItem("The sweep curves", "sweep")
        self.what.setVisible(sweep_available)
        self.size_combo = QComboBox()
        if allow_natural:
            self.size_combo.addItem("As on screen", "natural")
        for key, label in SIZE_PRESETS:
            self.size_combo.addItem(label, key)
        self.titles = QComboBox()
        self.titles.setObjectName("exportTitles")
        for value, label in TITLE_CHOICES:
            self.titles.addItem(label, value)
        self.arrangement = QComboBox()
        for value, label in ARRANGEMENTS:
            self.arrangement.addItem(label, value)
        self.width_spin = QSpinBox()
        self.height_spin = QSpinBox()
        for spin in (self.width_spin, self.height_spin):
            spin.setRange(16, MAX_PIXELS)
            spin.setSuffix(" px")
        self.dpi_spin = QSpinBox()
        self.dpi_spin.setRange(24, int(MAX_DPI))
        self.dpi_spin.setSuffix(" dpi")
        self.physical = QLabel("")
        size_row = QHBoxLayout()
        size_row.addWidget(self.width_spin)
        size_row.addWidget(QLabel("×"))
        size_row.addWidget(self.height_spin)
        size_row.addWidget(self.dpi_spin)
        size_row.addStretch(1)
        form = QFormLayout()
        form.addRow("File", row)
        form.addRow("Format", self.format_label)
        if sweep_available:
            form.addRow("Show", self.what)
        form.addRow("Size", self.size_combo)
        form.addRow("", size_row)
        form.addRow("", self.physical)
        form.addRow("Panels", self.arrangement)
        form.addRow("Titles", self.titles)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.path_edit.textChanged.connect(self._update_format)
        self.size_combo.currentIndexChanged.connect(self._size_chosen)
        self.what.currentIndexChanged.connect(self._apply_preset)
        self.titles.currentIndexChanged.connect(self._apply_preset)
        self.arrangement.currentIndexChanged.connect(self._apply_preset)
        for spin in (self.width_spin, self.height_spin, self.dpi_spin):
            spin.valueChanged.connect(self._custom_edit)
        self._applying = False
        self._size_chosen()
        self._update_format()

    # -- state ---------------------------------------------------------------------------------
    def size_key(self) -> str:
        return self.size_combo.currentData()

    def set_size_key(self, key: str) -> None:
        index = self.size_combo.findData(key)
        if index >= 0:
            self.size_combo.setCurrentIndex(index)

    def choice(self) -> ExportChoice:
        natural = self.size_key() == "natural"
        size = None if natural else (self.width_spin.value(), self.height_spin.value())
        return ExportChoice(
            self.path_edit.text().strip(),
            size,
            float(self.dpi_spin.value()),
            self.what_key(),
            titles=self.titles.currentData(),
            arrangement=self.arrangement.currentData(),
        )

    def what_key(self) -> str:
        return self.what.currentData() or "picture"

    def _size_chosen(self, *_args) -> None:
        """A size preset sets the titles' default: the panels' only at a paper's sizes (the
        paper's caption takes the figure's title), all otherwise."""
        self.titles.blockSignals(True)
        default = "panels" if self.size_key() in PAPER_SIZES else "all"
        self.titles.setCurrentIndex(self.titles.findData(default))
        self.titles.blockSignals(False)
        self._apply_preset()

    def _apply_preset(self, *_args) -> None:
        key = self.size_key()
        natural = key == "natural"
        for spin in (self.width_spin, self.height_spin):
            spin.setEnabled(not natural)
        if key in ("custom", "natural"):
            self._update_physical()
            return
        plan = None
        if self._plan_for is not None:
            choice = self.choice()
            plan = with_layout(self._plan_for(choice.what), choice.titles, choice.arrangement)
        (width, height), dpi = preset_size(key, plan)
        self._applying = True
        self.width_spin.setValue(width)
        self.height_spin.setValue(height)
        self.dpi_spin.setValue(round(dpi))
        self._applying = False
        self._update_physical()

    def _custom_edit(self, *_args) -> None:
        if not self._applying and self.size_key() not in ("custom", "natural"):
            self.set_size_key("custom")
        self._update_physical()

    def _update_physical(self) -> None:
        if self.size_key() == "natural":
            self.physical.setText("PNG: the view's pixels as on screen")
            return
        dpi = self.dpi_spin.value()
        w, h = self.width_spin.value() / dpi, self.height_spin.value() / dpi
        self.physical.setText(f"{w:.2f} × {h:.2f} in ({2.54 * w:.1f} × {2.54 * h:.1f} cm)")

    def _update_format(self, *_args) -> None:
        try:
            fmt = format_of(self.path_edit.text().strip())
        except ValueError:
            self.format_label.setText("name the file .png, .svg or .pdf")
            self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
            return
        text = {
            "png": "PNG (pixels at the chosen size and resolution)",
            "svg": "SVG (vector paths, text as text)",
            "pdf": "PDF (vector paths, text as text)",
        }[fmt]
        self.format_label.setText(text)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(True)

    def _browse(self) -> None:
        # Starts at the path in the field (the remembered export folder, or what was typed).
        path = ask_save_path(
            self, self.windowTitle(), self.path_edit.text(), FIGURE_FILTER, suffix=".png"
        )
        if path:
            self.path_edit.setText(path)

    def _accept(self) -> None:
        self.chosen.emit(self.choice())
        self.accept()


# -- the 3-D view ------------------------------------------------------------------------------
def scatter3d_plan(view, theme_name: str) -> FigurePlan:
    """A one-panel figure of a 3-D view's points, seen from the view's camera angles."""
    settings = {"theme": theme_name}
    if view.gl_view is not None:
        settings["elevation"] = float(view.gl_view.opts.get("elevation", 22.0))
        settings["azimuth"] = float(view.gl_view.opts.get("azimuth", 38.0))
    labels = view._labels
    panel = PanelPlan(
        "scatter3d",
        title=view.title.text(),
        points=np.asarray(view._points, dtype=float),
        labels=None if labels is None else np.asarray(labels),
        test_mask=np.asarray(view._test, dtype=bool),
        axis_labels=tuple(view._axis_labels),
    )
    return FigurePlan(
        title="",
        panels=[panel],
        rows=1,
        cols=1,
        settings={**VIEW_DEFAULTS, **settings},
        note=(
            f"Elevation {settings.get('elevation', 22.0):g}°, azimuth "
            f"{settings.get('azimuth', 38.0):g}°, one scale on all axes."
        ),
    )


def grab_3d(view) -> QImage:
    """The 3-D view's pixels as on screen: its OpenGL framebuffer (with the axis labels), or a
    widget grab where there is no OpenGL (the three projections)."""
    view.ensure_built()
    if view.gl_view is None:
        return view.stack.currentWidget().grab().toImage()
    return view.gl_view.grabFramebuffer()


def save_3d(view, path, size=None, dpi=None, theme_name: str = "light") -> Path:
    """Write the 3-D view.

    PNG with ``size`` None: the OpenGL framebuffer as on screen. Any other size, and SVG or PDF:
    the figure renderer's projection of the same points from the view's camera angles (vector
    paths and text in SVG and PDF).
    """
    fmt = format_of(path)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if fmt == "png" and size is None:
        image = grab_3d(view)
        if dpi:
            dots = round(float(dpi) / 0.0254)
            image.setDotsPerMeterX(dots)
            image.setDotsPerMeterY(dots)
        if image.isNull() or not image.save(str(path), "PNG"):
            raise OSError(f"could not write {path}")
        return Path(path)
    if size is None:
        size = (max(view.width(), 640), max(view.height(), 480))
    save_figure(scatter3d_plan(view, theme_name), path, size, dpi)
    return Path(path)


class Exporter(QObject):
    """The window's export commands (File → Export figure…, Export data…, Export 3-D view…,
    Edit → Copy figure), from the session on screen (``session_state``), the slots' results
    (``pictures``), the sweep's result (``sweep``) and the charts shown (``charts``); it never
    refits."""

    def __init__(
        self,
        window: QWidget,
        *,
        session,
        pictures,
        sweep,
        data,
        workspace,
        status,
        settings,
        charts=None,
    ):
        """``session``: the session actions (``session_state()``, ``preset_name``);
        ``charts``: the chart control (its charts, when current, are the figure's)."""
        super().__init__(window)
        self.charts = charts
        self.window = window
        self.session = session
        self.pictures = pictures
        self.sweep = sweep
        self.data = data
        self.workspace = workspace
        self.status = status
        self.settings = settings

    # -- what is on screen, as computed results ------------------------------------------------
    def computed(self, what: str = "picture"):
        """The window's current picture as :class:`kfdviz.render.Computed` (no refit)."""
        state = self.session.session_state()
        if what == "sweep":
            if self.sweep.result is None:
                raise ValueError("no sweep has been computed")
            return render.Computed(state, [], self.sweep.result)
        if what != "sweep" and self._draft_shown():
            raise ValueError(DRAFT_REFUSAL)
        results = []
        for name in self.pictures.layout_slot_names():
            slot = self.pictures.slot(name)
            if slot.result is not None:
                results.append(slot.result)
            else:
                results.append(slot.error or "not fitted yet")
        charts = []
        if self.charts is not None and self.charts.is_current() and self.charts.charts:
            charts = list(self.charts.charts)
        return render.Computed(state, results, charts=charts)

    def figure_plan(self, what: str = "picture") -> FigurePlan:
        return render.figure_plan(self.computed(what))

    def _export_ready(self) -> bool:
        if self.data.n == 0:
            self.status.show("Nothing to export: there are no points.", kind="error")
            return False
        if self._draft_shown():
            self.status.show(DRAFT_REFUSAL, kind="error")
            return False
        return True

    def _draft_shown(self) -> bool:
        return any(
            getattr(self.pictures.slot(name).result, "approximation", None) is not None
            for name in self.pictures.layout_slot_names()
        )

    # -- the figure ----------------------------------------------------------------------------
    def export_figure(self) -> ExportDialog | None:
        """File → Export figure…: a dialog (not blocking the window) for file, size and dpi."""
        if not self._export_ready():
            return None
        name = self._export_name()
        dialog = ExportDialog(
            self.window,
            path=str(Path(self._export_folder()) / f"{name}.png"),
            plan_for=self.figure_plan,
            sweep_available=self.sweep.result is not None,
        )
        dialog.chosen.connect(
            lambda c: self.export_figure_to(
                c.path,
                size=c.size,
                dpi=c.dpi,
                what=c.what,
                titles=c.titles,
                arrangement=c.arrangement,
            )
        )
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def export_figure_to(
        self,
        path,
        *,
        size=None,
        dpi=None,
        what: str = "picture",
        titles: str = "auto",
        arrangement: str = "auto",
    ) -> bool:
        """Write the current picture to ``path`` (.png, .svg, .pdf) through the figure renderer,
        with ``titles`` (one of TITLE_CHOICES' values, or "auto": by the picture's width), its
        panels in ``arrangement``."""
        try:
            plan = with_layout(self.figure_plan(what), titles_for(titles, size, dpi), arrangement)
            save_figure(plan, path, size, dpi)
        except (OSError, ValueError) as exc:
            self.status.show(f"Could not export the figure: {exc}", kind="error")
            return False
        self._remember_export_folder(path)
        self.status.show(f"Exported the figure to {Path(path).name}", kind="info")
        return True

    def figure_image(self, size=None, dpi=None, what: str = "picture") -> QImage:
        image, _ = render_image(self.figure_plan(what), size, dpi)
        return image

    def copy_figure(self) -> bool:
        """Edit → Copy figure: the current picture as an image on the clipboard."""
        if not self._export_ready():
            return False
        try:
            image = self.figure_image()
        except (OSError, ValueError) as exc:
            self.status.show(f"Could not copy the figure: {exc}", kind="error")
            return False
        QApplication.clipboard().setImage(image)
        self.status.show(
            f"Copied the figure ({image.width()} × {image.height()} px) to the clipboard",
            kind="info",
        )
        return True

    # -- the data ------------------------------------------------------------------------------
    def export_data(self) -> None:
        """File → Export data…: points, labels, roles, outputs, embeddings and parameters."""
        if not self._export_ready():
            return
        path = ask_save_path(
            self.window,
            "Export data",
            f"{self._export_name()}.csv",
            DATA_FILTER,
            self.settings,
            EXPORT_FOLDER,
        )
        if path:
            self.export_data_to(path)

    def export_data_to(self, path, what: str = "picture") -> bool:
        try:
            written = export_data(self.computed(what), path)
        except (OSError, ValueError) as exc:
            self.status.show(f"Could not export the data: {exc}", kind="error")
            return False
        files = written if isinstance(written, tuple) else (written,)
        self._remember_export_folder(path)
        self.status.show(
            "Exported the data to " + " and ".join(Path(f).name for f in files), kind="info"
        )
        return True

    def export_script(self) -> bool:
        """File → Export as Python script… (:mod:`.script_export`)."""
        return export_script(self)

    # -- the 3-D view --------------------------------------------------------------------------
    def current_3d_view(self):
        """The 3-D view the user looks at: the 3-D input, a compare panel's embedding or the
        Embedding dock; None when no 3-D view shows points."""
        ws, p = self.workspace, self.pictures
        candidates = []
        if p.layout_name == "single" and ws.single.currentWidget() is ws.input3d:
            candidates.append(ws.input3d)
        panels = ws.compare_panels()
        if p.layout_name == "compare" and panels:
            order = [p.active_compare] + [
                i for i in range(p.compare_count) if i != p.active_compare
            ]
            for i in order:
                page = panels[i].stack.currentWidget()
                if page is not None and page is panels[i]._embedding:
                    candidates.append(page)
        candidates.append(ws.embedding_view)
        for view in candidates:
            if view._points.shape[0]:
                return view
        return None

    def export_3d(self) -> ExportDialog | None:
        """File → Export 3-D view…: PNG from the OpenGL framebuffer as on screen; other sizes,
        SVG and PDF through the figure renderer's projection."""
        view = self.current_3d_view()
        if view is None:
            self.status.show("No 3-D view shows points to export.", kind="error")
            return None
        dialog = ExportDialog(
            self.window,
            title="Export 3-D view",
            path=str(Path(self._export_folder()) / f"{self._export_name()}-3d.png"),
            plan_for=lambda _what: scatter3d_plan(view, self.workspace.theme.name),
            allow_natural=True,
        )
        dialog.chosen.connect(lambda c: self.export_3d_to(c.path, size=c.size, dpi=c.dpi))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def export_3d_to(self, path, *, size=None, dpi=None, view=None) -> bool:
        view = view or self.current_3d_view()
        if view is None:
            self.status.show("No 3-D view shows points to export.", kind="error")
            return False
        try:
            save_3d(view, path, size, dpi, self.workspace.theme.name)
        except (OSError, ValueError) as exc:
            self.status.show(f"Could not export the 3-D view: {exc}", kind="error")
            return False
        self._remember_export_folder(path)
        self.status.show(f"Exported the 3-D view to {Path(path).name}", kind="info")
        return True

    # -- names and folders ---------------------------------------------------------------------
    def _export_name(self) -> str:
        return render.safe_name(self.session.preset_name or "kfdviz-figure")

    def _export_folder(self) -> str:
        return last_folder(self.settings, EXPORT_FOLDER)

    def _remember_export_folder(self, path) -> None:
        remember_folder(self.settings, path, EXPORT_FOLDER)


__all__ = [
    "DATA_FILTER",
    "FIGURE_FILTER",
    "SIZE_PRESETS",
    "ExportChoice",
    "ExportDialog",
    "Exporter",
    "grab_3d",
    "preset_size",
    "save_3d",
    "scatter3d_plan",
]
