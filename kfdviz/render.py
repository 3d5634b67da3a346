"""Headless pictures: a preset or a session file to PNG, SVG or PDF, as the window draws it.

``compute(state)`` fits every panel through ``run_fit`` (or runs a sweep); ``render_state``
paints the result with :mod:`kfdviz.figure`; ``render_preset``, ``render_session`` and
``render_all`` are what ``kfdviz render`` calls. Qt is imported only when painting, and then on
the offscreen platform when there is no display.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import presets
from .figure.export import format_of, save_figure
from .figure.plan import plan_figure
from .pipeline import FitError, run_fit
from .session import SessionState, fit_requests, load_session, state_from_preset
from .sweep import Sweep, run_sweep


@dataclass
class Computed:
    state: SessionState
    results: list  # FitResult, or the failure message of a panel that could not be fitted
    sweep: object | None = None  # SweepResult


def compute(state: SessionState, *, cancel=None, progress: Callable | None = None) -> Computed:
    """Every panel's FitResult (or failure message), or the sweep's curves, for ``state``."""
    if state.sweep is not None:
        sweep = Sweep.from_dict(state.sweep)
        result = run_sweep(
            sweep, state.X, state.y, state.test_mask, cancel=cancel, progress=progress
        )
        return Computed(state, [], result)
    results: list = []
    for request in fit_requests(state):
        try:
            results.append(run_fit(request, cancel=cancel, progress=progress))
        except FitError as exc:
            results.append(exc.message)
    return Computed(state, results)


def figure_plan(computed: Computed):
    return plan_figure(computed.state, computed.results, computed.sweep)


def render_state(
    state: SessionState, out, *, size=None, dpi=None, computed: Computed | None = None
):
    """Paint ``state`` to ``out`` (.png, .svg or .pdf); returns (path, FigureGeometry)."""
    format_of(out)  # refuse an unknown suffix before fitting anything
    computed = computed or compute(state)
    geometry = save_figure(figure_plan(computed), out, size, dpi)
    return Path(out), geometry


def render_preset(name: str, out, *, size=None, dpi=None):
    return render_state(state_from_preset(name), out, size=size, dpi=dpi)


def render_session(path, out, *, size=None, dpi=None):
    return render_state(load_session(path), out, size=size, dpi=dpi)


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "figure"


def render_all(
    out_dir, *, formats=("png",), size=None, dpi=None, names=None, report=None
) -> list[Path]:
    """Render every preset (or ``names``) into ``out_dir`` as NAME.png (and the other formats)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or presets.names():
        state = state_from_preset(name)
        computed = compute(state)
        for fmt in formats:
            path = out_dir / f"{safe_name(name)}.{fmt}"
            render_state(state, path, size=size, dpi=dpi, computed=computed)
            written.append(path)
            if report is not None:
                report(path)
    return written


__all__ = [
    "Computed",
    "compute",
    "figure_plan",
    "render_all",
    "render_preset",
    "render_session",
    "render_state",
]
