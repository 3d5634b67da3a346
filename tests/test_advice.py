"""Advice on misleading parameters: the width against the data's scale, memorized fits."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist

from kfdviz import datasets
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.pipeline.advice import (
    SCALE_POINTS,
    kernel_scale_advice,
    memorization_advice,
    width_from_data,
)


@pytest.fixture(scope="module")
def moons():
    X, y = datasets.make("moons", n_samples=160, noise=0.15, seed=1)
    test = np.arange(len(X)) % 4 == 0
    return X, y, test


def test_width_from_data_is_the_median_squared_distance(moons):
    X, _, _ = moons
    assert width_from_data(X) == pytest.approx(np.median(pdist(X, "sqeuclidean")), rel=1e-10)


def test_width_from_data_scales_with_the_data(moons):
    X, _, _ = moons
    assert width_from_data(10.0 * X) == pytest.approx(100.0 * width_from_data(X), rel=1e-10)


def test_width_from_data_on_many_points_uses_an_even_subsample():
    X = np.random.default_rng(0).normal(size=(5 * SCALE_POINTS, 2))
    full = np.median(pdist(X, "sqeuclidean"))
    # 2 dimensions, unit variance: the median squared distance is about 2 * 2 * ln 2.
    assert width_from_data(X) == pytest.approx(full, rel=0.1)


@pytest.mark.parametrize("X", [np.zeros((5, 2)), np.ones((1, 2)), np.full((3, 2), np.inf)])
def test_width_from_data_refuses_data_without_a_scale(X):
    with pytest.raises(ValueError, match="width from the data"):
        width_from_data(X)


def test_no_advice_at_the_data_scale(moons):
    X, _, _ = moons
    assert kernel_scale_advice(X, {"kernel": "rbf", "width": width_from_data(X)}) is None


@pytest.mark.parametrize("width, words", [(1e-12, "far below"), (1e12, "far above")])
def test_advice_far_from_the_data_scale(moons, width, words):
    X, _, _ = moons
    text = kernel_scale_advice(X, {"kernel": "rbf", "width": width})
    assert text is not None and words in text and "Width from data" in text


def test_no_scale_advice_for_other_kernels(moons):
    X, _, _ = moons
    assert kernel_scale_advice(X, {"kernel": "poly", "width": 1e-12, "degree": 2}) is None


def test_a_tiny_width_is_never_a_silent_blank_picture(moons):
    X, y, test = moons
    r = run_fit(FitRequest("kfd", {"width": 1e-12, "mu": 1e-3}, X, y, test))
    assert any("far below the data's scale" in w for w in r.warnings)


def test_memorized_fit_is_called_so():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 2))
    y = rng.integers(0, 2, size=200)  # labels carry no information about X
    test = np.arange(200) % 2 == 0
    r = run_fit(FitRequest("kfd", {"width": 1e-3, "mu": 1e-6}, X, y, test))
    assert r.train_error <= 0.02
    assert any("memorizes the training points" in w for w in r.warnings)


def test_a_good_fit_gets_no_advice(moons):
    X, y, test = moons
    r = run_fit(FitRequest("kfd", {"width": 0.5, "mu": 1e-3}, X, y, test))
    assert not any("memorizes" in w or "data's scale" in w for w in r.warnings)


@pytest.mark.parametrize(
    "train, test, y_test, expected",
    [
        (0.0, 0.5, [0, 1] * 10, True),
        (0.0, 0.1, [0, 1] * 10, False),
        (0.2, 0.5, [0, 1] * 10, False),
        (0.0, 0.5, [0, 1] * 3, False),  # too few test points to say
        (None, 0.5, [0, 1] * 10, False),
    ],
)
def test_memorization_advice_rule(train, test, y_test, expected):
    assert (memorization_advice(train, test, y_test) is not None) is expected


def test_huge_coordinates_give_no_advice_and_no_warning():
    X = np.array([[0.0, 0.0], [1e200, 0.0], [0.0, 1.0]])
    assert kernel_scale_advice(X, {"kernel": "rbf", "width": 1.0}) is None


def test_a_local_kernel_on_dense_structured_data_gets_no_advice():
    # Hoffmann's ring, line and square: a width far below the median squared distance, but
    # every point has close neighbours.
    X, _ = datasets.make("ring_line_square", n_samples=600, noise=0.02, seed=0)
    assert width_from_data(X) > 10 * 0.32
    assert kernel_scale_advice(X, {"kernel": "rbf", "width": 0.32}) is None
