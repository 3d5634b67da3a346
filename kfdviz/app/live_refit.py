"""Live refits without the debounce's wait, while fits are quick.

In live mode the window fits a short debounce after the last edit, so that a burst of edits (a
slider scrubbed, points sprayed, a point dragged) costs one fit, and an edit cancels the fit it
made out of date. For fits quicker than that wait, the wait is most of the latency of an edit,
and during a drag the picture did not follow the pointer at all: every mouse move restarted it.

While the last fits of the layout's pictures took less than :data:`QUICK_FIT_SECONDS` together,
:class:`LiveRefit` takes the request instead: the edit is fitted at once when no fit is running;
edits that arrive while one runs are fitted when it returns, the newest state only, and nothing
is cancelled. A dragged point or a scrubbed slider then gets a new picture after every fit, and
a single edit is drawn one fit (T) after it instead of the debounce and one fit. The last edit
of a burst waits at most for the fit running and its own (2T, under a second) where the
debounce would have waited for its interval and one fit; the pictures in between are worth
that. Slower fits (large data sets) keep the debounce and the cancel, so that a long fit is not
started on every intermediate value.

A dragged point moves once per display frame (:data:`MOVE_FRAME_MS`): a mouse reports its
position up to a thousand times a second, and each move redraws every point and the plot. The
pointer's latest position is applied when the frame ends (the release's at once). With a mouse
move every 8 ms this gave 22 to 26 pictures per second instead of 18 (500 points, medians of
three drags, interleaved); applying the first move of a frame at once as well gave 20 to 24.

While a point is dragged with the Move tool, only the pictures follow it: the docks (outputs,
diagnostics, embedding) cost more to draw than the input view and would halve the pictures per
second. The fits are drafts (``FitRequest.draft``: no kernel spectrum, which only a dock shows),
and when the drag ends the data where it ended are fitted whole and every view drawn.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QObject, QTimer

# Fits quicker than this (the layout's last fits together) are refitted without the debounce.
QUICK_FIT_SECONDS = 0.5

# How often the end of a drag is looked for, to draw the docks it held back.
DRAG_POLL_MS = 50
# A dragged point moves at most once per this interval (a 60 Hz display's frame).
MOVE_FRAME_MS = 16


class LiveRefit(QObject):
    """The window's live requests while its fits are quick (see the module's docstring)."""

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._waiting = False
        self._held = False  # docks not drawn during a drag
        self._drafted = False  # draft fits requested during a drag
        self._drag_end = QTimer(self)
        self._drag_end.setInterval(DRAG_POLL_MS)
        self._drag_end.timeout.connect(self._check_drag_end)
        # Connected after the window's own outcome slot: the picture is drawn first.
        window.worker.outcome.connect(self._on_outcome)
        self._pending_move: tuple | None = None
        self._move_frame = QTimer(self)
        self._move_frame.setSingleShot(True)
        self._move_frame.setInterval(MOVE_FRAME_MS)
        self._move_frame.timeout.connect(self._frame_ended)

    def move_point(self, index: int, x: float, y: float, merge, *, final: bool = False) -> None:
        """Move point ``index`` of a drag to (x, y) when the display frame ends; ``final`` (the
        release) at once, and nothing after it."""
        if final:
            self._move_frame.stop()
            self._pending_move = None
            self.window.data.move(index, x, y, merge=merge)
            return
        self._pending_move = (index, x, y, merge)
        if not self._move_frame.isActive():
            self._move_frame.start()

    def _frame_ended(self) -> None:
        if self._pending_move is None or self.window._closing:
            return
        index, x, y, merge = self._pending_move
        self._pending_move = None
        self.window.data.move(index, x, y, merge=merge)

    def dragging(self) -> bool:
        """Whether a point is being dragged with the Move tool."""
        w = self.window
        return w.tool == "move" and w._stroke is not None and w._moving is not None

    def draft(self) -> bool:
        """Whether a fit requested now is a draft (during a drag); the window asks this."""
        if not self.dragging():
            return False
        self._drafted = True
        self._watch_drag_end()
        return True

    def _watch_drag_end(self) -> None:
        if not self._drag_end.isActive():
            self._drag_end.start()

    def hold_docks(self) -> bool:
        """True (and the docks are drawn when the drag ends) while a point is dragged."""
        if not self.dragging():
            return False
        self._held = True
        self._watch_drag_end()
        return True

    def _check_drag_end(self) -> None:
        if self.dragging():
            return
        self._drag_end.stop()
        w = self.window
        drafted, held = self._drafted, self._held
        self._drafted = self._held = False
        if w._closing:
            return
        if drafted:
            # The whole fit where the drag ended; its outcome draws every view.
            w.request_fit(slots=w._layout_slot_names())
        elif held and not w.worker.is_busy():
            result = w.active_slot().result
            if result is not None:
                w._draw_docks(result)

    def quick(self) -> bool:
        """Whether the last fits of the layout's pictures took less than QUICK_FIT_SECONDS."""
        w = self.window
        total = 0.0
        for name in w._layout_slot_names():
            result = w.slot(name).result
            if result is None:
                return False
            total += float(result.timings.get("total", math.inf))
        return total < QUICK_FIT_SECONDS

    def request(self) -> bool:
        """Take a live fit request: True when taken (fitted now, or when the running fit returns),
        False to leave it to the debounce."""
        if not self.quick():
            return False
        w = self.window
        w._debounce.stop()
        if w.worker.is_busy():
            self._waiting = True
        else:
            self._waiting = False
            w.fit_now()
        return True

    def _on_outcome(self, _outcome) -> None:
        w = self.window
        if not self._waiting or w._closing or w.worker.is_busy():
            return
        self._waiting = False
        if w.live and any(name in w._dirty for name in w._layout_slot_names()):
            w.fit_now()
