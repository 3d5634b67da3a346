"""Estimators on degenerate data, extreme kernels and far-away inputs: a clear answer, never NaN."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils import validation

from kfdviz.estimators import (
    KernelFisherDiscriminant,
    KernelOrthogonalCentroid,
    KernelPCA,
    KernelPCANoveltyDetector,
    OrientedKernelPCA,
)


def _two_classes(n=40, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 2)
    X[n // 2 :] += 1.0
    return X, np.repeat([0, 1], n // 2)


POLY = dict(kernel="poly", degree=3, coef0=1.0)
REFUSING = [
    KernelFisherDiscriminant(**POLY),
    KernelFisherDiscriminant(**POLY, multi_class="gda"),
    KernelPCA(**POLY),
    OrientedKernelPCA(**POLY),
    KernelOrthogonalCentroid(**POLY),
]
FAR = np.array([[0.5, 0.5], [1e110, 0.0], [-0.3, 1.0]])


@pytest.mark.parametrize("est", REFUSING, ids=lambda e: type(e).__name__)
def test_outputs_that_overflow_are_refused_by_row_not_passed_on_as_nan(est):
    X, y = _two_classes(45 if "gda" in repr(est) else 40)
    if "gda" in repr(est):
        y = np.repeat([0, 1, 2], 15)
    fitted = clone(est).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way
        for method in ("transform", "decision_function", "predict", "predict_proba"):
            if hasattr(fitted, method):
                with pytest.raises(ValueError, match=r"1 of the 3 rows of X \(first: row 1"):
                    getattr(fitted, method)(FAR)
                # The finite rows alone still work, and give finite values.
                out = getattr(fitted, method)(FAR[[0, 2]])
                if np.asarray(out).dtype.kind == "f":
                    assert np.all(np.isfinite(out))


def test_novelty_detector_scores_rows_whose_kernel_overflows_as_novel():
    X, _ = _two_classes()
    det = KernelPCANoveltyDetector(n_components=5, **POLY).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = det.score_samples(FAR)
        predicted = det.predict(FAR)
    assert scores[1] == -np.inf and det.decision_function(FAR)[1] == -np.inf
    assert predicted[1] == -1
    # The other rows are scored as on their own.
    np.testing.assert_allclose(scores[[0, 2]], det.score_samples(FAR[[0, 2]]), rtol=1e-12)
    assert np.all(np.isfinite(scores[[0, 2]]))


ALL = [*REFUSING, KernelPCANoveltyDetector(n_components=5)]


@pytest.mark.parametrize("est", ALL, ids=lambda e: type(e).__name__)
def test_training_data_whose_kernel_values_overflow_are_refused_with_the_cause(est):
    X, y = _two_classes(45)
    y = np.repeat([0, 1, 2], 15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"kernel values overflow.*\^500.*lower the degree"):
            clone(est).set_params(kernel="poly", degree=500).fit(X, y)
        with pytest.raises(ValueError, match=r"overflow.*largest \|\|x\|\|\^2 is 1e\+310|inf"):
            clone(est).set_params(kernel="rbf").fit(np.vstack([X, [[1e155, 0.0]]]), np.r_[y, 0])


def test_novelty_detector_refuses_a_width_at_which_all_points_coincide():
    X, _ = _two_classes()
    with pytest.raises(ValueError, match=r"no positive eigenvalue.*width=1e\+308"):
        KernelPCANoveltyDetector(n_components=5, width=1e308).fit(X)
    # The same as KernelPCA, which refuses it too.
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        KernelPCA(width=1e308).fit(X)


def test_greedy_kfd_on_identical_points_says_the_classes_do_not_separate():
    X = np.ones((10, 2))
    with pytest.raises(ValueError, match="does not separate the class means"):
        KernelFisherDiscriminant(formulation="greedy").fit(X, np.repeat([0, 1], 5))


def test_oriented_kpca_refuses_data_without_variance_like_kernel_pca():
    X = np.ones((10, 2))
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        KernelPCA().fit(X)
    with pytest.raises(ValueError, match="no variance in feature space"):
        OrientedKernelPCA().fit(X)
    with pytest.raises(ValueError, match="no variance in feature space"):
        OrientedKernelPCA(width=1e308).fit(_two_classes()[0])


def test_oriented_kpca_warns_about_constant_features():
    """Three distinct points under a linear kernel span two directions: the third is constant."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    est = OrientedKernelPCA(n_components=3, kernel="linear", tangents=None).fit(X)
    assert any("carry no variance" in w for w in est.diagnostics_["warnings"])
    F = est.transform(X)
    assert np.ptp(F[:, 2]) <= 1e-8 * np.ptp(F[:, 0])


@pytest.mark.parametrize(
    "params, name",
    [
        (dict(center=[np.nan, 0.0]), "center"),
        (dict(center=[0.0, np.inf]), "center"),
        (dict(tangents=("rotation", "scale"), tangent_weights=[np.nan, 1.0]), "tangent_weights"),
        (dict(tangents=("rotation", "scale"), tangent_weights=[1.0, -1.0]), "tangent_weights"),
    ],
)
def test_non_finite_oriented_kpca_parameters_are_named(params, name):
    X, _ = _two_classes()
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        OrientedKernelPCA(**params).fit(X)


class _Frame:
    """The smallest table with column names, standing in for a DataFrame."""

    def __init__(self, values, columns):
        self._values = np.asarray(values, dtype=float)
        self.columns = list(columns)
        self.shape = self._values.shape

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)

    def __len__(self):
        return self.shape[0]


def test_a_novelty_detector_fitted_on_a_table_does_not_warn_about_feature_names(monkeypatch):
    real = validation._get_feature_names

    def feature_names(X):
        if isinstance(X, _Frame):
            return np.asarray(X.columns, dtype=object)
        return real(X)

    monkeypatch.setattr(validation, "_get_feature_names", feature_names)
    X, _ = _two_classes()
    frame = _Frame(X, ["a", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        det = KernelPCANoveltyDetector(n_components=5).fit(frame)
        det.fit(frame)
        scores = det.score_samples(frame)
    assert list(det.feature_names_in_) == ["a", "b"]
    np.testing.assert_allclose(
        scores, KernelPCANoveltyDetector(n_components=5).fit(X).score_samples(X)
    )
    # A plain array at predict time is what scikit-learn warns about, as for any estimator.
    with pytest.warns(UserWarning, match="feature names"):
        det.predict(X)


@pytest.mark.parametrize("width", [1e-9, 1e-6])
def test_novelty_detector_at_extreme_widths_agrees_with_the_explicit_feature_space(width):
    """K = I: the points are orthonormal feature vectors e_i, so p has closed forms."""
    X = np.random.RandomState(1).randn(50, 2) * 10
    q = 5
    det = KernelPCANoveltyDetector(n_components=q, width=width).fit(X)
    assert det.n_components_ == q
    p_train = det.reconstruction_error(X)
    # ||e_i - mean||^2 = 1 - 1/n each, and the q-dimensional subspace takes q in total.
    n = X.shape[0]
    np.testing.assert_allclose(p_train.sum(), n * (1 - 1 / n) - q, rtol=1e-9)
    # A new point is orthogonal to all of them: p = ||e_z - mean||^2 = 1 + 1/n.
    p_new = det.reconstruction_error(X[:3] + 1.0)
    np.testing.assert_allclose(p_new, 1 + 1 / n, rtol=1e-9)
    assert np.all(det.predict(X[:3] + 1.0) == -1)
