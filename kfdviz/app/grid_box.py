"""The box the pictures' grid covers, following what the plots show.

A fit evaluates the drawn feature on a regular grid over a box (``GridSpec.box``). Normally that
is :meth:`Workspace.picture_box`: the data's box widened to the plot's shape, which the plot
shows after a reframe. Once the user pans, zooms out or resizes the plot past it, an image over
that box would end mid-canvas. :class:`GridBox` chooses the box of every request (the picture
box while the visible range lies inside it, else a box covering the visible range with a
margin) and watches the plots' ranges: when a change has settled (no other for
:data:`SETTLE_MS`) and some picture of the layout no longer covers the visible range, it asks
for a fit of the layout, through the normal request path. The fit cache makes that refit cheap
(the data and parameters are those of the picture on screen). A view change is no edit: the
picture on screen stays current meanwhile and is never marked stale for it.

GUI thread only.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

# A pan, zoom or resize has settled when the visible range has not changed for this long.
SETTLE_MS = 250
# The box covering a visible range extends past it by this fraction of its extent on every
# side, so that a small pan after it needs no new fit.
MARGIN = 0.1
# Plots smaller than this (in pixels) have no meaningful range yet (the window is not shown).
MIN_PIXELS = 20

Box = tuple[float, float, float, float]


def contains(box: Box, inner: Box, tol_x: float = 0.0, tol_y: float = 0.0) -> bool:
    """Whether ``inner`` lies inside ``box``, up to ``tol_x`` and ``tol_y`` on each side."""
    return (
        inner[0] >= box[0] - tol_x
        and inner[1] <= box[1] + tol_x
        and inner[2] >= box[2] - tol_y
        and inner[3] <= box[3] + tol_y
    )


def covering(visible: Box, margin: float = MARGIN) -> Box:
    """``visible`` extended by ``margin`` of its width and height on every side."""
    x0, x1, y0, y1 = visible
    dx, dy = margin * (x1 - x0), margin * (y1 - y0)
    return (x0 - dx, x1 + dx, y0 - dy, y1 + dy)


class GridBox(QObject):
    """The grid box of the next fit, and refits when the view leaves the pictures' boxes."""

    def __init__(self, parent: QObject, *, fit, workspace, pictures, data):
        """``fit``: the fit control (``request_fit``, whether fits are running or waiting)."""
        super().__init__(parent)
        self.fit = fit
        self.workspace = workspace
        self.pictures = pictures
        self.data = data
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self.check)
        self.watch(workspace.input_view)
        workspace.view_added.connect(self.watch)

    def watch(self, view) -> None:
        """Follow the range and size of ``view`` (an InputSpaceView)."""
        view.viewbox.sigRangeChanged.connect(self.view_changed)
        view.viewbox.sigResized.connect(self.view_changed)

    def view_changed(self, *_args) -> None:
        self.settle.start()

    # -- the box -------------------------------------------------------------------------------
    def _views(self) -> list:
        """The input-space views of the layout on screen (empty when no picture is drawn in
        the input space: 3-D data, regression, compare panels showing other pages)."""
        ws, p = self.workspace, self.pictures
        if p.layout_name == "compare":
            if p.compare_mode != "input":
                return []
            return [panel.view for panel in ws.compare_panels()[: p.compare_count]]
        return [ws.input_view]

    def visible(self) -> tuple[Box, float, float] | None:
        """The range the layout's plots show (their union), and the size of one pixel in x and
        y there; None while no plot has a size."""
        boxes, px, py = [], 0.0, 0.0
        for view in self._views():
            vb = view.viewbox
            if not view.isVisible() or vb.width() < MIN_PIXELS or vb.height() < MIN_PIXELS:
                continue
            (x0, x1), (y0, y1) = vb.viewRange()
            boxes.append((x0, x1, y0, y1))
            px = max(px, (x1 - x0) / vb.width())
            py = max(py, (y1 - y0) / vb.height())
        if not boxes:
            return None
        union = (
            min(b[0] for b in boxes),
            max(b[1] for b in boxes),
            min(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        return union, px, py

    def box(self) -> Box | None:
        """The box for a fit requested now: the picture box while the plots show a range
        inside it (to within a pixel), else a box covering the visible range."""
        box = self.workspace.picture_box()
        if box is None:
            return None
        seen = self.visible()
        if seen is None:
            return box
        visible, px, py = seen
        if contains(box, visible, px, py):
            return box
        return covering(visible)

    # -- refits --------------------------------------------------------------------------------
    def uncovered(self) -> list[str]:
        """The layout's slots whose picture (drawn, 2-D) does not cover the visible range."""
        seen = self.visible()
        if seen is None or self.workspace.picture_box() is None:
            return []
        visible, px, py = seen
        out = []
        for name in self.pictures.layout_slot_names():
            result = self.pictures.slot(name).result
            grid = result.grid if result is not None else None
            if grid is None or grid.box is None:
                continue
            if not contains(tuple(grid.box), visible, px, py):
                out.append(name)
        return out

    def check(self) -> None:
        """The view has settled: refit the layout's pictures that no longer cover it. While
        fits run or wait, look again once they are done (their boxes are the ones to check)."""
        fit = self.fit
        if fit.closing or not fit.started or fit.held or self.data.n == 0:
            return
        names = self.pictures.layout_slot_names()
        if fit.waiting(names):
            self.settle.start()
            return
        if self.uncovered():
            fit.request_fit(slots=names, now=True)


__all__ = ["MARGIN", "SETTLE_MS", "GridBox", "contains", "covering"]
