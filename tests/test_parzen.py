"""The Parzen-window novelty detector against scikit-learn's KernelDensity and brute force."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.neighbors import KernelDensity
from sklearn.utils._param_validation import InvalidParameterError

from kfdviz.estimators.novelty import KernelPCANoveltyDetector
from kfdviz.estimators.parzen import ParzenNoveltyDetector
from kfdviz.figure.plan import describe_params
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.pipeline.cost import estimate


@pytest.mark.parametrize("d", [1, 2, 5])
@pytest.mark.parametrize("width", [0.05, 1.0, 30.0])
def test_log_density_equals_sklearns_kernel_density(d, width):
    rng = np.random.default_rng(d)
    X = rng.standard_normal((80, d))
    Z = 2.0 * rng.standard_normal((25, d))
    ours = ParzenNoveltyDetector(width=width).fit(X).score_samples(Z)
    # kfdviz's exp(-||x - z||^2 / c) is a normal window of variance c / 2: bandwidth sqrt(c / 2).
    kde = KernelDensity(kernel="gaussian", bandwidth=np.sqrt(width / 2.0)).fit(X)
    np.testing.assert_allclose(ours, kde.score_samples(Z), rtol=1e-10, atol=1e-10)


def test_density_equals_the_brute_force_sum_of_windows():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [-0.5, 2.0]])
    Z = np.array([[0.2, 0.1], [3.0, -1.0]])
    c = 0.7
    windows = [
        [np.exp(-np.sum((z - x) ** 2) / c) / (np.pi * c) for x in X] for z in Z
    ]  # (pi c)^(-d/2) with d = 2
    expected = np.log(np.mean(windows, axis=1))
    got = ParzenNoveltyDetector(width=c).fit(X).score_samples(Z)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_far_points_get_finite_scores_that_keep_falling():
    X = np.random.default_rng(0).standard_normal((50, 2))
    Z = np.array([[30.0, 0.0], [60.0, 0.0], [120.0, 0.0]])
    scores = ParzenNoveltyDetector(width=0.1).fit(X).score_samples(Z)
    assert np.all(np.isfinite(scores))  # exp underflows to 0 here; the log-sum-exp does not
    assert scores[0] > scores[1] > scores[2]
    kde = KernelDensity(bandwidth=np.sqrt(0.05)).fit(X)
    np.testing.assert_allclose(scores, kde.score_samples(Z), rtol=1e-10)


def test_the_density_is_an_affine_function_of_hoffmanns_distance_to_the_mean():
    # p_S(z) = k(z, z) - (2/n) sum_i k(z, x_i) + mean(K) and k(z, z) = 1 for the Gaussian, so
    # the windows' mean is (1 + mean(K) - p_S(z)) / 2.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((60, 2))
    Z = rng.uniform(-3, 3, (40, 2))
    c = 0.8
    kpca = KernelPCANoveltyDetector(n_components=1, width=c).fit(X)
    K_mean = float(np.mean(np.exp(-((X[:, None, :] - X[None]) ** 2).sum(-1) / c)))
    p_S = 1.0 + kpca.mean_expansion_.evaluate(Z)[:, 0]
    windows_mean = (1.0 + K_mean - p_S) / 2.0
    density = np.exp(ParzenNoveltyDetector(width=c).fit(X).score_samples(Z))
    np.testing.assert_allclose(density, windows_mean / (np.pi * c), rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize("contamination", [0.05, 0.1, 0.3])
def test_contamination_is_the_fraction_of_training_points_called_outliers(contamination):
    X = np.random.default_rng(1).standard_normal((200, 2))
    det = ParzenNoveltyDetector(width=0.5, contamination=contamination).fit(X)
    outside = float(np.mean(det.predict(X) == -1))
    assert abs(outside - contamination) <= 1.0 / X.shape[0]
    np.testing.assert_allclose(det.decision_function(X), det.score_samples(X) - det.offset_)


def test_bad_width_is_refused_by_name():
    with pytest.raises(InvalidParameterError, match="'width'"):
        ParzenNoveltyDetector(width=0.0).fit(np.zeros((5, 2)))


def test_the_pipeline_draws_it_as_a_novelty_detector():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((120, 2))
    request = FitRequest("parzen", {"width": 0.5, "contamination": 0.1}, X=X)
    result = run_fit(request)
    assert result.kind == "novelty"
    assert [key for key, _ in result.feature_options] == ["decision", "score"]
    assert result.grid is not None and result.grid.boundary is not None
    det = ParzenNoveltyDetector(width=0.5, contamination=0.1).fit(X)
    np.testing.assert_allclose(result.outputs, det.decision_function(X), rtol=1e-12)
    score = run_fit(FitRequest("parzen", {"width": 0.5}, X=X, feature="score"))
    assert "log density" in score.feature_label
    # The figure's caption names the Gaussian window though the detector has no kernel choice.
    assert describe_params("parzen", score.params).startswith("Gaussian, c = 0.5")
    assert estimate("parzen", {"width": 0.5}, 120).seconds > 0
