"""kfdviz: kernel feature extraction (KPCA, oriented KPCA, kernel Fisher discriminants, KOC).

The estimators follow scikit-learn's contract; the desktop app and the command line sit on top.
"""

__version__ = "0.1.0"

from .estimators import *  # noqa: F403
from .estimators import __all__ as _estimators_all

__all__ = ["__version__", *_estimators_all]
