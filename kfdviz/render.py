"""Headless pictures: a preset or a session file to PNG, SVG or PDF, as the window draws it.

``compute(state)`` fits every panel through ``run_fit`` (or runs a sweep); ``render_state``
paints the result with :mod:`kfdviz.figure`; ``render_preset``, ``render_session`` and
``render_all`` are what ``kfdviz render`` calls. Qt is imported only when painting, and then on
the offscreen platform when there is no display.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import presets
from .figure.export import format_of, save_figure
from .figure.plan import plan_figure
from .pipeline import FitCancelled, FitError, run_fit
from .session import SessionState, fit_requests, load_session, state_from_preset
from .sweep import Sweep, run_sweep


@dataclass
class Computed:
    state: SessionState
    results: list  # FitResult, or the failure message of a panel that could not be fitted
    sweep: object | None = None  # SweepResult
    charts: list = field(default_factory=list)  # kfdviz.charts.Chart


def compute(state: SessionState, *, cancel=None, progress: Callable | None = None) -> Computed:
    """Every panel's FitResult (or failure message), or the sweep's curves, for ``state``.

    A panel that fails, for whatever reason, gets its failure message and the other panels are
    still fitted: one bad panel of a comparison does not cost the others. Only a cancel stops it.
    """
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
        except FitCancelled:
            raise
        except FitError as exc:
            results.append(exc.message)
        except Exception as exc:  # any failure is this panel's, shown in its place
            results.append(failure_message(exc))
    charts = []
    if state.view_settings.get("charts"):
        from .charts import compute_charts

        charts = compute_charts(state)
    return Computed(state, results, charts=charts)


def failure_message(exc: BaseException) -> str:
    """What to show in place of a panel whose fit raised ``exc``."""
    text = str(exc).strip() or type(exc).__name__
    return f"the fit failed ({type(exc).__name__}): {text}"


def figure_plan(computed: Computed):
    return plan_figure(computed.state, computed.results, computed.sweep, charts=computed.charts)


# What a figure's layout may be asked for beside the session's own view settings.
FIGURE_OPTIONS = {"show_titles": (True, False), "arrangement": ("auto", "row", "column", "grid")}


def render_state(
    state: SessionState,
    out,
    *,
    size=None,
    dpi=None,
    computed: Computed | None = None,
    figure_options: dict | None = None,
):
    """Paint ``state`` to ``out`` (.png, .svg or .pdf); returns (path, FigureGeometry).

    ``figure_options``: ``show_titles`` (bool) and ``arrangement`` ("auto", "row", "column",
    "grid") for this picture.
    """
    format_of(out)  # refuse an unknown suffix before fitting anything
    plan_settings = _checked_options(figure_options)
    computed = computed or compute(state)
    plan = figure_plan(computed)
    plan.settings.update(plan_settings)
    geometry = save_figure(plan, out, size, dpi)
    return Path(out), geometry


def render_panels(
    state: SessionState,
    out,
    *,
    size=None,
    dpi=None,
    computed: Computed | None = None,
    figure_options: dict | None = None,
) -> list[Path]:
    """Paint each panel of ``state`` to a file of its own: ``out`` = NAME.png gives NAME-1.png,
    NAME-2.png, ... (the figure's title is left to the document that shows them)."""
    from .figure.export import format_of, save_figure

    format_of(out)
    plan_settings = _checked_options(figure_options)
    computed = computed or compute(state)
    plan = figure_plan(computed)
    plan.settings.update(plan_settings)
    out = Path(out)
    written = []
    for i, single in enumerate(plan.single_panels(), start=1):
        path = out.with_name(f"{out.stem}-{i}{out.suffix}")
        save_figure(single, path, size, dpi)
        written.append(path)
    return written


def _checked_options(options: dict | None) -> dict:
    options = dict(options or {})
    for key, value in options.items():
        allowed = FIGURE_OPTIONS.get(key)
        if allowed is None:
            raise ValueError(
                f"unknown figure option {key!r}: choose from {', '.join(FIGURE_OPTIONS)}"
            )
        if value not in allowed:
            raise ValueError(
                f"figure option {key} = {value!r} is not one of "
                f"{', '.join(repr(a) for a in allowed)}"
            )
    return options


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
    "failure_message",
    "figure_plan",
    "render_all",
    "render_preset",
    "render_session",
    "render_state",
]
