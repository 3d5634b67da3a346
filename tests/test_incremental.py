"""One moved training point: the KFD terms updated by low-rank corrections equal a recompute."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.core import incremental, scatter
from kfdviz.core.fit_cache import FIT_CACHE, TwoClassTerms
from kfdviz.core.kernels import Kernel
from kfdviz.estimators import KernelFisherDiscriminant

KERNELS = [Kernel("rbf", 0.7), Kernel("poly", degree=3, coef0=1.0), Kernel("linear")]


@pytest.fixture(autouse=True)
def _fresh():
    incremental.forget()
    FIT_CACHE.clear()
    yield
    incremental.forget()
    FIT_CACHE.clear()


def _data(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (rng.random(n) > 0.4).astype(int)
    return X, y


def _fresh_terms(kern, X, y) -> TwoClassTerms:
    K = kern(X, X, cache=False)
    return TwoClassTerms(K, scatter.class_means(K, y, 2), scatter.within_class_scatter(K, y, 2))


def _relative(a, b) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


@pytest.mark.parametrize("kern", KERNELS, ids=lambda k: k.name)
def test_many_successive_updates_equal_a_recompute(kern):
    X, y = _data()
    rng = np.random.default_rng(1)
    terms = _fresh_terms(kern, X, y)
    for step in range(60):
        j = int(rng.integers(X.shape[0])) if step % 3 else 4  # the same point, and others
        X = X.copy()
        X[j] += 0.2 * rng.normal(size=2)
        terms = incremental.update_two_class_terms(kern, terms, X, j, y)
    full = _fresh_terms(kern, X, y)
    assert _relative(terms.Kzx, full.Kzx) < 1e-12
    assert _relative(terms.means, full.means) < 1e-12
    assert _relative(terms.N, full.N) < 1e-12
    assert np.array_equal(terms.N, terms.N.T), "N stays exactly symmetric"
    assert not terms.N.flags.writeable and not terms.Kzx.flags.writeable


def test_moved_row():
    A = np.zeros((5, 2))
    B = A.copy()
    assert incremental.moved_row(A, B) is None
    B[3, 1] = 1.0
    assert incremental.moved_row(A, B) == 3
    B[0, 0] = 1.0
    assert incremental.moved_row(A, B) is None
    assert incremental.moved_row(A, np.zeros((6, 2))) is None


def _coef(X, y, **params):
    return KernelFisherDiscriminant(width=0.7, mu=1e-3, **params).fit(X, y).expansion_.coef[:, 0]


def test_a_kfd_refit_after_one_point_moved_is_the_cold_fit():
    X, y = _data(200)
    _coef(X, y)
    assert incremental.stats["remembered"] == 1
    for k in range(5):
        X = X.copy()
        X[7] += (0.05 * k, -0.03)
        updated = _coef(X, y)
        assert incremental.stats["updates"] == 1  # forget() below resets the count
        incremental.forget()
        FIT_CACHE.clear()
        cold = _coef(X, y)
        assert incremental.stats["updates"] == 0
        np.testing.assert_allclose(updated, cold, rtol=1e-8, atol=1e-8 * np.abs(cold).max())


def test_no_update_for_other_changes():
    X, y = _data(150)
    _coef(X, y)
    X2 = X.copy()
    X2[[3, 9]] += 0.1  # two points moved
    _coef(X2, y)
    y3 = y.copy()
    y3[5] = 1 - y3[5]
    X3 = X2.copy()
    X3[0] += 0.1  # one point moved, one relabelled
    _coef(X3, y3)
    X4 = X3.copy()
    X4[1] += 0.1
    KernelFisherDiscriminant(width=0.5, mu=1e-3).fit(X4, y3)  # another width
    assert incremental.stats["updates"] == 0
    # A subset expansion or a tangent term is never updated (and never remembered).
    remembered = incremental.stats["remembered"]
    _coef(X4, y3, n_centers=50, random_state=0)
    _coef(X4, y3, tangents="rotation", tangent_weight=0.1)
    assert incremental.stats["remembered"] == remembered


def test_the_terms_are_computed_afresh_after_refresh_updates(monkeypatch):
    monkeypatch.setattr(incremental, "REFRESH", 3)
    X, y = _data(100)
    _coef(X, y)
    for _ in range(5):
        X = X.copy()
        X[2, 0] += 0.01
        _coef(X, y)
    # three updates, a fresh fit, then updates again
    assert incremental.stats["updates"] == 4
    assert incremental.stats["remembered"] == 2
