"""The presets gallery: a thumbnail of every preset; a click opens it.

Thumbnails are the figure renderer's pictures of the presets (as ``kfdviz render`` makes them, on
a coarser grid), made on a background thread and kept on disk in the user's cache folder
(``QStandardPaths.CacheLocation``, or ``KFDVIZ_CACHE_DIR``) under a name that changes with the
preset's definition and kfdviz's version, so the gallery opens at once the second time. The GUI
thread only loads finished PNGs; closing the gallery cancels the rendering and joins the thread.
"""

from __future__ import annotations

import errno
import hashlib
import os
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QSize, QStandardPaths, Qt, Signal
from PySide6.QtGui import QFontMetrics, QIcon, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QLabel,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import __version__, presets
from ..atomic_file import atomic_path
from ..figure.export import check_figure_file, render_image
from ..pipeline import CancelToken, FitCancelled
from ..render import compute, figure_plan
from ..session import state_from_preset, with_settings

ENV_DIR = "KFDVIZ_CACHE_DIR"
RENDER_SIZE = (640, 360)  # pixels of the cached picture
RENDER_DPI = 64
THUMB_SIZE = QSize(304, 171)  # as shown
THUMB_RESOLUTION = 90  # grid points of the feature image (the window uses 200)
COLUMNS = 3
TITLE_LINES = 3  # a longer title ends in "…" (the tooltip has the whole description)


def wrap_text(text: str, metrics: QFontMetrics, width: int, max_lines: int) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels; a word wider than
    that, or a line past ``max_lines``, is elided."""
    lines: list[str] = []
    for word in text.split():
        if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], " ".join(lines[max_lines - 1 :])]
    elide = Qt.TextElideMode.ElideRight
    return [metrics.elidedText(line, elide, width) for line in lines]


def cache_dir() -> Path:
    value = os.environ.get(ENV_DIR)
    if value:
        return Path(value)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.CacheLocation)
    return Path(base or Path.home() / ".cache" / "kfdviz") / "thumbnails"


def thumbnail_path(folder: Path, name: str) -> Path:
    """The cache file of preset ``name``: its name changes when the preset or kfdviz does."""
    key = repr((presets.get(name), __version__, RENDER_SIZE, RENDER_DPI, THUMB_RESOLUTION))
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return Path(folder) / f"{name}-{digest}.png"


def render_thumbnail(name: str, path: Path, cancel=None) -> Path:
    """Fit preset ``name`` (coarse grid) and paint it to ``path`` (written atomically)."""
    state = with_settings(state_from_preset(name), resolution=THUMB_RESOLUTION)
    computed = compute(state, cancel=cancel)
    image, _ = render_image(figure_plan(computed), RENDER_SIZE, RENDER_DPI)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path, check=lambda temporary: check_figure_file("png", temporary)) as tmp:
        if not image.save(str(tmp), "PNG"):
            raise OSError(errno.EIO, "could not write the thumbnail", str(tmp))
    return path


class ThumbnailLoader(QObject):
    """Renders missing thumbnails on one Python thread; tells the GUI thread as each is ready."""

    ready = Signal(str, str)  # preset name, PNG path
    failed = Signal(str, str)  # preset name, why
    finished = Signal()

    def __init__(self, names, folder: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.names = list(names)
        self.folder = Path(folder)
        self._cancel = CancelToken()
        self._thread = threading.Thread(target=self._run, name="kfdviz-thumbnails", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Cancel the rendering and join the thread."""
        self._cancel.cancel()
        if self._thread.is_alive():
            self._thread.join(timeout)

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def _run(self) -> None:
        # The cached thumbnails first, at once; then the missing ones are drawn in order.
        cached = [n for n in self.names if thumbnail_path(self.folder, n).is_file()]
        missing = [n for n in self.names if n not in cached]
        for name in cached + missing:
            if self._cancel.is_set():
                break
            path = thumbnail_path(self.folder, name)
            try:
                if not path.is_file():
                    render_thumbnail(name, path, cancel=self._cancel)
            except FitCancelled:
                break
            except Exception as exc:  # a preset that cannot be drawn: say so on its tile
                if not self._cancel.is_set():
                    self.failed.emit(name, f"{exc.__class__.__name__}: {exc}")
                continue
            if self._cancel.is_set():
                break
            self.ready.emit(name, str(path))
        if not self._cancel.is_set():
            self.finished.emit()


class GalleryDialog(QDialog):
    """Every preset as a thumbnail with its title; clicking one opens it in the window."""

    preset_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, folder: Path | None = None):
        super().__init__(parent)
        self.setWindowTitle("Presets gallery")
        self.setObjectName("presetsGallery")
        self.folder = Path(folder) if folder is not None else cache_dir()
        self.buttons: dict[str, QToolButton] = {}
        self.pending = set(presets.names())
        grid = QGridLayout()
        grid.setSpacing(10)
        for i, name in enumerate(presets.names()):
            preset = presets.get(name)
            button = QToolButton()
            button.setObjectName(f"preset-{name}")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
            button.setIconSize(THUMB_SIZE)
            button.setFixedWidth(THUMB_SIZE.width() + 16)
            button.setAutoRaise(True)
            self.buttons[name] = button
            self._set_tile_text(name, "(drawing…)")
            button.setToolTip(f"<b>{name}</b><br>{preset.description}")
            placeholder = QPixmap(THUMB_SIZE)
            placeholder.fill(self.palette().window().color())
            button.setIcon(QIcon(placeholder))
            button.clicked.connect(lambda _c=False, n=name: self.choose(n))
            grid.addWidget(button, i // COLUMNS, i % COLUMNS)
        holder = QWidget()
        holder.setLayout(grid)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        self.note = QLabel("Click a figure to open it. Thumbnails are drawn once and kept.")
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.note)
        self.resize(COLUMNS * (THUMB_SIZE.width() + 30) + 40, 760)
        self.loader = ThumbnailLoader(presets.names(), self.folder, self)
        self.loader.ready.connect(self._ready)
        self.loader.failed.connect(self._failed)
        self.loader.finished.connect(self._finished)
        self.loader.start()

    def _set_tile_text(self, name: str, note: str = "") -> None:
        """The preset's title under its thumbnail, wrapped to the thumbnail's width (a tool
        button elides a line wider than itself), and a note below it."""
        button = self.buttons[name]
        metrics = button.fontMetrics()
        width = THUMB_SIZE.width()
        lines = wrap_text(presets.get(name).title, metrics, width, TITLE_LINES)
        if note:
            lines += wrap_text(note, metrics, width, 2)
        button.setText("\n".join(lines))

    def _ready(self, name: str, path: str) -> None:
        pixmap = QPixmap(path)
        button = self.buttons.get(name)
        if button is None or pixmap.isNull():
            return
        scaled = pixmap.scaled(
            THUMB_SIZE,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        button.setIcon(QIcon(scaled))
        self._set_tile_text(name)
        self.pending.discard(name)

    def _failed(self, name: str, message: str) -> None:
        button = self.buttons.get(name)
        if button is not None:
            self._set_tile_text(name, f"(no thumbnail: {message[:60]})")
        self.pending.discard(name)

    def _finished(self) -> None:
        self.note.setText("Click a figure to open it.")

    def choose(self, name: str) -> None:
        self.preset_chosen.emit(name)
        self.close()

    def stop(self) -> None:
        self.loader.stop()

    def done(self, result: int) -> None:
        self.stop()
        super().done(result)

    def closeEvent(self, event) -> None:
        self.stop()
        super().closeEvent(event)


class GalleryControl(QObject):
    """Presets → Gallery…: at most one gallery beside the window; choosing a preset opens it
    through ``load_preset``. Closing the gallery (or the window) stops its rendering thread."""

    def __init__(self, window: QWidget, *, load_preset, folder: Path | None = None):
        super().__init__(window)
        self.window = window
        self.load_preset = load_preset
        self.folder = folder  # where thumbnails are kept (None: cache_dir())
        self.dialog: GalleryDialog | None = None

    def show(self) -> GalleryDialog:
        """A window of thumbnails beside the main window (the one already open, if any)."""
        if self.dialog is None:
            self.dialog = GalleryDialog(self.window, folder=self.folder)
            self.dialog.preset_chosen.connect(self.load_preset)
            self.dialog.finished.connect(self._closed)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog

    def _closed(self, *_args) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.stop()
            dialog.deleteLater()

    def close(self) -> None:
        if self.dialog is not None:
            self.dialog.stop()
            self.dialog.close()


__all__ = [
    "GalleryControl",
    "GalleryDialog",
    "ThumbnailLoader",
    "cache_dir",
    "render_thumbnail",
    "thumbnail_path",
    "wrap_text",
]
