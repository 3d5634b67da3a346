"""Results independent of scheduling; stored durations; the makespan simulation."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from kfdviz.core import incremental
from kfdviz.core.fit_cache import FIT_CACHE
from kfdviz.core.kernels import PAIRWISE_CACHE, Kernel
from kfdviz.experiments import methods as methods_module
from kfdviz.experiments import run as run_module
from kfdviz.experiments.backends import run_tasks
from kfdviz.experiments.protocol import Split, eval_task
from kfdviz.experiments.report import to_json
from kfdviz.experiments.run import reproduce
from kfdviz.experiments.schedule import expected_times, list_schedule


def write_ida_folder(folder, name, *, n_train, n_test, realizations, d, seed):
    """An IDA-format NAME.npz: two overlapping Gaussian classes, labels -1/+1."""
    rng = np.random.RandomState(seed)
    n = n_train + n_test + 20
    y = np.where(rng.rand(n) < 0.45, 1, -1).astype(np.int8)
    X = rng.randn(n, d) + 1.2 * y[:, None] * np.r_[1.0, np.zeros(d - 1)]
    orders = [rng.permutation(n) for _ in range(realizations)]
    np.savez(
        folder / f"{name}.npz",
        X=X,
        y=y,
        train_idx=np.array([o[:n_train] for o in orders]),
        test_idx=np.array([o[n_train : n_train + n_test] for o in orders]),
        realizations=np.arange(1, realizations + 1),
    )


GRID = {"width": [0.5, 4.0], "mu": [1e-3, 1.0]}
SVM_GRID = {"width": [0.5, 4.0], "C": [0.1, 10.0]}


@pytest.fixture
def small_grids(monkeypatch):
    for name, grid in (("kfd", GRID), ("svm", SVM_GRID)):
        m = dataclasses.replace(methods_module.METHODS[name], grid=lambda d, g=grid: dict(g))
        monkeypatch.setitem(methods_module.METHODS, name, m)


def _shuffled_backend(seed):
    """run_tasks that runs the tasks in this process in a shuffled order."""

    def shuffled(func, tasks, **kwargs):
        order = list(range(len(tasks)))
        random.Random(seed).shuffle(order)
        for i in order:
            yield i, func(*tasks[i])

    return shuffled


def test_a_poisoned_cache_does_not_reach_a_task():
    """What an earlier task left in the process-wide caches cannot change a task's result."""
    rng = np.random.RandomState(0)
    X = rng.randn(60, 2)
    y = (X[:, 0] + 0.8 * rng.randn(60) > 0).astype(int)
    split = Split(X[:40], y[:40], X[40:], y[40:])
    params = {"width": 2.0, "mu": 1e-2}
    clean = eval_task("kfd", params, split)
    # another "task" leaves squared distances of the same points that differ from these (as
    # another BLAS path or order of summation would, here grossly so that any use shows)
    FIT_CACHE.clear()
    incremental.forget()
    PAIRWISE_CACHE.clear()
    Kernel("rbf", width=1.0)(split.X_train, split.X_train)
    (key,) = [k for k in PAIRWISE_CACHE._store if k[0] == "sqdist"]
    wrong = np.array(PAIRWISE_CACHE._store[key]) * 1.5
    wrong.setflags(write=False)
    PAIRWISE_CACHE._store[key] = wrong
    assert json.dumps(eval_task("kfd", params, split)) == json.dumps(clean)
    assert len(FIT_CACHE) <= 1 and incremental._last is not None  # the task's own, kept after


def test_the_same_json_for_any_worker_count_backend_and_task_order(tmp_path, small_grids):
    write_ida_folder(tmp_path, "heart", n_train=36, n_test=40, realizations=3, d=3, seed=2)
    write_ida_folder(tmp_path, "banana", n_train=40, n_test=40, realizations=3, d=2, seed=3)
    # the grids travel with the tasks (cv_fold_task's arguments), so worker processes use them too
    kwargs = dict(datasets=["heart", "banana"], methods=["kfd", "svm"], progress=False)
    docs = {}
    for name, run_kwargs in {
        "serial": dict(n_jobs=1),
        "loky-2": dict(n_jobs=2),
        "loky-3": dict(n_jobs=3),
    }.items():
        docs[name] = to_json(
            reproduce("mika-1999", tmp_path, cache_dir=tmp_path / name, **kwargs, **run_kwargs)
        )
    from joblib.externals.loky import get_reusable_executor  # the workers this test started

    get_reusable_executor().shutdown(wait=True)
    for seed in (1, 2, 3):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(run_module, "run_tasks", _shuffled_backend(seed))
            docs[f"shuffled-{seed}"] = to_json(
                reproduce("mika-1999", tmp_path, cache_dir=tmp_path / f"s{seed}", **kwargs)
            )
    assert len(set(docs.values())) == 1, sorted(docs)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["loky", "dask"])
def test_the_same_json_with_several_worker_processes(tmp_path, backend):
    if backend == "dask":
        pytest.importorskip("distributed")
    write_ida_folder(tmp_path, "heart", n_train=30, n_test=40, realizations=2, d=3, seed=2)
    kwargs = dict(datasets=["heart"], methods=["koc-poly"], progress=False)
    docs = []
    for n_jobs in (1, 2, 3):
        cache = tmp_path / f"{backend}{n_jobs}"
        doc = reproduce(
            "koc-table1", tmp_path, n_jobs=n_jobs, backend=backend, cache_dir=cache, **kwargs
        )
        docs.append(to_json(doc))
    if backend == "loky":  # joblib keeps its workers for reuse; this test owns them
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=True)
    assert docs[0] == docs[1] == docs[2]


def test_every_stored_task_has_its_durations_and_the_simulation_sums_them(tmp_path, small_grids):
    write_ida_folder(tmp_path, "heart", n_train=36, n_test=40, realizations=3, d=3, seed=2)
    timings: list = []
    reproduce(
        "mika-1999",
        tmp_path,
        datasets=["heart"],
        methods=["kfd"],
        cache_dir=tmp_path / "c",
        progress=False,
        timings=timings,
    )
    files = list((tmp_path / "c").rglob("*.json"))
    # 3 realizations x 5 folds x 2 widths, then 3 fits: two rounds
    assert len(files) == 33 and [len(r) for r in timings] == [30, 3]
    stored = [json.loads(f.read_text())["seconds"] for f in files]
    assert all(s["wall_s"] >= 0 and s["cpu_s"] >= 0 for s in stored)
    times, summary = expected_times(timings, [1, 2, 64])
    total = sum(e["cpu_s"] for r in timings for e in r)
    assert times[1] == pytest.approx(total) and summary["tasks"] == 33
    assert times[64] == pytest.approx(sum(max(e["cpu_s"] for e in r) for r in timings))
    # read back from the store, the same durations
    again: list = []
    reproduce(
        "mika-1999",
        tmp_path,
        datasets=["heart"],
        methods=["kfd"],
        cache_dir=tmp_path / "c",
        progress=False,
        timings=again,
    )
    assert expected_times(again, [1, 2, 64])[0] == pytest.approx(times)


def test_list_scheduling_against_an_event_simulation():
    rng = np.random.RandomState(1)
    for _ in range(200):
        durations = list(rng.exponential(size=rng.randint(1, 12)))
        p = int(rng.randint(1, 5))
        # workers take the tasks in order; each task starts when the earliest worker is free
        ends = [0.0] * p
        for d in durations:
            k = int(np.argmin(ends))
            ends[k] += d
        makespan = list_schedule(durations, p)
        assert makespan == pytest.approx(max(ends))
        assert makespan >= max(durations) - 1e-12
        assert makespan >= sum(durations) / p - 1e-12
    with pytest.raises(ValueError, match="at least 1"):
        list_schedule([1.0], 0)


def test_run_tasks_yields_every_index_once():
    got = dict(run_tasks(pow, [(2, k) for k in range(6)], n_jobs=1))
    assert got == {k: 2**k for k in range(6)}
