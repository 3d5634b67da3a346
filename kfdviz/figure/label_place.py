"""Where the level sets' value labels go: on their line, clear of each other and of the points.

A level set's label is read at its line. One fixed spot per line puts labels on top of each
other where lines crowd (a narrow kernel's nested rings) and under the data's markers, where
neither can be read. :func:`place_labels` tries spots along each line in turn (its preferred
spot first) and takes the first whose box lies inside the plot, overlaps no label already placed
and holds no marker; a line with no such spot goes without a label. The screen's view and the
painted figures (slides, exports) both place their labels with it, in their own pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

# Spots tried along a line, besides its preferred one.
SPOTS_PER_LINE = 24

Box = tuple[float, float, float, float]  # u0, v0, u1, v1 in pixels


def spots_along(path: np.ndarray, preferred=None, count: int = SPOTS_PER_LINE) -> np.ndarray:
    """Candidate label spots on a polyline ``path`` (rows (x, y), NaN rows between pieces):
    ``preferred`` first, then ``count`` vertices spread evenly along it."""
    finite = path[np.isfinite(path).all(axis=1)] if len(path) else np.zeros((0, 2))
    spots = [] if preferred is None else [np.asarray(preferred, dtype=float)]
    if len(finite):
        take = np.unique(np.linspace(0, len(finite) - 1, min(count, len(finite))).astype(int))
        # the middle of the line first, then outward: labels keep near where they were
        order = take[np.argsort(np.abs(take - (len(finite) - 1) / 2.0), kind="stable")]
        spots.extend(finite[order])
    return np.array(spots, dtype=float).reshape(-1, 2)


def place_labels(
    labels: Sequence[tuple[np.ndarray, float, float]],
    markers: np.ndarray,
    marker_radius: float,
    bounds: Box,
) -> list[tuple[float, float] | None]:
    """For each label (its candidate centres (k, 2) in pixels, its width and height), the
    centre chosen, or None when every candidate is taken.

    A box is free when it lies inside ``bounds``, meets no box placed before it and no marker
    (a disc of ``marker_radius`` pixels around each row of ``markers``) touches it.
    """
    placed: list[Box] = []
    markers = np.asarray(markers, dtype=float).reshape(-1, 2)
    out: list[tuple[float, float] | None] = []
    u0, v0, u1, v1 = bounds
    for spots, w, h in labels:
        chosen = None
        for u, v in np.asarray(spots, dtype=float).reshape(-1, 2):
            box = (u - w / 2, v - h / 2, u + w / 2, v + h / 2)
            if box[0] < u0 or box[1] < v0 or box[2] > u1 or box[3] > v1:
                continue
            if any(_overlap(box, other) for other in placed):
                continue
            if _touches_marker(box, markers, marker_radius):
                continue
            chosen = (float(u), float(v))
            placed.append(box)
            break
        out.append(chosen)
    return out


def place_in_view(labels, points, view_range, pixels, marker_radius: float) -> list:
    """:func:`place_labels` for a plot showing ``view_range`` ((x0, x1), (y0, y1)) in
    ``pixels`` (width, height): the labels' candidate spots and the ``points`` in data
    coordinates, their sizes and the markers' radius in pixels; the chosen centres in data
    coordinates (None: no label). Without a size yet every label keeps its first spot."""
    (x0, x1), (y0, y1) = view_range
    width, height = pixels
    sx = (x1 - x0) / width if width >= 2 else 0.0
    sy = (y1 - y0) / height if height >= 2 else 0.0
    if sx <= 0 or sy <= 0:
        return [tuple(spots[0]) if len(spots) else None for spots, _w, _h in labels]
    wanted = [
        (np.column_stack([(s[:, 0] - x0) / sx, (y1 - s[:, 1]) / sy]), w, h) for s, w, h in labels
    ]
    P = np.asarray(points, dtype=float).reshape(-1, 2) if len(points) else np.zeros((0, 2))
    markers = np.column_stack([(P[:, 0] - x0) / sx, (y1 - P[:, 1]) / sy])
    places = place_labels(wanted, markers, marker_radius, (0.0, 0.0, width, height))
    return [None if at is None else (x0 + at[0] * sx, y1 - at[1] * sy) for at in places]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches_marker(box: Box, markers: np.ndarray, radius: float) -> bool:
    if markers.shape[0] == 0:
        return False
    # the distance from each marker's centre to the box
    du = np.maximum(np.maximum(box[0] - markers[:, 0], markers[:, 0] - box[2]), 0.0)
    dv = np.maximum(np.maximum(box[1] - markers[:, 1], markers[:, 1] - box[3]), 0.0)
    return bool(np.any(du * du + dv * dv < radius * radius))


__all__ = ["place_in_view", "place_labels", "spots_along"]
