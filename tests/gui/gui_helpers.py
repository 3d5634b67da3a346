"""Helpers for driving the real window: clicks and drags in data coordinates, waiting, shots."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

# The offscreen platform (no display) reports every top-level size hint as a warning; it is not
# a problem of the app and would fail every test under pytest-qt's warning policy.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints"


def make_window(qtbot, settings, preset=None, *, restore=False):
    from kfdviz.app.main_window import MainWindow

    w = MainWindow(preset, settings=settings, restore=restore)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()  # shortcuts need the active window
    qtbot.waitUntil(w.isActiveWindow, timeout=5_000)
    wait_idle(qtbot, w)
    return w


def wait_idle(qtbot, w, timeout: int = 60_000) -> None:
    """Until every picture of the layout shows a fit (or a failure) of the current data."""
    qtbot.waitUntil(w.is_settled, timeout=timeout)


def viewport(view):
    return view.plot.viewport()


def click_data(qtbot, view, x: float, y: float) -> None:
    """A real left click on the plot at data coordinates (x, y)."""
    from PySide6.QtCore import Qt

    qtbot.mouseClick(viewport(view), Qt.MouseButton.LeftButton, pos=view.data_to_widget(x, y))


def drag_data(qtbot, view, path) -> None:
    """Press at the first (x, y), move through the others, release at the last."""
    from PySide6.QtCore import Qt

    vp = viewport(view)
    points = [view.data_to_widget(x, y) for x, y in path]
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=points[0])
    for p in points[1:]:
        qtbot.mouseMove(vp, p)
        qtbot.wait(15)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=points[-1])


def press_key(qtbot, w, key, modifier=None) -> None:
    from PySide6.QtCore import Qt

    qtbot.keyClick(w, key, modifier or Qt.KeyboardModifier.NoModifier)


def shot_dir() -> Path | None:
    """Where tests save screenshots for a person to look at (KFDVIZ_SHOTS), if anywhere."""
    value = os.environ.get("KFDVIZ_SHOTS")
    if not value:
        return None
    path = Path(value)
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_and_check(widget, name: str) -> np.ndarray:
    """Grab ``widget``, save it when KFDVIZ_SHOTS is set, return its pixels (h, w, 3)."""
    image = widget.grab().toImage()
    folder = shot_dir()
    if folder is not None:
        image.save(str(folder / f"{name}.png"))
    from PySide6.QtGui import QImage

    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    buffer = np.frombuffer(image.constBits(), dtype=np.uint8)
    stride = image.bytesPerLine()
    return buffer.reshape(h, stride)[:, : 3 * w].reshape(h, w, 3).copy()


def named(w, name: str, kind=None):
    """The visible control of window ``w`` whose accessible name is ``name`` (of class ``kind``
    when several controls share the name, as a parameter's slider and field do)."""
    from PySide6.QtWidgets import QWidget

    found = [
        c
        for c in w.findChildren(kind or QWidget)
        if c.accessibleName() == name and c.isVisibleTo(w)
    ]
    assert found, f"no visible control named {name!r}"
    return found[0]


def type_into(qtbot, field, text: str) -> None:
    """Select the field's text, type ``text`` and press Return, as a user does."""
    from PySide6.QtCore import Qt

    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)
