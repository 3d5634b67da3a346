"""Data for kfdviz: generators for the papers' data sets and toys, files, benchmark data, drawing.

Conventions: ``X`` is float64 of shape (n_samples, n_features); ``y`` holds int64 class labels
0..k-1 (a one-class set is all 0) or float64 regression targets. Where the papers and the IDA
benchmark write -1/+1, label 1 is their +1 and label 0 their -1. Nothing here imports Qt.

- ``names()``, ``describe(name)``, ``make(name, *, seed=0, **params)``: the generators.
- ``load_table(path, ...)`` -> :class:`LoadedData`, ``load(path, ...)`` -> (X, y),
  ``save(path, X, y, roles=None)``: CSV/TSV, NPZ and svmlight files; ``load_for_drawing`` the
  same, checked for the drawing canvas (at most ``MAX_CLASSES`` classes).
- ``load_ida(folder, name, realization)``: the IDA benchmark's train/test realizations.
- :class:`DrawnDataset`: the editable point set behind the drawing canvas, with undo/redo.
"""

from . import banana as _banana  # noqa: F401  (importing a generator module registers it)
from . import paper_sets as _paper_sets  # noqa: F401
from . import toys as _toys  # noqa: F401
from .drawing import MAX_CLASSES, Change, DrawnDataset
from .errors import DataFileError, DataFileNotFoundError
from .files import FORMATS, LoadedData, load, load_for_drawing, load_table, save
from .ida import ida_names, ida_realizations, load_ida
from .registry import describe, make, names

__all__ = [
    "FORMATS",
    "MAX_CLASSES",
    "Change",
    "DataFileError",
    "DataFileNotFoundError",
    "DrawnDataset",
    "LoadedData",
    "describe",
    "ida_names",
    "ida_realizations",
    "load",
    "load_for_drawing",
    "load_ida",
    "load_table",
    "make",
    "names",
    "save",
]
