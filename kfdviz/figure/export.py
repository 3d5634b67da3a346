"""Write a figure to PNG (raster at a chosen size and resolution), SVG or PDF (vector).

SVG and PDF get the contours, points, axes and curves as vector paths and all text as text; the
filled feature image is embedded as a raster at the grid's full resolution. Nothing here needs a
window or a display: ``ensure_app`` starts a ``QGuiApplication`` on Qt's offscreen platform when
no display is present. Qt and the painter (:mod:`.paint`) are imported inside the functions that
paint, so that :func:`format_of` and the headless command line's argument checks load no Qt.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

import numpy as np

from ..atomic_file import atomic_path
from .plan import FigurePlan, default_titles

DEFAULT_SIZE = (1600, 900)  # pixels: a 16:9 slide
DEFAULT_DPI = 150.0
MAX_DPI = 1200.0
MAX_PIXELS = 20000  # along either side
FORMATS = ("png", "svg", "pdf")


def has_display() -> bool:
    if sys.platform.startswith("linux") or sys.platform.startswith("freebsd"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def ensure_app():
    """The running Qt application, or a new QGuiApplication (offscreen when there is no display)."""
    # Qt loads here, not at import: the platform is chosen first (see the module docstring).
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is not None:
        return app
    if not os.environ.get("QT_QPA_PLATFORM") and not has_display():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    return QGuiApplication([sys.argv[0] if sys.argv else "kfdviz"])


def default_size(
    plan: FigurePlan, dpi=None, width: int | None = None, tallest: int | None = None
) -> tuple[int, int]:
    """A slide-sized picture: 1600 pixels wide, as tall as the panels need, at most 16:9 (or
    at most ``tallest`` pixels: a paper's figure may be taller than a slide)."""
    # Qt and the painter load only to paint (see the module docstring).
    from .paint import natural_height

    dpi = DEFAULT_DPI if dpi is None else float(dpi)
    width = int(width or DEFAULT_SIZE[0] * dpi / DEFAULT_DPI)
    height = natural_height(plan, width, dpi)
    top = round(width * 9 / 16) if tallest is None else int(tallest)
    return width, int(np.clip(height, min(round(0.3 * width), top), top))


def titles_for(choice: str, size=None, dpi=None) -> str:
    """The titles a picture of ``size`` pixels at ``dpi`` shows for the titles ``choice``:
    "auto" is :func:`~kfdviz.figure.plan.default_titles` for its width (the default picture
    is a slide's width); any other choice is itself."""
    if choice != "auto":
        return choice
    width_in = float("inf") if size is None else float(size[0]) / float(dpi or DEFAULT_DPI)
    return default_titles(width_in)


def check_size(size, dpi, plan: FigurePlan | None = None) -> tuple[int, int, float]:
    dpi = DEFAULT_DPI if dpi is None else float(dpi)
    if not 24 <= dpi <= MAX_DPI:  # also NaN; checked first, as the default size follows it
        raise ValueError(f"the resolution must be between 24 and {MAX_DPI:g} dpi, got {dpi:g}")
    if size is None:
        size = DEFAULT_SIZE if plan is None else default_size(plan, dpi)
    width, height = int(size[0]), int(size[1])
    if not (16 <= width <= MAX_PIXELS and 16 <= height <= MAX_PIXELS):
        raise ValueError(
            f"the size must be between 16 and {MAX_PIXELS} pixels a side, got {width}x{height}"
        )
    return width, height, dpi


def format_of(path) -> str:
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise ValueError(
            f"cannot tell the format of {Path(path).name!r}: use a file name ending in "
            + ", ".join(f".{f}" for f in FORMATS)
        )
    return suffix


def render_image(plan: FigurePlan, size=None, dpi=None):
    """(QImage, FigureGeometry) of ``plan`` at ``size`` = (width, height) pixels and ``dpi``."""
    # Qt and the painter load only to paint (see the module docstring).
    from PySide6.QtGui import QImage, QPainter

    from .paint import paint_figure

    ensure_app()
    width, height, dpi = check_size(size, dpi, plan)
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    dots_per_metre = round(dpi / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)
    painter = QPainter(image)
    try:
        geometry = paint_figure(painter, plan, width, height, dpi)
    finally:
        painter.end()
    return image, geometry


def save_png(plan: FigurePlan, path, size=None, dpi=None):
    image, geometry = render_image(plan, size, dpi)
    if not image.save(str(path), "PNG"):
        raise OSError(errno.EIO, "could not write the PNG image", str(path))
    return geometry


def save_svg(plan: FigurePlan, path, size=None, dpi=None):
    # Qt and the painter load only to paint (see the module docstring).
    from PySide6.QtCore import QRect, QSize
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgGenerator

    from .paint import paint_figure

    ensure_app()
    width, height, dpi = check_size(size, dpi, plan)
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(QSize(width, height))
    gen.setViewBox(QRect(0, 0, width, height))
    gen.setResolution(round(dpi))
    gen.setTitle(plan.title or "kfdviz figure")
    gen.setDescription("kfdviz figure: vector paths and text, the feature image embedded as PNG")
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(errno.EIO, "could not write the SVG file", str(path))
    try:
        geometry = paint_figure(painter, plan, width, height, dpi)
    finally:
        painter.end()
    return geometry


def save_pdf(plan: FigurePlan, path, size=None, dpi=None):
    # Qt and the painter load only to paint (see the module docstring).
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from .paint import paint_figure

    ensure_app()
    width, height, dpi = check_size(size, dpi, plan)
    writer = QPdfWriter(str(path))
    writer.setResolution(round(dpi))
    page = QPageSize(
        QSizeF(width / dpi * 72.0, height / dpi * 72.0), QPageSize.Unit.Point, "figure"
    )
    writer.setPageLayout(
        QPageLayout(
            page, QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Point
        )
    )
    writer.setTitle(plan.title or "kfdviz figure")
    writer.setCreator("kfdviz")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(errno.EIO, "could not write the PDF file", str(path))
    try:
        # The device's own units may differ from our pixels by rounding: scale onto the page.
        sx = writer.width() / width
        sy = writer.height() / height
        painter.scale(sx, sy)
        geometry = paint_figure(painter, plan, width, height, dpi)
    finally:
        painter.end()
    return geometry


# What a whole file of each format begins with and what its last bytes hold. Qt's PDF and SVG
# writers drop what a full disk refuses without a word, so the file is read back before it
# replaces the old one: a cut file misses its end.
_HEAD = {"png": b"\x89PNG\r\n\x1a\n", "svg": b"<?xml", "pdf": b"%PDF-"}
_TAIL = {"png": b"IEND", "svg": b"</svg>", "pdf": b"%%EOF"}
_TAIL_BYTES = 1024


def check_figure_file(fmt: str, path) -> None:
    """Raise ``OSError`` unless ``path`` holds a whole ``fmt`` file (its head and its end)."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(_HEAD[fmt]))
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - _TAIL_BYTES))
            tail = f.read()
    except OSError as exc:
        raise OSError(errno.EIO, f"could not read back the {fmt.upper()} file", str(path)) from exc
    if head != _HEAD[fmt] or _TAIL[fmt] not in tail:
        raise OSError(
            errno.EIO,
            f"the {fmt.upper()} file came out incomplete ({size} bytes; is the disk full?)",
            str(path),
        )


def save_figure(plan: FigurePlan, path, size=None, dpi=None):
    """Write ``plan`` to ``path`` in the format its suffix names (.png, .svg, .pdf).

    The file is written beside ``path`` under a temporary name, read back (its head and end) and
    only then renamed over ``path``: a full disk or a failed write raises ``OSError`` naming
    ``path`` and keeps what was there.
    """

    fmt = format_of(path)
    check_size(size, dpi)  # before anything is created
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    writer = {"png": save_png, "svg": save_svg, "pdf": save_pdf}[fmt]
    # a failed or killed save keeps the old figure
    with atomic_path(path, check=lambda temporary: check_figure_file(fmt, temporary)) as temporary:
        return writer(plan, temporary, size, dpi)


__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_SIZE",
    "FORMATS",
    "check_figure_file",
    "check_size",
    "default_size",
    "ensure_app",
    "format_of",
    "render_image",
    "save_figure",
    "save_pdf",
    "save_png",
    "save_svg",
    "titles_for",
]
