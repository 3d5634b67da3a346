"""Draft fits: a picture while the hand moves, from a fit whose cost does not grow as n^3.

An exact two-class KFD fit at n training points forms N = K D K' (n^3 flops) and factors it
(n^3 / 3): at n = 2000 that is most of a second on two cores, far from a picture per frame. While
a slider is dragged or a point moved, the window instead draws a *draft*: the same KFD with its
expansion restricted to m = :data:`DRAFT_CENTERS` of the training points (TPAMI sec. 4's
subset expansion), whose N = K_zx D K_xz costs n m^2 and whose factorization m^3 / 3. The
centres are a fixed, class-stratified sample (``random_state`` fixed), so successive drafts do
not flicker between samples. When input rests the window fits the exact problem and the exact
picture replaces the draft.

:func:`draft_request` makes the draft's request from the exact one (None where no draft is
worth it: small data, where the exact fit is quick, or an algorithm without a subset
expansion). A draft's result carries ``approximation``, the sentence the window shows: what was
approximated. A draft is never exported or presented as final.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..core import fit_cache, mu_path
from ..core.kernels import Kernel
from .request import FitRequest

# Centres of a draft's expansion (TPAMI sec. 4: a few hundred suffice for a picture).
DRAFT_CENTERS = 250
# Training points from which a moving edit is drawn from a draft first; below, the exact fit
# is quick enough to follow the hand (app/live_refit.py).
DRAFT_FROM = 700
# The algorithms whose draft is the subset expansion of the same estimator.
_SUBSET_ALGORITHMS = frozenset({"kfd"})
# Their formulations that the subset expansion approximates (the Rayleigh solve).
_FORMULATIONS = frozenset({"rayleigh", "eigen"})


def exact_is_quick(request: FitRequest) -> bool:
    """Whether the exact fit of ``request`` is a step along mu (core/mu_path.py): its terms
    are cached and their N reduced, and N + mu I is well conditioned. No draft is needed then:
    the exact fit costs O(n^2)."""
    params = request.params
    if request.algorithm != "kfd" or params.get("n_centers") is not None:
        return False
    if params.get("regularizer", "identity") != "identity" or params.get("tangent_weight"):
        return False
    if params.get("formulation", "rayleigh") != "rayleigh":
        return False
    train = ~request.test_mask
    if request.y is None:
        return False
    classes, y_index = np.unique(request.y[train], return_inverse=True)
    if classes.size != 2:
        return False
    try:
        kern = Kernel(
            params.get("kernel", "rbf"),
            float(params.get("width", 1.0)),
            int(params.get("degree", 3)),
            float(params.get("coef0", 1.0)),
        )
        mu = float(params.get("mu", 1e-3))
    except (TypeError, ValueError):
        return False
    X = np.ascontiguousarray(request.X[train])
    terms = fit_cache.cached_two_class_terms(kern, X, y_index)
    if terms is None:
        return False
    reduced = mu_path.reduction(terms.N)
    return reduced is not None and reduced.condition(mu) <= mu_path.FAST_CONDITION


def draft_request(request: FitRequest) -> FitRequest | None:
    """The draft of ``request`` (see the module's docstring), or None where there is none."""
    if request.algorithm not in _SUBSET_ALGORITHMS:
        return None
    params = dict(request.params)
    if params.get("formulation", "rayleigh") not in _FORMULATIONS:
        return None
    if params.get("n_centers") is not None or params.get("centers") not in (None, "random"):
        return None  # already a subset expansion: the exact fit is the cheap one
    n_train = int((~request.test_mask).sum())
    if n_train < DRAFT_FROM:
        return None
    params["n_centers"] = DRAFT_CENTERS  # the sample is fixed by run_fit (random_state 0)
    note = (
        f"Draft: the expansion over {DRAFT_CENTERS} of the {n_train} training points "
        "(TPAMI sec. 4), its boundary not refined below the grid; the exact fit replaces it "
        "when the input rests."
    )
    return replace(request, params=params, draft=True, approximation=note)


__all__ = ["DRAFT_CENTERS", "DRAFT_FROM", "draft_request", "exact_is_quick"]
