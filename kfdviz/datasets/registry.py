"""The catalogue of generators: ``names()``, ``describe(name)`` and ``make(name, ...)``.

Generators register themselves with :func:`generator`; ``make`` checks the name and the parameter
names against each generator's signature before calling it, so a typo gets a ``ValueError`` that
lists what is valid.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

# What a generator returns, and the conventions the callers rely on: X is float64 of shape
# (n_samples, dimension); y holds int64 class labels 0..k-1 (a one-class set is all 0) or, for
# regression sets, float64 targets.
Task = str  # "classification", "one-class" or "regression"
Spec = int | Callable[[dict], int]


@dataclass(frozen=True)
class GeneratorInfo:
    name: str
    func: Callable[..., tuple[np.ndarray, np.ndarray]]
    title: str
    source: str
    task: Task
    dimension: Spec
    n_classes: Spec
    group: str

    def defaults(self) -> dict[str, Any]:
        params = inspect.signature(self.func).parameters
        return {
            p.name: p.default for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY
        }


_REGISTRY: dict[str, GeneratorInfo] = {}


def generator(
    *,
    title: str,
    source: str,
    task: Task,
    dimension: Spec,
    n_classes: Spec = 2,
    group: str = "paper",
):
    """Register ``func(rng, *, ...)`` under its own name (decorator).

    ``group`` is "paper" for the data sets of the papers' figures and tables, "toy" otherwise.
    """
    if task not in ("classification", "one-class", "regression"):
        raise ValueError(f"unknown task {task!r}")
    if group not in ("paper", "toy"):
        raise ValueError(f"unknown group {group!r}")

    def register(func):
        name = func.__name__
        if name in _REGISTRY:
            raise ValueError(f"a generator named {name!r} is already registered")
        _REGISTRY[name] = GeneratorInfo(
            name, func, title, source, task, dimension, n_classes, group
        )
        return func

    return register


def names() -> list[str]:
    """Names of all generators: the papers' data sets, then the usual toys, each alphabetically."""
    return sorted(_REGISTRY, key=lambda name: (_REGISTRY[name].group != "paper", name))


def _info(name: str) -> GeneratorInfo:
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"unknown data set {name!r}; valid names: {', '.join(names())}")
    return _REGISTRY[name]


def _merged_params(info: GeneratorInfo, params: dict[str, Any]) -> dict[str, Any]:
    defaults = info.defaults()
    unknown = [key for key in params if key not in defaults]
    if unknown:
        valid = ", ".join(["seed", *defaults])
        raise ValueError(
            f"unknown parameter {unknown[0]!r} for data set {info.name!r}; valid parameters: {valid}"
        )
    return {**defaults, **params}


def _resolve(spec: Spec, params: dict[str, Any]) -> int | str:
    return spec(params) if callable(spec) else spec


def describe(name: str, *, seed=0, **params) -> dict[str, Any]:
    """What ``make(name, **params)`` produces, without generating it.

    Returns a dict with ``name``, ``title``, ``task`` ("classification", "one-class" or
    "regression"), ``dimension``, ``n_classes`` (an int, or the string "regression"),
    ``parameters`` (the defaults, updated with ``params``, plus ``seed``), ``source`` (the paper
    and figure, or where the data set comes from), ``group`` ("paper" or "toy") and
    ``description`` (the generator's docs).
    """
    info = _info(name)
    merged = _merged_params(info, params)
    n_classes = "regression" if info.task == "regression" else _resolve(info.n_classes, merged)
    return {
        "name": info.name,
        "title": info.title,
        "task": info.task,
        "dimension": _resolve(info.dimension, merged),
        "n_classes": n_classes,
        "parameters": {"seed": seed, **merged},
        "source": info.source,
        "group": info.group,
        "description": inspect.cleandoc(info.func.__doc__ or ""),
    }


def _rng(seed) -> np.random.Generator:
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    return np.random.default_rng(int(seed))


def make(name: str, *, seed=0, **params) -> tuple[np.ndarray, np.ndarray]:
    """Generate data set ``name``; the same seed and parameters always give the same arrays.

    ``seed`` is a non-negative integer (default 0), ``None`` for fresh randomness, or a numpy
    ``Generator``. The other keyword arguments are the generator's own (see ``describe(name)``);
    an unknown name or parameter raises ``ValueError`` listing the valid ones.
    """
    info = _info(name)
    merged = _merged_params(info, params)
    X, y = info.func(_rng(seed), **merged)
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64 if info.task == "regression" else np.int64)
    return X, y


__all__ = ["GeneratorInfo", "describe", "generator", "make", "names"]
