"""What every kfdviz estimator shares: the kernel parameters, their constraints, input checks."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import _num_samples, check_is_fitted, validate_data

from ..core.expansion import Expansion
from ..core.kernels import KERNEL_NAMES, Kernel

# Declared once so that every estimator (and the GUI, which builds its widgets from these
# constraints) agrees on the kernel parameters' names and ranges.
KERNEL_PARAMETER_CONSTRAINTS = {
    "kernel": [StrOptions(set(KERNEL_NAMES))],
    "width": [Interval(Real, 0.0, None, closed="neither")],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
}


class KernelEstimatorMixin:
    """Kernel parameters (``kernel``, ``width``, ``degree``, ``coef0``) and fitted expansions."""

    def _make_kernel(self) -> Kernel:
        return Kernel(self.kernel, float(self.width), int(self.degree), float(self.coef0))

    def _check_X_y(self, X, y, **options):
        """Validate training data, saying plainly what is wrong with X and y together."""
        n_x, n_y = _length(X), _length(y)
        if n_x is not None and n_y is not None and n_x != n_y:
            raise ValueError(
                f"X has {n_x} rows but y has {n_y} labels: give exactly one label per point."
            )
        return validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2, **options)

    def _check_X(self, X, *, reset: bool) -> np.ndarray:
        return validate_data(
            self, X, reset=reset, dtype=np.float64, ensure_min_samples=2 if reset else 1
        )

    def _feature_values(self, X) -> np.ndarray:
        """Values of the fitted expansion's features at the rows of X, shape (n, k)."""
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        return self.expansion_.evaluate(X)

    @property
    def expansion_points_(self) -> np.ndarray:
        """The points the fitted features expand over, shape (m, n_features)."""
        check_is_fitted(self, "expansion_")
        return self.expansion_.centers

    @property
    def dual_coef_(self) -> np.ndarray:
        """The expansion's coefficients: shape (m,) for one feature, (m, k) for k features."""
        check_is_fitted(self, "expansion_")
        coef = self.expansion_.coef
        return coef[:, 0] if coef.shape[1] == 1 else coef


def _length(a) -> int | None:
    try:
        return _num_samples(a)
    except TypeError:
        return None


def label_text(label) -> str:
    """A class label as a user reads it: 7, not np.int64(7)."""
    return repr(label.item() if isinstance(label, np.generic) else label)


__all__ = ["KERNEL_PARAMETER_CONSTRAINTS", "BaseEstimator", "Expansion", "KernelEstimatorMixin"]
