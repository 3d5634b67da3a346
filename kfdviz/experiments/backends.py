"""Where the tasks run: joblib's loky processes on this machine, or a Dask cluster.

``run_tasks(func, tasks, ...)`` yields ``(index, result)`` as each task finishes, in whatever
order they finish; the caller stores each result at once. A task's result depends only on its
arguments, so the backend changes the speed, never the answer.

- ``backend="loky"`` (default): ``n_jobs`` worker processes (1 runs in this process).
- ``backend="dask"``: joblib's Dask backend on a ``distributed.Client``: the scheduler at
  ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``, a cluster started with ``dask scheduler`` /
  ``dask worker``, dask-ssh or dask-jobqueue), or without it a ``LocalCluster`` of ``n_jobs``
  single-threaded worker processes on this machine. Dask is an optional dependency
  (``pip install "kfdviz[dask]"``) and is imported only here, only when asked for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

from joblib import Parallel, delayed, parallel_config

BACKENDS = ("loky", "dask")


def _indexed(index: int, func: Callable, args: tuple):
    return index, func(*args)


@contextlib.contextmanager
def _dask_client(n_jobs: int, scheduler: str | None):
    try:
        # Dask is optional (the `dask` extra), loaded only for --backend dask.
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError(
            '--backend dask needs Dask\'s distributed scheduler: pip install "kfdviz[dask]"'
        ) from None
    if scheduler:
        with Client(scheduler) as client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=max(1, n_jobs),
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def run_tasks(
    func: Callable,
    tasks: Sequence[tuple],
    *,
    backend: str = "loky",
    n_jobs: int = 1,
    scheduler: str | None = None,
) -> Iterator[tuple[int, object]]:
    """Run ``func(*args)`` for every ``args`` in ``tasks``; yield ``(index, result)`` as they end."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if scheduler and backend != "dask":
        raise ValueError("--scheduler names a Dask scheduler: use it with --backend dask")
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be at least 1, got {n_jobs}")
    if not tasks:
        return
    jobs = (delayed(_indexed)(i, func, args) for i, args in enumerate(tasks))
    if backend == "loky":
        parallel = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered")
        yield from parallel(jobs)
        return
    with _dask_client(n_jobs, scheduler), parallel_config(backend="dask"):
        parallel = Parallel(n_jobs=-1, return_as="generator_unordered")
        yield from parallel(jobs)
