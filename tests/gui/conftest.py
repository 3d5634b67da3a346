"""Fixtures for driving the real window."""

from __future__ import annotations

import pytest
from gui_helpers import make_window
from PySide6.QtCore import QCoreApplication, Qt

# pyqtgraph keeps its compiled shaders per class, not per OpenGL context: every context must
# share resources with the others, which Qt allows only if asked before the application exists.
QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


@pytest.fixture
def settings(tmp_path):
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "kfdviz.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings):
    w = make_window(qtbot, settings)
    yield w
    w.close()
    assert not w.fit.worker.thread.is_alive(), "closing the window must stop the fit thread"
