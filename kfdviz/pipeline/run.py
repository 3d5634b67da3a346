"""``run_fit``: fit one estimator and turn it into everything the views draw.

The GUI's worker, the command line and the tests all call this one function, so a figure made
headless and the one on screen come from the same numbers.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import replace
from time import perf_counter

import numpy as np

from ..core import mu_path, stoppable
from ..core.fit_cache import FIT_CACHE, kernel_key
from ..core.kernels import Kernel
from ..core.tangents import tangent_directions
from ..estimators import LargeFitWarning, registry
from ..estimators.spec import Kind
from . import cost, reuse
from .advice import fit_advice
from .geometry import data_box, output_histograms
from .outputs import FittedOutputs
from .picture import grid_picture, length_scale
from .projection import points_in_3d
from .request import FitCancelled, FitError, FitRequest, as_check, interruptible
from .result import FitResult, RegressionCurve, Tangents
from .threads import SPECTRUM_POINTS, blas_limit, blas_threads

Progress = Callable[[float, str], None]

# Coefficients below this fraction of the largest one count as zero.
_ZERO = 1e-8

# A mathematical program predicted (cost.py) to take longer than this is solved in a child
# process that a cancel terminates (core/stoppable.py); quicker ones are solved in the fit
# thread, where the solvers poll the cancel at each iteration. The cost model's program times
# are crude (their iteration counts depend on the data), and starting the child costs a few tens
# of milliseconds, so the line is drawn low: what may be long is isolated.
ISOLATE_SECONDS = 0.03
# The algorithms whose fit solves a mathematical program (core/kfd_programs.py).
_PROGRAM_ALGORITHMS = frozenset({"kfd-qp", "kfd-sparse", "kfd-lp", "kfd-regression"})

_KIND_ERROR_NAME = {Kind.CLASSIFIER: "error", Kind.NOVELTY: "outliers", Kind.REGRESSOR: "RMSE"}


def run_fit(
    request: FitRequest,
    *,
    cancel=None,
    progress: Progress | None = None,
) -> FitResult:
    """Fit ``request.algorithm`` on the request's training points and compute every picture.

    ``cancel`` is a callable (or an Event-like object) answering whether to stop; it is checked
    between stages, between grid chunks, at every Python-level call inside the estimator's
    ``fit`` and at every iteration of a solver, and a long solve runs in a child process that it
    terminates (core/stoppable.py); a cancelled fit raises :class:`FitCancelled`. ``progress(fraction, message)`` is
    called as stages finish. A fit that cannot be done raises :class:`FitError` with the
    parameter to blame (``param``) when there is one.
    """
    # The background reduction of an earlier fit's N (core/mu_path.py) waits for this one.
    with mu_path.fitting():
        return _run_fit(request, cancel, progress)


def _run_fit(request: FitRequest, cancel, progress) -> FitResult:
    check = as_check(cancel)
    report = progress or (lambda fraction, message: None)
    timings: dict[str, float] = {}
    t_start = perf_counter()

    spec = _spec(request.algorithm)
    params = dict(request.params)
    problems = spec.validate(params)
    if problems:
        name, reason = next(iter(problems.items()))
        raise FitError(_plain_reason(reason), param=name or None)

    X, y, test = request.X, request.y, request.test_mask
    train = ~test
    y_train = _check_data(spec, X, y, train)
    estimator = _make(spec, params)
    check()
    report(0.05, f"Fitting {spec.title}")

    n_train = int(train.sum())
    if request.approximation is not None and "random_state" in estimator.get_params():
        # A draft's subset of centres is the same sample every time (pipeline/drafts.py).
        estimator.set_params(random_state=0)
    # The same fit as one kept (only the feature drawn changed): its picture, no refit.
    fit_key = (
        request.approximation is not None,
        *reuse.key(spec.key, spec.full_params(params), X, y, test),
    )
    view = reuse.view_key(request)
    kept = reuse.fitted(fit_key, view)
    if kept is not None:
        estimator, fit_warnings = kept
    else:
        t0 = perf_counter()
        estimator, fit_warnings = _fitted(
            request, spec, params, estimator, X[train], y_train, check, cancel
        )
        timings["fit"] = perf_counter() - t0
        reuse.keep(fit_key, view, estimator, fit_warnings)
    caught: list[str] = list(fit_warnings)
    check()
    report(0.45, "Evaluating")

    builder = _Builder(request, spec, params, estimator, check, report, timings)
    with blas_threads(n_train), warnings.catch_warnings(record=True) as records:
        for category in (UserWarning, FutureWarning, DeprecationWarning):
            warnings.simplefilter("always", category)
        with _hooks(request, spec, y_train, cancel)(check):
            result = builder.build()
        caught.extend(_warning_text(w) for w in records)
    timings["total"] = perf_counter() - t_start
    notes = fit_advice(params, result)
    all_warnings = tuple(dict.fromkeys([*builder.warnings, *caught, *notes]))
    report(1.0, "Done")
    if not request.draft and kept is None:
        # The next mu at this width is a tridiagonal solve (core/mu_path.py): this fit's N
        # (if it asked for a reduction) is reduced now that the picture is built, beside
        # whatever the fit thread does next.
        mu_path.reduce_latest_in_background()
    diagnostics = result.diagnostics
    if request.approximation is not None:  # the diagnostics say what a draft approximated
        diagnostics = {**diagnostics, "draft": request.approximation}
    return replace(
        result,
        warnings=all_warnings,
        timings=timings,
        diagnostics=diagnostics,
        approximation=request.approximation,
    )


def _hooks(request: FitRequest, spec, y_train, cancel):
    """A cancel lands between the stages, and inside them at every Python-level call; a fit
    that is surely quick only between the stages (the per-call hook cost a 12 ms fit 1.5 ms)."""
    if cancel is not None and not _surely_quick(request, spec, y_train):
        return interruptible
    return _unhooked


def _fitted(request, spec, params, estimator, X_train, y_train, check, cancel):
    """``estimator`` fitted on the training points, and the warnings its fit gave."""
    hooked = _hooks(request, spec, y_train, cancel)
    n_train = X_train.shape[0]
    isolate = cancel is not None and _long_solve(request, spec, y_train)
    if cancel is not None and spec.key in _PROGRAM_ALGORITHMS:
        # The server of the solves' child processes starts loading with the first program fit,
        # however small: starting a child waits for it, and no cancel can cut that wait short.
        stoppable.prepare()
    caught: list[str] = []
    with blas_threads(n_train), warnings.catch_warnings(record=True) as records:
        for category in (UserWarning, FutureWarning, DeprecationWarning):
            warnings.simplefilter("always", category)
        # the window's large-data banner says this before the fit, with measured rates
        warnings.simplefilter("ignore", LargeFitWarning)
        try:
            with (
                hooked(check),
                stoppable.cancel_scope(
                    check if cancel is not None else None,
                    isolate=isolate,
                    blas_threads=blas_limit(n_train),
                ),
            ):
                _fit(estimator, spec, X_train, y_train)
        except (FitCancelled, FitError):
            raise
        except MemoryError:
            raise FitError(
                "Not enough memory for this fit: use fewer points or fewer expansion points."
            ) from None
        except Exception as exc:  # an estimator's complaint, shown where the user can act on it
            raise _as_fit_error(exc, spec, params) from exc
        caught.extend(_warning_text(w) for w in records)
    return estimator, tuple(caught)


def _surely_quick(request: FitRequest, spec, y_train) -> bool:
    """Whether the fit is predicted to take a few tens of milliseconds at most (cost.py)."""
    classes = 2
    if y_train is not None and spec.kind != Kind.REGRESSOR:
        classes = int(np.unique(y_train).size)
    X = request.X
    try:
        return cost.surely_quick(
            request.algorithm,
            dict(request.params),
            int((~request.test_mask).sum()),
            X.shape[1],
            classes=classes,
            resolution=request.grid.resolution,
            spectrum=not request.draft,
        )
    except (TypeError, ValueError):  # parameters the prediction cannot read: keep the hook
        return False


def _long_solve(request: FitRequest, spec, y_train) -> bool:
    """Whether the fit solves a mathematical program whose solve cost.py predicts to take longer
    than :data:`ISOLATE_SECONDS`."""
    if spec.key not in _PROGRAM_ALGORITHMS:
        return False
    classes = 2
    if y_train is not None and spec.kind != "regressor":
        classes = int(np.unique(y_train).size)
    try:
        # A regression program is counted as the classifier's program of the same size.
        predicted = cost.estimate(
            spec.key if spec.kind != "regressor" else "kfd-qp",
            spec.full_params(dict(request.params)),
            int((~request.test_mask).sum()),
            request.X.shape[1],
            classes=classes,
            resolution=0,
            spectrum=False,
        )
    except (TypeError, ValueError):  # parameters the prediction cannot read: isolate
        return True
    return predicted.parts["linear algebra"] > ISOLATE_SECONDS


@contextmanager
def _unhooked(_check):
    yield


# -- checks and errors -------------------------------------------------------------------------
def _spec(key: str):
    try:
        return registry.get(key)
    except ValueError as exc:
        raise FitError(str(exc), param="algorithm") from None


def _plain_reason(reason: str) -> str:
    # scikit-learn says "The 'mu' parameter of KernelFisherDiscriminant must be ..."; keep it,
    # it names the parameter and the allowed range.
    return reason.strip()


def _make(spec, params):
    try:
        return spec.make(params)
    except (ValueError, TypeError) as exc:
        raise _as_fit_error(exc, spec, params) from exc


def _as_fit_error(exc: Exception, spec, params: dict) -> FitError:
    message = str(exc) or exc.__class__.__name__
    name = _blamed_param(message, spec)
    if isinstance(exc, np.linalg.LinAlgError):
        if "mu" in {p.name for p in spec.params}:
            mu = params.get("mu", spec.defaults().get("mu"))
            return FitError(
                f"The regularized matrix is singular at μ = {mu:g}: increase μ. ({message})",
                param="mu",
            )
        return FitError(f"The fit failed numerically: {message}", param=name)
    return FitError(message, param=name)


def _blamed_param(message: str, spec) -> str | None:
    names = [p.name for p in spec.params] + list(spec.fixed)
    for name in sorted(names, key=len, reverse=True):
        patterns = (rf"'{re.escape(name)}'", rf"\b{re.escape(name)}\s*=", rf"\b{re.escape(name)}\b")
        for pattern in patterns:
            if re.search(pattern, message):
                return name if name not in spec.fixed else None
    return None


def _check_data(spec, X: np.ndarray, y, train: np.ndarray):
    n_train = int(train.sum())
    if X.shape[0] == 0 or n_train == 0:
        raise FitError("There are no training points yet: draw some, or pick a data set.")
    if not np.all(np.isfinite(X)):
        raise FitError("The data contain missing or infinite values.")
    if spec.kind == Kind.REGRESSOR:
        if y is None or y.dtype.kind not in "fiu":
            raise FitError(f"{spec.title} needs regression data: (x, y) samples with real targets.")
        if X.shape[1] != 1:
            raise FitError(
                f"{spec.title} here fits a curve y = f(x): it needs one input dimension, "
                f"the data have {X.shape[1]}."
            )
        if n_train < 3:
            raise FitError(f"{spec.title} needs at least three training samples.")
        return np.asarray(y, dtype=float)[train]
    if spec.kind == Kind.CLASSIFIER or spec.min_classes > 0:
        if y is None:
            raise FitError(f"{spec.title} needs class labels.")
        y_train = np.asarray(y)[train]
        classes, counts = np.unique(y_train, return_counts=True)
        if classes.size < max(spec.min_classes, 2 if spec.kind == Kind.CLASSIFIER else 1):
            need = max(spec.min_classes, 2)
            raise FitError(
                f"{spec.title} needs training points of at least {need} classes; "
                f"there {'is' if classes.size == 1 else 'are'} {classes.size}. "
                "Add points of another class."
            )
        if spec.max_classes is not None and classes.size > spec.max_classes:
            raise FitError(
                f"{spec.title} handles {spec.max_classes} classes; the data have {classes.size}. "
                "Pick the Rayleigh KFD (one-vs-rest / GDA) or fewer classes."
            )
        if spec.kind == Kind.CLASSIFIER and counts.min() < 2:
            lonely = classes[np.argmin(counts)]
            raise FitError(
                f"Class {lonely} has a single training point: add at least one more of it."
            )
        return y_train
    if n_train < 2:
        raise FitError("Add at least two training points.")
    return None if y is None else np.asarray(y)[train]


def _fit(estimator, spec, X_train, y_train) -> None:
    if spec.supervised:
        estimator.fit(X_train, y_train)
    elif y_train is not None and getattr(estimator, "learn_class", 0):
        estimator.fit(X_train, y_train)  # a novelty detector learning one class of them
    else:
        estimator.fit(X_train)


def _warning_text(w: warnings.WarningMessage) -> str:
    return str(w.message).strip()


def _class_name(label) -> str:
    """A class as the window names it: integer labels count from 1 ("Class 1" for label 0)."""
    value = label.item() if isinstance(label, np.generic) else label
    if isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer():
        return f"Class {int(value) + 1}"
    return f"Class {value}"


# -- building the result -----------------------------------------------------------------------
class _Builder:
    def __init__(self, request: FitRequest, spec, params, estimator, check, report, timings):
        self.r = request
        self.spec = spec
        self.params = spec.full_params(params)
        self.est = estimator
        self.check = check
        self.report = report
        self.timings = timings
        self.warnings: list[str] = []
        # A novelty detector that learned one class: which, and how much of the others it flags.
        self.novelty_notes: dict[str, str] = {}
        self.train = ~request.test_mask
        self.classes = np.asarray(
            getattr(
                estimator,
                "classes_",
                np.unique(request.y)
                if request.y is not None and spec.kind != Kind.REGRESSOR
                else np.zeros(0),
            )
        )
        self.fitted = FittedOutputs(estimator, spec.kind, self.classes, check, report)

    # features available on this fitted estimator -----------------------------------------
    def n_features(self) -> int:
        if self.fitted.margin_features:
            return int(self.classes.size)
        exp = getattr(self.est, "expansion_", None)
        if exp is not None and hasattr(exp, "n_features") and self.spec.kind != Kind.REGRESSOR:
            return int(exp.n_features)
        if hasattr(self.est, "transform"):
            return int(np.atleast_2d(self.est.transform(self.r.X[:1])).shape[1])
        return 0

    def two_class(self) -> bool:
        return self.spec.kind == Kind.CLASSIFIER and self.classes.size == 2

    def options(self, n_feat: int) -> list[tuple[int | str, str]]:
        opts: list[tuple[int | str, str]] = []
        kind = self.spec.kind
        if kind == Kind.REGRESSOR:
            return [("prediction", "Fitted value")]
        if (kind == Kind.CLASSIFIER and self.two_class()) or kind == Kind.NOVELTY:
            opts.append(("decision", "Decision value"))
        if kind == Kind.NOVELTY and hasattr(self.est, "score_samples"):
            opts.append(("score", "Novelty score"))
        if self.fitted.margin_features:
            opts.extend((j, f"{_class_name(c)} margin") for j, c in enumerate(self.classes))
        elif kind != Kind.NOVELTY:
            opts.extend((j, f"Feature {j + 1}") for j in range(n_feat))
        return opts

    def resolve_feature(self, options) -> int | str:
        wanted = self.r.feature
        keys = [k for k, _ in options]
        if wanted == "auto" or wanted not in keys:
            if isinstance(wanted, int | np.integer) and keys and wanted not in keys:
                self.warnings.append(
                    f"{self.spec.title} has {sum(isinstance(k, int) for k in keys)} feature(s); "
                    f"showing {dict(options)[keys[0]].lower()} instead of feature {int(wanted) + 1}."
                )
            return keys[0] if keys else 0
        return wanted

    def feature_label(self, feature) -> str:
        title = self.spec.title
        if feature == "decision":
            return f"{title}: decision value" + (
                " f(x) = w·Φ(x) + b" if self.spec.kind == Kind.CLASSIFIER else ""
            )
        if feature == "score":
            return f"{title}: {self.spec.score_label}"
        if feature == "prediction":
            return f"{title}: fitted value"
        if self.fitted.margin_features:
            return f"{title}: {_class_name(self.classes[int(feature)]).lower()} score margin"
        return f"{title}: feature {int(feature) + 1}"

    # the whole result --------------------------------------------------------------------
    def build(self) -> FitResult:
        r, spec, est = self.r, self.spec, self.est
        X, y, test = r.X, r.y, r.test_mask
        t0 = perf_counter()
        n_feat = self.n_features()
        options = self.options(n_feat)
        feature = self.resolve_feature(options)

        outputs = self.fitted.values_at(feature, X) if options else None
        predictions = None
        decision = None
        if spec.kind in (Kind.CLASSIFIER, Kind.NOVELTY, Kind.REGRESSOR) and hasattr(est, "predict"):
            predictions = np.asarray(est.predict(X))
        if (self.two_class() or spec.kind == Kind.NOVELTY) and hasattr(est, "decision_function"):
            decision = outputs if feature == "decision" else self.fitted.values_at("decision", X)
        threshold = self.threshold(feature, outputs, decision)
        train_error, test_error = self.errors(predictions)
        self.timings["outputs"] = perf_counter() - t0
        self.check()

        grid = None
        if X.shape[1] == 2 and spec.kind != Kind.REGRESSOR and outputs is not None:
            t0 = perf_counter()
            grid = grid_picture(
                self.fitted, r, feature, outputs, decision, threshold, length_scale(self.params)
            )
            self.timings["grid"] = perf_counter() - t0
        self.check()
        self.report(0.85, "Histograms and embedding")

        histograms = None
        if outputs is not None and spec.kind != Kind.REGRESSOR:
            labels = None if y is None or spec.kind == Kind.REGRESSOR else np.asarray(y)
            histograms = output_histograms(outputs, labels, test, r.bins, include=threshold)

        embedding, embedding_labels = self.embedding(n_feat)
        points3d, points3d_labels = self.points3d()
        exp_points, exp_coef, n_total, sparsity = self.expansion(feature)
        curve, svr_curve = (None, None)
        if spec.kind == Kind.REGRESSOR:
            curve, svr_curve = self.curves()
        tangents = self.tangents()
        diagnostics, series = self.diagnostics(exp_points, n_total, sparsity, n_feat)

        return FitResult(
            request_id=r.request_id,
            slot=r.slot,
            algorithm=spec.key,
            title=spec.title,
            kind=spec.kind,
            params=dict(self.params),
            X=X,
            y=y,
            test_mask=test,
            classes=self.classes,
            feature=feature,
            feature_label=self.feature_label(feature),
            feature_options=tuple(options),
            outputs=outputs,
            predictions=predictions,
            threshold=threshold,
            train_error=train_error,
            test_error=test_error,
            error_name=_KIND_ERROR_NAME.get(spec.kind, ""),
            grid=grid,
            histograms=histograms,
            embedding=embedding,
            embedding_labels=embedding_labels,
            points3d=points3d,
            points3d_labels=points3d_labels,
            expansion_points=exp_points,
            expansion_coef=exp_coef,
            n_expansion_total=n_total,
            sparsity=sparsity,
            curve=curve,
            svr_curve=svr_curve,
            tangents=tangents,
            diagnostics=diagnostics,
            series=series,
        )

    def threshold(self, feature, outputs, decision) -> float | None:
        if feature == "decision" or self.fitted.margin_features:
            return 0.0  # a class's margin is positive exactly where it is predicted
        if decision is None or outputs is None or not isinstance(feature, int | np.integer):
            return None
        # The shown projection and the decision value differ by the offset when the decision is
        # an affine function of this feature; the threshold is where the decision crosses 0.
        diff = decision - outputs
        scale = max(float(np.ptp(outputs)), 1e-12)
        if float(np.ptp(diff)) <= 1e-7 * scale:
            return float(-np.mean(diff))
        return None

    def errors(self, predictions) -> tuple[float | None, float | None]:
        if predictions is None:
            return None, None
        y, test, train = self.r.y, self.r.test_mask, self.train
        kind = self.spec.kind

        def rate(mask):
            if not mask.any():
                return None
            if kind == Kind.NOVELTY:
                return float(np.mean(predictions[mask] == -1))
            if kind == Kind.REGRESSOR:
                resid = predictions[mask].astype(float) - np.asarray(y, dtype=float)[mask]
                return float(np.sqrt(np.mean(resid**2)))
            return float(np.mean(predictions[mask] != np.asarray(y)[mask]))

        if kind in (Kind.CLASSIFIER, Kind.REGRESSOR) and y is None:
            return None, None
        learned = getattr(self.est, "learned_class_", None)
        if kind == Kind.NOVELTY and learned is not None and y is not None:
            # The learned class's points flagged are false alarms; the other classes' should be
            # flagged, each as a whole.
            labels = np.asarray(y)
            own = labels == learned
            flagged = [
                f"{_class_name(c).lower()}: {100 * np.mean(predictions[labels == c] == -1):.0f} %"
                for c in np.unique(labels)
                if c != learned
            ]
            self.novelty_notes = {
                "learned_class": _class_name(learned),
                "other_classes_flagged": ", ".join(flagged) or "none",
            }
            return rate(train & own), rate(test & own)
        return rate(train), rate(test)

    def embedding(self, n_feat: int):
        if n_feat == 0 or not hasattr(self.est, "transform") or self.spec.kind == Kind.REGRESSOR:
            return None, ()
        k = min(n_feat, max(1, int(self.r.n_embed)))
        exp = getattr(self.est, "expansion_", None)
        if exp is not None and hasattr(exp, "evaluate") and exp.n_features == n_feat:
            E = exp.select(np.arange(k)).evaluate(self.r.X, check_cancel=self.check)
        else:
            E = np.atleast_2d(np.asarray(self.est.transform(self.r.X), dtype=float))[:, :k]
        short = {"Kernel Orthogonal Centroid": "KOC", "Rank-k SVD": "SVD"}.get(
            self.spec.title, self.spec.title
        )
        return E, tuple(f"{short} {j + 1}" for j in range(k))

    def points3d(self):
        X = self.r.X
        if X.shape[1] < 3:
            return None, ()
        return points_in_3d(X)

    def expansion(self, feature):
        est = self.est
        exp = self.fitted.fast_expansion(feature) if feature != "score" else None
        if exp is None:
            exp = getattr(est, "expansion_", None)
            if exp is not None and exp.n_features != 1:
                exp = exp.select(0)
        if exp is None:
            points = getattr(est, "expansion_points_", None)
            coef = getattr(est, "dual_coef_", None)
            if points is None or coef is None:
                return None, None, 0, getattr(est, "sparsity_", None)
            coef = np.asarray(coef, dtype=float).reshape(len(points), -1)[:, 0]
        elif not exp.centers_are_points:
            return None, None, 0, getattr(est, "sparsity_", None)  # directions, not points
        else:
            points, coef = exp.centers, exp.coef[:, 0]
        points = np.asarray(points, dtype=float)
        biggest = float(np.max(np.abs(coef), initial=0.0))
        nonzero = np.abs(coef) > _ZERO * biggest if biggest > 0 else np.zeros(coef.size, bool)
        sparsity = getattr(est, "sparsity_", None)
        n_train = int(self.train.sum())
        if sparsity is None and points.shape[0] <= n_train:
            sparsity = 1.0 - int(nonzero.sum()) / max(n_train, 1)
        return (
            points[nonzero],
            coef[nonzero],
            int(points.shape[0]),
            (None if sparsity is None else float(sparsity)),
        )

    def curves(self):
        r, est = self.r, self.est
        x = r.X[:, 0]
        span = max(float(np.ptp(x)), 1e-9)
        xs = np.linspace(x.min() - 0.05 * span, x.max() + 0.05 * span, 400)
        curve = self._curve(est, xs, self.spec.title)
        svr = None
        if r.with_svr and self.spec.key != "svr" and "svr" in registry.ALGORITHMS:
            svr_spec = registry.get("svr")
            shared = {
                p.name: self.params[p.name]
                for p in svr_spec.params
                if p.name in ("kernel", "width", "degree", "coef0") and p.name in self.params
            }
            svr_est = svr_spec.make(shared)
            train = self.train
            svr_est.fit(r.X[train], np.asarray(r.y, dtype=float)[train])
            svr = self._curve(svr_est, xs, svr_spec.title)
        elif self.spec.key == "svr":
            svr = curve
        return curve, svr

    def _curve(self, est, xs, title) -> RegressionCurve:
        ys = np.asarray(est.predict(xs[:, None]), dtype=float)
        exp = getattr(est, "expansion_", None)
        ex = ey = None
        if exp is not None:
            coef = exp.coef[:, 0]
            biggest = float(np.max(np.abs(coef), initial=0.0))
            keep = np.abs(coef) > _ZERO * biggest if biggest > 0 else np.zeros(coef.size, bool)
            ex = exp.centers[keep, 0]
            # Circle the samples themselves when the centres are training points.
            ey = np.asarray(est.predict(exp.centers[keep]), dtype=float)
            X, y = self.r.X[:, 0], self.r.y
            if y is not None and ex.size:
                idx = np.abs(X[None, :] - ex[:, None]).argmin(axis=1)
                same = np.isclose(X[idx], ex)
                ey = np.where(same, np.asarray(y, dtype=float)[idx], ey)
        # Only an epsilon-insensitive fit (an SVR) has a tube; other losses may carry an
        # unused epsilon parameter.
        eps = getattr(est, "epsilon", None)
        loss = getattr(est, "loss", "epsilon-insensitive")
        tube = isinstance(eps, int | float) and loss == "epsilon-insensitive" and eps > 0
        return RegressionCurve(
            x=xs,
            y=ys,
            epsilon=float(eps) if tube else None,
            expansion_x=ex,
            expansion_y=ey,
            title=title,
        )

    def tangents(self) -> tuple[Tangents, ...]:
        est, X = self.est, self.r.X
        names = getattr(est, "tangents_", None)
        if not names or X.shape[1] != 2 or not hasattr(est, "center_"):
            return ()
        Xt = X[self.train]
        box = data_box(X, 0.0)
        size = 0.045 * max(box[1] - box[0], box[3] - box[2])
        out = []
        for name in names:
            D = tangent_directions(Xt, name, center=np.asarray(est.center_), spread=est.spread_)
            norms = np.linalg.norm(D, axis=1)
            typical = float(np.median(norms[norms > 0])) if np.any(norms > 0) else 1.0
            # Arrows keep their relative lengths (rotation arrows grow with the radius) but the
            # typical arrow is a few percent of the picture.
            out.append(Tangents(name, Xt.copy(), D * (size / typical)))
        return tuple(out)

    def diagnostics(self, exp_points, n_total, sparsity, n_feat):
        raw = dict(getattr(self.est, "diagnostics_", {}) or {})
        numbers: dict = {}
        series: dict = {}
        for key, value in raw.items():
            if key == "warnings":
                self.warnings.extend(str(v) for v in (value or ()))
                continue
            if isinstance(value, str):
                numbers[key] = value
            elif isinstance(value, bool | int | float | np.integer | np.floating | np.bool_):
                numbers[key] = value.item() if hasattr(value, "item") else value
            else:
                try:
                    arr = np.asarray(value, dtype=float).ravel()
                except (TypeError, ValueError):
                    continue
                if arr.size == 1:
                    numbers[key] = float(arr[0])
                elif arr.size > 1:
                    series[key] = arr
        for attr, name in (
            ("eigenvalues_", "eigenvalues"),
            ("rayleigh_values_", "rayleigh_values"),
            ("objective_path_", "objective_path"),
        ):
            value = getattr(self.est, attr, None)
            if value is not None and name not in series:
                arr = np.asarray(value, dtype=float).ravel()
                if arr.size > 1:
                    series[name] = arr
                elif arr.size == 1:
                    numbers.setdefault(name, float(arr[0]))
        spectrum = int(self.train.sum()) <= SPECTRUM_POINTS and not self.r.draft
        if "kernel" in self.params and spectrum:
            series["kernel_spectrum"] = self.kernel_spectrum()
        rq = getattr(self.est, "rayleigh_quotient_", None)
        if rq is not None:
            numbers.setdefault("rayleigh_quotient", float(rq))
        numbers.update(self.novelty_notes)
        numbers["n_train"] = int(self.train.sum())
        numbers["n_test"] = int(self.r.test_mask.sum())
        if n_feat:
            numbers["n_features"] = int(n_feat)
        if n_total:
            numbers["n_expansion"] = int(n_total)
            numbers["n_nonzero"] = 0 if exp_points is None else len(exp_points)
        if sparsity is not None:
            numbers["sparsity"] = float(sparsity)
        self.plain_warnings(numbers)
        return numbers, series

    def kernel_spectrum(self) -> np.ndarray:
        p = self.params
        kern = Kernel(
            p.get("kernel", "rbf"),
            float(p.get("width", 1.0)),
            int(p.get("degree", 3)),
            float(p.get("coef0", 1.0)),
        )
        Xt = np.ascontiguousarray(self.r.X[self.train])

        def spectrum() -> np.ndarray:
            K = kern(Xt, Xt)
            values = np.maximum(np.linalg.eigvalsh(0.5 * (K + K.T))[::-1], 0.0)
            values.setflags(write=False)
            return values

        # The same for every fit on these points with this kernel (a mu step, another
        # algorithm): computed once (O(n^3)), kept in the fit cache.
        key = ("kernel spectrum", kernel_key(kern), Xt.shape, Xt.tobytes())
        return FIT_CACHE.get_or_compute(key, spectrum)

    def plain_warnings(self, numbers: dict) -> None:
        cond = numbers.get("condition")
        if not isinstance(cond, int | float):
            return
        mentioned = any("singular" in w.lower() or "condition" in w.lower() for w in self.warnings)
        if cond > 1e12 and not mentioned:
            mu = self.params.get("mu")
            if mu is not None:
                name = "N" if self.spec.kind == Kind.CLASSIFIER else "the denominator matrix"
                self.warnings.append(
                    f"{name} is nearly singular at μ = {mu:g} (condition number {cond:.1e}): "
                    "increase μ."
                )
            else:
                self.warnings.append(f"The kernel matrix is badly conditioned ({cond:.1e}).")
