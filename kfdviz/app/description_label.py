"""A description that wraps over several lines, or keeps to one line where room is short.

The compact arrangement (compact_layout.py) has no room for an algorithm's description in four
lines, but a lecturer's audience still needs to read what the algorithm is: there it shows the
first line's worth, cut with "…" to the label's width, and its tooltip (wrapped) has it all.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel

from .help_dialogs import wrapped_tip


class DescriptionLabel(QLabel):
    """A wrapping label with a one-line mode (:meth:`set_one_line`)."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self._full = ""
        self._one_line = False
        self.setWordWrap(True)
        self.setText(text)

    def full_text(self) -> str:
        return self._full

    def setText(self, text: str) -> None:
        self._full = text or ""
        self.setToolTip(wrapped_tip(self._full) if self._one_line else "")
        self._show_text()

    def set_one_line(self, on: bool) -> None:
        """One line cut to the width (the whole text in the tooltip), or the whole text wrapped."""
        self._one_line = bool(on)
        self.setWordWrap(not on)
        self.setToolTip(wrapped_tip(self._full) if on else "")
        self._show_text()
        self.updateGeometry()

    def _show_text(self) -> None:
        text = self._full
        if self._one_line:
            width = max(self.contentsRect().width(), 1)
            text = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width)
        super().setText(text)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._one_line:
            self._show_text()

    def minimumSizeHint(self) -> QSize:
        if self._one_line:
            return QSize(0, self.fontMetrics().height())
        return super().minimumSizeHint()

    def sizeHint(self) -> QSize:
        if self._one_line:
            return QSize(self.fontMetrics().averageCharWidth() * 20, self.fontMetrics().height())
        return super().sizeHint()


__all__ = ["DescriptionLabel"]
