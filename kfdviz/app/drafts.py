"""Draft pictures while the hand moves, the exact picture when it rests.

Where an exact fit is slow (a KFD over a couple of thousand points takes most of a second on
two cores), the window would show nothing new while a slider is dragged or a point moved: the
debounce waits for the input to rest, then fits. :class:`Drafts` draws a *draft* at once
instead (:func:`kfdviz.pipeline.drafts.draft_request`: the expansion over a few hundred centres,
whose cost does not grow as n^3) and leaves the debounce to fit the exact problem when the input
has rested for its interval; the exact picture replaces the draft.

Drafts follow each other in the fit thread (a newer draft waits behind the running one, the
newest only), and a draft cancels an exact fit still running: the data or parameters it fits
have changed. A draft on screen is marked: a small "draft" badge on the picture, whose tooltip
and the status line say what was approximated (and no busy card covers a picture that follows
the hand); the window's export refuses while one shows
(app/export.py). When a draft is drawn and no exact fit is pending, one is requested, so the
exact picture always arrives.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from ..pipeline import FitRequest
from ..pipeline.drafts import draft_request, exact_is_quick

BADGE_TEXT = "draft"
# Exact fits slower than this are drawn from a draft first while the hand moves, even where
# they are quick enough to follow each other without the debounce (live_refit.py): two to
# three exact pictures a second do not follow a hand.
DRAFT_ABOVE_SECONDS = 0.1
BADGE_STYLE = (
    "QLabel { background: rgba(255, 243, 205, 230); color: #5c4400;"
    " border: 1px solid #c9a227; border-radius: 3px; padding: 1px 5px; font-weight: bold; }"
)


class Drafts(QObject):
    """The window's drafts (see the module's docstring)."""

    def __init__(self, parent: QObject, *, fit, pictures, workspace, status):
        super().__init__(parent)
        self.fit = fit
        self.pictures = pictures
        self.workspace = workspace
        self.status = status
        self._making = False  # fit_now is submitting drafts
        self._probing = False  # requests made only to see whether they have drafts
        self.enabled = True  # drafts are drawn (the bench turns them off for its baselines)
        self._exact_seconds: dict[str, float] = {}  # slot -> its last exact fit's time
        self._draft_submitted: dict[str, bool] = {}  # slot -> its latest request was a draft
        plot = workspace.input_view.plot
        self.badge = QLabel(BADGE_TEXT, plot)
        self.badge.setAccessibleName(BADGE_TEXT)
        self.badge.setStyleSheet(BADGE_STYLE)
        self.badge.move(8, 6)
        self.badge.adjustSize()
        self.badge.hide()
        # The picture follows the hand: no busy card over it while drafts are made or shown.
        fit.marks.keep_quiet_while(self.drafting)

    def _requests(self) -> list[FitRequest]:
        """The layout's requests as they would be submitted now (not submitted)."""
        self._probing = True
        try:
            names = self.pictures.layout_slot_names()
            return [self.fit._request(self.pictures.slot(name)) for name in names]
        finally:
            self._probing = False

    def exact_is_quick(self) -> bool:
        """Whether every picture's exact fit is a step along mu on a reduced N (O(n^2)): fitted
        at once, without a draft or the debounce."""
        if not self.enabled or self.fit.data.n == 0:
            return False
        return all(exact_is_quick(r) for r in self._requests())

    def request(self) -> bool:
        """Draw drafts of the layout's pictures now, where each has one; True when submitted.
        The caller starts the debounce, whose fit is the exact one."""
        names = self.pictures.layout_slot_names()
        if not self.enabled or not names or self.fit.data.n == 0:
            return False
        if not all(draft_request(r) is not None for r in self._requests()):
            return False  # a picture without a draft: the debounce fits them all exactly
        follow = all(self._draft_submitted.get(name, False) for name in names)
        self._making = True
        try:
            self.fit.fit_now(follow=follow)
        finally:
            self._making = False
        return True

    def follows(self) -> bool:
        """Whether an exact fit submitted now queues behind the layout's drafts instead of
        cancelling them: a draft once started is drawn (it takes a fraction of the exact fit's
        time), and the exact fit starts the moment it returns."""
        names = self.pictures.layout_slot_names()
        return not self._making and all(self._draft_submitted.get(n, False) for n in names)

    def adapt(self, request: FitRequest) -> FitRequest:
        """The request to submit: its draft while drafts are being made, else itself."""
        if self._probing:
            return request
        draft = draft_request(request) if self._making else None
        self._draft_submitted[request.slot] = draft is not None
        return draft if draft is not None else request

    def worth_it(self) -> bool:
        """Whether the layout's last exact fits took longer than :data:`DRAFT_ABOVE_SECONDS`
        each: a draft (a fraction of that) then follows the hand where the exact fits, quick
        as they may be for a debounce, would not."""
        names = self.pictures.layout_slot_names()
        return bool(names) and all(
            self._exact_seconds.get(n, 0.0) > DRAFT_ABOVE_SECONDS for n in names
        )

    def is_draft(self, result) -> bool:
        return result is not None and getattr(result, "approximation", None) is not None

    def drafting(self) -> bool:
        """Whether the active picture's latest request was a draft, or a draft is shown."""
        active = self.pictures.active_slot()
        return self._draft_submitted.get(active.name, False) or self.is_draft(active.result)

    def showing(self) -> bool:
        """Whether a picture of the layout is a draft."""
        return any(
            self.is_draft(self.pictures.slot(name).result)
            for name in self.pictures.layout_slot_names()
        )

    def drawn(self, result) -> None:
        """A fit's result is drawn: mark the picture a draft or not; a draft with no exact fit
        pending asks for one."""
        draft = self.is_draft(result)
        if not draft:
            self._exact_seconds[result.slot] = float(result.timings.get("total", 0.0))
        if result.slot == "main":
            self.badge.setVisible(draft)
            self.badge.setToolTip(result.approximation or "")
            self.badge.raise_()
        if not draft:
            return
        self.status.show(result.approximation, kind="info")
        if not (self.fit.debounce.isActive() or self.fit.worker.is_busy()):
            self.fit.request_fit(slots=[result.slot], now=True)


__all__ = ["BADGE_TEXT", "Drafts"]
