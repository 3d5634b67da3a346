"""Generators: documented shapes and statistics, determinism, parameter checking."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets

ALL = datasets.names()


def test_names_cover_the_papers_and_the_toys():
    expected = {
        "structureless",
        "parabolas",
        "twonorm",
        "ringnorm",
        "waveform",
        "sinc",
        "ring_line_square",
        "spiral",
        "sine_noise",
        "iris",
        "cuboids",
        "breast_cancer",
        "digits",
        "outlier_blobs",
        "banana",
        "moons",
        "circles",
        "xor",
        "checkerboard",
        "blobs",
        "swiss_roll",
        "uniform",
    }
    assert set(ALL) == expected
    groups = [datasets.describe(n)["group"] for n in ALL]
    assert groups == sorted(groups, key=lambda g: g != "paper")


@pytest.mark.parametrize("name", ALL)
def test_output_matches_description(name):
    info = datasets.describe(name)
    X, y = datasets.make(name)
    assert X.dtype == np.float64 and X.ndim == 2 and X.flags.c_contiguous
    assert X.shape == (y.shape[0], info["dimension"])
    assert np.all(np.isfinite(X))
    if info["task"] == "regression":
        assert info["n_classes"] == "regression"
        assert y.dtype == np.float64
    else:
        assert y.dtype == np.int64
        assert set(np.unique(y)) == set(range(info["n_classes"]))
    n_default = info["parameters"].get("n_samples")
    if n_default is not None:
        assert X.shape[0] == n_default
    for key in ("title", "source", "description"):
        assert isinstance(info[key], str) and info[key]


@pytest.mark.parametrize("name", ALL)
def test_deterministic_per_seed_and_different_across_seeds(name):
    X1, y1 = datasets.make(name, seed=3)
    X2, y2 = datasets.make(name, seed=3)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    X3, _ = datasets.make(name, seed=4)
    if name in ("iris", "sinc", "breast_cancer", "digits"):
        # Fixed data (iris, breast cancer, digits) and noise-free equally spaced samples (sinc)
        # do not depend on it.
        np.testing.assert_array_equal(X1, X3)
    else:
        assert not np.array_equal(X1, X3)


@pytest.mark.parametrize("name", ALL)
def test_make_does_not_touch_global_random_state(name):
    before = np.random.get_state()[1].copy()  # noqa: NPY002
    datasets.make(name)
    np.testing.assert_array_equal(np.random.get_state()[1], before)  # noqa: NPY002


@pytest.mark.parametrize(
    "name", [n for n in ALL if "n_samples" in datasets.describe(n)["parameters"]]
)
def test_n_samples_is_respected(name):
    X, y = datasets.make(name, n_samples=37)
    assert X.shape[0] == y.shape[0] == 37


@pytest.mark.parametrize(
    "name", [n for n in ALL if "weights" in datasets.describe(n)["parameters"]]
)
def test_weights_set_class_sizes_exactly(name):
    k = datasets.describe(name)["n_classes"]
    weights = np.arange(1, k + 1, dtype=float)
    n = 30 * int(weights.sum())
    _, y = datasets.make(name, n_samples=n, weights=list(weights))
    np.testing.assert_array_equal(np.bincount(y, minlength=k), 30 * weights.astype(int))


def test_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="unknown data set 'twonrm'") as info:
        datasets.make("twonrm")
    for name in ALL:
        assert name in str(info.value)
    with pytest.raises(ValueError, match="twonrm"):
        datasets.describe("twonrm")


def test_unknown_parameter_lists_valid_ones():
    with pytest.raises(ValueError) as info:
        datasets.make("twonorm", nosie=0.1)
    message = str(info.value)
    assert "'nosie'" in message and "twonorm" in message
    for valid in ("seed", "n_samples", "dim", "weights"):
        assert valid in message
    with pytest.raises(ValueError, match="'noise'"):
        datasets.make("iris", noise=0.1)


@pytest.mark.parametrize(
    ("name", "params", "fragment"),
    [
        ("twonorm", {"n_samples": 0}, "n_samples must be at least 1"),
        ("twonorm", {"n_samples": 2.5}, "n_samples must be an integer"),
        ("twonorm", {"n_samples": True}, "n_samples must be an integer"),
        ("moons", {"noise": -1.0}, "noise must be at least 0"),
        ("moons", {"noise": float("nan")}, "noise must be a finite number"),
        ("moons", {"weights": [1, 2, 3]}, "weights must have 2 entries"),
        ("moons", {"weights": [0, 0]}, "not all zero"),
        ("moons", {"weights": [1, -1]}, "non-negative"),
        ("moons", {"weights": "ab"}, "weights must be a sequence"),
        ("structureless", {"shape": "circle"}, "shape must be one of 'square', 'blob'"),
        ("waveform", {"three_class": "yes"}, "three_class must be True or False"),
        ("sinc", {"low": 1.0, "high": 0.0}, "high must be at least low"),
        ("uniform", {"low": 1.0, "high": 1.0}, "high must be greater than low"),
        ("sine_noise", {"background": 1.5}, "background must be at most 1"),
    ],
)
def test_bad_parameter_values_name_the_parameter(name, params, fragment):
    with pytest.raises(ValueError, match=fragment):
        datasets.make(name, **params)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match="seed must be"):
        datasets.make("moons", seed=seed)


def test_seed_none_and_generator():
    X, _ = datasets.make("moons", seed=None)
    assert X.shape == (200, 2)
    a, _ = datasets.make("moons", seed=np.random.default_rng(5))
    b, _ = datasets.make("moons", seed=np.random.default_rng(5))
    np.testing.assert_array_equal(a, b)


def test_describe_reflects_parameters():
    info = datasets.describe("twonorm", dim=5, seed=7)
    assert info["dimension"] == 5
    assert info["parameters"]["dim"] == 5 and info["parameters"]["seed"] == 7
    assert datasets.describe("blobs", centers=5)["n_classes"] == 5
    assert datasets.describe("waveform", three_class=True)["n_classes"] == 3
    assert datasets.describe("spiral", arms=2)["n_classes"] == 2
    assert datasets.describe("sinc")["n_classes"] == "regression"


# --- documented statistics -----------------------------------------------------------------


def test_twonorm_class_means_and_covariance():
    X, y = datasets.make("twonorm", n_samples=40000, seed=1)
    a = 2 / np.sqrt(20)
    for label, sign in ((0, -1.0), (1, 1.0)):
        part = X[y == label]
        np.testing.assert_allclose(part.mean(axis=0), sign * a, atol=0.03)
        np.testing.assert_allclose(np.cov(part.T), np.eye(20), atol=0.06)


def test_twonorm_shift_and_dim():
    X, y = datasets.make("twonorm", n_samples=20000, dim=3, shift=1.0, seed=2)
    assert X.shape == (20000, 3)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), 1.0, atol=0.05)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), -1.0, atol=0.05)


def test_ringnorm_variances_4_and_1():
    X, y = datasets.make("ringnorm", n_samples=40000, seed=1)
    narrow, wide = X[y == 0], X[y == 1]
    np.testing.assert_allclose(narrow.var(axis=0), 1.0, atol=0.06)
    np.testing.assert_allclose(wide.var(axis=0), 4.0, atol=0.25)
    np.testing.assert_allclose(narrow.mean(axis=0), 2 / np.sqrt(20), atol=0.04)
    np.testing.assert_allclose(wide.mean(axis=0), 0.0, atol=0.07)
    X, y = datasets.make("ringnorm", n_samples=40000, shift=1 / np.sqrt(20), seed=1)
    np.testing.assert_allclose(X[y == 0].mean(axis=0), 1 / np.sqrt(20), atol=0.04)


def test_waveform_profiles():
    X, y = datasets.make("waveform", n_samples=30000, seed=1)
    assert X.shape[1] == 21
    assert abs(y.mean() - 1 / 3) < 1e-3  # IDA's class proportions
    i = np.arange(1, 22)
    h1 = np.maximum(6 - np.abs(i - 11), 0)
    h3 = np.maximum(6 - np.abs(i - 7), 0)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), (h1 + h3) / 2, atol=0.1)
    X3, y3 = datasets.make("waveform", n_samples=3000, three_class=True, seed=1)
    np.testing.assert_array_equal(np.bincount(y3), [1000, 1000, 1000])
    residual = X3[y3 == 0] - X3[y3 == 0].mean(axis=0)
    assert 1.0 < residual.var(axis=0).mean() < 5.0


def test_sinc_values():
    X, y = datasets.make("sinc")
    x = np.linspace(-10, 10, 100)
    np.testing.assert_array_equal(X[:, 0], x)
    np.testing.assert_allclose(y, np.sin(x) / x, rtol=1e-12)
    X, y = datasets.make("sinc", n_samples=21)
    assert X[10, 0] == 0.0 and y[10] == 1.0
    X, y_noisy = datasets.make("sinc", n_samples=5000, noise=0.2, seed=1)
    residual = y_noisy - np.sinc(X[:, 0] / np.pi)
    assert abs(residual.std() - 0.2) < 0.01


def test_cuboid_extents():
    X, y = datasets.make("cuboids", seed=1)
    np.testing.assert_array_equal(np.bincount(y), [200, 200, 200])
    sides = np.array([18.5, 4.0, 1.4])
    for k in range(3):
        part = X[y == k]
        extent = part.max(axis=0) - part.min(axis=0)
        expected = np.roll(sides, k)
        assert np.all(extent <= expected + 1e-12)
        assert np.all(extent >= 0.95 * expected)
        np.testing.assert_allclose(part.mean(axis=0), 0.0, atol=0.1 * expected.max())
        assert np.argmax(extent) == k


def test_structureless_square_and_blob():
    X, y = datasets.make("structureless", n_samples=5000, scale=2.0)
    assert np.all(np.abs(X) <= 2.0)
    np.testing.assert_allclose(X.var(axis=0), 4 / 3, rtol=0.08)
    assert set(y) == {0}
    X, _ = datasets.make("structureless", n_samples=5000, shape="blob", scale=0.5)
    np.testing.assert_allclose(X.std(axis=0), 0.5, rtol=0.05)


def _fisher_training_error(F, y, mu=1e-3):
    m0, m1 = F[y == 0].mean(axis=0), F[y == 1].mean(axis=0)
    within = sum(np.cov(F[y == k].T) * (np.sum(y == k) - 1) for k in (0, 1))
    w = np.linalg.solve(within + mu * np.eye(F.shape[1]), m1 - m0)
    z = F @ w
    threshold_candidates = np.sort(z)
    errors = [np.mean((z > t) != (y == 1)) for t in threshold_candidates]
    return min(errors)


def _best_threshold_error(z, y):
    errors = [np.mean((z > t) != (y == 1)) for t in np.sort(z)]
    return min(min(errors), 1 - max(errors))


def test_parabolas_kfd_separates_kpca_does_not():
    # Explicit features of the inhomogeneous degree-2 polynomial kernel (x.z + 1)^2: KFD in the
    # kernel space is Fisher's discriminant on these, and KPCA is PCA on them.
    for seed in range(5):
        X, y = datasets.make("parabolas", seed=seed)
        a, b = X.T
        r2 = np.sqrt(2)
        F = np.column_stack([np.ones_like(a), r2 * a, r2 * b, a * a, r2 * a * b, b * b])
        assert _fisher_training_error(F, y) == 0.0
        Fc = F - F.mean(axis=0)
        _, _, vt = np.linalg.svd(Fc, full_matrices=False)
        for k in (0, 1):
            assert _best_threshold_error(Fc @ vt[k], y) > 0.2
    X, y = datasets.make("parabolas", noise=0.0)
    np.testing.assert_allclose(X[y == 0, 1], X[y == 0, 0] ** 2 + 0.25)
    np.testing.assert_allclose(X[y == 1, 1], -(X[y == 1, 0] ** 2) - 0.25)


def test_ring_line_square_geometry():
    X, y = datasets.make("ring_line_square", noise=0.0, label_shapes=True, n_samples=1000)
    ring, line, square = (X[y == k] for k in range(3))
    np.testing.assert_allclose(np.hypot(*(ring - [-1.5, 0.75]).T), 1.0)
    np.testing.assert_allclose(line[:, 1], -1.25)
    assert line[:, 0].min() >= -2.5 and line[:, 0].max() <= 2.5
    cheb = np.abs(square - [1.5, 0.75]).max(axis=1)
    np.testing.assert_allclose(cheb, 1.0)
    lengths = np.array([2 * np.pi, 5.0, 8.0])
    np.testing.assert_allclose(np.bincount(y) / 1000, lengths / lengths.sum(), atol=0.002)


def test_spiral_radius_and_arms():
    X, _ = datasets.make("spiral", noise=0.0)
    r = np.hypot(*X.T)
    assert r.max() <= 2.0 + 1e-12 and r.min() >= 0.2 - 1e-12
    X2, y2 = datasets.make("spiral", arms=2, noise=0.0)
    np.testing.assert_array_equal(np.bincount(y2), [200, 200])
    # Arm 1 is arm 0 turned by half a turn: same radii distribution, opposite angles.
    assert abs(np.hypot(*X2[y2 == 0].T).mean() - np.hypot(*X2[y2 == 1].T).mean()) < 0.15


def test_sine_noise_fraction():
    X, y = datasets.make("sine_noise", n_samples=700, noise=0.0, mark_background=True)
    assert np.sum(y == 1) == 200  # 2/7 of the points
    curve = X[y == 0]
    np.testing.assert_allclose(curve[:, 1], np.sin(curve[:, 0]), atol=1e-12)
    back = X[y == 1]
    assert np.all(np.abs(back[:, 0]) <= np.pi) and np.all(np.abs(back[:, 1]) <= 2)
    _, y = datasets.make("sine_noise")
    assert set(y) == {0}


def test_iris_is_sklearns():
    from sklearn.datasets import load_iris

    X, y = datasets.make("iris")
    np.testing.assert_array_equal(X, load_iris().data)
    np.testing.assert_array_equal(y, load_iris().target)


def test_banana_shape_and_balance():
    X, y = datasets.make("banana", n_samples=5300, seed=1)
    np.testing.assert_array_equal(np.bincount(y), [2924, 2376])
    # Roughly standardized like the IDA files.
    np.testing.assert_allclose(X.mean(axis=0), 0.0, atol=0.2)
    np.testing.assert_allclose(X.std(axis=0), 1.0, atol=0.2)
    # Class 0's cluster sits below the middle, inside class 1's arc.
    assert np.sum((np.abs(X[:, 0] + 0.25) < 0.3) & (np.abs(X[:, 1] + 1.14) < 0.2) & (y == 0)) > 300


def test_banana_is_learnable_but_overlapping():
    from sklearn.svm import SVC

    X, y = datasets.make("banana", n_samples=400, seed=1)
    Xt, yt = datasets.make("banana", n_samples=4000, seed=2)
    error = 1 - SVC(C=10.0, gamma=1.0).fit(X, y).score(Xt, yt)
    assert 0.06 < error < 0.16


def test_moons_and_circles_geometry():
    X, y = datasets.make("moons", noise=0.0)
    np.testing.assert_allclose(np.hypot(*X[y == 0].T), 1.0)
    np.testing.assert_allclose(np.hypot(*(X[y == 1] - [1.0, 0.5]).T), 1.0)
    assert np.all(X[y == 0, 1] >= 0) and np.all(X[y == 1, 1] <= 0.5)
    X, y = datasets.make("circles", noise=0.0, factor=0.3)
    np.testing.assert_allclose(np.hypot(*X[y == 0].T), 1.0)
    np.testing.assert_allclose(np.hypot(*X[y == 1].T), 0.3)


def test_xor_and_checkerboard_labels():
    X, y = datasets.make("xor")
    assert np.all(np.abs(X) <= 1.0)
    np.testing.assert_array_equal(y, (X[:, 0] * X[:, 1] < 0).astype(int))
    X, y = datasets.make("checkerboard", cells=6)
    assert np.all(np.abs(X) <= 3.0)
    cell = np.floor(X + 3.0).astype(int)
    np.testing.assert_array_equal(y, cell.sum(axis=1) % 2)


def test_blobs_means():
    X, y = datasets.make("blobs", n_samples=30000, centers=4, noise=0.3, radius=2.0, dim=3)
    assert X.shape == (30000, 3)
    for k in range(4):
        angle = np.pi / 2 + 2 * np.pi * k / 4
        expected = [2 * np.cos(angle), 2 * np.sin(angle), 0.0]
        np.testing.assert_allclose(X[y == k].mean(axis=0), expected, atol=0.02)
        np.testing.assert_allclose(X[y == k].std(axis=0), 0.3, rtol=0.05)
    X, y = datasets.make("blobs", dim=1, centers=3)
    assert X.shape[1] == 1


def test_swiss_roll_labels_follow_the_roll():
    X, y = datasets.make("swiss_roll", noise=0.0, n_classes=3)
    t = np.hypot(X[:, 0], X[:, 2])
    for k in range(2):
        assert t[y == k].max() <= t[y == k + 1].min() + 1e-9
    assert np.all((X[:, 1] >= 0) & (X[:, 1] <= 21))


def test_uniform_box_and_labels():
    X, y = datasets.make("uniform", n_samples=1000, dim=4, n_classes=3, low=0.0, high=2.0)
    assert X.shape == (1000, 4)
    assert np.all((X >= 0) & (X <= 2))
    np.testing.assert_array_equal(np.bincount(y), [334, 333, 333])
