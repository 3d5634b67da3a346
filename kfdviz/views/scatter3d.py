"""A rotatable 3-D scatter of points coloured by class, or its three 2-D projections.

pyqtgraph's OpenGL view needs an OpenGL context; Qt's offscreen platform (and some remote
sessions) have none. There the widget says so and shows the projections 1–2, 1–3 and 2–3.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QOffscreenSurface,
    QOpenGLContext,
)
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from .style import LIGHT, Theme, class_qcolor, class_symbol

PLATFORMS_WITHOUT_GL = ("offscreen", "minimal", "vnc")

# Markers grow with the picture: MARKER_FRACTION of the shorter side of the 3-D view (or of one
# projection), never less than MIN_MARKER_PX (a narrow compare panel) nor more than MAX_MARKER_PX
# (the whole window), both bounds times the presentation scale; logical pixels. Test points are
# smaller in the OpenGL view.
MARKER_FRACTION = 0.03
MIN_MARKER_PX = 8.0
MAX_MARKER_PX = 14.0
TEST_MARKER_RATIO = 0.75


# The OpenGL view: the points fill about [-1, 1]^3, the axes run to AXIS_END and their names are
# centred at AXIS_LABEL_AT. The camera starts at CAMERA_DISTANCE and backs off (up to
# MAX_CAMERA_DISTANCE) where the view is too narrow or too flat for the axes and their names.
AXIS_END = 1.1
AXIS_LABEL_AT = 1.25
CAMERA_DISTANCE = 3.6
MAX_CAMERA_DISTANCE = 4 * CAMERA_DISTANCE
# The part of the view's half-width (half-height) that the axes and their names may use.
CAMERA_MARGIN = 0.9


def camera_distance(
    width_px: float, height_px: float, label_px: float, text_px: float, fov_deg: float = 60.0
) -> float:
    """How far the camera must be for the axes' tips and their centred names to stay in view.

    pyqtgraph's field of view is horizontal: at distance d the view shows d tan(fov/2) scene
    units either side of the centre, and height/width of that up and down. A name centred on
    its tip reaches half its size beyond it, ``label_px`` / 2 wide and ``text_px`` / 2 high,
    in pixels that shrink in scene units as the camera backs off. Ignores perspective, hence
    CAMERA_MARGIN.
    """
    w = max(float(width_px), 1.0)
    h = max(float(height_px), 1.0)
    # Half-extents (scene units at the centre's depth) that fit the tip and half the name:
    # AXIS_LABEL_AT + half * (label_px / 2) / (w / 2) <= CAMERA_MARGIN * half.
    half_width = AXIS_LABEL_AT / max(CAMERA_MARGIN - label_px / w, 0.2)
    half_height = AXIS_LABEL_AT / max(CAMERA_MARGIN - text_px / h, 0.2)
    half = max(half_width, half_height * w / h)
    distance = half / math.tan(math.radians(fov_deg) / 2.0)
    return min(MAX_CAMERA_DISTANCE, max(CAMERA_DISTANCE, distance))


def marker_size(side_px: float, scale: float = 1.0) -> float:
    """The training points' marker size for a picture whose shorter side is ``side_px``."""
    scale = float(scale)
    return min(MAX_MARKER_PX * scale, max(MIN_MARKER_PX * scale, MARKER_FRACTION * float(side_px)))


@functools.cache
def gl_available() -> bool:
    """Whether this Qt platform can give pyqtgraph an OpenGL context (checked once)."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    if QGuiApplication.platformName() in PLATFORMS_WITHOUT_GL:
        return False
    try:
        context = QOpenGLContext()
        if not context.create():
            return False
        surface = QOffscreenSurface()
        surface.create()
        ok = context.makeCurrent(surface)
        if ok:
            context.doneCurrent()
        surface.destroy()
        return bool(ok)
    except Exception:
        return False


def _normalized(P: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Centre the points and scale them (one factor for all axes) into about [-1, 1]^3."""
    centre = 0.5 * (P.min(axis=0) + P.max(axis=0)) if P.size else np.zeros(3)
    scale = float(np.abs(P - centre).max()) if P.size else 1.0
    scale = scale if scale > 0 else 1.0
    return (P - centre) / scale, scale, centre


class Scatter3DView(QWidget):
    """Points in 3-D (fewer dimensions are padded with zeros), one colour per class."""

    def __init__(self, parent: QWidget | None = None, *, theme: Theme = LIGHT):
        super().__init__(parent)
        self.theme = theme
        self.uses_gl = gl_available()
        self._points = np.zeros((0, 3))
        self._labels: np.ndarray | None = None
        self._test = np.zeros(0, bool)
        self._axis_labels: tuple[str, ...] = ("1", "2", "3")
        self.scale = 1.0  # markers and text; larger in presentation mode

        self.title = QLabel("")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.notice = QLabel("")
        self.notice.setWordWrap(True)
        self.notice.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.notice.hide()
        self.stack = QStackedWidget()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.notice)

        self.gl_view = None
        self.projections: list = []
        self._built = False
        # One brush and pen per class and role, reused: pyqtgraph renders a marker once per
        # distinct pen and brush object, so new objects for every point rendered every marker.
        self._styles: dict = {}
        self._stale = False  # set_points while hidden: redrawn when shown
        self.set_theme(theme)

    # -- construction --------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._resize_markers()
        self._fit_camera()

    def showEvent(self, event) -> None:
        # Built when first shown: importing PyOpenGL and making a context costs about a second,
        # which start-up should not pay for a view that is not on screen.
        self.ensure_built()
        if self._stale:
            self._redraw()
        super().showEvent(event)

    def ensure_built(self) -> None:
        if self._built:
            return
        self._built = True
        if self.uses_gl:
            self._build_gl()
        else:
            self.notice.setText(
                "OpenGL is not available here, so the rotatable 3-D view is replaced by the "
                "three 2-D projections."
            )
            self.notice.show()
            self._build_projections()
        self.stack.setCurrentIndex(0)
        self.set_theme(self.theme)

    def _build_gl(self) -> None:
        # Imported here: OpenGL loads when the 3-D view is first built, not with the window.
        import pyqtgraph.opengl as gl

        view = gl.GLViewWidget()
        view.setCameraPosition(distance=CAMERA_DISTANCE, elevation=22, azimuth=38)
        self._camera_distance = CAMERA_DISTANCE  # the last one set here, not by the user
        view.setMinimumSize(200, 200)
        self.scatter = gl.GLScatterPlotItem(pxMode=True)
        self.scatter.setGLOptions("translucent")
        view.addItem(self.scatter)
        self.axes = []
        self.axis_text = []
        for k in range(3):
            end = np.zeros((2, 3))
            end[0, k] = -AXIS_END
            end[1, k] = AXIS_END
            line = gl.GLLinePlotItem(pos=end, width=1.5, antialias=True, mode="lines")
            view.addItem(line)
            self.axes.append(line)
            tip = np.zeros(3)
            tip[k] = AXIS_LABEL_AT
            text = gl.GLTextItem(pos=tip, text=str(k + 1), font=self._axis_font())
            if hasattr(text, "alignment"):  # pyqtgraph 0.14: names centred on their tips
                text.setData(alignment=Qt.AlignmentFlag.AlignCenter)
            view.addItem(text)
            self.axis_text.append(text)
        self.gl_view = view
        self.stack.addWidget(view)

    def _build_projections(self) -> None:
        holder = QWidget()
        row = QHBoxLayout(holder)
        row.setContentsMargins(0, 0, 0, 0)
        self.projections = []
        for a, b in ((0, 1), (0, 2), (1, 2)):
            w = pg.PlotWidget()
            w.setMinimumSize(90, 90)
            w.getPlotItem().hideButtons()
            w.getViewBox().setAspectLocked(True)
            train = pg.ScatterPlotItem(size=MIN_MARKER_PX)
            test = pg.ScatterPlotItem(size=MIN_MARKER_PX)
            w.addItem(train)
            w.addItem(test)
            self.projections.append((w, a, b, train, test))
            row.addWidget(w)
        self.stack.addWidget(holder)
        self.stack.setCurrentWidget(holder)

    # -- data ----------------------------------------------------------------------------------
    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._styles = {}
        if self.gl_view is not None:
            self.gl_view.setBackgroundColor(QColor(theme.background))
            fg = QColor(theme.foreground)
            rgba = (fg.redF(), fg.greenF(), fg.blueF(), 0.55)
            for line in self.axes:
                line.setData(color=rgba)
            for text in self.axis_text:
                text.setData(color=QColor(theme.foreground))
        for w, *_ in self.projections:
            w.setBackground(theme.background)
            for name in ("left", "bottom"):
                w.getPlotItem().getAxis(name).setTextPen(theme.foreground)
                w.getPlotItem().getAxis(name).setPen(theme.foreground)
        self._redraw()

    def set_points(
        self,
        points: np.ndarray | None,
        labels: np.ndarray | None,
        test_mask: np.ndarray | None,
        axis_labels=("1", "2", "3"),
        title: str = "",
    ) -> None:
        if points is None:
            points = np.zeros((0, 3))
        P = np.asarray(points, dtype=float)
        if P.ndim == 1:
            P = P[:, None]
        if P.shape[1] < 3:
            P = np.hstack([P, np.zeros((P.shape[0], 3 - P.shape[1]))])
            axis_labels = tuple(axis_labels) + ("—",) * (3 - len(axis_labels))
        self._points = P[:, :3]
        self._labels = None if labels is None else np.asarray(labels)
        self._test = (
            np.zeros(P.shape[0], bool) if test_mask is None else np.asarray(test_mask, bool)
        )
        self._axis_labels = tuple(str(a) for a in axis_labels[:3])
        self.title.setText(title)
        self.title.setVisible(bool(title))
        self._redraw()

    @property
    def points(self) -> np.ndarray:
        """The points shown, as 3-D points (fewer columns padded with zeros); read-only."""
        view = self._points.view()
        view.setflags(write=False)
        return view

    @property
    def axis_labels(self) -> tuple[str, ...]:
        """The three axes' labels."""
        return self._axis_labels

    def _colors(self) -> np.ndarray:
        n = self._points.shape[0]
        out = np.empty((n, 4))
        for i in range(n):
            k = 0 if self._labels is None else int(self._labels[i])
            c = class_qcolor(k) if self._labels is not None else QColor(self.theme.foreground)
            out[i] = (c.redF(), c.greenF(), c.blueF(), 0.45 if self._test[i] else 0.95)
        return out

    def _redraw(self) -> None:
        if not self._built:
            return
        self._stale = not self.isVisible()
        if self._stale:
            return  # a hidden view (a dock behind a tab) is drawn when shown
        P = self._points
        if self.gl_view is not None:
            Q, _, _ = _normalized(P)
            if P.shape[0]:
                self.scatter.setData(pos=Q, color=self._colors(), size=self._gl_sizes())
            else:
                self.scatter.setData(pos=np.zeros((0, 3)))
            font = self._axis_font()
            for text, label in zip(self.axis_text, self._axis_labels, strict=False):
                text.setData(text=label, font=font)
            self._fit_camera()
        for w, a, b, train, test in self.projections:
            size = self.marker_size(w)
            w.getPlotItem().setLabel("bottom", self._axis_labels[a])
            w.getPlotItem().setLabel("left", self._axis_labels[b])
            for scatter, mask, hollow in ((train, ~self._test, False), (test, self._test, True)):
                idx = np.flatnonzero(mask)
                if idx.size == 0 or P.shape[0] == 0:
                    scatter.setData([], [])
                    continue
                labels = np.zeros(P.shape[0], int) if self._labels is None else self._labels
                styles = [self._style(int(k), hollow) for k in labels[idx]]
                brushes = [style[0] for style in styles]
                pens = [style[1] for style in styles]
                symbols = [style[2] for style in styles]
                scatter.setData(
                    x=P[idx, a],
                    y=P[idx, b],
                    brush=brushes,
                    pen=pens,
                    symbol=symbols,
                    size=size,  # hollow test markers need the size to be seen
                )

    def marker_size(self, widget: QWidget | None = None) -> float:
        """The training points' marker size in logical pixels: it grows with the picture (the
        OpenGL view, or one projection) within bounds that the presentation scale raises."""
        if widget is None:
            widget = self.gl_view if self.gl_view is not None else self.stack
        side = min(widget.width(), widget.height())
        return marker_size(side, self.scale)

    def _axis_font(self) -> QFont:
        font = QFont()
        font.setPointSizeF(9 * self.scale)
        return font

    def _fit_camera(self) -> None:
        """Back the camera off until the axes' names fit the view (a narrow compare panel, a
        flat dock), unless the user has zoomed since it was last set."""
        view = self.gl_view
        if view is None or abs(view.opts["distance"] - self._camera_distance) > 1e-9:
            return
        metrics = QFontMetricsF(self._axis_font())
        label_px = max(metrics.horizontalAdvance(label) for label in self._axis_labels)
        distance = camera_distance(
            view.width(), view.height(), label_px, metrics.height(), view.opts["fov"]
        )
        if distance != self._camera_distance:
            view.setCameraPosition(distance=distance)
            self._camera_distance = distance

    def _gl_sizes(self) -> np.ndarray:
        """Per-point sizes for the OpenGL scatter, in device pixels (what pxMode draws)."""
        size = self.marker_size() * self.gl_view.devicePixelRatioF()
        return np.where(self._test, TEST_MARKER_RATIO * size, size)

    def _resize_markers(self) -> None:
        """The view changed size: only the markers' sizes follow (no new colours or points)."""
        if not self._built or self._stale or not self.isVisible() or not self._points.shape[0]:
            return
        if self.gl_view is not None:
            self.scatter.setData(size=self._gl_sizes())
        for w, _a, _b, train, test in self.projections:
            size = self.marker_size(w)
            train.setSize(size)
            test.setSize(size)

    def _style(self, k: int, hollow: bool) -> tuple:
        """(brush, pen, symbol) of class ``k``'s training (or hollow test) points."""
        key = (k, hollow)
        style = self._styles.get(key)
        if style is None:
            if hollow:
                brush = pg.mkBrush(self.theme.test_fill)
                pen = pg.mkPen(class_qcolor(k), width=1.6)
            else:
                brush = pg.mkBrush(class_qcolor(k))
                pen = pg.mkPen(self.theme.point_edge, width=0.6)
            style = self._styles[key] = (brush, pen, class_symbol(k))
        return style

    def set_scale(self, scale: float) -> None:
        """Bigger markers and text (presentation mode) or back (1.0)."""
        self.scale = float(scale)
        font = QFont(self.title.font())
        font.setPointSizeF(max(9.0, 9.0 * self.scale))
        self.title.setFont(font)
        tick = QFont()
        tick.setPointSizeF(max(8.0, 8.0 * self.scale))
        for w, *_ in self.projections:
            for name in ("left", "bottom"):
                w.getPlotItem().getAxis(name).setStyle(tickFont=tick)
        self._redraw()
