"""Kernel PCA against scikit-learn's KernelPCA, and as a special case of the Rayleigh engine."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.decomposition import KernelPCA as SkKernelPCA

from kfdviz.core import scatter
from kfdviz.core.kernels import Kernel
from kfdviz.core.rayleigh import solve_rayleigh
from kfdviz.estimators import KernelPCA


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    X = rng.randn(60, 2) * [1.0, 0.6]
    X[:20] += [2.0, 0.5]
    return X, rng.randn(25, 2)


CASES = [
    dict(kernel="rbf", width=1.0),
    dict(kernel="rbf", width=5.0),
    dict(kernel="poly", degree=2, coef0=1.0),
    dict(kernel="poly", degree=3, coef0=0.0),
    dict(kernel="linear"),
]


def _sklearn(params, n_components):
    kern = Kernel(
        params["kernel"],
        params.get("width", 1.0),
        params.get("degree", 3),
        params.get("coef0", 1.0),
    )
    return SkKernelPCA(n_components, eigen_solver="dense", **kern.sklearn_params())


def _assert_equal_up_to_column_signs(A, B, **tol):
    assert A.shape == B.shape
    for j in range(A.shape[1]):
        sign = np.sign(A[:, j] @ B[:, j]) or 1.0
        np.testing.assert_allclose(A[:, j], sign * B[:, j], **tol)


@pytest.mark.parametrize("params", CASES, ids=lambda p: "-".join(map(str, p.values())))
def test_matches_sklearn_kernel_pca(params, data):
    X, X_new = data
    k = 2 if params["kernel"] == "linear" else 4
    ours = KernelPCA(k, **params).fit(X)
    ref = _sklearn(params, k).fit(X)
    np.testing.assert_allclose(ours.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
    scale = np.abs(ref.transform(X)).max()
    _assert_equal_up_to_column_signs(
        ours.transform(X_new), ref.transform(X_new), rtol=1e-7, atol=1e-9 * scale
    )
    _assert_equal_up_to_column_signs(
        ours.transform(X), ref.transform(X), rtol=1e-7, atol=1e-9 * scale
    )


def test_linear_kernel_is_pca(data):
    """Linear KPCA features are the projections onto the principal axes (centred PCA)."""
    X, X_new = data
    ours = KernelPCA(2, kernel="linear").fit(X)
    mean = X.mean(axis=0)
    _, s, Vt = np.linalg.svd(X - mean, full_matrices=False)
    np.testing.assert_allclose(ours.eigenvalues_, s**2, rtol=1e-10)
    _assert_equal_up_to_column_signs(ours.transform(X_new), (X_new - mean) @ Vt.T, atol=1e-10)


def test_training_features_are_centred_with_unit_feature_space_norm(data):
    X, _ = data
    est = KernelPCA(3, width=2.0).fit(X)
    F = est.transform(X)
    np.testing.assert_allclose(F.mean(axis=0), 0, atol=1e-10)
    # Projections onto unit vectors: sum of squares over the data = eigenvalue.
    np.testing.assert_allclose((F**2).sum(axis=0), est.eigenvalues_, rtol=1e-9)
    # w'w = a'Ka = 1 for the (uncentred) expansion coefficients.
    A = est.expansion_.coef
    K = Kernel("rbf", 2.0)(X, X)
    np.testing.assert_allclose(A.T @ K @ A, np.eye(3), atol=1e-9)


@pytest.mark.parametrize("width", [0.5, 2.0])
def test_rayleigh_engine_gives_the_same_features(width, data):
    """KPCA as a Rayleigh coefficient: covariance (eq. 2) against ||w||^2 = a'Ka."""
    X, X_new = data
    kern = Kernel("rbf", width)
    K = kern(X, X)
    k = 3
    sol = solve_rayleigh(scatter.covariance(K), K, k, mu=1e-12)
    est = KernelPCA(k, width=width).fit(X)
    # The Rayleigh values are the covariance eigenvalues: those of the centred Gram over n.
    np.testing.assert_allclose(sol.values, est.eigenvalues_ / X.shape[0], rtol=1e-6)
    rayleigh_features = kern(X_new, X) @ sol.vectors
    kpca_features = est.transform(X_new)
    for j in range(k):
        c = np.corrcoef(rayleigh_features[:, j], kpca_features[:, j])[0, 1]
        assert abs(c) == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize("params", CASES[:3], ids=lambda p: "-".join(map(str, p.values())))
def test_evaluate_grid_matches_transform(params, data):
    X, _ = data
    est = KernelPCA(3, **params).fit(X)
    xs = np.linspace(-3, 4, 13)
    ys = np.linspace(-2, 2, 9)
    gx, gy = np.meshgrid(xs, ys)
    expected = est.transform(np.column_stack([gx.ravel(), gy.ravel()]))
    grid = est.expansion_.evaluate_grid(xs, ys)
    for j in range(3):
        np.testing.assert_allclose(
            grid[j], expected[:, j].reshape(ys.size, xs.size), rtol=1e-9, atol=1e-10
        )


def test_fewer_positive_eigenvalues_than_requested():
    """Linear kernel in 2-D: only two components exist; the rest are dropped and reported."""
    X = np.random.RandomState(1).randn(20, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = KernelPCA(5, kernel="linear").fit(X)
    assert est.n_components_ == 2
    assert est.transform(X).shape == (20, 2)
    assert "Only 2 of the 5" in est.diagnostics_["warnings"][0]
    assert np.all(np.isfinite(est.transform(X)))


def test_identical_points_are_an_error():
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        KernelPCA(2).fit(np.ones((10, 2)))


def test_feature_names():
    est = KernelPCA(3).fit(np.random.RandomState(2).randn(10, 2))
    assert list(est.get_feature_names_out()) == ["kernelpca0", "kernelpca1", "kernelpca2"]
