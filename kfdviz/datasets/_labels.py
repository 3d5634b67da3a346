"""Turning a file's label values into kfdviz's labels: classes 0..k-1, or float targets.

Shared by every file format, so a label column means the same thing in a CSV, an NPZ and an
svmlight file:

* integer labels that are all in 0..limit-1 (limit = ``max_classes`` or 256) are kept as they
  are, so a saved drawing with an unused class comes back with the same numbers;
* other integer labels (for example -1/+1) become 0..k-1 in increasing order;
* text labels become 0..k-1 in sorted order;
* in both cases ``class_names[k]`` is the file's own spelling of class k;
* real-valued labels are regression targets (in text files: any label written with a decimal
  point or an exponent; in NPZ files: a float array; in svmlight files: non-whole numbers),
  unless the caller asked for classes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

import numpy as np

from .errors import DataFileError, quote

_INTEGER = re.compile(r"[+-]?\d+\Z")
_INT64_MIN, _INT64_MAX = int(np.iinfo(np.int64).min), int(np.iinfo(np.int64).max)
_MISSING = {"", "nan", "+nan", "-nan"}
DEFAULT_CLASS_LIMIT = 256

# A function raising DataFileError for the label of data row ``row`` (0-based) with a message.
Complain = Callable[[int, str], DataFileError]


def _check_task(task: str) -> None:
    if task not in ("auto", "classification", "regression"):
        raise ValueError(f"task must be 'auto', 'classification' or 'regression', got {task!r}")


def wants_classes(task: str, min_classes, max_classes) -> bool:
    _check_task(task)
    if task == "auto":
        return min_classes is not None or max_classes is not None
    return task == "classification"


def labels_from_text(
    values: Sequence[str],
    complain: Complain,
    *,
    task: str = "auto",
    min_classes: int | None = None,
    max_classes: int | None = None,
    column_text: str = "the label column",
    path=None,
) -> tuple[np.ndarray, list[str] | None, str]:
    """(y, class_names, task) from label cells as written in a text file (already stripped)."""
    _check_task(task)
    for row, value in enumerate(values):
        if value.lower() in _MISSING:
            shown = "empty" if value == "" else repr(value)
            raise complain(row, f"label is {shown}; every point needs a label")
    all_integers = all(_INTEGER.match(v) for v in values)
    if task == "regression" or (
        task == "auto" and not wants_classes(task, min_classes, max_classes) and not all_integers
    ):
        numbers = _all_numbers(values)
        if numbers is not None or task == "regression":
            if numbers is None:
                row = next(i for i, v in enumerate(values) if _number(v) is None)
                raise complain(
                    row,
                    f"{quote(values[row])} is not a number (regression targets must be numbers)",
                )
            return numbers, None, "regression"
    if all_integers:
        integers = [int(v) for v in values]
        if all(_INT64_MIN <= v <= _INT64_MAX for v in integers):
            y, names = _integer_classes(np.array(integers, dtype=np.int64), max_classes)
        else:  # beyond int64: classes in increasing order of the (Python) integers
            names_by_value = sorted(set(integers))
            index = {v: k for k, v in enumerate(names_by_value)}
            y = np.array([index[v] for v in integers], dtype=np.int64)
            names = [str(v) for v in names_by_value]
    else:
        numbers = _all_numbers(values)
        if numbers is None:
            names = sorted(set(values))
        else:  # real numbers taken as classes: order them by value, not as text
            by_value = {v: n for v, n in zip(values, numbers, strict=True)}
            names = sorted(by_value, key=lambda v: (by_value[v], v))
        index = {name: k for k, name in enumerate(names)}
        y = np.array([index[v] for v in values], dtype=np.int64)
    check_class_count(y, names, min_classes, max_classes, column_text, path)
    return y, names, "classification"


def labels_from_array(
    values: np.ndarray,
    complain: Complain,
    *,
    task: str = "auto",
    min_classes: int | None = None,
    max_classes: int | None = None,
    column_text: str = "the labels",
    path=None,
    whole_floats_are_classes: bool = False,
) -> tuple[np.ndarray, list[str] | None, str]:
    """(y, class_names, task) from a label array (NPZ, svmlight); the input is not modified.

    A float array holds regression targets unless classes are asked for, or, with
    ``whole_floats_are_classes`` (svmlight files, whose labels are always parsed as floats),
    unless every value is a whole number.
    """
    _check_task(task)
    values = np.asarray(values)
    if values.dtype.kind in "US":
        text = [str(v.decode("utf-8", "replace") if isinstance(v, bytes) else v) for v in values]
        return labels_from_text(
            [t.strip() for t in text],
            complain,
            task=task,
            min_classes=min_classes,
            max_classes=max_classes,
            column_text=column_text,
            path=path,
        )
    if values.dtype.kind not in "biuf":
        raise DataFileError(
            path, f"{column_text} have type {values.dtype}, expected numbers or text"
        )
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        if not finite.all():
            row = int(np.argmin(finite))
            raise complain(row, f"label {float(values[row])!r} is not a finite number")
        integral = bool(np.all(values == np.round(values)))
        classes = wants_classes(task, min_classes, max_classes) or (
            task == "auto" and integral and whole_floats_are_classes
        )
        if not classes:
            return values.astype(np.float64, copy=True), None, "regression"
        if integral and np.all(np.abs(values) < 2**53):
            y, names = _integer_classes(values.astype(np.int64), max_classes)
        else:
            distinct = np.unique(values)
            y = np.searchsorted(distinct, values).astype(np.int64)
            names = [repr(float(v)) for v in distinct]
    elif task == "regression":
        return values.astype(np.float64), None, "regression"
    elif values.dtype.kind == "u" and values.size and int(values.max()) > _INT64_MAX:
        # uint64 beyond int64 would wrap to negative numbers: number the distinct values instead
        distinct = np.unique(values)
        y = np.searchsorted(distinct, values).astype(np.int64)
        names = [str(int(v)) for v in distinct]
    else:
        y, names = _integer_classes(values.astype(np.int64), max_classes)
    check_class_count(y, names, min_classes, max_classes, column_text, path)
    return y, names, "classification"


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _all_numbers(values: Sequence[str]) -> np.ndarray | None:
    out = np.empty(len(values), dtype=np.float64)
    for i, v in enumerate(values):
        number = _number(v)
        if number is None:
            return None
        out[i] = number
    return out


def _integer_classes(values: np.ndarray, max_classes: int | None) -> tuple[np.ndarray, list[str]]:
    limit = DEFAULT_CLASS_LIMIT if max_classes is None else max_classes
    if values.size and values.min() >= 0 and values.max() < limit:
        return values.astype(np.int64, copy=True), [str(k) for k in range(int(values.max()) + 1)]
    distinct = np.unique(values)
    return np.searchsorted(distinct, values).astype(np.int64), [str(int(v)) for v in distinct]


def check_class_count(y, names, min_classes, max_classes, column_text, path) -> None:
    present = np.unique(y)
    if min_classes is not None and present.size < min_classes:
        found = ", ".join(repr(names[k]) for k in present)
        word = "class" if present.size == 1 else "classes"
        raise DataFileError(
            path,
            f"{column_text} has only {present.size} {word} ({found}); "
            f"at least {min_classes} are needed",
        )
    if max_classes is not None and len(names) > max_classes:
        hint = ""
        if all(_number(n) is not None for n in names):
            hint = " (if these are real-valued targets, load the file for regression)"
        raise DataFileError(
            path,
            f"{column_text} has {len(names)} classes, more than the {max_classes} allowed{hint}",
        )
