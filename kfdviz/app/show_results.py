"""Fit results into widgets: a compare panel, the docks, the status line's summary, the points.

Functions of a result and the widgets that show it; they hold no state of their own and never
fit. GUI thread only.
"""

from __future__ import annotations

import numpy as np

from ..figure.plan import describe_zeros
from ..pipeline import FitResult
from ..pipeline.projection import input_title, points_in_3d
from .wording import count


def show_compare_caption(panel, heading: str, r: FitResult | None, mode: str) -> None:
    """A compare panel's caption: ``heading`` (what the slot fits), then what the panel's page
    shows of ``r`` (the feature, or the embedding) unless the heading says it already, and the
    fraction of zero expansion coefficients (0 % too: a comparison is about the differences)."""
    if r is None:
        panel.caption.setText(heading)
        return
    three_d = r.X.shape[1] != 2 and r.kind != "regressor"
    shown = r.feature_label.split(": ", 1)[-1]
    if mode == "embedding" or (three_d and mode != "outputs"):
        shown = f"embedding of all points ({len(r.embedding_labels) or 'no'} features)"
    same = shown.lower() in heading.lower()
    text = heading if same else f"{heading} — {shown}"
    zeros = describe_zeros(r, always=True)
    panel.caption.setText(f"{text} · {zeros}" if zeros else text)
    panel.caption.setToolTip(r.feature_label)


def draw_compare_panel(panel, heading: str, r: FitResult, mode: str) -> None:
    """Show ``r`` in a compare panel: caption, then the page ``mode`` asks for."""
    panel.set_error(None)
    three_d = r.X.shape[1] != 2 and r.kind != "regressor"
    page = panel.page(mode, three_d)
    show_compare_caption(panel, heading, r, mode)
    if not three_d:
        panel.view.set_result(r, title=heading)
    if page is panel._outputs:
        panel.outputs.set_result(r)
    elif page is panel._embedding:
        labels = None if r.kind == "regressor" else r.y
        if r.embedding is not None:
            panel.embedding.set_points(r.embedding, labels, r.test_mask, r.embedding_labels)
        else:
            points = r.points3d if r.points3d is not None else r.X
            panel.embedding.set_points(
                points,
                labels,
                r.test_mask,
                r.points3d_labels or ("x₁", "x₂", "x₃"),
                "no embedding: the input data",
            )


def draw_embedding(view, r: FitResult) -> None:
    """The Embedding dock: the embedding of all points, or a title saying there is none."""
    if r.embedding is not None:
        labels = None if r.kind == "regressor" else r.y
        view.set_points(
            r.embedding,
            labels,
            r.test_mask,
            r.embedding_labels,
            f"{r.title}: embedding of all points",
        )
    else:
        view.set_points(None, None, None, title=f"{r.title}: no embedding")


def summary(r: FitResult) -> str:
    """One line for the status line: the fit, its errors, its time, its first warning."""
    parts = [r.title]
    if r.error_name == "error" and r.train_error is not None:
        parts.append(f"training error {100 * r.train_error:.1f} %")
        if r.test_error is not None:
            parts.append(f"test error {100 * r.test_error:.1f} %")
    elif r.error_name == "RMSE" and r.train_error is not None:
        parts.append(f"training RMSE {r.train_error:.3g}")
    elif r.error_name == "outliers" and r.train_error is not None:
        parts.append(f"{100 * r.train_error:.1f} % of training points flagged")
    parts.append(f"{1000 * r.timings.get('total', 0.0):.0f} ms")
    text = " · ".join(parts)
    if r.warnings:
        text += f" · ⚠ {r.warnings[0]}"
    return text


def counts_text(data) -> str:
    """What the Data panel says of the points: how many, per class, how many held out."""
    n = data.n
    if data.regression:
        text = count(n, "sample")
    else:
        classes, counts = np.unique(data.y(), return_counts=True)
        per = ", ".join(f"class {int(c) + 1}: {k}" for c, k in zip(classes, counts, strict=True))
        text = f"{count(n, 'point')} ({per})" if n else "no points"
    n_test = int(data.test_mask().sum())
    if n_test:
        text += f"; {n_test} held out for testing"
    return text


def points_3d(data) -> tuple[np.ndarray, tuple[str, ...]]:
    """The points of data with 3 or more dimensions as 3-D points, as the kernel sees them
    (standardized when they are): the three coordinates of 3-D data, else the first three
    principal components (:func:`~kfdviz.pipeline.projection.points_in_3d`)."""
    train = ~np.asarray(data.test_mask(), dtype=bool)
    return points_in_3d(data.document.kernel_data(data.X(), train))


def input_3d_title(data) -> str:
    """The title of the 3-D view of the input points (a PCA projection beyond 3-D)."""
    return input_title(data.dimension, standardized=data.document.standardizes(data.X()))


__all__ = [
    "counts_text",
    "draw_compare_panel",
    "draw_embedding",
    "input_3d_title",
    "points_3d",
    "show_compare_caption",
    "summary",
]
