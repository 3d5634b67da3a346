"""KPCA novelty detection (Hoffmann 2007) against an explicit feature-space computation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.metrics.pairwise import rbf_kernel

from kfdviz.estimators import KernelPCANoveltyDetector


def _phi(X, coef0):
    """Explicit feature map of (x.z + coef0)^2 in 2-D: phi(x).phi(z) = (x.z + coef0)^2."""
    x1, x2 = X[:, 0], X[:, 1]
    r2, rc = np.sqrt(2.0), np.sqrt(2.0 * coef0)
    return np.column_stack([x1**2, x2**2, r2 * x1 * x2, rc * x1, rc * x2, np.full(len(X), coef0)])


def _explicit_reconstruction_error(X, Z, q, coef0):
    """||Phi(z) - mean||^2 minus its squared projections on the q leading unit principal axes."""
    F = _phi(X, coef0)
    mean = F.mean(axis=0)
    _, _, Vt = np.linalg.svd(F - mean, full_matrices=False)
    G = _phi(Z, coef0) - mean
    return (G**2).sum(axis=1) - ((G @ Vt[:q].T) ** 2).sum(axis=1)


@pytest.fixture
def sample():
    rng = np.random.RandomState(0)
    X = rng.randn(40, 2) * [1.0, 0.5] + [0.3, -0.2]
    return X, rng.randn(30, 2) * 1.5


def test_explicit_feature_map_is_the_kernel(sample):
    X, Z = sample
    np.testing.assert_allclose(_phi(X, 0.7) @ _phi(Z, 0.7).T, (X @ Z.T + 0.7) ** 2, atol=1e-12)


@pytest.mark.parametrize("q", [1, 2, 3, 4])
@pytest.mark.parametrize("coef0", [1.0, 0.3])
def test_reconstruction_error_matches_explicit_feature_space(sample, q, coef0):
    X, Z = sample
    est = KernelPCANoveltyDetector(q, kernel="poly", degree=2, coef0=coef0).fit(X)
    expected = _explicit_reconstruction_error(X, Z, q, coef0)
    scale = np.abs(_phi(Z, coef0)).max() ** 2
    np.testing.assert_allclose(est.reconstruction_error(Z), expected, rtol=1e-7, atol=1e-9 * scale)
    np.testing.assert_allclose(
        est.reconstruction_error(X), _explicit_reconstruction_error(X, X, q, coef0), atol=1e-8
    )


def test_full_subspace_leaves_no_error_inside_the_span(sample):
    """Degree-2 features of 2-D points span 5 centred dimensions: q = 5 reconstructs them all."""
    X, Z = sample
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = KernelPCANoveltyDetector(20, kernel="poly", degree=2).fit(X)
    assert est.n_components_ == 5
    assert "Only 5 of q = 20" in est.diagnostics_["warnings"][0]
    np.testing.assert_array_equal(est.reconstruction_error(Z), 0.0)


@pytest.mark.parametrize("q", [1, 5, 15])
def test_rbf_matches_sklearn_kernel_pca_projections(sample, q):
    """Gaussian kernel: ||Phi(z) - mean||^2 from the kernel, projections from scikit-learn."""
    X, Z = sample
    width = 2.0
    est = KernelPCANoveltyDetector(q, width=width).fit(X)
    ref = SkKernelPCA(q, kernel="rbf", gamma=1.0 / width, eigen_solver="dense").fit(X)
    K = rbf_kernel(X, X, gamma=1.0 / width)
    k_z = rbf_kernel(Z, X, gamma=1.0 / width)
    dist = 1.0 - 2.0 * k_z.mean(axis=1) + K.mean()
    expected = dist - (ref.transform(Z) ** 2).sum(axis=1)
    np.testing.assert_allclose(est.reconstruction_error(Z), expected, rtol=1e-7, atol=1e-10)


def _ring(n, seed, noise=0.05):
    rng = np.random.RandomState(seed)
    t = rng.uniform(0, 2 * np.pi, n)
    r = 1.0 + noise * rng.randn(n)
    return np.column_stack([r * np.cos(t), r * np.sin(t)])


@pytest.mark.parametrize("width, q", [(0.5, 20), (0.2, 40), (1.0, 10)])
def test_ring_ranking(width, q):
    """Hoffmann's ring: points on it score higher than the empty centre and the far outside."""
    est = KernelPCANoveltyDetector(q, width=width).fit(_ring(200, seed=0))
    on = _ring(50, seed=1, noise=0.02)
    angles = np.linspace(0, 2 * np.pi, 16, endpoint=False)
    unit = np.column_stack([np.cos(angles), np.sin(angles)])
    centre = np.vstack([[0.0, 0.0], 0.2 * unit])
    outside = np.vstack([2.0 * unit, 3.0 * unit])
    on_scores = est.score_samples(on)
    assert on_scores.min() > est.score_samples(centre).max()
    assert on_scores.min() > est.score_samples(outside).max()
    # contamination = 0.1 leaves a tenth of the ring itself outside; most of it is inside.
    assert np.mean(est.predict(on) == 1) >= 0.8
    assert np.all(est.predict(centre) == -1)
    assert np.all(est.predict(outside) == -1)


@pytest.mark.parametrize("contamination", [0.05, 0.1, 0.25, 0.5])
def test_contamination_is_the_fraction_of_training_outliers(contamination):
    X = _ring(200, seed=2, noise=0.1)
    est = KernelPCANoveltyDetector(10, width=0.5, contamination=contamination).fit(X)
    fraction = np.mean(est.predict(X) == -1)
    assert fraction == pytest.approx(contamination, abs=1.0 / len(X))


def test_decision_function_is_score_minus_offset():
    X = _ring(100, seed=3)
    est = KernelPCANoveltyDetector(10, width=0.5).fit(X)
    Z = np.random.RandomState(4).randn(30, 2)
    np.testing.assert_allclose(est.decision_function(Z), est.score_samples(Z) - est.offset_)
    np.testing.assert_array_equal(est.predict(Z), np.where(est.decision_function(Z) >= 0, 1, -1))
    np.testing.assert_allclose(est.score_samples(Z), -est.reconstruction_error(Z))
    assert np.all(est.reconstruction_error(Z) >= 0)


def test_bad_input():
    X = _ring(30, seed=5)
    with pytest.raises(ValueError, match="contamination"):
        KernelPCANoveltyDetector(contamination=0.0).fit(X)
    with pytest.raises(ValueError, match="contamination"):
        KernelPCANoveltyDetector(contamination=0.7).fit(X)
    with pytest.raises(ValueError, match="n_components"):
        KernelPCANoveltyDetector(0).fit(X)
    with pytest.raises(ValueError, match="width"):
        KernelPCANoveltyDetector(width=-1.0).fit(X)
    bad = X.copy()
    bad[2, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        KernelPCANoveltyDetector().fit(bad)
    with pytest.raises(NotFittedError):
        KernelPCANoveltyDetector().score_samples(X)
    with pytest.raises(ValueError, match="3 features"):
        KernelPCANoveltyDetector().fit(X).predict(np.zeros((2, 3)))


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "rbf", "width": 0.3},
        {"kernel": "rbf", "width": 1e-4},
        {"kernel": "poly", "degree": 2, "coef0": 1.0},
    ],
    ids=["rbf", "rbf-narrow", "poly"],
)
def test_score_grid_is_score_samples_at_the_grid_nodes(params):
    X = np.random.RandomState(5).randn(120, 2)
    det = KernelPCANoveltyDetector(n_components=10, **params).fit(X)
    xs, ys = np.linspace(-3, 3, 57), np.linspace(-2.5, 2.0, 43)
    grid = det.score_grid(xs, ys)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    expected = det.score_samples(points).reshape(gy.shape)
    assert grid.shape == (ys.size, xs.size)
    scale = np.abs(det.score_samples(X)).max() + np.abs(expected).max()
    np.testing.assert_allclose(grid, expected, rtol=0, atol=1e-10 * scale)


def test_learn_class_learns_only_that_class():
    rng = np.random.RandomState(2)
    X = np.vstack([rng.randn(60, 2), rng.randn(40, 2) + np.array([5.0, 0.0])])
    y = np.r_[np.full(60, 7), np.full(40, 3)]  # sorted labels: 3 is class 1, 7 class 2
    learned = KernelPCANoveltyDetector(n_components=5, width=2.0, learn_class=2).fit(X, y)
    alone = KernelPCANoveltyDetector(n_components=5, width=2.0).fit(X[y == 7])
    assert learned.learned_class_ == 7
    np.testing.assert_allclose(learned.score_samples(X), alone.score_samples(X), atol=1e-12)
    everything = KernelPCANoveltyDetector(n_components=5, width=2.0, learn_class=0).fit(X, y)
    unlabelled = KernelPCANoveltyDetector(n_components=5, width=2.0).fit(X)
    np.testing.assert_allclose(everything.score_samples(X), unlabelled.score_samples(X))
    with pytest.raises(ValueError, match="learn_class=3, but the labels have 2 classes"):
        KernelPCANoveltyDetector(learn_class=3).fit(X, y)


def test_pipeline_scores_the_other_classes_as_novel():
    from kfdviz.bench.numeric import two_class_data
    from kfdviz.pipeline import FitRequest, run_fit

    X, y = two_class_data(200)
    test = np.arange(200) % 5 == 0
    params = {"width": 0.5, "n_components": 10, "contamination": 0.05}
    result = run_fit(FitRequest("novelty", {**params, "learn_class": 1}, X, y, test_mask=test))
    own = KernelPCANoveltyDetector(**params).fit(X[~test & (y == 0)])
    novel = own.predict(X) == -1
    assert result.diagnostics["learned_class"] == "Class 1"
    assert result.train_error == pytest.approx(np.mean(novel[~test & (y == 0)]))
    assert result.test_error == pytest.approx(np.mean(novel[test & (y == 0)]))
    expected = f"class 2: {100 * np.mean(novel[y == 1]):.0f} %"
    assert result.diagnostics["other_classes_flagged"] == expected
