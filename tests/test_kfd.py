"""The kernel Fisher discriminant against brute-force eigenproblems, LDA and its own criteria."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import linalg
from scipy.optimize import linprog
from sklearn.datasets import load_iris
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.exceptions import NotFittedError

from kfdviz.core.kernels import Kernel
from kfdviz.core.thresholds import MARGIN_LP_NU
from kfdviz.estimators import KernelFisherDiscriminant


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    """KFD must not warn (overflow, division by zero, convergence, ...) anywhere here."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def _two_blobs(n_per_class=(30, 30), seed=0, shift=(1.5, 1.0)):
    rng = np.random.RandomState(seed)
    n0, n1 = n_per_class
    X = np.vstack([rng.randn(n0, 2), rng.randn(n1, 2) * [0.8, 1.2] + shift])
    y = np.r_[np.zeros(n0, int), np.ones(n1, int)]
    return X, y


def _brute_force_kfd(K, y, mu):
    """M and N of TPAMI eqs. (6), (7) built from their definitions; leading vector of (M, N + mu I)."""
    n = K.shape[0]
    means, D = [], np.eye(n)
    for label in (0, 1):
        indicator = (y == label).astype(float)
        ell = indicator.sum()
        means.append(K @ indicator / ell)  # (mu_j)_i = (1/l_j) sum_{x in class j} k(x_i, x)
        v = indicator / np.sqrt(ell)
        D -= np.outer(v, v)  # D = I - sum_j v_j v_j'
    M = np.outer(means[1] - means[0], means[1] - means[0])
    N = K @ D @ K.T
    Nr = N + mu * np.eye(n)
    vals, vecs = linalg.eigh(M, Nr)
    alpha = vecs[:, -1]
    if alpha @ (means[1] - means[0]) < 0:
        alpha = -alpha
    return alpha, vals[-1], M, Nr


@pytest.mark.parametrize("kernel", [dict(kernel="rbf", width=1.0), dict(kernel="poly", degree=2)])
@pytest.mark.parametrize("mu", [1e-3, 0.1])
def test_two_class_matches_brute_force(kernel, mu):
    X, y = _two_blobs((25, 35))
    est = KernelFisherDiscriminant(mu=mu, **kernel).fit(X, y)
    K = Kernel(kernel["kernel"], kernel.get("width", 1.0), kernel.get("degree", 3))(X, X)
    alpha, value, M, Nr = _brute_force_kfd(K, y, mu)
    a = est.expansion_.coef[:, 0]
    # Same direction in feature space: projections of new points correlate perfectly.
    X_new = np.random.RandomState(9).randn(40, 2) * 2
    K_new = Kernel(kernel["kernel"], kernel.get("width", 1.0), kernel.get("degree", 3))(X_new, X)
    c = np.corrcoef(K_new @ alpha, est.transform(X_new)[:, 0])[0, 1]
    assert c == pytest.approx(1.0, abs=1e-7)
    # The reported quotient is the brute-force quotient of the returned coefficients.
    assert est.rayleigh_quotient_ == pytest.approx(value, rel=1e-6)
    assert (a @ M @ a) / (a @ Nr @ a) == pytest.approx(value, rel=1e-6)
    assert est.diagnostics_["method"] == "closed-form"


def test_eigen_formulation_agrees_with_closed_form():
    X, y = _two_blobs((20, 30), seed=1)
    X_new = np.random.RandomState(2).randn(50, 2) * 2
    closed = KernelFisherDiscriminant(width=2.0, mu=1e-2).fit(X, y)
    eigen = KernelFisherDiscriminant(width=2.0, mu=1e-2, formulation="eigen").fit(X, y)
    assert eigen.diagnostics_["method"] == "cholesky"
    assert eigen.rayleigh_quotient_ == pytest.approx(closed.rayleigh_quotient_, rel=1e-8)
    np.testing.assert_allclose(
        eigen.decision_function(X_new), closed.decision_function(X_new), rtol=1e-6, atol=1e-8
    )
    # Two routes agree to round-off, so the classes agree wherever the output is not that close
    # to the threshold (a point within round-off of it may go either way on another BLAS).
    clear = np.abs(closed.decision_function(X_new)) > 1e-6
    assert clear.sum() >= 45
    np.testing.assert_array_equal(eigen.predict(X_new)[clear], closed.predict(X_new)[clear])


@pytest.mark.parametrize("seed", [0, 1])
def test_linear_kernel_tiny_mu_is_lda(seed):
    rng = np.random.RandomState(seed)
    A = rng.randn(3, 3)
    X = rng.randn(80, 3) @ A
    y = (X @ rng.randn(3) + 0.5 * rng.randn(80) > 0).astype(int)
    est = KernelFisherDiscriminant(kernel="linear", mu=1e-9).fit(X, y)
    w = X.T @ est.expansion_.coef[:, 0]  # w = sum_i alpha_i x_i: centres are the training points
    lda = LinearDiscriminantAnalysis(solver="eigen").fit(X, y).coef_[0]
    cosine = w @ lda / (np.linalg.norm(w) * np.linalg.norm(lda))
    assert cosine == pytest.approx(1.0, abs=1e-8)  # same angle, same orientation (class 1 up)
    # N (rank 3, n = 80) + tiny mu is solved on its range, and the fit says so.
    assert est.diagnostics_["method"] == "range"
    assert any("nearly singular" in text for text in est.diagnostics_["warnings"])


def _unbalanced(n, seed):
    rng = np.random.RandomState(seed)
    n0 = int(0.9 * n)
    X = np.vstack([rng.randn(n0, 2), rng.randn(n - n0, 2) + np.array([1.5, 1.0])])
    return X, np.r_[np.zeros(n0, int), np.ones(n - n0, int)]


@pytest.mark.parametrize("kernel", [dict(kernel="linear"), dict(kernel="rbf", width=4.0)])
def test_prior_threshold_beats_midpoint_on_unbalanced_classes(kernel):
    X, y = _unbalanced(300, seed=0)
    X_test, y_test = _unbalanced(3000, seed=1)
    errors = {}
    for threshold in ("prior", "midpoint"):
        est = KernelFisherDiscriminant(threshold=threshold, **kernel).fit(X, y)
        errors[threshold] = int((est.predict(X_test) != y_test).sum())
    # The midpoint ignores the 9:1 priors and loses clearly (measured: ~1.4-3x the errors).
    assert errors["prior"] < 0.8 * errors["midpoint"], errors


def _all_cut_errors(z, s):
    """Training errors of sign(z - c) for every cut c between (and outside) the sorted values."""
    zs = np.sort(np.unique(z))
    cuts = np.concatenate([[zs[0] - 1], 0.5 * (zs[:-1] + zs[1:]), [zs[-1] + 1]])
    return np.array([int(np.sum(np.where(z > c, 1, -1) != s)) for c in cuts])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_min_error_threshold_is_the_best_cut(seed):
    X, y = _unbalanced(120, seed=seed)
    est = KernelFisherDiscriminant(threshold="min-error", kernel="linear").fit(X, y)
    z = est.transform(X)[:, 0]
    s = np.where(y == 1, 1, -1)
    best = _all_cut_errors(z, s).min()
    assert int((est.predict(X) != y).sum()) == best
    for other in ("prior", "midpoint", "margin-lp"):
        alt = KernelFisherDiscriminant(threshold=other, kernel="linear").fit(X, y)
        assert int((alt.predict(X) != y).sum()) >= best


def _lp_objective(z, s, b, C):
    """max over rho >= 0 of rho - C sum max(0, rho - s_i (z_i + b)) (eq. 15 with b fixed)."""
    margins = s * (z + b)
    candidates = np.concatenate([[0.0], margins[margins > 0]])
    return max(rho - C * np.maximum(0.0, rho - margins).sum() for rho in candidates)


@pytest.mark.parametrize("seed", [0, 3])
def test_margin_lp_threshold_is_optimal(seed):
    X, y = _unbalanced(100, seed=seed)
    est = KernelFisherDiscriminant(threshold="margin-lp", width=2.0).fit(X, y)
    z = est.transform(X)[:, 0]
    s = np.where(y == 1, 1.0, -1.0)
    n = z.size
    C = 1.0 / (MARGIN_LP_NU * n)
    # An independent LP over (rho, b, xi): min -rho + C sum xi, -s_i b + rho - xi_i <= s_i z_i.
    A = np.hstack([np.ones((n, 1)), -s[:, None], -np.eye(n)])
    res = linprog(
        np.r_[-1.0, 0.0, np.full(n, C)],
        A_ub=A,
        b_ub=s * z,
        bounds=[(0, None), (None, None)] + [(0, None)] * n,
        method="highs",
    )
    assert res.status == 0
    optimum = -res.fun
    ours = _lp_objective(z, s, est.intercept_, C)
    assert ours == pytest.approx(optimum, rel=1e-6, abs=1e-9)
    # And no offset on a fine grid does better.
    grid = np.linspace(-z.max(), -z.min(), 2001)
    assert max(_lp_objective(z, s, b, C) for b in grid) <= ours + 1e-9


@pytest.mark.parametrize("threshold", ["prior", "midpoint", "min-error", "margin-lp"])
def test_predict_proba_two_class(threshold):
    X, y = _two_blobs((15, 40), seed=4)
    est = KernelFisherDiscriminant(threshold=threshold, width=2.0).fit(X, y)
    X_new = np.random.RandomState(5).randn(60, 2) * 2
    P = est.predict_proba(X_new)
    assert P.shape == (60, 2) and np.all((P >= 0) & (P <= 1))
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.classes_[P.argmax(axis=1)], est.predict(X_new))
    np.testing.assert_allclose(np.exp(est.predict_log_proba(X_new)), P, rtol=1e-12, atol=1e-299)
    assert np.isfinite(est.intercept_)


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.mark.parametrize("multi_class", ["ovr", "gda"])
def test_multi_class_iris(iris, multi_class):
    X, y = iris
    est = KernelFisherDiscriminant(width=1.0, multi_class=multi_class).fit(X, y)
    assert est.score(X, y) > 0.95
    F = est.transform(X)
    assert F.shape == (150, 2)  # r - 1 features
    P = est.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.classes_[P.argmax(axis=1)], est.predict(X))
    assert est.decision_function(X).shape == (150, 3)


def test_multi_class_held_out_accuracy(iris):
    X, y = iris
    rng = np.random.RandomState(0)
    test = rng.rand(150) < 0.3
    est = KernelFisherDiscriminant(width=2.0, mu=1e-2).fit(X[~test], y[~test])
    assert est.score(X[test], y[test]) > 0.9


def _canonical_correlations(A, B):
    A = A - A.mean(axis=0)
    B = B - B.mean(axis=0)
    Qa, _ = np.linalg.qr(A)
    Qb, _ = np.linalg.qr(B)
    return np.linalg.svd(Qa.T @ Qb, compute_uv=False)


@pytest.mark.parametrize("mu", [1e-3, 1e-1])
def test_gda_features_match_brute_force(iris, mu):
    X, y = iris
    width = 1.0
    est = KernelFisherDiscriminant(width=width, mu=mu).fit(X, y)
    K = Kernel("rbf", width)(X, X)
    n = K.shape[0]
    overall = K.mean(axis=1)
    Sb = np.zeros((n, n))
    D = np.eye(n)
    for label in range(3):
        indicator = (y == label).astype(float)
        ell = indicator.sum()
        diff = K @ indicator / ell - overall
        Sb += ell * np.outer(diff, diff)
        v = indicator / np.sqrt(ell)
        D -= np.outer(v, v)
    Sw = K @ D @ K
    vals, vecs = linalg.eigh(Sb, Sw + mu * np.eye(n))
    A_ref = vecs[:, ::-1][:, :2]
    np.testing.assert_allclose(est.rayleigh_values_, vals[::-1][:2], rtol=1e-6)
    X_eval = np.vstack([X, X + np.random.RandomState(1).randn(*X.shape) * 0.3])
    K_eval = Kernel("rbf", width)(X_eval, X)
    rho = _canonical_correlations(K_eval @ A_ref, est.transform(X_eval))
    np.testing.assert_allclose(rho, 1.0, atol=1e-6)


def _tangent_variance(est, X, step):
    """a'TT'a for rotation about the data mean, T_ij = (k(z_i, x_j) - k(z_i, L_t x_j)) / t."""
    kern = est.expansion_.kernel
    Z, a = est.expansion_.centers, est.expansion_.coef[:, 0]
    c = X.mean(axis=0)
    cos, sin = np.cos(step), np.sin(step)
    rotated = c + (X - c) @ np.array([[cos, sin], [-sin, cos]])
    T = (kern(Z, X, cache=False) - kern(Z, rotated, cache=False)) / step
    return float(a @ T @ T.T @ a)


def test_invariant_kfd_reduces_the_tangent_variance():
    rng = np.random.RandomState(0)
    n = 80
    t = rng.uniform(0, 2 * np.pi, n)
    r = np.where(np.arange(n) < n // 2, 1.0, 2.0) + 0.15 * rng.randn(n)
    X = np.column_stack([r * np.cos(t), 0.8 * r * np.sin(t)])
    y = (np.arange(n) >= n // 2).astype(int)
    plain = KernelFisherDiscriminant(width=1.0).fit(X, y)
    invariant = KernelFisherDiscriminant(
        width=1.0, tangents="rotation", tangent_weight=10.0, tangent_step=0.05
    ).fit(X, y)
    # Both are scaled so that the projected class means lie 2 apart: variances compare directly.
    assert not np.allclose(plain.expansion_.coef, invariant.expansion_.coef)
    before = _tangent_variance(plain, X, 0.05)
    after = _tangent_variance(invariant, X, 0.05)
    assert after < 0.05 * before
    assert invariant.score(X, y) >= 0.95
    # The Rayleigh quotient against the enlarged N is smaller than against N alone.
    assert invariant.rayleigh_quotient_ < plain.rayleigh_quotient_


def test_tangent_weight_zero_changes_nothing():
    X, y = _two_blobs()
    plain = KernelFisherDiscriminant().fit(X, y)
    zero = KernelFisherDiscriminant(tangents="rotation", tangent_weight=0.0).fit(X, y)
    np.testing.assert_allclose(zero.decision_function(X), plain.decision_function(X))


@pytest.mark.parametrize("centers", ["random", "kmeans"])
def test_training_on_a_subset(centers):
    X, y = _two_blobs((100, 100), seed=3, shift=(2.5, 1.0))
    X_test, y_test = _two_blobs((300, 300), seed=4, shift=(2.5, 1.0))
    est = KernelFisherDiscriminant(
        width=2.0, n_centers=15, centers=centers, random_state=0, mu=1e-2
    ).fit(X, y)
    assert est.expansion_points_.shape == (15, 2)
    assert est.expansion_.coef.shape == (15, 1)
    full = KernelFisherDiscriminant(width=2.0, mu=1e-2).fit(X, y)
    assert est.score(X_test, y_test) > 0.85
    assert est.score(X_test, y_test) > full.score(X_test, y_test) - 0.05
    if centers == "random":
        np.testing.assert_array_equal(est.expansion_points_, X[est.center_index_])
        assert set(y[est.center_index_]) == {0, 1}  # stratified: both classes represented
    else:
        assert est.center_index_ is None


def test_subset_is_reproducible_with_random_state():
    X, y = _two_blobs((50, 50))
    a = KernelFisherDiscriminant(n_centers=10, random_state=7).fit(X, y)
    b = KernelFisherDiscriminant(n_centers=10, random_state=7).fit(X, y)
    np.testing.assert_array_equal(a.expansion_points_, b.expansion_points_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))


def test_decision_expansion_equals_decision_function(iris):
    X, y = _two_blobs(seed=5)
    X_new = np.random.RandomState(6).randn(30, 2)
    est = KernelFisherDiscriminant(threshold="min-error").fit(X, y)
    np.testing.assert_allclose(
        est.decision_expansion_.evaluate(X_new)[:, 0], est.decision_function(X_new), atol=1e-12
    )
    grid = est.decision_expansion_.evaluate_grid(np.linspace(-2, 2, 5), np.linspace(-1, 1, 3))
    gx, gy = np.meshgrid(np.linspace(-2, 2, 5), np.linspace(-1, 1, 3))
    expected = est.decision_function(np.column_stack([gx.ravel(), gy.ravel()]))
    np.testing.assert_allclose(grid[0], expected.reshape(3, 5), atol=1e-10)
    Xi, yi = iris
    ovr = KernelFisherDiscriminant(multi_class="ovr").fit(Xi, yi)
    np.testing.assert_allclose(
        ovr.decision_expansion_.evaluate(Xi), ovr.decision_function(Xi), atol=1e-10
    )


def test_string_labels():
    X, y = _two_blobs()
    labels = np.array(["no", "yes"])[y]
    est = KernelFisherDiscriminant().fit(X, labels)
    assert list(est.classes_) == ["no", "yes"]
    assert set(est.predict(X)) <= {"no", "yes"}
    assert est.score(X, labels) > 0.7


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_x(bad):
    X, y = _two_blobs()
    X[3, 1] = bad
    with pytest.raises(ValueError, match=r"NaN|infinity"):
        KernelFisherDiscriminant().fit(X, y)
    fitted = KernelFisherDiscriminant().fit(*_two_blobs())
    with pytest.raises(ValueError, match=r"NaN|infinity"):
        fitted.predict(X)


def test_length_mismatch():
    X, y = _two_blobs()
    with pytest.raises(ValueError, match="one label per point") as info:
        KernelFisherDiscriminant().fit(X, y[:-1])
    assert "60 rows" in str(info.value) and "59 labels" in str(info.value)


def test_wrong_shapes():
    X, y = _two_blobs()
    with pytest.raises(ValueError, match="2D array"):
        KernelFisherDiscriminant().fit(X[:, 0], y)
    fitted = KernelFisherDiscriminant().fit(X, y)
    with pytest.raises(ValueError, match=r"3 features.*expecting 2"):
        fitted.predict(np.zeros((4, 3)))


def test_single_class():
    X, _ = _two_blobs()
    with pytest.raises(ValueError, match="at least two classes") as info:
        KernelFisherDiscriminant().fit(X, np.full(len(X), 7))
    assert "7" in str(info.value) and "add points of another class" in str(info.value)


def test_class_with_one_point():
    X, y = _two_blobs((20, 20))
    y = y.copy()
    y[0] = 2
    with pytest.raises(ValueError, match="only 1 point") as info:
        KernelFisherDiscriminant().fit(X, y)
    assert "2" in str(info.value) and "Add points to that class" in str(info.value)


@pytest.mark.parametrize(
    "params, words",
    [
        (dict(width=0), ["width", "0"]),
        (dict(width=-1.5), ["width", "-1.5"]),
        (dict(kernel="poly", degree=0), ["degree", "0"]),
        (dict(kernel="foo"), ["kernel", "foo"]),
        (dict(mu=-1.0), ["mu", "-1.0"]),
        (dict(threshold="median"), ["threshold", "median"]),
        (dict(n_centers=0), ["n_centers", "0"]),
    ],
)
def test_bad_parameters(params, words):
    X, y = _two_blobs()
    with pytest.raises(ValueError) as info:
        KernelFisherDiscriminant(**params).fit(X, y)
    for word in words:
        assert word in str(info.value)


def test_unknown_tangent():
    X, y = _two_blobs()
    with pytest.raises(ValueError, match=r"Unknown tangent 'spin'.*rotation"):
        KernelFisherDiscriminant(tangents="spin", tangent_weight=1.0).fit(X, y)


@pytest.mark.parametrize(
    "kernel, make",
    [
        ("rbf", lambda X, y: (np.vstack([X, X]), np.r_[y, y])),  # duplicated points
        ("linear", lambda X, y: (X, y)),  # n = 60 points, rank 2
    ],
)
def test_singular_within_scatter_with_mu_zero(kernel, make):
    X, y = make(*_two_blobs())
    with pytest.raises(ValueError, match="singular") as info:
        KernelFisherDiscriminant(kernel=kernel, mu=0.0).fit(X, y)
    assert "mu > 0" in str(info.value)


def test_mu_zero_on_a_regular_problem_works():
    """mu = 0 is allowed where N is regular: with every training point as a centre, N = KDK has
    rank at most n - 2 (D does), but a small subset of centres gives a regular m x m N."""
    X, y = _two_blobs((20, 20), seed=2)
    est = KernelFisherDiscriminant(width=2.0, mu=0.0, n_centers=6, random_state=0).fit(X, y)
    assert est.diagnostics_["method"] == "closed-form"
    assert est.score(X, y) > 0.8
    assert np.all(np.isfinite(est.decision_function(X)))


def test_not_fitted():
    est = KernelFisherDiscriminant()
    for method in (est.predict, est.decision_function, est.predict_proba, est.transform):
        with pytest.raises(NotFittedError, match="not fitted yet"):
            method(np.zeros((2, 2)))
    with pytest.raises(NotFittedError):
        est.decision_expansion_  # noqa: B018


@pytest.mark.parametrize("width", [1e-4, 1e4])
@pytest.mark.parametrize("mu", [1e-9, 1e-3, 1e3])
def test_extreme_parameters_give_finite_output(width, mu):
    X, y = _two_blobs((15, 15))
    est = KernelFisherDiscriminant(width=width, mu=mu).fit(X, y)
    X_new = np.random.RandomState(0).randn(10, 2)
    assert np.all(np.isfinite(est.decision_function(X_new)))
    assert np.all(np.isfinite(est.predict_proba(X_new)))


@pytest.mark.slow
@pytest.mark.parametrize(
    "formulation", ["rayleigh", "eigen", "qp", "sparse", "linear-sparse", "greedy"]
)
def test_every_formulation_trains_on_a_subset_of_a_large_set(formulation):
    # TPAMI eq. (13): 20 000 points expanded over 300 centers. No n x n matrix may be formed
    # (one alone would take 3.2 GB; the n x 300 cross-Gram takes 48 MB).
    import tracemalloc

    rng = np.random.default_rng(0)
    n = 20_000
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] ** 2 - X[:, 1] + 0.5 * rng.normal(size=n) > 0).astype(int)
    mu = 1.0 if formulation == "linear-sparse" else 1e-2
    est = KernelFisherDiscriminant(formulation=formulation, n_centers=300, random_state=0, mu=mu)
    tracemalloc.start()
    try:
        est.fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1e9, peak
    assert est.expansion_.centers.shape[0] <= 300
    # The Bayes error of these data is about 10 %.
    assert est.score(X[:5000], y[:5000]) > 0.85
    if formulation in ("sparse", "linear-sparse", "greedy"):
        assert est.sparsity_ > 0.5
