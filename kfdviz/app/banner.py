"""A strip above the plots with a message, a few action buttons and an optional dismiss button.

The window's non-blocking questions (recover an autosave? train a large data set on a subset?)
are banners rather than dialogs: the window stays usable while they wait for an answer. Every
banner has the same shape — the message on the left (wrapped), the buttons on the right — and one
of a few tones that set its colours.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

# background, border
TONES = {
    "warning": ("#FFF4D6", "#E69F00"),
    "info": ("#E8F1FA", "#0072B2"),
}
TEXT_COLOR = "#202020"


def banner_style(name: str, tone: str) -> str:
    """The style sheet of a banner whose object name is ``name``."""
    background, border = TONES[tone]
    return (
        f"#{name} {{ background: {background}; border: 1px solid {border}; "
        f"border-radius: 4px; }} #{name} QLabel {{ color: {TEXT_COLOR}; }}"
    )


class Banner(QFrame):
    """A message with action buttons and an optional dismiss button, hidden until shown.

    ``action_triggered(key)`` is emitted when the button added with ``add_action(key, …)`` is
    clicked; the banner stays up (its owner hides it once the action succeeded). The dismiss
    button, if the banner has one, emits ``dismissed`` and hides the banner.
    """

    action_triggered = Signal(str)
    dismissed = Signal()

    def __init__(
        self,
        name: str = "banner",
        *,
        tone: str = "info",
        dismiss_text: str | None = None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        if tone not in TONES:
            raise ValueError(f"unknown banner tone {tone!r}; one of {', '.join(TONES)}")
        self.tone = tone
        self.setObjectName(name)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(banner_style(name, tone))
        self.label = QLabel("")
        self.label.setWordWrap(True)
        self.buttons: dict[str, QPushButton] = {}
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(10, 6, 6, 6)
        self.row.addWidget(self.label, 1)
        self.dismiss_button: QPushButton | None = None
        if dismiss_text is not None:
            self.dismiss_button = QPushButton(dismiss_text)
            self.dismiss_button.clicked.connect(self.dismiss)
            self.row.addWidget(self.dismiss_button)
        self.hide()

    def add_action(self, key: str, text: str) -> QPushButton:
        """A button (before the dismiss button) that emits ``action_triggered(key)``."""
        if key in self.buttons:
            raise ValueError(f"the banner already has an action {key!r}")
        button = QPushButton(text)
        button.setObjectName(f"{self.objectName()}-{key}")
        button.clicked.connect(lambda _checked=False, k=key: self.action_triggered.emit(k))
        index = self.row.count() - (1 if self.dismiss_button is not None else 0)
        self.row.insertWidget(index, button)
        self.buttons[key] = button
        return button

    def button(self, key: str) -> QPushButton:
        return self.buttons[key]

    def message(self) -> str:
        return self.label.text()

    def show_message(self, text: str) -> None:
        """Show the banner with this message."""
        self.label.setText(text)
        self.show()

    def dismiss(self) -> None:
        """Hide the banner and say so (what the dismiss button does)."""
        self.hide()
        self.dismissed.emit()


__all__ = ["TONES", "Banner", "banner_style"]
