"""``reproduce``: a table's tasks planned, taken from the store or computed, and collected.

The work of a table is data sets x methods x (cross-validation on the first five realizations,
then one fit per realization with the median choice). The cross-validation is split into one
task per realization, fold and group of candidates (those of one kernel width), merged by
:func:`reduce_cv` here, so that no single task is a whole cross-validation. Tasks whose inputs
are known are sent to the backend together (a round); each result is stored the moment it
arrives, with its durations, so an interrupted run loses only the tasks in flight, a rerun with
the same inputs computes nothing, and the stored durations can size a cluster (schedule.py).
A method that takes another's width (SKFD, LSKFD take KFD's) waits for that method's choice.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..datasets.benchmark import open_benchmark, open_user_data
from .backends import run_tasks
from .cache import ResultStore
from .methods import DEFAULT_OPTIONS, ProtocolOptions, get_method
from .protocol import (
    N_CV_REALIZATIONS,
    N_FOLDS,
    Split,
    code_version,
    cv_fold_task,
    cv_groups,
    eval_task,
    median_choice,
    reduce_cv,
)
from .report import build_document
from .tables import get_table


def _digest(*arrays: np.ndarray) -> str:
    h = hashlib.blake2b(digest_size=12)
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.shape, a.dtype.str)).encode())
        h.update(memoryview(a).cast("B"))
    return h.hexdigest()


@dataclass
class _Cell:
    """The state of one (data set, method): its CV choices, the median, its evaluations."""

    dataset: str
    method: str
    report: bool  # a column of the table (else only a dependency's choice is needed)
    folds: dict = field(default_factory=dict)  # (realization, group, fold) -> fold scores
    cv: dict = field(default_factory=dict)  # realization -> cv result (merged folds)
    params: dict | None = None
    evals: dict = field(default_factory=dict)  # realization -> eval result


def _select(requested: list[str] | None, allowed: tuple[str, ...], what: str) -> list[str]:
    if not requested:
        return list(allowed)
    unknown = [r for r in requested if r not in allowed]
    if unknown:
        raise ValueError(
            f"{what} {', '.join(map(repr, unknown))} not in this table; choose from "
            f"{', '.join(allowed)}"
        )
    return [a for a in allowed if a in requested]


def reproduce(
    table: str,
    data_dir,
    *,
    datasets: list[str] | None = None,
    methods: list[str] | None = None,
    realizations: int | None = None,
    n_jobs: int = 1,
    backend: str = "loky",
    scheduler: str | None = None,
    cache_dir=None,
    progress: bool = True,
    options: ProtocolOptions | None = None,
    timings: list | None = None,
    splits: int | None = None,
    seed: int = 0,
) -> dict:
    """Compute (or read back) table ``table`` on the data in ``data_dir``; its JSON document.

    ``realizations`` limits each data set to its first N realizations (default: all there are).
    ``cache_dir`` holds the stored results (default: ``./kfdviz-reproduce/cache``); ``progress``
    shows a progress bar on stderr; ``options`` are the protocol's choices (default: the
    papers', :class:`ProtocolOptions`). ``timings``, a list, receives one list per round of
    tasks (the tasks that became ready together), each entry the task's kind and stored
    durations ``{"wall_s", "cpu_s"}`` (None where the store has none): what
    :func:`kfdviz.experiments.schedule.expected_times` simulates. ``splits`` and ``seed``:
    for the ``protocol`` table on one data file without realizations, that many random
    train/test splits (:class:`kfdviz.datasets.benchmark.RandomSplits`).
    """
    spec = get_table(table)
    opts = options if options is not None else DEFAULT_OPTIONS
    if realizations is not None and realizations < 1:
        raise ValueError(f"--realizations must be at least 1, got {realizations}")
    if spec.name == "protocol":
        source = open_user_data(data_dir, splits=splits, seed=seed)
        spec = dataclasses.replace(spec, datasets=tuple(source.names()))
    elif splits is not None:
        raise ValueError("random splits (--splits) are for the protocol table on your own data")
    else:
        source = open_benchmark(data_dir)
    chosen_sets = _select(datasets, spec.datasets, "data set(s)")
    chosen_methods = _select(methods, spec.methods, "method(s)")
    store = ResultStore(cache_dir if cache_dir is not None else Path("kfdviz-reproduce") / "cache")
    version = code_version()

    available: dict[str, list[int]] = {}
    splits: dict[tuple[str, int], Split] = {}
    for name in chosen_sets:
        if name not in source.names():
            continue
        numbers = source.realizations(name)[:realizations]
        available[name] = numbers
        for r in numbers:
            splits[name, r] = Split(*source.load(name, r))
    return _run_cells(
        spec,
        chosen_sets,
        chosen_methods,
        available,
        splits,
        store,
        version,
        opts,
        n_jobs=n_jobs,
        backend=backend,
        scheduler=scheduler,
        progress=progress,
        timings=timings,
    )


def _task_options(method: str, opts: ProtocolOptions) -> dict:
    """The options that change a task's result (the tie rule changes only the merge)."""
    return {"zero_mean": bool(opts.zero_mean)} if get_method(method).program else {}


def _run_cells(
    spec,
    chosen_sets,
    chosen_methods,
    available,
    splits,
    store,
    version,
    opts,
    *,
    n_jobs,
    backend,
    scheduler,
    progress,
    timings,
) -> dict:
    cells: dict[tuple[str, str], _Cell] = {}
    for name in available:
        for method in chosen_methods:
            cells[name, method] = _Cell(name, method, True)
            dep = get_method(method).takes_width_from(opts)
            if dep and (name, dep) not in cells:
                cells[name, dep] = _Cell(name, dep, False)
    for cell in cells.values():  # a dependency that is also a column reports as one
        cell.report = cell.method in chosen_methods

    def cv_key(cell: _Cell, r: int, grid: dict, group: int, fold: int) -> dict:
        s = splits[cell.dataset, r]
        return {
            "kind": "cv-fold",
            "dataset": cell.dataset,
            "realization": r,
            "method": cell.method,
            "grid": grid,
            "group": group,
            "fold": fold,
            "folds": N_FOLDS,
            "seed": r,
            "options": _task_options(cell.method, opts),
            "data": _digest(s.X_train, s.y_train),
            "code": version,
        }

    def eval_key(cell: _Cell, r: int) -> dict:
        s = splits[cell.dataset, r]
        return {
            "kind": "eval",
            "dataset": cell.dataset,
            "realization": r,
            "method": cell.method,
            "params": cell.params,
            "options": _task_options(cell.method, opts),
            "data": _digest(s.X_train, s.y_train, s.X_test, s.y_test),
            "code": version,
        }

    def grid_of(cell: _Cell) -> dict | None:
        m = get_method(cell.method)
        d = splits[cell.dataset, available[cell.dataset][0]].X_train.shape[1]
        grid = m.protocol_grid(d, opts)
        dep = m.takes_width_from(opts)
        if dep:
            source = cells[cell.dataset, dep]
            if source.params is None:
                return None
            grid = {"width": [source.params["width"]], **grid}
        return grid

    def n_parts(cell: _Cell) -> int:
        grid = grid_of(cell)
        groups = len(cv_groups(cell.method, grid)) if grid is not None else 1
        return groups * N_FOLDS

    total = sum(
        min(N_CV_REALIZATIONS, len(available[c.dataset])) * n_parts(c)
        + (len(available[c.dataset]) if c.report else 0)
        for c in cells.values()
    )
    bar = _progress_bar(total, spec.name, progress)
    task_options = opts.as_dict()
    round_times: list[dict] = []

    def size(key: dict) -> int:
        return int(splits[key["dataset"], key["realization"]].y_train.size)

    def stored(key: dict):
        entry = store.get_entry(key)
        if entry is None or entry[0] is None:
            return None
        round_times.append({"kind": key["kind"], "n": size(key), **(entry[1] or _NO_TIME)})
        bar.total -= 1
        return entry[0]

    try:
        while True:
            batch: list[tuple[dict, _Cell, Callable, tuple]] = []
            round_times = []

            for cell in cells.values():
                numbers = available[cell.dataset]
                if cell.params is None:
                    grid = grid_of(cell)
                    if grid is None:
                        continue
                    groups = cv_groups(cell.method, grid)
                    for r in numbers[:N_CV_REALIZATIONS]:
                        if r in cell.cv:
                            continue
                        s = splits[cell.dataset, r]
                        for g in range(len(groups)):
                            for f in range(N_FOLDS):
                                if (r, g, f) in cell.folds:
                                    continue
                                key = cv_key(cell, r, grid, g, f)
                                result = stored(key)
                                if result is not None:
                                    cell.folds[r, g, f] = result
                                    continue
                                args = (cell.method, grid, g, s.X_train, s.y_train, r, f)
                                batch.append((key, cell, cv_fold_task, (*args, task_options)))
                elif cell.report:
                    for r in numbers:
                        if r in cell.evals:
                            continue
                        key = eval_key(cell, r)
                        result = stored(key)
                        if result is not None:
                            cell.evals[r] = result
                            continue
                        args = (cell.method, cell.params, splits[cell.dataset, r], task_options)
                        batch.append((key, cell, eval_task, args))
            bar.refresh()
            # Larger training sets first (a task's time grows with n^2 to n^3): the longest
            # tasks start early instead of ending a round alone (list scheduling, LPT-like).
            batch.sort(key=lambda task: -size(task[0]))
            for index, (result, seconds) in run_tasks(
                _timed_call,
                [(f, *args) for _, _, f, args in batch],
                backend=backend,
                n_jobs=n_jobs,
                scheduler=scheduler,
            ):
                key, cell, _, _ = batch[index]
                store.put(key, result, seconds)
                round_times.append({"kind": key["kind"], "n": size(key), **seconds})
                if key["kind"] == "cv-fold":
                    cell.folds[key["realization"], key["group"], key["fold"]] = result
                else:
                    cell.evals[key["realization"]] = result
                bar.update(1)
            if timings is not None and round_times:
                timings.append(round_times)
            changed = False
            for cell in cells.values():
                if cell.params is not None:
                    continue
                grid = grid_of(cell)
                if grid is None:
                    continue
                groups = len(cv_groups(cell.method, grid))
                for r in available[cell.dataset][:N_CV_REALIZATIONS]:
                    parts = [
                        cell.folds.get((r, g, f)) for g in range(groups) for f in range(N_FOLDS)
                    ]
                    if r not in cell.cv and all(p is not None for p in parts):
                        cell.cv[r] = reduce_cv(cell.method, grid, parts, opts)
                n_cv = min(N_CV_REALIZATIONS, len(available[cell.dataset]))
                if len(cell.cv) == n_cv:
                    choices = [cell.cv[r]["best"] for r in sorted(cell.cv)]
                    choices = [c for c in choices if c is not None]
                    if choices:
                        cell.params = median_choice(choices)
                    else:  # no realization gave a choice: nothing to evaluate
                        cell.params = {}
                        cell.evals = {
                            r: {"failed": "no cross-validated choice"}
                            for r in available[cell.dataset]
                        }
                    changed = True
            if not batch and not changed:
                break
    finally:
        bar.close()
    return build_document(spec, chosen_sets, chosen_methods, available, cells, version, opts)


_NO_TIME = {"wall_s": None, "cpu_s": None}


def _timed_call(func: Callable, *args):
    """``func(*args)`` and its durations: wall-clock and this process's CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = func(*args)
    seconds = {
        "wall_s": round(time.perf_counter() - wall, 6),
        "cpu_s": round(time.process_time() - cpu, 6),
    }
    return result, seconds


class _NoBar:
    total = 0

    def update(self, n=1):
        pass

    def refresh(self):
        pass

    def close(self):
        pass


def _progress_bar(total: int, name: str, enabled: bool):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm  # only a run that shows its progress needs it

    return tqdm(total=total, desc=name, unit="task", file=sys.stderr, dynamic_ncols=True)
