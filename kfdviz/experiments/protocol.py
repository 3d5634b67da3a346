"""The papers' benchmark protocol as independent tasks (TPAMI sec. 5.2, NIPS 2001 sec. 5).

Parameters are chosen by 5-fold cross-validation on each of the first five training
realizations; the median of the five choices (per parameter) is then used on every realization,
and the test error is averaged over them. Two kinds of task do the work:

- :func:`cv_fold_task`: one fold of the cross-validation on one realization, for one group of
  candidates (those sharing a kernel width); :func:`reduce_cv` merges a realization's folds
  and groups into its choice (:func:`cv_task` does both in one call);
- :func:`eval_task`: one fit with the chosen parameters on one realization's training set,
  measured on its test set.

A task takes plain arrays and names and returns a JSON-ready dict, runs with one BLAS thread (many
small fits: parallelism belongs across tasks), and depends on nothing but its inputs and the code,
so any process or machine gives the same answer. Nothing of an earlier task in the same process
reaches it: the core's content-keyed caches (the kernel's pairwise cache, the KFD fit cache and
the incremental KFD's memory of its last fit) are emptied when a task starts, so that which tasks
shared a worker cannot change a result. :func:`code_version` names that code.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from ..core import incremental
from ..core.fit_cache import FIT_CACHE
from ..core.kernels import PAIRWISE_CACHE
from .crossval import (
    candidate_groups,
    choose_best,
    estimator_params,
    grid_search,
    score_group,
    stratified_folds,
)
from .methods import DEFAULT_OPTIONS, ProtocolOptions, get_method

N_FOLDS = 5
N_CV_REALIZATIONS = 5
# Outputs are histogrammed over fixed bins so that realizations add up; values beyond the
# range fall into the end bins. KFD's outputs put the class means at -1 and +1, and an SVM's
# margins are at -1 and +1 too.
OUTPUT_BINS = np.linspace(-3.0, 3.0, 61)

# The sources whose change can change a result: the numerical core, the estimators, and the
# protocol's own modules. Reports, the command line and the GUI are left out.
_CODE_PARTS = ("core", "estimators", "experiments/crossval.py", "experiments/methods.py")
_CODE_PARTS += ("experiments/kfd_path.py", "experiments/protocol.py")
_LIBRARIES = ("kfdviz", "numpy", "scipy", "scikit-learn", "clarabel", "highspy")


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def code_version() -> str:
    """A digest of the code that computes results and of the numerical libraries' versions."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for lib in _LIBRARIES:
        h.update(f"{lib}={_version(lib)};".encode())
    for part in _CODE_PARTS:
        path = root / part
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            h.update(file.relative_to(root).as_posix().encode())
            h.update(file.read_bytes())
    return h.hexdigest()[:16]


def median_choice(choices: list[dict]) -> dict:
    """Per parameter, the median of the choices (the lower one of an even count: a grid value)."""
    out = {}
    for key in choices[0]:
        values = [c[key] for c in choices]
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            out[key] = sorted(values)[(len(values) - 1) // 2]
        else:
            out[key] = max(set(values), key=values.count)
    return out


@dataclass(frozen=True)
class Split:
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray


def fresh_state() -> None:
    """Empty the process-wide caches a fit reads: a task then starts as in a new process."""
    PAIRWISE_CACHE.clear()
    FIT_CACHE.clear()
    incremental.forget()


def _options(options) -> ProtocolOptions:
    if options is None:
        return DEFAULT_OPTIONS
    return options if isinstance(options, ProtocolOptions) else ProtocolOptions(**options)


def cv_groups(method: str, grid: dict) -> list[list[int]]:
    """The candidate groups of ``grid`` that one :func:`cv_fold_task` scores together."""
    return candidate_groups(grid, get_method(method).shared)[1]


def cv_fold_task(
    method: str,
    grid: dict,
    group: int,
    X: np.ndarray,
    y: np.ndarray,
    seed: int,
    fold: int,
    options=None,
) -> dict:
    """Fold ``fold`` of the cross-validation of one training set, for candidate group ``group``:
    each candidate's validation accuracy (None: its fit failed) and whether it predicted a
    single class."""
    m = get_method(method)
    opts = _options(options)
    candidates, groups = candidate_groups(grid, m.shared)
    members = groups[group]
    fresh_state()
    with threadpool_limits(1):
        folds = stratified_folds(y, N_FOLDS, seed)
        scores, constant = score_group(
            m.fold_scorer(opts), X, y, folds[fold], [candidates[i] for i in members]
        )
    return {
        "fold": int(fold),
        "candidates": members,
        "scores": [float(v) if np.isfinite(v) else None for v in scores],
        "constant": constant,
    }


def reduce_cv(method: str, grid: dict, fold_results: list[dict], options=None) -> dict:
    """A realization's choice from its :func:`cv_fold_task` results (every fold and group)."""
    opts = _options(options)
    candidates, _ = candidate_groups(grid, get_method(method).shared)
    scores = np.full((len(candidates), N_FOLDS), np.nan)
    constant = np.zeros((len(candidates), N_FOLDS), dtype=bool)
    for part in fold_results:
        rows = part["candidates"]
        scores[rows, part["fold"]] = [np.nan if v is None else v for v in part["scores"]]
        constant[rows, part["fold"]] = part["constant"]
    try:
        best = choose_best(scores, constant, opts.ties)
    except ValueError as exc:  # every candidate failed: recorded, not fatal to the table
        return {"best": None, "mean_accuracy": None, "failed": str(exc)}
    means = np.average(scores, axis=1)
    return {
        "best": dict(candidates[best]),
        "mean_accuracy": [None if not np.isfinite(v) else float(v) for v in means],
    }


def cv_task(method: str, grid: dict, X: np.ndarray, y: np.ndarray, seed: int, options=None) -> dict:
    """The grid's cross-validated choice on one training set: best parameters and mean scores."""
    m = get_method(method)
    opts = _options(options)
    fresh_state()
    try:
        with threadpool_limits(1):
            result = grid_search(
                m.fold_scorer(opts),
                grid,
                X,
                y,
                shared=m.shared,
                n_folds=N_FOLDS,
                seed=seed,
                ties=opts.ties,
            )
    except ValueError as exc:  # every candidate failed: recorded, not fatal to the table
        return {"best": None, "mean_accuracy": None, "failed": str(exc)}
    return {
        "best": result.best_params,
        "mean_accuracy": [None if not np.isfinite(v) else float(v) for v in result.mean_scores],
    }


def _output_counts(outputs: np.ndarray, y: np.ndarray, classes: np.ndarray) -> dict:
    clipped = np.clip(outputs, OUTPUT_BINS[0], OUTPUT_BINS[-1])
    return {
        str(int(c)): np.histogram(clipped[y == c], bins=OUTPUT_BINS)[0].tolist() for c in classes
    }


def eval_task(method: str, params: dict, split: Split, options=None) -> dict:
    """Fit with ``params`` on the training set; test error, training error, sparsity, outputs."""
    m = get_method(method)
    fresh_state()
    try:
        with threadpool_limits(1):
            fit_params = estimator_params(params, len(split.y_train))
            model = m.estimator(fit_params, _options(options)).fit(split.X_train, split.y_train)
            pred_test = model.predict(split.X_test)
            pred_train = model.predict(split.X_train)
            out_train = np.asarray(model.decision_function(split.X_train), dtype=float)
            out_test = np.asarray(model.decision_function(split.X_test), dtype=float)
    except (ValueError, ArithmeticError, np.linalg.LinAlgError) as exc:
        return {"failed": f"{type(exc).__name__}: {exc}"}
    classes = np.unique(split.y_train)
    sparsity = getattr(model, "sparsity_", None)
    return {
        "error": 100.0 * float(np.mean(pred_test != split.y_test)),
        "train_error": 100.0 * float(np.mean(pred_train != split.y_train)),
        "sparsity": None if not m.sparse or sparsity is None else float(sparsity),
        "outputs": {
            "train": _output_counts(out_train, split.y_train, classes),
            "test": _output_counts(out_test, split.y_test, classes),
        },
    }


def mean_and_se(values) -> tuple[float, float | None]:
    """Mean and standard error of the mean (None from a single value)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return float("nan"), None
    se = float(np.std(v, ddof=1) / np.sqrt(v.size)) if v.size > 1 else None
    return float(v.mean()), se
