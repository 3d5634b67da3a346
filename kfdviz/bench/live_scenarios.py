"""The window at the sizes people bring: drafts while the hand moves, mu steps at O(n^2).

An exact KFD refit over n = 2000 points costs O(n^3) (N = K D K' and its factorization): most of
a second on two cores. These scenarios drive the real window (as :mod:`.gui_scenarios` does) and
time what the user sees, each against the same window's exact refit in the same run:

- ``live-slider-2000``: a width slider step, to the first picture of the new width (a draft,
  app/drafts.py); baseline: the same step with drafts off, to the exact picture.
- ``live-mu-2000``: a mu slider step, to the exact picture, with the N of the width reduced to
  tridiagonal form after the previous fit (core/mu_path.py); baseline: the step with the
  reduction forgotten (a Cholesky factorization of N, as before).
- ``live-drag-1000`` and ``live-drag-2000``: a point dragged, the drag's duration per new picture
  painted (drafts); baseline: one exact refit of a moved point, from the edit to its picture.

Each candidate also waits for the exact picture that replaces its draft, and the check holds
that picture against the edit (the width asked for, the point where it was dropped, no draft
left on screen). A ``--quick`` run uses n = 800 or 900 (still above the drafts' threshold)
and a coarse grid, and names the scenarios by those sizes; a quick run of every scenario leaves
them out (they are run when named: ``--quick --only 'live-*'``).
"""

from __future__ import annotations

from functools import partial
from time import perf_counter

import numpy as np

from kfdviz.core import mu_path
from kfdviz.core.fit_cache import FIT_CACHE
from kfdviz.pipeline import reuse

from .gui_scenarios import (
    MOVE_INTERVAL_MS,
    _drag_path,
    _kfd_params,
    _open_window,
    close_windows,
    drag_point,
    spin,
)
from .numeric import two_class_data
from .registry import Case, Check, Measured, Target, scenario

QUICK_N = 800


def _sizes(quick: bool, n_full: int, n_quick: int = QUICK_N) -> tuple[int, int]:
    return (n_quick, 60) if quick else (n_full, 200)


def _forget_fits() -> None:
    """A new parameter is a new fit: no cached terms, reductions or kept estimators."""
    FIT_CACHE.clear()
    mu_path.forget()
    reuse.forget()


def _exact_shown(win) -> bool:
    result = win.result
    return win.w.is_settled() and result is not None and result.approximation is None


def _step(win, widget, step: int, wanted_key: str, *, drafts: bool):
    """Move ``widget``'s slider by ``step``; (seconds to the first picture with the new value,
    seconds to the exact picture, the exact result)."""
    w = win.w
    w.fit.live_refit.drafts.enabled = drafts
    drawn = []

    def on_drawn(result):
        drawn.append((perf_counter(), result))

    w.fit_drawn.connect(on_drawn)
    try:
        t0 = perf_counter()
        widget.slider.setValue(widget.slider.value() + step)
        wanted = float(widget.value())

        def new(result):
            return result.params.get(wanted_key) == wanted

        spin(win.app, lambda: any(new(r) for _, r in drawn), what="the first picture")
        first = next(t for t, r in drawn if new(r))
        spin(win.app, lambda: _exact_shown(win), what="the exact picture")
        exact = next(t for t, r in reversed(drawn) if new(r) and r.approximation is None)
    finally:
        w.fit_drawn.disconnect(on_drawn)
        w.fit.live_refit.drafts.enabled = True
    result = win.result
    # What the step left on screen, judged now (the check runs after later steps).
    wrong = int(result.approximation is not None or result.params.get(wanted_key) != wanted)
    wrong += int(result.n_expansion_total != w.data.n or win.views_showing(result) != 3)
    return first - t0, exact - t0, wrong, wanted


def _check_exact():
    def check(measured, _baseline):
        return Check.at_most("exact pictures missing after the step", measured.value[2], 0)

    return check


@scenario(
    "live-slider-2000",
    quick_name=f"live-slider-{QUICK_N}",
    title="width slider step -> first picture of the new width (a draft), KFD n = 2000",
    baseline="the same step with drafts off: the exact refit's picture",
    target=Target.absolute(0.150),
    group="live",
    app_threads=True,
    in_quick=False,
)
def _slider(quick: bool) -> Case:
    n, resolution = _sizes(quick, 2000)
    X, y = two_class_data(n, seed=6)
    win = _open_window(X, y, _kfd_params(), resolution=resolution)
    width = win.w.workspace.algorithm_panel.widget("width")
    turn = [0]

    def step(drafts: bool):
        turn[0] += 1
        first, exact, wrong, wanted = _step(
            win, width, 40 if turn[0] % 2 else -40, "width", drafts=drafts
        )
        return Measured(first if drafts else exact, (first, exact, wrong, wanted))

    return Case(
        lambda: step(True),
        lambda: step(False),
        check=_check_exact(),
        prepare_candidate=_forget_fits,
        prepare_baseline=_forget_fits,
        teardown=close_windows,
        sizes={"n": n, "grid": f"{resolution}x{resolution}"},
        notes="candidate: the step to its first picture (the draft); each candidate also waits "
        "for the exact picture that replaces it; fit terms forgotten before every step",
    )


@scenario(
    "live-mu-2000",
    quick_name=f"live-mu-{QUICK_N}",
    title="mu slider step -> the exact picture, N reduced once per width, KFD n = 2000",
    baseline="the same step with no reduction held: a Cholesky factorization of N",
    target=Target.absolute(0.050),
    group="live",
    app_threads=True,
    in_quick=False,
)
def _mu(quick: bool) -> Case:
    n, resolution = _sizes(quick, 2000)
    X, y = two_class_data(n, seed=6)
    win = _open_window(X, y, _kfd_params(mu=1e-2), resolution=resolution)
    mu = win.w.workspace.algorithm_panel.widget("mu")
    turn = [0]

    def step(drafts: bool):
        turn[0] += 1
        solves = mu_path.stats["solves"]
        first, exact, wrong, wanted = _step(
            win, mu, 25 if turn[0] % 2 else -25, "mu", drafts=drafts
        )
        return Measured(exact, (first, exact, wrong, wanted, mu_path.stats["solves"] - solves))

    def reduced():
        mu_path.wait()  # the reduction of the current N, started after the previous fit
        reuse.forget()

    def unreduced():
        mu_path.forget()
        reuse.forget()

    def check(measured, baseline):
        outcome = _check_exact()(measured, baseline)
        if not outcome.passed:
            return outcome
        return Check.at_least("mu steps solved on the reduction", measured.value[4], 1)

    return Case(
        lambda: step(True),
        lambda: step(False),
        check=check,
        prepare_candidate=reduced,
        prepare_baseline=unreduced,
        teardown=close_windows,
        sizes={"n": n, "grid": f"{resolution}x{resolution}"},
        notes="from the mu slider's step to the exact picture drawn; the kernel terms of the "
        "width are cached in both (the app's state after a fit at this width)",
    )


def _drag_case(n_full: int, n_quick: int, quick: bool) -> Case:
    n, resolution = _sizes(quick, n_full, n_quick)
    seconds = 1.2 if quick else 2.0
    X, y = two_class_data(n, seed=7)
    win = _open_window(X, y, _kfd_params(), resolution=resolution)
    w = win.w
    w.canvas.set_tool("move")
    middle = 0.5 * (X.min(axis=0) + X.max(axis=0))
    index = int(np.argmin(((X - middle) ** 2).sum(axis=1)))
    radius = 0.2 * float(np.ptp(X[:, 1]))
    trips = [0]

    def candidate():
        start = w.data.X()[index].copy()
        path = _drag_path(start, radius if trips[0] % 2 == 0 else -radius)
        trips[0] += 1
        out = drag_point(win, index, path, seconds, MOVE_INTERVAL_MS)
        spin(win.app, lambda: _exact_shown(win), what="the exact picture")
        out["final"] = win.result
        count = len(out["pictures"])
        return Measured(out["seconds"] / count if count else float("inf"), out)

    def baseline():
        # One exact refit of a moved point: the edit, then the fit at once (no debounce).
        w.fit.live_refit.drafts.enabled = False
        try:
            x, y0 = w.data.X()[index]
            t0 = perf_counter()
            w.data.move(index, float(x) + 1e-3, float(y0))
            w.fit.request_now()
            spin(win.app, lambda: _exact_shown(win), what="the exact picture")
            return Measured(perf_counter() - t0, win.result)
        finally:
            w.fit.live_refit.drafts.enabled = True

    def check(measured, _):
        out = measured.value
        final = out["final"]
        moved = final is not None and np.all(np.abs(final.X[index] - out["end"]) <= out["pixel"])
        exact = final is not None and final.approximation is None
        count = len(out["pictures"]) if moved and exact else 0
        return Check.at_least("new pictures painted during the drag", count, 1 if quick else 2)

    return Case(
        candidate,
        baseline,
        check=check,
        teardown=close_windows,
        sizes={"n": n, "grid": f"{resolution}x{resolution}", "drag": f"{seconds:g} s"},
        notes=f"the pointer moves every {MOVE_INTERVAL_MS} ms; time = the drag's duration / new "
        "pictures painted during it (drafts); baseline: one exact refit of a moved point",
    )


for _n, _n_quick, _target in ((1000, QUICK_N, 1.0 / 30.0), (2000, QUICK_N + 100, 1.0 / 15.0)):
    scenario(
        f"live-drag-{_n}",
        quick_name=f"live-drag-{_n_quick}",
        title=f"drag a training point: time per picture drawn (drafts), KFD n = {_n}",
        baseline="one exact refit of a moved point, edit to picture",
        target=Target.absolute(_target),
        group="live",
        app_threads=True,
        in_quick=False,
    )(partial(_drag_case, _n, _n_quick))
