"""A figure that is a curve over a parameter: one fit per value, measured (no Qt here).

Park & Park's Fig. 3 plots the test accuracy and the number of support vectors of two pipelines
against the Gaussian width σ: an SVM with a Gaussian kernel on the input, and a *linear* SVM on the
KOC embedding. A :class:`Sweep` describes such a figure as data; :func:`run_sweep` computes it
through ``run_fit`` (the one entry point), so every point of a curve is a fit the app could show.

A curve is a chain of steps: every step but the last must produce an embedding (its embedding of
all points, training and test, is the next step's input); the last step is measured. The swept
parameter is set on the step ``swept``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from .pipeline import FitCancelled, FitError, FitRequest, run_fit
from .pipeline.request import as_check

METRICS = {
    "accuracy": "Test accuracy (%)",
    "n_support": "Support vectors",
    "test_error": "Test error (%)",
}


@dataclass(frozen=True)
class SweepStep:
    algorithm: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


@dataclass(frozen=True)
class SweepCurve:
    label: str
    steps: tuple[SweepStep, ...]
    swept: int = 0  # the step whose parameter is swept
    dashed: bool = False

    def __post_init__(self):
        if not self.steps:
            raise ValueError(f"sweep curve {self.label!r} has no steps")
        if not 0 <= self.swept < len(self.steps):
            raise ValueError(f"sweep curve {self.label!r}: swept step {self.swept} out of range")


@dataclass(frozen=True)
class Sweep:
    """``param`` takes each of ``values`` on every curve; ``metrics`` are plotted side by side."""

    param: str
    values: tuple[float, ...]
    curves: tuple[SweepCurve, ...]
    label: str = ""
    log: bool = True
    metrics: tuple[str, ...] = ("accuracy", "n_support")

    def __post_init__(self):
        if not self.values:
            raise ValueError("a sweep needs at least one value")
        for m in self.metrics:
            if m not in METRICS:
                raise ValueError(f"unknown sweep metric {m!r}: choose from {', '.join(METRICS)}")

    # Plain JSON-able form, for session files.
    def to_dict(self) -> dict:
        return {
            "param": self.param,
            "values": [float(v) for v in self.values],
            "label": self.label,
            "log": bool(self.log),
            "metrics": list(self.metrics),
            "curves": [
                {
                    "label": c.label,
                    "swept": c.swept,
                    "dashed": c.dashed,
                    "steps": [
                        {"algorithm": s.algorithm, "params": dict(s.params)} for s in c.steps
                    ],
                }
                for c in self.curves
            ],
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> Sweep:
        curves = tuple(
            SweepCurve(
                label=str(c["label"]),
                steps=tuple(
                    SweepStep(str(s["algorithm"]), dict(s.get("params") or {})) for s in c["steps"]
                ),
                swept=int(c.get("swept", 0)),
                dashed=bool(c.get("dashed", False)),
            )
            for c in d["curves"]
        )
        return cls(
            param=str(d["param"]),
            values=tuple(float(v) for v in d["values"]),
            curves=curves,
            label=str(d.get("label", "")),
            log=bool(d.get("log", True)),
            metrics=tuple(str(m) for m in d.get("metrics", ("accuracy", "n_support"))),
        )


@dataclass(frozen=True, eq=False)
class SweepResult:
    sweep: Sweep
    values: np.ndarray
    # curve label -> metric -> (len(values),) array (NaN where a fit failed)
    metrics: dict
    failures: tuple[str, ...] = ()


def run_sweep(
    sweep: Sweep,
    X: np.ndarray,
    y: np.ndarray,
    test_mask: np.ndarray | None = None,
    *,
    cancel=None,
    progress: Callable[[float, str], None] | None = None,
) -> SweepResult:
    """Fit every curve at every value of the swept parameter and measure the last step."""
    check = as_check(cancel)
    report = progress or (lambda fraction, message: None)
    X = np.asarray(X, dtype=float)
    test = np.zeros(len(X), bool) if test_mask is None else np.asarray(test_mask, bool)
    out: dict = {
        c.label: {m: np.full(len(sweep.values), np.nan) for m in sweep.metrics}
        for c in sweep.curves
    }
    failures: list[str] = []
    total = len(sweep.values) * len(sweep.curves)
    done = 0
    for i, value in enumerate(sweep.values):
        for curve in sweep.curves:
            check()
            data = X
            result = None
            try:
                for k, step in enumerate(curve.steps):
                    params = dict(step.params)
                    if k == curve.swept:
                        params[sweep.param] = value
                    result = run_fit(
                        FitRequest(step.algorithm, params, data, y, test_mask=test, n_embed=3),
                        cancel=cancel,
                    )
                    if k < len(curve.steps) - 1:
                        if result.embedding is None:
                            raise FitError(f"{result.title} gives no embedding to chain on")
                        data = np.asarray(result.embedding, dtype=float)
            except FitCancelled:
                raise
            except FitError as exc:
                failures.append(f"{curve.label}, {sweep.param} = {value:g}: {exc.message}")
                result = None
            except Exception as exc:  # one failed fit is one missing point of a curve
                reason = str(exc).strip() or type(exc).__name__
                failures.append(
                    f"{curve.label}, {sweep.param} = {value:g}: the fit failed "
                    f"({type(exc).__name__}): {reason}"
                )
                result = None
            if result is not None:
                row = out[curve.label]
                measured = _measure(result)
                for m in sweep.metrics:
                    row[m][i] = measured.get(m, np.nan)
            done += 1
            report(done / total, f"{curve.label}: {sweep.param} = {value:g}")
    return SweepResult(sweep, np.asarray(sweep.values, dtype=float), out, tuple(failures))


def _measure(result) -> dict:
    error = result.test_error if result.test_error is not None else result.train_error
    out = {}
    if error is not None:
        out["test_error"] = 100.0 * float(error)
        out["accuracy"] = 100.0 * (1.0 - float(error))
    n_sv = result.diagnostics.get("n_nonzero")
    if n_sv is None and result.sparsity is not None:
        n_sv = round((1.0 - float(result.sparsity)) * result.n_train)
    if n_sv is not None:
        out["n_support"] = float(n_sv)
    return out


__all__ = ["METRICS", "Sweep", "SweepCurve", "SweepResult", "SweepStep", "run_sweep"]
