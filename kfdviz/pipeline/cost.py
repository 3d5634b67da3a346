"""What a fit will cost before it runs: predicted seconds and peak memory from the problem's size.

:func:`estimate` counts the work of one ``run_fit`` (kernel values, matrix-product flops,
factorizations, the grid) from n training points, m expansion points, the input dimension d,
the number of classes and the algorithm's parameters, and turns the counts into seconds with
rates measured on this machine (:func:`measure_rates`: a matrix product on a large fit's BLAS
threads and on one, and a block of Gaussian kernel values, about 80 ms, once per process). The
mathematical programs' solvers run on one core whatever the BLAS threads: their work
(``serial_flops``) is priced at the one-thread rate. Peak memory counts the large arrays a fit holds at
once (the cross-Gram matrix, its cached distances, the centred copy, N and its factor, the
bounded evaluation chunks). The window warns before the first fit of a large data set when the
prediction passes :data:`WARN_SECONDS` or :data:`WARN_BYTES`, and offers the subset expansion
of TPAMI eq. (13) with :func:`subset_size` centers.

The counts follow the code paths (core/ and estimators/); the two-class KFD's prediction was
within 30 % of the measured times from 500 to 20 000 points (and 300 to 1000 centers), kernel
PCA's and the SVM's within a factor of three (above). The mathematical programs (QP, LP) are
priced from their measured times (kfdviz.estimators.program_cost, docs/performance.md): within a
factor of two from 300 to 1400 points, though their iteration counts depend on the data; the
greedy KFD is cruder.
No Qt here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cache

import numpy as np
from threadpoolctl import threadpool_limits

from ..core.kernels import CHUNK_BYTES, KERNEL_KINDS, Kernel
from ..estimators import registry
from ..estimators.spec import Problem
from .threads import SMALL_PROBLEM, SPECTRUM_POINTS, blas_threads

# The window warns when a fit is predicted to take longer or to hold more than this.
WARN_SECONDS = 2.0
WARN_BYTES = 2**30
# A subset is proposed so that the fit is predicted to take at most this long.
SUBSET_SECONDS = 0.5
# Kernel algorithms that expand over a subset with ``n_centers``.
LARGEST_SUBSET = 2000
# What every fit costs besides its arithmetic (validation, the result, the contours).
OVERHEAD_SECONDS = 0.02


@dataclass(frozen=True)
class Rates:
    """How fast this machine does the kinds of work a fit is made of."""

    flops: float  # dense matrix-product flops per second, with a large fit's BLAS threads
    kernel_values: float  # Gaussian kernel values per second (distances and exponentials)
    serial_flops: float = 0.0  # the same on one thread (0: as ``flops``)

    @property
    def one_thread_flops(self) -> float:
        return self.serial_flops or self.flops


@dataclass(frozen=True)
class Estimate:
    """The predicted cost of one fit (``parts``: seconds by stage, for the curious)."""

    seconds: float
    peak_bytes: int
    n: int
    centers: int
    parts: dict = field(default_factory=dict)

    @property
    def large(self) -> bool:
        """Whether this fit deserves a warning before it starts."""
        return self.seconds > WARN_SECONDS or self.peak_bytes > WARN_BYTES

    def describe(self) -> str:
        """The cost in words: "about 12 s and 3.1 GB"."""
        return f"about {format_seconds(self.seconds)} and {format_bytes(self.peak_bytes)}"


def format_seconds(seconds: float) -> str:
    if seconds < 1.0:
        return f"{max(seconds, 0.01):.2f} s"
    if seconds < 90:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    return f"{seconds / 60:.0f} min"


def format_bytes(n: int | float) -> str:
    if n < 2**30:
        return f"{max(n, 2**20) / 2**20:.0f} MB"
    return f"{n / 2**30:.1f} GB"


@cache
def measure_rates() -> Rates:
    """Time a 500 x 500 matrix product and 500 000 Gaussian kernel values (best of three), with
    the BLAS threads a large fit gets (:func:`kfdviz.pipeline.threads.blas_threads`), and the
    product on one thread in that thread's CPU time: the programs' times it scales were measured
    in CPU time (kfdviz.estimators.program_cost), so that other work on a busy machine does not
    make every program fit look long."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((500, 500))
    B = rng.standard_normal((500, 500))
    X = rng.standard_normal((1000, 2))
    Z = rng.standard_normal((500, 2))
    kern = Kernel("rbf", 1.0)

    def best(func, clock=time.perf_counter) -> float:
        func()  # warm up (thread pools, caches)
        times = []
        for _ in range(3):
            t0 = clock()
            func()
            times.append(clock() - t0)
        return max(min(times), 1e-6)

    with blas_threads(SMALL_PROBLEM):
        gemm = best(lambda: A @ B)
        values = best(lambda: kern(X, Z, cache=False))
    with threadpool_limits(limits=1, user_api="blas"):
        serial = best(lambda: A @ B, clock=time.thread_time)
    return Rates(
        flops=2 * 500**3 / gemm,
        kernel_values=X.shape[0] * Z.shape[0] / values,
        serial_flops=2 * 500**3 / serial,
    )


def estimate(
    algorithm: str,
    params: dict,
    n: int,
    d: int = 2,
    *,
    classes: int = 2,
    resolution: int = 200,
    rates: Rates | None = None,
    spectrum: bool = True,
) -> Estimate:
    """The predicted time and peak memory of fitting ``algorithm`` with ``params`` on ``n``
    training points of dimension ``d`` (a grid picture of ``resolution`` only for 2-D data;
    ``spectrum``: with the kernel matrix's spectrum when the diagnostics have it, which a draft
    leaves out). The fit's own work is the algorithm's cost model (its spec's ``cost``); an
    algorithm the registry does not know raises ValueError."""
    spec = registry.get(algorithm)
    n = max(int(n), 1)
    d = max(int(d), 1)
    g2 = resolution * resolution if d == 2 else 0
    params = dict(params or {})
    problem = Problem(n=n, d=d, classes=max(int(classes), 2), params=params, grid_points=g2)
    work = spec.cost.work(problem)
    m = int(work.centers)
    kernel = params.get("kernel") or "rbf"
    kernel_values = work.kernel_values * _relative_cost(kernel)
    flops = work.flops
    serial_flops = work.serial_flops
    big = work.peak_bytes

    # The picture: the grid (two small exponential factors and a product for Gaussians).
    if g2:
        flops += 2.0 * g2 * m
        kernel_values += 2.0 * resolution * m
    # The kernel matrix's spectrum in the diagnostics (small problems only).
    if spectrum and n <= SPECTRUM_POINTS and spec.cost.prices_spectrum:
        flops += 4.0 * n**3
        kernel_values += n * n
    big += min(CHUNK_BYTES, 8.0 * 3.0 * n * m) + 8.0 * 4.0 * g2

    rates = rates if rates is not None else _rates_for(kernel_values, flops + serial_flops)
    parts = {
        "kernel": kernel_values / rates.kernel_values,
        "linear algebra": flops / rates.flops + serial_flops / rates.one_thread_flops,
        "overhead": OVERHEAD_SECONDS,
    }
    return Estimate(sum(parts.values()), int(big), n, m, parts)


def _relative_cost(kernel: str) -> float:
    try:
        return KERNEL_KINDS[kernel].relative_cost
    except KeyError:
        raise ValueError(
            f"Unknown kernel {kernel!r}: choose one of {', '.join(KERNEL_KINDS)}."
        ) from None


# Rates below what any machine the app runs on reaches: a fit predicted quick at these is quick,
# and the machine need not be timed to say so.
_SLOW = Rates(flops=5e9, kernel_values=2e7)
_QUICK_AT_SLOW_RATES = 0.25


def surely_quick(
    algorithm: str,
    params: dict,
    n: int,
    d: int = 2,
    *,
    classes: int = 2,
    resolution: int = 200,
    spectrum: bool = True,
) -> bool:
    """Whether the fit is predicted to take less than :data:`_QUICK_AT_SLOW_RATES` even at rates
    below any machine's (a few tens of milliseconds on a current one), without timing this
    machine. Never for an iterative cost model (the mathematical programs, the greedy KFD),
    whose iteration counts depend on the data."""
    if registry.get(algorithm).cost.iterative:
        return False
    e = estimate(
        algorithm,
        params,
        n,
        d,
        classes=classes,
        resolution=resolution,
        rates=_SLOW,
        spectrum=spectrum,
    )
    return e.seconds < _QUICK_AT_SLOW_RATES


def _rates_for(kernel_values: float, flops: float) -> Rates:
    if kernel_values / _SLOW.kernel_values + flops / _SLOW.flops < _QUICK_AT_SLOW_RATES:
        return _SLOW
    return measure_rates()


def subset_size(
    algorithm: str,
    params: dict,
    n: int,
    d: int = 2,
    *,
    classes: int = 2,
    resolution: int = 200,
    rates: Rates | None = None,
    seconds: float = SUBSET_SECONDS,
) -> int | None:
    """The most centers (a round number, at most LARGEST_SUBSET and fewer than n) for which
    the fit is predicted to take at most ``seconds`` and not to need a warning; None when even
    a small subset would not do (or the algorithm has no subset expansion)."""
    if not supports_subset(algorithm):
        return None
    best = None
    for m in _round_numbers(min(LARGEST_SUBSET, n - 1)):
        e = estimate(
            algorithm,
            {**params, "n_centers": m},
            n,
            d,
            classes=classes,
            resolution=resolution,
            rates=rates,
        )
        if e.seconds <= seconds and not e.large:
            best = m
        else:
            break
    return best


def _round_numbers(limit: int) -> list[int]:
    """10, 20, 50, 100, 200, 300, 500, 1000, ... up to ``limit``."""
    out = []
    for exponent in range(1, 7):
        for mantissa in (1, 2, 3, 5):
            value = mantissa * 10**exponent
            if value <= limit:
                out.append(value)
    return out


def supports_subset(algorithm: str) -> bool:
    """Whether ``algorithm`` can train on a subset: it expands over ``n_centers`` points (the
    greedy KFD's ``n_centers`` is its stopping rule, not a subset)."""
    return algorithm in registry.ALGORITHMS and registry.get(algorithm).subset_expansion
