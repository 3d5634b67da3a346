"""The status line at the bottom of the window: a message, a notice, the fit's progress, Cancel.

The message says what happened last (a fit's summary, an error, a file saved) in the colour of
its kind ("info", "ok", "error"); :attr:`StatusLine.last` keeps (kind, text) of the message on
screen. A notice is a second, lasting message for something the user must not miss behind the
next fit's summary (settings that were reset, an autosave that cannot be written); each source
has one, and they stay until withdrawn by their source or clicked away. The progress bar and the Cancel button appear only for fits that run
longer than :data:`PROGRESS_DELAY_MS`, so quick refits do not make the line flicker.

GUI thread only.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QProgressBar, QSizePolicy, QStatusBar, QToolButton

# Show the progress bar only for fits that take longer than this.
PROGRESS_DELAY_MS = 250
ERROR_COLOR = "#D55E00"


# The longest message the status line shows whole.
MAX_MESSAGE_CHARS = 500


class _ClickToHide(QLabel):
    def __init__(self, text: str, on_click):
        super().__init__(text)
        self.on_click = on_click

    def mousePressEvent(self, event) -> None:
        self.on_click()
        super().mousePressEvent(event)


class StatusLine(QObject):
    """The window's status bar widgets (see the module's docstring)."""

    def __init__(self, bar: QStatusBar, cancel_action: QAction, theme):
        super().__init__(bar)
        self.theme = theme
        self.cancel_action = cancel_action
        self.last: tuple[str, str] = ("info", "")
        self.label = QLabel("")
        self.label.setObjectName("fitStatus")
        self.label.setTextFormat(Qt.TextFormat.RichText)
        # Long messages must not widen the window: they are elided by the layout instead.
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(50)
        self._notices: dict[str, str] = {}
        self.notice_label = _ClickToHide("", self._dismiss_notices)
        self.notice_label.setObjectName("statusNotice")
        self.notice_label.setTextFormat(Qt.TextFormat.RichText)
        self.notice_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.notice_label.setMinimumWidth(50)
        self.notice_label.hide()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(180)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QToolButton()
        self.cancel_button.setDefaultAction(cancel_action)
        self.cancel_button.hide()
        bar.addWidget(self.label, 1)
        bar.addWidget(self.notice_label, 1)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        self._busy = False
        self._reveal = QTimer(self)
        self._reveal.setSingleShot(True)
        self._reveal.setInterval(PROGRESS_DELAY_MS)
        self._reveal.timeout.connect(self._reveal_progress)

    # -- the message ----------------------------------------------------------------------------
    def show(self, text: str, *, kind: str = "info") -> None:
        """Show ``text`` as the message, coloured by ``kind`` ("info", "ok" or "error"); a text
        longer than :data:`MAX_MESSAGE_CHARS` is shown in part (a message may quote a file)."""
        if len(text) > MAX_MESSAGE_CHARS:
            text = f"{text[: MAX_MESSAGE_CHARS - 40]}… ({len(text):,} characters in all)"
        self.label.setText(f"<span style='color:{self._color(kind)}'>{escape(text)}</span>")
        self.label.setToolTip(text)
        self.last = (kind, text)

    def _color(self, kind: str) -> str:
        return {"error": ERROR_COLOR, "ok": self.theme.foreground}.get(kind, self.theme.muted)

    def set_theme(self, theme) -> None:
        """Colour the message (and the notice) for ``theme``."""
        self.theme = theme
        self.show(self.last[1], kind=self.last[0])
        if self._notices:
            self._render_notice()

    # -- the notice -----------------------------------------------------------------------------
    def notice(self, text: str, *, key: str = "") -> None:
        """A lasting message beside the current one, replacing the one of the same ``key``
        (its source); clicking the notice hides every one."""
        self._notices[key] = text
        self._render_notice()
        self.notice_label.show()

    def clear_notice(self, key: str = "") -> None:
        """Withdraw the notice of ``key`` (the others stay)."""
        if self._notices.pop(key, None) is not None:
            self._render_notice()
            self.notice_label.setVisible(bool(self._notices))

    def _render_notice(self) -> None:
        text = " · ".join(self._notices.values())
        self.notice_label.setText(f"<span style='color:{ERROR_COLOR}'>⚠ {escape(text)}</span>")
        self.notice_label.setToolTip(text)

    def _dismiss_notices(self) -> None:
        self._notices.clear()
        self.notice_label.hide()

    def notice_text(self) -> str:
        """The notices' text while shown, else ""."""
        return self.notice_label.toolTip() if not self.notice_label.isHidden() else ""

    # -- a running fit --------------------------------------------------------------------------
    def set_busy(self, busy: bool) -> None:
        """A fit started (busy) or every fit ended; the bar shows after PROGRESS_DELAY_MS."""
        self._busy = busy
        self.cancel_action.setEnabled(busy)
        if busy:
            self.progress.setRange(0, 0)
            self._reveal.start()
        else:
            self._reveal.stop()
            self.progress.hide()
            self.cancel_button.hide()

    def set_progress(self, fraction: float, message: str) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(int(100 * fraction))
        self.progress.setToolTip(message)

    def _reveal_progress(self) -> None:
        if self._busy:
            self.progress.show()
            self.cancel_button.show()

    def stop(self) -> None:
        """No more progress (the window closes)."""
        self._reveal.stop()


__all__ = ["PROGRESS_DELAY_MS", "StatusLine"]
