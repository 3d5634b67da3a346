"""The preset catalog: the built-in presets, then the papers' figures, in that order.

Named starting points: a data set, one to four algorithms with their parameters, a layout
(:mod:`kfdviz.preset_catalog` defines them). ``default`` is what the app opens with; the others
rebuild the papers' figures (see the table in the project's docs). Importing this module
registers the papers' figures. No Qt here.
"""

from __future__ import annotations

from . import paper_presets, paper_presets_novelty
from .preset_catalog import (
    LAYOUTS,
    PRESETS,
    VIEWS,
    DataSpec,
    PanelSpec,
    Preset,
    get,
    names,
    register,
)

__all__ = [
    "LAYOUTS",
    "PRESETS",
    "VIEWS",
    "DataSpec",
    "PanelSpec",
    "Preset",
    "get",
    "names",
    "paper_presets",
    "paper_presets_novelty",
    "register",
]
