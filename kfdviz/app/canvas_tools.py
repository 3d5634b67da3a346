"""Drawing on the plots: the tools (pan, add, spray, erase, move, relabel) and the class drawn.

Clicks, presses, drags and releases on any input-space view (the single layout's and the compare
panels') become edits of the data model: points added, sprayed, erased, moved or relabelled. A
press opens a stroke and the release closes it, so that a whole drag is one undo step. A point
dragged with the Move tool is not moved here: :attr:`CanvasTools.move_requested` hands each
position to the live refits, which move it at most once per display frame.

Drawing needs 2-D data (or regression samples); on data of more dimensions the tools do
nothing. GUI thread only.
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QObject, Signal

from ..views import InputSpaceView

SPRAY_PIXELS = 14.0
ERASE_PIXELS = 12.0
SPRAY_BURST = 3  # points per spray step


class CanvasTools(QObject):
    """The tool in use and what it does on the plots (see the module's docstring)."""

    # (point index, x, y, stroke, final): a dragged point's new position
    move_requested = Signal(int, float, float, object, bool)

    def __init__(self, parent: QObject, *, data, data_panel, tool_actions, status, views):
        """``views``: a callable giving the input-space views whose tool cursor follows."""
        super().__init__(parent)
        self.data = data
        self.data_panel = data_panel
        self.tool_actions = tool_actions
        self.status = status
        self.views = views
        self.tool = "pan"
        self.stroke: object = None  # the open stroke (press to release)
        self.moving: int | None = None  # the point the Move tool drags
        self.stroke_class = 0  # the class the open stroke draws
        self._last_spray = (None, 0.0)
        self._rng = np.random.default_rng(12345)

    def connect_view(self, view: InputSpaceView) -> None:
        """Draw on ``view`` too."""
        vb = view.viewbox
        vb.clicked.connect(lambda x, y, alt, v=view: self.click(v, x, y, alternate=alt))
        vb.pressed.connect(lambda x, y, alt, v=view: self.press(v, x, y, alternate=alt))
        vb.dragged.connect(lambda x, y, v=view: self.drag(v, x, y))
        vb.released.connect(lambda x, y, v=view: self.release(v, x, y))
        view.set_tool_active(self.tool != "pan")

    def set_tool(self, key: str) -> None:
        self.tool = key
        self.tool_actions[key].setChecked(True)
        for view in self.views():
            view.set_tool_active(key != "pan")
        if key != "pan" and self.data.dimension > 2 and not self.data.regression:
            self.status.show(
                f"Drawing works on 2-D data; these points have {self.data.dimension} dimensions.",
                kind="error",
            )

    def set_class(self, k: int) -> None:
        self.data_panel.set_current_class(k)

    def dragging(self) -> bool:
        """Whether a point is being dragged with the Move tool."""
        return self.tool == "move" and self.stroke is not None and self.moving is not None

    def _can_draw(self) -> bool:
        return self.data.regression or self.data.dimension == 2

    def data_changed(self, _kind: str = "") -> None:
        """On an empty canvas a click adds a point: the Add tool is chosen if Pan was."""
        if self.data.n == 0 and self.tool == "pan":
            self.set_tool("add")

    def drawn_class(self, alternate: bool) -> int:
        """The class a click draws: the selected one, or with ``alternate`` (right button,
        Shift) the other one: the next of the data's classes (at least two), after the last
        the first."""
        k = self.data_panel.current_class()
        if not alternate:
            return k
        y = np.asarray(self.data.y()) if self.data.n and not self.data.regression else None
        n_classes = int(y.max()) + 1 if y is not None and y.size else 0
        return (k + 1) % max(n_classes, 2, k + 1)

    # -- the pointer -----------------------------------------------------------------------------
    def click(self, view: InputSpaceView, x: float, y: float, *, alternate=False) -> None:
        if not self._can_draw():
            return
        k = self.drawn_class(alternate)
        if self.tool == "add":
            self.data.add_points([[x, y]], k)
        elif self.tool == "spray":
            self._spray(view, x, y, merge=None, k=k)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=None)
        elif self.tool == "relabel":
            i = view.nearest_point(x, y)
            if i is not None:
                self.data.relabel(i, k)

    def press(self, view: InputSpaceView, x: float, y: float, *, alternate=False) -> None:
        if not self._can_draw():
            return
        self.stroke_class = self.drawn_class(alternate)
        self.stroke = self.data.new_stroke()
        self.moving = view.nearest_point(x, y) if self.tool == "move" else None
        if self.tool == "spray":
            self._spray(view, x, y, merge=self.stroke, k=self.stroke_class)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=self.stroke)
        elif self.tool == "add":
            self.data.add_points([[x, y]], self.stroke_class, merge=self.stroke)

    def drag(self, view: InputSpaceView, x: float, y: float) -> None:
        if self.stroke is None:
            return
        if self.tool == "spray":
            self._spray(view, x, y, merge=self.stroke, k=self.stroke_class)
        elif self.tool == "erase":
            self._erase(view, x, y, merge=self.stroke)
        elif self.tool == "move" and self.moving is not None:
            self.move_requested.emit(self.moving, x, y, self.stroke, False)

    def release(self, view: InputSpaceView, x: float, y: float) -> None:
        if self.stroke is not None and self.tool == "move" and self.moving is not None:
            self.move_requested.emit(self.moving, x, y, self.stroke, True)
        self.stroke = None
        self.moving = None
        self.data.end_stroke()

    def _spray(self, view: InputSpaceView, x: float, y: float, merge, k: int) -> None:
        sx, sy = view.pixel_size()
        last, t = self._last_spray
        now = time.monotonic()
        if last is not None and merge is not None and now - t < 0.03:
            dx, dy = (x - last[0]) / sx, (y - last[1]) / sy
            if dx * dx + dy * dy < 16:
                return
        self._last_spray = ((x, y), now)
        offsets = self._rng.normal(size=(SPRAY_BURST, 2)) * (SPRAY_PIXELS * 0.5)
        P = np.column_stack([x + offsets[:, 0] * sx, y + offsets[:, 1] * sy])
        self.data.add_points(P, k, merge=merge)

    def _erase(self, view: InputSpaceView, x: float, y: float, merge) -> None:
        P = self.data.display_points()
        if P.shape[0] == 0:
            return
        sx, sy = view.pixel_size()
        d2 = ((P[:, 0] - x) / sx) ** 2 + ((P[:, 1] - y) / sy) ** 2
        hit = np.flatnonzero(d2 <= ERASE_PIXELS**2)
        if hit.size:
            self.data.remove(hit, merge=merge)


__all__ = ["ERASE_PIXELS", "SPRAY_PIXELS", "CanvasTools"]
