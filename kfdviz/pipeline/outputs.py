"""What one fitted estimator outputs, at given points and over a grid of the input plane.

A shown output ("feature") is "decision" (the decision value), "score" (a novelty score),
"prediction" (a regressor's fitted value) or a feature index. A feature index names a column of
``transform``, except for a multi-class classifier without ``transform``: its features are then
its per-class score margins (:func:`votes.score_margins`), positive exactly on the points it
predicts as that class, so that feature j's zero level is the border of class j's region.

Per-class scores (:meth:`FittedOutputs.class_scores`) are those whose argmax is the estimator's
``predict``: for a one-vs-one SVM, the continuous vote scores of :mod:`.votes`; for any other
classifier, the columns of a ``decision_function`` with one column per class. Grid evaluation
goes through the estimator's fitted expansion when it has one (exact and fast), else in chunks of
points with a cancel check between them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np
from sklearn.svm import SVC, NuSVC

from ..estimators.spec import Kind
from .votes import score_margins, vote_scores

# Grid points evaluated per call when an estimator has no fast expansion to evaluate.
CHUNK = 4096


def _grid_points(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def _one_vs_one_machine(estimator, n_classes: int):
    """The fitted libsvm machine of a multi-class SVM that predicts by one-vs-one votes, made to
    return its pairwise decision values; None for any other estimator.

    scikit-learn's default "ovr" decision function adds bounded confidences to the vote counts:
    its argmax can differ from ``predict`` where votes tie, and it jumps where votes change.
    """
    machine = getattr(estimator, "svm_", None)
    if n_classes < 3 or not isinstance(machine, SVC | NuSVC):
        return None
    if machine.break_ties and machine.decision_function_shape == "ovr":
        return None  # it predicts the argmax of its decision function
    pairwise = copy.copy(machine)  # shares the fitted arrays; only the output shape differs
    pairwise.set_params(decision_function_shape="ovo")
    return pairwise


class FittedOutputs:
    """The outputs of ``estimator`` (fitted, of kind ``kind``, over ``classes``) at any points.

    ``check()`` is called between chunks of grid points (it raises to cancel) and
    ``report(fraction, message)`` tells how far a grid evaluation got.
    """

    def __init__(
        self,
        estimator,
        kind: Kind,
        classes: np.ndarray,
        check: Callable[[], None],
        report: Callable[[float, str], None],
    ):
        self.est = estimator
        self.kind = kind
        self.classes = classes
        self.check = check
        self.report = report
        self._pairwise = _one_vs_one_machine(estimator, classes.size)
        self._grid_scores: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None = None
        probe = None
        if kind == Kind.CLASSIFIER and classes.size > 2 and not hasattr(estimator, "transform"):
            probe = self.class_scores(np.zeros((1, estimator.n_features_in_)))
        #: Whether the feature indices name per-class score margins (see the module docstring).
        self.margin_features = probe is not None

    # at points ------------------------------------------------------------------------------
    def class_scores(self, X: np.ndarray) -> np.ndarray | None:
        """(n, r) per-class scores whose argmax is ``predict``; None when there are none."""
        r = self.classes.size
        if self._pairwise is not None:
            return vote_scores(self._pairwise.decision_function(X), r)
        if not hasattr(self.est, "decision_function"):
            return None
        scores = np.asarray(self.est.decision_function(X), dtype=float)
        return scores if scores.shape == (len(X), r) else None

    def values_at(self, feature, X: np.ndarray) -> np.ndarray:
        """The output ``feature`` at the points X, (n,)."""
        est = self.est
        if feature == "decision":
            return np.asarray(est.decision_function(X), dtype=float).reshape(len(X), -1)[:, 0]
        if feature == "score":
            return np.asarray(est.score_samples(X), dtype=float)
        if feature == "prediction":
            return np.asarray(est.predict(X), dtype=float)
        if self.margin_features:
            return score_margins(self.class_scores(X))[:, int(feature)]
        return np.atleast_2d(np.asarray(est.transform(X), dtype=float))[:, int(feature)]

    def fast_expansion(self, feature):
        """A one-feature kernel expansion that evaluates ``feature`` exactly, or None."""
        if feature == "decision":
            exp = getattr(self.est, "decision_expansion_", None)
            if exp is not None and getattr(exp, "n_features", 0) == 1:
                return exp
            return None
        if feature == "prediction":
            exp = getattr(self.est, "decision_expansion_", None) or getattr(
                self.est, "expansion_", None
            )
            return exp if exp is not None and exp.n_features == 1 else None
        if isinstance(feature, int | np.integer) and not self.margin_features:
            exp = getattr(self.est, "expansion_", None)
            if exp is not None and hasattr(exp, "select") and exp.n_features > int(feature):
                return exp.select(int(feature))
        return None

    # over a grid ----------------------------------------------------------------------------
    def grid_values(self, feature, xs, ys, share: tuple[float, float] | None) -> np.ndarray:
        """``feature`` at the grid points, (ys.size, xs.size); progress runs over ``share``
        (None: no progress reported)."""
        if self.margin_features and isinstance(feature, int | np.integer):
            return score_margins(self.grid_scores(xs, ys, share))[:, :, int(feature)]
        exp = self.fast_expansion(feature)
        if exp is not None:
            return exp.evaluate_grid(xs, ys, check_cancel=self.check)[0]
        fast = self._score_grid(feature, xs, ys)
        if fast is not None:
            return fast
        points = _grid_points(xs, ys)
        out = np.empty(points.shape[0])
        for start in range(0, points.shape[0], CHUNK):
            self.check()
            out[start : start + CHUNK] = self.values_at(feature, points[start : start + CHUNK])
            if share is not None:
                self._progress(share, start, points.shape[0])
        return out.reshape(ys.size, xs.size)

    def _score_grid(self, feature, xs, ys) -> np.ndarray | None:
        """A novelty detector's score (or decision value, the score less ``offset_`` as
        scikit-learn's outlier detectors define it) from its own grid evaluation; None when it
        has none."""
        score_grid = getattr(self.est, "score_grid", None)
        if feature not in ("score", "decision") or score_grid is None:
            return None
        if feature == "decision" and not hasattr(self.est, "offset_"):
            return None
        values = np.asarray(score_grid(xs, ys, check_cancel=self.check), dtype=float)
        return values if feature == "score" else values - self.est.offset_

    def grid_scores(self, xs, ys, share: tuple[float, float] | None = None) -> np.ndarray | None:
        """Per-class scores on the grid, (ny, nx, r), whose argmax is ``predict``; else None.

        The last grid's scores are kept: the shown margins and the borders use the same ones.
        """
        kept = self._grid_scores
        if kept is not None and kept[0] is xs and kept[1] is ys:
            return kept[2]
        points = _grid_points(xs, ys)
        r = self.classes.size
        out: np.ndarray | None = np.empty((points.shape[0], r))
        for start in range(0, points.shape[0], CHUNK):
            self.check()
            block = self.class_scores(points[start : start + CHUNK])
            if block is None:
                out = None
                break
            out[start : start + CHUNK] = block
            if share is not None:
                self._progress(share, start, points.shape[0])
        scores = None if out is None else out.reshape(ys.size, xs.size, r)
        self._grid_scores = (xs, ys, scores)
        return scores

    def grid_labels(self, xs, ys) -> np.ndarray:
        """``predict`` at the grid points, (ys.size, xs.size)."""
        points = _grid_points(xs, ys)
        out = np.empty(points.shape[0], dtype=self.classes.dtype)
        for start in range(0, points.shape[0], CHUNK):
            self.check()
            out[start : start + CHUNK] = self.est.predict(points[start : start + CHUNK])
        return out.reshape(ys.size, xs.size)

    def _progress(self, share: tuple[float, float], start: int, total: int) -> None:
        frac = min((start + CHUNK) / total, 1.0)
        self.report(share[0] + (share[1] - share[0]) * frac, "Evaluating the grid")


__all__ = ["CHUNK", "FittedOutputs"]
