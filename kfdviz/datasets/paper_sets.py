"""Generators for the data sets of the papers' figures and benchmark tables.

Label convention (the whole package): classes are the integers 0..k-1, a one-class set is all 0,
regression targets are floats. Where the papers or the IDA benchmark write labels as -1/+1,
label 1 here is their +1 and label 0 their -1 (see each generator), so a model trained on
generated data reads the same way as one trained on the benchmark files.
"""

from __future__ import annotations

import numpy as np

from ._checks import (
    check_bool,
    check_choice,
    check_float,
    check_int,
    class_counts,
    class_sizes,
    shuffled,
    stack_classes,
)
from .registry import generator


@generator(
    title="Structureless sample",
    source="TPAMI 2003, Fig. 1 (Mika et al.): a sample with no structure of its own",
    task="one-class",
    dimension=2,
    n_classes=1,
)
def structureless(rng, *, n_samples=100, shape="square", scale=1.0):
    """Points with no structure: uniform in a square, or an isotropic Gaussian blob.

    shape="square": uniform in [-scale, scale]^2 (each coordinate has mean 0, variance
    scale^2/3). shape="blob": N(0, scale^2 I). Shape (n_samples, 2); y all 0.
    """
    n = check_int("n_samples", n_samples, low=1)
    shape = check_choice("shape", shape, ("square", "blob"))
    scale = check_float("scale", scale, low=0.0, low_open=True)
    if shape == "square":
        X = rng.uniform(-scale, scale, size=(n, 2))
    else:
        X = scale * rng.standard_normal((n, 2))
    return X, np.zeros(n, dtype=np.int64)


@generator(
    title="Two mirrored parabolas",
    source="Mika et al. 1999, Fig. 1 (KFD vs. the first two KPCA features)",
    task="classification",
    dimension=2,
)
def parabolas(rng, *, n_samples=100, noise=0.1, weights=None, half_width=2.0, gap=0.5):
    """Two classes on two parabolas mirrored about the axes, with Gaussian noise.

    Class 0: x ~ U[-half_width, half_width], y = x^2 + gap/2; class 1: y = -(x^2 + gap/2), the
    mirror image about the x-axis (and, the parabolas being symmetric, about the origin). Both
    coordinates get N(0, noise^2) noise. With the defaults the set is wide (x^2 up to 4), so the
    leading kernel PCA features of a degree-2 polynomial kernel describe the overall shape and
    do not separate the classes, while the inhomogeneous kernel (x.z + 1)^2 contains the linear
    feature y, on which a KFD reaches zero training error. The classes are point-symmetric about
    the origin, so the homogeneous kernel (x.z)^2 (features x^2, xy, y^2) cannot tell them apart:
    use coef0 = 1.
    """
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    w = check_float("half_width", half_width, low=0.0, low_open=True)
    gap = check_float("gap", gap, low=0.0)
    parts = []
    for k, sign in enumerate((1.0, -1.0)):
        x = rng.uniform(-w, w, counts[k])
        pts = np.column_stack([x, sign * (x**2 + gap / 2)])
        parts.append(pts + noise * rng.standard_normal(pts.shape))
    return shuffled(*stack_classes(parts), rng)


@generator(
    title="Twonorm (Breiman)",
    source="Breiman 1996; IDA benchmark (TPAMI 2003 Table 1, Mika et al. 1999)",
    task="classification",
    dimension=lambda p: p["dim"],
)
def twonorm(rng, *, n_samples=400, dim=20, weights=None, shift=None):
    """Breiman's twonorm: two Gaussians with identity covariance and opposite means.

    Class 0 ~ N(-a 1, I), class 1 ~ N(+a 1, I) with a = shift, by default 2/sqrt(dim) (Breiman's
    2/sqrt(20) for dim = 20; the means stay 4 apart, so the Bayes error, about 2.3 %, does not
    depend on dim). Label 1 is IDA's +1 (the class with the positive mean). Shape (n, dim).
    """
    counts = class_sizes(n_samples, weights, 2)
    dim = check_int("dim", dim, low=1)
    a = 2.0 / np.sqrt(dim) if shift is None else check_float("shift", shift)
    parts = [
        s * a + rng.standard_normal((c, dim)) for s, c in zip((-1.0, 1.0), counts, strict=True)
    ]
    return shuffled(*stack_classes(parts), rng)


@generator(
    title="Ringnorm (Breiman)",
    source="Breiman 1996; IDA benchmark; NIPS 2000 Fig. 2 (output distributions)",
    task="classification",
    dimension=lambda p: p["dim"],
)
def ringnorm(rng, *, n_samples=400, dim=20, weights=None, shift=None):
    """Breiman's ringnorm: a wide Gaussian around a narrow, shifted one.

    Class 0 ~ N(a 1, I), class 1 ~ N(0, 4 I) (per-coordinate variances 1 and 4). a = shift, by
    default 2/sqrt(dim): the IDA files (and the DELVE description) have class means 2/sqrt(20)
    apart per coordinate, twice the 1/sqrt(20) often quoted; pass shift=1/sqrt(20) for that
    reading. Label 1 is IDA's +1, which there is the wide N(0, 4I) class. Shape (n, dim).
    """
    counts = class_sizes(n_samples, weights, 2)
    dim = check_int("dim", dim, low=1)
    a = 2.0 / np.sqrt(dim) if shift is None else check_float("shift", shift)
    narrow = a + rng.standard_normal((counts[0], dim))
    wide = 2.0 * rng.standard_normal((counts[1], dim))
    return shuffled(*stack_classes([narrow, wide]), rng)


def _waveform_bases() -> np.ndarray:
    """Breiman's three triangular waves on 21 points: h1 peaks at 11, h2 at 15, h3 at 7."""
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h2 = np.maximum(6 - np.abs(i - 15), 0)
    h3 = np.maximum(6 - np.abs(i - 7), 0)
    return np.vstack([h1, h2, h3]).astype(np.float64)


# Which two base waves each of Breiman's three classes mixes (indices into _waveform_bases).
_WAVEFORM_PAIRS = ((0, 1), (0, 2), (1, 2))


@generator(
    title="Waveform (Breiman), two-class as in IDA",
    source="Breiman et al. 1984 (CART); IDA benchmark (TPAMI 2003 Table 1)",
    task="classification",
    dimension=21,
    n_classes=lambda p: 3 if p["three_class"] else 2,
)
def waveform(rng, *, n_samples=400, weights=None, three_class=False):
    """Breiman's 21-D waveform data, by default as the IDA benchmark's two-class problem.

    Base waves on i = 1..21: h1 = max(6 - |i - 11|, 0), h2 = h1 shifted to peak at 15, h3 shifted
    to peak at 7. Breiman's classes are u*ha + (1-u)*hb + N(0, I), u ~ U[0, 1], with (ha, hb) =
    (h1, h2), (h1, h3), (h2, h3). The IDA waveform set is one of these classes against the other
    two: its +1 class holds a third of the points and its mean profile is the (h1, h3) one, so
    here label 1 is Breiman's (h1, h3) class and label 0 the union of the other two, and
    ``weights`` default to (2/3, 1/3) as in IDA. three_class=True gives Breiman's original three
    classes, labels 0, 1, 2 in the order above (weights then default to equal).
    """
    three_class = check_bool("three_class", three_class)
    if three_class:
        counts = class_sizes(n_samples, weights, 3)
        members = counts
    else:
        counts = class_sizes(n_samples, (2.0, 1.0) if weights is None else weights, 2)
        # Class 0 is Breiman's (h1, h2) and (h2, h3) classes in equal parts.
        members = np.array([counts[0] - counts[0] // 2, counts[1], counts[0] // 2])
    bases = _waveform_bases()
    parts = []
    for (a, b), m in zip(_WAVEFORM_PAIRS, members, strict=True):
        u = rng.uniform(0.0, 1.0, (m, 1))
        parts.append(u * bases[a] + (1.0 - u) * bases[b] + rng.standard_normal((m, 21)))
    X, y = stack_classes(parts)
    if not three_class:
        y = (y == 1).astype(np.int64)
    return shuffled(X, y, rng)


@generator(
    title="Sinc regression",
    source="NIPS 2000 (Mika, Rätsch, Müller), Fig. 3 (KFD regression)",
    task="regression",
    dimension=1,
)
def sinc(rng, *, n_samples=100, noise=0.0, low=-10.0, high=10.0):
    """y = sin(x)/x at n_samples equally spaced x in [low, high], plus N(0, noise^2) noise.

    X has shape (n_samples, 1) with X[:, 0] = linspace(low, high, n_samples), in that order;
    y is float (sinc(0) = 1). The paper's figure uses 100 points, noise 0 and noise 0.2.
    """
    n = check_int("n_samples", n_samples, low=1)
    noise = check_float("noise", noise, low=0.0)
    low = check_float("low", low)
    high = check_float("high", high)
    if high < low:
        raise ValueError(f"high must be at least low ({low}), got {high}")
    x = np.linspace(low, high, n)
    y = np.sinc(x / np.pi)
    if noise > 0:
        y = y + noise * rng.standard_normal(n)
    return x[:, None], y


def _along_polyline(rng, vertices: np.ndarray, n: int) -> np.ndarray:
    """n points uniformly distributed along the closed or open polyline through ``vertices``."""
    seg = np.diff(vertices, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    cum = np.concatenate([[0.0], np.cumsum(lengths)])
    s = rng.uniform(0.0, cum[-1], n)
    k = np.clip(np.searchsorted(cum, s, side="right") - 1, 0, len(seg) - 1)
    t = (s - cum[k]) / lengths[k]
    return vertices[k] + t[:, None] * seg[k]


# Hoffmann's figure leaves the geometry out; these are chosen to give the figure's look at his
# kernel width sigma = 0.4: the three shapes are about 1 apart.
_RING_CENTER, _RING_RADIUS = np.array([-1.5, 0.75]), 1.0
_SQUARE_CENTER, _SQUARE_HALF = np.array([1.5, 0.75]), 1.0
_LINE_ENDS = np.array([[-2.5, -1.25], [2.5, -1.25]])


@generator(
    title="Ring, line and square",
    source="Hoffmann 2007, Kernel PCA for novelty detection, Fig. 3",
    task="one-class",
    dimension=2,
    n_classes=lambda p: 3 if p["label_shapes"] else 1,
)
def ring_line_square(rng, *, n_samples=600, noise=0.02, label_shapes=False):
    """Points spread evenly along a ring, a line segment and a square outline.

    Ring: centre (-1.5, 0.75), radius 1. Square outline: centre (1.5, 0.75), side 2. Line:
    from (-2.5, -1.25) to (2.5, -1.25). Each shape gets points in proportion to its length
    (2*pi : 5 : 8), at uniformly random positions along it, plus N(0, noise^2) noise. y is all
    0 (one class); label_shapes=True labels ring 0, line 1, square 2 instead.
    """
    n = check_int("n_samples", n_samples, low=1)
    noise = check_float("noise", noise, low=0.0)
    label_shapes = check_bool("label_shapes", label_shapes)
    lengths = np.array([2 * np.pi * _RING_RADIUS, 5.0, 8 * _SQUARE_HALF])
    counts = class_counts(n, lengths / lengths.sum())
    angle = rng.uniform(0.0, 2 * np.pi, counts[0])
    ring = _RING_CENTER + _RING_RADIUS * np.column_stack([np.cos(angle), np.sin(angle)])
    line = _along_polyline(rng, _LINE_ENDS, counts[1])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]], dtype=float)
    square = _along_polyline(rng, _SQUARE_CENTER + _SQUARE_HALF * corners, counts[2])
    X, y = stack_classes([ring, line, square])
    X = X + noise * rng.standard_normal(X.shape)
    if not label_shapes:
        y = np.zeros_like(y)
    return shuffled(X, y, rng)


@generator(
    title="Spiral",
    source="Hoffmann 2007, Kernel PCA for novelty detection, Fig. 4",
    task="one-class",
    dimension=2,
    n_classes=lambda p: p["arms"],
)
def spiral(rng, *, n_samples=400, noise=0.02, turns=2.0, arms=1, weights=None):
    """Points spread evenly (by arc length) along an Archimedean spiral, or several arms.

    Arm k: radius r = 2t, angle 2*pi*(turns*t + k/arms), t in [0.1, 1], so the outermost radius
    is 2 and successive turns of one arm are 2/turns apart. Plus N(0, noise^2) noise. With one
    arm, y is all 0 (Hoffmann's novelty data); with several, y is the arm (the classic
    two-spirals problem for arms=2).
    """
    arms = check_int("arms", arms, low=1, high=16)
    counts = class_sizes(n_samples, weights, arms)
    noise = check_float("noise", noise, low=0.0)
    turns = check_float("turns", turns, low=0.0, low_open=True)
    grid = np.linspace(0.1, 1.0, 2049)
    speed = 2.0 * np.sqrt(1.0 + (2 * np.pi * turns * grid) ** 2)  # |d(point)/dt|
    arc = np.concatenate([[0.0], np.cumsum(0.5 * (speed[1:] + speed[:-1]) * np.diff(grid))])
    parts = []
    for k, c in enumerate(counts):
        t = np.interp(rng.uniform(0.0, arc[-1], c), arc, grid)
        angle = 2 * np.pi * (turns * t + k / arms)
        pts = 2.0 * t[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
        parts.append(pts + noise * rng.standard_normal(pts.shape))
    return shuffled(*stack_classes(parts), rng)


@generator(
    title="Sine curve plus uniform noise",
    source="Hoffmann 2007, Kernel PCA for novelty detection, Fig. 6 and the width sweep",
    task="one-class",
    dimension=2,
    n_classes=lambda p: 2 if p["mark_background"] else 1,
)
def sine_noise(rng, *, n_samples=350, noise=0.05, background=2 / 7, mark_background=False):
    """Samples from a sine curve plus a fraction of uniform background points.

    Curve points: x ~ U[-pi, pi], y = sin(x) + N(0, noise^2). Background points (a fraction
    ``background`` of all, default 2/7, the nu of Hoffmann's one-class SVM): uniform in
    [-pi, pi] x [-2, 2]. y is all 0 (one class: the novelty detector is trained on all of it);
    mark_background=True labels the background points 1, for scoring a detector.
    """
    n = check_int("n_samples", n_samples, low=1)
    noise = check_float("noise", noise, low=0.0)
    frac = check_float("background", background, low=0.0, high=1.0)
    mark = check_bool("mark_background", mark_background)
    n_curve, n_back = class_counts(n, np.array([1.0 - frac, frac]))
    x = rng.uniform(-np.pi, np.pi, n_curve)
    curve = np.column_stack([x, np.sin(x) + noise * rng.standard_normal(n_curve)])
    back = np.column_stack([rng.uniform(-np.pi, np.pi, n_back), rng.uniform(-2.0, 2.0, n_back)])
    X, y = stack_classes([curve, back])
    if not mark:
        y = np.zeros_like(y)
    return shuffled(X, y, rng)


@generator(
    title="Iris (Fisher)",
    source="Fisher 1936, as shipped with scikit-learn; KOC paper (Park & Park 2002), Fig. 1",
    task="classification",
    dimension=4,
    n_classes=3,
)
def iris(rng):
    """Fisher's iris measurements: 150 points, 4 features (cm), 3 classes of 50, in file order.

    Labels 0 setosa, 1 versicolor, 2 virginica. The seed has no effect.
    """
    # Imported here: sklearn.datasets costs about half a second of start-up.
    from sklearn.datasets import load_iris

    data = load_iris()
    return np.array(data.data, dtype=np.float64), np.array(data.target, dtype=np.int64)


@generator(
    title="Three crossing cuboids",
    source="KOC paper (Park & Park 2002), Fig. 2 and Fig. 3",
    task="classification",
    dimension=3,
    n_classes=3,
)
def cuboids(rng, *, n_samples=600, weights=None, length=18.5, width=4.0, height=1.4):
    """Three classes uniform in three cuboids centred at the origin, crossing each other.

    Class k has its long side (``length``) along axis k, its ``width`` along axis k+1 and its
    ``height`` along axis k+2 (mod 3): class 0 spans 18.5 x 4 x 1.4 in (x, y, z), class 1
    1.4 x 18.5 x 4, class 2 4 x 1.4 x 18.5. The paper's 200 points per class are the default.
    """
    counts = class_sizes(n_samples, weights, 3)
    sides = [
        check_float(name, v, low=0.0, low_open=True)
        for name, v in (("length", length), ("width", width), ("height", height))
    ]
    parts = []
    for k, c in enumerate(counts):
        extent = np.empty(3)
        for j in range(3):
            extent[(k + j) % 3] = sides[j]
        parts.append(rng.uniform(-0.5, 0.5, (c, 3)) * extent)
    return shuffled(*stack_classes(parts), rng)


@generator(
    title="Breast cancer (Wisconsin diagnostic)",
    source="Wolberg, Street, Mangasarian 1995, as shipped with scikit-learn; Hoffmann 2007, "
    "novelty detection on real data (ROC curves)",
    task="classification",
    dimension=30,
    n_classes=2,
)
def breast_cancer(rng, *, standardize=True):
    """569 tumours, 30 features of their cell nuclei; label 0 benign (357), 1 malignant (212).

    scikit-learn's own labels are the other way round (0 malignant); here benign, the normal
    class of a novelty detector, is 0. ``standardize`` scales every feature to mean 0 and
    standard deviation 1 (the features' units differ by four orders of magnitude). The seed has
    no effect.
    """
    from sklearn.datasets import load_breast_cancer  # start-up cost, as for iris above

    standardize = check_bool("standardize", standardize)
    data = load_breast_cancer()
    X = np.array(data.data, dtype=np.float64)
    if standardize:
        X = (X - X.mean(axis=0)) / X.std(axis=0)
    return X, np.array(1 - data.target, dtype=np.int64)


@generator(
    title="Handwritten digits, 8 x 8",
    source="UCI optical digits, as shipped with scikit-learn; Hoffmann 2007, Fig. 11",
    task="classification",
    dimension=64,
    n_classes=10,
)
def digits(rng, *, digit=None, scaled=False):
    """1797 images of 8 x 8 pixels (values 0-16, row by row), labels 0-9, in file order.

    ``digit`` keeps only the images of that digit (their label becomes 0: a one-class set);
    ``scaled`` divides the values by 16, so that a pixel is the fraction of it inked. The seed
    has no effect.
    """
    from sklearn.datasets import load_digits  # start-up cost, as for iris above

    scaled = check_bool("scaled", scaled)
    data = load_digits()
    X = np.array(data.data, dtype=np.float64) / (16.0 if scaled else 1.0)
    y = np.array(data.target, dtype=np.int64)
    if digit is not None:
        digit = check_int("digit", digit, low=0, high=9)
        keep = y == digit
        return X[keep], np.zeros(int(keep.sum()), dtype=np.int64)
    return X, y


@generator(
    title="Two blobs with outliers",
    source="NIPS 2001 (Mika, Rätsch, Müller), Fig. 1: what a loss does with a few outliers",
    task="classification",
    dimension=2,
    n_classes=2,
)
def outlier_blobs(rng, *, n_samples=100, n_outliers=10, noise=0.5, weights=None):
    """Two round Gaussian classes (centres (−1, 0) and (1, 0), standard deviation ``noise``),
    of which ``n_outliers`` points of class 1 lie far on class 0's side instead, near (−4, 0)
    (standard deviation 0.3). ``n_samples`` and ``weights`` count the outliers in class 1.
    """
    counts = class_sizes(n_samples, weights, 2)
    noise = check_float("noise", noise, low=0.0)
    n_outliers = check_int("n_outliers", n_outliers, low=0, high=int(counts[1]))
    regular = int(counts[1]) - n_outliers
    parts = [
        np.array([-1.0, 0.0]) + noise * rng.standard_normal((counts[0], 2)),
        np.vstack(
            [
                np.array([1.0, 0.0]) + noise * rng.standard_normal((regular, 2)),
                np.array([-4.0, 0.0]) + 0.3 * rng.standard_normal((n_outliers, 2)),
            ]
        ),
    ]
    return shuffled(*stack_classes(parts), rng)
