"""Oriented kernel PCA (TPAMI Fig. 1): invariance measured by derivatives of the feature."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kfdviz.estimators import KernelPCA, OrientedKernelPCA

STEP = 1e-4  # central finite differences of transform


@pytest.fixture(scope="module")
def square():
    """TPAMI Fig. 1's setting: points uniform in a square, no structure of their own."""
    return np.random.RandomState(0).uniform(-1.0, 1.0, size=(100, 2))


def _gradient(est, P):
    """Gradient of the first feature at the rows of P, by central differences of transform."""
    columns = []
    for axis in range(2):
        e = np.zeros(2)
        e[axis] = STEP
        columns.append((est.transform(P + e)[:, 0] - est.transform(P - e)[:, 0]) / (2 * STEP))
    return np.column_stack(columns)


def _rotation_ratio(est, P, center):
    """Median |derivative along the circle about center| / |gradient|."""
    g = _gradient(est, P)
    tangent = np.column_stack([-(P[:, 1] - center[1]), P[:, 0] - center[0]])
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    return float(np.median(np.abs((g * tangent).sum(axis=1)) / np.linalg.norm(g, axis=1)))


def _x_ratio(est, P):
    """Median |df/dx| / |gradient|: small when the level sets are horizontal lines."""
    g = _gradient(est, P)
    return float(np.median(np.abs(g[:, 0]) / np.linalg.norm(g, axis=1)))


def _spread_to_gradient(est, X):
    """Spread of the feature over the data against its gradient times the data's extent."""
    f = est.transform(X)[:, 0]
    g = np.linalg.norm(_gradient(est, X), axis=1)
    return float(f.std() / (np.median(g) * X.std()))


@pytest.mark.parametrize("width", [0.5, 2.0])
def test_rotation_invariance(square, width):
    X = square
    oriented = OrientedKernelPCA(1, width=width, tangents="rotation").fit(X)
    plain = KernelPCA(1, width=width).fit(X)
    center = X.mean(axis=0)
    np.testing.assert_allclose(oriented.center_, center)
    assert _rotation_ratio(oriented, X, center) < 0.1
    assert _rotation_ratio(plain, X, center) > 0.4
    # Not trivially constant: the feature varies across the data at its gradient's scale.
    assert _spread_to_gradient(oriented, X) > 0.2


@pytest.mark.parametrize("width", [0.5, 2.0])
def test_translation_invariance(square, width):
    X = square
    oriented = OrientedKernelPCA(1, width=width, tangents=["translate-x"]).fit(X)
    plain = KernelPCA(1, width=width).fit(X)
    assert _x_ratio(oriented, X) < 0.1
    assert _x_ratio(plain, X) > 0.4
    assert _spread_to_gradient(oriented, X) > 0.2
    # Level sets horizontal: the feature is (nearly) a function of y alone on the data.
    f = oriented.transform(X)[:, 0]
    shifted = oriented.transform(X + np.array([0.05, 0.0]))[:, 0]
    assert np.median(np.abs(shifted - f)) < 0.05 * f.std()


def test_rotation_about_a_given_center(square):
    center = np.array([0.5, -0.25])
    est = OrientedKernelPCA(1, width=1.0, tangents="rotation", center=center).fit(square)
    np.testing.assert_allclose(est.center_, center)
    assert _rotation_ratio(est, square, center) < 0.1
    assert _rotation_ratio(est, square, square.mean(axis=0)) > 0.1


@pytest.mark.parametrize("width", [0.5, 2.0])
def test_without_tangents_it_is_kernel_pca(square, width):
    X = square
    new = np.random.RandomState(1).uniform(-1.2, 1.2, size=(50, 2))
    oriented = OrientedKernelPCA(2, width=width, tangents=None).fit(X)
    plain = KernelPCA(2, width=width).fit(X)
    assert oriented.tangents_ == ()
    c = np.corrcoef(oriented.transform(new)[:, 0], plain.transform(new)[:, 0])[0, 1]
    assert abs(c) > 0.999
    # Centred on the training data, like KPCA's features.
    np.testing.assert_allclose(oriented.transform(X).mean(axis=0), 0, atol=1e-9)
    np.testing.assert_allclose(oriented.tangent_directions(X), 0)


def test_expand_transformed(square):
    X = square
    base = OrientedKernelPCA(1, width=1.0, tangents="rotation").fit(X)
    est = OrientedKernelPCA(1, width=1.0, tangents="rotation", expand_transformed=True).fit(X)
    assert base.expansion_points_.shape == (100, 2)
    assert est.expansion_points_.shape == (200, 2)
    np.testing.assert_allclose(est.expansion_points_[:100], X)
    F = est.transform(X)
    assert F.shape == (100, 1) and np.all(np.isfinite(F))
    assert _rotation_ratio(est, X, X.mean(axis=0)) < 0.1
    two = OrientedKernelPCA(
        1, width=1.0, tangents=("rotation", "scale"), expand_transformed=True
    ).fit(X)
    assert two.expansion_points_.shape == (300, 2)


def test_several_tangents_and_weights(square):
    est = OrientedKernelPCA(
        1, width=1.0, tangents=["translate-x", "translate-y"], tangent_weights=[1.0, 0.0]
    ).fit(square)
    assert est.tangents_ == ("translate-x", "translate-y")
    assert _x_ratio(est, square) < 0.1  # the zero-weight y-translation does not count
    with pytest.raises(ValueError, match=r"tangent_weights must be 2 finite numbers >= 0"):
        OrientedKernelPCA(1, tangents=["translate-x", "translate-y"], tangent_weights=[1.0]).fit(
            square
        )


def test_tangent_directions(square):
    center = np.array([0.2, 0.1])
    rot = OrientedKernelPCA(1, tangents="rotation", center=center).fit(square)
    P = np.array([[1.2, 0.1], [0.2, 1.1], [0.0, 0.0]])
    np.testing.assert_allclose(rot.tangent_directions(P), [[0.0, 1.0], [-1.0, 0.0], [0.1, -0.2]])
    tx = OrientedKernelPCA(1, tangents="translate-x").fit(square)
    D = tx.tangent_directions(P)
    np.testing.assert_allclose(D[:, 1], 0)
    np.testing.assert_allclose(D[:, 0], tx.spread_)
    spread = np.sqrt(np.mean(np.sum((square - square.mean(axis=0)) ** 2, axis=1)))
    assert tx.spread_ == pytest.approx(spread)
    sc = OrientedKernelPCA(1, tangents="scale", center=center).fit(square)
    np.testing.assert_allclose(sc.tangent_directions(P), P - center)


def test_several_components(square):
    est = OrientedKernelPCA(3, width=1.0, tangents="rotation").fit(square)
    F = est.transform(square)
    assert F.shape == (100, 3) and np.all(np.isfinite(F))
    assert np.all(np.diff(est.rayleigh_values_) <= 0)
    assert est.diagnostics_["warnings"] == []


@pytest.mark.parametrize("name", ["rotate", "translate", "shear", "ROTATION"])
def test_unknown_tangent(square, name):
    with pytest.raises(ValueError, match="Unknown tangent") as info:
        OrientedKernelPCA(1, tangents=name).fit(square)
    message = str(info.value)
    assert repr(name) in message
    for valid in ("rotation", "translate-x", "translate-y", "scale"):
        assert valid in message


@pytest.mark.parametrize("name", ["rotation", "translate-y"])
def test_one_dimensional_data_cannot_rotate(name):
    X = np.linspace(0, 1, 20)[:, None]
    with pytest.raises(ValueError, match="at least 2 input features") as info:
        OrientedKernelPCA(1, tangents=name).fit(X)
    assert name in str(info.value) and "n_features = 1" in str(info.value)


def test_one_dimensional_data_can_translate():
    X = np.random.RandomState(3).uniform(-1, 1, size=(30, 1))
    est = OrientedKernelPCA(1, tangents="translate-x").fit(X)
    assert np.all(np.isfinite(est.transform(X)))


def test_bad_center(square):
    with pytest.raises(
        ValueError, match=r"center must be 2 finite numbers \(one coordinate per input dimension"
    ):
        OrientedKernelPCA(1, center=[0.0, 0.0, 0.0]).fit(square)


@pytest.mark.parametrize("bad", [dict(tangent_step=0.0), dict(mu=-1.0), dict(width=0.0)])
def test_bad_parameters(square, bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        OrientedKernelPCA(1, **bad).fit(square)


def test_no_runtime_warnings(square):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        OrientedKernelPCA(2, width=0.05, tangents="rotation").fit(square).transform(square)
        OrientedKernelPCA(2, width=50.0, tangents="translate-x", mu=0.0).fit(square)
