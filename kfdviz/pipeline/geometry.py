"""Plain-array geometry for the pictures: grid boxes, contour levels and lines, histograms.

Everything here is numpy/contourpy only, so the GUI, the command line and the tests draw from the
same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from contourpy import LineType, contour_generator


@dataclass(frozen=True)
class ContourLine:
    """All polylines of one level, packed for drawing.

    ``path`` is an (N, 2) array of (x, y) vertices in data coordinates with a row of NaN between
    separate pieces (the form pyqtgraph's ``connect="finite"`` draws in one call); ``label_at`` is
    a good place for the level's label (the middle of its longest piece), or None when the level
    has no line in the box.
    """

    level: float
    path: np.ndarray
    label_at: tuple[float, float] | None
    n_pieces: int


def data_box(X: np.ndarray, padding: float = 0.15) -> tuple[float, float, float, float]:
    """(x0, x1, y0, y1): the bounding box of the first two columns, enlarged by ``padding``.

    A degenerate extent (one point, or points on a line) gets a unit-sized box around it so that a
    grid over it still means something.
    """
    X = np.asarray(X, dtype=float)
    lo = X[:, :2].min(axis=0)
    hi = X[:, :2].max(axis=0)
    span = hi - lo
    scale = max(float(span.max()), 1e-9)
    span = np.where(span < 1e-6 * scale, max(scale, 1.0), span)
    centre = 0.5 * (lo + hi)
    half = 0.5 * span * (1.0 + 2.0 * padding)
    return (
        float(centre[0] - half[0]),
        float(centre[0] + half[0]),
        float(centre[1] - half[1]),
        float(centre[1] + half[1]),
    )


def grid_axes(
    box: tuple[float, float, float, float], resolution: int
) -> tuple[np.ndarray, np.ndarray]:
    """Pixel-centre coordinates xs, ys over ``box``, ``resolution`` points along the longer side.

    The grid points are the centres of equal cells tiling the box exactly, so an image of the
    values whose rectangle is ``box`` puts every value under the point it was computed at.
    """
    if isinstance(resolution, bool) or int(resolution) != resolution or resolution < 2:
        raise ValueError(
            f"the grid resolution must be a whole number of at least 2, not {resolution!r}"
        )
    x0, x1, y0, y1 = box
    w, h = x1 - x0, y1 - y0
    if not (np.isfinite(w) and np.isfinite(h) and w > 0 and h > 0):
        raise ValueError(f"the grid box must have a finite, positive width and height, not {box}")
    if w >= h:
        nx = int(resolution)
        ny = int(max(8, round(resolution * h / w)))
    else:
        ny = int(resolution)
        nx = int(max(8, round(resolution * w / h)))
    xs = x0 + (np.arange(nx) + 0.5) * (w / nx)
    ys = y0 + (np.arange(ny) + 0.5) * (h / ny)
    return xs, ys


def nice_step(span: float, target: int) -> float:
    """A 1-2-2.5-5 x 10^k step giving about ``target`` intervals over ``span``."""
    if not np.isfinite(span) or span <= 0:
        return 1.0
    raw = span / max(int(target), 1)
    magnitude = 10.0 ** np.floor(np.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * magnitude >= raw * 0.999:
            return float(m * magnitude)
    return float(10.0 * magnitude)


def choose_levels(
    values: np.ndarray, count: int, *, symmetric: bool = False, include: float | None = None
) -> np.ndarray:
    """About ``count`` round contour levels inside the bulk of ``values``.

    The levels span the 2nd..98th percentile (the extremes of a kernel expansion are often single
    spikes at the expansion points), are multiples of a round step, and contain ``include`` (the
    decision threshold 0) when it lies in range; ``symmetric`` centres the range on 0.
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if v.size == 0 or count <= 0:
        return np.zeros(0)
    lo, hi = np.percentile(v, [2.0, 98.0])
    if symmetric:
        m = max(abs(lo), abs(hi))
        lo, hi = -m, m
    if not hi > lo:
        return np.array([float(lo)]) if include is None or lo == include else np.zeros(0)
    step = nice_step(hi - lo, count)
    start = np.ceil(lo / step) * step
    levels = start + step * np.arange(int(np.floor((hi - start) / step + 1e-9)) + 1)
    # Round away binary noise so that labels read "0.2", not "0.20000000000000004".
    levels = np.round(levels / step) * step
    levels[np.abs(levels) < step * 1e-9] = 0.0
    if include is not None and lo <= include <= hi and not np.any(np.isclose(levels, include)):
        levels = np.sort(np.append(levels, include))
    return levels


def contour_lines(xs: np.ndarray, ys: np.ndarray, values: np.ndarray, levels) -> list[ContourLine]:
    """Iso-lines of a row-major grid (values[b, a] at (xs[a], ys[b])) at each level."""
    values = np.asarray(values, dtype=float)
    gen = contour_generator(x=xs, y=ys, z=values, line_type=LineType.Separate)
    out = []
    for level in np.atleast_1d(levels):
        pieces = [np.asarray(p, dtype=float) for p in gen.lines(float(level)) if len(p) >= 2]
        out.append(pack_lines(float(level), pieces))
    return out


def pack_lines(level: float, pieces: list[np.ndarray]) -> ContourLine:
    if not pieces:
        return ContourLine(level, np.zeros((0, 2)), None, 0)
    gap = np.full((1, 2), np.nan)
    parts = []
    for p in pieces:
        parts.extend((p, gap))
    path = np.concatenate(parts[:-1])
    longest = max(pieces, key=lambda p: np.sum(np.hypot(*np.diff(p, axis=0).T)))
    mid = longest[len(longest) // 2]
    return ContourLine(level, path, (float(mid[0]), float(mid[1])), len(pieces))


def label_boundaries(
    xs: np.ndarray, ys: np.ndarray, labels: np.ndarray, classes: np.ndarray
) -> ContourLine:
    """The lines where a grid of predicted labels changes class (multi-class decision regions)."""
    pieces: list[np.ndarray] = []
    for c in classes:
        indicator = (labels == c).astype(float)
        if indicator.min() == indicator.max():
            continue
        gen = contour_generator(x=xs, y=ys, z=indicator, line_type=LineType.Separate)
        pieces.extend(np.asarray(p, dtype=float) for p in gen.lines(0.5) if len(p) >= 2)
    return pack_lines(0.0, pieces)


def score_boundaries(xs: np.ndarray, ys: np.ndarray, scores: np.ndarray) -> ContourLine:
    """The borders between predicted classes, from per-class scores on a grid (ny, nx, r).

    The predicted class is the one with the highest score, so class c's region is where
    s_c - max_{j != c} s_j > 0: its border is the zero level of that smooth surface, traced with
    sub-cell accuracy (the level 0.5 of a 0/1 label grid gives a staircase of cell diagonals).
    A border between two classes is traced from both sides, on the same line.
    """
    scores = np.asarray(scores, dtype=float)
    pieces: list[np.ndarray] = []
    for c in range(scores.shape[2]):
        others = np.delete(scores, c, axis=2).max(axis=2)
        margin = scores[:, :, c] - others
        if not np.all(np.isfinite(margin)) or margin.min() >= 0 or margin.max() <= 0:
            continue
        gen = contour_generator(x=xs, y=ys, z=margin, line_type=LineType.Separate)
        pieces.extend(np.asarray(p, dtype=float) for p in gen.lines(0.0) if len(p) >= 2)
    return pack_lines(0.0, pieces)


@dataclass(frozen=True)
class Histograms:
    """Per-class output histograms with shared bins, training and test kept apart.

    ``density[(label, role)]`` is a density over ``edges`` (it integrates to one), role "train" or
    "test"; groups without points are absent. ``counts`` holds the raw counts.
    """

    edges: np.ndarray
    density: dict
    counts: dict

    @property
    def centres(self) -> np.ndarray:
        return 0.5 * (self.edges[:-1] + self.edges[1:])


def output_histograms(
    outputs: np.ndarray,
    labels: np.ndarray | None,
    test_mask: np.ndarray,
    bins: int,
    *,
    include: float | None = None,
) -> Histograms:
    """Histograms of ``outputs`` per class and role over one set of bins for all points."""
    if isinstance(bins, bool) or int(bins) != bins or bins < 1:
        raise ValueError(
            f"the number of histogram bins must be a whole number of at least 1, not {bins!r}"
        )
    z = np.asarray(outputs, dtype=float)
    finite = np.isfinite(z)
    if not finite.any():
        edges = np.linspace(-1.0, 1.0, bins + 1)
    else:
        lo, hi = float(z[finite].min()), float(z[finite].max())
        if include is not None:
            lo, hi = min(lo, include), max(hi, include)
        if hi - lo < 1e-12 * max(1.0, abs(lo)):
            lo, hi = lo - 0.5, hi + 0.5
        pad = 0.02 * (hi - lo)
        edges = np.linspace(lo - pad, hi + pad, int(bins) + 1)
    width = np.diff(edges)
    density, counts = {}, {}
    group_labels = np.zeros(z.size, int) if labels is None else np.asarray(labels)
    for label in np.unique(group_labels):
        for role, mask in (("train", ~test_mask), ("test", test_mask)):
            sel = (group_labels == label) & mask & finite
            if not sel.any():
                continue
            c, _ = np.histogram(z[sel], bins=edges)
            key = (label.item() if hasattr(label, "item") else label, role)
            counts[key] = c
            density[key] = c / (c.sum() * width)
    return Histograms(edges, density, counts)
