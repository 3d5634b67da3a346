"""A layer over a plot that says when its picture is not the current one.

Two states, never both:

- **stale**: the picture no longer belongs to the data or parameters on screen (the fit failed,
  waits for an answer, or was not run). The plot is drawn in grey, and a card over it gives the
  reason and, where there is one, a one-click fix.
- **busy**: a fit for this plot is running (the caller shows it only for fits longer than about
  half a second). A card gives the stage and the progress and has a Cancel button; the picture
  under it keeps its colours, since it is still the latest finished one.

The card is the only part that takes the mouse: the plot under and around it stays usable (a
user fixes a one-class data set by drawing points of a second class).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsColorizeEffect,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .style import LIGHT, Theme

# The card's width as a fraction of the plot's, within these pixel bounds.
CARD_FRACTION = 0.7
CARD_MIN_PX = 180
CARD_MAX_PX = 460


class PictureOverlay(QObject):
    """Marks the picture of ``plot`` (a widget inside another) as stale or busy; see the module
    docstring.

    ``fix_requested`` is emitted when the user clicks the stale card's fix button,
    ``cancel_requested`` when the user clicks the busy card's Cancel.
    """

    fix_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, plot: QWidget, *, theme: Theme = LIGHT, fade=None):
        """``fade(on)``: greys the picture itself (default: the whole ``plot`` widget); a view
        whose plot also shows current things (the data's points) fades only the picture."""
        super().__init__(plot)
        self.plot = plot
        self._fade = fade
        self.state = "none"  # "none" | "stale" | "busy"
        self.reason = ""
        self._grey: QGraphicsColorizeEffect | None = None
        self._greyed = False

        # The card is the plot's sibling, not its child, so that the grey of the plot's graphics
        # effect does not reach it.
        host = plot.parentWidget()
        if host is None:
            raise ValueError("the plot must be inside a widget to carry an overlay")
        self.card = QFrame(host)
        self.card.setObjectName("pictureOverlayCard")
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.setAutoFillBackground(True)
        column = QVBoxLayout(self.card)
        column.setContentsMargins(12, 10, 12, 10)
        column.setSpacing(6)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(self.message)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        column.addWidget(self.progress)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.fix_button = QPushButton()
        self.fix_button.clicked.connect(self.fix_requested)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_requested)
        buttons.addWidget(self.fix_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        column.addLayout(buttons)
        self.card.hide()
        plot.installEventFilter(self)
        self.set_theme(theme)

    # -- states ------------------------------------------------------------------------------
    def show_stale(self, reason: str, fix: str | None = None) -> None:
        """Grey the picture and say why it is not current; ``fix``: the fix button's text."""
        self.state, self.reason = "stale", reason
        self.message.setText(reason)
        self.progress.hide()
        self.cancel_button.hide()
        self.fix_button.setVisible(bool(fix))
        self.fix_button.setText(fix or "")
        self._set_grey(True)
        self._show_card()

    def show_busy(self, message: str, fraction: float | None = None) -> None:
        """A running fit: its stage and progress (``None``: not known yet), and Cancel."""
        if self.state == "stale":
            self._set_grey(False)
        self.state, self.reason = "busy", ""
        self.message.setText(message)
        if fraction is None:
            self.progress.setRange(0, 0)
        else:
            self.progress.setRange(0, 100)
            self.progress.setValue(round(100 * min(max(fraction, 0.0), 1.0)))
        self.progress.show()
        self.cancel_button.show()
        self.fix_button.hide()
        self._show_card()

    def clear(self) -> None:
        """The picture is current: no grey, no card."""
        self.state, self.reason = "none", ""
        self._set_grey(False)
        self.card.hide()

    def set_theme(self, theme: Theme) -> None:
        palette = self.card.palette()
        background = QColor(theme.background)
        background.setAlpha(235)
        palette.setColor(self.card.backgroundRole(), background)
        palette.setColor(self.card.foregroundRole(), QColor(theme.foreground))
        self.card.setPalette(palette)
        self.message.setStyleSheet(f"color: {theme.foreground};")

    # -- geometry ----------------------------------------------------------------------------
    def eventFilter(self, obj, event) -> bool:
        if obj is self.plot and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Move,
            QEvent.Type.Show,
        ):
            self._place()
        return False

    def _show_card(self) -> None:
        self._place()
        self.card.show()
        self.card.raise_()

    def _place(self) -> None:
        rect = self.plot.geometry()  # in the host's coordinates
        width = int(min(max(CARD_FRACTION * rect.width(), CARD_MIN_PX), CARD_MAX_PX))
        width = min(width, max(rect.width() - 8, 60))
        self.card.setFixedWidth(width)
        self.card.adjustSize()
        height = self.card.sizeHint().height()
        self.card.setGeometry(
            rect.center().x() - width // 2, rect.center().y() - height // 2, width, height
        )

    def _set_grey(self, on: bool) -> None:
        if self._fade is not None:
            if on != self._greyed:
                self._greyed = on
                self._fade(on)
            return
        if on and self._grey is None:
            # A grey picture: colour is what says "current" in every view.
            self._grey = QGraphicsColorizeEffect()
            self._grey.setColor(QColor(128, 128, 128))
            self._grey.setStrength(0.85)
            self.plot.setGraphicsEffect(self._grey)
        elif not on and self._grey is not None:
            self.plot.setGraphicsEffect(None)  # deletes the effect
            self._grey = None


__all__ = ["PictureOverlay"]
