"""The desktop app: ``launch()`` opens the main window (the ``kfdviz`` command calls it)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication

from .. import presets, resources
from .autosave import default_dir
from .crash_report import CrashReporter

# How long --screenshot waits for the fits before giving up.
SCREENSHOT_TIMEOUT = 120.0


def launch(preset: str | None = None, screenshot: str | None = None) -> int:
    """Open the window on ``preset`` (None: the built-in default) and run until it closes.

    With ``screenshot``, wait until every picture shows its fit, save the whole window as a PNG
    there and exit (0 when saved). Returns the process's exit code.
    """
    try:
        presets.get(preset)
    except ValueError as exc:
        print(f"kfdviz: error: {exc}", file=sys.stderr)
        return 2

    if QApplication.instance() is None:
        # pyqtgraph keeps compiled shaders per class, not per OpenGL context: the 3-D views'
        # contexts must share resources, which Qt allows only before the application exists.
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("kfdviz")
    app.setOrganizationName("kfdviz")
    app.setApplicationDisplayName("kfdviz")
    # The desktop entry's name: Wayland compositors match the window to its entry (and icon) by it.
    app.setDesktopFileName("kfdviz")
    app.setWindowIcon(application_icon())

    # Imported here: any module of the app (kfdviz.app.params, say) imports this package first,
    # and the window's import tree (every view, pyqtgraph) loads only when a window is launched.
    from .main_window import MainWindow

    # A screenshot is made from a clean state, so that the same command gives the same picture.
    settings = None if screenshot else QSettings("kfdviz", "kfdviz")
    autosave_dir = None
    if not screenshot:
        autosave_dir = default_dir()
    window = MainWindow(
        preset, settings=settings, restore=screenshot is None, autosave_dir=autosave_dir
    )
    window.show()
    # An exception that escapes a slot is said in the window, which keeps working.
    reporter = CrashReporter(window)
    reporter.install()
    if screenshot:
        code = _screenshot(app, window, Path(screenshot))
    else:
        code = app.exec()
    reporter.uninstall()
    _dispose(window)
    return code


def application_icon():
    """The application icon (a QIcon) at every size the package carries."""
    icon = QIcon()
    for size in resources.ICON_SIZES:
        pixmap = QPixmap()
        if pixmap.loadFromData(resources.icon_png(size), "PNG"):
            icon.addPixmap(pixmap)
    return icon


def grab_window(window):
    """The window's pixels as on screen.

    A widget grab misses what pyqtgraph's 3-D views paint with QPainter over OpenGL (the axis
    labels); the screen has it. Where the screen cannot be read (offscreen platform, the window
    partly outside the screen) the widget grab is used.
    """
    pixmap = None
    screen = window.screen()
    if screen is not None and screen.geometry().contains(window.frameGeometry()):
        pixmap = screen.grabWindow(window.winId())
    if pixmap is None or pixmap.isNull() or pixmap.size() != window.size():
        pixmap = window.grab()
    return pixmap


def _dispose(window) -> None:
    """Delete the window while Qt is still up: left to the interpreter's exit, the order in
    which Python frees the window and the application is arbitrary, and Qt may crash."""
    if window.isVisible():
        window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _screenshot(app, window, path: Path) -> int:
    deadline = time.monotonic() + SCREENSHOT_TIMEOUT
    while not window.is_settled():
        app.processEvents()
        if time.monotonic() > deadline:
            print("kfdviz: error: the fit did not finish in time; no screenshot", file=sys.stderr)
            window.close()
            return 1
        time.sleep(0.01)
    # A preset's sweep (curves against a parameter) is part of the picture too: wait for it
    # within the same deadline, and say so if it is still running then.
    while window.sweep.running() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    if window.sweep.running():
        print(
            "kfdviz: warning: the sweep was still running when the screenshot was taken",
            file=sys.stderr,
        )
    # Let the views (and an OpenGL view) paint the final picture.
    settle = time.monotonic() + 0.3
    while time.monotonic() < settle:
        app.processEvents()
        time.sleep(0.01)
    # Paint every widget now and wait for the window system to have the pixels: a screen grab
    # otherwise reads what was last flushed, which on a loaded machine can miss a widget's last
    # paint (an empty table beside a drawn plot).
    window.repaint()
    app.sync()
    app.processEvents()
    failed = not window.is_up_to_date()
    path.parent.mkdir(parents=True, exist_ok=True)
    ok = grab_window(window).save(str(path))
    window.close()
    app.processEvents()
    if not ok:
        print(f"kfdviz: error: could not write {path}", file=sys.stderr)
        return 1
    if failed:
        print(f"kfdviz: error: {window.last_status[1]}", file=sys.stderr)
        return 1
    return 0


__all__ = ["launch"]
