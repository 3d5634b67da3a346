"""The last fitted estimators, reused when a request changes only what is drawn of them.

Choosing another feature to draw (a KPCA component, the novelty score instead of the decision
value, another class's margin) changes the picture, not the fit: the request's algorithm,
parameters, training points, labels and test split are the same. :func:`fitted` returns the
estimator fitted for such a request before, so :func:`kfdviz.pipeline.run.run_fit` only builds
the new picture from it (so does a new grid: a pan or zoom of the plot). The same request again
is fitted afresh: a refit asked for, or timed, is a refit. Keys are by content (digests of the arrays, the parameters' ``repr``),
so an edited point or parameter is a new fit. A few estimators are kept (:data:`KEEP`): one per
picture of a layout.

A kept estimator is shared by the results built from it and must not change: nothing after the
fit writes to it (the picture's stages only evaluate it).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import numpy as np

# Fitted estimators kept at once (the pictures of a compare layout each have one).
KEEP = 4

_store: OrderedDict[tuple, tuple[object, tuple[str, ...], tuple]] = OrderedDict()
_lock = threading.Lock()
stats = {"reused": 0}


def _digest(a) -> str:
    if a is None:
        return "none"
    a = np.ascontiguousarray(a)
    h = hashlib.blake2b(digest_size=16)
    h.update(str((a.shape, a.dtype.str)).encode())
    if a.dtype.kind == "O":
        h.update(repr(a.tolist()).encode())
    elif a.size:
        h.update(memoryview(a).cast("B"))
    return h.hexdigest()


def key(algorithm: str, params: dict, X, y, test_mask) -> tuple:
    """What a fit depends on: the algorithm, its full parameters and the data, by content."""
    return (
        algorithm,
        repr(sorted(params.items())),
        _digest(X),
        _digest(y),
        _digest(test_mask),
    )


def view_key(request) -> tuple:
    """What a request draws of its fit: the feature, the grid, the levels, bins and embedding."""
    return (
        repr(request.feature),
        repr(request.grid),
        request.levels,
        request.bins,
        request.n_embed,
    )


def fitted(fit_key: tuple, view: tuple):
    """(estimator, the fit's warnings) kept for ``fit_key`` when it was last drawn otherwise
    than ``view``, else None: the same request again (a refit asked for, a measurement) fits
    afresh."""
    with _lock:
        hit = _store.get(fit_key)
        if hit is None or hit[2] == view:
            return None
        _store[fit_key] = (hit[0], hit[1], view)
        _store.move_to_end(fit_key)
        stats["reused"] += 1
        return hit[0], hit[1]


def keep(fit_key: tuple, view: tuple, estimator, warnings: tuple[str, ...]) -> None:
    """Keep ``estimator`` (fitted for ``fit_key``, with the warnings its fit gave, drawn as
    ``view``)."""
    with _lock:
        _store[fit_key] = (estimator, tuple(warnings), view)
        _store.move_to_end(fit_key)
        while len(_store) > KEEP:
            _store.popitem(last=False)


def forget() -> None:
    with _lock:
        _store.clear()
        stats["reused"] = 0


__all__ = ["KEEP", "fitted", "forget", "keep", "key", "view_key"]
