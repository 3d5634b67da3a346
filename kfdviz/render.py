"""Headless pictures: a preset or a session file to PNG, SVG or PDF, as the window draws it.

``compute(state)`` fits every panel through ``run_fit`` (or runs a sweep); ``render_state``
paints the result with :mod:`kfdviz.figure`; ``render_preset``, ``render_session`` and
``render_all`` are what ``kfdviz render`` calls. Qt is imported only when painting, and then on
the offscreen platform when there is no display.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import presets
from .charts import compute_charts
from .figure.export import format_of, render_image, save_figure, titles_for
from .figure.plan import TITLES, FigurePlan, plan_figure
from .pipeline import FitCancelled, FitError, box_for_aspect, data_box, run_fit
from .session import SessionState, fit_requests, load_session, state_from_preset
from .sweep import Sweep, run_sweep


@dataclass
class Computed:
    state: SessionState
    results: list  # FitResult, or the failure message of a panel that could not be fitted
    sweep: object | None = None  # SweepResult
    charts: list = field(default_factory=list)  # kfdviz.charts.Chart


def compute(
    state: SessionState,
    *,
    cancel=None,
    progress: Callable | None = None,
    box: tuple[float, float, float, float] | None = None,
) -> Computed:
    """Every panel's FitResult (or failure message), or the sweep's curves, for ``state``.

    A panel that fails, for whatever reason, gets its failure message and the other panels are
    still fitted: one bad panel of a comparison does not cost the others. Only a cancel stops it.
    ``box`` = (x0, x1, y0, y1): the box the feature maps of 2-D data cover (by default the data's
    own, enlarged by the session's padding).
    """
    if state.sweep is not None:
        sweep = Sweep.from_dict(state.sweep)
        result = run_sweep(
            sweep, state.X, state.y, state.test_mask, cancel=cancel, progress=progress
        )
        return Computed(state, [], result)
    results: list = []
    for request in fit_requests(state):
        if box is not None and request.grid.box is not None:
            request = replace(request, grid=replace(request.grid, box=tuple(map(float, box))))
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
        charts = compute_charts(state)
    return Computed(state, results, charts=charts)


def failure_message(exc: BaseException) -> str:
    """What to show in place of a panel whose fit raised ``exc``."""
    text = str(exc).strip() or type(exc).__name__
    return f"the fit failed ({type(exc).__name__}): {text}"


def figure_plan(computed: Computed):
    return plan_figure(computed.state, computed.results, computed.sweep, charts=computed.charts)


# The maps are fitted again when their rooms' shape differs from their box's by more than this.
REFIT_ASPECT = 0.02


def fit_maps_to_rooms(computed: Computed, plan, size=None, dpi=None) -> Computed:
    """``computed`` with its feature maps over a box of their rooms' shape in ``plan``'s layout
    at ``size`` and ``dpi``, so that the maps fill their plots.

    The data's box is extended along its shorter side (no data are cut off) and the panels are
    fitted again over it; ``computed`` itself when it has no map or its box has the shape.
    """
    maps = [p.result for p in plan.panels if p.kind == "input" and p.result and p.result.grid]
    if not maps or computed.sweep is not None:
        return computed
    _, geometry = render_image(plan, size, dpi)
    rooms = [g.free_room for g in geometry.panels if g.kind == "input" and g.free_room]
    rooms = [r for r in rooms if r.width() > 1 and r.height() > 1]
    if not rooms:
        return computed
    # One box serves every panel: the rooms' mean shape (they differ by a y axis's labels).
    aspect = math.exp(sum(math.log(r.width() / r.height()) for r in rooms) / len(rooms))
    x0, x1, y0, y1 = maps[0].grid.box
    if abs(math.log(aspect * (y1 - y0) / (x1 - x0))) <= REFIT_ASPECT:
        return computed
    state = computed.state
    padding = float(state.setting("padding"))
    return compute(state, box=box_for_aspect(data_box(state.X, padding), aspect))


def picture(
    computed: Computed, size=None, dpi=None, figure_options: dict | None = None
) -> tuple[Computed, FigurePlan]:
    """What a picture of ``size`` at ``dpi`` shows of ``computed``, and its figure plan: the
    layout's options applied and the feature maps fitted to their rooms in that layout
    (:func:`fit_maps_to_rooms`), so that the data written beside a picture are the picture's."""
    options = _checked_options(figure_options, size, dpi)
    plan = figure_plan(computed)
    plan.settings.update(options)
    refitted = fit_maps_to_rooms(computed, plan, size, dpi)
    if refitted is not computed:
        plan = figure_plan(refitted)
        plan.settings.update(options)
    return refitted, plan


def fitted_plan(computed: Computed, size=None, dpi=None, figure_options: dict | None = None):
    """The figure plan of a picture of ``computed`` (:func:`picture`)."""
    return picture(computed, size, dpi, figure_options)[1]


# What a figure's layout may be asked for beside the session's own view settings ("auto"
# titles: :func:`kfdviz.figure.plan.default_titles` for the picture's width).
FIGURE_OPTIONS = {"titles": ("auto", *TITLES), "arrangement": ("auto", "row", "column", "grid")}


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

    ``figure_options``: ``titles`` ("auto", "all", "panels", "none": the figure's and the
    panels' titles, the panels' only, none; "auto" by the picture's width) and ``arrangement``
    ("auto", "row", "column", "grid") for this picture.
    """
    format_of(out)  # refuse an unknown suffix before fitting anything
    _checked_options(figure_options)
    computed = computed or compute(state)
    plan = fitted_plan(computed, size, dpi, figure_options)
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
    format_of(out)
    plan_settings = _checked_options(figure_options, size, dpi)
    computed = computed or compute(state)
    plan = figure_plan(computed)
    plan.settings.update(plan_settings)
    singles = plan.single_panels()
    if singles:
        # The maps get the shape of a one-panel figure's room.
        refitted = fit_maps_to_rooms(computed, singles[0], size, dpi)
        if refitted is not computed:
            plan = figure_plan(refitted)
            plan.settings.update(plan_settings)
            singles = plan.single_panels()
    out = Path(out)
    written = []
    for i, single in enumerate(singles, start=1):
        path = out.with_name(f"{out.stem}-{i}{out.suffix}")
        save_figure(single, path, size, dpi)
        written.append(path)
    return written


def _checked_options(options: dict | None, size=None, dpi=None) -> dict:
    """``options`` checked against :data:`FIGURE_OPTIONS`, "auto" titles chosen for a picture
    of ``size`` pixels at ``dpi`` (the default picture is a slide's width)."""
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
    options["titles"] = titles_for(options.get("titles", "auto"), size, dpi)
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
        # Fitted to the layout's rooms once for all formats.
        computed = fit_maps_to_rooms(computed, figure_plan(computed), size, dpi)
        for fmt in formats:
            path = out_dir / f"{safe_name(name)}.{fmt}"
            render_state(state, path, size=size, dpi=dpi, computed=computed)
            written.append(path)
            if report is not None:
                report(path)
    return written


__all__ = [
    "Computed",
    "box_for_aspect",
    "compute",
    "failure_message",
    "figure_plan",
    "fit_maps_to_rooms",
    "fitted_plan",
    "picture",
    "render_all",
    "render_preset",
    "render_session",
    "render_state",
]
