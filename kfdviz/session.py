"""Session files (``.kfdviz``): everything needed to redraw a picture exactly, as plain JSON.

A session holds the data (points, labels or targets, roles), where they came from (generator,
parameters, seed, train/test split), the algorithm(s) with their parameters and shown feature per
panel, the layout, the view brought to the front, view settings and the format version. Opening
it refits through ``run_fit`` on the stored points and gives the same numbers, hence the same
picture. No Qt here.

File format (``format_version`` 1), UTF-8 JSON::

    {"format": "kfdviz-session", "format_version": 1, "kfdviz_version": "...",
     "title": "...", "description": "...", "preset": "name" | null,
     "data": {"X": ARRAY, "y": ARRAY | null, "test": ARRAY, "regression": false,
              "standardize": false,
              "generator": {"name": ..., "params": {...}, "seed": 0} | null,
              "split": {"test_ratio": 0.25, "seed": 0}},
     "panels": [{"algorithm": "kfd", "params": {...}, "feature": "auto" | 0, "title": ""}],
     "layout": "single" | "compare", "view": "input" | ..., "with_svr": false,
     "sweep": {...} | null, "view_settings": {...}}

An ARRAY is ``{"dtype": "<f8" | "<i8" | "|b1", "shape": [n, d], "data": BASE64, "sha256": HEX}``:
the little-endian bytes of the array in C order, base64-encoded, with their SHA-256, so arrays
come back bit for bit and a damaged file is recognised. ``test`` is the roles: True marks a test
point (drawn, never fitted), False a training point. Only those three dtypes are accepted; the
loader never unpickles or evaluates anything, so a file from a stranger cannot run code.

Reading is all-or-nothing: :func:`load_session` either returns a complete, checked
:class:`SessionState` or raises :class:`SessionError` naming the file and what is wrong, without
side effects. Every number and size in the file is checked against the documented ranges of
:mod:`kfdviz.session_schema` before an array is decoded or a grid allocated. :func:`save_session`
writes through :mod:`kfdviz.atomic_file`, so a failed save never damages an existing session.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, atomic_file, datasets, presets, session_schema
from .estimators import registry
from .pipeline import FitRequest, GridSpec, data_box
from .pipeline.standardize import standardized
from .regular_file import NotRegularFile, TooLarge, read_regular
from .session_schema import VIEW_DEFAULTS, FieldError

FORMAT_NAME = "kfdviz-session"
FORMAT_VERSION = 1
SUFFIX = ".kfdviz"
MAX_BYTES = 1 << 30  # refuse files over 1 GiB before reading them

LAYOUTS = ("single", "compare")
VIEWS = ("input", "outputs", "embedding", "diagnostics")
NAMED_FEATURES = ("auto", "decision", "score", "prediction")

# The view setting of a compare session naming the parameters its panels share (one value in
# every panel whose algorithm has the parameter): a list of parameter names.
LINKED_SETTING = "linked_params"

# Migrations from older formats: version -> function(dict) -> dict of the next version. Format 1
# is the first released format; an older file (there is none yet) is refused with the versions
# this build reads, unless a migration is registered here.
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}

_DTYPES = {"<f8": np.float64, "<i8": np.int64, "|b1": np.bool_}


class SessionError(ValueError):
    """A session file that cannot be read or written, with the file and the reason."""

    def __init__(self, path, reason: str):
        self.path = None if path is None else str(path)
        self.reason = reason
        where = f"{Path(self.path).name}: " if self.path else ""
        super().__init__(f"{where}{reason}")


@dataclass(frozen=True)
class PanelState:
    """One algorithm of a session: registry key, parameters, shown feature, caption."""

    algorithm: str
    params: dict = field(default_factory=dict)
    feature: int | str = "auto"
    title: str = ""


@dataclass(eq=False)
class SessionState:
    """Everything a picture is made from; ``==`` compares arrays bit for bit."""

    X: np.ndarray
    y: np.ndarray | None
    test_mask: np.ndarray
    panels: tuple[PanelState, ...]
    layout: str = "single"
    view: str = "input"
    regression: bool = False
    with_svr: bool = False
    # whether the kernel sees the features standardized (data of more than two features)
    standardize: bool = False
    generator: dict | None = None  # {"name", "params", "seed"} when the data were generated
    split: dict = field(default_factory=lambda: {"test_ratio": 0.0, "seed": 0})
    sweep: dict | None = None  # a kfdviz.sweep.Sweep as a dict, for curve-over-parameter figures
    view_settings: dict = field(default_factory=dict)
    preset: str | None = None
    title: str = ""
    description: str = ""
    format_version: int = FORMAT_VERSION

    def __post_init__(self):
        self.X = np.asarray(self.X)
        if self.y is not None:
            self.y = np.asarray(self.y)
        self.test_mask = np.asarray(self.test_mask, dtype=bool)
        self.panels = tuple(self.panels)

    def setting(self, name: str) -> Any:
        """A view setting, or its default."""
        return self.view_settings.get(name, VIEW_DEFAULTS.get(name))

    def __eq__(self, other) -> bool:
        if not isinstance(other, SessionState):
            return NotImplemented
        return _to_document(self) == _to_document(other)

    __hash__ = None  # mutable


# -- presets -------------------------------------------------------------------------------------
def split_roles(n: int, ratio: float, seed: int, labels=None) -> np.ndarray:
    """The test mask of a preset's split, by the app's rule (``DrawnDataset.split``).

    With class ``labels`` the split is stratified: each class, in sorted order, gives
    ``round(ratio * size)`` of its points, drawn with one generator seeded by ``seed``; without
    labels (regression), ``round(ratio * n)`` of all points. So a preset opened in the window and
    rendered headless has the same test points.
    """
    rng = np.random.default_rng(seed)
    test = np.zeros(n, dtype=bool)
    if labels is None:
        groups = [np.arange(n)]
    else:
        labels = np.asarray(labels)
        groups = [np.flatnonzero(labels == c) for c in np.unique(labels)]
    for members in groups:
        k = round(float(ratio) * len(members))
        test[rng.permutation(members)[:k]] = True
    return test


def state_from_preset(preset) -> SessionState:
    """The session a preset opens: its data generated with its seed, split, and its panels."""
    if isinstance(preset, str):
        preset = presets.get(preset)
    d = preset.data
    X, y = datasets.make(d.name, seed=d.seed, **dict(d.params))
    regression = datasets.describe(d.name)["task"] == "regression"
    sweep = getattr(preset, "sweep", None)
    return SessionState(
        X=np.asarray(X, dtype=np.float64),
        y=None if y is None else np.asarray(y),
        test_mask=split_roles(
            len(X), float(d.test_ratio), int(d.split_seed), None if regression else y
        ),
        panels=tuple(
            PanelState(p.algorithm, _native_params(p.algorithm, p.params), p.feature, p.title)
            for p in preset.panels
        ),
        layout=preset.layout,
        view=preset.view,
        regression=regression,
        with_svr=bool(preset.with_svr),
        generator={"name": d.name, "params": _plain_params(d.params), "seed": int(d.seed)},
        split={"test_ratio": float(d.test_ratio), "seed": int(d.split_seed)},
        sweep=None if sweep is None else sweep.to_dict(),
        view_settings=dict(getattr(preset, "view_settings", None) or {}),
        preset=preset.name,
        title=preset.title,
        description=preset.description,
    )


def fit_requests(state: SessionState) -> list:
    """One ``FitRequest`` per panel, exactly as the app builds them (shared grid box; the
    features standardized over the training points when the session says so and there are more
    than two)."""
    X = state.X
    if state.standardize and X.ndim == 2 and X.shape[1] > 2:
        X = standardized(X, ~np.asarray(state.test_mask, dtype=bool))
    box = None
    if not state.regression and X.ndim == 2 and X.shape[1] == 2 and X.shape[0]:
        box = data_box(X, float(state.setting("padding")))
    slots = (
        ["main"] if state.layout == "single" else [f"compare-{i}" for i in range(len(state.panels))]
    )
    return [
        FitRequest(
            algorithm=panel.algorithm,
            params=panel.params,
            X=X,
            y=state.y,
            test_mask=state.test_mask,
            slot=slot,
            feature=panel.feature,
            grid=GridSpec(
                resolution=int(state.setting("resolution")),
                padding=float(state.setting("padding")),
                box=box,
            ),
            levels=int(state.setting("levels")),
            bins=int(state.setting("bins")),
            with_svr=state.with_svr and state.regression,
        )
        for slot, panel in zip(slots, state.panels, strict=False)
    ]


# -- saving --------------------------------------------------------------------------------------
def save_session(path, state: SessionState) -> Path:
    """Write ``state`` to ``path`` (the suffix .kfdviz is added when missing); atomic."""
    path = Path(path)
    if path.suffix != SUFFIX:
        path = path.with_name(path.name + SUFFIX)
    try:
        check_state(state)
        document = _to_document(state)
        text = json.dumps(document, ensure_ascii=False, allow_nan=False, indent=1)
    except SessionError as exc:
        raise SessionError(path, f"not saved: {exc.reason}") from None
    except (TypeError, ValueError) as exc:
        raise SessionError(path, f"not saved: {exc}") from None
    try:
        atomic_file.write_text(path, text)
    except OSError as exc:
        raise SessionError(path, f"could not be written: {exc.strerror or exc}") from None
    return path


def _to_document(state: SessionState) -> dict:
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "kfdviz_version": _version(),
        "title": state.title,
        "description": state.description,
        "preset": state.preset,
        "data": {
            "X": encode_array(state.X),
            "y": None if state.y is None else encode_array(state.y),
            "test": encode_array(state.test_mask),
            "regression": bool(state.regression),
            "standardize": bool(state.standardize),
            "generator": state.generator,
            "split": dict(state.split),
        },
        "panels": [
            {
                "algorithm": p.algorithm,
                "params": _plain_params(p.params),
                "feature": p.feature,
                "title": p.title,
            }
            for p in state.panels
        ],
        "layout": state.layout,
        "view": state.view,
        "with_svr": bool(state.with_svr),
        "sweep": state.sweep,
        "view_settings": dict(state.view_settings),
    }


def _version() -> str:
    return __version__


def encode_array(a: np.ndarray) -> dict:
    a = np.asarray(a)
    if a.dtype == np.bool_:
        dtype = "|b1"
    elif a.dtype.kind == "f":
        a, dtype = a.astype("<f8", copy=False), "<f8"
    elif a.dtype.kind in "iu":
        a, dtype = a.astype("<i8", copy=False), "<i8"
    else:
        raise SessionError(None, f"arrays of type {a.dtype} cannot be stored")
    raw = np.ascontiguousarray(a).tobytes()
    return {
        "dtype": dtype,
        "shape": list(a.shape),
        "data": base64.b64encode(raw).decode("ascii"),
        "sha256": hashlib.sha256(raw).hexdigest(),
    }


def _plain_params(params: Mapping) -> dict:
    """Parameters as JSON values (tuples become lists; numpy scalars become Python ones)."""
    out = {}
    for key, value in dict(params).items():
        out[str(key)] = _plain_value(value, key)
    return out


def _plain_value(value, key, what: str = "parameter"):
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SessionError(None, f"{what} {key!r} is {value}, which cannot be stored")
        return value
    if isinstance(value, list | tuple):
        return [_plain_value(v, key, what) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain_value(v, key, what) for k, v in value.items()}
    raise SessionError(None, f"{what} {key!r} has a value of type {type(value).__name__}")


# -- loading -------------------------------------------------------------------------------------
def load_session(path) -> SessionState:
    """Read and check a session file; :class:`SessionError` (nothing else) when it is unusable."""
    path = Path(path)
    try:
        raw = read_regular(path, MAX_BYTES)
    except TooLarge as exc:
        raise SessionError(
            path,
            f"is {exc.size / 2**20:.0f} MiB, too large for a session file (at most "
            f"{MAX_BYTES / 2**20:.0f} MiB)",
        ) from None
    except FileNotFoundError:
        raise SessionError(path, "no such file") from None
    except NotRegularFile as exc:
        what = str(exc).rsplit(" is ", 1)[-1]
        raise SessionError(path, f"is {what}, not a session file") from None
    except OSError as exc:
        raise SessionError(path, f"cannot be read: {exc.strerror or exc}") from None
    return loads_session(raw, path=path)


def loads_session(raw: bytes | str, *, path=None) -> SessionState:
    """:func:`load_session` from the file's content (``path`` only names it in errors)."""
    if isinstance(raw, bytes):
        if not raw.strip():
            raise SessionError(path, "is empty")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SessionError(
                path, f"is not a kfdviz session (not UTF-8 text; bad byte at offset {exc.start})"
            ) from None
    else:
        text = raw
    if not text.strip():
        raise SessionError(path, "is empty")
    try:
        document = json.loads(text, parse_constant=_reject_constant, **_counted())
    except _NonFinite as exc:
        raise SessionError(path, f"contains {exc.args[0]}, which a session never holds") from None
    except _TooMany as exc:
        raise SessionError(path, str(exc)) from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) - 1 or (text.lstrip().startswith("{") and _unclosed(text)):
            raise SessionError(
                path,
                "is truncated (the JSON ends before the session does): it was not saved completely",
            ) from None
        raise SessionError(
            path,
            f"is not a kfdviz session (not valid JSON: {exc.msg} at line {exc.lineno}, "
            f"column {exc.colno})",
        ) from None
    except RecursionError:
        raise SessionError(path, "is not a kfdviz session (JSON nested too deeply)") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        if "integer string conversion" in str(exc):
            raise SessionError(
                path,
                f"holds an integer of more than {sys.get_int_max_str_digits()} digits; allowed: "
                f"integers up to {session_schema.MAX_INT} in size",
            ) from None
        raise SessionError(path, f"is not a kfdviz session (unreadable JSON: {exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise SessionError(path, 'is not a kfdviz session (no "format": "kfdviz-session")')
    try:
        session_schema.check_structure(document, max_items=None)
        document = _migrate(document, path)
        session_schema.check_document(document)
        state = _from_document(document)
        check_state(state)
    except FieldError as exc:
        raise SessionError(path, str(exc)) from None
    except SessionError as exc:
        raise SessionError(path, exc.reason) from None
    return state


class _NonFinite(ValueError):
    pass


def _reject_constant(name: str):
    raise _NonFinite(name)


class _TooMany(ValueError):
    pass


def _counted() -> dict:
    """Parser hooks that count objects and numbers as they are parsed and stop the parse at the
    first one over its limit (a file of a million panels is refused after a few thousand)."""
    counts = {"objects": 0, "numbers": 0}

    def count(kind: str, limit: int) -> None:
        counts[kind] += 1
        if counts[kind] > limit:
            raise _TooMany(f"holds more than {limit:,} {kind}; allowed: {limit:,} at most")

    def obj(pairs):
        count("objects", session_schema.MAX_OBJECTS)
        return dict(pairs)

    def integer(text: str) -> int:
        count("numbers", session_schema.MAX_NUMBERS)
        return int(text)

    def number(text: str) -> float:
        count("numbers", session_schema.MAX_NUMBERS)
        return float(text)

    return {"object_pairs_hook": obj, "parse_int": integer, "parse_float": number}


def _unclosed(text: str) -> bool:
    """Whether the JSON text leaves a string, object or array open at its end (a cut file)."""
    depth, in_string, escape = 0, False, False
    for ch in text:
        if in_string:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return in_string or depth > 0


def understood_versions() -> list[int]:
    return sorted({*MIGRATIONS, FORMAT_VERSION})


def _migrate(document: dict, path) -> dict:
    version = document.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise SessionError(path, f"has no valid format_version (found {version!r})")
    known = ", ".join(str(v) for v in understood_versions())
    if version > FORMAT_VERSION:
        raise SessionError(
            path,
            f"was written by a newer kfdviz (session format {version}); this version reads "
            f"formats {known}: update kfdviz to open it",
        )
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SessionError(
                path,
                f"uses session format {version}, which this version cannot read (it reads "
                f"formats {known})",
            )
        try:
            document = step(dict(document))
        except SessionError as exc:
            raise SessionError(path, exc.reason) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise SessionError(
                path, f"could not be converted from session format {version}: {exc}"
            ) from None
        new_version = document.get("format_version")
        if not isinstance(new_version, int) or new_version <= version:
            raise SessionError(path, f"the migration from format {version} did not advance it")
        version = new_version
    return document


def _field(d: Mapping, key: str, where: str, kinds, *, optional: bool = False, default=None):
    if key not in d:
        if optional:
            return default
        raise SessionError(None, f"is missing the field {where}{key}")
    value = d[key]
    if optional and value is None:
        return default
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in _tuple(kinds)):
        names = " or ".join(k.__name__ for k in _tuple(kinds))
        raise SessionError(
            None, f"field {where}{key} should be {names}, not {type(value).__name__}"
        )
    return value


def _tuple(kinds):
    return kinds if isinstance(kinds, tuple) else (kinds,)


def decode_array(d, where: str) -> np.ndarray:
    if not isinstance(d, Mapping):
        raise SessionError(None, f"field {where} should be an array record, not {type(d).__name__}")
    dtype_name = _field(d, "dtype", f"{where}.", str)
    if dtype_name not in _DTYPES:
        raise SessionError(
            None, f"array {where} has type {dtype_name!r}; sessions hold only {', '.join(_DTYPES)}"
        )
    shape = _field(d, "shape", f"{where}.", list)
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shape):
        raise SessionError(None, f"array {where} has an invalid shape {shape!r}")
    if len(shape) > 2:
        raise SessionError(None, f"array {where} has {len(shape)} dimensions; at most 2 are used")
    data = _field(d, "data", f"{where}.", str)
    try:
        raw = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SessionError(None, f"array {where} is damaged (its data are not base64)") from None
    dtype = np.dtype(dtype_name)
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise SessionError(
            None,
            f"array {where} is damaged: shape {tuple(shape)} needs {expected} bytes, the file "
            f"has {len(raw)}",
        )
    digest = d.get("sha256")
    if digest is not None and hashlib.sha256(raw).hexdigest() != digest:
        raise SessionError(None, f"array {where} is damaged (its checksum does not match)")
    a = np.frombuffer(raw, dtype=dtype).reshape(shape).astype(_DTYPES[dtype_name], copy=True)
    return a


def _from_document(doc: dict) -> SessionState:
    data = _field(doc, "data", "", dict)
    X = decode_array(_field(data, "X", "data.", dict), "data.X")
    y_doc = data.get("y")
    y = None if y_doc is None else decode_array(y_doc, "data.y")
    test = decode_array(_field(data, "test", "data.", dict), "data.test")
    panels_doc = _field(doc, "panels", "", list)
    panels = []
    for i, p in enumerate(panels_doc):
        if not isinstance(p, dict):
            raise SessionError(None, f"panels[{i}] should be an object")
        where = f"panels[{i}]."
        feature = p.get("feature", "auto")
        algorithm = _field(p, "algorithm", where, str)
        panels.append(
            PanelState(
                algorithm=algorithm,
                params=_native_params(
                    algorithm, _field(p, "params", where, dict, optional=True, default={})
                ),
                feature=feature,
                title=_field(p, "title", where, str, optional=True, default=""),
            )
        )
    generator = _field(data, "generator", "data.", dict, optional=True)
    split = _field(
        data, "split", "data.", dict, optional=True, default={"test_ratio": 0.0, "seed": 0}
    )
    sweep = _field(doc, "sweep", "", dict, optional=True)
    return SessionState(
        X=X,
        y=y,
        test_mask=test,
        panels=tuple(panels),
        layout=_field(doc, "layout", "", str),
        view=_field(doc, "view", "", str, optional=True, default="input"),
        regression=_field(data, "regression", "data.", bool, optional=True, default=False),
        standardize=_field(data, "standardize", "data.", bool, optional=True, default=False),
        with_svr=_field(doc, "with_svr", "", bool, optional=True, default=False),
        generator=generator,
        split=dict(split),
        sweep=sweep,
        view_settings=dict(_field(doc, "view_settings", "", dict, optional=True, default={})),
        preset=_field(doc, "preset", "", str, optional=True),
        title=_field(doc, "title", "", str, optional=True, default=""),
        description=_field(doc, "description", "", str, optional=True, default=""),
        format_version=FORMAT_VERSION,
    )


def check_state(state: SessionState) -> None:
    """Raise SessionError (without a path) when ``state`` could not make a picture."""
    X = state.X
    if X.dtype != np.float64 or X.ndim != 2:
        raise SessionError(None, f"data.X must be a 2-D float array, not {X.dtype} {X.shape}")
    n = X.shape[0]
    if not np.all(np.isfinite(X)):
        raise SessionError(None, "data.X holds NaN or infinite values")
    if X.size and np.abs(X).max() > session_schema.MAX_MAGNITUDE:
        raise SessionError(
            None,
            f"data.X holds {float(np.abs(X).max()):g}; allowed: values up to "
            f"{session_schema.MAX_MAGNITUDE:g} in size (squared distances must stay finite)",
        )
    if state.y is not None:
        y = state.y
        if y.ndim != 1 or y.shape[0] != n:
            raise SessionError(None, f"data.y has shape {y.shape}; data.X has {n} points")
        if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
            raise SessionError(None, "data.y holds NaN or infinite values")
        if y.dtype.kind == "f" and y.size and np.abs(y).max() > session_schema.MAX_MAGNITUDE:
            raise SessionError(
                None,
                f"data.y holds {float(np.abs(y).max()):g}; allowed: values up to "
                f"{session_schema.MAX_MAGNITUDE:g} in size",
            )
        if y.dtype.kind not in "fib":
            raise SessionError(None, f"data.y must hold numbers, not {y.dtype}")
    if state.test_mask.shape != (n,):
        raise SessionError(
            None, f"data.test has shape {state.test_mask.shape}; data.X has {n} points"
        )
    if state.layout not in LAYOUTS:
        raise SessionError(
            None, f"layout must be one of {', '.join(LAYOUTS)}, not {state.layout!r}"
        )
    if state.view not in VIEWS:
        raise SessionError(None, f"view must be one of {', '.join(VIEWS)}, not {state.view!r}")
    if not 1 <= len(state.panels) <= session_schema.MAX_PANELS:
        raise SessionError(
            None,
            f"a session has one to {session_schema.MAX_PANELS} panels, this one "
            f"{len(state.panels)}",
        )
    if state.layout == "single" and len(state.panels) != 1:
        raise SessionError(None, "a single layout has exactly one panel")
    for i, p in enumerate(state.panels):
        if p.algorithm not in registry.ALGORITHMS:
            raise SessionError(
                None,
                f"panels[{i}] uses the algorithm {p.algorithm!r}, which this kfdviz does not "
                f"have (it has {', '.join(registry.ALGORITHMS)})",
            )
        spec = registry.get(p.algorithm)
        try:
            _plain_params(p.params)
        except SessionError as exc:
            raise SessionError(None, f"panels[{i}]: {exc.reason}") from None
        problems = spec.validate(_tuple_params(spec, p.params))
        if problems:
            name, reason = next(iter(problems.items()))
            label = f"parameter {name!r}" if name else "parameters"
            raise SessionError(None, f"panels[{i}] ({spec.title}) {label}: {reason}")
        f = p.feature
        is_index = isinstance(f, int) and not isinstance(f, bool)
        if not (
            (isinstance(f, str) and f in NAMED_FEATURES)
            or (is_index and 0 <= f <= session_schema.MAX_FEATURE)
        ):
            raise SessionError(
                None,
                f"panels[{i}].feature is {f!r}; allowed: {', '.join(NAMED_FEATURES)} or a "
                f"column index from 0 to {session_schema.MAX_FEATURE}",
            )
    try:
        session_schema.check_structure(state.view_settings, where="view_settings")
        session_schema.check_view_settings(state.view_settings, len(state.panels))
        if state.sweep is not None:
            session_schema.check_structure(state.sweep, where="sweep")
            session_schema.check_sweep(state.sweep)
    except FieldError as exc:
        raise SessionError(None, str(exc)) from None
    for key, value in state.view_settings.items():
        try:
            _plain_value(value, key)
        except SessionError as exc:
            raise SessionError(None, f"view setting {exc.reason[len('parameter ') :]}") from None
    linked = state.view_settings.get(LINKED_SETTING)
    if linked is not None:
        field = f"view_settings.{LINKED_SETTING}"
        names = sorted(
            {p.name for panel in state.panels for p in registry.get(panel.algorithm).params}
        )
        allowed = f"allowed: a list of the panels' parameter names ({', '.join(names)})"
        if not isinstance(linked, list | tuple) or not all(isinstance(n, str) for n in linked):
            raise SessionError(None, f"{field} is {linked!r}; {allowed}")
        unknown = sorted(set(linked) - set(names))
        if unknown:
            raise SessionError(
                None,
                f"{field} links {', '.join(map(repr, unknown))}, which no panel's algorithm "
                f"has; {allowed}",
            )


def _native_params(algorithm: str, params: Mapping) -> dict:
    """JSON parameters as the estimators take them: lists of choices become tuples."""
    plain = _plain_params(params)
    if algorithm not in registry.ALGORITHMS:
        return plain  # check_state says so, with the algorithms there are
    return _tuple_params(registry.get(algorithm), plain)


def _tuple_params(spec, params: Mapping) -> dict:
    out = dict(params)
    for p in spec.params:
        if p.kind == "tuple-choice" and isinstance(out.get(p.name), list):
            out[p.name] = tuple(out[p.name])
    return out


def with_settings(state: SessionState, **settings) -> SessionState:
    """A copy of ``state`` with some view settings changed."""
    return replace(state, view_settings={**state.view_settings, **settings})


__all__ = [
    "FORMAT_VERSION",
    "LINKED_SETTING",
    "MIGRATIONS",
    "SUFFIX",
    "VIEW_DEFAULTS",
    "PanelState",
    "SessionError",
    "SessionState",
    "check_state",
    "fit_requests",
    "load_session",
    "loads_session",
    "save_session",
    "split_roles",
    "state_from_preset",
    "understood_versions",
    "with_settings",
]
