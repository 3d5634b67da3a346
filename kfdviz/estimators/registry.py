"""The algorithms a user can pick, with the parameters a GUI shows for each (no Qt here).

Each entry names an estimator class, the parameters a user may change (with slider ranges,
log scaling and a tooltip that says what the parameter does and which equation it is), and the
parameters the entry itself fixes (e.g. ``formulation="sparse"`` for sparse KFD). Validation
reuses the estimators' own declared constraints, so the GUI, the command line and ``fit`` agree
on what is valid.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

from sklearn.utils._param_validation import InvalidParameterError, validate_parameter_constraints


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: str  # "float" | "int" | "choice" | "bool" | "optional-int" | "tuple-choice"
    default: object
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple = ()
    label: str = ""
    tooltip: str = ""
    visible_when: dict | None = None


@dataclass(frozen=True)
class AlgorithmSpec:
    key: str
    title: str
    kind: str  # "classifier" | "features" | "novelty" | "regressor" | "embedding"
    estimator_path: str  # "module:Class", imported on first use
    params: tuple[ParamSpec, ...]
    fixed: dict = field(default_factory=dict)
    min_classes: int = 0
    max_classes: int | None = None
    description: str = ""

    @property
    def estimator(self) -> type:
        module, name = self.estimator_path.split(":")
        return getattr(importlib.import_module(module), name)

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.params}

    def full_params(self, params: dict) -> dict:
        unknown = set(params) - {p.name for p in self.params} - set(self.fixed)
        if unknown:
            raise ValueError(
                f"{self.title} has no parameter {', '.join(sorted(unknown))}; "
                f"it takes {', '.join(p.name for p in self.params)}."
            )
        merged = {**self.defaults(), **params, **self.fixed}
        for spec in self.params:
            if spec.kind == "tuple-choice" and isinstance(merged.get(spec.name), list):
                merged[spec.name] = tuple(merged[spec.name])
        return merged

    def validate(self, params: dict) -> dict[str, str]:
        """Parameter name -> reason, for each invalid value; empty when all are valid."""
        errors: dict[str, str] = {}
        try:
            merged = self.full_params(params)
        except ValueError as exc:
            return {"": str(exc)}
        constraints = getattr(self.estimator, "_parameter_constraints", {})
        for name, value in merged.items():
            if name not in constraints:
                continue
            try:
                validate_parameter_constraints(
                    {name: constraints[name]}, {name: value}, caller_name=self.title
                )
            except InvalidParameterError as exc:
                errors[name] = str(exc)
        return errors

    def make(self, params: dict | None = None):
        """An unfitted estimator with these parameters; ValueError naming a bad one."""
        params = params or {}
        errors = self.validate(params)
        if errors:
            raise InvalidParameterError("; ".join(errors.values()))
        return self.estimator(**self.full_params(params))


# -- shared parameter specs ---------------------------------------------------------------------
KERNEL = ParamSpec(
    "kernel",
    "choice",
    "rbf",
    choices=("rbf", "poly", "linear"),
    label="Kernel",
    tooltip="k(x, z): Gaussian exp(-||x - z||^2 / width), polynomial (x.z + coef0)^degree, or linear x.z.",
)
WIDTH = ParamSpec(
    "width",
    "float",
    1.0,
    1e-3,
    1e3,
    log=True,
    label="Width c",
    tooltip="Gaussian kernel width c in exp(-||x - z||^2 / c) (the papers' convention; "
    "scikit-learn's gamma = 1/c). Small c: wiggly features; large c: smooth ones.",
    visible_when={"kernel": ("rbf",)},
)
DEGREE = ParamSpec(
    "degree",
    "int",
    3,
    1,
    10,
    label="Degree",
    tooltip="Degree d of the polynomial kernel (x.z + coef0)^d.",
    visible_when={"kernel": ("poly",)},
)
COEF0 = ParamSpec(
    "coef0",
    "float",
    1.0,
    0.0,
    10.0,
    label="coef0",
    tooltip="Constant of the polynomial kernel: 0 is homogeneous (TPAMI), 1 the KOC paper's.",
    visible_when={"kernel": ("poly",)},
)
KERNEL_PARAMS = (KERNEL, WIDTH, DEGREE, COEF0)


def _mu(default: float, tooltip: str) -> ParamSpec:
    return ParamSpec("mu", "float", default, 1e-9, 1e2, log=True, label="μ", tooltip=tooltip)


MU_KFD = _mu(
    1e-3,
    "Regularization of the within-class scatter: N + μI (TPAMI eq. 11). Larger μ: smoother, "
    "more robust discriminant; μ → 0 may over-fit or be singular.",
)
THRESHOLD = ParamSpec(
    "threshold",
    "choice",
    "prior",
    choices=("prior", "midpoint", "min-error", "margin-lp"),
    label="Threshold",
    tooltip="Offset of the decision: Bayes rule of 1-D Gaussians with class priors; midpoint of "
    "the projected class means; fewest training errors; or the margin LP of TPAMI eq. (15).",
)
N_CENTERS = ParamSpec(
    "n_centers",
    "optional-int",
    None,
    2,
    2000,
    log=True,
    label="Centers",
    tooltip="Expand w over this many points only (training on a subset, TPAMI eq. 13); "
    "empty = all training points.",
)
CENTERS = ParamSpec(
    "centers",
    "choice",
    "random",
    choices=("random", "kmeans"),
    label="Center choice",
    tooltip="How the subset of eq. (13) is chosen: a random (class-stratified) subset, or k-means centres.",
)
TANGENTS = ParamSpec(
    "tangents",
    "tuple-choice",
    ("rotation",),
    choices=("rotation", "translate-x", "translate-y", "scale"),
    label="Invariances",
    tooltip="Transformations L_t whose tangent covariance (TPAMI eq. 3) the feature should ignore.",
)
TANGENT_STEP = ParamSpec(
    "tangent_step",
    "float",
    0.05,
    1e-3,
    1.0,
    log=True,
    label="Tangent step t",
    tooltip="Finite-difference step of eq. (3): radians for rotation, a fraction of the data's "
    "spread for translations, 1 + t for scaling.",
)


def _loss(default: str) -> ParamSpec:
    """The loss on the residuals ξ of the program formulations (NIPS 2001, Table 1)."""
    return ParamSpec(
        "loss",
        "choice",
        default,
        choices=("squared", "absolute", "huber", "epsilon-insensitive"),
        label="Loss on ξ",
        tooltip="The noise model of the residuals (NIPS 2001, Table 1): Gaussian (squared ξ²), "
        "Laplacian (absolute |ξ|), Huber's robust loss (squared near 0, linear beyond 1) or "
        "the ε-insensitive loss (zero inside ±0.1, linear outside).",
    )


N_COMPONENTS = ParamSpec(
    "n_components",
    "int",
    3,
    1,
    50,
    label="Components",
    tooltip="Number of leading features computed (the view shows the one you pick).",
)


ALGORITHMS: dict[str, AlgorithmSpec] = {}


def register(spec: AlgorithmSpec) -> AlgorithmSpec:
    ALGORITHMS[spec.key] = spec
    return spec


def get(key: str) -> AlgorithmSpec:
    try:
        return ALGORITHMS[key]
    except KeyError:
        raise ValueError(
            f"Unknown algorithm {key!r}: choose one of {', '.join(ALGORITHMS)}."
        ) from None


_EST = "kfdviz.estimators"

register(
    AlgorithmSpec(
        "kpca",
        "Kernel PCA",
        "features",
        f"{_EST}.kpca:KernelPCA",
        (N_COMPONENTS, *KERNEL_PARAMS),
        description="Directions of largest variance in feature space (S_I covariance, S_N identity).",
    )
)
register(
    AlgorithmSpec(
        "okpca",
        "Oriented kernel PCA",
        "features",
        f"{_EST}.kpca:OrientedKernelPCA",
        (
            N_COMPONENTS,
            *KERNEL_PARAMS,
            TANGENTS,
            TANGENT_STEP,
            _mu(
                1e-3,
                "Weight of ||w||^2 in the denominator: a'(TT' + μK)a. Small μ: strongly "
                "invariant features; large μ: towards plain kernel PCA.",
            ),
            ParamSpec(
                "expand_transformed",
                "bool",
                False,
                label="Expand over L_t x",
                tooltip="Also expand w over the transformed points (TPAMI footnote 3).",
            ),
        ),
        description="Variance against tangent covariance: features invariant under L_t (TPAMI Fig. 1).",
    )
)
_KFD_COMMON = (*KERNEL_PARAMS, MU_KFD, THRESHOLD, N_CENTERS, CENTERS)
register(
    AlgorithmSpec(
        "kfd",
        "Kernel Fisher discriminant",
        "classifier",
        f"{_EST}.kfd:KernelFisherDiscriminant",
        (
            *_KFD_COMMON,
            ParamSpec(
                "regularizer",
                "choice",
                "identity",
                choices=("identity", "gram"),
                label="Regularizer",
                tooltip="N + μI (eq. 11) or N + μK (penalizes ||w||^2).",
            ),
            ParamSpec(
                "tangents",
                "tuple-choice",
                (),
                choices=TANGENTS.choices,
                label="Invariances",
                tooltip="Invariant KFD (TPAMI 5.1): add λ times the tangent covariance (eq. 3) to N.",
            ),
            ParamSpec(
                "tangent_weight",
                "float",
                0.0,
                0.0,
                10.0,
                label="Tangent weight λ",
                tooltip="Weight λ of the tangent covariance added to the within-class scatter.",
            ),
            TANGENT_STEP,
            ParamSpec(
                "multi_class",
                "choice",
                "ovr",
                choices=("ovr", "gda"),
                label="Multi-class",
                tooltip="More than two classes: one-vs-rest winner-takes-all, or nearest class "
                "mean in the r - 1 discriminant (GDA) features.",
            ),
        ),
        fixed={"formulation": "rayleigh"},
        min_classes=2,
        description="Maximizes between- over regularized within-class variance (TPAMI eqs. 6-8, 11), "
        "solved in closed form α ∝ (N + μI)^-1 (μ2 - μ1).",
    )
)
register(
    AlgorithmSpec(
        "kfd-qp",
        "KFD as a QP",
        "classifier",
        f"{_EST}.kfd:KernelFisherDiscriminant",
        (
            *_KFD_COMMON,
            _loss("squared"),
            ParamSpec(
                "zero_mean_constraints",
                "bool",
                False,
                label="Zero-mean residuals",
                tooltip="NIPS 2000 (4b): the residuals of each class sum to zero.",
            ),
        ),
        fixed={"formulation": "qp"},
        min_classes=2,
        max_classes=2,
        description="min ||ξ||² + μ||α||² s.t. Kα + 1b = y - ξ (TPAMI eq. 9).",
    )
)
register(
    AlgorithmSpec(
        "kfd-sparse",
        "Sparse KFD (ℓ1)",
        "classifier",
        f"{_EST}.kfd:KernelFisherDiscriminant",
        (*_KFD_COMMON, _loss("squared")),
        fixed={"formulation": "sparse"},
        min_classes=2,
        max_classes=2,
        description="min ||ξ||² + μ||α||₁ (TPAMI eq. 12): few non-zero coefficients.",
    )
)
register(
    AlgorithmSpec(
        "kfd-lp",
        "Linear sparse KFD (LP)",
        "classifier",
        f"{_EST}.kfd:KernelFisherDiscriminant",
        (*_KFD_COMMON, _loss("absolute")),
        fixed={"formulation": "linear-sparse"},
        min_classes=2,
        max_classes=2,
        description="min ||ξ||₁ + μ||α||₁ (TPAMI eq. 14), a linear program.",
    )
)
register(
    AlgorithmSpec(
        "kfd-greedy",
        "Greedy sparse KFD",
        "classifier",
        f"{_EST}.kfd:KernelFisherDiscriminant",
        (
            *KERNEL_PARAMS,
            MU_KFD,
            THRESHOLD,
            ParamSpec(
                "n_centers",
                "optional-int",
                30,
                1,
                500,
                log=True,
                label="Max centers",
                tooltip="Stop the forward selection (TPAMI 4.2) at this many expansion points.",
            ),
        ),
        fixed={"formulation": "greedy"},
        min_classes=2,
        max_classes=2,
        description="Forward selection of expansion points with the largest gain (TPAMI sec. 4.2).",
    )
)
register(
    AlgorithmSpec(
        "koc",
        "Kernel Orthogonal Centroid",
        "embedding",
        f"{_EST}.koc:KernelOrthogonalCentroid",
        (
            *KERNEL_PARAMS,
            ParamSpec(
                "algorithm",
                "choice",
                "cholesky",
                choices=("cholesky", "gram-schmidt"),
                label="Algorithm",
                tooltip="Park & Park Algorithm 2 (Cholesky of M'KM) or 3 "
                "(modified Gram-Schmidt); both give the same embedding.",
            ),
        ),
        min_classes=2,
        description="Orthonormal basis of the class centroids in feature space (Park & Park).",
    )
)
register(
    AlgorithmSpec(
        "novelty",
        "KPCA novelty detection",
        "novelty",
        f"{_EST}.novelty:KernelPCANoveltyDetector",
        (
            ParamSpec(
                "n_components",
                "int",
                40,
                1,
                200,
                label="q",
                tooltip="Number of principal components spanning the subspace (Hoffmann's q).",
            ),
            *KERNEL_PARAMS,
            ParamSpec(
                "contamination",
                "float",
                0.1,
                0.001,
                0.5,
                log=True,
                label="Contamination",
                tooltip="Fraction of training points left outside the decision boundary.",
            ),
        ),
        description="Squared distance to the principal subspace in feature space (Hoffmann 2007).",
    )
)

# Regression and the scikit-learn baselines live in their own modules; they register
# themselves here when present.
for _module in ("kfdviz.estimators.regression", "kfdviz.estimators.baselines"):
    try:
        _mod = importlib.import_module(_module)
    except ModuleNotFoundError as _exc:
        if _exc.name != _module:
            raise
        continue
    for _spec in getattr(_mod, "ALGORITHM_SPECS", ()):
        register(_spec)
