"""Gram matrices built in row blocks: the same values as one block and as scikit-learn's, exact
symmetry, and a cancel that stops the build between blocks."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from kfdviz.core import kernels, stoppable
from kfdviz.core.kernels import Kernel, PairwiseCache

KERNELS = [
    Kernel("rbf", width=0.05),
    Kernel("rbf", width=3.0),
    Kernel("poly", degree=3, coef0=1.0),
    Kernel("poly", degree=2, coef0=0.0),
    Kernel("poly", degree=4, coef0=0.5),
    Kernel("poly", degree=7, coef0=1.0),
    Kernel("linear"),
]


class Stop(Exception):
    """What the tests' cancel checks raise."""


@pytest.fixture
def fresh_cache(monkeypatch):
    cache = PairwiseCache()
    monkeypatch.setattr(kernels, "PAIRWISE_CACHE", cache)
    return cache


@pytest.fixture
def points():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(61, 3))
    X[7] = X[40]  # a duplicate: its distance must be exactly 0 in any block
    return X, rng.normal(size=(29, 3))


def _sklearn(kern: Kernel, X, Z):
    params = kern.sklearn_params()
    return pairwise_kernels(X, Z, metric=params.pop("kernel"), **params)


def _close(a, b):
    """Equal to round-off of the largest value (a BLAS may sum in another order)."""
    scale = max(float(np.abs(b).max()), 1.0)
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13 * scale)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_many_blocks_give_the_values_of_one_block_and_of_sklearn(kern, points, monkeypatch):
    X, Z = points
    whole_cross = kern(X, Z, cache=False)
    whole_self = kern(X, X, cache=False)
    # Seven values a block: one or two rows each, so every path through the blocks is taken.
    monkeypatch.setattr(kernels, "BLOCK_VALUES", 7 * 8)
    assert kernels.block_rows(X.shape[0], X.shape[0]) == 1
    assert kernels.block_rows(X.shape[0], Z.shape[0]) == 1
    monkeypatch.setattr(kernels, "BLOCK_VALUES", 2 * 61)
    assert kernels.block_rows(X.shape[0], X.shape[0]) == 2
    for values in (7 * 8, 2 * 61):
        monkeypatch.setattr(kernels, "BLOCK_VALUES", values)
        cross = kern(X, Z, cache=False)
        same = kern(X, X, cache=False)
        _close(cross, whole_cross)
        _close(same, whole_self)
        _close(cross, _sklearn(kern, X, Z))
        _close(same, _sklearn(kern, X, X))
        assert np.array_equal(same, same.T), "a set against itself must be exactly symmetric"


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_a_set_against_itself_is_exactly_symmetric_in_one_block_or_many(kern, monkeypatch):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 4)) * 3.0
    for values in (kernels.BLOCK_VALUES, 1000):
        monkeypatch.setattr(kernels, "BLOCK_VALUES", values)
        K = kern(X, X.copy(), cache=False)  # equal content, another array
        assert np.array_equal(K, K.T)
        _close(K, _sklearn(kern, X, X))
        if kern.name == "rbf":
            assert np.all(np.diag(K) == 1.0)


def test_identical_points_are_at_distance_zero_in_every_block(points, monkeypatch):
    X, _ = points
    monkeypatch.setattr(kernels, "BLOCK_VALUES", 100)
    D2 = kernels._sqdist(X * 1e4, X * 1e4)
    assert np.all(np.diag(D2) == 0.0) and D2[7, 40] == 0.0 and D2[40, 7] == 0.0
    assert np.all(D2 >= 0.0)


def test_blocks_bound_the_values_and_the_memory(monkeypatch):
    monkeypatch.setattr(kernels, "BLOCK_VALUES", 1000)
    assert kernels.block_rows(5000, 100) == 10
    assert kernels.block_rows(5, 100) == 5
    assert kernels.block_rows(10, 10**6) == 1  # at least a row
    monkeypatch.setattr(kernels, "BLOCK_VALUES", 10**9)
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 8 * 3 * 100 * 20)
    assert kernels.block_rows(5000, 100) == 20  # the memory bound holds too


class BlockCounter:
    """Counts the row blocks of distances or inner products computed; its ``check`` raises
    :class:`Stop` once ``stop_after`` blocks are done."""

    def __init__(self, monkeypatch, stop_after: int):
        self.blocks = 0
        self.stop_after = stop_after
        for name in ("_sqdist_block", "_dot_block"):
            monkeypatch.setattr(kernels, name, self._counting(getattr(kernels, name)))

    def _counting(self, block):
        def counted(*args):
            block(*args)
            self.blocks += 1

        return counted

    def check(self) -> None:
        if self.blocks >= self.stop_after:
            raise Stop


def _blocks_of(n: int) -> int:
    return -(-n // kernels.block_rows(n, n))


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_a_cancel_stops_a_large_kernel_pca_fit_after_the_first_block(
    kernel, monkeypatch, fresh_cache
):
    from kfdviz.estimators import KernelPCA

    n = 3000
    X = np.random.default_rng(0).normal(size=(n, 2))
    assert _blocks_of(n) >= 5
    counter = BlockCounter(monkeypatch, stop_after=1)
    with stoppable.cancel_scope(counter.check), pytest.raises(Stop):
        KernelPCA(n_components=2, kernel=kernel, width=1.0).fit(X)
    assert counter.blocks == 1
    # Nothing half-built was kept: the next fit computes every block.
    counter.stop_after = np.inf
    counter.blocks = 0
    with stoppable.cancel_scope(counter.check):
        Kernel(kernel, width=1.0)(X, X)
    assert counter.blocks == _blocks_of(n)


def test_a_cancelled_run_fit_of_a_large_kfd_stops_in_its_kernel_build(monkeypatch, fresh_cache):
    from kfdviz.core.fit_cache import FIT_CACHE
    from kfdviz.pipeline import FitCancelled, FitRequest, run_fit

    monkeypatch.setattr(FIT_CACHE, "max_entries", 0)
    n = 3000
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] > 0).astype(int)
    counter = BlockCounter(monkeypatch, stop_after=2)
    request = FitRequest("kfd", {"width": 1.0, "mu": 1e-3}, X, y)
    with pytest.raises(FitCancelled):
        run_fit(request, cancel=lambda: counter.blocks >= counter.stop_after)
    assert counter.blocks == 2 < _blocks_of(n)


def test_a_cancel_stops_the_exponential_pass_over_cached_distances(monkeypatch, fresh_cache):
    n = 2000
    X = np.random.default_rng(2).normal(size=(n, 2))
    Kernel("rbf", width=1.0)(X, X)  # the distances are cached: a width change is one pass
    counter = BlockCounter(monkeypatch, stop_after=np.inf)  # counts distance blocks
    asked = []

    def check():
        asked.append(1)
        if len(asked) > 1:  # the second block of the pass
            raise Stop

    with stoppable.cancel_scope(check), pytest.raises(Stop):
        Kernel("rbf", width=2.0)(X, X)
    assert len(asked) == 2 and counter.blocks == 0  # one block of exponentials, no distances
    assert kernels.block_rows(n, n) < n


def test_without_a_scope_nothing_is_asked(points, fresh_cache):
    X, Z = points
    assert stoppable.current() is None
    _close(Kernel("rbf", width=1.0)(X, Z), _sklearn(Kernel("rbf", width=1.0), X, Z))


def test_elementwise_passes_take_scalars_and_vectors():
    d2 = np.array([0.0, 0.5, 4.0])
    np.testing.assert_allclose(Kernel("rbf", width=2.0).from_sqdist(d2), np.exp(-d2 / 2.0))
    assert float(Kernel("rbf", width=2.0).from_sqdist(np.float64(1.0))) == pytest.approx(
        np.exp(-0.5)
    )
    for degree in (1, 2, 3, 4, 5):
        kern = Kernel("poly", degree=degree, coef0=0.5)
        assert float(kern.from_dot(np.asarray(1.5))) == pytest.approx(2.0**degree, rel=4e-15)
        np.testing.assert_allclose(kern.from_dot(d2), (d2 + 0.5) ** degree, rtol=4e-15)


def test_the_within_class_scatter_is_cancellable_between_its_blocks(monkeypatch):
    from kfdviz.core import scatter

    rng = np.random.default_rng(3)
    Kzx = rng.standard_normal((40, 300))
    y = rng.integers(0, 2, 300)
    whole = scatter.within_class_scatter(Kzx, y, 2)  # no scope: one product
    monkeypatch.setattr(scatter, "CANCEL_BLOCK_FLOPS", 40 * 40 * 50)  # 6 blocks of 50 columns
    asked = []
    with stoppable.cancel_scope(lambda: asked.append(1)):
        blocked = scatter.within_class_scatter(Kzx, y, 2)
    assert len(asked) == 6
    np.testing.assert_allclose(blocked, whole, rtol=1e-12, atol=1e-12 * np.abs(whole).max())
    np.testing.assert_array_equal(blocked, blocked.T)

    class Stop(Exception):
        pass

    def stop_at_the_third():
        asked.append(1)
        if len(asked) == 3:
            raise Stop

    asked.clear()
    with pytest.raises(Stop), stoppable.cancel_scope(stop_at_the_third):
        scatter.within_class_scatter(Kzx, y, 2)
    assert len(asked) == 3  # the product stopped at its third block of six
