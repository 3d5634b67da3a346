"""A table's results as one JSON-ready document, and that document as Markdown and CSV.

The document holds, per data set and method, our mean and standard error over the realizations,
the fraction of zero coefficients, the chosen parameters (and the five cross-validated choices
they are the median of), the paper's printed value, and the difference in standard errors
(ours - paper) / sqrt(se_ours^2 + se_paper^2), with whichever standard errors exist. Data sets
missing from the data folder are rows marked "data not available". Nothing in it depends on how
or where the tasks ran (no timings, no backend), so every backend gives the same document.
"""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np

from .methods import DEFAULT_OPTIONS, PARAM_SYMBOLS, get_method
from .protocol import N_CV_REALIZATIONS, N_FOLDS, OUTPUT_BINS, mean_and_se
from .tables import DATASET_LABELS, PAPER_RUNS, TableSpec

NOT_AVAILABLE = "data not available"


def _clean(v):
    """JSON-safe: NaN and infinities become None, numpy scalars plain Python."""
    if isinstance(v, dict):
        return {str(k): _clean(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_clean(x) for x in v]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def difference_in_se(ours: float, ours_se, paper: float, paper_se) -> float | None:
    """(ours - paper) / sqrt(se_ours^2 + se_paper^2); None without our standard error.

    Ours is over a handful of realizations, so its standard error is the larger part; from a
    single realization there is none, and the paper's alone would overstate the gap.
    """
    if ours_se is None or not ours_se > 0 or not math.isfinite(ours):
        return None
    paper_part = paper_se * paper_se if paper_se is not None else 0.0
    return (ours - paper) / math.sqrt(ours_se * ours_se + paper_part)


def _mean(values) -> float | None:
    return float(np.mean(values)) if len(values) else None


def _cell(spec: TableSpec, dataset: str, method: str, cell) -> dict:
    failures = sorted({cell.evals[r]["failed"] for r in cell.evals if "failed" in cell.evals[r]})
    failures += sorted({c["failed"] for c in cell.cv.values() if c.get("failed")})
    numbers = sorted(r for r in cell.evals if "failed" not in cell.evals[r])
    errors = [cell.evals[r]["error"] for r in numbers]
    values = errors if spec.metric == "error" else [100.0 - e for e in errors]
    mean, se = mean_and_se(values)
    sparsities = [cell.evals[r]["sparsity"] for r in numbers]
    sparsity = float(np.mean(sparsities)) if sparsities and None not in sparsities else None
    paper = spec.paper.get((dataset, method))
    ours = {
        "mean": mean,
        "se": se,
        "realizations": numbers,
        "sparsity": sparsity,
        "train_error": _mean([cell.evals[r]["train_error"] for r in numbers]),
        "params": cell.params,
        "cv_choices": [cell.cv[r]["best"] for r in sorted(cell.cv)],
        "failures": failures,
    }
    out = {"ours": ours, "paper": None, "difference_se": None}
    if paper is not None:
        out["paper"] = {
            "mean": paper.mean,
            "se": paper.se,
            "sparsity": paper.sparsity,
            "note": paper.note,
        }
        out["difference_se"] = difference_in_se(mean, se, paper.mean, paper.se)
    return out


def _distributions(cell) -> dict:
    """Output densities per role and class, counts summed over the realizations."""
    out = {"edges": OUTPUT_BINS.tolist()}
    width = np.diff(OUTPUT_BINS)
    for role in ("train", "test"):
        sums: dict[str, np.ndarray] = {}
        for r in sorted(cell.evals):
            if "failed" in cell.evals[r]:
                continue
            for label, counts in cell.evals[r]["outputs"][role].items():
                sums[label] = sums.get(label, 0) + np.asarray(counts, dtype=float)
        out[role] = {
            label: (c / max(c.sum(), 1.0) / width).tolist() for label, c in sorted(sums.items())
        }
        out[f"{role}_points"] = {label: int(c.sum()) for label, c in sorted(sums.items())}
    return out


def build_document(
    spec: TableSpec, datasets, methods, available, cells, version: str, options=None
) -> dict:
    options = options if options is not None else DEFAULT_OPTIONS
    columns = []
    for name in methods:
        m = get_method(name)
        columns.append({"method": name, "label": m.label, "threshold": m.threshold_text(options)})
    rows = []
    for dataset in datasets:
        row = {"dataset": dataset, "label": DATASET_LABELS.get(dataset, dataset)}
        if dataset not in available:
            row.update(available=False, note=NOT_AVAILABLE, cells={})
            rows.append(row)
            continue
        n = len(available[dataset])
        note = f"{n} realization{'s' if n != 1 else ''} here (the paper: {PAPER_RUNS})"
        if n == 1:
            note += "; one realization: no standard error"
        row.update(available=True, note=note, realizations=n, cells={})
        for method in methods:
            row["cells"][method] = _cell(spec, dataset, method, cells[dataset, method])
        if spec.name == "output-distributions":
            row["distributions"] = {m: _distributions(cells[dataset, m]) for m in methods}
        rows.append(row)
    return _clean(
        {
            "table": spec.name,
            "title": spec.title,
            "source": spec.source,
            "metric": spec.metric,
            "note": spec.note,
            "protocol": {
                "folds": N_FOLDS,
                "cv_realizations": N_CV_REALIZATIONS,
                "choice": "median of the cross-validated choices, per parameter",
                "fold_seed": "the realization number (StratifiedKFold, shuffled)",
                "options": options.as_dict(),
            },
            "columns": columns,
            "rows": rows,
            "code_version": version,
        }
    )


# -- text forms --------------------------------------------------------------------------------------
def _num(v, digits: int = 2) -> str:
    return "–" if v is None else f"{v:.{digits}f}"


def _value(mean, se, sparsity=None) -> str:
    text = _num(mean, 1 if mean is not None and se is None else 2)
    if se is not None:
        text += f" ± {se:.2f}"
    if sparsity is not None:
        text += f" ({100 * sparsity:.0f} %)"
    return text


def _params_text(params: dict | None) -> str:
    if not params:
        return "–"
    return ", ".join(f"{PARAM_SYMBOLS.get(k, k)} = {v:.3g}" for k, v in params.items())


def to_markdown(doc: dict) -> str:
    metric = "test error (%)" if doc["metric"] == "error" else "accuracy (%)"
    lines = [f"### {doc['title']}", "", f"Source: {doc['source']}. Values: {metric}, mean ± "]
    lines[-1] += "standard error over the realizations. " + doc["note"]
    lines += [
        "",
        "Thresholds / offsets: "
        + "; ".join(f"{c['label']}: {c['threshold']}" for c in doc["columns"])
        + ".",
        "",
    ]
    head = ["Data set"]
    for c in doc["columns"]:
        head += [f"{c['label']} ours", f"{c['label']} paper", "Δ/SE"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for row in doc["rows"]:
        cells = [row["label"]]
        if not row["available"]:
            cells += [NOT_AVAILABLE] + [""] * (len(head) - 2)
        else:
            for c in doc["columns"]:
                cell = row["cells"][c["method"]]
                o, p = cell["ours"], cell["paper"]
                cells.append(_value(o["mean"], o["se"], o["sparsity"]))
                cells.append("–" if p is None else _value(p["mean"], p["se"], p["sparsity"]))
                d = cell["difference_se"]
                cells.append("–" if d is None else f"{d:+.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "Chosen parameters (median of the cross-validated choices) and realizations:", ""]
    head = ["Data set", "realizations"] + [c["label"] for c in doc["columns"]]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for row in doc["rows"]:
        if not row["available"]:
            continue
        cells = [row["label"], str(row["realizations"])]
        for c in doc["columns"]:
            cell = row["cells"][c["method"]]
            text = _params_text(cell["ours"]["params"])
            note = (cell["paper"] or {}).get("note")
            cells.append(text + (f" (paper: {note})" if note else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


CSV_FIELDS = (
    "dataset",
    "method",
    "available",
    "realizations",
    "ours_mean",
    "ours_se",
    "ours_sparsity",
    "ours_train_error",
    "paper_mean",
    "paper_se",
    "paper_sparsity",
    "difference_se",
    "params",
    "threshold",
)


def to_csv(doc: dict) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    threshold = {c["method"]: c["threshold"] for c in doc["columns"]}
    for row in doc["rows"]:
        for c in doc["columns"]:
            method = c["method"]
            record = {"dataset": row["dataset"], "method": method, "available": row["available"]}
            if row["available"]:
                cell = row["cells"][method]
                o, p = cell["ours"], cell["paper"] or {}
                record.update(
                    realizations=row["realizations"],
                    ours_mean=o["mean"],
                    ours_se=o["se"],
                    ours_sparsity=o["sparsity"],
                    ours_train_error=o["train_error"],
                    paper_mean=p.get("mean"),
                    paper_se=p.get("se"),
                    paper_sparsity=p.get("sparsity"),
                    difference_se=cell["difference_se"],
                    params=json.dumps(o["params"], sort_keys=True),
                    threshold=threshold[method],
                )
            writer.writerow(record)
    return buffer.getvalue()


def to_json(doc: dict) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, allow_nan=False) + "\n"
