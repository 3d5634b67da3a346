"""File → Export as Python script: the picture on screen as code that rebuilds it with the library.

The script fits each panel's estimator, with every one of its parameters, on the window's
training points (saved beside it as NAME.npz: the exact numbers, the test points marked), and
saves the display of what the panel shows — :class:`~kfdviz.LevelSetDisplay` over the same box
and grid, :class:`~kfdviz.OutputHistogramDisplay` or :class:`~kfdviz.EmbeddingDisplay` from the
same angles — to NAME.png (NAME-1.png, NAME-2.png, ... for a comparison). The fits are the
window's (``run_fit`` fits the same estimator on the same points), so the script's displays
hold the picture's values. :func:`script_text` builds the code without Qt; the window's command
asks for the file and writes both files atomically.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np

from .. import render
from ..atomic_file import write_bytes, write_text
from ..estimators import registry
from ..session import VIEW_DEFAULTS
from .file_dialogs import EXPORT_FOLDER, ask_save_path

SCRIPT_FILTER = "Python script (*.py)"

# The view settings a LevelSetDisplay takes as keywords of the same names.
LEVEL_SETTINGS = (
    "show_points",
    "show_contours",
    "show_boundary",
    "show_expansion",
    "show_colorbar",
)


def _value(v):
    """``v`` as plain Python, so that its repr is code (numpy scalars and arrays unwrapped)."""
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, list | tuple):
        return type(v)(_value(x) for x in v)
    return v


def _literal(v) -> str:
    """``v`` as Python source, strings in double quotes (as the project's formatter writes)."""
    v = _value(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a Python string literal
    if isinstance(v, tuple):
        inner = ", ".join(_literal(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    return repr(v)


def _call(name: str, args: list[str], kwargs: dict) -> str:
    parts = [*args, *(f"{k}={_literal(v)}" for k, v in kwargs.items())]
    one_line = f"{name}({', '.join(parts)})"
    if len(one_line) <= 88:
        return one_line
    inner = "".join(f"    {p},\n" for p in parts)
    return f"{name}(\n{inner})"


def _indented(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _panel_displays(computed: render.Computed) -> list[tuple[object, str, str]]:
    """(result, display class, panel title) for each fitted panel of the picture, in order;
    the figure plan decides, as it does for the window's export."""
    plan = render.figure_plan(computed)
    shown: list[tuple[object, str, str]] = []
    seen: set[int] = set()
    kinds = {"input": "LevelSetDisplay", "regression": "LevelSetDisplay"}
    for panel in plan.panels:
        r = panel.result
        if r is None or id(r) in seen:
            continue
        if panel.kind in kinds:
            display = kinds[panel.kind]
        elif panel.kind == "histogram":
            display = "OutputHistogramDisplay"
        elif panel.kind == "scatter3d" and panel.points is r.embedding:
            display = "EmbeddingDisplay"
        else:  # a 3-D view of the input itself: the window's, not an estimator's picture
            continue
        seen.add(id(r))
        title = panel.title.split(": ")[0] if display == "OutputHistogramDisplay" else panel.title
        shown.append((r, display, title))
    return shown


def _left_out(computed: render.Computed) -> list[str]:
    """What the window's picture shows that no display draws, said in the script."""
    notes = []
    if computed.charts:
        names = ", ".join(chart.title for chart in computed.charts)
        notes.append(f"Not rebuilt here: the charts the window computes ({names}).")
    if computed.state.with_svr and computed.state.regression:
        notes.append(
            "Not rebuilt here: the window's support vector regression curve beside the fit "
            "(draw SupportVectorRegressor with the same kernel for it)."
        )
    return notes


def _standardize_lines(state) -> list[str]:
    """The script's standardization of the features, where the window's kernel saw them
    standardized (over the training points; data of more than two features)."""
    X = np.asarray(state.X)
    if not (state.standardize and X.ndim == 2 and X.shape[1] > 2):
        return []
    return [
        "# each feature centred and scaled over the training points, as the window's kernel saw it",
        "mean, std = X[~test].mean(axis=0), X[~test].std(axis=0)",
        "X = (X - mean) / np.where(std > 0, std, 1.0)",
    ]


def script_text(computed: render.Computed, data_name: str, picture_stem: str) -> str:
    """The code that rebuilds ``computed``'s picture: it reads the points from ``data_name``
    (beside the script) and saves ``picture_stem``.png (``picture_stem``-1.png, ... for more
    panels). ValueError for a picture that is no estimator's (a sweep, nothing fitted)."""
    state = computed.state
    if computed.sweep is not None:
        raise ValueError(
            "a sweep's curves refit the estimator at every value: export the figure or the "
            "data instead (kfdviz sweep rebuilds them from a session)"
        )
    panels = _panel_displays(computed)
    if not panels:
        raise ValueError("nothing is fitted yet: fit a picture first")
    settings = {**VIEW_DEFAULTS, **dict(state.view_settings)}
    names = sorted({registry.get(r.algorithm).estimator.__name__ for r, _, _ in panels})
    displays = sorted({d for _, d, _ in panels})
    lines = [
        '"""The kfdviz picture, rebuilt with the library.',
        "",
        f"Run it beside {data_name} (the points as drawn): it fits each estimator on the",
        "training points and saves its display as the window drew it.",
        '"""',
        "",
        "from pathlib import Path",
        "",
        "import numpy as np",
        f"from kfdviz import {', '.join(sorted(displays + names))}",
        "",
        "HERE = Path(__file__).resolve().parent",
        f'data = np.load(HERE / "{data_name}")',
        'X, test = data["X"], data["test_mask"]',
        'y = data["y"] if "y" in data.files else None',
        *_standardize_lines(state),
        "X_train, X_test = X[~test], X[test]",
        "y_train = None if y is None else y[~test]",
        "y_test = None if y is None else y[test]",
        "if not test.any():",
        "    X_test = y_test = None",
        "",
        "displays = []",
    ]
    lines += [f"# {note}" for note in _left_out(computed)]
    for r, display, title in panels:
        spec = registry.get(r.algorithm)
        params = dict(r.params)
        estimator = _call(spec.estimator.__name__, [], params)
        fit_args = "X_train, y_train" if spec.supervised else "X_train"
        lines += ["", f"# {title or spec.title}", f"estimator = {estimator}.fit({fit_args})"]
        kwargs: dict = {}
        if display == "LevelSetDisplay":
            args = ["estimator", "X_train", "y_train", "X_test=X_test", "y_test=y_test"]
            if r.grid is not None:
                kwargs = {
                    "feature": r.feature,
                    "grid_resolution": int(settings["resolution"]),
                    "box": tuple(float(v) for v in r.grid.box),
                    "padding": float(settings["padding"]),
                    "levels": int(settings["levels"]),
                }
                for key in LEVEL_SETTINGS:
                    if settings[key] != VIEW_DEFAULTS[key]:
                        kwargs[key] = settings[key]
        elif display == "OutputHistogramDisplay":
            args = ["estimator", "X_train", "y_train", "X_test", "y_test"]
            kwargs = {"feature": r.feature, "bins": int(settings["bins"])}
        else:
            args = ["estimator", "X_train", "y_train", "X_test=X_test", "y_test=y_test"]
            kwargs = {
                "n_components": max(2, min(3, r.embedding.shape[1])),
                "azimuth": float(settings["azimuth"]),
                "elevation": float(settings["elevation"]),
            }
        if title and title != r.title:
            kwargs["title"] = title
        if settings.get("theme", "light") != "light":
            kwargs["theme"] = settings["theme"]
        lines.append(f"shown = {_call(display + '.from_estimator', args, kwargs)}")
        lines.append("displays.append(shown)")
    lines += ["", "display = displays[0]"]
    if len(panels) == 1:
        lines.append(f"print(display.save(HERE / {_literal(picture_stem + '.png')}))")
    else:
        lines += [
            "for i, shown in enumerate(displays, start=1):",
            f"    print(shown.save(HERE / f{_literal(picture_stem + '-{i}.png')}))",
        ]
    lines.append("")
    return "\n".join(lines)


def data_bytes(computed: render.Computed) -> bytes:
    """The points, their labels or targets and the test mask, as an NPZ archive."""
    state = computed.state
    arrays = {"X": np.asarray(state.X, dtype=float), "test_mask": np.asarray(state.test_mask)}
    if state.y is not None:
        arrays["y"] = np.asarray(state.y)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def write_script(computed: render.Computed, path) -> tuple[Path, Path]:
    """Write the script to ``path`` and its points beside it (the same name, .npz)."""
    path = Path(path)
    if path.suffix != ".py":
        path = path.with_name(path.name + ".py")
    data = path.with_suffix(".npz")
    text = script_text(computed, data.name, path.stem)
    write_bytes(data, data_bytes(computed))
    write_text(path, text)
    return path, data


def export_script_to(exporter, path) -> bool:
    """Write the window's picture (``exporter.computed()``, no refit) as a script at ``path``;
    the status line says what was written or why not."""
    try:
        script, data = write_script(exporter.computed(), path)
    except (OSError, ValueError) as exc:
        exporter.status.show(f"Could not export the script: {exc}", kind="error")
        return False
    exporter.status.show(f"Exported the script {script.name} and its data {data.name}", kind="info")
    return True


def export_script(exporter) -> bool:
    """File → Export as Python script…: ask for the file, then :func:`export_script_to`."""
    if exporter.data.n == 0:
        exporter.status.show("Nothing to export: there are no points.", kind="error")
        return False
    path = ask_save_path(
        exporter.window,
        "Export as Python script",
        f"{render.safe_name(exporter.session.preset_name or 'kfdviz-figure')}.py",
        SCRIPT_FILTER,
        exporter.settings,
        EXPORT_FOLDER,
        suffix=".py",
    )
    return bool(path) and export_script_to(exporter, path)


__all__ = ["data_bytes", "export_script", "export_script_to", "script_text", "write_script"]
