"""The one door to scikit-learn's private API.

scikit-learn keeps its parameter-constraint machinery and a few validation helpers in private
modules (``sklearn.utils._param_validation``, ``sklearn.utils.validation._num_samples``), which
may move between releases. Every module of kfdviz takes them from here, so a move is mended in
one place; ``tests/test_sklearn_compat.py`` checks that no other module reaches into
scikit-learn's private names and that these exist in the installed release (the floor in
``pyproject.toml`` and the newest one are both run in CI's test environment when available).
"""

from __future__ import annotations

from sklearn.utils._param_validation import (
    Hidden,
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_parameter_constraints,
)
from sklearn.utils.validation import _num_samples as num_samples

__all__ = [
    "Hidden",
    "Interval",
    "InvalidParameterError",
    "StrOptions",
    "num_samples",
    "validate_parameter_constraints",
]
