"""A reproduced table as a figure: a plan for the project's painter (kfdviz/figure).

Tables become one error-bar panel per column: per data set our mean ± standard error beside the
paper's value ± its standard error. ``output-distributions`` becomes NIPS 2001 Fig. 2's four
histograms (KFD and SVM, training and test outputs per class, summed over the realizations).
Building a plan needs no Qt; :func:`save_table_figure` paints and writes it.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..figure.errorbars import ErrorBarData, ErrorBarSeries
from ..figure.plan import FigurePlan, PanelPlan
from ..pipeline.geometry import Histograms

NAN = float("nan")


def _num(v) -> float:
    return NAN if v is None else float(v)


def _grid(n: int) -> tuple[int, int]:
    cols = 1 if n == 1 else 2
    return int(np.ceil(n / cols)), cols


def _errorbar_panels(doc: dict) -> list[PanelPlan]:
    rows = [r for r in doc["rows"] if r["available"]]
    categories = tuple(r["label"] for r in rows)
    ylabel = "test error (%)" if doc["metric"] == "error" else "accuracy (%)"
    panels = []
    for column in doc["columns"]:
        method = column["method"]
        ours, paper = [], []
        for r in rows:
            cell = r["cells"][method]
            ours.append((_num(cell["ours"]["mean"]), _num(cell["ours"]["se"])))
            p = cell["paper"] or {}
            paper.append((_num(p.get("mean")), _num(p.get("se"))))
        data = ErrorBarData(
            categories,
            (
                ErrorBarSeries("ours", *map(tuple, zip(*ours, strict=True))),
                ErrorBarSeries("paper", *map(tuple, zip(*paper, strict=True))),
            ),
            ylabel,
        )
        panels.append(
            PanelPlan(
                "errorbars", column["label"], f"threshold: {column['threshold']}", result=data
            )
        )
    return panels


class _OutputHistograms:
    """What the painter's histogram panel reads from a fit result: histograms, classes, threshold."""

    def __init__(self, distribution: dict):
        edges = np.asarray(distribution["edges"], dtype=float)
        density, counts = {}, {}
        labels = sorted({int(k) for role in ("train", "test") for k in distribution[role]})
        for role in ("train", "test"):
            for label, values in distribution[role].items():
                density[int(label), role] = np.asarray(values, dtype=float)
                counts[int(label), role] = np.array([distribution[f"{role}_points"][label]])
        self.histograms = Histograms(edges, density, counts)
        self.classes = np.asarray(labels)
        self.threshold = 0.0


def _distribution_panels(doc: dict) -> list[PanelPlan]:
    row = doc["rows"][0]
    panels = []
    for column in doc["columns"]:
        method = column["method"]
        source = _OutputHistograms(row["distributions"][method])
        cell = row["cells"][method]
        ours, paper = cell["ours"], cell["paper"] or {}
        for role, word in (("train", "training"), ("test", "test")):
            if role == "train":
                measures = f"training error {ours['train_error']:.2f} %"
            else:
                measures = f"test error {ours['mean']:.2f} % (paper {paper.get('mean', NAN):g} %)"
            panels.append(
                PanelPlan(
                    "histogram",
                    f"{column['label']}: {word} set",
                    f"{row['label']}, {len(ours['realizations'])} realizations",
                    measures,
                    result=source,
                    role=role,
                )
            )
    return panels


def table_figure_plan(doc: dict) -> FigurePlan:
    """The figure of a reproduced table's document (as ``reproduce`` returns it)."""
    if doc["table"] == "output-distributions":
        if not doc["rows"] or not doc["rows"][0]["available"]:
            raise ValueError("no ringnorm results to draw: the data set is not in the data folder")
        panels = _distribution_panels(doc)
        rows, cols = 2, 2
        note = "Outputs over fixed bins, counts summed over the realizations; paper: "
        note += doc["source"] + "."
    else:
        if not any(r["available"] for r in doc["rows"]):
            raise ValueError("no data set of this table is in the data folder: nothing to draw")
        panels = _errorbar_panels(doc)
        rows, cols = _grid(len(panels))
        note = f"Ours: mean ± standard error over the realizations here. Paper: {doc['source']}."
    return FigurePlan(
        title=doc["title"],
        panels=panels,
        rows=rows,
        cols=cols,
        settings={"theme": "light"},
        note=note,
    )


def save_table_figure(doc: dict, path):
    """Paint the table's figure to ``path`` (.svg, .png or .pdf); the path written."""

    # Qt's platform is chosen when Qt is first loaded: set it before the painter imports Qt.
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..figure.export import ensure_app, save_figure

    ensure_app()
    save_figure(table_figure_plan(doc), path)
    return Path(path)
