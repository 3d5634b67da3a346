"""A :class:`FitResult` from an estimator the user has already fitted: nothing is refitted.

``describe_fitted(estimator, X, y, test_mask)`` reads the fitted estimator (one of kfdviz's, or a
scikit-learn ``Pipeline`` ending in one) through its own ``decision_function``, ``transform``,
``score_samples`` and ``predict`` at the points and over the grid of the input plane, and builds
the same arrays :func:`~kfdviz.pipeline.run_fit` builds after its own fit, so that the figure
painter draws a user's estimator exactly as it draws the window's.
"""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
from sklearn.pipeline import Pipeline
from sklearn.utils.validation import check_is_fitted

from ..estimators import registry
from ..estimators.spec import Kind
from .request import FitRequest, GridSpec
from .result import FitResult

# The builder is run_fit's own, so that both routes draw from the same arrays; this module is
# its second caller, with an estimator that is fitted already.
from .run import _Builder

# scikit-learn warns when an estimator fitted on a table with column names is evaluated on an
# array; the grid's points are an array of the same columns, in the same order.
_NAMES_WARNING = "X does not have valid feature names"


def final_step(estimator):
    """The estimator a ``Pipeline`` ends in (recursively), or ``estimator`` itself."""
    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[-1][1]
    return estimator


def spec_of(estimator):
    """(AlgorithmSpec, parameters) of a kfdviz estimator, or of the one a ``Pipeline`` ends in.

    The spec is the registry's entry for the estimator's class whose fixed parameters the
    estimator has (the KFD's ``formulation``), else the class's first entry; the parameters are
    the estimator's values of the parameters that entry shows. TypeError for any other estimator.
    """
    final = final_step(estimator)
    values = final.get_params(deep=False) if hasattr(final, "get_params") else {}
    same_class = [s for s in registry.SPECS if type(final) is s.estimator]
    if not same_class:
        same_class = [s for s in registry.SPECS if isinstance(final, s.estimator)]
    if not same_class:
        names = sorted({s.estimator.__name__ for s in registry.SPECS})
        raise TypeError(
            f"{type(final).__name__} is not a kfdviz estimator: pass one of {', '.join(names)} "
            "(or a Pipeline ending in one), fitted."
        )
    spec = next(
        (s for s in same_class if all(values.get(k) == v for k, v in s.fixed.items())),
        same_class[0],
    )
    params = {p.name: values[p.name] for p in spec.params if p.name in values}
    return spec, params


def describe_fitted(
    estimator,
    X,
    y=None,
    test_mask=None,
    *,
    feature: int | str = "auto",
    grid: GridSpec | None = None,
    levels: int = 9,
    bins: int = 30,
    n_embed: int = 3,
) -> FitResult:
    """The arrays the figures draw of the fitted ``estimator`` over the points ``X``.

    ``y``: class labels (regression targets for a regressor), or None; ``test_mask`` marks the
    points drawn as test points. ``feature`` as in :class:`~kfdviz.pipeline.FitRequest` ("auto",
    "decision", "score", "prediction" or a column index); ``grid``: the grid over 2-D input.
    The estimator is evaluated, never fitted. ValueError naming the choices for a ``feature``
    the estimator does not have; ``sklearn.exceptions.NotFittedError`` for an unfitted one.
    """
    check_is_fitted(estimator)
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array of points (n, d); got shape {X.shape}.")
    n_in = getattr(estimator, "n_features_in_", X.shape[1])
    if X.shape[1] != n_in:
        raise ValueError(
            f"X has {X.shape[1]} columns but the estimator was fitted on {n_in}: pass points of "
            "the same columns it was fitted on."
        )
    request = FitRequest(
        "",
        X=X,
        y=None if y is None else np.asarray(y),
        test_mask=test_mask,
        feature=feature,
        grid=grid or GridSpec(),
        levels=int(levels),
        bins=int(bins),
        n_embed=int(n_embed),
        draft=True,  # the kernel matrix's spectrum is the window's dock's, not a figure's
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_NAMES_WARNING, category=UserWarning)
        builder = _builder(estimator, request)
        options = builder.options(builder.n_features())
        keys = [k for k, _ in options]
        if feature != "auto" and feature not in keys:
            listed = ", ".join(f"{k!r} ({label})" for k, label in options) or "none"
            raise ValueError(
                f"{builder.spec.title} has no output {feature!r} to draw: choose one of {listed}."
            )
        result = builder.build()
        if isinstance(estimator, Pipeline):
            result = _with_input_expansion(result, estimator, request)
    return replace(result, warnings=tuple(dict.fromkeys(builder.warnings)))


def _builder(estimator, request: FitRequest) -> _Builder:
    spec, params = spec_of(estimator)
    request = FitRequest(
        spec.key,
        params=params,
        X=request.X,
        y=request.y,
        test_mask=request.test_mask,
        feature=request.feature,
        grid=request.grid,
        levels=request.levels,
        bins=request.bins,
        n_embed=request.n_embed,
        draft=request.draft,
    )
    return _Builder(request, spec, params, estimator, _no_check, _no_report, {})


def _with_input_expansion(result, pipeline: Pipeline, request: FitRequest):
    """``result`` with the expansion points of the pipeline's last step, taken back to the input
    space by the steps before it (when each of them can invert itself); ``result`` unchanged
    when they cannot."""
    final = final_step(pipeline)
    head = pipeline[:-1]
    if not hasattr(head, "inverse_transform"):
        return result
    spec, params = spec_of(final)
    inner = FitRequest(spec.key, params=params, X=head.transform(request.X[:1]))
    builder = _Builder(inner, spec, params, final, _no_check, _no_report, {})
    if spec.kind == Kind.REGRESSOR or result.feature not in dict(result.feature_options):
        return result
    points, coef, total, sparsity = builder.expansion(result.feature)
    if points is None:
        return result
    try:
        points = np.asarray(head.inverse_transform(points), dtype=float)
    except (AttributeError, ValueError, TypeError):  # a step that cannot invert after all
        return result
    return replace(
        result,
        expansion_points=points,
        expansion_coef=coef,
        n_expansion_total=total,
        sparsity=sparsity,
    )


def _no_check() -> None:
    return None


def _no_report(fraction: float, message: str) -> None:
    return None


__all__ = ["describe_fitted", "final_step", "spec_of"]
