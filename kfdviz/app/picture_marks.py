"""Which pictures on screen are not current, said on the pictures themselves.

A picture is *stale* when it does not belong to the data and parameters on screen: its slot's
last fit failed, its parameters are invalid, its fit waits for the user's answer (large data),
or live fitting is off and something changed. The slot's plots are then greyed with the reason
over them and, where one exists, a one-click fix. A slot's picture is *current* again once a fit
of it is drawn. While a fit runs longer than ``BUSY_DELAY_MS`` its plot shows the stage, the
progress and a Cancel button.

The marks are per slot: the main picture ("main": the input view and, while it is the active
slot, the outputs and diagnostics docks) or a compare panel ("compare-i": its view). GUI thread
only.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from ..views.overlay import PictureOverlay

# A fit running longer than this shows its progress on the plot.
BUSY_DELAY_MS = 500
DOCKS_STALE = "Not current: of the last fit that worked (the plot says why)."

Fix = tuple[str, Callable[[], None]]


class PictureMarks(QObject):
    """Stale and busy marks on the plots of each slot (see the module's docstring)."""

    cancel_requested = Signal()

    def __init__(self, parent: QObject, *, workspace, pictures):
        super().__init__(parent)
        self.workspace = workspace
        self.pictures = pictures
        self.stale_marks: dict[str, tuple[str, Fix | None]] = {}  # slot -> (reason, fix)
        self._fixes: dict[int, Callable[[], None]] = {}  # overlay id -> its fix
        self._connected: set[int] = set()
        self._busy = False
        self._busy_slot: str | None = None
        self._busy_text = ("", None)
        self.busy_timer = QTimer(self)
        self.busy_timer.setSingleShot(True)
        self.busy_timer.setInterval(BUSY_DELAY_MS)
        self.busy_timer.timeout.connect(self._show_busy)
        # No busy card while this says so (a draft on screen or being made: app/drafts.py).
        self.quiet = lambda: False

    def keep_quiet_while(self, predicate) -> None:
        """Show no busy card while ``predicate()`` is true."""
        self.quiet = predicate

    # -- which plots --------------------------------------------------------------------------
    def overlays(self, name: str) -> list[PictureOverlay]:
        ws = self.workspace
        if name == "main":
            views = [ws.input_view]
        else:
            panels = ws.compare_panels()
            index = int(name.split("-")[1])
            views = [panels[index].view] if index < len(panels) else []
        if name == self.pictures.active_slot().name:
            views += [ws.outputs_view, ws.diagnostics_view]
        overlays = [v.overlay for v in views]
        for overlay in overlays:
            if id(overlay) not in self._connected:
                self._connected.add(id(overlay))
                overlay.fix_requested.connect(lambda o=overlay: self._run_fix(o))
                overlay.cancel_requested.connect(self.cancel_requested)
        return overlays

    # -- stale and current --------------------------------------------------------------------
    def stale(self, name: str, reason: str, fix: Fix | None = None) -> None:
        """Grey slot ``name``'s picture, with ``reason`` and the ``fix`` (label, action)."""
        self.stale_marks[name] = (reason, fix)
        for i, overlay in enumerate(self.overlays(name)):
            if i > 0:  # the docks: the picture says why, once
                overlay.show_stale(DOCKS_STALE)
                continue
            overlay.show_stale(reason, fix[0] if fix else None)
            if fix:
                self._fixes[id(overlay)] = fix[1]
            else:
                self._fixes.pop(id(overlay), None)

    def current(self, name: str) -> None:
        """Slot ``name`` shows a fit of the data and parameters on screen."""
        self.stale_marks.pop(name, None)
        for overlay in self.overlays(name):
            if overlay.state == "stale":
                overlay.clear()
            self._fixes.pop(id(overlay), None)

    def clear(self) -> None:
        """No marks anywhere (e.g. no points, nothing to show)."""
        for name in list(self.stale_marks):
            self.current(name)
        self.idle()

    # -- busy ---------------------------------------------------------------------------------
    def busy_changed(self, busy: bool) -> None:
        self._busy = busy
        if busy:
            self._busy_slot = self.pictures.active_slot().name
            self._busy_text = ("Fitting…", None)
            self.busy_timer.start()
        else:
            self.idle()

    def progress(self, slot: str, fraction: float, message: str) -> None:
        if not self._busy:
            return  # a report that arrived after the fit ended
        if self._busy_slot not in (None, slot):
            self._clear_busy(self._busy_slot)  # that slot's fit has ended: this one runs
        self._busy_slot = slot
        self._busy_text = (message or "Fitting…", fraction)
        if not self.busy_timer.isActive() and self._busy_slot is not None:
            self._show_busy()

    def idle(self) -> None:
        """No fit runs: the busy cards go (a stale mark stays)."""
        self.busy_timer.stop()
        if self._busy_slot is not None:
            name, self._busy_slot = self._busy_slot, None
            self._clear_busy(name)

    def _clear_busy(self, name: str) -> None:
        """Slot ``name``'s busy cards go (its stale mark, if any, comes back)."""
        if any(overlay.state == "busy" for overlay in self.overlays(name)):
            for overlay in self.overlays(name):
                if overlay.state == "busy":
                    overlay.clear()
            if name in self.stale_marks:
                self.stale(name, *self.stale_marks[name])

    def _show_busy(self) -> None:
        if self._busy_slot is None or self.quiet():
            return
        message, fraction = self._busy_text
        for overlay in self.overlays(self._busy_slot):
            overlay.show_busy(message, fraction)

    def _run_fix(self, overlay: PictureOverlay) -> None:
        action = self._fixes.get(id(overlay))
        if action is not None:
            action()


__all__ = ["BUSY_DELAY_MS", "PictureMarks"]
