"""The predicted cost of a fit: its shape, the warning rule, the subset it proposes.

Fixed rates keep the predictions independent of the machine; no time is measured and compared.
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from kfdviz.core.kernels import KERNEL_KINDS
from kfdviz.estimators import registry
from kfdviz.estimators.spec import AlgorithmSpec, Kind, Problem
from kfdviz.pipeline import FitRequest, GridSpec, cost, run_fit

RATES = cost.Rates(flops=5e10, kernel_values=1e8)


def _kfd(n, centers=None, **extra):
    params = {"kernel": "rbf", "width": 1.0, "mu": 1e-3, **extra}
    if centers is not None:
        params["n_centers"] = centers
    return cost.estimate("kfd", params, n, 2, rates=RATES)


def test_the_cost_grows_with_the_points_and_the_centers():
    times = [_kfd(n).seconds for n in (200, 1000, 4000, 20_000)]
    assert times == sorted(times) and times[-1] > 100 * times[0]
    sub = [_kfd(20_000, m).seconds for m in (100, 300, 1000, 3000)]
    assert sub == sorted(sub)
    mem = [_kfd(n).peak_bytes for n in (1000, 4000, 20_000)]
    assert mem == sorted(mem)
    # Every training point a center: the Gram matrix and N alone are 8 (n^2 + n^2) bytes.
    assert _kfd(20_000).peak_bytes > 2 * 8 * 20_000**2


def test_a_large_data_set_warns_and_the_default_does_not():
    small = _kfd(200)
    assert not small.large and small.seconds < 0.5
    big = _kfd(20_000)
    assert big.large
    assert big.seconds > cost.WARN_SECONDS and big.peak_bytes > cost.WARN_BYTES
    text = big.describe()
    assert text.startswith("about ") and ("min" in text or " s " in text) and "GB" in text


def test_the_proposed_subset_is_quick_and_as_large_as_allowed():
    m = cost.subset_size("kfd", {"kernel": "rbf"}, 20_000, rates=RATES)
    assert m is not None and 10 <= m <= cost.LARGEST_SUBSET
    e = _kfd(20_000, m)
    assert e.seconds <= cost.SUBSET_SECONDS and not e.large
    bigger = next(v for v in cost._round_numbers(10**6) if v > m)
    assert bigger > cost.LARGEST_SUBSET or _kfd(20_000, bigger).seconds > cost.SUBSET_SECONDS
    assert cost.subset_size("kpca", {}, 20_000, rates=RATES) is None


def test_which_algorithms_train_on_a_subset():
    assert cost.supports_subset("kfd") and cost.supports_subset("kfd-qp")
    assert not cost.supports_subset("kpca") and not cost.supports_subset("kfd-greedy")
    assert not cost.supports_subset("no-such-algorithm")


@pytest.mark.parametrize("algorithm", sorted(registry.ALGORITHMS))
def test_every_algorithm_is_priced_by_its_own_cost_model(algorithm):
    spec = registry.get(algorithm)
    params = spec.defaults()
    n, d, classes = 5000, 3, 3  # three dimensions: no grid picture; no spectrum asked for
    e = cost.estimate(algorithm, params, n, d, classes=classes, rates=RATES, spectrum=False)
    work = spec.cost.work(Problem(n, d, classes, params, grid_points=0))
    assert work.kernel_values + work.flops > 0 and work.peak_bytes > 0
    relative = KERNEL_KINDS[params.get("kernel", "rbf")].relative_cost
    assert e.parts["kernel"] == pytest.approx(relative * work.kernel_values / RATES.kernel_values)
    assert e.parts["linear algebra"] == pytest.approx(
        work.flops / RATES.flops + work.serial_flops / RATES.one_thread_flops
    )
    assert e.centers == work.centers and 1 <= e.centers <= n
    assert e.peak_bytes >= work.peak_bytes
    assert math.isfinite(e.seconds) and e.seconds > e.parts["overhead"]


def test_an_unknown_algorithm_is_an_error_not_a_guess():
    with pytest.raises(ValueError, match="Unknown algorithm 'no-such-algorithm'"):
        cost.estimate("no-such-algorithm", {}, 100)
    with pytest.raises(ValueError, match="Unknown algorithm"):
        cost.surely_quick("no-such-algorithm", {}, 100)


def test_an_algorithm_without_a_cost_model_cannot_be_declared():
    kpca = registry.get("kpca")
    with pytest.raises(TypeError, match="has no cost model"):
        AlgorithmSpec("mine", "Mine", Kind.FEATURES, kpca.estimator, kpca.params, cost=None)


def test_small_problems_need_no_measurement(monkeypatch):
    def fail():
        raise AssertionError("the machine was timed for a small problem")

    monkeypatch.setattr(cost, "measure_rates", fail)
    assert not cost.estimate("kfd", {}, 300).large


def test_measured_rates_are_positive():
    rates = cost.measure_rates()
    assert rates.flops > 1e8 and rates.kernel_values > 1e5


def test_the_memory_estimate_covers_a_real_fit():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1500, 2))
    y = (X[:, 0] > 0).astype(int)
    params = {"kernel": "rbf", "width": 1.0}
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        run_fit(FitRequest("kfd", params, X, y, grid=GridSpec(100)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    predicted = cost.estimate("kfd", params, 1500, resolution=100, rates=RATES).peak_bytes
    assert 0.8 * (peak - start) <= predicted <= 3 * (peak - start)
