"""The linear baselines say what is wrong with data they cannot fit, in their own words."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.estimators.linear import LinearDiscriminant, LinearPCA


@pytest.mark.parametrize("solver", ["svd", "eigen"])
@pytest.mark.parametrize(
    "X",
    [np.ones((10, 2)), np.repeat([[0.0, 0.0], [1.0, 1.0]], 5, axis=0)],
    ids=["all identical", "each class identical"],
)
def test_a_discriminant_of_identical_points_says_why(X, solver):
    y = np.repeat([0, 1], 5)
    with pytest.raises(ValueError, match="within-class scatter is zero"):
        LinearDiscriminant(solver=solver).fit(X, y)


@pytest.mark.parametrize("estimator", [LinearDiscriminant(), LinearPCA()], ids=["lda", "pca"])
def test_finite_data_too_large_for_a_covariance_is_refused_in_words(estimator):
    X = np.array([[1e308, -1e308], [-1e308, 1e308], [0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match=r"too large .* largest \|x\| is 1e\+308.*scale the data"):
        estimator.fit(X, [0, 1, 0, 1])


def test_data_within_range_still_fit():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-1, 1, (20, 2)), rng.normal(1, 1, (20, 2))]) * 1e100
    y = np.repeat([0, 1], 20)
    assert LinearDiscriminant().fit(X, y).score(X, y) > 0.8
    assert np.isfinite(LinearPCA().fit(X).transform(X)).all()
