"""How many BLAS threads a fit gets, and the problem sizes the pipeline's choices turn on.

Multi-threaded OpenBLAS spin-waits for a thread that another job has descheduled, so small
problems run on one thread and large ones on the cores other work leaves idle. No Qt here.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from threadpoolctl import ThreadpoolController

# Below this many training points one BLAS thread is faster than several: the problems are small
# and multi-threaded OpenBLAS spends its time synchronizing (badly so on a busy machine).
SMALL_PROBLEM = 1000
# Up to this many training points the diagnostics include the kernel matrix's spectrum.
SPECTRUM_POINTS = 800

_CONTROLLER: ThreadpoolController | None = None


def idle_cores() -> int:
    """The cores other work leaves free: all of them less the 1-minute load average (at least
    one). Multi-threaded OpenBLAS spin-waits for a thread that another job has descheduled: on a
    2-core machine with the other core busy, a KFD fit on 1000 points took 408 ms with two BLAS
    threads and 103 ms with one (2000 points: 2.1 s and 0.44 s; medians of 9, load average 2)."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: assume an idle machine
        return cores
    return max(1, min(cores, int(cores - load + 0.5)))


def blas_limit(n_points: int) -> int:
    """The BLAS threads a fit on ``n_points`` training points gets (:func:`blas_threads`)."""
    forced = os.environ.get("KFDVIZ_BLAS_THREADS")
    if forced and forced.isdigit():
        return int(forced)
    return 1 if n_points < SMALL_PROBLEM else idle_cores()


@contextmanager
def blas_threads(n_points: int):
    """One BLAS thread for small problems; for large ones, as many as there are idle cores.

    ``KFDVIZ_BLAS_THREADS`` overrides the choice. threadpoolctl's limits are process-wide; only
    the fitting thread does linear algebra, so that is what we want. The controller inspects the
    loaded libraries once, on first use, when numpy's BLAS is surely loaded.
    """
    global _CONTROLLER
    limit = blas_limit(n_points)
    try:
        if _CONTROLLER is None:
            _CONTROLLER = ThreadpoolController()
        context = _CONTROLLER.limit(limits=limit, user_api="blas")
    except Exception:  # threadpoolctl could not inspect the libraries: run as they are
        yield
        return
    with context:
        yield
