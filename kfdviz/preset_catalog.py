"""Preset types, the table presets register into, and the built-in presets.

A preset is data, not code: a data set, one to four algorithms with their parameters, a layout;
the app, the command line and the tests read the same description. ``default`` is what the app
opens with. The papers' figures (:mod:`kfdviz.paper_presets`) register into the same table after
these; :mod:`kfdviz.presets` is the complete catalog. No Qt here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LAYOUTS = ("single", "compare")
VIEWS = ("input", "outputs", "embedding", "diagnostics")
MAX_PANELS = 4  # a picture's panels: one, or a comparison of up to four (a 2 × 2 grid)


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class DataSpec:
    """A generated data set: ``kfdviz.datasets.make(name, seed=seed, **params)``.

    ``test_ratio`` of the points (chosen with ``split_seed``) become test points: drawn but never
    used for fitting.
    """

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    test_ratio: float = 0.0
    split_seed: int = 0

    def __post_init__(self):
        object.__setattr__(self, "params", _frozen(self.params))


@dataclass(frozen=True)
class PanelSpec:
    """One algorithm as the registry knows it (``kfdviz.estimators.registry``) and what to show.

    ``feature``: "auto", "decision", "score", or the index of the feature drawn.
    """

    algorithm: str
    params: Mapping[str, Any] = field(default_factory=dict)
    feature: int | str = "auto"
    title: str = ""

    def __post_init__(self):
        object.__setattr__(self, "params", _frozen(self.params))


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    description: str
    data: DataSpec
    panels: tuple[PanelSpec, ...]
    layout: str = "single"  # "single": one input-space view; "compare": panels side by side
    view: str = "input"  # the view brought to the front
    source: str = ""
    with_svr: bool = False

    def __post_init__(self):
        if not 1 <= len(self.panels) <= MAX_PANELS:
            raise ValueError(
                f"preset {self.name!r}: one to {MAX_PANELS} panels, got {len(self.panels)}"
            )
        if self.layout not in LAYOUTS:
            raise ValueError(f"preset {self.name!r}: layout must be one of {LAYOUTS}")
        if self.view not in VIEWS:
            raise ValueError(f"preset {self.name!r}: view must be one of {VIEWS}")
        if self.layout == "single" and len(self.panels) != 1:
            raise ValueError(f"preset {self.name!r}: a single layout has exactly one panel")


PRESETS: dict[str, Preset] = {}


def register(preset: Preset) -> Preset:
    if preset.name in PRESETS:
        raise ValueError(f"preset {preset.name!r} is registered twice")
    PRESETS[preset.name] = preset
    return preset


def names() -> list[str]:
    return list(PRESETS)


def get(name: str | None) -> Preset:
    """The preset called ``name`` (None: the default); ValueError listing the names otherwise."""
    key = "default" if name is None else name
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(f"Unknown preset {name!r}: choose one of {', '.join(PRESETS)}.") from None


register(
    Preset(
        name="default",
        title="Kernel Fisher discriminant on two moons",
        description=(
            "Two interleaved half-moons (200 points, a quarter held out for testing) and a "
            "two-class KFD with a Gaussian kernel of width c = 0.5 and within-class "
            "regularization μ = 1e-3: the colour is the decision value, the thick line the "
            "decision boundary, thin lines its level sets."
        ),
        data=DataSpec("moons", {"n_samples": 200, "noise": 0.15}, seed=0, test_ratio=0.25),
        panels=(
            PanelSpec("kfd", {"kernel": "rbf", "width": 0.5, "mu": 1e-3, "threshold": "prior"}),
        ),
    )
)

register(
    Preset(
        name="kfd-vs-kpca",
        title="KFD versus the first two kernel PCA features (Mika et al. 1999, Fig. 1)",
        description=(
            "Two classes on mirrored parabolas. Left: the KFD with a polynomial kernel of degree "
            "2 and μ = 1e-3 separates them. Middle and right: the first and second kernel PCA "
            "features with the same kernel describe the overall shape of the data and do not "
            "separate the classes. The paper leaves coef0 out; the homogeneous (x·z)² cannot "
            "tell the point-symmetric classes apart, so the preset uses (x·z + 1)², and the "
            "threshold with the fewest training errors (zero here)."
        ),
        source="Mika, Rätsch, Weston, Schölkopf, Müller 1999, Fig. 1",
        data=DataSpec("parabolas", {"n_samples": 100, "noise": 0.1}, seed=0),
        panels=(
            PanelSpec(
                "kfd",
                {
                    "kernel": "poly",
                    "degree": 2,
                    "coef0": 1.0,
                    "mu": 1e-3,
                    "threshold": "min-error",
                },
                title="KFD",
            ),
            PanelSpec(
                "kpca",
                {"kernel": "poly", "degree": 2, "coef0": 1.0, "n_components": 2},
                feature=0,
                title="KPCA feature 1",
            ),
            PanelSpec(
                "kpca",
                {"kernel": "poly", "degree": 2, "coef0": 1.0, "n_components": 2},
                feature=1,
                title="KPCA feature 2",
            ),
        ),
        layout="compare",
    )
)

__all__ = [
    "LAYOUTS",
    "MAX_PANELS",
    "PRESETS",
    "VIEWS",
    "DataSpec",
    "PanelSpec",
    "Preset",
    "get",
    "names",
    "register",
]
