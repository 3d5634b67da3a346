"""What the window and the pipeline know of the kernel Fisher discriminant: its algorithms.

Each formulation of :class:`~kfdviz.estimators.kfd.KernelFisherDiscriminant` a user can pick is
one :class:`AlgorithmSpec` here: the closed form, the three programs (TPAMI eqs. 9, 12, 14), the
greedy selection and the eigenproblem, with the parameters the window shows and the cost models
that price a fit before it runs. No Qt here.
"""

from __future__ import annotations

from .kfd import KernelFisherDiscriminant
from .program_cost import kfd_program_cost
from .spec import (
    CENTERS,
    KERNEL_PARAMS,
    N_CENTERS,
    TANGENT_CHOICES,
    TANGENT_STEP,
    AlgorithmSpec,
    CostModel,
    Guide,
    Kind,
    ParamSpec,
    Problem,
    Work,
    mu_param,
)

MU_KFD = mu_param(
    1e-3,
    "Regularization of the within-class scatter: N + μI (TPAMI eq. 11). Larger μ: smoother, "
    "more robust discriminant; μ → 0 may over-fit or be singular.",
)
THRESHOLD = ParamSpec(
    "threshold",
    choices=("prior", "midpoint", "min-error", "margin-lp"),
    default="prior",
    label="Threshold",
    tooltip="Offset of the decision: Bayes rule of 1-D Gaussians with class priors; midpoint of "
    "the projected class means; fewest training errors; or the margin LP of TPAMI eq. (15).",
)
_KFD_COMMON = (*KERNEL_PARAMS, MU_KFD, THRESHOLD, N_CENTERS, CENTERS)


def _loss(default: str) -> ParamSpec:
    """The loss on the residuals ξ of the program formulations (NIPS 2001, Table 1)."""
    return ParamSpec(
        "loss",
        kind="choice",
        default=default,
        choices=("squared", "absolute", "huber", "epsilon-insensitive"),
        label="Loss on ξ",
        tooltip="The noise model of the residuals (NIPS 2001, Table 1): Gaussian (squared ξ²), "
        "Laplacian (absolute |ξ|), Huber's robust loss (squared near 0, linear beyond 1) or "
        "the ε-insensitive loss (zero inside ±0.1, linear outside).",
    )


def _centers(p: Problem) -> int:
    n_centers = p.params.get("n_centers")
    return min(int(n_centers), p.n) if n_centers else p.n


def _expansion_work(p: Problem, m: int, flops: float) -> Work:
    """A KFD over m expansion points: the n x m cross-Gram and three evaluations at the training
    points (outputs, labels, embedding) are kernel values; ``flops`` the solver's."""
    n = p.n
    return Work(4.0 * m * n, flops, 8.0 * (3.0 * m * n + 2.0 * m * m), m)


def rayleigh_work(p: Problem) -> Work:
    """The closed-form KFD: the scatter product (syrk) and the Cholesky factorization, at about
    half the calibration's rate on matrices of thousands of rows (measured at n = 2000, 4000);
    more than two classes repeat it (one-vs-rest) and add GDA's generalized eigenproblem."""
    m, r = _centers(p), max(p.classes, 2)
    repeats = 1 if r == 2 else r + 1
    flops = 2.0 * repeats * (m * m * p.n + m**3 / 3.0)
    if r > 2:
        flops += 10.0 * m**3
    work = _expansion_work(p, m, flops)
    if str(p.params.get("regularizer", "identity")) == "gram":
        work = Work(work.kernel_values + m * m, work.flops, work.peak_bytes, m)
    return work


def greedy_work(p: Problem) -> Work:
    """Forward selection: candidates scored against the Gram matrix (a sample of 59 columns on
    large data), one center a step. Setting up and scoring the candidates are passes over an
    n x pool block, memory-bound work counted in kernel values (fitted to 0.68 s at n = 2000 and
    30 steps, 1.3 s and 4.0 s at n = 1875 and 100 or 400 steps)."""
    n = p.n
    m = min(int(p.param("n_centers", 30)), n)
    pool = n if n <= 4000 else 59
    return Work(11.0 * n * pool + 0.31 * m * n * pool, 0.0, 8.0 * (n * pool + 2 * n * m), m)


# Help -> Algorithm guide: what each algorithm computes and shows, in plain words.
_GUIDES = {
    "kfd": Guide(
        computes=(
            "The one direction in feature space along which the two classes' means lie "
            "farthest apart compared with the spread inside each class, regularized by μ: α "
            "∝ (N + μI)⁻¹(μ₂ − μ₁)."
        ),
        picture=(
            "The colour is the decision value f(x) = w·Φ(x) + b; the thick line is f = 0, "
            "the boundary between the classes. The histogram shows both classes' outputs."
        ),
        try_this=(
            "Drag μ towards 0 and watch the boundary overfit, wrapping single points; make "
            "the width large and the boundary becomes almost straight."
        ),
        source=(
            "Mika et al., TPAMI 2003, eqs. (6)–(8) with the regularized N of (11); Mika et "
            "al. 1999 (the slides' Fig. 1)."
        ),
    ),
    "kfd-qp": Guide(
        computes=(
            "The same Fisher discriminant written as a quadratic program: fit the outputs "
            "Kα + b to the labels ±1 with the least squared error ξ and a penalty μ‖α‖²."
        ),
        picture=(
            "As for KFD: the decision value over the plane and its zero level set. With the "
            "squared loss it draws the closed-form KFD's picture."
        ),
        try_this=(
            "Compare with the closed-form KFD at the same μ (the pictures agree), then tick "
            "Zero-mean residuals, the class constraint (4b)."
        ),
        source=(
            "Mika et al., TPAMI 2003, eq. (9); NIPS 2001, the program (4) with the class "
            "constraints (4a), (4b)."
        ),
    ),
    "kfd-sparse": Guide(
        computes=(
            "KFD as a program with the penalty μ‖α‖₁ instead of μ‖α‖²: most expansion "
            "coefficients become exactly zero."
        ),
        picture=(
            "The decision value and boundary; the points whose coefficient is not zero are "
            "circled (the expansion points)."
        ),
        try_this=(
            "Raise μ and count the circled points fall while the boundary hardly moves; "
            "switch Loss on ξ to absolute and outliers lose their pull."
        ),
        source="Mika et al., TPAMI 2003, eq. (12).",
    ),
    "kfd-lp": Guide(
        computes=(
            "A linear program: absolute errors ‖ξ‖₁ plus μ‖α‖₁, so both the errors and the "
            "expansion are sparse."
        ),
        picture="The decision value and boundary, with the few expansion points circled.",
        try_this="Compare with sparse KFD at the same μ: the absolute loss ignores far outliers.",
        source="Mika et al., TPAMI 2003, eq. (14).",
    ),
    "kfd-greedy": Guide(
        computes=(
            "KFD over a few expansion points chosen one at a time, each the point that "
            "raises the Fisher criterion most."
        ),
        picture="The decision value and boundary, drawn from the chosen points (circled) only.",
        try_this=(
            "Set Max centers to 2 or 3, then raise it: the boundary settles after a handful "
            "of points."
        ),
        source="Mika et al., TPAMI 2003, Sec. 4.2 (greedy approximation).",
    ),
}


def _program_spec(
    name: str, label: str, formulation: str, loss: str, description: str, extra: tuple = ()
) -> AlgorithmSpec:
    """The spec of one two-class program formulation (TPAMI eqs. 9, 12, 14): the parameters
    every KFD shows, ``extra`` ones of its own, and the loss with ``loss`` its default."""
    return AlgorithmSpec(
        name,
        label,
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (*_KFD_COMMON, *extra, _loss(loss)),
        cost=kfd_program_cost(formulation),
        fixed={"formulation": formulation},
        min_classes=2,
        max_classes=2,
        subset_expansion=True,
        guide=_GUIDES[name],
        description=description,
    )


ZERO_MEAN_CONSTRAINTS = ParamSpec(
    "zero_mean_constraints",
    default=False,
    label="Zero-mean residuals",
    tooltip="NIPS 2000 (4b): the residuals of each class sum to zero.",
)

SPECS = (
    AlgorithmSpec(
        "kfd",
        "Kernel Fisher discriminant",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (
            *_KFD_COMMON,
            ParamSpec(
                "regularizer",
                choices=("identity", "gram"),
                default="identity",
                label="Regularizer",
                tooltip="N + μI (eq. 11) or N + μK (penalizes ||w||^2).",
            ),
            ParamSpec(
                "tangents",
                "tuple-choice",
                (),
                choices=TANGENT_CHOICES,
                label="Invariances",
                tooltip="Invariant KFD (TPAMI 5.1): add λ times the tangent covariance (eq. 3) to N.",
            ),
            ParamSpec(
                "tangent_weight",
                default=0.0,
                low=0.0,
                high=10.0,
                label="Tangent weight λ",
                tooltip="Weight λ of the tangent covariance added to the within-class scatter.",
            ),
            TANGENT_STEP,
            ParamSpec(
                "multi_class",
                choices=("ovr", "gda"),
                default="ovr",
                label="Multi-class",
                tooltip="More than two classes: one-vs-rest winner-takes-all, or nearest class "
                "mean in the r - 1 discriminant (GDA) features.",
            ),
        ),
        cost=CostModel(rayleigh_work),
        fixed={"formulation": "rayleigh"},
        min_classes=2,
        subset_expansion=True,
        guide=_GUIDES["kfd"],
        description="Maximizes between- over regularized within-class variance (TPAMI eqs. 6-8, "
        "11), solved in closed form α ∝ (N + μI)^-1 (μ2 - μ1).",
    ),
    _program_spec(
        "kfd-qp",
        "KFD as a QP",
        "qp",
        "squared",
        "min ||ξ||² + μ||α||² s.t. Kα + 1b = y - ξ (TPAMI eq. 9).",
        (ZERO_MEAN_CONSTRAINTS,),
    ),
    _program_spec(
        "kfd-sparse",
        "Sparse KFD (ℓ1)",
        "sparse",
        "squared",
        "min ||ξ||² + μ||α||₁ (TPAMI eq. 12): few non-zero coefficients.",
    ),
    _program_spec(
        "kfd-lp",
        "Linear sparse KFD (LP)",
        "linear-sparse",
        "absolute",
        "min ||ξ||₁ + μ||α||₁ (TPAMI eq. 14), a linear program.",
    ),
    AlgorithmSpec(
        "kfd-greedy",
        "Greedy sparse KFD",
        Kind.CLASSIFIER,
        KernelFisherDiscriminant,
        (
            *KERNEL_PARAMS,
            MU_KFD,
            THRESHOLD,
            # Here n_centers is the forward selection's stopping rule, not a subset to train on.
            ParamSpec(
                "n_centers",
                default=30,
                low=1,
                high=500,
                log=True,
                label="Max centers",
                tooltip="Stop the forward selection (TPAMI 4.2) at this many expansion points.",
            ),
        ),
        cost=CostModel(greedy_work, iterative=True),
        fixed={"formulation": "greedy"},
        min_classes=2,
        max_classes=2,
        guide=_GUIDES["kfd-greedy"],
        description="Forward selection of expansion points with the largest gain (TPAMI sec. 4.2).",
    ),
)
