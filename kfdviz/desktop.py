"""kfdviz in a Linux desktop's application menu: the desktop entry and the icon theme files.

``install()`` writes, under the user's data folder (``$XDG_DATA_HOME``, by default
``~/.local/share``), the files the freedesktop.org specifications look for:

- ``applications/kfdviz.desktop``, the menu entry (Desktop Entry Specification 1.4);
- ``icons/hicolor/NxN/apps/kfdviz.png`` for every size the package carries, and
  ``icons/hicolor/scalable/apps/kfdviz.svg`` (Icon Theme Specification: the user's own icons
  go into the hicolor theme, which every theme falls back to).

``uninstall()`` removes exactly those files, and the folders that they leave empty. Desktops
watch these folders and pick the change up by themselves (the entry declares no MIME types, so
there is no MIME cache to rebuild). Nothing here imports Qt.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import atomic_file, resources

ENTRY_NAME = "kfdviz.desktop"

# Characters an Exec argument may hold without quotes (Desktop Entry Specification, "The Exec
# key": spaces, quotes, backslashes, $, `, and the shell's other reserved characters need them).
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-=:,@")


def entry_text(command: Sequence[str] = ("kfdviz",), *, try_exec: str | None = None) -> str:
    """The desktop entry that starts ``command`` (program and arguments)."""
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=kfdviz",
        "GenericName=Kernel feature explorer",
        "Comment=Explore kernel PCA, kernel Fisher discriminants and related kernel feature "
        "extractors",
        "Icon=" + resources.ICON_NAME,
    ]
    if try_exec is not None:
        lines.append("TryExec=" + _escape_value(try_exec))
    lines += [
        "Exec=" + _escape_value(" ".join(_quote_argument(a) for a in command)),
        "Terminal=false",
        "Categories=Science;Math;DataVisualization;",
        "Keywords=kernel;PCA;Fisher;discriminant;machine learning;visualization;",
        "StartupNotify=true",
        "StartupWMClass=kfdviz",
    ]
    return "\n".join(lines) + "\n"


def _quote_argument(argument: str) -> str:
    """One Exec argument, quoted as the specification asks where it holds a reserved character."""
    if not argument:
        return '""'
    if set(argument) <= _PLAIN:
        return argument
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in argument)
    return '"' + escaped.replace("%", "%%") + '"'


def _escape_value(value: str) -> str:
    """A string value of a desktop entry: backslashes doubled, control characters escaped."""
    return (
        value.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    )


def launch_command() -> list[str]:
    """The command that starts this kfdviz: the bundle's executable, the installed ``kfdviz``
    script that is running, or this Python with ``-m kfdviz``."""
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is not None and script.name in ("kfdviz", "kfdviz.exe") and script.is_file():
        return [str(script.absolute())]
    return [os.path.abspath(sys.executable), "-m", "kfdviz"]


def data_home() -> Path:
    """``$XDG_DATA_HOME`` when it is an absolute path (the specification ignores others), else
    ``~/.local/share``."""
    value = os.environ.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def installed_files(home: Path) -> list[Path]:
    """Every file ``install`` writes under ``home``: the entry, then the icons."""
    icons = home / "icons" / "hicolor"
    files = [home / "applications" / ENTRY_NAME]
    files += [
        icons / f"{s}x{s}" / "apps" / f"{resources.ICON_NAME}.png" for s in resources.ICON_SIZES
    ]
    files.append(icons / "scalable" / "apps" / f"{resources.ICON_NAME}.svg")
    return files


def install(home: Path | None = None, command: Sequence[str] | None = None) -> list[Path]:
    """Write the desktop entry (starting ``command``, by default this kfdviz) and the icons
    under ``home`` (by default :func:`data_home`); return the files written."""
    home = data_home() if home is None else home
    command = launch_command() if command is None else list(command)
    entry, *pngs, svg = installed_files(home)
    try_exec = command[0] if os.path.isabs(command[0]) else None
    text = entry_text(command, try_exec=try_exec).encode("utf-8")
    atomic_file.write_bytes(entry, text, make_folders=True)
    for size, path in zip(resources.ICON_SIZES, pngs, strict=True):
        atomic_file.write_bytes(path, resources.icon_png(size), make_folders=True)
    atomic_file.write_bytes(svg, resources.icon_svg(), make_folders=True)
    return [entry, *pngs, svg]


def uninstall(home: Path | None = None) -> list[Path]:
    """Remove what :func:`install` wrote under ``home`` and the folders left empty by that;
    return the files removed (none when nothing was installed)."""
    home = data_home() if home is None else home
    removed = []
    for path in installed_files(home):
        if path.is_file() or path.is_symlink():
            path.unlink()
            removed.append(path)
            _remove_empty_parents(path.parent, home)
    return removed


def _remove_empty_parents(folder: Path, home: Path) -> None:
    """Remove ``folder`` and its parents while they are empty, up to (not including) ``home``."""
    home = home.absolute()
    folder = folder.absolute()
    while folder != home and home in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty (or not ours to remove): stop here
            return
        folder = folder.parent
