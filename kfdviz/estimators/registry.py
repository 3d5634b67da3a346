"""The algorithms a user can pick: every estimator module's specs, listed here explicitly.

This list is the only place an algorithm is registered: nothing registers itself on import, and
adding an algorithm is its estimator module (the class and its ``SPECS``, each an
:class:`AlgorithmSpec` with its cost model) plus its name in the import and in
:data:`SPEC_MODULES` below. No Qt here.
"""

from __future__ import annotations

from . import kfd_spec, koc, kpca, linear, novelty, parzen, regression, svm
from .spec import AlgorithmSpec, CostModel, Kind, ParamSpec

# The estimator modules whose ``SPECS`` make the registry, in the window's order within a kind.
SPEC_MODULES = (kpca, kfd_spec, koc, novelty, parzen, regression, svm, linear)
SPECS: tuple[AlgorithmSpec, ...] = tuple(spec for module in SPEC_MODULES for spec in module.SPECS)


def _by_key(specs: tuple[AlgorithmSpec, ...]) -> dict[str, AlgorithmSpec]:
    table: dict[str, AlgorithmSpec] = {}
    for spec in specs:
        if not isinstance(spec, AlgorithmSpec):
            raise TypeError(f"The registry lists {spec!r}, which is not an AlgorithmSpec.")
        if spec.key in table:
            raise ValueError(f"Two algorithms have the key {spec.key!r}: keys must be unique.")
        table[spec.key] = spec
    return table


ALGORITHMS: dict[str, AlgorithmSpec] = _by_key(SPECS)


def get(key: str) -> AlgorithmSpec:
    """The spec registered under ``key``; ValueError listing the keys when there is none."""
    try:
        return ALGORITHMS[key]
    except KeyError:
        raise ValueError(
            f"Unknown algorithm {key!r}: choose one of {', '.join(ALGORITHMS)}."
        ) from None


__all__ = [
    "ALGORITHMS",
    "SPECS",
    "SPEC_MODULES",
    "AlgorithmSpec",
    "CostModel",
    "Kind",
    "ParamSpec",
    "get",
]
