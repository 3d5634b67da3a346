"""The link toggle beside a parameter in the compare layout: one value in every panel, or one each.

A :class:`LinkButton` is a small checkable button with a chain icon (joined when linked, broken
when not); its tooltip says what clicking it does. :func:`with_link_button` puts one beside a
parameter's widget. The buttons only say what the user wants; the workspace keeps the links and
copies the values (:meth:`kfdviz.app.pictures.Pictures.spread_links`).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import QApplication, QHBoxLayout, QToolButton, QWidget

ICON_SIZE = 16

LINKED_TIP = (
    "Linked: every compare panel whose algorithm has this parameter uses this value (panels "
    "without it are left alone). Click to let each panel keep its own value."
)
UNLINKED_TIP = (
    "Not linked: each compare panel keeps its own value. Click to link it: every panel whose "
    "algorithm has this parameter takes this panel's value, and keeps following it."
)


def _chain_pixmap(linked: bool, color: QColor, ratio: float) -> QPixmap:
    """Two chain links along a diagonal: overlapping when ``linked``, apart when not."""
    side = round(ICON_SIZE * ratio)
    pixmap = QPixmap(side, side)
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(color, 1.6))
    centre = ICON_SIZE / 2
    painter.setTransform(
        QTransform().translate(centre, centre).rotate(-45.0).translate(-centre, -centre)
    )
    shift = 2.4 if linked else 5.0  # each link's centre from the middle
    for sign in (-1, 1):
        x = centre + sign * shift
        painter.drawRoundedRect(QRectF(x - 3.6, centre - 2.4, 7.2, 4.8), 2.4, 2.4)
    if not linked:  # the break, marked by two short strokes across it
        painter.drawLine(QPointF(centre - 0.8, centre - 4.5), QPointF(centre - 0.8, centre - 3.2))
        painter.drawLine(QPointF(centre + 0.8, centre + 3.2), QPointF(centre + 0.8, centre + 4.5))
    painter.end()
    return pixmap


def chain_icon(color: QColor | None = None) -> QIcon:
    """The button's icon: joined links (in the selection's colour) when checked, a broken chain
    (in the text's) when not."""
    palette = QApplication.palette()
    off = color or palette.buttonText().color()
    on = color or palette.highlight().color()
    app = QApplication.instance()
    ratio = app.devicePixelRatio() if app is not None else 1.0
    icon = QIcon()
    icon.addPixmap(_chain_pixmap(True, on, ratio), QIcon.Mode.Normal, QIcon.State.On)
    icon.addPixmap(_chain_pixmap(False, off, ratio), QIcon.Mode.Normal, QIcon.State.Off)
    return icon


class LinkButton(QToolButton):
    """A checkable chain button for parameter ``name``; checked: linked across the panels."""

    def __init__(self, name: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.name = name
        self.setObjectName(f"link-{name}")
        self.setCheckable(True)
        self.setAutoRaise(True)
        self.setIcon(chain_icon())
        self.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.setAccessibleName(f"Link {name} across the compare panels")
        self.toggled.connect(self._say)
        self._say(False)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # a theme: the chain in its colours
            self.setIcon(chain_icon())
        super().changeEvent(event)

    def _say(self, linked: bool) -> None:
        self.setToolTip(LINKED_TIP if linked else UNLINKED_TIP)

    def set_linked(self, linked: bool) -> None:
        """Show ``linked`` without emitting ``toggled``."""
        self.blockSignals(True)
        self.setChecked(linked)
        self.blockSignals(False)
        self._say(linked)


def with_link_button(widget: QWidget, button: LinkButton) -> QWidget:
    """``widget`` with ``button`` at its right, as one form field."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    row.setSpacing(2)
    row.addWidget(widget, 1)
    row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
    return holder


__all__ = ["LINKED_TIP", "UNLINKED_TIP", "LinkButton", "chain_icon", "with_link_button"]
