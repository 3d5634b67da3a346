"""kfdviz: kernel feature extraction (KPCA, oriented KPCA, kernel Fisher discriminants, KOC).

The estimators follow scikit-learn's contract; the displays (:mod:`kfdviz.displays`) draw a
fitted one as the desktop app and the command line do.
"""

__version__ = "0.1.0"

from importlib import import_module

from .estimators import *  # noqa: F403
from .estimators import __all__ as _estimators_all

# The displays load on first use: they bring the figure layer, which the estimators do not need.
_DISPLAYS = ("EmbeddingDisplay", "LevelSetDisplay", "OutputHistogramDisplay")


def __getattr__(name: str):
    if name in _DISPLAYS:
        return getattr(import_module(f"{__name__}.displays"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__", *_estimators_all, *_DISPLAYS]
