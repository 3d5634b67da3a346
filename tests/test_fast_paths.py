"""The fast paths give the answers of the slow ones: grids, the fit cache, KPCA's eigensolvers."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from kfdviz.core import expansion as expansion_module
from kfdviz.core import fit_cache, kernels, scatter
from kfdviz.core import kpca as kpca_module
from kfdviz.core.expansion import Expansion
from kfdviz.core.fit_cache import FIT_CACHE, FitCache
from kfdviz.core.kernels import PAIRWISE_CACHE, Kernel
from kfdviz.core.kpca import centred_kpca, choose_solver
from kfdviz.estimators import KernelFisherDiscriminant, KernelPCA


def _brute_grid(e: Expansion, xs, ys) -> np.ndarray:
    """out[j, b, a] = f_j(xs[a], ys[b]), one kernel value at a time (in long double)."""
    Z = e.centers.astype(np.longdouble)
    out = np.empty((e.n_features, ys.size, xs.size))
    for b, y in enumerate(ys):
        for a, x in enumerate(xs):
            p = np.array([x, y], dtype=np.longdouble)
            if e.kernel.name == "rbf":
                k = np.exp(-((Z - p) ** 2).sum(axis=1) / e.kernel.width)
            elif e.kernel.name == "poly":
                k = (Z @ p + e.kernel.coef0) ** e.kernel.degree
            else:
                k = Z @ p
            out[:, b, a] = (k @ e.coef.astype(np.longdouble)) + e.offset
    return out


def _expansion(kern, m=40, k=2, seed=0, shift=(0.3, -0.6)):
    rng = np.random.RandomState(seed)
    centers = rng.randn(m, 2) * [1.3, 0.7] + shift
    return Expansion(kern, centers, rng.randn(m, k), rng.randn(k))


POLY_KERNELS = [
    Kernel("poly", degree=1, coef0=0.5),
    Kernel("poly", degree=2, coef0=0.0),
    Kernel("poly", degree=3, coef0=1.0),
    Kernel("poly", degree=6, coef0=2.0),
    Kernel("linear"),
]


@pytest.fixture
def no_direct_grid(monkeypatch):
    """Make the brute-force grid unavailable, so a test proves the fast path ran."""

    def refuse(self, xs, ys, check_cancel=None):
        raise AssertionError("the direct grid evaluation was used")

    monkeypatch.setattr(Expansion, "_direct_grid", refuse)


@pytest.mark.parametrize("kern", POLY_KERNELS, ids=repr)
def test_polynomial_grid_is_the_brute_force_sum(kern, no_direct_grid):
    e = _expansion(kern)
    xs = np.linspace(-2.5, 3.0, 23)  # non-square: a transposed layout cannot pass
    ys = np.linspace(-1.5, 0.5, 9)
    out = e.evaluate_grid(xs, ys)
    expected = _brute_grid(e, xs, ys)
    assert out.shape == (2, ys.size, xs.size)
    scale = np.abs(expected).max()
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("kern", POLY_KERNELS[2:], ids=repr)
def test_polynomial_grid_row_major_with_unsorted_axes(kern, no_direct_grid):
    e = _expansion(kern, k=1, seed=1)
    xs = np.array([0.7, -1.9, 0.0, 2.4, -0.3, 1.1])
    ys = np.array([1.2, -0.8, 0.05])
    out = e.evaluate_grid(xs, ys)[0]
    for b, y in enumerate(ys):
        for a, x in enumerate(xs):
            direct = e.evaluate(np.array([[x, y]]))[0, 0]
            assert out[b, a] == pytest.approx(direct, rel=1e-12, abs=1e-12 * np.abs(out).max())


def test_polynomial_grid_single_point_axes(no_direct_grid):
    e = _expansion(Kernel("poly", degree=3), k=1)
    out = e.evaluate_grid(np.array([0.4]), np.array([-0.2, 0.3]))
    np.testing.assert_allclose(out[0, :, 0], e.evaluate(np.array([[0.4, -0.2], [0.4, 0.3]]))[:, 0])


def test_polynomial_grid_matches_fitted_estimators(no_direct_grid):
    rng = np.random.RandomState(2)
    X = rng.randn(150, 2) * [2.0, 1.0] + [1.0, 3.0]
    y = (X[:, 0] ** 2 + X[:, 1] > 4).astype(int)
    xs, ys = np.linspace(-6, 8, 41), np.linspace(-1, 7, 29)
    for est in (
        KernelFisherDiscriminant(kernel="poly", degree=3, mu=1e-6).fit(X, y),
        KernelPCA(2, kernel="poly", degree=4).fit(X),
    ):
        e = getattr(est, "decision_expansion_", est.expansion_)
        expected = _brute_grid(e, xs, ys)
        np.testing.assert_allclose(
            e.evaluate_grid(xs, ys), expected, rtol=0, atol=1e-11 * np.abs(expected).max()
        )


def test_polynomial_grid_far_from_the_origin_stays_exact(no_direct_grid):
    """Box-centred monomials: degree 12 at (30, -40) is as accurate as the direct sum."""
    e = _expansion(Kernel("poly", degree=12, coef0=1.0), m=10, k=1, shift=(30.0, -40.0))
    xs, ys = np.linspace(29, 31, 5), np.linspace(-41, -39, 4)
    expected = _brute_grid(e, xs, ys)
    np.testing.assert_allclose(e.evaluate_grid(xs, ys), expected, rtol=1e-12)


def test_polynomial_grid_falls_back_when_its_bound_is_not_met(monkeypatch):
    e = _expansion(Kernel("poly", degree=3), m=10, k=1)
    xs, ys = np.linspace(-2, 2, 5), np.linspace(-1, 1, 4)
    assert e._polynomial_grid(xs, ys) is not None
    monkeypatch.setattr(expansion_module, "_POLY_GRID_RTOL", 0.0)
    monkeypatch.setattr(expansion_module, "_DIRECT_ROUNDOFF_FACTOR", 0.0)
    assert e._polynomial_grid(xs, ys) is None
    np.testing.assert_array_equal(e.evaluate_grid(xs, ys), e._direct_grid(xs, ys))
    # Beyond the degree limit the direct sum is used whatever the data.
    monkeypatch.undo()
    high = _expansion(Kernel("poly", degree=expansion_module._MAX_POLY_GRID_DEGREE + 1), m=5)
    assert high._polynomial_grid(np.linspace(-1, 1, 3), np.linspace(-1, 1, 3)) is None


def test_rbf_grid_in_chunks_of_centers(monkeypatch):
    e = _expansion(Kernel("rbf", width=0.8), m=30, k=2)
    xs, ys = np.linspace(-3, 3, 17), np.linspace(-2, 2, 11)
    whole = e.evaluate_grid(xs, ys)
    monkeypatch.setattr(kernels, "CHUNK_BYTES", 1)  # one center per chunk
    monkeypatch.setattr(expansion_module, "chunk_rows", kernels.chunk_rows)
    calls = []
    chunked = e.evaluate_grid(xs, ys, check_cancel=lambda: calls.append(1))
    assert len(calls) == 30
    np.testing.assert_allclose(chunked, whole, rtol=0, atol=1e-12 * np.abs(whole).max())
    expected = _brute_grid(e, xs, ys)
    np.testing.assert_allclose(whole, expected, rtol=0, atol=1e-13 * np.abs(expected).max())


# -- scatter ---------------------------------------------------------------------------------
def test_within_class_scatter_is_the_sum_of_class_scatters():
    rng = np.random.RandomState(3)
    Kzx = rng.rand(7, 30)
    y = rng.randint(0, 3, 30)
    expected = np.zeros((7, 7))
    for j in range(3):
        block = Kzx[:, y == j]
        centred = block - block.mean(axis=1, keepdims=True)
        expected += centred @ centred.T
    np.testing.assert_allclose(scatter.within_class_scatter(Kzx, y, 3), expected, rtol=1e-12)


# -- the fit cache -----------------------------------------------------------------------------
@pytest.fixture
def clean_caches():
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    yield
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()


def _two_class(n=120, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 2)
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.randn(n) > 0).astype(int)
    return X, y


def _fitted_state(est):
    return (
        est.expansion_.coef.copy(),
        est.expansion_.offset.copy(),
        est.intercept_,
        est.rayleigh_quotient_,
        dict((k, v) for k, v in est.diagnostics_.items() if k != "warnings"),
    )


def _assert_same_fit(a, b, X):
    for left, right in zip(_fitted_state(a)[:4], _fitted_state(b)[:4], strict=True):
        np.testing.assert_array_equal(left, right)
    assert _fitted_state(a)[4] == _fitted_state(b)[4]
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


class _CountKernelCalls:
    def __init__(self, monkeypatch):
        self.calls = 0
        original = Kernel.__call__

        def counting(kern, X, Z, **kwargs):
            self.calls += 1
            return original(kern, X, Z, **kwargs)

        monkeypatch.setattr(Kernel, "__call__", counting)


@pytest.mark.parametrize(
    "changed",
    [{"mu": 0.1}, {"mu": 1e-6}, {"threshold": "midpoint"}, {"threshold": "min-error"}],
    ids=str,
)
def test_refit_changing_mu_or_threshold_reuses_the_terms(changed, clean_caches, monkeypatch):
    X, y = _two_class()
    params = dict(width=0.7, mu=1e-3, threshold="prior")
    KernelFisherDiscriminant(**params).fit(X, y)
    counter = _CountKernelCalls(monkeypatch)
    hits = FIT_CACHE.hits
    refit = KernelFisherDiscriminant(**{**params, **changed}).fit(X, y)
    assert FIT_CACHE.hits == hits + 1
    assert counter.calls == 0  # no kernel work at all
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    cold = KernelFisherDiscriminant(**{**params, **changed}).fit(X, y)
    _assert_same_fit(refit, cold, X)


def test_refit_with_centers_and_tangents_hits(clean_caches, monkeypatch):
    X, y = _two_class(200, seed=1)
    params = dict(
        width=1.0, n_centers=40, random_state=0, tangents=("rotation",), tangent_weight=0.5
    )
    KernelFisherDiscriminant(mu=1e-2, **params).fit(X, y)
    counter = _CountKernelCalls(monkeypatch)
    refit = KernelFisherDiscriminant(mu=1e-1, **params).fit(X, y)
    assert counter.calls == 0
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    _assert_same_fit(refit, KernelFisherDiscriminant(mu=1e-1, **params).fit(X, y), X)


@pytest.mark.parametrize(
    "change",
    ["point", "label", "width", "kernel", "centers", "tangent_weight", "tangent_step"],
)
def test_cache_misses_when_data_kernel_or_tangents_change(change, clean_caches):
    X, y = _two_class(150, seed=2)
    params = dict(width=0.7, n_centers=60, random_state=0, tangents=("rotation",))
    params["tangent_weight"] = 0.3
    KernelFisherDiscriminant(**params).fit(X, y)
    X2, y2 = X.copy(), y.copy()
    if change == "point":
        X2[17, 0] += 1e-9
    elif change == "label":
        y2[5] = 1 - y2[5]
    elif change == "width":
        params["width"] = 0.71
    elif change == "kernel":
        params.update(kernel="poly", degree=2)
    elif change == "centers":
        params["random_state"] = 1
    elif change == "tangent_weight":
        params["tangent_weight"] = 0.31
    else:
        params["tangent_step"] = 0.06
    misses = FIT_CACHE.misses
    refit = KernelFisherDiscriminant(**params).fit(X2, y2)
    assert FIT_CACHE.misses == misses + 1
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    _assert_same_fit(refit, KernelFisherDiscriminant(**params).fit(X2, y2), X2)


def test_irrelevant_kernel_parameter_still_hits(clean_caches):
    X, y = _two_class()
    KernelFisherDiscriminant(width=0.7, degree=3).fit(X, y)
    hits = FIT_CACHE.hits
    KernelFisherDiscriminant(width=0.7, degree=5, coef0=0.0).fit(X, y)  # RBF ignores both
    assert FIT_CACHE.hits == hits + 1


def test_cached_terms_are_read_only(clean_caches):
    X, y = _two_class()
    terms = fit_cache.two_class_terms(Kernel("rbf"), X, X, y)
    for a in (terms.Kzx, terms.means, terms.N):
        with pytest.raises(ValueError):
            a[0, 0] = 1.0


def test_cache_is_bounded_in_entries_and_bytes():
    cache = FitCache(max_bytes=10_000, max_entries=3)
    for i in range(5):
        cache.get_or_compute(i, lambda: np.zeros(100))  # 800 bytes each
    assert len(cache) == 3
    assert cache.get_or_compute(4, lambda: None) is not None  # the newest is kept
    cache.get_or_compute("big", lambda: np.zeros(1000))  # 8000 bytes: evicts to fit
    assert cache.nbytes <= 10_000
    huge = cache.get_or_compute("huge", lambda: np.zeros(2000))  # larger than the bound
    assert huge.size == 2000 and cache.nbytes <= 10_000
    cache.get_or_compute("huge", lambda: np.ones(1))
    assert cache.misses >= 7
    off = FitCache(max_entries=0)
    off.get_or_compute("a", lambda: np.zeros(1))
    assert len(off) == 0


def test_cache_is_thread_safe():
    cache = FitCache(max_bytes=2**20, max_entries=8)
    errors = []

    def work(seed):
        rng = np.random.RandomState(seed)
        try:
            for _ in range(300):
                key = int(rng.randint(0, 12))
                value = cache.get_or_compute(key, lambda key=key: np.full(50, float(key)))
                assert value[0] == key
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(cache) <= 8
    assert cache.hits + cache.misses == 6 * 300


# -- KPCA: ARPACK and LAPACK give the same features ---------------------------------------------
@pytest.mark.parametrize(
    "kern",
    [
        Kernel("rbf", width=0.5),
        Kernel("rbf", width=20.0),
        Kernel("poly", degree=2),
        Kernel("linear"),
    ],
    ids=repr,
)
def test_kpca_arpack_and_dense_agree(kern):
    X = np.random.RandomState(4).randn(260, 2) * [1.0, 0.5]
    K = kern(X, X, cache=False)
    a = centred_kpca(K, 5, eigen_solver="arpack")
    d = centred_kpca(K, 5, eigen_solver="dense")
    assert a.solver == "arpack" and d.solver == "dense"
    assert a.eigenvalues.size == d.eigenvalues.size  # rank-deficient kernels drop the same
    np.testing.assert_allclose(a.eigenvalues, d.eigenvalues, rtol=1e-10)
    Fa, Fd = K @ a.coef + a.offset, K @ d.coef + d.offset
    np.testing.assert_allclose(Fa, Fd, rtol=0, atol=1e-9 * np.abs(Fd).max())


def test_kpca_arpack_with_symv_products_agrees_with_dense():
    """From SYMV_MIN_POINTS on, the Lanczos products read one triangle of K (BLAS symv)."""
    n = kpca_module.SYMV_MIN_POINTS + 50
    X = np.random.RandomState(6).randn(n, 2)
    K = Kernel("rbf", width=0.7)(X, X, cache=False)
    strided = np.zeros((n, 2 * n))[:, ::2]  # neither C- nor Fortran-contiguous
    strided[:] = K
    for layout in (K, np.asfortranarray(K), strided):
        a = centred_kpca(layout, 4, eigen_solver="arpack")
        d = centred_kpca(layout, 4, eigen_solver="dense")
        np.testing.assert_allclose(a.eigenvalues, d.eigenvalues, rtol=1e-10)
        Fa, Fd = K @ a.coef + a.offset, K @ d.coef + d.offset
        np.testing.assert_allclose(Fa, Fd, rtol=0, atol=1e-9 * np.abs(Fd).max())


def test_kpca_solver_choice():
    assert choose_solver(201, 5) == "arpack"
    assert choose_solver(200, 5) == "dense"
    assert choose_solver(2000, 10) == "dense"
    assert choose_solver(50, 50, "arpack") == "dense"  # ARPACK needs k < n
    with pytest.raises(ValueError, match="eigen_solver"):
        choose_solver(10, 2, "lobpcg")


def test_kpca_estimator_uses_arpack_above_200_points():
    X = np.random.RandomState(5).randn(400, 2)
    est = KernelPCA(3, width=1.0).fit(X)
    K = Kernel("rbf", width=1.0)(X, X)
    dense = centred_kpca(K, 3, eigen_solver="dense")
    np.testing.assert_allclose(est.eigenvalues_, dense.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(
        est.transform(X), K @ dense.coef + dense.offset, atol=1e-9 * np.abs(K @ dense.coef).max()
    )


@pytest.mark.parametrize(("width", "tiled"), [(3e-2, False), (1e-4, True), (1e-12, True)])
def test_narrow_rbf_grid_in_tiles_is_the_brute_force_sum(width, tiled, no_direct_grid):
    """A narrow Gaussian's grid is summed tile by tile over the centers that reach each tile;
    the values are still the full sum's (the centers left out contribute exact zeros)."""
    e = _expansion(Kernel("rbf", width=width), m=60, k=3, seed=4)
    xs = np.linspace(-3.0, 3.5, 131)  # tiles that do not divide the axes evenly
    ys = np.linspace(-2.0, 1.0, 101)
    z = e.centers
    A = np.exp(-((xs[:, None] - z[None, :, 0]) ** 2) / width)
    B = np.exp(-((ys[:, None] - z[None, :, 1]) ** 2) / width)
    tiles = list(expansion_module._live_tiles(A, B))
    if tiled:  # far fewer (tile, center) products than the whole grid's
        size = expansion_module._TILE
        n_tiles = -(-xs.size // size) * -(-ys.size // size)
        assert sum(int(np.sum(t[2])) for t in tiles) < 0.5 * n_tiles * z.shape[0]
    else:
        assert len(tiles) == 1
    out = e.evaluate_grid(xs, ys)
    expected = _brute_grid(e, xs, ys)
    scale = np.abs(e.coef).sum(axis=0).max()
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-13 * scale)
