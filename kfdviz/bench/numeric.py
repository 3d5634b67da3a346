"""The numerical scenarios of ``kfdviz bench``: grids, fits, refits and one large problem.

Every baseline is computed in the same run as the candidate, on the same data, and each
scenario checks that the two agree (or, without a baseline, that the answer is sane). Importing
this module registers the scenarios; each builds its data in its setup, outside the timing.
"""

from __future__ import annotations

from functools import partial

import numpy as np
from scipy.optimize import linprog
from scipy.sparse.linalg import eigsh
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from kfdviz.core import mu_path
from kfdviz.core.expansion import Expansion
from kfdviz.core.fit_cache import FIT_CACHE
from kfdviz.core.kernels import PAIRWISE_CACHE, Kernel
from kfdviz.core.kfd_programs import solve_kfd_program
from kfdviz.estimators import KernelFisherDiscriminant, KernelPCA
from kfdviz.pipeline import FitRequest, GridSpec, reuse, run_fit

from .registry import Case, Check, Target, scenario

GRID_RTOL = 1e-10  # grid values vs the baseline, relative to the largest value
DIRECTION_COSINE = 0.9999  # KFD direction vs ARPACK's, cosine in feature space
KPCA_TOL = 1e-8  # eigenvalues and feature directions vs scikit-learn's
WIDTH = 1.0
MU = 1e-3


def two_class_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved noisy half-moons, about 4 x 3 units, labels 0 and 1, shuffled."""
    rng = np.random.RandomState(seed)
    n0 = n // 2
    t0 = rng.uniform(0.0, np.pi, n0)
    t1 = rng.uniform(0.0, np.pi, n - n0)
    upper = np.column_stack([np.cos(t0), np.sin(t0)])
    lower = np.column_stack([1.0 - np.cos(t1), 0.5 - np.sin(t1)])
    X = 1.5 * np.vstack([upper, lower]) + 0.2 * rng.randn(n, 2)
    y = np.r_[np.zeros(n0, int), np.ones(n - n0, int)]
    order = rng.permutation(n)
    return X[order], y[order]


def _grid_axes(X: np.ndarray, nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.15 * (hi - lo)
    return (
        np.linspace(lo[0] - pad[0], hi[0] + pad[0], nx),
        np.linspace(lo[1] - pad[1], hi[1] + pad[1], ny),
    )


def _clear_caches() -> None:
    FIT_CACHE.clear()
    PAIRWISE_CACHE.clear()
    mu_path.forget()
    reuse.forget()


def _relative_difference(candidate: np.ndarray, baseline: np.ndarray) -> float:
    candidate, baseline = np.asarray(candidate), np.asarray(baseline)
    if candidate.shape != baseline.shape:
        return float("inf")
    scale = max(float(np.abs(baseline).max()), np.finfo(float).tiny)
    return float(np.abs(candidate - baseline).max() / scale)


# -- grids ----------------------------------------------------------------------------------------
def _grid_case(kernel_name: str, quick: bool) -> Case:
    n, (nx, ny) = (300, (60, 40)) if quick else (2000, (200, 200))
    Z, _ = two_class_data(n, seed=1)
    alpha = np.random.RandomState(2).randn(n)
    offset = 0.25
    kern = Kernel(kernel_name, width=WIDTH, degree=3, coef0=1.0)
    expansion = Expansion(kern, Z, alpha, offset)
    xs, ys = _grid_axes(Z, nx, ny)

    def candidate():
        return expansion.evaluate_grid(xs, ys)[0]

    def baseline():
        gx, gy = np.meshgrid(xs, ys)
        grid = np.column_stack([gx.ravel(), gy.ravel()])
        if kernel_name == "rbf":
            values = rbf_kernel(grid, Z, gamma=1.0 / WIDTH) @ alpha
        else:
            values = polynomial_kernel(grid, Z, degree=3, gamma=1.0, coef0=1.0) @ alpha
        return (values + offset).reshape(ny, nx)

    def check(c, b):
        return Check.at_most("max |diff| / max |baseline|", _relative_difference(c, b), GRID_RTOL)

    return Case(candidate, baseline, check, sizes={"n": n, "grid": f"{nx}x{ny}"})


scenario(
    "grid-rbf",
    title="RBF expansion on a grid",
    baseline="scikit-learn rbf_kernel(grid, Z) @ alpha",
    target=Target.ratio(50),
    group="grid",
    measure_memory=True,
)(partial(_grid_case, "rbf"))

scenario(
    "grid-poly",
    title="polynomial (degree 3) expansion on a grid",
    baseline="scikit-learn polynomial_kernel(grid, Z) @ alpha",
    target=Target.ratio(3),
    group="grid",
    measure_memory=True,
)(partial(_grid_case, "poly"))


# -- two-class KFD ----------------------------------------------------------------------------------
def kfda_style_direction(X: np.ndarray, y: np.ndarray, gamma: float, mu: float) -> np.ndarray:
    """The two-class KFD direction as the kfda package computes it (our own code).

    Gram matrix by scikit-learn, N = K (K - class means) by a general matrix product,
    N + mu I, M from the centred class means, and the generalized eigenproblem
    (M, N + mu I) by ARPACK: ``eigsh(M, 1, N + mu I, which="LM")``.
    """

    K = rbf_kernel(X, X, gamma=gamma)
    onehot = np.eye(2)[y]
    class_means = (onehot.T @ K) / onehot.sum(axis=0)[:, None]  # (2, n)
    N = K @ (K - class_means[y])
    N[np.diag_indices_from(N)] += mu
    centred = class_means - K.mean(axis=1)
    M = centred.T @ centred
    _, w = eigsh(M, 1, N, which="LM")
    return w[:, 0]


def _feature_space_cosine(a: np.ndarray, w: np.ndarray, K: np.ndarray) -> float:
    Ka, Kw = K @ a, K @ w
    return float(abs(a @ Kw) / np.sqrt((a @ Ka) * (w @ Kw)))


def _kfd_fit_case(n_full: int, quick: bool) -> Case:
    n = max(300, n_full // 10) if quick else n_full
    X, y = two_class_data(n)

    def candidate():
        return KernelFisherDiscriminant(width=WIDTH, mu=MU).fit(X, y).expansion_.coef[:, 0]

    def baseline():
        return kfda_style_direction(X, y, 1.0 / WIDTH, MU)

    def check(a, w):
        cosine = _feature_space_cosine(a, w, rbf_kernel(X, X, gamma=1.0 / WIDTH))
        return Check.at_least("|cos(w, w_arpack)| in feature space", cosine, DIRECTION_COSINE)

    return Case(
        candidate,
        baseline,
        check,
        prepare_candidate=_clear_caches,
        sizes={"n": n, "centers": n},
        notes="cold fits: distance and fit caches emptied before every candidate call",
    )


for _n in (2000, 4000):
    scenario(
        f"kfd-fit-{_n}",
        quick_name=f"kfd-fit-{max(300, _n // 10)}",
        title="two-class KFD fit (RBF)",
        baseline='kfda-style: N = K(K - means), eigsh(M, 1, N + mu I, which="LM")',
        target=Target.ratio(1.5),
        group="kfd",
    )(partial(_kfd_fit_case, _n))


# -- KPCA -----------------------------------------------------------------------------------------
def _kpca_case(n_full: int, quick: bool) -> Case:
    n = max(300, n_full // 10) if quick else n_full
    X, _ = two_class_data(n, seed=3)
    k = 5

    def candidate():
        est = KernelPCA(k, width=WIDTH).fit(X)
        return est.eigenvalues_, est.expansion_.coef

    def baseline():
        est = SkKernelPCA(k, kernel="rbf", gamma=1.0 / WIDTH, eigen_solver="auto").fit(X)
        return est.eigenvalues_, est.eigenvectors_

    def check(ours, theirs):
        (vals, coef), (ref_vals, ref_vecs) = ours, theirs
        if vals.shape != ref_vals.shape:
            return Check.at_most("components found differ", float("inf"), KPCA_TOL)
        value_diff = float(np.max(np.abs(vals - ref_vals) / ref_vals))
        cosines = np.abs(np.sum(coef * ref_vecs, axis=0)) / (
            np.linalg.norm(coef, axis=0) * np.linalg.norm(ref_vecs, axis=0)
        )
        worst = max(value_diff, float(1.0 - cosines.min()))
        return Check.at_most("max(eigenvalue rel. diff, 1 - |cos|)", worst, KPCA_TOL)

    return Case(
        candidate,
        baseline,
        check,
        prepare_candidate=_clear_caches,
        sizes={"n": n, "components": k},
    )


for _n in (2000, 4000):
    scenario(
        f"kpca-{_n}",
        quick_name=f"kpca-{max(300, _n // 10)}",
        title="KPCA fit, 5 components (RBF)",
        baseline='scikit-learn KernelPCA(eigen_solver="auto")',
        target=Target.ratio(1.0),
        group="kpca",
    )(partial(_kpca_case, _n))


# -- refits -------------------------------------------------------------------------------------
def _refit_case(change: str, n_full: int, centers_full: int | None, quick: bool) -> Case:
    if quick:
        n, centers = (300, None) if centers_full is None else (2000, 60)
    else:
        n, centers = n_full, centers_full
    X, y = two_class_data(n, seed=4)
    common = {"n_centers": centers, "random_state": 0}
    before = {"width": WIDTH, "mu": MU}
    after = (
        {"width": 0.7 * WIDTH, "mu": MU} if change == "width" else {"width": WIDTH, "mu": 10 * MU}
    )

    def fit(params):
        return KernelFisherDiscriminant(**params, **common).fit(X, y).expansion_.coef[:, 0]

    def warm():
        _clear_caches()
        fit(before)

    def check(c, b):
        return Check.at_most("max |coef diff| / max |coef|", _relative_difference(c, b), 1e-12)

    return Case(
        partial(fit, after),
        partial(fit, after),
        check,
        prepare_candidate=warm,
        prepare_baseline=_clear_caches,
        sizes={"n": n, "centers": n if centers is None else centers},
        notes=f"candidate: fitted at {before}, refit at {after}; baseline: the same fit cold",
    )


_REFITS = {
    "width": ("KFD refit after a width change (cached distances)", Target.ratio(2)),
    "mu": ("KFD refit after a mu change (cached Kzx, means, N)", Target.ratio(5)),
}
for _change, (_title, _target) in _REFITS.items():
    scenario(
        f"kfd-refit-{_change}",
        title=_title,
        baseline="a cold fit",
        target=_target,
        group="refit",
    )(partial(_refit_case, _change, 2000, None))
for _change, (_title, _target) in _REFITS.items():
    scenario(
        f"kfd-refit-{_change}-20k",
        quick_name=f"kfd-refit-{_change}-2000",
        title=_title + ", 20 000 points expanded over 300",
        baseline="a cold fit",
        target=_target,
        group="refit",
    )(partial(_refit_case, _change, 20_000, 300))


# -- LSKFD on a subset expansion ------------------------------------------------------------------
def _linprog_lskfd_dual(K: np.ndarray, y: np.ndarray, mu: float) -> tuple[np.ndarray, float]:
    """LSKFD's LP dual (max y'u, |K'u| <= mu, 1'u = 0, |u| <= 1) through scipy's linprog, HiGHS
    dual simplex with devex pricing, from HiGHS's own start: kfdviz's solver before highspy."""

    m = K.shape[1]
    res = linprog(
        -y,
        A_ub=np.vstack([K.T, -K.T]),
        b_ub=np.full(2 * m, mu),
        A_eq=np.ones((1, K.shape[0])),
        b_eq=[0.0],
        bounds=(-1.0, 1.0),
        method="highs-ds",
        options={"simplex_dual_edge_weight_strategy": "devex"},
    )
    if res.status != 0:
        raise RuntimeError(res.message)
    lam = res.ineqlin.marginals
    return lam[m:] - lam[:m], -float(res.eqlin.marginals[0])


@scenario(
    "lskfd-20k",
    quick_name="lskfd-4000",
    title="linear-sparse KFD (LP, eq. 14) on 20 000 points over 300 centers",
    baseline="the same LP dual by scipy's linprog (HiGHS dual simplex, devex)",
    target=Target.absolute(5.0),
    group="large",
)
def _lskfd(quick: bool) -> Case:
    n, centers = (4000, 40) if quick else (20_000, 300)
    X, labels = two_class_data(n, seed=6)
    y = np.where(labels == 1, 1.0, -1.0)
    Z = X[np.random.RandomState(7).choice(n, centers, replace=False)]
    K = Kernel("rbf", WIDTH)(X, Z)
    mu = 1.0

    def objective(alpha, b):
        return float(np.abs(y - K @ alpha - b).sum() + mu * np.abs(alpha).sum())

    def candidate():
        sol = solve_kfd_program(K, y, loss="absolute", regularizer="l1", mu=mu)
        return objective(sol.alpha, sol.b)

    def baseline():
        return objective(*_linprog_lskfd_dual(K, y, mu))

    def check(c, b):
        return Check.at_most("|objective - baseline's| / baseline's", abs(c - b) / abs(b), 1e-9)

    return Case(
        candidate,
        baseline,
        check,
        sizes={"n": n, "centers": centers},
        notes="the kernel matrix is computed once, outside the timing",
    )


# -- a large problem through the whole pipeline ---------------------------------------------------
@scenario(
    "large-fit-grid",
    title="KFD on 20 000 points, 300 centers: fit + grid + contours",
    target=Target.absolute(3.0, memory_bytes=2**30),
    group="large",
    measure_memory=True,
)
def _large(quick: bool) -> Case:
    n, centers, resolution = (2000, 60, 60) if quick else (20_000, 300, 200)
    X, y = two_class_data(n, seed=5)
    request = FitRequest(
        "kfd",
        {"width": WIDTH, "mu": MU, "n_centers": centers},
        X,
        y,
        grid=GridSpec(resolution=resolution),
    )

    def candidate():
        return run_fit(request)

    def check(result, _):
        grid = result.grid
        sane = (
            grid is not None
            and np.all(np.isfinite(grid.values))
            and max(grid.values.shape) == resolution
            and sum(c.n_pieces for c in grid.contours) > 0
            and grid.boundary is not None
            and grid.boundary.n_pieces > 0
        )
        # The moons are separable up to their noise: a sane fit errs on few points.
        error = float(result.train_error) if sane else 1.0
        return Check.at_most("training error (grid, contours, boundary present)", error, 0.1)

    return Case(
        candidate,
        None,
        check,
        prepare_candidate=_clear_caches,
        sizes={"n": n, "centers": centers, "grid": f"{resolution}"},
        notes="peak memory: numpy and Python allocations traced during one call",
    )
