"""Live refits without the debounce's wait, while fits are quick.

In live mode the window fits a short debounce after the last edit, so that a burst of edits (a
slider scrubbed, points sprayed, a point dragged) costs one fit, and an edit cancels the fit it
made out of date. For fits quicker than that wait, the wait is most of the latency of an edit,
and during a drag the picture did not follow the pointer at all: every mouse move restarted it.

While the last fits of the layout's pictures took less than :data:`QUICK_FIT_SECONDS` together,
:class:`LiveRefit` takes the request instead: the edit is fitted at once when no fit is running;
edits that arrive while one runs are fitted when it returns, the newest state only, and nothing
is cancelled. The newest edit waits in the fit thread, queued behind the running fit
(``FitWorker.submit(follow=True)``), so the thread starts it the moment the running fit returns:
waiting for the window's thread to receive the outcome, draw it and submit again left the fit
thread idle for 6 to 12 ms per picture during a drag. A dragged point or a scrubbed slider then
gets a new picture after every fit, and a single edit is drawn one fit (T) after it instead of
the debounce and one fit. The last edit of a burst waits at most for the fit running and its
own (2T, under a second) where the debounce would have waited for its interval and one fit; the
pictures in between are worth that. Slower fits (large data sets) keep the debounce and the
cancel, so that a long fit is not started on every intermediate value; where the pictures
have drafts (large KFD fits), each edit draws one at once and the debounce's fit is the exact
one that replaces it (drafts.py).

A dragged point moves at most once per display frame (:data:`MOVE_FRAME_MS`): a mouse reports
its position up to a thousand times a second, and each move redraws the plot and asks for a
fit. A move is applied at once when the point last moved a frame ago or more, else when that
frame ends, to the pointer's latest position (the release's at once). The frame used to start
at the first pointer report after a move, so the data changed about every 30 ms with reports
every 8 ms, and the fit thread often had no newer request to start when a fit returned.

While a point is dragged with the Move tool, only the pictures follow it: the docks (outputs,
diagnostics, embedding) cost more to draw than the input view and would halve the pictures per
second. The fits are drafts (``FitRequest.draft``: no kernel spectrum, which only a dock shows),
and when the drag ends the data where it ended are fitted whole and every view drawn.
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QObject, QTimer

from .drafts import Drafts

# Fits quicker than this (the layout's last fits together) are refitted without the debounce.
QUICK_FIT_SECONDS = 0.5

# How often the end of a drag is looked for, to draw the docks it held back.
DRAG_POLL_MS = 50
# A dragged point moves at most once per this interval (a 60 Hz display's frame).
MOVE_FRAME_MS = 16


class LiveRefit(QObject):
    """The window's live requests while its fits are quick (see the module's docstring)."""

    def __init__(self, parent: QObject, *, fit, data, pictures, canvas, draw_docks):
        super().__init__(parent)
        self.fit = fit  # request_fit, fit_now, the debounce, the worker, closing
        self.data = data
        self.pictures = pictures
        self.canvas = canvas  # the drag: its tool, stroke and moving point
        self.draw_docks = draw_docks
        self._held = False  # docks not drawn during a drag
        self._drafted = False  # draft fits requested during a drag
        self._drag_end = QTimer(self)
        self._drag_end.setInterval(DRAG_POLL_MS)
        self._drag_end.timeout.connect(self._check_drag_end)
        self._pending_move: tuple | None = None
        self._move_frame = QTimer(self)
        self._move_frame.setSingleShot(True)
        self._move_frame.setInterval(MOVE_FRAME_MS)
        self._move_frame.timeout.connect(self._frame_ended)
        self._last_move = -math.inf  # when a dragged point last moved (time.monotonic)
        # slower fits: a draft at once, the exact fit when the input rests (drafts.py)
        self.drafts = Drafts(
            self, fit=fit, pictures=pictures, workspace=fit.workspace, status=fit.status
        )

    def move_point(self, index: int, x: float, y: float, merge, *, final: bool = False) -> None:
        """Move point ``index`` of a drag to (x, y): at once when the point last moved a frame
        (:data:`MOVE_FRAME_MS`) ago or more, else when that frame ends, to the latest position;
        ``final`` (the release) at once, and nothing after it."""
        if final:
            self._move_frame.stop()
            self._pending_move = None
            self._last_move = time.monotonic()
            self.data.move(index, x, y, merge=merge)
            return
        self._pending_move = (index, x, y, merge)
        if self._move_frame.isActive():
            return
        wait = MOVE_FRAME_MS - 1e3 * (time.monotonic() - self._last_move)
        if wait <= 0:
            self._frame_ended()
        else:
            self._move_frame.start(math.ceil(wait))

    def _frame_ended(self) -> None:
        if self._pending_move is None or self.fit.closing:
            return
        index, x, y, merge = self._pending_move
        self._pending_move = None
        self._last_move = time.monotonic()
        self.data.move(index, x, y, merge=merge)

    def dragging(self) -> bool:
        """Whether a point is being dragged with the Move tool."""
        return self.canvas.dragging()

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
        drafted, held = self._drafted, self._held
        self._drafted = self._held = False
        if self.fit.closing:
            return
        if drafted:
            # The whole fit where the drag ended; its outcome draws every view.
            self.fit.request_fit(slots=self.pictures.layout_slot_names())
        elif held and not self.fit.worker.is_busy():
            result = self.pictures.active_slot().result
            if result is not None:
                self.draw_docks(result)

    def quick(self) -> bool:
        """Whether the last fits of the layout's pictures took less than QUICK_FIT_SECONDS."""
        total = 0.0
        for name in self.pictures.layout_slot_names():
            result = self.pictures.slot(name).result
            if result is None or self.drafts.is_draft(result):
                return False  # a draft's time says nothing of the exact fit's
            total += float(result.timings.get("total", math.inf))
        return total < QUICK_FIT_SECONDS

    def request(self) -> bool:
        """Take a live fit request: True when taken (fitted now, or right after the running fit),
        False to leave it to the debounce."""
        if not self.drafts.exact_is_quick():
            slow = not self.quick()
            # A draft now where the pictures have one and it is worth it (drafts.py); the
            # debounce fits them exactly.
            if (slow or self.drafts.worth_it()) and self.drafts.request():
                return False
            if slow:
                return False
        self.fit.debounce.stop()
        # Queued behind the running fit (which is not cancelled and is drawn): the fit thread
        # starts it as soon as that one returns, without waiting for this thread to see the
        # outcome; a newer edit replaces it if it has not started yet.
        self.fit.fit_now(follow=True)
        return True
