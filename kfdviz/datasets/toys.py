"""The usual toy data sets: moons, circles, xor, checkerboard, blobs, swiss roll, uniform noise.

Same conventions as the paper sets: X float64 (n_samples, dimension), y int64 labels 0..k-1,
rows shuffled, ``weights`` the class proportions (default equal; sizes are n_samples * weights
rounded so that they add up exactly).
"""

from __future__ import annotations

import numpy as np

from ._checks import (
    check_float,
    check_int,
    class_sizes,
    shuffled,
    stack_classes,
)
from .registry import generator


def _jitter(rng, parts, noise):
    return [p + noise * rng.standard_normal(p.shape) for p in parts]


@generator(title="Two moons", source="toy data", group="toy", task="classification", dimension=2)
def moons(rng, *, n_samples=200, noise=0.1, weights=None):
    """Two interleaved half circles of radius 1.

    Class 0: (cos t, sin t), t ~ U[0, pi]; class 1: (1 - cos t, 0.5 - sin t). Plus N(0, noise^2).
    """
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    t0 = rng.uniform(0.0, np.pi, counts[0])
    t1 = rng.uniform(0.0, np.pi, counts[1])
    upper = np.column_stack([np.cos(t0), np.sin(t0)])
    lower = np.column_stack([1.0 - np.cos(t1), 0.5 - np.sin(t1)])
    return shuffled(*stack_classes(_jitter(rng, [upper, lower], noise)), rng)


@generator(
    title="Concentric circles", source="toy data", group="toy", task="classification", dimension=2
)
def circles(rng, *, n_samples=200, noise=0.05, weights=None, factor=0.5):
    """Class 0 on the unit circle, class 1 on a circle of radius ``factor``, plus N(0, noise^2)."""
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    factor = check_float("factor", factor, low=0.0, low_open=True)
    parts = []
    for radius, c in zip((1.0, factor), counts, strict=True):
        t = rng.uniform(0.0, 2 * np.pi, c)
        parts.append(radius * np.column_stack([np.cos(t), np.sin(t)]))
    return shuffled(*stack_classes(_jitter(rng, parts, noise)), rng)


def _board(rng, counts, cells, noise):
    """Uniform points in the square [-cells/2, cells/2]^2 of unit cells; label = cell parity."""
    i, j = np.meshgrid(np.arange(cells), np.arange(cells), indexing="ij")
    parity = (i + j).ravel() % 2
    corners = np.column_stack([i.ravel(), j.ravel()]).astype(float) - cells / 2
    parts = []
    for k, c in enumerate(counts):
        mine = corners[parity == k]
        parts.append(mine[rng.integers(0, len(mine), c)] + rng.uniform(0.0, 1.0, (c, 2)))
    return shuffled(*stack_classes(_jitter(rng, parts, noise)), rng)


@generator(title="XOR", source="toy data", group="toy", task="classification", dimension=2)
def xor(rng, *, n_samples=200, noise=0.0, weights=None):
    """Uniform in [-1, 1]^2; label 1 where x and y have opposite signs (x*y < 0), else 0.

    Noise N(0, noise^2) is added after labelling, so it blurs the quadrant borders.
    """
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    return _board(rng, counts, 2, noise)


@generator(title="Checkerboard", source="toy data", group="toy", task="classification", dimension=2)
def checkerboard(rng, *, n_samples=400, noise=0.0, weights=None, cells=4):
    """Uniform in a cells x cells board of unit squares centred at the origin, two colours.

    The square with lower-left corner (-cells/2 + i, -cells/2 + j) has label (i + j) mod 2.
    Noise N(0, noise^2) is added after labelling. cells=2 is ``xor``.
    """
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    cells = check_int("cells", cells, low=2, high=64)
    return _board(rng, counts, cells, noise)


@generator(
    title="Gaussian blobs",
    source="toy data",
    group="toy",
    task="classification",
    dimension=lambda p: p["dim"],
    n_classes=lambda p: p["centers"],
)
def blobs(rng, *, n_samples=300, noise=0.5, weights=None, centers=3, dim=2, radius=2.0):
    """``centers`` isotropic Gaussian classes N(c_k, noise^2 I) with fixed, evenly spread means.

    For dim >= 2 the means sit on a circle of ``radius`` in the first two coordinates, at angles
    90 + 360 k/centers degrees (other coordinates 0); for dim = 1 they are evenly spaced in
    [-radius, radius].
    """
    centers = check_int("centers", centers, low=1, high=64)
    counts = class_sizes(n_samples, weights, centers)
    noise = check_float("noise", noise, low=0.0)
    dim = check_int("dim", dim, low=1)
    radius = check_float("radius", radius, low=0.0)
    means = np.zeros((centers, dim))
    if dim == 1:
        means[:, 0] = np.linspace(-radius, radius, centers) if centers > 1 else 0.0
    else:
        angle = np.pi / 2 + 2 * np.pi * np.arange(centers) / centers
        means[:, 0] = radius * np.cos(angle)
        means[:, 1] = radius * np.sin(angle)
    parts = [m + noise * rng.standard_normal((c, dim)) for m, c in zip(means, counts, strict=True)]
    return shuffled(*stack_classes(parts), rng)


@generator(
    title="Swiss roll",
    source="toy data",
    group="toy",
    task="classification",
    dimension=3,
    n_classes=lambda p: p["n_classes"],
)
def swiss_roll(rng, *, n_samples=600, noise=0.0, weights=None, n_classes=4, height=21.0):
    """The swiss roll in 3-D, labelled by position along the roll.

    t ~ uniform in [1.5 pi, 4.5 pi], h ~ U[0, height]; point (t cos t, h, t sin t) plus
    N(0, noise^2 I). The t range is cut into n_classes equal pieces, label k for the k-th from
    the inside; ``weights`` sets how many points each piece gets.
    """
    n_classes = check_int("n_classes", n_classes, low=1, high=64)
    counts = class_sizes(n_samples, weights, n_classes)
    noise = check_float("noise", noise, low=0.0)
    height = check_float("height", height, low=0.0)
    edges = np.linspace(1.5 * np.pi, 4.5 * np.pi, n_classes + 1)
    parts = []
    for k, c in enumerate(counts):
        t = rng.uniform(edges[k], edges[k + 1], c)
        h = rng.uniform(0.0, height, c)
        parts.append(np.column_stack([t * np.cos(t), h, t * np.sin(t)]))
    return shuffled(*stack_classes(_jitter(rng, parts, noise)), rng)


@generator(
    title="Uniform noise",
    source="toy data",
    group="toy",
    task="classification",
    dimension=lambda p: p["dim"],
    n_classes=lambda p: p["n_classes"],
)
def uniform(rng, *, n_samples=200, dim=2, n_classes=2, weights=None, low=-1.0, high=1.0):
    """Uniform in the box [low, high]^dim with labels that carry no information.

    Class sizes follow ``weights``; which point gets which label is random. n_classes=1 gives
    plain one-class noise.
    """
    n_classes = check_int("n_classes", n_classes, low=1, high=64)
    counts = class_sizes(n_samples, weights, n_classes)
    dim = check_int("dim", dim, low=1)
    low = check_float("low", low)
    high = check_float("high", high)
    if high <= low:
        raise ValueError(f"high must be greater than low ({low}), got {high}")
    parts = [rng.uniform(low, high, (c, dim)) for c in counts]
    return shuffled(*stack_classes(parts), rng)
