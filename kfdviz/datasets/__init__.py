"""Data for kfdviz: generators for the papers' data sets and toys, files, benchmark data, drawing.

Conventions: ``X`` is float64 of shape (n_samples, n_features); ``y`` holds int64 class labels
0..k-1 (a one-class set is all 0) or float64 regression targets. Where the papers and the IDA
benchmark write -1/+1, label 1 is their +1 and label 0 their -1.
"""

from . import banana as _banana  # noqa: F401
from . import paper_sets as _paper_sets  # noqa: F401  (registers the generators)
from . import toys as _toys  # noqa: F401
from .errors import DataFileError, DataFileNotFoundError
from .registry import describe, make, names

__all__ = ["DataFileError", "DataFileNotFoundError", "describe", "make", "names"]
