"""``reproduce``: a table's tasks planned, taken from the store or computed, and collected.

The work of a table is data sets x methods x (cross-validation on the first five realizations,
then one fit per realization with the median choice). Tasks whose inputs are known are sent to
the backend together; each result is stored the moment it arrives, so an interrupted run loses
only the tasks in flight, and a rerun with the same inputs computes nothing. A method that takes
another's width (SKFD, LSKFD take KFD's) waits for that method's choice.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..datasets.ida import ida_realizations, load_ida
from .backends import run_tasks
from .cache import ResultStore
from .methods import get_method
from .protocol import (
    N_CV_REALIZATIONS,
    N_FOLDS,
    Split,
    code_version,
    cv_task,
    eval_task,
    median_choice,
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
    cv: dict = field(default_factory=dict)  # realization -> cv result
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
) -> dict:
    """Compute (or read back) table ``table`` on the data in ``data_dir``; its JSON document.

    ``realizations`` limits each data set to its first N realizations (default: all there are).
    ``cache_dir`` holds the stored results (default: ``./kfdviz-reproduce/cache``); ``progress``
    shows a progress bar on stderr.
    """
    spec = get_table(table)
    chosen_sets = _select(datasets, spec.datasets, "data set(s)")
    chosen_methods = _select(methods, spec.methods, "method(s)")
    if realizations is not None and realizations < 1:
        raise ValueError(f"--realizations must be at least 1, got {realizations}")
    folder = Path(data_dir)
    if not folder.is_dir():
        raise ValueError(f"the data folder {folder} does not exist (it holds banana.npz etc.)")
    store = ResultStore(cache_dir if cache_dir is not None else Path("kfdviz-reproduce") / "cache")
    version = code_version()

    available: dict[str, list[int]] = {}
    splits: dict[tuple[str, int], Split] = {}
    for name in chosen_sets:
        if not (folder / f"{name}.npz").is_file():
            continue
        numbers = ida_realizations(folder, name)[:realizations]
        available[name] = numbers
        for r in numbers:
            splits[name, r] = Split(*load_ida(folder, name, r))

    cells: dict[tuple[str, str], _Cell] = {}
    for name in available:
        for method in chosen_methods:
            cells[name, method] = _Cell(name, method, True)
            dep = get_method(method).width_from
            if dep and (name, dep) not in cells:
                cells[name, dep] = _Cell(name, dep, False)
    for cell in cells.values():  # a dependency that is also a column reports as one
        cell.report = cell.method in chosen_methods

    def cv_key(cell: _Cell, r: int, grid: dict) -> dict:
        s = splits[cell.dataset, r]
        return {
            "kind": "cv",
            "dataset": cell.dataset,
            "realization": r,
            "method": cell.method,
            "grid": grid,
            "folds": N_FOLDS,
            "seed": r,
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
            "data": _digest(s.X_train, s.y_train, s.X_test, s.y_test),
            "code": version,
        }

    def grid_of(cell: _Cell) -> dict | None:
        m = get_method(cell.method)
        d = splits[cell.dataset, available[cell.dataset][0]].X_train.shape[1]
        grid = m.grid(d)
        if m.width_from:
            source = cells[cell.dataset, m.width_from]
            if source.params is None:
                return None
            grid = {"width": [source.params["width"]], **grid}
        return grid

    total = sum(
        min(N_CV_REALIZATIONS, len(available[c.dataset]))
        + (len(available[c.dataset]) if c.report else 0)
        for c in cells.values()
    )
    bar = _progress_bar(total, spec.name, progress)
    try:
        while True:
            batch: list[tuple[dict, _Cell, Callable, tuple]] = []
            for cell in cells.values():
                numbers = available[cell.dataset]
                if cell.params is None:
                    grid = grid_of(cell)
                    if grid is None:
                        continue
                    for r in numbers[:N_CV_REALIZATIONS]:
                        if r in cell.cv:
                            continue
                        key = cv_key(cell, r, grid)
                        stored = store.get(key)
                        if stored is not None:
                            cell.cv[r] = stored
                            bar.total -= 1
                            continue
                        s = splits[cell.dataset, r]
                        batch.append(
                            (key, cell, cv_task, (cell.method, grid, s.X_train, s.y_train, r))
                        )
                elif cell.report:
                    for r in numbers:
                        if r in cell.evals:
                            continue
                        key = eval_key(cell, r)
                        stored = store.get(key)
                        if stored is not None:
                            cell.evals[r] = stored
                            bar.total -= 1
                            continue
                        batch.append(
                            (
                                key,
                                cell,
                                eval_task,
                                (cell.method, cell.params, splits[cell.dataset, r]),
                            )
                        )
            bar.refresh()
            for index, result in run_tasks(
                _call,
                [(f, *args) for _, _, f, args in batch],
                backend=backend,
                n_jobs=n_jobs,
                scheduler=scheduler,
            ):
                key, cell, _, _ = batch[index]
                store.put(key, result)
                (cell.cv if key["kind"] == "cv" else cell.evals)[key["realization"]] = result
                bar.update(1)
            changed = False
            for cell in cells.values():
                n_cv = min(N_CV_REALIZATIONS, len(available[cell.dataset]))
                if cell.params is None and len(cell.cv) == n_cv:
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
    return build_document(spec, chosen_sets, chosen_methods, available, cells, version)


def _call(func: Callable, *args):
    return func(*args)


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
