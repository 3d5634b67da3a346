"""An exact fit predicted to be slow or large is warned about, with the estimate and the option
that scales; small fits, and fits that already scale, are not."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kfdviz.estimators import KernelFisherDiscriminant, KernelPCA, LargeFitWarning


@pytest.fixture(scope="module")
def big():
    rng = np.random.default_rng(0)
    return rng.normal(size=(20_000, 2))


def test_a_large_kfd_is_warned_about_before_it_fits(big):
    one_class = np.zeros(len(big))  # the fit stops right after its checks
    with pytest.warns(LargeFitWarning) as caught, pytest.raises(ValueError):
        KernelFisherDiscriminant().fit(big, one_class)
    message = str(caught[0].message)
    assert "20,000 points" in message and " GB" in message and "about" in message
    assert "n_centers" in message and "greedy" in message


def test_a_large_kernel_pca_names_its_estimate(big):
    with pytest.warns(LargeFitWarning, match=r"KernelPCA on 20,000 points.* GB"):
        KernelPCA()._check_X(big, reset=True)  # the checks its fit starts with


def test_no_warning_for_small_fits_or_fits_that_scale(big):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LargeFitWarning)
        KernelFisherDiscriminant().fit(X, y)
        KernelFisherDiscriminant(n_centers=200)._check_X_y(big, (big[:, 0] > 0).astype(int))
        # A program over a subset: its solver's worst-case count is no prediction of a slow fit.
        for formulation in ("sparse", "linear-sparse", "qp"):
            KernelFisherDiscriminant(formulation=formulation, n_centers=300)._check_X_y(
                big, (big[:, 0] > 0).astype(int)
            )


def test_the_warning_is_shown_once(big):
    X = big[:15_000]
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        for _ in range(3):
            KernelFisherDiscriminant(mu=0.01)._check_X_y(X, y)
    assert sum(issubclass(r.category, LargeFitWarning) for r in records) == 1
