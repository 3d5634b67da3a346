"""The input-space view: the chosen feature as an image with its level sets, and the points.

Everything drawn here arrives as arrays (a ``FitResult`` from the pipeline and the current
points): the view only calls ``setData``/``setImage``. Images use pyqtgraph's row-major axis
order and are placed on the grid's box, so each value sits under the point it was computed at.
The view box also turns left-button clicks and drags into data-coordinate signals while a
drawing tool is active.
"""

from __future__ import annotations

import weakref

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from ..figure.axes import tick_label, ticks
from ..figure.label_place import place_in_view, spots_along
from ..pipeline import FitResult
from .overlay import PictureOverlay
from .style import LIGHT, Theme, class_qcolor, class_symbol, elided_title

pg.setConfigOptions(imageAxisOrder="row-major", antialias=True)

# Pixels within which the pointer is "on" a point.
PICK_PIXELS = 9
# The colour bar is labelled at round values about span / COLORBAR_TICKS apart.
COLORBAR_TICKS = 6
# The bottom axis's height (ticks and their labels at 9 pt): fixed, as the left axis's width is,
# so that the plot area keeps its size whatever the ticks say (the picture's box is fitted to it).
BOTTOM_AXIS_PIXELS = 20
# When at most this many points moved (and none changed class or role), their markers are moved
# in place instead of every marker being drawn anew.
MOVED_IN_PLACE = 8
# The picture of a fit (image, level sets, boundary) is painted once into a pixmap and reused
# until the fit or the view changes: a dragged point repaints the plot about 60 times a second,
# the fit under it changes about 20 times (a repaint took 2.7 ms instead of 4.3 at 500 points).
_CACHED = QGraphicsItem.CacheMode.DeviceCoordinateCache


_DRAW_BUTTONS = (Qt.MouseButton.LeftButton, Qt.MouseButton.RightButton)


class CanvasViewBox(pg.ViewBox):
    """A ViewBox whose buttons draw (emit data coordinates) while a tool is active.

    With no tool (``tool_active`` False) it pans and zooms as usual and the right button opens
    pyqtgraph's menu; the wheel always zooms. With a tool, the left button draws with the
    selected class and the right button (or the left with Shift) with the other one, as paint
    programs for data do: ``pressed`` and ``clicked`` say which (``alternate``).
    """

    clicked = Signal(float, float, bool)  # x, y, alternate
    pressed = Signal(float, float, bool)
    dragged = Signal(float, float)
    released = Signal(float, float)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tool_active = False
        self.tool_dragging = False  # a tool's drag is under way

    @staticmethod
    def _alternate(ev) -> bool:
        shift = bool(ev.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        return ev.button() == Qt.MouseButton.RightButton or shift

    def mouseClickEvent(self, ev):
        if self.tool_active and ev.button() in _DRAW_BUTTONS:
            ev.accept()
            p = self.mapSceneToView(ev.scenePos())
            self.clicked.emit(p.x(), p.y(), self._alternate(ev))
            return
        super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev, axis=None):
        if self.tool_active and ev.button() in _DRAW_BUTTONS and axis is None:
            ev.accept()
            self.tool_dragging = not ev.isFinish()
            if ev.isStart():
                start = self.mapSceneToView(ev.buttonDownScenePos(ev.button()))
                self.pressed.emit(start.x(), start.y(), self._alternate(ev))
            p = self.mapSceneToView(ev.scenePos())
            if ev.isFinish():
                self.released.emit(p.x(), p.y())
            else:
                self.dragged.emit(p.x(), p.y())
            return
        super().mouseDragEvent(ev, axis)


def _skip_hover_during_tool_drags(scene, viewbox: CanvasViewBox) -> None:
    """pyqtgraph looks for the items under the pointer on every mouse move, also in mid-drag,
    when no item may take the hover: asking every item for its bounds took 1.6 ms a move while
    a point was dragged. During a tool's drag the search is left out (items hovered before the
    drag get their exit event when it ends)."""
    send = scene.sendHoverEvents
    box = weakref.ref(viewbox)

    def send_hover_events(ev, exitOnly=False):
        vb = box()
        if exitOnly or vb is None or not vb.tool_dragging:
            send(ev, exitOnly)

    scene.sendHoverEvents = send_hover_events


class _PassiveScatter(pg.ScatterPlotItem):
    """Points that leave clicks to the view box (a click on a point must reach the tools)."""

    def mouseClickEvent(self, ev):
        ev.ignore()


class InputSpaceView(QWidget):
    """Feature image, labelled level sets, decision boundary, points, expansion points."""

    hovered = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT, compact=False):
        super().__init__(parent)
        self.theme = theme
        self.result: FitResult | None = None
        self._points = np.zeros((0, 2))
        self._labels: np.ndarray | None = None
        self._test = np.zeros(0, bool)
        self._regression = False
        self._show_expansion = "auto"  # "auto": only when some coefficients are zero
        self._show_contours = True
        self._show_tangents = True
        self.scale = 1.0  # line widths, markers and fonts; larger in presentation mode

        self.viewbox = CanvasViewBox()
        self.plot = pg.GraphicsLayoutWidget()
        self.plot.setMinimumSize(120, 120)
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.plot.ci.setContentsMargins(4, 4, 4, 4)
        self.item = self.plot.addPlot(row=0, col=0, viewBox=self.viewbox)
        self.item.showGrid(x=False, y=False)
        self.item.setMenuEnabled(True)
        self.item.hideButtons()
        self.viewbox.setAspectLocked(True)
        # A fixed axis width: tick labels of another length must not change the plot's size
        # (the picture's box is fitted to it).
        self.item.getAxis("left").setWidth(44)
        self.item.getAxis("bottom").setHeight(BOTTOM_AXIS_PIXELS)
        self.compact = compact
        self._title_shown: tuple | None = None
        self._title_whole: tuple[str, dict] | None = None  # the title before it is cut
        if not compact:  # compact views (compare panels) have their caption outside the plot
            self._set_title("\u00a0", size="10pt")

        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setZValue(-20)
        self.image.setCacheMode(_CACHED)
        self.item.addItem(self.image)
        self.colorbar = pg.ColorBarItem(
            values=(-1, 1), width=12, interactive=False, colorMapMenu=False
        )
        self.colorbar.setImageItem(self.image)
        # the axes' tick offsets and the colour bar's width as built (scale 1.0)
        self._plain_axes = {
            id(axis): list(axis.style["tickTextOffset"])
            for axis in (self.item.getAxis("left"), self.item.getAxis("bottom"), self.colorbar.axis)
        }
        self._plain_axes["colorbar"] = self.colorbar.axis.fixedWidth
        self._cmap_key: tuple | None = None  # what the colour map was made for
        self._colorbar_shown = False
        self._show_colorbar(True)

        self.contour_items: list[pg.PlotCurveItem] = []
        self.contour_labels: list[pg.TextItem] = []
        # Level-set lines and labels are kept and given new data for every fit (adding and
        # removing items costs more than drawing them, many times a second during a drag);
        # the ones not needed are hidden. contour_items/labels are the ones in use.
        self._curve_pool: list[pg.PlotCurveItem] = []
        self._label_pool: list[pg.TextItem] = []
        self.boundary = pg.PlotCurveItem(connect="finite")
        self.boundary.setZValue(5)
        self.boundary.setCacheMode(_CACHED)
        self.item.addItem(self.boundary)
        self.tangent_item = pg.PlotCurveItem(connect="pairs")
        self.tangent_item.setZValue(6)
        self.item.addItem(self.tangent_item)
        self.tube_upper = pg.PlotCurveItem()
        self.tube_lower = pg.PlotCurveItem()
        self.tube = pg.FillBetweenItem(self.tube_upper, self.tube_lower)
        for it in (self.tube, self.tube_upper, self.tube_lower):
            it.setZValue(-5)
            self.item.addItem(it)
            it.hide()
        self.curve = pg.PlotCurveItem()
        self.curve.setZValue(7)
        self.item.addItem(self.curve)
        self._scatters: dict[tuple[int, bool], pg.ScatterPlotItem] = {}
        # The indices of the points each scatter item draws, in its order (sorted).
        self._scatter_index: dict[tuple[int, bool], np.ndarray] = {}
        self.expansion_scatter = _PassiveScatter()
        self.expansion_scatter.setZValue(12)
        self.highlight = _PassiveScatter(size=18)
        self._highlighted: tuple | None = None  # what the highlight circle shows
        self.highlight.setZValue(13)
        for it in (self.expansion_scatter, self.highlight):
            self.item.addItem(it)
        self.hint = pg.TextItem("", anchor=(0.5, 0.5))
        self.hint.setZValue(20)
        self.item.addItem(self.hint, ignoreBounds=True)

        self.readout = QLabel(" ")
        self.readout.setObjectName("readout")
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.readout.font()
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.readout.setFont(font)
        if compact:
            self.readout.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.readout)
        self.plot.scene().sigMouseMoved.connect(self._on_mouse_moved)
        _skip_hover_during_tool_drags(self.plot.scene(), self.viewbox)
        # Says when the picture is not the current one (a failed or pending fit) or is being
        # computed (a long fit); see overlay.py.
        self.overlay = PictureOverlay(self.plot, theme=theme, fade=self._fade_picture)
        self.set_theme(theme)

    # -- theme and options ---------------------------------------------------------------------
    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.plot.setBackground(theme.background)
        for name in ("left", "bottom"):
            axis = self.item.getAxis(name)
            axis.setPen(theme.foreground)
            axis.setTextPen(theme.foreground)
        self.colorbar.axis.setPen(theme.foreground)
        self.colorbar.axis.setTextPen(theme.foreground)
        s = self.scale
        self.boundary.setPen(pg.mkPen(theme.boundary, width=2.6 * s))
        self.tangent_item.setPen(pg.mkPen(theme.foreground, width=1.2 * s))
        self.curve.setPen(pg.mkPen(theme.boundary, width=2.2 * s))
        self.hint.setColor(theme.muted)
        self.overlay.set_theme(theme)
        self._redraw_points()
        if self.result is not None:
            self.set_result(self.result)

    def set_scale(self, scale: float) -> None:
        """Thicker lines, bigger markers and larger text (presentation mode) or back (1.0)."""
        self.scale = float(scale)
        font = None  # pyqtgraph's default
        if self.scale != 1.0:
            font = QFont()
            font.setPointSizeF(9.0 * self.scale)
        # At 1.0 the axes are as built (pyqtgraph's offsets and heights), so that leaving
        # presentation mode gives the plot area the size it had, and its pictures still fill it.
        plain = self.scale == 1.0
        for axis in (self.item.getAxis("left"), self.item.getAxis("bottom"), self.colorbar.axis):
            if plain:  # pyqtgraph's (x, y) pair, which setStyle does not take
                axis.style["tickTextOffset"] = list(self._plain_axes[id(axis)])
                axis.setStyle(tickFont=font)
            else:
                axis.setStyle(tickFont=font, tickTextOffset=round(3 * self.scale))
        self.item.getAxis("left").setWidth(round(44 * self.scale))
        bottom = BOTTOM_AXIS_PIXELS if plain else round(max(30.0, 26 * self.scale))
        self.item.getAxis("bottom").setHeight(bottom)
        self.colorbar.axis.setWidth(
            self._plain_axes["colorbar"] if plain else round(44 * self.scale)
        )
        self.set_theme(self.theme)

    def title_size(self) -> str:
        return f"{10 * self.scale:g}pt"

    def set_options(self, *, expansion=None, contours=None, tangents=None) -> None:
        """``expansion``: "auto" (circle them when the expansion is sparse), True or False."""
        if expansion is not None:
            self._show_expansion = expansion if expansion == "auto" else bool(expansion)
        if contours is not None:
            self._show_contours = bool(contours)
        if tangents is not None:
            self._show_tangents = bool(tangents)
        if self.result is not None:
            self.set_result(self.result)

    def set_tool_active(self, active: bool) -> None:
        self.viewbox.tool_active = bool(active)
        self.viewbox.tool_dragging = False

    def set_regression(self, regression: bool) -> None:
        self._regression = bool(regression)
        self.viewbox.setAspectLocked(not regression)
        # The colour bar stays in place between fits (the plot keeps its size); curves of
        # regression have no colours to explain.
        self._show_colorbar(not regression)

    # -- points --------------------------------------------------------------------------------
    def set_points(
        self, points: np.ndarray, labels: np.ndarray | None, test_mask: np.ndarray
    ) -> None:
        """The current points (display coordinates), their class labels (or None), test roles."""
        P = np.asarray(points, dtype=float).reshape(-1, 2)
        labels = None if labels is None else np.asarray(labels)
        test = np.asarray(test_mask, dtype=bool).reshape(-1)
        if self._same_roles(P, labels, test):
            moved = np.flatnonzero(np.any(P != self._points, axis=1))
            if moved.size <= MOVED_IN_PLACE:
                self._points = P
                self._move_points(moved)
                return
        self._points, self._labels, self._test = P, labels, test
        self._redraw_points()

    def _same_roles(self, P: np.ndarray, labels: np.ndarray | None, test: np.ndarray) -> bool:
        """Whether the points drawn have the same number, classes and roles as these."""
        old = self._labels
        return (
            P.shape == self._points.shape
            and P.shape[0] > 0
            and np.array_equal(test, self._test)
            and (labels is None) == (old is None)
            and (labels is None or (labels.shape == old.shape and np.array_equal(labels, old)))
        )

    def _move_points(self, moved: np.ndarray) -> None:
        """Give the points ``moved`` (indices) their new positions in the scatter items that
        draw them: a dragged point moves 60 times a second, and setData on an item rebuilds
        every spot's style (1.9 ms for 500 points, against 0.1 ms here). Each spot keeps its
        symbol, size, pen and brush; only its coordinates change, as setData would set them."""
        if moved.size == 0:
            return
        P = self._points
        labels = self._labels if self._labels is not None else np.zeros(P.shape[0], int)
        keys = [(int(labels[i]), bool(self._test[i])) for i in moved]
        for key in set(keys):
            which = moved[[k == key for k in keys]]
            spots = np.searchsorted(self._scatter_index[key], which)
            _move_spots(self._scatters[key], spots, P[which, 0], P[which, 1])

    def _scatter(self, key: tuple[int, bool]) -> pg.ScatterPlotItem:
        """The scatter item of one class and role (one item each: per-point styles are slow)."""
        item = self._scatters.get(key)
        if item is None:
            item = _PassiveScatter(hoverable=False)
            item.setZValue(11 if key[1] else 10)
            # Painted from a pixmap while unchanged: a dragged point changes one item.
            item.setCacheMode(_CACHED)
            self.item.addItem(item)
            self._scatters[key] = item
        return item

    def _redraw_points(self) -> None:
        P, test = self._points, self._test
        theme = self.theme
        labels = self._labels if self._labels is not None else np.zeros(P.shape[0], int)
        used = set()
        for k in np.unique(labels) if P.shape[0] else []:
            color = class_qcolor(int(k)) if self._labels is not None else QColor(theme.foreground)
            for is_test in (False, True):
                idx = np.flatnonzero((labels == k) & (test == is_test))
                if idx.size == 0:
                    continue
                key = (int(k), is_test)
                used.add(key)
                self._scatter_index[key] = idx
                s = self.scale
                if is_test:
                    brush, pen = pg.mkBrush(theme.test_fill), pg.mkPen(color, width=2.0 * s)
                    size = 8 * s
                else:
                    brush, pen = pg.mkBrush(color), pg.mkPen(theme.point_edge, width=0.8 * s)
                    size = 9 * s
                self._scatter(key).setData(
                    x=P[idx, 0],
                    y=P[idx, 1],
                    brush=brush,
                    pen=pen,
                    size=size,
                    symbol=class_symbol(int(k)),
                    data=idx,
                )
        for key, item in self._scatters.items():
            if key not in used:
                item.setData([], [])
                self._scatter_index.pop(key, None)
        if P.shape[0] == 0:
            self.hint.setText(
                "Click to add points of the selected class (keys 1–8 choose it)."
                if not self._regression
                else "Click to add (x, y) samples."
            )
            self.hint.setTextWidth(max(self.viewbox.width() - 24.0, 80.0))  # wraps, never cut
            self.hint.setPos(self.viewbox.viewRect().center())
            self.hint.show()
        else:
            self.hint.hide()

    # -- the fitted picture -----------------------------------------------------------------
    def clear_result(self) -> None:
        self.result = None
        self.image.clear()
        self.image.hide()
        self._hide_contours()
        _empty(self.boundary)
        _empty(self.expansion_scatter)
        _empty(self.tangent_item)
        _empty(self.curve)
        for it in (self.tube, self.tube_upper, self.tube_lower):
            it.hide()
        # Keep the title row (empty) so that the plot area does not change size between fits.
        if not self.compact:
            self._set_title("\u00a0", size=self.title_size())

    def set_result(self, result: FitResult, *, title: str | None = None) -> None:
        self.result = result
        theme = self.theme
        heading = title if title is not None else result.feature_label
        if not self.compact:
            self._set_title(heading, size=self.title_size(), color=theme.foreground)
        self._draw_grid(result)
        self._draw_expansion(result)
        self._draw_tangents(result)
        self._draw_curve(result)

    def _set_title(self, text: str, **opts) -> None:
        """The plot's title, cut to the plot's width; not set again when unchanged (pyqtgraph
        lays the label out anew)."""
        self._title_whole = (text, opts)
        points = float(opts.get("size", "10pt").removesuffix("pt"))
        # The title sits over the view box only: the plot less the left axis, the colour bar
        # and the layout's margins and spacing.
        room = self.plot.width() - self.item.getAxis("left").width() - 24.0
        colorbar = getattr(self, "colorbar", None)  # not yet made when the empty title is set
        if colorbar is not None and colorbar.isVisible():
            room -= colorbar.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
        shown = elided_title(text, points, room)
        key = (shown, tuple(sorted(opts.items())))
        if key != self._title_shown:
            self._title_shown = key
            self.item.setTitle(shown, **opts)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._title_whole is not None:
            text, opts = self._title_whole
            self._set_title(text, **opts)

    def _hide_contours(self, curves: int = 0, labels: int = 0) -> None:
        """Keep the first ``curves`` lines and ``labels`` labels of the pools, hide the rest."""
        for it in self._curve_pool[curves:] + self._label_pool[labels:]:
            it.hide()
        self.contour_items = self._curve_pool[:curves]
        self.contour_labels = self._label_pool[:labels]

    def _contour_curve(self, i: int) -> pg.PlotCurveItem:
        if i == len(self._curve_pool):
            curve = pg.PlotCurveItem(connect="finite")
            curve.setZValue(2)
            curve.setCacheMode(_CACHED)
            self.item.addItem(curve)
            self._curve_pool.append(curve)
        return self._curve_pool[i]

    def _contour_label(self, i: int) -> pg.TextItem:
        if i == len(self._label_pool):
            text = pg.TextItem("", anchor=(0.5, 0.5))
            # Over the markers (10, 11), under the expansion circles and the highlight: a label
            # under a point cannot be read.
            text.setZValue(11.5)
            text.setCacheMode(_CACHED)
            text.textItem.setCacheMode(_CACHED)
            self.item.addItem(text, ignoreBounds=True)
            self._label_pool.append(text)
        return self._label_pool[i]

    def _draw_grid(self, result: FitResult) -> None:
        grid = result.grid
        if grid is None:
            self._hide_contours()
            self.image.hide()
            _empty(self.boundary)
            return
        theme = self.theme
        lo, hi = grid.color_range
        self.image.setImage(grid.values, autoLevels=False, levels=(lo, hi))
        x0, x1, y0, y1 = grid.box
        self.image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        # A new colour map renders the bar and the image's lookup table anew: only when it
        # changes (not for every fit of a drag).
        classes = tuple(int(c) for c in result.classes[:2]) if result.classes.size >= 2 else ()
        cmap_key = (theme.name, result.kind == "novelty", bool(grid.diverging), classes)
        if cmap_key != self._cmap_key:
            self._cmap_key = cmap_key
            if result.kind == "novelty":
                cmap = theme.novelty()
            elif grid.diverging and classes:
                cmap = theme.diverging(*classes)
            elif grid.diverging:
                cmap = theme.diverging(0, 1)
            else:
                cmap = theme.sequential()
            self.colorbar.setColorMap(cmap)
        if tuple(self.colorbar.levels()) != (lo, hi):
            self.colorbar.setLevels((lo, hi))
            self._set_colorbar_ticks(lo, hi)
        self.image.show()

        curves, labels, placing = 0, 0, []
        if self._show_contours:
            pen = pg.mkPen(QColor(theme.contour), width=0.9 * self.scale)
            label_color = QColor(theme.foreground)
            fill = QColor(theme.background)
            fill.setAlpha(150)
            font_size = 7.5 * self.scale
            span = max(abs(hi - lo), 1e-300)
            for line in grid.contours:
                if grid.boundary is not None and grid.diverging and line.level == 0.0:
                    continue  # the boundary itself is drawn thicker
                if line.path.shape[0] == 0:
                    continue
                curve = self._contour_curve(curves)
                curve.setData(line.path[:, 0], line.path[:, 1], connect="finite")
                if curve.opts["pen"] != pen:
                    curve.setPen(pen)
                curve.show()
                curves += 1
                if line.label_at is not None:
                    text = self._contour_label(labels)
                    label = _format_level(line.level, span)
                    if text.toPlainText() != label or text.color != label_color:
                        text.setText(label, color=label_color)
                    text.fill = pg.mkBrush(fill)
                    text.setPos(*line.label_at)
                    if text.textItem.font().pointSizeF() != font_size:
                        font = QFont()
                        font.setPointSizeF(font_size)
                        text.setFont(font)
                    text.show()
                    placing.append((text, line, label))
                    labels += 1
        self._hide_contours(curves, labels)
        self._place_contour_labels(placing)
        b = grid.boundary
        if b is not None and b.path.shape[0]:
            self.boundary.setData(b.path[:, 0], b.path[:, 1], connect="finite")
            self.boundary.show()
        else:
            _empty(self.boundary)

    def _place_contour_labels(self, placing) -> None:
        """Move each level's label to a spot on its line clear of the other labels and of the
        points (label_place.py); hide a label with no such spot."""
        vb = self.viewbox
        wanted = []
        for text, line, _label in placing:
            box = text.textItem.boundingRect()  # in pixels: a TextItem ignores the zoom
            wanted.append((spots_along(line.path, line.label_at), box.width(), box.height()))
        radius = 4.5 * self.scale + 1.0  # the markers are 9 px across at scale 1
        size = (vb.width(), vb.height())
        for (text, _, _), at in zip(
            placing, place_in_view(wanted, self._points, vb.viewRange(), size, radius), strict=True
        ):
            text.setVisible(at is not None)
            text.setPos(*(at or (text.pos().x(), text.pos().y())))

    def _fade_picture(self, on: bool) -> None:
        """The fitted picture (image, level sets, boundary, colour bar) faded, the points not:
        they are the data on screen, the picture is not of them."""
        opacity = 0.3 if on else 1.0
        for item in (
            self.image,
            self.boundary,
            self.colorbar,
            self.expansion_scatter,
            self.tangent_item,
            self.curve,
            *self._curve_pool,
            *self._label_pool,
        ):
            item.setOpacity(opacity)

    def _set_colorbar_ticks(self, lo: float, hi: float) -> None:
        """About five round, labelled values (pyqtgraph's own choice put up to 27 labels on a
        tall bar, or bunched three at one end), with the figures' tick labels."""
        values = ticks(min(lo, hi), max(lo, hi), COLORBAR_TICKS)
        step = float(np.min(np.diff(values))) if values.size > 1 else None
        self.colorbar.axis.setTicks([[(float(v), tick_label(v, step)) for v in values], []])

    def _show_colorbar(self, show: bool) -> None:
        # Hiding a ColorBarItem loses its tick labels when shown again: take it out of the
        # layout instead.
        if show == self._colorbar_shown:
            return
        if show:
            self.plot.addItem(self.colorbar, row=0, col=1)
        else:
            self.plot.removeItem(self.colorbar)
        self._colorbar_shown = show

    def _draw_expansion(self, result: FitResult) -> None:
        pts, coef = result.expansion_points, result.expansion_coef
        show = pts is not None and coef is not None and len(pts) > 0
        if self._show_expansion == "auto":
            # Circling every point says nothing; circle them when the choice of points matters.
            show = show and len(pts) < max(result.n_train, 1)
        else:
            show = show and bool(self._show_expansion)
        if not show or (pts.shape[1] != 2 and not (self._regression and pts.shape[1] == 1)):
            _empty(self.expansion_scatter)
            return
        if self._regression and result.curve is not None and result.curve.expansion_x is not None:
            xs, ys = result.curve.expansion_x, result.curve.expansion_y
            sizes = np.full(xs.size, 15.0 * self.scale)
        else:
            xs, ys = pts[:, 0], pts[:, 1]
            mag = np.abs(coef) / max(float(np.abs(coef).max()), 1e-300)
            sizes = (11.0 + 13.0 * np.sqrt(mag)) * self.scale
        self.expansion_scatter.setData(
            x=xs,
            y=ys,
            size=sizes,
            symbol="o",
            brush=pg.mkBrush(0, 0, 0, 0),
            pen=pg.mkPen(self.theme.expansion, width=1.1 * self.scale),
        )
        self.expansion_scatter.show()

    def _draw_tangents(self, result: FitResult) -> None:
        if not self._show_tangents or not result.tangents or result.grid is None:
            _empty(self.tangent_item)
            return
        segs = []
        for t in result.tangents:
            a = t.starts
            b = t.starts + t.vectors
            # shaft plus two short barbs at the tip
            d = t.vectors
            n = np.stack([-d[:, 1], d[:, 0]], axis=1)
            barb1 = b - 0.35 * d + 0.2 * n
            barb2 = b - 0.35 * d - 0.2 * n
            segs.append(np.stack([a, b, b, barb1, b, barb2], axis=1).reshape(-1, 2))
        S = np.concatenate(segs)
        self.tangent_item.setData(S[:, 0], S[:, 1], connect="pairs")
        self.tangent_item.show()

    def _draw_curve(self, result: FitResult) -> None:
        curve = result.curve
        if curve is None:
            _empty(self.curve)
            for it in (self.tube, self.tube_upper, self.tube_lower):
                it.hide()
            return
        self.curve.setData(curve.x, curve.y)
        self.curve.show()
        for it in (self.tube, self.tube_upper, self.tube_lower):
            it.hide()

    # -- coordinates, picking and hover ------------------------------------------------------
    def data_to_widget(self, x: float, y: float) -> QPoint:
        """The pixel of the plot's viewport showing data point (x, y) (tests click there)."""
        scene = self.viewbox.mapViewToScene(QPointF(x, y))
        return self.plot.mapFromScene(scene)

    def pixel_size(self) -> tuple[float, float]:
        px = self.viewbox.viewPixelSize()
        return float(abs(px[0])) or 1.0, float(abs(px[1])) or 1.0

    def nearest_point(self, x: float, y: float, pixels: float = PICK_PIXELS) -> int | None:
        """Index of the point nearest (x, y) if within ``pixels`` on screen, else None."""
        P = self._points
        if P.shape[0] == 0:
            return None
        sx, sy = self.pixel_size()
        d2 = ((P[:, 0] - x) / sx) ** 2 + ((P[:, 1] - y) / sy) ** 2
        i = int(np.argmin(d2))
        return i if d2[i] <= pixels**2 else None

    def image_value_at(self, x: float, y: float) -> float | None:
        """The value drawn in the image cell containing (x, y), or None outside the image."""
        r = self.result
        if r is None or r.grid is None:
            return None
        g = r.grid
        x0, x1, y0, y1 = g.box
        ny, nx = g.values.shape
        a = int(np.floor((x - x0) / (x1 - x0) * nx))
        b = int(np.floor((y - y0) / (y1 - y0) * ny))
        if 0 <= a < nx and 0 <= b < ny:
            return float(g.values[b, a])
        return None

    def set_presenting(self, presenting: bool) -> None:
        """On a slide: no readout under the plot and no hover marker (the audience sees the
        picture, not the pointer's coordinates)."""
        self.presenting = presenting
        self.readout.setVisible(not presenting and not self.compact)
        if presenting:
            self._highlight(None)

    def _on_mouse_moved(self, scene_pos) -> None:
        if getattr(self, "presenting", False):
            return
        if not self.viewbox.sceneBoundingRect().contains(scene_pos):
            return
        p = self.viewbox.mapSceneToView(scene_pos)
        x, y = p.x(), p.y()
        parts = [f"x = {x:+.3f}   y = {y:+.3f}"]
        value = self.image_value_at(x, y)
        if value is not None:
            parts.append(f"value {value:+.4g}")
        i = self.nearest_point(x, y)
        if i is not None:
            parts.append(self._describe_point(i))
        self._highlight(i)
        text = "    ".join(parts)
        self.readout.setText(text)
        self.hovered.emit(text)

    def _highlight(self, i: int | None) -> None:
        """Circle point ``i`` (None: none); nothing is redrawn when that circle is already shown
        (the pointer moves many times a second, the plot need not be painted for each)."""
        shown = None if i is None else (int(i), *map(float, self._points[i]), self.theme.foreground)
        if shown == self._highlighted:
            return
        previous, self._highlighted = self._highlighted, shown
        if shown is None:
            _empty(self.highlight)
            return
        if previous is not None and previous[3] == shown[3] and len(self.highlight.data) == 1:
            _move_spots(self.highlight, [0], [shown[1]], [shown[2]])  # the same circle, moved
            return
        self.highlight.show()
        self.highlight.setData(
            [shown[1]],
            [shown[2]],
            brush=pg.mkBrush(0, 0, 0, 0),
            pen=pg.mkPen(self.theme.foreground, width=1.5, style=Qt.PenStyle.DotLine),
        )

    def _describe_point(self, i: int) -> str:
        role = "test" if self._test[i] else "training"
        if self._regression:
            head = f"sample {i + 1} ({role})"
        elif self._labels is not None:
            head = f"point {i + 1}: class {int(self._labels[i]) + 1}, {role}"
        else:
            head = f"point {i + 1}: {role}"
        r = self.result
        if r is not None and r.expansion_points is not None and len(r.expansion_points):
            E = r.expansion_points
            p = self._points[i]
            coords = p[:1] if E.shape[1] == 1 else p
            if E.shape[1] == coords.size:
                d = np.abs(E - coords).max(axis=1)
                j = int(np.argmin(d))
                if d[j] <= 1e-9 * max(1.0, float(np.abs(coords).max())):
                    return f"{head}, α = {r.expansion_coef[j]:+.4g}"
            if r.n_expansion_total:
                return f"{head}, α = 0"
        return head


def _move_spots(item: pg.ScatterPlotItem, spots, xs, ys) -> None:
    """New coordinates for some spots of a scatter item, each keeping its style: what
    ScatterPlotItem.addPoints does after setting coordinates, less restyling every spot."""
    item.data["x"][spots] = xs
    item.data["y"][spots] = ys
    item.prepareGeometryChange()
    item.informViewBoundsChanged()
    item.bounds = [None, None]
    item.invalidate()
    item.sigPlotChanged.emit(item)


def _empty(item) -> None:
    """Empty a curve or scatter item, and hide it (an empty item still costs a paint); an item
    already empty is not given empty data again (which redraws the plot)."""
    if isinstance(item, pg.ScatterPlotItem):
        has_data = len(item.data) > 0
    else:
        has_data = item.xData is not None and len(item.xData) > 0
    if has_data:
        item.setData([], [])
    item.hide()


def _format_level(level: float, span: float) -> str:
    if level == 0:
        return "0"
    digits = max(0, int(np.ceil(-np.log10(span))) + 2)
    if abs(level) >= 1e4 or abs(level) < 1e-3:
        return f"{level:.2g}"
    return f"{level:.{min(digits, 4)}f}".rstrip("0").rstrip(".")
