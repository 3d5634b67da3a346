"""The link toggle beside a parameter in the compare layout: one value in every panel, or one each.

A :class:`LinkButton` is a small checkable button with a chain icon (joined when linked, broken
when not); its tooltip says what clicking it does. :func:`with_link_button` puts one beside a
parameter's widget. The buttons only say what the user wants; the workspace keeps the links and
copies the values (:meth:`kfdviz.app.pictures.Pictures.spread_links`).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
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
    gap = 0.0 if linked else 2.5
    for sign in (-1, 1):
        shift = sign * (3.0 + gap / 2)
        link = QRectF(QPointF(centre + shift - 4.5, centre - 2.6), QSize(9, 5.2))
        painter.drawRoundedRect(link, 2.6, 2.6)
    painter.end()
    return pixmap


def chain_icon(color: QColor | None = None) -> QIcon:
    """The button's icon: joined links when checked, apart when not."""
    if color is None:
        color = QApplication.palette().buttonText().color()
    ratio = QApplication.instance().devicePixelRatio() if QApplication.instance() else 1.0
    icon = QIcon()
    icon.addPixmap(_chain_pixmap(True, color, ratio), QIcon.Mode.Normal, QIcon.State.On)
    icon.addPixmap(_chain_pixmap(False, color, ratio), QIcon.Mode.Normal, QIcon.State.Off)
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
