"""Gram matrices against scikit-learn's pairwise kernels; chunking; the pairwise cache."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from kfdviz.core import kernels
from kfdviz.core.kernels import Kernel, PairwiseCache


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    return rng.randn(37, 4), rng.randn(23, 4)


@pytest.fixture
def fresh_cache(monkeypatch):
    cache = PairwiseCache()
    monkeypatch.setattr(kernels, "PAIRWISE_CACHE", cache)
    return cache


def _reference(kern: Kernel, X, Z):
    if kern.name == "rbf":
        return rbf_kernel(X, Z, gamma=1.0 / kern.width)
    if kern.name == "poly":
        return polynomial_kernel(X, Z, degree=kern.degree, gamma=1.0, coef0=kern.coef0)
    return linear_kernel(X, Z)


KERNELS = [
    Kernel("rbf", width=0.5),
    Kernel("rbf", width=7.0),
    Kernel("poly", degree=2, coef0=0.0),
    Kernel("poly", degree=3, coef0=1.0),
    Kernel("poly", degree=1, coef0=2.5),
    Kernel("linear"),
]


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
@pytest.mark.parametrize("cache", [True, False])
def test_gram_matches_sklearn(kern, cache, data, fresh_cache):
    X, Z = data
    np.testing.assert_allclose(
        kern(X, Z, cache=cache), _reference(kern, X, Z), rtol=1e-12, atol=1e-12
    )
    np.testing.assert_allclose(
        kern(X, X, cache=cache), _reference(kern, X, X), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_diag_matches_gram(kern, data):
    X, _ = data
    np.testing.assert_allclose(kern.diag(X), np.diag(_reference(kern, X, X)), rtol=1e-12)


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_sklearn_params_give_the_same_kernel(kern, data):
    from sklearn.metrics.pairwise import pairwise_kernels

    X, Z = data
    params = kern.sklearn_params()
    name = params.pop("kernel")
    assert name == kern.name
    np.testing.assert_allclose(
        pairwise_kernels(X, Z, metric=name, **params), kern(X, Z, cache=False), rtol=1e-12
    )


def test_sklearn_params_values():
    assert Kernel("rbf", width=4.0).sklearn_params() == {"kernel": "rbf", "gamma": 0.25}
    assert Kernel("poly", degree=2, coef0=0.5).sklearn_params() == {
        "kernel": "poly",
        "degree": 2,
        "gamma": 1.0,
        "coef0": 0.5,
    }
    assert Kernel("linear").sklearn_params() == {"kernel": "linear"}
    assert Kernel("rbf", width=4.0).gamma == 0.25


@pytest.mark.parametrize("kern", KERNELS, ids=repr)
def test_chunking_gives_identical_results(kern, data, monkeypatch):
    X, Z = data
    whole = kern(X, Z, cache=False)
    # A chunk budget below one row: every chunk holds a single row.
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 1)
    assert kernels.chunk_rows(X.shape[0], Z.shape[0]) == 1
    chunked = kern(X, Z, cache=False)
    # One row or many: the BLAS may use other kernels (gemv, gemm) and sum in another order, so
    # equal to round-off in the exponent, not bit for bit.
    np.testing.assert_allclose(chunked, whole, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(chunked, _reference(kern, X, Z), rtol=1e-12, atol=1e-12)


def test_chunk_rows_bounds_memory(monkeypatch):
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 8 * 3 * 10 * 100)
    assert kernels.chunk_rows(1000, 100) == 10
    assert kernels.chunk_rows(5, 100) == 5
    assert kernels.chunk_rows(1000, 10**9) == 1


def test_sqdist_is_nonnegative_for_duplicates():
    rng = np.random.RandomState(1)
    X = rng.randn(10, 3) * 1e4
    D2 = kernels._sqdist(X, X)
    assert np.all(D2 >= 0)
    np.testing.assert_allclose(np.diag(Kernel("rbf", width=1.0)(X, X, cache=False)), 1.0)


def test_cache_hit_on_width_change(data, fresh_cache):
    X, Z = data
    first = Kernel("rbf", width=1.0)(X, Z)
    assert (fresh_cache.hits, fresh_cache.misses) == (0, 1)
    second = Kernel("rbf", width=3.0)(X, Z)
    assert (fresh_cache.hits, fresh_cache.misses) == (1, 1)
    np.testing.assert_allclose(first, rbf_kernel(X, Z, gamma=1.0), rtol=1e-12)
    np.testing.assert_allclose(second, rbf_kernel(X, Z, gamma=1.0 / 3.0), rtol=1e-12)


def test_cache_hit_on_degree_change(data, fresh_cache):
    X, Z = data
    Kernel("poly", degree=2)(X, Z)
    out = Kernel("poly", degree=4, coef0=0.5)(X, Z)
    lin = Kernel("linear")(X, Z)
    assert (fresh_cache.hits, fresh_cache.misses) == (2, 1)
    np.testing.assert_allclose(out, polynomial_kernel(X, Z, degree=4, gamma=1, coef0=0.5))
    np.testing.assert_allclose(lin, linear_kernel(X, Z))


def test_cache_keyed_by_content(data, fresh_cache):
    X, Z = data
    kern = Kernel("rbf", width=2.0)
    kern(X, Z)
    # An equal array at a different address hits.
    kern(X.copy(), Z.copy())
    assert (fresh_cache.hits, fresh_cache.misses) == (1, 1)
    # The same array object with one entry changed misses, and the values are the new ones.
    X[5, 2] += 0.5
    out = kern(X, Z)
    assert (fresh_cache.hits, fresh_cache.misses) == (1, 2)
    np.testing.assert_allclose(out, rbf_kernel(X, Z, gamma=0.5), rtol=1e-12)


def test_cache_results_are_not_aliased(data, fresh_cache):
    """Callers may modify a returned Gram matrix without corrupting the cache."""
    X, Z = data
    for kern in (Kernel("rbf"), Kernel("poly"), Kernel("linear")):
        first = kern(X, Z)
        first[:] = 123.0
        np.testing.assert_allclose(kern(X, Z), _reference(kern, X, Z), rtol=1e-12)


def test_cache_evicts_by_count(fresh_cache):
    fresh_cache.max_entries = 2
    rng = np.random.RandomState(2)
    arrays = [rng.randn(5, 2) for _ in range(3)]
    kern = Kernel("rbf")
    for A in arrays:
        kern(A, A)
    assert len(fresh_cache._store) == 2
    kern(arrays[0], arrays[0])  # the oldest was evicted
    assert fresh_cache.misses == 4


@pytest.mark.parametrize("width", [0, 0.0, -1.0, float("nan"), float("inf")])
def test_bad_width(width):
    with pytest.raises(ValueError, match="width") as info:
        Kernel("rbf", width=width)
    assert repr(width) in str(info.value)


@pytest.mark.parametrize("degree", [0, -2, 1.5])
def test_bad_degree(degree):
    with pytest.raises(ValueError, match="degree") as info:
        Kernel("poly", degree=degree)
    assert repr(degree) in str(info.value)


@pytest.mark.parametrize("degree", [float("nan"), float("inf")])
def test_non_finite_degree(degree):
    with pytest.raises(ValueError, match="degree"):
        Kernel("poly", degree=degree)


@pytest.mark.parametrize("name", ["foo", "RBF", "gaussian", ""])
def test_unknown_kernel_name(name):
    with pytest.raises(ValueError, match="Unknown kernel") as info:
        Kernel(name)
    message = str(info.value)
    assert repr(name) in message
    for valid in kernels.KERNEL_NAMES:
        assert valid in message


def test_from_sqdist_and_from_dot_guard_their_kernel():
    with pytest.raises(ValueError, match="Gaussian"):
        Kernel("linear").from_sqdist(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="polynomial"):
        Kernel("rbf").from_dot(np.zeros((2, 2)))
