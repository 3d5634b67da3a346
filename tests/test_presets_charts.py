"""The presets drawn as charts (losses, ROC curves, unusual digits), checked against independent
computations: closed-form densities, scikit-learn's ROC area and kernel density, and a
brute-force kernel PCA reconstruction error."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn.metrics import roc_auc_score

from kfdviz import datasets, presets
from kfdviz.charts import CHARTS, Chart, Series, chart_names, compute_charts
from kfdviz.deck import default_deck
from kfdviz.estimators import registry
from kfdviz.paper_presets import _EPSILON, _loss_curves
from kfdviz.paper_presets_novelty import (
    _parzen_scores,
    novelty_split,
    roc_curve_points,
)
from kfdviz.render import compute
from kfdviz.session import load_session, save_session, state_from_preset

NEW = ["kfd-losses", "invariant-kfd", "novelty-roc", "novelty-digits"]

_CACHE: dict = {}


def computed(name):
    if name not in _CACHE:
        _CACHE[name] = compute(state_from_preset(name))
    return _CACHE[name]


@pytest.mark.parametrize("name", NEW)
def test_new_presets_are_in_the_default_deck(name):
    assert name in presets.names() and name in default_deck()


def test_a_session_keeps_its_charts(tmp_path):
    state = state_from_preset("novelty-roc")
    back = load_session(save_session(tmp_path / "roc.kfdviz", state))
    assert chart_names(back) == ["novelty-roc"] and back.view_settings["charts_only"] is True


def test_an_unknown_chart_is_named():
    from dataclasses import replace

    state = replace(state_from_preset("default"), view_settings={"charts": ["no-such"]})
    with pytest.raises(ValueError, match="no-such"):
        compute_charts(state)
    assert "novelty-roc" in CHARTS


def test_chart_checks_its_series():
    with pytest.raises(ValueError, match="1-D"):
        Series("bad", np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="kind"):
        Chart("pie")


# -- NIPS 2001 Fig. 1 --------------------------------------------------------------------------------
def test_loss_densities_are_the_papers():
    xi = np.linspace(-3, 3, 121)
    curves = _loss_curves(xi)
    gauss_loss, gauss = curves["Gaussian"]
    np.testing.assert_allclose(gauss_loss, xi**2 / 2)
    np.testing.assert_allclose(gauss, np.exp(-(xi**2) / 2) / np.sqrt(2 * np.pi), rtol=1e-4)
    lap_loss, lap = curves["Laplacian"]
    np.testing.assert_allclose(lap_loss, np.abs(xi))
    np.testing.assert_allclose(lap, 0.5 * np.exp(-np.abs(xi)), rtol=1e-4)
    eps_loss, eps = curves["ε-insensitive"]
    np.testing.assert_allclose(eps_loss, np.maximum(np.abs(xi) - _EPSILON, 0.0))
    np.testing.assert_allclose(
        eps, np.exp(-np.maximum(np.abs(xi) - _EPSILON, 0)) / (2 * (1 + _EPSILON)), rtol=1e-4
    )
    huber_loss, huber = curves["Huber"]
    inner = np.abs(xi) <= 1
    np.testing.assert_allclose(huber_loss[inner], xi[inner] ** 2 / 2)
    np.testing.assert_allclose(huber_loss[~inner], np.abs(xi[~inner]) - 0.5)
    # a density: positive, symmetric, largest at 0
    assert np.all(huber > 0) and np.allclose(huber, huber[::-1]) and huber.argmax() == 60


def test_robust_losses_resist_the_outliers():
    c = computed("kfd-losses")
    assert [ch.kind for ch in c.charts] == ["lines"]
    assert len(c.results) == 3
    assert [r.params["loss"] for r in c.results] == ["squared", "absolute", "huber"]
    Xc, yc = datasets.make("outlier_blobs", seed=5, n_samples=2000, n_outliers=0)
    state = c.state
    errors = []
    for panel in state.panels:
        est = registry.get(panel.algorithm).make(panel.params).fit(state.X, state.y)
        errors.append(float(np.mean(est.predict(Xc) != yc)))
    assert errors[1] < 0.7 * errors[0] and errors[2] < 0.7 * errors[0]
    assert max(errors[1:]) < 0.08


# -- novelty on breast cancer ------------------------------------------------------------------------
def test_roc_area_is_scikit_learns():
    rng = np.random.default_rng(0)
    normal = rng.normal(0, 1, 80)
    novel = rng.normal(1, 1, 50)
    novel[:5] = normal[:5]  # ties across the classes
    fpr, tpr, area = roc_curve_points(normal, novel)
    labels = np.r_[np.zeros(80), np.ones(50)]
    assert area == pytest.approx(roc_auc_score(labels, np.r_[normal, novel]), abs=1e-12)
    assert fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1
    assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)


def test_parzen_score_is_minus_log_kernel_density():
    from sklearn.neighbors import KernelDensity

    rng = np.random.default_rng(1)
    Xtr, Xte = rng.normal(size=(60, 4)), rng.normal(size=(25, 4)) * 2
    sigma = 0.8
    mine = _parzen_scores(Xtr, Xte, sigma)
    d2 = ((Xte[:, None, :] - Xtr[None]) ** 2).sum(axis=2)
    brute = -logsumexp(-d2 / (2 * sigma**2), axis=1) + np.log(len(Xtr))
    # the same up to the density's normalizing constant (the detector's is a true density)
    np.testing.assert_allclose(mine - brute, (mine - brute)[0], rtol=1e-10, atol=1e-8)
    kde = KernelDensity(bandwidth=sigma).fit(Xtr).score_samples(Xte)
    # the same up to the density's normalizing constant
    np.testing.assert_allclose(mine + kde, (mine + kde)[0], atol=1e-8)


def test_novelty_roc_charts():
    c = computed("novelty-roc")
    roc, by_sigma, by_q = c.charts
    X, y = c.state.X, c.state.y
    train, test = novelty_split(y)
    assert np.all(y[train] == 0) and np.intersect1d(train, test).size == 0
    assert len(train) + len(test) == len(y) == 569
    novel = y[test] == 1
    # the ROC areas agree with scikit-learn's on the same scores
    from kfdviz.paper_presets_novelty import ROC_NU, ROC_Q, ROC_SIGMA, _kpca_scores, _ocsvm_scores

    kpca = _kpca_scores(X[train], X[test], ROC_SIGMA, ROC_Q)
    ocsvm = _ocsvm_scores(X[train], X[test], ROC_SIGMA, ROC_NU)
    parzen = _parzen_scores(X[train], X[test], ROC_SIGMA)
    for name, scores in (
        ("KPCA reconstruction error", kpca),
        ("one-class SVM", ocsvm),
        ("Parzen window", parzen),
    ):
        assert roc.extra["auc"][name] == pytest.approx(roc_auc_score(novel, scores), abs=1e-9)
        assert roc.extra["auc"][name] > 0.85  # malignant tumours are found far above chance
    for values in by_sigma.extra["auc"].values():
        assert values.shape == (len(by_sigma.extra["sigmas"]),) and np.all(values > 0.8)
    assert by_q.extra["auc"].shape == (len(by_q.extra["qs"]),)
    # the figure is the charts alone; the fits are there for the app
    from kfdviz.render import figure_plan

    plan = figure_plan(c)
    assert [p.kind for p in plan.panels] == ["chart"] * 3


# -- Hoffmann Fig. 11 ---------------------------------------------------------------------------------
def _brute_reconstruction_error(X, width, q):
    """Hoffmann's p(z) at the training points, from an eigendecomposition of the centred K."""
    n = len(X)
    d2 = ((X[:, None, :] - X[None]) ** 2).sum(axis=2)
    K = np.exp(-d2 / width)
    J = np.eye(n) - 1.0 / n
    Kc = J @ K @ J
    vals, vecs = np.linalg.eigh(Kc)
    vals, vecs = vals[::-1][:q], vecs[:, ::-1][:, :q]
    F = Kc @ vecs / np.sqrt(vals)  # projections of the training points
    return np.diag(Kc) - (F**2).sum(axis=1)


def test_novelty_digits_are_the_largest_reconstruction_errors():
    c = computed("novelty-digits")
    unusual, typical = c.charts
    X = c.state.X
    assert X.shape == (178, 64) and X.min() >= 0 and X.max() <= 1
    from kfdviz.paper_presets_novelty import DIGITS_Q, DIGITS_SIGMA

    p = _brute_reconstruction_error(X, 2 * DIGITS_SIGMA**2, DIGITS_Q)
    np.testing.assert_allclose(unusual.extra["error"], p, rtol=1e-6, atol=1e-9)
    order = np.argsort(-p)
    assert set(unusual.extra["order"]) == set(order[:10])
    assert set(typical.extra["order"]) == set(order[-10:])
    shown = [float(t.split("= ")[1]) for t in unusual.image_labels]
    assert shown == sorted(shown, reverse=True)
    for img, i in zip(unusual.images, unusual.extra["order"], strict=True):
        np.testing.assert_array_equal(img, X[i].reshape(8, 8))
