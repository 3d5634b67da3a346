"""The documented ranges of everything a session file holds, checked before anything is built.

A session is read from a stranger's file, so every value in it is checked here, on the parsed
JSON, before an array is decoded or a grid allocated: the picture's view settings, the sweep, the
panels, the arrays' declared shapes, and, over the whole document, how deep it nests, how long
its strings and lists are and how large its numbers are. A value outside its range raises
:class:`FieldError` naming the field (``view_settings.resolution``) and the allowed values; the
session module turns it into a ``SessionError`` naming the file. No Qt here.

Besides each setting's range, a total budget bounds the work of one picture: the grid points of
all panels (``resolution² × panels``) and the contour work (``resolution² × levels × panels``);
a sweep's fits (``values × steps of all curves``) are bounded likewise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .datasets.files import MAX_MAGNITUDE  # noqa: F401  (the largest coordinate, as for data files)
from .estimators import registry
from .preset_catalog import MAX_PANELS  # a session's panels are bounded as a preset's
from .sweep import METRICS

# -- the whole document ----------------------------------------------------------------------------
MAX_DEPTH = 32  # objects and lists inside each other; a session needs fewer than 10
MAX_INT = 2**63 - 1  # any integer, anywhere (larger ones cannot be stored in an int64)
MAX_ITEMS = 10_000  # entries of any one object or list
MAX_OBJECTS = 10_000  # objects in the whole document (counted while parsing)
MAX_NUMBERS = 1_000_000  # numbers in the whole document (array data is base64 text, not numbers)
MAX_TEXT = 100_000  # characters of a string (the base64 data of an array excepted)
MAX_TITLE = 1_000  # characters of a title, a caption, a label, a name

# -- arrays ----------------------------------------------------------------------------------------
MAX_POINTS = 10_000_000
MAX_DIMENSION = 10_000
MAX_ARRAY_BYTES = 1 << 30  # the decoded bytes of one array (the file itself is at most 1 GiB)

# -- panels ----------------------------------------------------------------------------------------
MAX_FEATURE = 1_000  # an integer feature index: a column of the embedding

# -- view settings ---------------------------------------------------------------------------------
MIN_RESOLUTION, MAX_RESOLUTION = 8, 1_000
MIN_LEVELS, MAX_LEVELS = 1, 100
MIN_BINS, MAX_BINS = 1, 1_000
MIN_PADDING, MAX_PADDING = 0.0, 2.0
MIN_POINT_SIZE, MAX_POINT_SIZE = 0.1, 100.0
MAX_ANGLE = 360.0  # elevation and azimuth, degrees, either sign
THEMES = ("light", "dark")
MAX_GRID_POINTS = 2_000_000  # resolution² × panels
MAX_CONTOUR_WORK = 50_000_000  # resolution² × levels × panels

# -- sweeps ----------------------------------------------------------------------------------------
MAX_SWEEP_VALUES = 200
MAX_SWEEP_CURVES = 8
MAX_SWEEP_STEPS = 4
MAX_SWEEP_FITS = 1_000  # values × (steps of all curves)


class FieldError(ValueError):
    """A value of a session outside its documented range: ``field`` and ``reason``."""

    def __init__(self, field: str, reason: str):
        self.field = field
        self.reason = reason
        super().__init__(f"{field} {reason}" if field else reason)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- kinds of values -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Integer:
    low: int
    high: int

    def describe(self) -> str:
        return f"an integer from {self.low} to {self.high}"

    def check(self, value) -> int:
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not (self.low <= value <= self.high)
        ):
            raise ValueError(self.describe())
        return value


@dataclass(frozen=True)
class Number:
    low: float
    high: float

    def describe(self) -> str:
        return f"a number from {self.low:g} to {self.high:g}"

    def check(self, value) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or not (self.low <= value <= self.high)
        ):
            raise ValueError(self.describe())
        return float(value)


@dataclass(frozen=True)
class Choice:
    choices: tuple

    def describe(self) -> str:
        return "one of " + ", ".join(_shown(c) for c in self.choices)

    def check(self, value):
        # bools are not the integers 0 and 1 here, and unhashable values are simply not choices
        if not any(type(value) is type(c) and value == c for c in self.choices):
            raise ValueError(self.describe())
        return value


@dataclass(frozen=True)
class Either:
    kinds: tuple

    def describe(self) -> str:
        return " or ".join(k.describe() for k in self.kinds)

    def check(self, value):
        for kind in self.kinds:
            try:
                return kind.check(value)
            except ValueError:
                continue
        raise ValueError(self.describe())


BOOL = Choice((True, False))

# The view settings a picture understands, with their defaults (others are kept, not used).
VIEW_DEFAULTS: dict[str, Any] = {
    "resolution": 200,  # grid points along the longer side of the box
    "padding": 0.15,  # the grid box: the data's box enlarged by this fraction
    "levels": 9,  # about this many level sets
    "bins": 30,  # histogram bins
    "theme": "light",
    "show_points": True,
    "point_size": None,  # marker size in points; None: by the number of points
    "show_contours": True,
    "show_boundary": True,
    "show_expansion": "auto",  # "auto": circle expansion points when the expansion is sparse
    "show_tangents": True,
    "show_colorbar": True,
    "show_input_3d": True,  # embedding view of 3-D data: draw the input beside the embeddings
    "elevation": 22.0,  # 3-D camera, degrees (the app's rotatable view starts here)
    "azimuth": 38.0,
}

# The view settings a picture understands, with their allowed values; others are kept, unused.
VIEW_SETTINGS: dict[str, Any] = {
    "resolution": Integer(MIN_RESOLUTION, MAX_RESOLUTION),
    "padding": Number(MIN_PADDING, MAX_PADDING),
    "levels": Integer(MIN_LEVELS, MAX_LEVELS),
    "bins": Integer(MIN_BINS, MAX_BINS),
    "theme": Choice(THEMES),
    "show_points": BOOL,
    "point_size": Either((Choice((None,)), Number(MIN_POINT_SIZE, MAX_POINT_SIZE))),
    "show_contours": BOOL,
    "show_boundary": BOOL,
    "show_expansion": Choice(("auto", True, False)),
    "show_tangents": BOOL,
    "show_colorbar": BOOL,
    "show_input_3d": BOOL,
    "elevation": Number(-MAX_ANGLE, MAX_ANGLE),
    "azimuth": Number(-MAX_ANGLE, MAX_ANGLE),
}


def _check(field: str, value, kind) -> Any:
    try:
        return kind.check(value)
    except ValueError:
        raise FieldError(field, f"is {_shown(value)}; allowed: {kind.describe()}") from None


# -- the whole document ----------------------------------------------------------------------------
def check_structure(document, *, where: str = "", max_items: int | None = MAX_ITEMS) -> None:
    """Depth, sizes, integers and floats of a parsed JSON value (iteratively: no recursion).

    Array records' ``data`` strings are exempt from the string length limit (the file size
    bounds them). ``max_items=None`` leaves the number of entries unchecked (for a first pass,
    before the fields with their own, smaller limits are checked).
    """
    stack: list[tuple[Any, str, int]] = [(document, where, 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            if abs(value) > MAX_INT:
                raise FieldError(
                    path or "the document",
                    f"holds an integer of {len(str(abs(value)))} digits; allowed: integers "
                    f"up to {MAX_INT} in size",
                )
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                raise FieldError(path or "the document", "holds a number too large to be finite")
            continue
        if isinstance(value, str):
            if len(value) > MAX_TEXT and not path.endswith(".data"):
                raise FieldError(
                    path, f"is a text of {len(value):,} characters; allowed: {MAX_TEXT:,} at most"
                )
            continue
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise FieldError(
                    path or "the document",
                    f"nests more than {MAX_DEPTH} levels deep; a session nests fewer than 10",
                )
            if max_items is not None and len(value) > max_items:
                raise FieldError(
                    path or "the document",
                    f"has {len(value):,} entries; allowed: {max_items:,} at most",
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(value, dict):
                    child = f"{path}.{key}" if path else str(key)
                else:
                    child = f"{path}[{key}]"
                stack.append((item, child, depth + 1))
            continue
        raise FieldError(path, f"holds a value of type {type(value).__name__}")


def check_text(field: str, value, limit: int = MAX_TITLE) -> None:
    if isinstance(value, str) and len(value) > limit:
        raise FieldError(field, f"has {len(value):,} characters; allowed: {limit:,} at most")


def check_array_record(record, field: str) -> None:
    """The declared shape of an array record: small enough to decode (the data come later)."""
    if not isinstance(record, Mapping):
        return  # the decoder names what is wrong
    shape = record.get("shape")
    if not isinstance(shape, list):
        return
    if len(shape) > 2:
        raise FieldError(f"{field}.shape", f"has {len(shape)} dimensions; allowed: 1 or 2")
    for k, s in enumerate(shape):
        limit = MAX_POINTS if k == 0 else MAX_DIMENSION
        what = "points" if k == 0 else "columns"
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= limit:
            raise FieldError(
                f"{field}.shape[{k}]",
                f"is {_shown(s)}; allowed: a whole number of {what} from 0 to {limit:,}",
            )
    count = math.prod(shape)
    if count * 8 > MAX_ARRAY_BYTES:
        raise FieldError(
            f"{field}.shape",
            f"{shape} makes {count:,} values; allowed: {MAX_ARRAY_BYTES // 8:,} at most",
        )


# -- view settings ---------------------------------------------------------------------------------
def check_view_settings(settings, n_panels: int = 1) -> dict:
    """``settings`` with every known entry in its range and the picture within budget."""
    if not isinstance(settings, Mapping):
        raise FieldError("view_settings", f"should be an object, not {type(settings).__name__}")
    for key, value in settings.items():
        if key in VIEW_SETTINGS:
            _check(f"view_settings.{key}", value, VIEW_SETTINGS[key])

    def get(name):
        return settings.get(name, VIEW_DEFAULTS[name])

    panels = max(int(n_panels), 1)
    resolution, levels = get("resolution"), get("levels")
    grid = resolution * resolution * panels
    if grid > MAX_GRID_POINTS:
        best = math.isqrt(MAX_GRID_POINTS // panels)
        raise FieldError(
            "view_settings.resolution",
            f"is {resolution}: {panels} panel(s) of {resolution}² grid points make {grid:,}, "
            f"over the budget of {MAX_GRID_POINTS:,}; allowed here: at most {best}",
        )
    work = grid * levels
    if work > MAX_CONTOUR_WORK:
        best = max(MAX_CONTOUR_WORK // grid, 1)
        raise FieldError(
            "view_settings.levels",
            f"is {levels}: {levels} levels on {grid:,} grid points make {work:,} contour "
            f"steps, over the budget of {MAX_CONTOUR_WORK:,}; allowed here: at most {best}",
        )
    return dict(settings)


# -- sweeps ----------------------------------------------------------------------------------------
def _list(field: str, value, low: int, high: int, what: str) -> list:
    if not isinstance(value, list):
        raise FieldError(field, f"should be a list of {what}, not {type(value).__name__}")
    if not low <= len(value) <= high:
        raise FieldError(field, f"has {len(value):,} {what}; allowed: {low} to {high}")
    return value


def _object(field: str, value) -> Mapping:
    if not isinstance(value, Mapping):
        raise FieldError(field, f"should be an object, not {type(value).__name__}")
    return value


def check_sweep(sweep) -> None:
    """A sweep as stored in a session: its sizes, algorithms, parameters and values."""

    sweep = _object("sweep", sweep)
    for key in ("param", "values", "curves"):
        if key not in sweep:
            raise FieldError("sweep", f"is missing the field {key!r}")
    param = sweep["param"]
    if not isinstance(param, str) or not param:
        raise FieldError("sweep.param", f"is {_shown(param)}; allowed: a parameter name")
    values = _list("sweep.values", sweep["values"], 1, MAX_SWEEP_VALUES, "values")
    for i, v in enumerate(values):
        _check(f"sweep.values[{i}]", v, Number(-1e300, 1e300))
    check_text("sweep.label", sweep.get("label", ""))
    if not isinstance(sweep.get("label", ""), str):
        raise FieldError("sweep.label", f"is {_shown(sweep['label'])}; allowed: a text")
    _check("sweep.log", sweep.get("log", True), BOOL)
    metrics = _list("sweep.metrics", sweep.get("metrics", ["accuracy"]), 1, len(METRICS), "metrics")
    for i, m in enumerate(metrics):
        _check(f"sweep.metrics[{i}]", m, Choice(tuple(METRICS)))
    curves = _list("sweep.curves", sweep["curves"], 1, MAX_SWEEP_CURVES, "curves")
    fits = 0
    for c, curve in enumerate(curves):
        where = f"sweep.curves[{c}]"
        curve = _object(where, curve)
        label = curve.get("label")
        if not isinstance(label, str):
            raise FieldError(f"{where}.label", f"is {_shown(label)}; allowed: a text")
        check_text(f"{where}.label", label)
        _check(f"{where}.dashed", curve.get("dashed", False), BOOL)
        steps = _list(f"{where}.steps", curve.get("steps"), 1, MAX_SWEEP_STEPS, "steps")
        swept = _check(f"{where}.swept", curve.get("swept", 0), Integer(0, len(steps) - 1))
        for s, step in enumerate(steps):
            at = f"{where}.steps[{s}]"
            step = _object(at, step)
            algorithm = step.get("algorithm")
            if not isinstance(algorithm, str) or algorithm not in registry.ALGORITHMS:
                raise FieldError(
                    f"{at}.algorithm",
                    f"is {_shown(algorithm)}, which this kfdviz does not have; allowed: "
                    f"{', '.join(registry.ALGORITHMS)}",
                )
            spec = registry.get(algorithm)
            params = step.get("params") or {}
            params = dict(_object(f"{at}.params", params))
            if s == swept:
                names = [p.name for p in spec.params]
                if param not in names:
                    raise FieldError(
                        "sweep.param",
                        f"is {param!r}, which {spec.title} ({at}) does not take; allowed: "
                        f"{', '.join(names)}",
                    )
                trials = [{**params, param: v} for v in values]
            else:
                trials = [params]
            for trial in trials:
                problems = spec.validate(_native(spec, trial))
                if problems:
                    name, reason = next(iter(problems.items()))
                    raise FieldError(f"{at}.params" + (f".{name}" if name else ""), reason)
        fits += len(values) * len(steps)
    if fits > MAX_SWEEP_FITS:
        raise FieldError(
            "sweep",
            f"asks for {fits:,} fits ({len(values)} values over the curves' steps); allowed: "
            f"{MAX_SWEEP_FITS:,} at most",
        )


def _native(spec, params: dict) -> dict:
    out = dict(params)
    for p in spec.params:
        if p.kind == "tuple-choice" and isinstance(out.get(p.name), list):
            out[p.name] = tuple(out[p.name])
    return out


# -- the session document --------------------------------------------------------------------------
def check_document(doc: Mapping) -> None:
    """Everything of a parsed session document that can be checked before decoding arrays."""
    check_structure(doc, max_items=None)
    for key in ("title", "preset", "kfdviz_version"):
        check_text(key, doc.get(key))
    check_text("description", doc.get("description"), MAX_TEXT)
    data = doc.get("data")
    if isinstance(data, Mapping):
        for key in ("X", "y", "test"):
            if data.get(key) is not None:
                check_array_record(data[key], f"data.{key}")
        split = data.get("split")
        if isinstance(split, Mapping):
            if "test_ratio" in split:
                _check("data.split.test_ratio", split["test_ratio"], Number(0.0, 1.0))
            if "seed" in split:
                _check("data.split.seed", split["seed"], Integer(0, MAX_INT))
    panels = doc.get("panels")
    n_panels = len(panels) if isinstance(panels, list) else 1
    if isinstance(panels, list):
        if not 1 <= len(panels) <= MAX_PANELS:
            raise FieldError("panels", f"has {len(panels):,} panels; allowed: 1 to {MAX_PANELS}")
        for i, p in enumerate(panels):
            if not isinstance(p, Mapping):
                continue
            check_text(f"panels[{i}].title", p.get("title"))
            feature = p.get("feature", "auto")
            if isinstance(feature, int) and not isinstance(feature, bool):
                _check(f"panels[{i}].feature", feature, Integer(0, MAX_FEATURE))
    settings = doc.get("view_settings")
    if settings is not None:
        check_view_settings(settings, n_panels)
    if doc.get("sweep") is not None:
        check_sweep(doc["sweep"])
    check_structure(doc)


__all__ = [
    "MAX_CONTOUR_WORK",
    "MAX_DEPTH",
    "MAX_GRID_POINTS",
    "MAX_PANELS",
    "MAX_SWEEP_FITS",
    "MAX_SWEEP_VALUES",
    "VIEW_DEFAULTS",
    "VIEW_SETTINGS",
    "FieldError",
    "check_array_record",
    "check_document",
    "check_structure",
    "check_sweep",
    "check_view_settings",
]
