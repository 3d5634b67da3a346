"""Uncaught exceptions in the window's slots: said to the user, and the window keeps working.

Qt calls Python slots from its event loop; an exception that escapes one goes to
``sys.excepthook`` and the action the user asked for silently did nothing. :class:`CrashReporter`
hooks ``sys.excepthook`` for the application: the exception is still passed on to the hook that
was there (the traceback on stderr, or a test harness's record of it), and a non-modal message
names what went wrong, with the traceback under "Show Details..." to copy into a bug report.
One message box is shown at a time; exceptions while it is open are added to its details.
"""

from __future__ import annotations

import sys
import traceback

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

# The most characters of the exception's own message the box's text quotes.
MESSAGE_CHARS = 300


class CrashReporter(QObject):
    """Shows uncaught exceptions of Qt slots in a non-modal message over ``window``."""

    def __init__(self, window: QWidget | None = None):
        super().__init__(window)
        self.window = window
        self.box: QMessageBox | None = None
        self.count = 0
        self._previous = None

    def install(self) -> None:
        if self._previous is None:
            self._previous = sys.excepthook
            sys.excepthook = self.report

    def uninstall(self) -> None:
        if self._previous is not None and sys.excepthook == self.report:
            sys.excepthook = self._previous
        self._previous = None

    def report(self, kind, value, tb) -> None:
        """``sys.excepthook``: pass the exception on, then say it in the window."""
        previous = self._previous or sys.__excepthook__
        previous(kind, value, tb)
        if issubclass(kind, KeyboardInterrupt | SystemExit):
            return
        self.count += 1
        details = "".join(traceback.format_exception(kind, value, tb))
        said = str(value)
        if len(said) > MESSAGE_CHARS:
            said = said[: MESSAGE_CHARS - 3] + "..."
        if self.box is not None and self.box.isVisible():
            self.box.setDetailedText(self.box.detailedText() + "\n" + details)
            self.box.setInformativeText(
                f"{self.count} errors so far. The window keeps working; the actions that failed "
                "did not finish."
            )
            return
        box = QMessageBox(self.window)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("kfdviz: something went wrong")
        box.setText(f"An action failed unexpectedly: {kind.__name__}: {said}")
        box.setInformativeText(
            "The window keeps working; this action did not finish. Show Details… has the "
            "traceback to copy into a bug report."
        )
        box.setDetailedText(details)
        box.setStandardButtons(QMessageBox.StandardButton.Close)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(self._closed)
        self.box = box
        box.show()

    def _closed(self, *_args) -> None:
        self.box = None
        self.count = 0


__all__ = ["CrashReporter"]
