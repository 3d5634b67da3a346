"""Data and results of a picture as files: CSV or NPZ, with the parameters as JSON (no Qt here).

Per point: its coordinates, class label (or regression target), role (train / test) and, for each
panel, the shown output (feature value, decision value, novelty score or fitted value), the
prediction and the embedding coordinates. The parameters — data source, split, each panel's
algorithm with all its parameters, the measured errors and sparsity, the view settings — go to a
JSON file beside the CSV (``NAME.json``), and into the NPZ as the string ``params_json``. NPZ files
hold plain numeric and string arrays only: ``numpy.load(path)`` opens them without pickle.

Every file is written through :mod:`kfdviz.atomic_file`: a failed export leaves the previous one
whole. ``NAME.json`` is replaced only when it is a parameters file of an earlier export (its
``"format"`` says so): a JSON file of the user's own that happens to share the name is never
overwritten; the export is refused with the reason instead.

A sweep (curve over a parameter) exports its table instead: one row per parameter value.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np

from . import __version__, atomic_file
from .regular_file import read_regular

FORMATS = ("csv", "npz")
# The "format" of the parameters file written beside a CSV; marks it as replaceable by the next
# export to the same name.
PARAMETERS_FORMAT = "kfdviz-export-parameters"


_GREEK = str.maketrans({"σ": "sigma", "μ": "mu", "ν": "nu", "ε": "eps", "ℓ": "l", "²": "2"})


def _slug(text: str) -> str:
    """An ASCII identifier for column names: 'KOC, Gaussian σ = 1' -> 'koc_gaussian_sigma_1'."""
    text = text.lower().translate(_GREEK)
    out = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in text).strip("_")
    while "__" in out:
        out = out.replace("__", "_")
    return out or "panel"


def _jsonable(value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_jsonable(v) for v in value.tolist()]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def panel_names(computed) -> list[str]:
    """A short unique column prefix per panel: its title (or algorithm) as an identifier."""
    names: list[str] = []
    for i, panel in enumerate(computed.state.panels):
        base = _slug(panel.title or panel.algorithm)
        name = base
        k = 2
        while name in names:
            name = f"{base}_{k}"
            k += 1
        names.append(name if name else f"panel{i + 1}")
    return names


STALE_NOTE = "not exported: fitted to other points (the data changed and was not refitted yet)"


def belongs(result, state) -> bool:
    """Whether ``result`` was fitted to the points ``state`` holds (the same points, labels and
    roles): only then are its outputs, one per point, the outputs of these points."""
    if result is None or isinstance(result, str):
        return False
    X = np.asarray(result.X)
    if X.shape != state.X.shape or not np.array_equal(X, state.X):
        return False
    if not np.array_equal(np.asarray(result.test_mask), np.asarray(state.test_mask)):
        return False
    if (result.y is None) != (state.y is None):
        return False
    return state.y is None or np.array_equal(np.asarray(result.y), np.asarray(state.y))


def fitted_results(computed) -> list[tuple[str, object]]:
    """(column prefix, result) of each panel whose result belongs to the exported points."""
    state = computed.state
    return [
        (name, r)
        for name, r in zip(panel_names(computed), computed.results, strict=False)
        if belongs(r, state)
    ]


def parameters(computed) -> dict:
    """Everything needed to reproduce the numbers, as JSON-able data."""
    state = computed.state
    panels = []
    for i, panel in enumerate(state.panels):
        entry = {
            "algorithm": panel.algorithm,
            "title": panel.title,
            "feature": panel.feature,
            "params": _jsonable(panel.params),
        }
        r = computed.results[i] if i < len(computed.results) else None
        if isinstance(r, str):
            entry["error"] = r
        elif r is not None and not belongs(r, state):
            entry["error"] = STALE_NOTE
        elif r is not None:
            entry.update(
                {
                    "all_params": _jsonable(r.params),
                    "feature_shown": _jsonable(r.feature),
                    "feature_label": r.feature_label,
                    "threshold": _jsonable(r.threshold),
                    f"train_{r.error_name or 'error'}": _jsonable(r.train_error),
                    f"test_{r.error_name or 'error'}": _jsonable(r.test_error),
                    "sparsity": _jsonable(r.sparsity),
                    "n_expansion_points": int(r.n_expansion_total),
                    "diagnostics": _jsonable(
                        {
                            k: v
                            for k, v in r.diagnostics.items()
                            if not isinstance(v, str) or len(v) < 200
                        }
                    ),
                    "warnings": list(r.warnings),
                }
            )
        panels.append(entry)
    out = {
        "format": PARAMETERS_FORMAT,
        "kfdviz_version": __version__,
        "preset": state.preset,
        "title": state.title,
        "data": {
            "n_points": int(state.X.shape[0]),
            "dimension": int(state.X.shape[1]),
            "n_test": int(state.test_mask.sum()),
            "regression": bool(state.regression),
            "generator": _jsonable(state.generator),
            "split": _jsonable(state.split),
        },
        "layout": state.layout,
        "view": state.view,
        "panels": panels,
        "view_settings": _jsonable(state.view_settings),
    }
    if state.sweep is not None:
        out["sweep"] = _jsonable(state.sweep)
    return out


def point_table(computed) -> tuple[list[str], list[list]]:
    """(header, rows): one row per point."""
    state = computed.state
    X = state.X
    d = X.shape[1]
    header = [f"x{j + 1}" for j in range(d)]
    columns: list[np.ndarray] = [X[:, j] for j in range(d)]
    header.append("target" if state.regression else "label")
    columns.append(np.full(X.shape[0], np.nan) if state.y is None else np.asarray(state.y))
    header.append("role")
    columns.append(np.where(state.test_mask, "test", "train"))
    for name, r in fitted_results(computed):
        if r.outputs is not None:
            header.append(f"{name}_output")
            columns.append(np.asarray(r.outputs, dtype=float))
        if r.predictions is not None:
            header.append(f"{name}_prediction")
            columns.append(np.asarray(r.predictions))
        if r.embedding is not None:
            E = np.asarray(r.embedding, dtype=float)
            for j in range(E.shape[1]):
                header.append(f"{name}_embedding{j + 1}")
                columns.append(E[:, j])
    rows = [list(row) for row in zip(*[c.tolist() for c in columns], strict=True)]
    return header, rows


def sweep_table(computed) -> tuple[list[str], list[list]]:
    res = computed.sweep
    header = [res.sweep.param]
    columns = [np.asarray(res.values, dtype=float)]
    for curve in res.sweep.curves:
        for metric in res.sweep.metrics:
            header.append(f"{_slug(curve.label)}_{metric}")
            columns.append(np.asarray(res.metrics[curve.label][metric], dtype=float))
    rows = [list(row) for row in zip(*[c.tolist() for c in columns], strict=True)]
    return header, rows


def _format_cell(v) -> str:
    if isinstance(v, float):
        return "" if not math.isfinite(v) else repr(v)
    return str(v)


def parameters_path(path) -> Path:
    """Where the parameters of a CSV export go: NAME.json beside NAME.csv."""
    path = Path(path)
    return path.with_name(f"{path.stem}.json")


def _is_parameters_file(path: Path) -> bool:
    """Whether ``path`` is missing or is a parameters file an earlier export wrote."""

    if not path.exists() and not path.is_symlink():
        return True
    try:
        document = json.loads(read_regular(path, 64 << 20))
    except (OSError, ValueError, RecursionError):
        return False
    if not isinstance(document, dict):
        return False
    if document.get("format") == PARAMETERS_FORMAT:
        return True
    # exports made before the parameters carried their format
    return {"kfdviz_version", "data", "panels", "layout"} <= set(document)


def export_csv(computed, path) -> tuple[Path, Path]:
    """Write NAME.csv (points, or the sweep's table) and NAME.json (parameters), atomically.

    Raises FileExistsError, without writing anything, when NAME.json exists and is not the
    parameters file of an earlier export.
    """
    path = Path(path)
    meta = parameters_path(path)
    if atomic_file.resolve_target(meta) == atomic_file.resolve_target(path):
        raise ValueError(f"{path.name}: the data and their parameters would be the same file")
    if not _is_parameters_file(meta):
        raise FileExistsError(
            f"{meta.name} exists and is not the parameters file of a kfdviz export, so it is "
            f"not replaced by the parameters of {path.name}; move it, or export under another "
            "name"
        )
    header, rows = sweep_table(computed) if computed.sweep is not None else point_table(computed)
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_format_cell(v) for v in row])
    params = json.dumps(parameters(computed), indent=1, ensure_ascii=False, allow_nan=False)
    # Both contents are ready before either file is touched; each file is replaced atomically.
    atomic_file.write_text(path, text.getvalue())
    atomic_file.write_text(meta, params)
    return path, meta


def export_npz(computed, path) -> Path:
    """Write the points, labels, roles, outputs, embeddings and grids, and ``params_json``."""
    path = Path(path)
    state = computed.state
    arrays: dict[str, np.ndarray] = {
        "X": state.X,
        "test_mask": state.test_mask,
        "roles": np.where(state.test_mask, "test", "train"),
        "params_json": np.array(
            json.dumps(parameters(computed), ensure_ascii=False, allow_nan=False)
        ),
    }
    if state.y is not None:
        arrays["y"] = np.asarray(state.y)
    if computed.sweep is not None:
        arrays["sweep_values"] = np.asarray(computed.sweep.values, dtype=float)
        for curve in computed.sweep.sweep.curves:
            for metric, values in computed.sweep.metrics[curve.label].items():
                arrays[f"sweep_{_slug(curve.label)}_{metric}"] = np.asarray(values, dtype=float)
    for name, r in fitted_results(computed):
        if r.outputs is not None:
            arrays[f"{name}_output"] = np.asarray(r.outputs, dtype=float)
        if r.predictions is not None:
            p = np.asarray(r.predictions)
            arrays[f"{name}_prediction"] = p if p.dtype != object else p.astype(str)
        if r.embedding is not None:
            arrays[f"{name}_embedding"] = np.asarray(r.embedding, dtype=float)
        if r.grid is not None:
            arrays[f"{name}_grid_values"] = r.grid.values
            arrays[f"{name}_grid_xs"] = r.grid.xs
            arrays[f"{name}_grid_ys"] = r.grid.ys
        if r.expansion_points is not None:
            arrays[f"{name}_expansion_points"] = np.asarray(r.expansion_points, dtype=float)
            arrays[f"{name}_expansion_coef"] = np.asarray(r.expansion_coef, dtype=float)
        if r.curve is not None:
            arrays[f"{name}_curve_x"] = r.curve.x
            arrays[f"{name}_curve_y"] = r.curve.y
    with atomic_file.atomic_write(path) as f:
        np.savez_compressed(f, **arrays)
    return path


def export_data(computed, path):
    """CSV (with a JSON beside it) or NPZ, by the file's suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix == "csv":
        return export_csv(computed, path)
    if suffix == "npz":
        return export_npz(computed, path)
    raise ValueError(f"data export writes .csv or .npz, not {Path(path).name!r}")


__all__ = [
    "FORMATS",
    "PARAMETERS_FORMAT",
    "STALE_NOTE",
    "belongs",
    "export_csv",
    "export_data",
    "export_npz",
    "parameters",
    "parameters_path",
    "point_table",
]
