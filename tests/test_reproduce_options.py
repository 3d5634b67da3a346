"""The protocol's options: eq. (4b) in SKFD/LSKFD, eq. (15)'s nu, the programs' width, the tie rule."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.base import clone

from kfdviz.core.kernels import Kernel
from kfdviz.estimators import KernelFisherDiscriminant
from kfdviz.experiments.crossval import (
    choose_best,
    estimator_params,
    fit_each_scorer,
    grid_search,
    stratified_folds,
)
from kfdviz.experiments.kfd_path import kfd_mu_path_scorer
from kfdviz.experiments.methods import (
    DEFAULT_OPTIONS,
    THRESHOLD_NU_GRID,
    ProtocolOptions,
    get_method,
)


def two_classes(n, d=2, seed=0, shift=1.3):
    rng = np.random.RandomState(seed)
    y = (rng.rand(n) < 0.35).astype(int)
    X = rng.randn(n, d) + shift * y[:, None] * np.r_[1.0, np.zeros(d - 1)]
    return X, y


# -- eq. (4b) ------------------------------------------------------------------------------------
def _class_sums_of_residuals(model, X, y):
    """Per class, the sum of xi = y - (K alpha + b) with the expansion's alpha and the program's b.

    The estimator rescales alpha by 2 / gap, gap the distance of the class means of K alpha. Under
    (4b) the program's outputs K alpha + b have class means -1 and +1 exactly, so the gap is 2,
    the expansion's alpha is the program's, and these are the program's residuals."""
    s = np.where(y == 1, 1.0, -1.0)
    K = Kernel("rbf", width=model.width)(X, X)
    xi = s - (K @ model.expansion_.coef[:, 0] + model.program_offset_)
    return np.array([xi[s < 0].sum(), xi[s > 0].sum()]), xi


@pytest.mark.parametrize("method", ["skfd", "lskfd"])
def test_the_programs_hold_the_zero_mean_constraints_by_default(method):
    X, y = two_classes(60, seed=1)
    m = get_method(method)
    model = m.estimator({"width": 2.0, "mu": 0.05}).fit(X, y)
    assert model.zero_mean_constraints  # the default protocol: NIPS 2001's program (4)
    sums, xi = _class_sums_of_residuals(model, X, y)
    assert np.abs(sums).max() <= 1e-6 * max(1.0, np.abs(xi).sum())
    # without them the residuals of a class need not cancel: the check above can fail
    free = m.estimator({"width": 2.0, "mu": 0.05}, ProtocolOptions(zero_mean=False)).fit(X, y)
    assert not free.zero_mean_constraints
    sums_free, xi_free = _class_sums_of_residuals(free, X, y)
    assert np.abs(sums_free).max() > 1e-3 * np.abs(xi_free).sum()


def test_zero_mean_option_reaches_the_task_key_only_for_the_programs():
    from kfdviz.experiments.run import _task_options

    assert _task_options("skfd", ProtocolOptions(zero_mean=False)) == {"zero_mean": False}
    assert _task_options("lskfd", DEFAULT_OPTIONS) == {"zero_mean": True}
    assert _task_options("kfd", ProtocolOptions(zero_mean=False)) == {}


# -- eq. (15)'s C = 1/(nu n) -------------------------------------------------------------------------
def test_threshold_nu_is_eq15s_C_for_the_fit_at_hand():
    assert estimator_params({"mu": 1.0, "threshold_nu": 0.5}, 200) == {
        "mu": 1.0,
        "threshold_C": 1.0 / 100.0,
    }
    X, y = two_classes(80, seed=4)
    train, val = stratified_folds(y, 5, seed=0)[0]
    est = KernelFisherDiscriminant(kernel="rbf", threshold="margin-lp")
    candidates = [{"width": 3.0, "mu": mu, "threshold_nu": 0.5} for mu in (1e-3, 1e-1, 10.0)]
    got = kfd_mu_path_scorer(est)(X[train], y[train], X[val], y[val], candidates)
    n = len(train)
    want = []
    for c in candidates:
        params = {"width": 3.0, "mu": c["mu"], "threshold_C": 1.0 / (0.5 * n)}
        model = clone(est).set_params(**params).fit(X[train], y[train])
        pred = model.predict(X[val])
        want.append((float(np.mean(pred == y[val])), bool(np.all(pred == pred[0]))))
    assert got == want
    assert fit_each_scorer(est)(X[train], y[train], X[val], y[val], candidates) == want


def test_protocol_grids_follow_the_options():
    kfd, skfd, svm = get_method("kfd"), get_method("skfd"), get_method("svm")
    assert "threshold_nu" not in kfd.protocol_grid(4)  # the default, 1/(0.1 n): the estimator's
    assert kfd.protocol_grid(4, ProtocolOptions(threshold_nu=0.5))["threshold_nu"] == [0.5]
    cv = ProtocolOptions(threshold_nu="cv")
    assert skfd.protocol_grid(4, cv)["threshold_nu"] == THRESHOLD_NU_GRID
    assert "threshold_nu" not in svm.protocol_grid(4, cv)  # libsvm's own offset
    assert "width" not in skfd.protocol_grid(4) and skfd.takes_width_from() == "kfd"
    search = ProtocolOptions(program_width="search")
    assert len(skfd.protocol_grid(4, search)["width"]) == 9 and not skfd.takes_width_from(search)
    assert "C = 1/(0.5 n)" in kfd.threshold_text(ProtocolOptions(threshold_nu=0.5))
    with pytest.raises(ValueError, match="threshold nu"):
        ProtocolOptions(threshold_nu=1.5)
    with pytest.raises(ValueError, match="tie rule"):
        ProtocolOptions(ties="last")


# -- the tie rule ----------------------------------------------------------------------------------
def test_the_median_tie_rule_never_takes_a_constant_predictor_on_a_constructed_tie():
    # six candidates tie at 0.7 on every fold; the first two predict one class throughout, as a
    # linear SVM with a tiny C predicts the majority class
    scores = np.full((8, 5), 0.7)
    scores[6:] = 0.6
    constant = np.zeros((8, 5), dtype=bool)
    constant[:2] = True
    assert choose_best(scores, constant, "first") == 0  # GridSearchCV's choice: degenerate
    chosen = choose_best(scores, constant, "median")
    assert chosen == 3  # the lower median of the non-constant tied candidates 2, 3, 4, 5
    assert not constant[chosen].any()


def test_the_median_tie_rule_on_random_ties():
    rng = np.random.RandomState(0)
    for _ in range(300):
        n = rng.randint(1, 9)
        scores = rng.choice([0.5, 0.75, 1.0], size=(n, 3))
        scores[rng.rand(n) < 0.2, rng.randint(3)] = np.nan
        constant = rng.rand(n, 3) < 0.4
        means = np.average(scores, axis=1)
        if not np.any(np.isfinite(means)):
            with pytest.raises(ValueError, match="failed"):
                choose_best(scores, constant, "median")
            continue
        chosen = choose_best(scores, constant, "median")
        best = np.nanmax(means)
        tied = [i for i in range(n) if np.isfinite(means[i]) and means[i] == best]
        assert chosen in tied
        fewest = min(constant[i].sum() for i in tied)
        assert constant[chosen].sum() == fewest
        eligible = [i for i in tied if constant[i].sum() == fewest]
        assert chosen == eligible[(len(eligible) - 1) // 2]


def test_a_real_flat_grid_resolves_to_its_middle_not_its_degenerate_edge():
    # labels independent of the single feature except for a small band: a linear SVM at a tiny C
    # predicts the majority class (a constant), larger C find the band as well as chance allows
    rng = np.random.RandomState(3)
    X = rng.randn(150, 1)
    y = (rng.rand(150) < 0.3).astype(int)
    from sklearn.svm import SVC

    def scorer(X_train, y_train, X_val, y_val, candidates):
        out = []
        for c in candidates:
            pred = SVC(kernel="linear", C=c["C"]).fit(X_train, y_train).predict(X_val)
            out.append((float(np.mean(pred == y_val)), bool(np.all(pred == pred[0]))))
        return out

    grid = {"C": [1e-4, 1e-3, 1e-2, 1e-1, 1.0]}
    first = grid_search(scorer, grid, X, y, seed=0, ties="first")
    median = grid_search(scorer, grid, X, y, seed=0, ties="median")
    assert first.mean_scores[median.best_index] == first.mean_scores[first.best_index]
    fewest = first.constant.sum(axis=1)[np.isclose(first.mean_scores, first.mean_scores.max())]
    assert median.constant[median.best_index].sum() == fewest.min()


@pytest.mark.parametrize("ties", ["first", "median"])
def test_both_tie_rules_choose_a_best_mean(ties):
    scores = np.array(list(itertools.product([0.5, 1.0], repeat=3)), dtype=float)
    chosen = choose_best(scores, None, ties)
    assert np.average(scores[chosen]) == 1.0


def test_programs_that_search_their_own_width_do_not_wait_for_kfd(tmp_path, monkeypatch):
    import dataclasses

    from kfdviz.experiments import methods as methods_module
    from kfdviz.experiments.run import reproduce

    rng = np.random.RandomState(5)
    n = 70
    y = np.where(rng.rand(n) < 0.4, 1, -1).astype(np.int8)
    X = rng.randn(n, 2) + 1.2 * y[:, None] * np.r_[1.0, 0.0]
    orders = [rng.permutation(n) for _ in range(2)]
    np.savez(
        tmp_path / "banana.npz",
        X=X,
        y=y,
        train_idx=np.array([o[:40] for o in orders]),
        test_idx=np.array([o[40:] for o in orders]),
        realizations=np.arange(1, 3),
    )
    skfd = dataclasses.replace(methods_module.METHODS["skfd"], grid=lambda d: {"mu": [0.01, 0.1]})
    monkeypatch.setitem(methods_module.METHODS, "skfd", skfd)
    monkeypatch.setattr(methods_module, "width_grid", lambda d: [1.0, 4.0])
    timings: list = []
    doc = reproduce(
        "mika-table1",
        tmp_path,
        methods=["skfd"],
        datasets=["banana"],
        cache_dir=tmp_path / "c",
        progress=False,
        options=ProtocolOptions(program_width="search"),
        timings=timings,
    )
    cell = doc["rows"][0]["cells"]["skfd"]["ours"]
    assert cell["params"]["width"] in (1.0, 4.0)
    assert {c["width"] for c in cell["cv_choices"]} <= {1.0, 4.0}
    # no KFD task at all: two rounds, SKFD's folds (2 realizations x 5 folds x 2 widths), fits
    assert [len(r) for r in timings] == [20, 2]
    assert not list((tmp_path / "c").glob("banana/kfd"))
    assert doc["protocol"]["options"]["program_width"] == "search"
