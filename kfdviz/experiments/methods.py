"""The methods of the papers' tables: estimator, parameter grid, and how each is cross-validated.

Grids (Gaussian kernel exp(-||x - z||^2 / c), the papers' convention; d is the input dimension,
and the IDA data are standardized, so ||x - z||^2 is about 2d on average):

- width c in d x {10^-1.5, 10^-1, ..., 10^2.5} (9 values, half a decade apart);
- KFD: mu in {10^-6, ..., 10^3} (10 values), threshold by the margin LP (TPAMI eq. 15); a
  large mu brings the direction near the difference of the class means in feature space, which
  ringnorm and heart choose;
- SVM: C in {10^-1, ..., 10^3} (5 values), libsvm's own offset;
- SKFD, LSKFD: C (the program's mu, weight of the l1 regularizer) in {10^-3, ..., 10^0}
  (4 values), with NIPS 2001's class zero-mean constraints (4b) (its Table 2 reports program
  (4), which has them), at the width KFD's cross-validation chose on the same data set or,
  with ``program_width="search"``, over the width grid as well; offset re-estimated by the
  margin LP, as TPAMI's footnote 7 says;
- KOC + linear SVM: Gaussian width as above and C in {10^-4, ..., 10^2} (7 values); the
  polynomial kernel (x.z + 1)^3 with C alone (its KOC features are large, about 50 on german,
  so its useful C are small).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.pipeline import Pipeline
from sklearn.svm import SVC

from ..core.kernels import Kernel
from ..estimators.kfd import KernelFisherDiscriminant
from ..estimators.koc import KernelOrthogonalCentroid
from ..estimators.svm import SupportVectorClassifier
from .crossval import FoldScorer, constant_prediction, fit_each_scorer
from .kfd_path import kfd_mu_path_scorer


def _decades(lo: float, hi: float, per_decade: int = 1) -> list[float]:
    """Powers of ten from 10^lo to 10^hi, ``per_decade`` per decade, rounded to 12 digits."""
    n = round((hi - lo) * per_decade) + 1
    return [float(f"{v:.12g}") for v in np.logspace(lo, hi, n)]


def width_grid(d: int) -> list[float]:
    return [float(f"{d * v:.12g}") for v in _decades(-1.5, 2.5, 2)]


KFD_MU = _decades(-6, 3)
SVM_C = _decades(-1, 3)
PROGRAM_MU = _decades(-3, 0)
KOC_C = _decades(-4, 2)

# eq. (15)'s trade-off C, as 1/(nu n) for n training points: nu bounds the fraction of points
# inside the margin. The papers print no value; 0.1 is ours. "cv" cross-validates nu.
DEFAULT_THRESHOLD_NU = 0.1
THRESHOLD_NU_GRID = [0.1, 0.2, 0.5]
TIE_RULES = ("median", "first")
PROGRAM_WIDTHS = ("kfd", "search")


@dataclass(frozen=True)
class ProtocolOptions:
    """What the papers leave open or allow, as choices of the protocol.

    - ``zero_mean``: SKFD and LSKFD with NIPS 2001's class zero-mean constraints (4b), the
      residuals of each class summing to zero (the programs of its Table 2 are (4), which has
      them); False drops them (TPAMI's (12) and (14) as printed).
    - ``threshold_nu``: eq. (15)'s C = 1/(nu n) for KFD, SKFD and LSKFD, a number in (0, 1],
      or ``"cv"`` to cross-validate nu over :data:`THRESHOLD_NU_GRID` with the other
      parameters. The papers give no C.
    - ``program_width``: ``"kfd"``, SKFD and LSKFD take the width KFD's cross-validation chose;
      ``"search"``, they cross-validate their own over the width grid (nine times the work).
    - ``ties``: how the cross-validation resolves equal mean accuracies,
      :func:`kfdviz.experiments.crossval.choose_best` (``"median"``: the median of the tied
      candidates that are not constant predictors; ``"first"``: GridSearchCV's first).
    """

    zero_mean: bool = True
    threshold_nu: float | str = DEFAULT_THRESHOLD_NU
    program_width: str = "kfd"
    ties: str = "median"

    def __post_init__(self):
        nu = self.threshold_nu
        if nu != "cv" and not (isinstance(nu, int | float) and 0 < nu <= 1):
            raise ValueError(f"threshold nu must be in (0, 1] or 'cv', got {nu!r}")
        if self.program_width not in PROGRAM_WIDTHS:
            raise ValueError(
                f"program width must be one of {', '.join(PROGRAM_WIDTHS)}, got "
                f"{self.program_width!r}"
            )
        if self.ties not in TIE_RULES:
            raise ValueError(f"tie rule must be one of {', '.join(TIE_RULES)}, got {self.ties!r}")

    def as_dict(self) -> dict:
        return {
            "zero_mean": bool(self.zero_mean),
            "threshold_nu": self.threshold_nu
            if self.threshold_nu == "cv"
            else float(self.threshold_nu),
            "program_width": self.program_width,
            "ties": self.ties,
        }


DEFAULT_OPTIONS = ProtocolOptions()


def margin_lp_text(options: ProtocolOptions = DEFAULT_OPTIONS) -> str:
    nu = options.threshold_nu
    c = "C = 1/(ν n), ν by cross-validation" if nu == "cv" else f"C = 1/({float(nu):g} n)"
    return f"margin LP, TPAMI eq. (15), {c}"


MARGIN_LP = margin_lp_text()


# -- fold scorers that share more than the fit cache does ------------------------------------------
def svm_gram_scorer(X_train, y_train, X_val, y_val, candidates: Sequence[dict]) -> list[tuple]:
    """Every C of one width on one precomputed Gram matrix of the fold."""
    kern = Kernel("rbf", width=float(candidates[0]["width"]))
    K, K_val = kern(X_train, X_train), kern(X_val, X_train)
    scores = []
    for params in candidates:
        pred = SVC(kernel="precomputed", C=float(params["C"])).fit(K, y_train).predict(K_val)
        scores.append((float(np.mean(pred == y_val)), constant_prediction(pred)))
    return scores


def koc_scorer(kernel: str) -> FoldScorer:
    """One KOC embedding of the fold per width, a linear SVM on it per C."""

    def score(X_train, y_train, X_val, y_val, candidates: Sequence[dict]) -> list:
        koc = KernelOrthogonalCentroid(kernel=kernel, degree=3, coef0=1.0)
        if kernel == "rbf":
            koc.set_params(width=float(candidates[0]["koc__width"]))
        try:
            koc.fit(X_train, y_train)
        except (ValueError, np.linalg.LinAlgError):
            return [float("nan")] * len(candidates)
        F, F_val = koc.transform(X_train), koc.transform(X_val)
        scores = []
        for params in candidates:
            svm = SVC(kernel="linear", C=float(params["svm__C"])).fit(F, y_train)
            pred = svm.predict(F_val)
            scores.append((float(np.mean(pred == y_val)), constant_prediction(pred)))
        return scores

    return score


@dataclass(frozen=True)
class Method:
    """One column of a table.

    ``build(options)`` makes the estimator, ``grid(d)`` is the parameter grid for d input
    dimensions, ``shared`` the parameters whose candidates share work (scored together per
    fold), ``width_from`` another method whose chosen width this one takes instead of searching
    it (unless the options say ``program_width="search"``), ``margin_lp`` whether its threshold
    is eq. (15)'s (and so takes ``threshold_nu``).
    """

    name: str
    label: str
    threshold: str
    build: Callable[[ProtocolOptions], object]
    grid: Callable[[int], dict]
    shared: tuple[str, ...] = ()
    scorer: Callable[[object], FoldScorer] = fit_each_scorer
    width_from: str | None = None
    sparse: bool = False  # reports the fraction of zero expansion coefficients
    margin_lp: bool = False
    program: bool = False  # SKFD, LSKFD: the zero-mean and program-width options apply

    def estimator(self, params: dict | None = None, options: ProtocolOptions = DEFAULT_OPTIONS):
        est = self.build(options)
        return est.set_params(**params) if params else est

    def fold_scorer(self, options: ProtocolOptions = DEFAULT_OPTIONS) -> FoldScorer:
        return self.scorer(self.build(options))

    def takes_width_from(self, options: ProtocolOptions = DEFAULT_OPTIONS) -> str | None:
        if self.program and options.program_width == "search":
            return None
        return self.width_from

    def protocol_grid(self, d: int, options: ProtocolOptions = DEFAULT_OPTIONS) -> dict:
        """The grid under ``options``: the method's own, the width for a program that searches
        it, and eq. (15)'s nu where it is not the default."""
        grid = dict(self.grid(d))
        if self.program and options.program_width == "search":
            grid = {"width": width_grid(d), **grid}
        if self.margin_lp and options.threshold_nu != DEFAULT_THRESHOLD_NU:
            nu = options.threshold_nu
            grid["threshold_nu"] = THRESHOLD_NU_GRID if nu == "cv" else [float(nu)]
        return grid

    def threshold_text(self, options: ProtocolOptions = DEFAULT_OPTIONS) -> str:
        if not self.margin_lp:
            return self.threshold
        return self.threshold.replace(MARGIN_LP, margin_lp_text(options))


def _kfd(formulation: str = "rayleigh"):
    def build(options: ProtocolOptions):
        est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp", formulation=formulation)
        if formulation != "rayleigh":
            est.set_params(zero_mean_constraints=bool(options.zero_mean))
        return est

    return build


def _koc_pipeline(kernel: str):
    def build(options: ProtocolOptions):
        koc = KernelOrthogonalCentroid(kernel=kernel, degree=3, coef0=1.0)
        return Pipeline([("koc", koc), ("svm", SVC(kernel="linear"))])

    return build


METHODS: dict[str, Method] = {
    "svm": Method(
        "svm",
        "SVM",
        "libsvm's offset",
        lambda options: SupportVectorClassifier(kernel="rbf"),
        lambda d: {"width": width_grid(d), "C": SVM_C},
        shared=("width",),
        scorer=lambda _: svm_gram_scorer,
        sparse=True,
    ),
    "kfd": Method(
        "kfd",
        "KFD",
        MARGIN_LP,
        _kfd(),
        lambda d: {"width": width_grid(d), "mu": KFD_MU},
        shared=("width", "threshold_nu"),
        scorer=kfd_mu_path_scorer,
        margin_lp=True,
    ),
    "skfd": Method(
        "skfd",
        "SKFD",
        MARGIN_LP + " (replaces the program's offset)",
        _kfd("sparse"),
        lambda d: {"mu": PROGRAM_MU},
        shared=("width", "threshold_nu"),
        width_from="kfd",
        sparse=True,
        margin_lp=True,
        program=True,
    ),
    "lskfd": Method(
        "lskfd",
        "LSKFD",
        MARGIN_LP + " (replaces the program's offset)",
        _kfd("linear-sparse"),
        lambda d: {"mu": PROGRAM_MU},
        shared=("width", "threshold_nu"),
        width_from="kfd",
        sparse=True,
        margin_lp=True,
        program=True,
    ),
    "koc-rbf": Method(
        "koc-rbf",
        "KOC Gaussian + linear SVM",
        "the linear SVM's offset",
        _koc_pipeline("rbf"),
        lambda d: {"koc__width": width_grid(d), "svm__C": KOC_C},
        shared=("koc__width",),
        scorer=lambda _: koc_scorer("rbf"),
    ),
    "koc-poly": Method(
        "koc-poly",
        "KOC (x·z + 1)³ + linear SVM",
        "the linear SVM's offset",
        _koc_pipeline("poly"),
        lambda d: {"svm__C": KOC_C},
        scorer=lambda _: koc_scorer("poly"),
    ),
}

# the papers' symbols for the grid's parameters
PARAM_SYMBOLS = {
    "width": "c",
    "mu": "μ",
    "C": "C",
    "koc__width": "σ",
    "svm__C": "C",
    "threshold_nu": "ν",
}


def get_method(name: str) -> Method:
    try:
        return METHODS[name]
    except KeyError:
        raise ValueError(f"unknown method {name!r}: choose one of {', '.join(METHODS)}") from None
