"""Every preset fits through run_fit, and each looks as its paper's figure says it must.

The checks measure the figure table's "what must be visible" on the numbers the picture is drawn
from: the grid of the shown feature, the outputs at the points, the embeddings, the sweep's
curves. Fresh samples of a generator (another seed) stand in for "the shape" and "the background".
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy import ndimage
from scipy.interpolate import RegularGridInterpolator
from scipy.stats import ks_2samp

from kfdviz import datasets, presets
from kfdviz.paper_presets import PaperPreset
from kfdviz.pipeline import FitResult
from kfdviz.render import Computed, compute
from kfdviz.session import split_roles, state_from_preset

PAPER_PRESETS = [
    "okpca-invariance",
    "invariant-kfd",
    "kfd-vs-kpca",
    "output-distributions",
    "kfd-regression",
    "kfd-regression-noisy",
    "kfd-sparsity",
    "novelty-ring-line-square",
    "novelty-spiral",
    "novelty-sine-noise",
    "novelty-width-sweep",
    "koc-iris",
    "koc-cuboids",
    "koc-linear-svm",
]

_CACHE: dict[str, Computed] = {}


def computed(name: str) -> Computed:
    """The preset's fitted panels (or sweep), computed once per test run."""
    if name not in _CACHE:
        _CACHE[name] = compute(state_from_preset(name))
    return _CACHE[name]


def results(name: str) -> list[FitResult]:
    out = computed(name).results
    assert all(isinstance(r, FitResult) for r in out), out
    return out


# -- every preset ----------------------------------------------------------------------------------
def test_every_row_of_the_figure_table_is_a_preset():
    assert set(PAPER_PRESETS) <= set(presets.names())
    assert presets.names()[:2] == ["default", "kfd-vs-kpca"]


@pytest.mark.parametrize("name", presets.names())
def test_preset_fits_through_run_fit(name):
    c = computed(name)
    p = presets.get(name)
    if c.sweep is not None:
        assert not c.sweep.failures
        for curve in c.sweep.metrics.values():
            for values in curve.values():
                assert np.all(np.isfinite(values))
        return
    assert len(c.results) == len(p.panels)
    for r, panel in zip(results(name), p.panels, strict=True):
        assert r.algorithm == panel.algorithm
        assert not [
            w
            for w in r.warnings
            if "singular" in w.lower() and "increase" in w.lower() and r.algorithm not in ("okpca",)
        ], r.warnings


@pytest.mark.parametrize("name", PAPER_PRESETS)
def test_description_names_paper_and_choices(name):
    p = presets.get(name)
    assert isinstance(p, PaperPreset) or name == "kfd-vs-kpca"  # that one is the app's own
    text = f"{p.title} {p.description}"
    assert re.search(r"(Fig\.|Table|slides|sec\. \d)", p.title), p.title
    assert re.search(r"(19|20)\d\d", p.title + p.source)
    assert len(p.description) > 200
    uses_rbf = any(panel.params.get("kernel") == "rbf" for panel in p.panels)
    if uses_rbf:
        # the paper's own Gaussian convention is written out
        assert "exp(−‖x−" in text
    if name.startswith("novelty"):
        assert "2σ²" in text
        for panel in p.panels:
            m = re.search(r"σ = ([0-9.]+)", panel.title)
            assert m, panel.title
            sigma = float(m.group(1))
            assert panel.params["width"] == pytest.approx(2 * sigma**2)
    if name.startswith("koc"):
        assert "exp(−‖x−y‖²/σ)" in text


def test_cross_validated_presets_record_the_grid():
    for name in ("output-distributions", "kfd-sparsity"):
        d = presets.get(name).description
        assert "cross-validation" in d and "…" in d and "gave" in d


# -- helpers ---------------------------------------------------------------------------------------
def _grid_at(r: FitResult, P: np.ndarray) -> np.ndarray:
    g = r.grid
    f = RegularGridInterpolator((g.ys, g.xs), g.values, bounds_error=False, fill_value=None)
    return f(np.column_stack([P[:, 1], P[:, 0]]))


def _grid_gradient(r: FitResult):
    g = r.grid
    fy, fx = np.gradient(g.values, g.ys, g.xs)
    gx, gy = np.meshgrid(g.xs, g.ys)
    return gx, gy, fx, fy


def _best_threshold_error(values: np.ndarray, labels: np.ndarray) -> float:
    """The fewest training errors any threshold on ``values`` makes (either orientation)."""
    order = np.argsort(values)
    y = (labels[order] == labels.max()).astype(int)
    n = y.size
    ones_left = np.concatenate([[0], np.cumsum(y)])
    zeros_left = np.arange(n + 1) - ones_left
    # predict 1 on the right: errors = ones on the left + zeros on the right
    err_up = ones_left + (n - y.sum() - zeros_left)
    err_down = zeros_left + (y.sum() - ones_left)
    return float(min(err_up.min(), err_down.min()) / n)


def _linearly_separable_fraction(E: np.ndarray, y: np.ndarray) -> float:
    from sklearn.svm import LinearSVC

    Z = (E - E.mean(axis=0)) / np.maximum(E.std(axis=0), 1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(LinearSVC(C=1e4, max_iter=200_000).fit(Z, y).score(Z, y))


def _within_over_total(E: np.ndarray, y: np.ndarray) -> float:
    E = E - E.mean(axis=0)
    within = sum(((E[y == k] - E[y == k].mean(axis=0)) ** 2).sum() for k in np.unique(y))
    return float(within / (E**2).sum())


# -- TPAMI Fig. 1 -----------------------------------------------------------------------------------
def test_okpca_invariance_measured_on_the_drawn_grid():
    kpca, rot, tx = results("okpca-invariance")
    X = kpca.X
    centre = X.mean(axis=0)

    def ratios(r):
        gx, gy, fx, fy = _grid_gradient(r)
        inside = (np.abs(gx) <= 0.9) & (np.abs(gy) <= 0.9)  # the data's box, less its edge
        rx, ry = gx - centre[0], gy - centre[1]
        rad = np.hypot(rx, ry)
        sel = inside & (rad > 0.15)
        norm = np.hypot(fx, fy)
        along_circle = np.abs(-ry * fx + rx * fy) / np.maximum(rad, 1e-12)
        return (
            float(np.median(along_circle[sel] / norm[sel])),
            float(np.median(np.abs(fx[inside]) / norm[inside])),
        )

    kpca_circle, kpca_x = ratios(kpca)
    rot_circle, _ = ratios(rot)
    _, tx_x = ratios(tx)
    # rotation: the feature barely changes along circles around the centre; plain KPCA does
    assert rot_circle < 0.05 and kpca_circle > 0.4
    # x-translation: level sets are horizontal lines, df/dx << df/dy
    assert tx_x < 0.05 and kpca_x > 0.3
    # and the invariant features still vary (along radii / along y)
    for r in (rot, tx):
        assert np.ptp(r.grid.values) > 10 * np.median(np.abs(np.diff(r.grid.values, axis=0)))
    assert rot.tangents and tx.tangents and not kpca.tangents


# -- 1999 Fig. 1 ------------------------------------------------------------------------------------
def test_kfd_separates_the_parabolas_kpca_does_not():
    kfd, f1, f2 = results("kfd-vs-kpca")
    y = np.asarray(kfd.y)
    assert kfd.train_error == 0.0
    assert _best_threshold_error(kfd.outputs, y) == 0.0
    for feature in (f1, f2):
        assert _best_threshold_error(feature.outputs, y) > 0.25
    assert kfd.grid.boundary is not None and kfd.grid.boundary.n_pieces >= 1


# -- NIPS 2000 Fig. 2 -------------------------------------------------------------------------------
def test_output_distributions_kfd_consistent_svm_piles_at_the_margin():
    kfd, svm = results("output-distributions")
    test = kfd.test_mask
    assert int((~test).sum()) == 400 and int(test.sum()) == 7000
    y = np.asarray(kfd.y)
    for cls in (0, 1):
        train_out = kfd.outputs[~test & (y == cls)]
        test_out = kfd.outputs[test & (y == cls)]
        assert ks_2samp(train_out, test_out).statistic < 0.15

    def near_margin(values):
        return float(np.mean(np.abs(np.abs(values) - 1.0) < 0.1))

    def inside_margin(values):
        return float(np.mean(np.abs(values) < 0.9))

    # the SVM's training outputs pile up at +-1 and leave the margin empty; its test outputs spread
    svm_train, svm_test = svm.outputs[~test], svm.outputs[test]
    assert near_margin(svm_train) > 2 * near_margin(svm_test)
    assert inside_margin(svm_train) < 0.5 * inside_margin(svm_test)
    # the KFD's look the same on both
    kfd_train, kfd_test = kfd.outputs[~test], kfd.outputs[test]
    assert abs(near_margin(kfd_train) - near_margin(kfd_test)) < 0.1
    assert abs(inside_margin(kfd_train) - inside_margin(kfd_test)) < 0.1
    # test errors near the paper's 1.5 % (KFD) and 1.7 % (SVM)
    assert kfd.test_error < 0.025 and svm.test_error < 0.025
    assert kfd.histograms is not None and (1, "test") in kfd.histograms.density


# -- NIPS 2000 Fig. 3 -------------------------------------------------------------------------------
def test_kfd_regression_noise_free():
    (r,) = results("kfd-regression")
    x = r.curve.x
    inside = (x >= -10) & (x <= 10)
    assert np.max(np.abs(r.curve.y - np.sinc(x / np.pi))[inside]) < 0.05
    n_exp = len(r.curve.expansion_x)
    assert 1 <= n_exp <= 20 and r.n_train == 100


def test_kfd_regression_noisy_is_sparser_than_svr():
    (r,) = results("kfd-regression-noisy")
    x = r.curve.x
    inside = (x >= -10) & (x <= 10)
    rms = np.sqrt(np.mean((r.curve.y - np.sinc(x / np.pi))[inside] ** 2))
    assert rms < 0.12
    n_exp = len(r.curve.expansion_x)
    assert 1 <= n_exp <= 25
    assert r.svr_curve is not None and len(r.svr_curve.expansion_x) > 2 * n_exp


# -- sparsity on banana ----------------------------------------------------------------------------
def test_sparsity_ordered_as_in_the_paper():
    svm, kfd, skfd, lskfd = results("kfd-sparsity")
    # paper on banana: SVM 78 %, KFD 0 %, SKFD 86 %, LSKFD 92 %
    assert 0.5 < svm.sparsity < min(skfd.sparsity, lskfd.sparsity)
    assert skfd.sparsity > 0.8 and lskfd.sparsity > 0.8
    for r in (svm, skfd, lskfd):
        assert 0 < len(r.expansion_points) < r.n_train
    # the plain KFD expands in every training point
    assert kfd.sparsity == 0.0 and len(kfd.expansion_points) == kfd.n_train
    for r in (svm, kfd, skfd, lskfd):
        assert r.train_error < 0.15
    state = state_from_preset("kfd-sparsity")
    X_fresh, y_fresh = datasets.make("banana", seed=1, n_samples=2000)
    from kfdviz.estimators import registry

    for panel in state.panels:
        est = registry.get(panel.algorithm).make(panel.params).fit(state.X, state.y)
        assert np.mean(est.predict(X_fresh) != y_fresh) < 0.14  # paper: 10.6-11.5 %


def test_sparsity_has_the_four_columns_of_the_papers_table():
    p = presets.get("kfd-sparsity")
    assert [panel.algorithm for panel in p.panels] == ["svm", "kfd", "kfd-sparse", "kfd-lp"]
    # the KFD's parameters are the protocol's choice the description states
    kfd = p.panels[1].params
    assert kfd["width"] == pytest.approx(10**0.5) and kfd["mu"] == pytest.approx(1e-3)
    assert "KFD μ ∈ 10^−4 … 10 gave c = 3.16, μ = 1e-3" in p.description


def test_sparsity_kfd_panels_take_the_papers_threshold():
    for panel in presets.get("kfd-sparsity").panels:
        if panel.algorithm.startswith("kfd"):
            assert panel.params["threshold"] == "margin-lp"
    fitted = results("kfd-sparsity")
    # each caption states the panel's measured fraction of zero coefficients, the plain KFD's
    # 0 % too (the preset draws the expansion points)
    from kfdviz.figure.plan import plan_figure

    plan = plan_figure(computed("kfd-sparsity").state, fitted)
    assert len(plan.panels) == 4
    for p, r in zip(plan.panels, fitted, strict=True):
        assert f"zero coefficients {100 * r.sparsity:.0f} %" in p.measures
    assert "zero coefficients 0 %" in plan.panels[1].measures


def test_sparsity_description_states_the_measured_fractions():
    d = presets.get("kfd-sparsity").description
    names = ("SVM", "KFD", "SKFD", "LSKFD")
    for r, name in zip(results("kfd-sparsity"), names, strict=True):
        assert f"{name} {100 * r.sparsity:.0f} %" in d


def test_plain_kfd_has_no_zero_coefficients():
    (r,) = results("default")
    assert r.algorithm == "kfd" and not r.sparsity


# -- TPAMI sec. 5.1 ---------------------------------------------------------------------------------
def test_invariant_kfd_changes_little_along_rotation():
    from kfdviz.figure.plan import invariance_ratio

    plain, invariant = results("invariant-kfd")
    assert not plain.tangents and invariant.tangents
    assert invariant.tangents[0].name == "rotation"
    r_plain = invariance_ratio(plain, "rotation")
    r_inv = invariance_ratio(invariant, "rotation")
    assert r_inv < 0.05 and r_inv < 0.3 * r_plain
    # both still separate the training classes
    assert plain.train_error < 0.1 and invariant.train_error < 0.1
    # an independent check on fresh points: along circles about the centre the invariant
    # discriminant varies far less than the plain one, relative to its range
    centre = invariant.X.mean(axis=0)
    t = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    ring = centre + 0.75 * np.column_stack([np.cos(t), np.sin(t)])

    def relative_variation(r):
        v = _grid_at(r, ring)
        return float(np.ptp(v) / np.ptp(r.grid.values))

    assert relative_variation(invariant) < 0.5 * relative_variation(plain)


# -- Hoffmann's novelty figures --------------------------------------------------------------------
def _inside_components(r: FitResult) -> int:
    return int(ndimage.label(r.grid.values >= 0)[1])


def test_novelty_ring_line_square_boundary_hugs_the_shapes():
    (r,) = results("novelty-ring-line-square")
    fresh, _ = datasets.make("ring_line_square", seed=1, n_samples=600)
    assert np.mean(_grid_at(r, fresh) >= 0) > 0.95
    assert np.mean(r.grid.values >= 0) < 0.2  # a thin band, not the box
    assert _inside_components(r) == 3  # one region around each shape
    # uniform points in the box mostly fall outside
    rng = np.random.default_rng(3)
    x0, x1, y0, y1 = r.grid.box
    background = np.column_stack([rng.uniform(x0, x1, 2000), rng.uniform(y0, y1, 2000)])
    assert np.mean(_grid_at(r, background) < 0) > 0.8


def test_novelty_spiral_boundary_follows_the_arms():
    (r,) = results("novelty-spiral")
    fresh, _ = datasets.make("spiral", seed=1, n_samples=400)
    assert np.mean(_grid_at(r, fresh) >= 0) > 0.95
    assert np.mean(r.grid.values >= 0) < 0.2
    assert _inside_components(r) == 1
    # between the arms (radius half way between turns) is outside
    t = np.linspace(0.3, 0.8, 200)
    angle = 2 * np.pi * 2.0 * t
    between = (2.0 * t + 0.5)[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
    assert np.mean(_grid_at(r, between) < 0) > 0.8


def test_novelty_sine_kpca_follows_the_curve_ocsvm_is_blobby():
    kpca, ocsvm = results("novelty-sine-noise")
    Xf, yf = datasets.make("sine_noise", seed=1, mark_background=True)
    curve, background = Xf[yf == 0], Xf[yf == 1]
    assert np.mean(_grid_at(kpca, curve) >= 0) > 0.9
    assert np.mean(_grid_at(kpca, background) < 0) > 0.85
    area_kpca = float(np.mean(kpca.grid.values >= 0))
    area_ocsvm = float(np.mean(ocsvm.grid.values >= 0))
    assert area_kpca < 0.6 * area_ocsvm
    # the one-class SVM lets more of the background in
    assert np.mean(_grid_at(ocsvm, background) >= 0) > np.mean(_grid_at(kpca, background) >= 0)


def test_novelty_width_sweep_from_islands_to_smooth():
    narrow, middle, wide = results("novelty-width-sweep")
    areas = [float(np.mean(r.grid.values >= 0)) for r in (narrow, middle, wide)]
    assert areas[0] < areas[1] < areas[2]
    assert _inside_components(middle) >= 10  # islands around single points
    assert _inside_components(wide) <= 3  # one smooth region (and a speck or two)
    # the narrow kernel clings to the curve: a thin region
    assert areas[0] < 0.1


# -- Park & Park -----------------------------------------------------------------------------------
def test_koc_iris_sigma_001_separates_svd_does_not():
    svd, _koc1, koc001 = results("koc-iris")
    y = np.asarray(svd.y)
    assert svd.embedding.shape == (150, 3) and koc001.embedding.shape == (150, 3)
    assert _linearly_separable_fraction(koc001.embedding, y) == 1.0
    assert _linearly_separable_fraction(svd.embedding, y) < 1.0
    assert _within_over_total(koc001.embedding, y) < 0.5 * _within_over_total(svd.embedding, y)


def test_koc_cuboids_classes_separate_and_tighten():
    poly, wide, narrow = results("koc-cuboids")
    X, y = poly.X, np.asarray(poly.y)
    assert X.shape == (600, 3) and np.bincount(y).tolist() == [200, 200, 200]
    assert np.ptp(X, axis=0) == pytest.approx([18.5, 18.5, 18.5], abs=0.3)
    assert _linearly_separable_fraction(X, y) < 0.6
    assert _linearly_separable_fraction(narrow.embedding, y) == 1.0
    spread_input = _within_over_total(X, y)
    assert spread_input > 0.9
    for r in (poly, wide, narrow):
        assert _linearly_separable_fraction(r.embedding, y) > 0.85
        assert _within_over_total(r.embedding, y) < spread_input
    assert _within_over_total(narrow.embedding, y) < 0.1


def test_koc_linear_svm_sweep():
    c = computed("koc-linear-svm")
    state = c.state
    assert int(state.test_mask.sum()) == 600 and int((~state.test_mask).sum()) == 600
    np.testing.assert_array_equal(state.test_mask, split_roles(1200, 0.5, 0, state.y))
    res = c.sweep
    svm, koc = (res.metrics[curve.label] for curve in res.sweep.curves)
    # the best accuracies are alike
    assert abs(np.max(svm["accuracy"]) - np.max(koc["accuracy"])) < 3.0
    assert np.max(koc["accuracy"]) > 90.0
    # at each pipeline's best sigma, the linear SVM after KOC needs fewer support vectors
    best_koc = koc["n_support"][np.argmax(koc["accuracy"])]
    assert best_koc < 0.75 * svm["n_support"][np.argmax(svm["accuracy"])]
    # and far fewer wherever the kernel is not too wide
    small = res.values <= 10.0
    assert np.all(koc["n_support"][small] < svm["n_support"][small])
    assert koc["n_support"][small].mean() < 0.5 * svm["n_support"][small].mean()
