"""The files kfdviz reads at run time (the application icon), wherever kfdviz is installed.

Everything goes through :mod:`importlib.resources`, so the same calls work from a checkout, an
installed wheel, a zip import and a PyInstaller bundle (which carries ``kfdviz/resources/icons``
as data). Nothing here imports Qt.

The icon is one SVG, ``icons/kfdviz.svg``, and PNG renderings of it at the sizes desktops ask for
(``icons/kfdviz-SIZE.png``, written by ``packaging/render_icons.py``).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

# The sizes of the freedesktop.org hicolor theme's fixed-size icon folders that desktops use.
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
ICON_NAME = "kfdviz"


def icon_png_name(size: int) -> str:
    """The file name of the PNG icon of ``size`` x ``size`` pixels."""
    return f"{ICON_NAME}-{size}.png"


def icons() -> Traversable:
    """The folder holding the icon files."""
    return resources.files(__name__).joinpath("icons")


def icon_svg() -> bytes:
    """The application icon as SVG."""
    return icons().joinpath(f"{ICON_NAME}.svg").read_bytes()


def icon_png(size: int) -> bytes:
    """The application icon as PNG, ``size`` x ``size`` pixels (one of :data:`ICON_SIZES`)."""
    if size not in ICON_SIZES:
        sizes = ", ".join(str(s) for s in ICON_SIZES)
        raise ValueError(f"there is no {size} px icon; the sizes are {sizes}")
    return icons().joinpath(icon_png_name(size)).read_bytes()


__all__ = ["ICON_NAME", "ICON_SIZES", "icon_png", "icon_png_name", "icon_svg", "icons"]
