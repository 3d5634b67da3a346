"""What an algorithm is to the rest of kfdviz: an estimator class plus the spec it exports.

An :class:`AlgorithmSpec` names the estimator, its kind (:class:`Kind`), the parameters a user may
change (:class:`ParamSpec`: slider range, log scaling, label and tooltip), the parameters the
entry itself fixes (``formulation="sparse"`` for the sparse KFD) and its :class:`CostModel`. A
parameter's kind, choices and default come from the estimator itself (its
``_parameter_constraints`` and ``__init__``) unless the spec overrides them, and a spec that
disagrees with its estimator fails when it is built, at import time, so the window, the command
line and ``fit`` agree on what is valid. Validation reuses the same constraints. No Qt here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from numbers import Integral

from ..core.kernels import KERNEL_KINDS, KERNEL_NAMES
from ._compat import (
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_parameter_constraints,
)


class Kind(StrEnum):
    """What an algorithm's fitted estimator gives: the window, the pipeline and the cost model
    branch on it. Members are listed in the order the window groups them."""

    CLASSIFIER = "classifier"
    FEATURES = "features"
    EMBEDDING = "embedding"
    NOVELTY = "novelty"
    REGRESSOR = "regressor"

    @property
    def label(self) -> str:
        """The group's heading in the window's algorithm list."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    Kind.CLASSIFIER: "Classifiers",
    Kind.FEATURES: "Feature extractors",
    Kind.EMBEDDING: "Embeddings",
    Kind.NOVELTY: "Novelty detection",
    Kind.REGRESSOR: "Regression",
}


class _FromEstimator:
    def __repr__(self) -> str:
        return "<the estimator's default>"


FROM_ESTIMATOR = _FromEstimator()

# The widget kinds a parameter can have; "tuple-choice" (several of the choices at once) cannot be
# read off a constraint and is always given.
PARAM_KINDS = ("float", "int", "optional-int", "choice", "bool", "tuple-choice")


@dataclass(frozen=True)
class ParamSpec:
    """One parameter a user may change, with what the window needs to show it.

    ``kind`` (one of :data:`PARAM_KINDS`), ``choices`` and ``default`` may be left out: the
    :class:`AlgorithmSpec` that holds the parameter reads them off its estimator. Given
    ``choices`` set the order the window lists them in and must all be valid values.
    """

    name: str
    kind: str = ""
    default: object = FROM_ESTIMATOR
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple = ()
    label: str = ""
    tooltip: str = ""
    visible_when: dict | None = None


# -- the cost model -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    """The size of one fit as a cost model sees it: ``n`` training points of dimension ``d``,
    ``classes`` classes (2 when there are none), the algorithm's parameters as given, and
    ``grid_points``, the points of the picture's grid (0 when the data are not 2-D)."""

    n: int
    d: int
    classes: int
    params: Mapping
    grid_points: int

    def param(self, name: str, default):
        """The parameter's value, or ``default`` when it is absent or None."""
        value = self.params.get(name, default)
        return default if value is None else value


@dataclass(frozen=True)
class Work:
    """What one fit does: Gaussian-kernel-like values (distances and exponentials), dense
    matrix-product flops, the bytes its large arrays hold at once, and the expansion points
    (``centers``) the picture's grid is evaluated over. ``serial_flops``: work that runs on one
    core whatever the BLAS threads (the programs' solvers), in flops at a one-thread matrix
    product's rate."""

    kernel_values: float
    flops: float
    peak_bytes: float
    centers: int
    serial_flops: float = 0.0


@dataclass(frozen=True)
class CostModel:
    """How an algorithm's fit is priced (:mod:`kfdviz.pipeline.cost` turns work into seconds).

    ``work(problem)`` counts the fit's own work, without the picture's grid and the diagnostics.
    ``iterative``: the iteration count depends on the data (interior-point and simplex programs,
    forward selection), so the fit is never called surely quick. ``prices_spectrum``: whether
    the kernel matrix's spectrum in the diagnostics adds to the price (kernel PCA's count covers
    its own eigendecomposition).
    """

    work: Callable[[Problem], Work]
    iterative: bool = False
    prices_spectrum: bool = True


# -- the algorithm ------------------------------------------------------------------------------
def plain_reason(label: str, constraints: list, value, name: str = "") -> str:
    """What is wrong with ``value`` of the parameter ``label`` (code name ``name``), said for
    people ("Width c (width) must be positive; got -1.0."), from its numeric interval or its
    options; "" when the constraints are of another kind (the caller keeps scikit-learn's
    message then)."""
    shown = repr(value)
    if name and name != label:
        label = f"{label} ({name})"
    for c in constraints:
        if isinstance(c, Interval):
            whole = c.type is Integral
            lo, hi = c.left, c.right
            low_in = c.closed in ("left", "both")
            high_in = c.closed in ("right", "both")
            if lo is not None and hi is not None:
                rule = f"between {lo:g} and {hi:g}"
            elif lo == 0 and not low_in:
                rule = "positive"
            elif lo == 0:
                rule = "0 or more"
            elif lo is not None:
                rule = f"at least {lo:g}" if low_in else f"more than {lo:g}"
            elif hi is not None:
                rule = f"at most {hi:g}" if high_in else f"less than {hi:g}"
            else:
                rule = "a number"
            kind = "a whole number, " if whole else ""
            return f"{label} must be {kind}{rule}; got {shown}."
        if isinstance(c, StrOptions):
            options = ", ".join(sorted(c.options))
            return f"{label} must be one of {options}; got {shown}."
    return ""


@dataclass(frozen=True)
class Guide:
    """A short guide to an algorithm in plain words (Help → Algorithm guide).

    ``computes``: what the algorithm computes; ``picture``: what its picture shows;
    ``try_this``: what to change and what to watch; ``source``: the paper and its equation.
    """

    computes: str
    picture: str
    try_this: str
    source: str

    def __post_init__(self):
        for name in ("computes", "picture", "try_this", "source"):
            if not str(getattr(self, name)).strip():
                raise TypeError(f"An algorithm guide needs its {name!r} text.")


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm a user can pick: the estimator, how to show it and what its fit costs.

    ``subset_expansion``: the estimator can expand over a subset of ``n_centers`` training
    points (TPAMI eq. 13), which the window offers for large data. ``score_label`` names what a
    novelty detector's ``score_samples`` measures. ``description``: one line; ``guide``: the
    Help menu's guide to it (:class:`Guide`).
    """

    key: str
    title: str
    kind: Kind
    estimator: type
    params: tuple[ParamSpec, ...]
    cost: CostModel
    fixed: dict = field(default_factory=dict)
    min_classes: int = 0
    max_classes: int | None = None
    subset_expansion: bool = False
    score_label: str = "novelty score"
    description: str = ""
    guide: Guide | None = None

    def __post_init__(self):
        if not isinstance(self.kind, Kind):
            raise TypeError(
                f"Algorithm {self.key!r}: kind must be a Kind ({', '.join(k.name for k in Kind)}), "
                f"got {self.kind!r}."
            )
        if not isinstance(self.cost, CostModel):
            raise TypeError(
                f"Algorithm {self.key!r} has no cost model: give cost=CostModel(work=...) that "
                "counts its fit's kernel values, flops and bytes (see kfdviz.estimators.spec)."
            )
        resolved = tuple(_resolve(p, self.estimator, self.key) for p in self.params)
        object.__setattr__(self, "params", resolved)
        names = {p.name for p in resolved}
        if names & set(self.fixed):
            raise TypeError(
                f"Algorithm {self.key!r} both shows and fixes {', '.join(sorted(names & set(self.fixed)))}."
            )
        if self.subset_expansion and "n_centers" not in names:
            raise TypeError(
                f"Algorithm {self.key!r} claims a subset expansion but shows no n_centers parameter."
            )

    @property
    def supervised(self) -> bool:
        """Whether ``fit`` takes labels or targets."""
        return self.kind in (Kind.CLASSIFIER, Kind.REGRESSOR) or self.min_classes > 0

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def full_params(self, params: dict) -> dict:
        unknown = set(params) - {p.name for p in self.params} - set(self.fixed)
        if unknown:
            raise ValueError(
                f"{self.title} has no parameter {', '.join(sorted(unknown))}; "
                f"it takes {', '.join(p.name for p in self.params)}."
            )
        merged = {**self.defaults(), **params, **self.fixed}
        for spec in self.params:
            if spec.kind == "tuple-choice" and isinstance(merged.get(spec.name), list):
                merged[spec.name] = tuple(merged[spec.name])
        return merged

    def validate(self, params: dict) -> dict[str, str]:
        """Parameter name -> reason, for each invalid value; empty when all are valid."""
        errors: dict[str, str] = {}
        try:
            merged = self.full_params(params)
        except ValueError as exc:
            return {"": str(exc)}
        constraints = getattr(self.estimator, "_parameter_constraints", {})
        for name, value in merged.items():
            if name not in constraints:
                continue
            try:
                validate_parameter_constraints(
                    {name: constraints[name]}, {name: value}, caller_name=self.title
                )
            except InvalidParameterError as exc:
                label = next((p.label for p in self.params if p.name == name and p.label), name)
                errors[name] = plain_reason(label, constraints[name], value, name) or str(exc)
        return errors

    def make(self, params: dict | None = None):
        """An unfitted estimator with these parameters; InvalidParameterError naming a bad one."""
        params = params or {}
        errors = self.validate(params)
        if errors:
            raise InvalidParameterError("; ".join(errors.values()))
        return self.estimator(**self.full_params(params))


def _resolve(param: ParamSpec, estimator: type, key: str) -> ParamSpec:
    """``param`` with its kind, choices and default read off ``estimator`` where not given;
    TypeError where the spec and the estimator disagree."""
    where = f"Algorithm {key!r}, parameter {param.name!r}"
    constraints = getattr(estimator, "_parameter_constraints", {}).get(param.name)
    if constraints is None:
        raise TypeError(f"{where}: {estimator.__name__} declares no constraint for it.")
    derived = _kind_of(constraints)
    kind = param.kind or derived
    if kind not in PARAM_KINDS:
        raise TypeError(
            f"{where}: its kind cannot be read off the constraints {constraints!r}; "
            f"give kind= (one of {', '.join(PARAM_KINDS)})."
        )
    if param.kind and derived and param.kind != derived:
        raise TypeError(f"{where}: given kind {param.kind!r}, but the constraints say {derived!r}.")
    choices = param.choices
    if kind == "choice":
        options = set().union(*(c.options for c in constraints if isinstance(c, StrOptions)))
        choices = choices or tuple(sorted(options))
        if not set(choices) <= options:
            raise TypeError(
                f"{where}: offers {sorted(set(choices) - options)}, which "
                f"{estimator.__name__} does not take."
            )
    default = param.default
    if default is FROM_ESTIMATOR:
        signature = inspect.signature(estimator.__init__).parameters
        default = signature[param.name].default
    return replace(param, kind=kind, choices=tuple(choices), default=default)


def _kind_of(constraints: list) -> str:
    """The widget kind a constraint list implies; "" when it implies none."""
    if "boolean" in constraints:
        return "bool"
    intervals = [c for c in constraints if isinstance(c, Interval)]
    if intervals:
        if all(c.type is Integral for c in intervals):
            return "optional-int" if None in constraints else "int"
        return "float"
    if constraints and all(isinstance(c, StrOptions) for c in constraints):
        return "choice"
    return ""


# -- parameters many algorithms share -----------------------------------------------------------
def _kernels_using(parameter: str) -> tuple[str, ...]:
    return tuple(k.name for k in KERNEL_KINDS.values() if parameter in k.parameters)


KERNEL = ParamSpec(
    "kernel",
    choices=KERNEL_NAMES,
    default="rbf",
    label="Kernel",
    tooltip="k(x, z): Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or linear x.z.",
)
WIDTH = ParamSpec(
    "width",
    default=1.0,
    low=1e-3,
    high=1e3,
    log=True,
    label="Width c",
    tooltip="Gaussian kernel width c in exp(-||x - z||^2 / c) (the papers' convention; "
    "scikit-learn's gamma = 1/c). Small c: wiggly features; large c: smooth ones.",
    visible_when={"kernel": _kernels_using("width")},
)
DEGREE = ParamSpec(
    "degree",
    default=3,
    low=1,
    high=10,
    label="Degree",
    tooltip="Degree d of the polynomial kernel (x.z + coef0)^d.",
    visible_when={"kernel": _kernels_using("degree")},
)
COEF0 = ParamSpec(
    "coef0",
    default=1.0,
    low=0.0,
    high=10.0,
    label="coef0",
    tooltip="Constant of the polynomial kernel: 0 is homogeneous (TPAMI), 1 the KOC paper's.",
    visible_when={"kernel": _kernels_using("coef0")},
)
KERNEL_PARAMS = (KERNEL, WIDTH, DEGREE, COEF0)


def mu_param(default: float, tooltip: str, low: float = 1e-9) -> ParamSpec:
    """The regularization weight μ, on a log slider from ``low`` to 100."""
    return ParamSpec("mu", default=default, low=low, high=1e2, log=True, label="μ", tooltip=tooltip)


N_CENTERS = ParamSpec(
    "n_centers",
    default=None,
    low=2,
    high=2000,
    log=True,
    label="Centers",
    tooltip="Expand w over this many points only (training on a subset, TPAMI eq. 13); "
    "empty = all training points.",
)
CENTERS = ParamSpec(
    "centers",
    choices=("random", "kmeans"),
    default="random",
    label="Center choice",
    tooltip="How the subset of eq. (13) is chosen: a random (class-stratified) subset, or k-means centres.",
)
TANGENT_STEP = ParamSpec(
    "tangent_step",
    default=0.05,
    low=1e-3,
    high=1.0,
    log=True,
    label="Tangent step t",
    tooltip="Finite-difference step of eq. (3): radians for rotation, a fraction of the data's "
    "spread for translations, 1 + t for scaling.",
)
TANGENT_CHOICES = ("rotation", "translate-x", "translate-y", "scale")
