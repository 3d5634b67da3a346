"""The Kernel Orthogonal Centroid method: Algorithm 2 vs 3, the linear Orthogonal Centroid, Fig. 1."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError
from sklearn.svm import LinearSVC

from kfdviz.core.kernels import Kernel
from kfdviz.core.koc import centroid_indicator, koc_cholesky, koc_gram_schmidt
from kfdviz.estimators import KernelOrthogonalCentroid


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


def _blobs(r=3, per_class=12, d=5, seed=0):
    rng = np.random.RandomState(seed)
    X = np.vstack([rng.randn(per_class, d) + 2.0 * rng.randn(d) for _ in range(r)])
    return X, np.repeat(np.arange(r), per_class)


KERNELS = [
    dict(kernel="rbf", width=1.0),
    dict(kernel="rbf", width=0.01),
    dict(kernel="poly", degree=4, coef0=1.0),
    dict(kernel="linear"),
]


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: "-".join(map(str, p.values())))
def test_algorithm_2_equals_algorithm_3(params, iris):
    X, y = iris
    X_new = X + np.random.RandomState(1).randn(*X.shape) * 0.2
    chol = KernelOrthogonalCentroid(algorithm="cholesky", **params).fit(X, y)
    gs = KernelOrthogonalCentroid(algorithm="gram-schmidt", **params).fit(X, y)
    for Z in (X, X_new):
        a, b = chol.transform(Z), gs.transform(Z)
        assert a.shape == (len(Z), 3)
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10 * np.abs(a).max())


def test_core_algorithms_give_orthonormal_centroid_bases():
    X, y = _blobs(r=4)
    K = Kernel("rbf", 5.0)(X, X)
    M = centroid_indicator(y, 4)
    for solve in (koc_cholesky, koc_gram_schmidt):
        A = solve(K, M)
        # Columns are orthonormal in feature space: A'KA = I ...
        np.testing.assert_allclose(A.T @ K @ A, np.eye(4), atol=1e-10)
        # ... and span the centroids: C = Q R with R upper triangular (Q'c_j = A'K m_j).
        R = A.T @ K @ M
        np.testing.assert_allclose(np.tril(R, -1), 0, atol=1e-10)
        assert np.all(np.diag(R) > 0)


def test_linear_kernel_is_the_orthogonal_centroid_method():
    """Linear KOC: Q'x with C = QR the QR decomposition of the d x r centroid matrix."""
    X, y = _blobs(r=3, d=5)
    X_new = np.random.RandomState(2).randn(20, 5)
    C = np.column_stack([X[y == j].mean(axis=0) for j in range(3)])  # d x r
    Q, _ = np.linalg.qr(C)
    expected = X_new @ Q
    for algorithm in ("cholesky", "gram-schmidt"):
        got = KernelOrthogonalCentroid(kernel="linear", algorithm=algorithm).fit(X, y)
        F = got.transform(X_new)
        for j in range(3):
            sign = np.sign(F[:, j] @ expected[:, j])
            np.testing.assert_allclose(F[:, j], sign * expected[:, j], rtol=1e-9, atol=1e-10)


def _separable(F, mask_a, mask_b):
    """Whether two sets of rows are strictly linearly separable: LP feasibility of
    s_i (w.f_i + b) >= 1 (independent of any classifier's convergence)."""
    P = F[mask_a | mask_b]
    s = np.where(mask_a[mask_a | mask_b], 1.0, -1.0)
    A = -s[:, None] * np.hstack([P, np.ones((len(P), 1))])
    res = linprog(
        np.zeros(P.shape[1] + 1),
        A_ub=A,
        b_ub=-np.ones(len(P)),
        bounds=[(None, None)] * (P.shape[1] + 1),
        method="highs",
    )
    return res.status == 0


def test_koc_fig1_narrow_gaussian_separates_iris(iris):
    """Park & Park Fig. 1: Gaussian KOC with sigma = 0.01 makes the three classes linearly
    separable in 3-D; the rank-3 SVD of the data does not."""
    X, y = iris
    E = KernelOrthogonalCentroid(kernel="rbf", width=0.01).fit(X, y).transform(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LinearSVC's ConvergenceWarning is not the point
        svc = LinearSVC(C=1e4, max_iter=20000).fit(E, y)
    assert svc.score(E, y) == 1.0
    for a in range(3):
        assert _separable(E, y == a, y != a)

    _, _, Vt = np.linalg.svd(X, full_matrices=False)
    S = X @ Vt[:3].T  # rank-3 SVD representation
    assert _separable(S, y == 0, y != 0)  # setosa is easy ...
    assert not _separable(S, y == 1, y == 2)  # ... versicolor and virginica overlap
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert LinearSVC(C=1e4, max_iter=20000).fit(S, y).score(S, y) < 1.0


def test_embedding_of_training_points_in_narrow_gaussian_limit(iris):
    """With a very narrow kernel the centroids are nearly orthogonal: x_hat is concentrated on
    its own class's coordinate."""
    X, y = iris
    E = KernelOrthogonalCentroid(kernel="rbf", width=0.01).fit(X, y).transform(X)
    np.testing.assert_array_equal(np.argmax(E, axis=1), y)


@pytest.mark.parametrize("algorithm", ["cholesky", "gram-schmidt"])
@pytest.mark.parametrize(
    "case",
    ["identical classes", "zero centroid", "dependent centroids"],
)
def test_dependent_centroids_are_an_error(algorithm, case):
    rng = np.random.RandomState(0)
    if case == "identical classes":  # the same points in both classes: equal centroids
        A = rng.randn(10, 2)
        X, y, kernel = np.vstack([A, A[::-1]]), np.repeat([0, 1], 10), "rbf"
    elif case == "zero centroid":  # linear kernel: class 0's centroid is the origin
        X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
        y, kernel = np.array([0, 0, 1, 1]), "linear"
    else:  # linear kernel, three centroids in the plane: linearly dependent
        X, y, kernel = rng.randn(30, 2), np.repeat([0, 1, 2], 10), "linear"
    with pytest.raises(ValueError, match="not positive definite") as info:
        KernelOrthogonalCentroid(kernel=kernel, algorithm=algorithm).fit(X, y)
    assert "centroid" in str(info.value)


@pytest.mark.parametrize("seed", range(20))
def test_dependent_centroids_are_an_error_for_both_algorithms(seed):
    """Alg. 2 and Alg. 3 agree on when the centroids are numerically dependent."""
    rng = np.random.RandomState(seed)
    X, y = rng.randn(30, 2), np.repeat([0, 1, 2], 10)
    K, M = X @ X.T, centroid_indicator(y, 3)
    for solve in (koc_gram_schmidt, koc_cholesky):
        with pytest.raises(ValueError, match="not positive definite"):
            solve(K, M)


def test_bad_input(iris):
    X, y = iris
    with pytest.raises(ValueError, match="at least two classes"):
        KernelOrthogonalCentroid().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="one label per point"):
        KernelOrthogonalCentroid().fit(X, y[:-1])
    with pytest.raises(ValueError, match="algorithm"):
        KernelOrthogonalCentroid(algorithm="qr").fit(X, y)
    with pytest.raises(ValueError, match="width"):
        KernelOrthogonalCentroid(width=0.0).fit(X, y)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelOrthogonalCentroid().fit(bad, y)
    with pytest.raises(NotFittedError):
        KernelOrthogonalCentroid().transform(X)
    with pytest.raises(ValueError, match="requires y"):
        KernelOrthogonalCentroid().fit(X, None)


def test_transform_shape_and_names(iris):
    X, y = iris
    est = KernelOrthogonalCentroid().fit(X, y)
    assert est.transform(X[:5]).shape == (5, 3)
    assert list(est.get_feature_names_out()) == [
        "kernelorthogonalcentroid0",
        "kernelorthogonalcentroid1",
        "kernelorthogonalcentroid2",
    ]
    assert np.isfinite(est.diagnostics_["centroid_gram_condition"])
