"""scikit-learn baselines under our parameter names, and their fitted expansions."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.svm import SVC, SVR, OneClassSVM

from kfdviz.core.kernels import Kernel
from kfdviz.estimators.linear import LinearDiscriminant, LinearPCA, TruncatedSVDEmbedding
from kfdviz.estimators.svm import (
    OneClassSupportVector,
    SupportVectorClassifier,
    SupportVectorRegressor,
)

KERNELS = [
    {"kernel": "rbf", "width": 2.0},
    {"kernel": "poly", "degree": 2, "coef0": 1.0},
    {"kernel": "linear"},
]


def sklearn_kernel(params):
    """The wrapped model's kernel arguments, through the one conversion the estimators use."""
    rest = {k: v for k, v in params.items() if k != "kernel"}
    return Kernel(params["kernel"], **rest).sklearn_params()


# scikit-learn's estimator checks run on every registered algorithm in test_estimator_checks.py.


def blobs(n=80, d=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = (X[:, 0] ** 2 + X[:, 1] > 0.5).astype(int)
    return X, y, rng.standard_normal((50, d)) * 1.5


@pytest.mark.parametrize("params", KERNELS)
def test_svc_expansion_is_its_decision_function(params):
    X, y, Xt = blobs()
    clf = SupportVectorClassifier(C=3.0, **params).fit(X, y)
    for Z in (X, Xt):
        np.testing.assert_allclose(
            clf.expansion_.evaluate(Z)[:, 0], clf.decision_function(Z), rtol=1e-9, atol=1e-9
        )
    np.testing.assert_array_equal(
        clf.predict(Xt), clf.classes_[(clf.decision_function(Xt) > 0) * 1]
    )
    assert clf.sparsity_ == pytest.approx(1 - clf.support_.size / X.shape[0])
    np.testing.assert_array_equal(clf.support_vectors_, X[clf.support_])
    # Same model as scikit-learn's SVC given the converted parameters.
    ref = SVC(C=3.0, **sklearn_kernel(params)).fit(X, y)
    np.testing.assert_allclose(clf.decision_function(Xt), ref.decision_function(Xt))


def test_svc_width_is_the_papers_c():
    X, y, _ = blobs()
    clf = SupportVectorClassifier(width=4.0).fit(X, y)
    assert clf.svm_.gamma == pytest.approx(0.25)
    z = X[:3]
    expected = np.exp(-np.sum((z[:, None] - clf.support_vectors_[None]) ** 2, -1) / 4.0)
    f = expected @ clf.svm_.dual_coef_[0] + clf.svm_.intercept_[0]
    np.testing.assert_allclose(clf.decision_function(z), f, rtol=1e-10)


def test_svc_more_classes_has_no_expansion():
    X, _, _ = blobs()
    y = np.digitize(X[:, 0], [-0.5, 0.5])
    clf = SupportVectorClassifier().fit(X, y)
    assert clf.classes_.size == 3
    assert not hasattr(clf, "expansion_")
    assert clf.predict(X).shape == (X.shape[0],)


@pytest.mark.parametrize("params", KERNELS[:2])
def test_one_class_expansion(params):
    X, _, Xt = blobs()
    oc = OneClassSupportVector(nu=0.2, **params).fit(X)
    ref = OneClassSVM(nu=0.2, **sklearn_kernel(params)).fit(X)
    for Z in (X, Xt):
        np.testing.assert_allclose(
            oc.expansion_.evaluate(Z)[:, 0], oc.decision_function(Z), rtol=1e-9, atol=1e-9
        )
        np.testing.assert_allclose(oc.score_samples(Z), oc.decision_function(Z) + oc.offset_)
        np.testing.assert_allclose(oc.decision_function(Z), ref.decision_function(Z))
    assert set(np.unique(oc.predict(Xt))) <= {-1, 1}
    # nu bounds the fraction of training outliers from above (up to the solver's tolerance).
    assert np.mean(oc.predict(X) == -1) <= 0.2 + 0.05


@pytest.mark.parametrize("params", KERNELS)
def test_svr_expansion_is_its_prediction(params):
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(-3, 3, 70))[:, None]
    y = np.sin(x[:, 0]) + 0.1 * rng.standard_normal(70)
    reg = SupportVectorRegressor(C=10.0, epsilon=0.05, **params).fit(x, y)
    xs = np.linspace(-4, 4, 41)[:, None]
    np.testing.assert_allclose(reg.expansion_.evaluate(xs)[:, 0], reg.predict(xs), atol=1e-9)
    ref = SVR(C=10.0, epsilon=0.05, **sklearn_kernel(params)).fit(x, y)
    np.testing.assert_allclose(reg.predict(xs), ref.predict(xs))
    assert 0.0 <= reg.sparsity_ < 1.0


def test_svc_grid_evaluation_serves_it():
    X, y, _ = blobs()
    clf = SupportVectorClassifier(width=1.0).fit(X, y)
    xs, ys = np.linspace(-2, 2, 7), np.linspace(-1, 1, 5)
    grid = clf.expansion_.evaluate_grid(xs, ys)[0]
    gx, gy = np.meshgrid(xs, ys)
    ref = clf.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(5, 7)
    np.testing.assert_allclose(grid, ref, atol=1e-10)


def test_linear_pca():
    X, _, Xt = blobs(d=4)
    pca = LinearPCA(n_components=3).fit(X)
    ref = PCA(n_components=3, svd_solver="full").fit(X)
    np.testing.assert_allclose(np.abs(pca.transform(Xt)), np.abs(ref.transform(Xt)), atol=1e-10)
    np.testing.assert_allclose(pca.expansion_.evaluate(Xt), pca.transform(Xt), atol=1e-10)
    white = LinearPCA(n_components=2, whiten=True).fit(X)
    np.testing.assert_allclose(white.expansion_.evaluate(Xt), white.transform(Xt), atol=1e-10)


@pytest.mark.parametrize("solver", ["svd", "eigen"])
def test_linear_discriminant(solver):
    X, _, Xt = blobs(d=3)
    y = np.digitize(X[:, 0] + X[:, 1], [-0.7, 0.7])  # three classes: two features
    lda = LinearDiscriminant(solver=solver).fit(X, y)
    ref = LinearDiscriminantAnalysis(solver=solver).fit(X, y)
    np.testing.assert_array_equal(lda.predict(Xt), ref.predict(Xt))
    assert lda.transform(Xt).shape == (50, 2)
    np.testing.assert_allclose(lda.expansion_.evaluate(Xt), lda.transform(Xt), atol=1e-9)
    np.testing.assert_allclose(lda.predict_proba(Xt).sum(axis=1), 1.0)


def test_linear_discriminant_refuses_shrinkage_with_svd():
    X, y, _ = blobs()
    with pytest.raises(ValueError, match="shrinkage"):
        LinearDiscriminant(shrinkage=0.5).fit(X, y)
    LinearDiscriminant(solver="eigen", shrinkage=0.5).fit(X, y)


def test_truncated_svd_is_the_best_rank_k_approximation():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((150, 4)) @ np.diag([3.0, 2.0, 1.0, 0.3]) + 1.0  # uncentered
    emb = TruncatedSVDEmbedding(n_components=3).fit(X)
    coords = emb.transform(X)
    s = np.linalg.svd(X, compute_uv=False)
    # Eckart-Young: the residual of the projection is the dropped singular value.
    assert np.linalg.norm(X - coords @ emb.components_) == pytest.approx(s[3], rel=1e-10)
    np.testing.assert_allclose(emb.singular_values_, s[:3])
    np.testing.assert_allclose(emb.expansion_.evaluate(X), coords, atol=1e-10)
    # Deterministic signs: refitting permuted data gives the same components.
    again = TruncatedSVDEmbedding(n_components=3).fit(X[::-1])
    np.testing.assert_allclose(again.components_, emb.components_, atol=1e-10)


def test_truncated_svd_beyond_the_rank_pads_with_zeros():
    X, _, _ = blobs()  # two features
    emb = TruncatedSVDEmbedding(n_components=3).fit(X)
    assert emb.n_components_ == 2
    out = emb.transform(X)
    assert out.shape == (X.shape[0], 3)
    np.testing.assert_array_equal(out[:, 2], 0.0)
    np.testing.assert_allclose(out[:, :2] @ emb.components_[:2], X, atol=1e-10)


@pytest.mark.parametrize(
    "est, params",
    [
        (SupportVectorClassifier, {"C": 0.0}),
        (SupportVectorClassifier, {"width": -1.0}),
        (OneClassSupportVector, {"nu": 1.5}),
        (SupportVectorRegressor, {"epsilon": -0.1}),
        (LinearPCA, {"n_components": 0}),
        (TruncatedSVDEmbedding, {"n_components": 0}),
    ],
)
def test_bad_parameters_are_refused(est, params):
    X, y, _ = blobs()
    with pytest.raises(ValueError, match=next(iter(params))):
        est(**params).fit(X, y)
