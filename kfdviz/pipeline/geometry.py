"""Plain-array geometry for the pictures: grid boxes, contour levels and lines, histograms.

Everything here is numpy/contourpy only, so the GUI, the command line and the tests draw from the
same numbers.
"""

from __future__ import annotations

import math
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


def box_for_aspect(box, aspect: float) -> tuple[float, float, float, float]:
    """``box`` = (x0, x1, y0, y1) with its shorter side (for width / height ``aspect``) extended
    about its centre: the result has that shape and holds all of ``box``."""
    x0, x1, y0, y1 = (float(v) for v in box)
    if not (math.isfinite(aspect) and aspect > 0):
        raise ValueError(f"the aspect (width / height) must be a positive number, got {aspect!r}")
    w, h = x1 - x0, y1 - y0
    cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    if w / h < aspect:
        w = h * aspect
    else:
        h = w / aspect
    return (cx - 0.5 * w, cx + 0.5 * w, cy - 0.5 * h, cy + 0.5 * h)


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


# Grid cells per kernel length scale, and the most grid points along a side that buys.
CELLS_PER_SCALE = 3.0
MAX_RESOLUTION = 800


def resolution_for_scale(
    box: tuple[float, float, float, float], resolution: int, scale: float | None
) -> int:
    """``resolution``, raised so that a cell is at most a third of the kernel's length ``scale``.

    A Gaussian kernel exp(−‖x−z‖²/c) has details of size √c: a grid coarser than that misses
    whole regions of its level sets. The raise stops at ``MAX_RESOLUTION`` points along the
    longer side (finer details are left to :func:`missed_regions`); no scale, no raise.
    """
    if scale is None or not np.isfinite(scale) or scale <= 0:
        return int(resolution)
    longer = max(box[1] - box[0], box[3] - box[2])
    needed = int(np.ceil(CELLS_PER_SCALE * longer / scale))
    return int(max(resolution, min(needed, MAX_RESOLUTION)))


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


def split_pieces(line: ContourLine) -> list[np.ndarray]:
    """The separate polylines of a packed level set (the inverse of :func:`pack_lines`)."""
    if line.path.shape[0] == 0:
        return []
    gaps = np.flatnonzero(np.isnan(line.path[:, 0]))
    pieces = (p[np.isfinite(p[:, 0])] for p in np.split(line.path, gaps))
    return [p for p in pieces if p.shape[0] >= 2]


def refine_level_set(
    xs: np.ndarray,
    ys: np.ndarray,
    values: np.ndarray,
    pieces: list[np.ndarray],
    points: np.ndarray,
    point_values: np.ndarray,
    level: float,
    evaluate,
    *,
    scale: float | None = None,
    depth: int = 4,
    evaluate_grid=None,
) -> list[np.ndarray]:
    """The level set ``pieces`` of a grid, redrawn finer where it misplaces one of ``points``.

    A region smaller than a grid cell (an island of a narrow kernel around one point, or a hole)
    may hold no grid node, or only part of one cell's corners: the grid's lines then leave the
    point on the wrong side although the values at the point itself are known. For each such
    point (the parity of the lines' crossings on a ray up to the grid's top row, whose side the
    values there tell, disagrees with its value) the lines in the block of 3 x 3 cells around it
    are traced again on a finer grid: the values inside the block evaluated, those on its edge
    linear between the grid's nodes as the grid's own lines assume, so the new lines meet the
    old ones where they cross the block's edge. Blocks never overlap; inside a block the same is
    done again, ``depth`` times at most (a region of zero size, a point exactly at ``level``,
    stays unresolved). ``evaluate(P)`` gives the values at the (m, 2) points P;
    ``evaluate_grid(fx, fy)``, when given, the same values on a regular grid as an (ny, nx)
    array (a kernel expansion sums a grid far faster than its points); ``scale`` (the kernel's
    length scale, when it has one) makes the finer step at most a twentieth of it.
    """
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    values = np.asarray(values, dtype=float)
    P = np.asarray(points, dtype=float)[:, :2]
    pv = np.asarray(point_values, dtype=float)
    nx, ny = xs.size, ys.size
    pieces = list(pieces)
    if nx < 2 or ny < 2 or P.shape[0] == 0:
        return pieces
    i = np.searchsorted(xs, P[:, 0], side="right") - 1
    j = np.searchsorted(ys, P[:, 1], side="right") - 1
    ok = (i >= 0) & (i < nx - 1) & (j >= 0) & (j < ny - 1) & np.isfinite(pv)
    taken = np.zeros((ny - 1, nx - 1), bool)  # cells already in a refined block
    # One vectorized pass finds the points drawn on the wrong side; only those are looked at
    # again (one by one, as the blocks change the lines).
    idx = np.flatnonzero(ok)
    top_side = np.interp(P[idx, 0], xs, values[-1]) >= level
    drawn = top_side ^ (_crossings_above_all(pieces, P[idx]) % 2 == 1)
    for k in idx[drawn != (pv[idx] >= level)]:
        a, b = int(i[k]), int(j[k])
        if taken[b, a]:
            continue
        side = bool(pv[k] >= level)
        top = bool(np.interp(P[k, 0], xs, values[-1]) >= level)
        if top ^ (_crossings_above(pieces, P[k]) % 2 == 1) == side:
            continue  # drawn on its own side already
        a0, a1, b0, b1 = max(a - 1, 0), min(a + 2, nx - 1), max(b - 1, 0), min(b + 2, ny - 1)
        if taken[b0:b1, a0:a1].any():
            a0, a1, b0, b1 = a, a + 1, b, b + 1
        taken[b0:b1, a0:a1] = True
        cell = max(xs[a + 1] - xs[a], ys[b + 1] - ys[b])
        sub = 8 if scale is None or scale <= 0 else int(np.clip(np.ceil(20 * cell / scale), 8, 32))
        fx = np.linspace(xs[a0], xs[a1], (a1 - a0) * sub + 1)
        fy = np.linspace(ys[b0], ys[b1], (b1 - b0) * sub + 1)
        z = _block_values(
            xs[a0 : a1 + 1], ys[b0 : b1 + 1], values[b0 : b1 + 1, a0 : a1 + 1], fx, fy
        )
        if evaluate_grid is not None:
            z[1:-1, 1:-1] = np.asarray(evaluate_grid(fx[1:-1], fy[1:-1]), dtype=float)
        else:
            gx, gy = np.meshgrid(fx[1:-1], fy[1:-1])
            inner = np.asarray(evaluate(np.column_stack([gx.ravel(), gy.ravel()])), dtype=float)
            z[1:-1, 1:-1] = inner.reshape(gy.shape)
        gen = contour_generator(x=fx, y=fy, z=z, line_type=LineType.Separate)
        new = [np.asarray(p, dtype=float) for p in gen.lines(float(level)) if len(p) >= 2]
        rect = (fx[0], fx[-1], fy[0], fy[-1])
        if depth > 1:
            mine = (P[:, 0] >= rect[0]) & (P[:, 0] <= rect[1])
            mine &= (P[:, 1] >= rect[2]) & (P[:, 1] <= rect[3])
            new = refine_level_set(
                fx,
                fy,
                z,
                new,
                P[mine],
                pv[mine],
                level,
                evaluate,
                scale=scale,
                depth=depth - 1,
                evaluate_grid=evaluate_grid,
            )
        pieces = _cut_out(pieces, rect) + new
    return pieces


def _block_values(xs, ys, values, fx, fy) -> np.ndarray:
    """A finer grid over a block whose edge values are linear between the block's nodes."""
    z = np.empty((fy.size, fx.size))
    z[0] = np.interp(fx, xs, values[0])
    z[-1] = np.interp(fx, xs, values[-1])
    z[:, 0] = np.interp(fy, ys, values[:, 0])
    z[:, -1] = np.interp(fy, ys, values[:, -1])
    return z


def _crossings_above(pieces: list[np.ndarray], point: np.ndarray) -> int:
    """How often the polylines ``pieces`` cross the vertical ray up from ``point``."""
    px, py = float(point[0]), float(point[1])
    count = 0
    for p in pieces:
        x0, y0, x1, y1 = p[:-1, 0], p[:-1, 1], p[1:, 0], p[1:, 1]
        straddle = (x0 <= px) != (x1 <= px)
        if not straddle.any():
            continue
        t = (px - x0[straddle]) / (x1[straddle] - x0[straddle])
        count += int(np.sum(y0[straddle] + t * (y1[straddle] - y0[straddle]) > py))
    return count


def _crossings_above_all(pieces: list[np.ndarray], points: np.ndarray) -> np.ndarray:
    """:func:`_crossings_above` for many points at once (in blocks of segments)."""
    counts = np.zeros(len(points), dtype=np.int64)
    if not pieces or len(points) == 0:
        return counts
    S = np.concatenate([np.stack([p[:-1], p[1:]], axis=1) for p in pieces])
    px, py = points[:, 0][:, None], points[:, 1][:, None]
    step = max(1, 2_000_000 // max(len(points), 1))
    for start in range(0, S.shape[0], step):
        x0, y0 = S[start : start + step, 0, 0], S[start : start + step, 0, 1]
        x1, y1 = S[start : start + step, 1, 0], S[start : start + step, 1, 1]
        straddle = (x0 <= px) != (x1 <= px)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (px - x0) / (x1 - x0)
            above = straddle & (y0 + t * (y1 - y0) > py)
        counts += above.sum(axis=1)
    return counts


def _cut_out(pieces: list[np.ndarray], rect) -> list[np.ndarray]:
    """``pieces`` without their segments inside the closed rectangle ``rect`` = (x0, x1, y0, y1).

    Grid lines have their vertices on cell edges, so a segment of a cell inside a block of
    whole cells has both ends in the block, and one of a cell outside at most one.
    """
    x0, x1, y0, y1 = rect
    tol = 1e-9 * max(x1 - x0, y1 - y0)
    out = []
    for p in pieces:
        within = (
            (p[:, 0] >= x0 - tol)
            & (p[:, 0] <= x1 + tol)
            & (p[:, 1] >= y0 - tol)
            & (p[:, 1] <= y1 + tol)
        )
        drop = within[:-1] & within[1:]
        if not drop.any():
            out.append(p)
            continue
        start = 0
        for s in np.flatnonzero(drop):
            if s > start:
                out.append(p[start : s + 1])
            start = s + 1
        if start < len(p) - 1:
            out.append(p[start:])
    return out


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
