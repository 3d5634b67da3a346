"""What every kfdviz estimator shares: the kernel parameters, their constraints, input checks."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from ..core.expansion import Expansion
from ..core.kernels import KERNEL_NAMES, Kernel
from ._compat import Interval, StrOptions, num_samples

# Declared once so that every estimator (and the GUI, which builds its widgets from these
# constraints) agrees on the kernel parameters' names and ranges.
KERNEL_PARAMETER_CONSTRAINTS = {
    "kernel": [StrOptions(set(KERNEL_NAMES))],
    "width": [Interval(Real, 0.0, None, closed="neither")],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None, closed="neither")],
}


# An exact fit predicted to take longer or to hold more than this is warned about, once per
# process for an estimator of the same parameters on data of the same shape. The prediction prices the fit's cost model
# (its spec's ``cost``) at the rates of a modest machine: the same model, with rates measured on
# the machine, drives the window's large-data banner (kfdviz.pipeline.cost).
LARGE_FIT_SECONDS = 60.0
LARGE_FIT_BYTES = 4 * 2**30
_MODEST_RATES = {"kernel_values": 2e7, "flops": 5e9}


# (estimator class, points, features, options) already warned about: each once per process.
_WARNED: set = set()


class LargeFitWarning(UserWarning):
    """An exact fit predicted to be slow or to need much memory; the message says how to scale."""


def _format_seconds(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


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
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2, **options)
        self._check_kernel_range(X)
        self._warn_if_large(X, y)
        return X, y

    def _check_X(self, X, *, reset: bool) -> np.ndarray:
        X = validate_data(
            self, X, reset=reset, dtype=np.float64, ensure_min_samples=2 if reset else 1
        )
        if reset:
            self._check_kernel_range(X)
            self._warn_if_large(X, None)
        return X

    def _spec(self):
        """This estimator's entry in the registry (None for one the registry does not list)."""
        # The registry imports every estimator module, this one's included: loaded when asked.
        from . import registry

        for key in registry.ALGORITHMS:
            spec = registry.get(key)
            if type(self) is spec.estimator and all(
                getattr(self, name, None) == value for name, value in spec.fixed.items()
            ):
                return spec
        return None

    def _warn_if_large(self, X: np.ndarray, y) -> None:
        """Warn (:class:`LargeFitWarning`) before an exact fit predicted to be slow or large,
        with the predicted time and memory and the options that scale."""
        # The cost models' problem description: loaded with the registry, when asked.
        from .spec import Problem

        spec = self._spec()
        if spec is None or X.shape[0] < 1000:
            return
        classes = 2 if y is None else max(int(np.unique(y).size), 2)
        params = self.get_params(deep=False)
        problem = Problem(n=X.shape[0], d=X.shape[1], classes=classes, params=params, grid_points=0)
        try:
            work = spec.cost.work(problem)
        except (TypeError, ValueError):
            return
        # A program's solver work (``serial_flops``) is counted for its worst iteration count,
        # an upper bound that real solves stay far below (a sparse KFD over 300 centres of
        # 20 000 points: priced at minutes, solved in seconds); a warning is for what surely
        # happens, so only the work every fit does is priced here.
        serial = 0.0 if spec.cost.iterative else work.serial_flops
        seconds = (
            work.kernel_values / _MODEST_RATES["kernel_values"]
            + (work.flops + serial) / _MODEST_RATES["flops"]
        )
        if seconds <= LARGE_FIT_SECONDS and work.peak_bytes <= LARGE_FIT_BYTES:
            return
        said = (type(self).__name__, X.shape, repr(sorted(params.items())))
        if said in _WARNED:
            return
        _WARNED.add(said)
        if spec.subset_expansion and getattr(self, "n_centers", None) is None:
            advice = (
                "set n_centers (e.g. 500: the expansion over a subset of the points, whose cost "
                "grows with n x n_centers instead of n^3), or use the greedy fit "
                "(formulation='greedy')"
            )
        elif spec.subset_expansion:
            advice = "lower n_centers, or use the greedy fit (formulation='greedy')"
        else:
            advice = "fit on a subset of the points (the cost grows with the cube of their number)"
        warnings.warn(
            f"{type(self).__name__} on {X.shape[0]:,} points: the exact fit is estimated to take "
            f"about {_format_seconds(seconds)} and {work.peak_bytes / 2**30:.1f} GB on a modest "
            f"machine; {advice}.",
            LargeFitWarning,
            stacklevel=4,
        )

    def _check_kernel_range(self, X: np.ndarray) -> None:
        """Refuse training data on which the kernel's values overflow.

        Every kernel value is bounded through ||x||^2 <= s for all rows: |x.z| <= s, and
        ||x - z||^2 <= 4 s. Where that bound is not a finite number, the Gram matrix would hold
        inf or NaN and every fit would fail somewhere inside with a less useful message.
        """
        with np.errstate(over="ignore", invalid="ignore"):
            s = np.max(np.einsum("ij,ij->i", X, X), initial=0.0)
            if self.kernel == "poly":
                bound = np.power(s + abs(float(self.coef0)), int(self.degree))
            else:
                bound = 4.0 * s
        if np.isfinite(bound):
            return
        what = (
            f"the polynomial kernel (x.z + {float(self.coef0):g})^{int(self.degree)}"
            if self.kernel == "poly"
            else f"the {'Gaussian' if self.kernel == 'rbf' else 'linear'} kernel"
        )
        advice = "scale the data (e.g. to unit variance)" + (
            " or lower the degree" if self.kernel == "poly" else ""
        )
        raise ValueError(
            f"The kernel values overflow on these training data: the largest ||x||^2 is {s:.3g}, "
            f"and {what} exceeds the largest floating-point number there; {advice}."
        )

    def _feature_values(self, X) -> np.ndarray:
        """Values of the fitted expansion's features at the rows of X, shape (n, k)."""
        check_is_fitted(self, "expansion_")
        X = self._check_X(X, reset=False)
        return self._finite_values(self.expansion_, X)

    def _finite_values(self, expansion: Expansion, X: np.ndarray) -> np.ndarray:
        """``expansion`` at the rows of the validated X; non-finite outputs are refused.

        Finite inputs give non-finite outputs only where kernel values overflow (a polynomial
        kernel far from the data): such a row has no meaningful feature value or class, so
        ValueError names it instead of passing NaN on (or mapping it to a class).
        """
        with np.errstate(over="ignore", invalid="ignore"):
            values = expansion.evaluate(X)
        finite = np.isfinite(values).reshape(values.shape[0], -1).all(axis=1)
        if not finite.all():
            raise ValueError(non_finite_message(type(self).__name__, expansion.kernel, X, finite))
        return values

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


def non_finite_message(owner: str, kernel, X: np.ndarray, finite: np.ndarray) -> str:
    """Why rows of X got non-finite outputs, and what to do."""
    bad = np.flatnonzero(~finite)
    first = int(bad[0])
    norm = float(np.linalg.norm(X[first]))
    if kernel.name == "poly":
        cause = f"(x.z + {kernel.coef0:g})^{kernel.degree} overflows there"
        advice = "scale the data or lower the degree"
    else:
        cause = "the kernel values overflow there"
        advice = "scale the data"
    return (
        f"{owner} cannot evaluate {bad.size} of the {X.shape[0]} rows of X (first: row {first}, "
        f"||x|| = {norm:.3g}): {cause}, so the outputs are not finite numbers. Such rows are "
        f"refused, not given a value or a class; {advice}."
    )


def _length(a) -> int | None:
    try:
        return num_samples(a)
    except TypeError:
        return None


def label_text(label) -> str:
    """A class label as a user reads it: 7, not np.int64(7)."""
    return repr(label.item() if isinstance(label, np.generic) else label)


__all__ = [
    "KERNEL_PARAMETER_CONSTRAINTS",
    "LARGE_FIT_BYTES",
    "LARGE_FIT_SECONDS",
    "BaseEstimator",
    "Expansion",
    "KernelEstimatorMixin",
    "LargeFitWarning",
]
