"""Drafts while the hand moves, the exact picture when it rests (app/drafts.py).

On data where the exact KFD fit is slow, dragging a point draws drafts (the expansion over a
few hundred centres), each marked with the "draft" badge and refused by the export; when the
drag ends the exact fit replaces the draft, and its picture equals a cold fit's.
"""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle
from PySide6.QtCore import Qt

from kfdviz import session
from kfdviz.app import live_refit
from kfdviz.bench.numeric import two_class_data
from kfdviz.core import fit_cache, incremental, mu_path
from kfdviz.pipeline import FitRequest, GridSpec, reuse
from kfdviz.pipeline.drafts import DRAFT_CENTERS, DRAFT_FROM
from kfdviz.pipeline.run import run_fit

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

N_POINTS = DRAFT_FROM + 100
PARAMS = {"kernel": "rbf", "width": 1.0, "mu": 1e-2, "threshold": "prior"}


@pytest.fixture
def large(window, qtbot, monkeypatch):
    # Every fit counts as slow, whatever this machine's speed: the drafts' regime.
    monkeypatch.setattr(live_refit, "QUICK_FIT_SECONDS", 0.0)
    X, y = two_class_data(N_POINTS, seed=3)
    state = session.SessionState(
        X=X,
        y=y,
        test_mask=np.zeros(len(X), bool),
        panels=(session.PanelState("kfd", dict(PARAMS)),),
        view_settings={"resolution": 60},
        title="drafts",
    )
    window.apply_session(state)
    wait_idle(qtbot, window)
    assert window.pictures.main_slot.result.approximation is None
    return window


def _cold(result):
    """The same fit computed from nothing: no cached terms, reductions or estimators."""
    fit_cache.FIT_CACHE.clear()
    incremental.forget()
    mu_path.forget()
    reuse.forget()
    return run_fit(
        FitRequest(
            algorithm="kfd",
            params=dict(result.params),
            X=result.X,
            y=result.y,
            test_mask=result.test_mask,
            grid=GridSpec(resolution=60, box=result.grid.box),
        )
    )


def test_a_drag_draws_marked_drafts_then_the_exact_fit(large, qtbot, tmp_path):
    w = large
    badge = w.fit.live_refit.drafts.badge
    w.canvas.set_tool("move")
    view = w.workspace.input_view
    X = w.data.X()
    i = int(np.argmin(((X - X.mean(axis=0)) ** 2).sum(axis=1)))
    x0, y0 = X[i]
    seen = []  # (result, badge shown when it was drawn, export refused then)

    def on_drawn(result):
        refused = None
        if result.approximation is not None:
            out = tmp_path / f"draft-{len(seen)}.png"
            refused = not w.exporter.export_figure_to(out) and not out.exists()
        seen.append((result, badge.isVisible(), refused))

    w.fit_drawn.connect(on_drawn)
    vp = view.plot.viewport()
    left, plain = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    qtbot.mousePress(vp, left, plain, view.data_to_widget(x0, y0))
    for k in range(1, 16):
        qtbot.mouseMove(vp, view.data_to_widget(x0 + 0.03 * k, y0 + 0.015 * k))
        qtbot.wait(40)
    qtbot.waitUntil(lambda: any(r.approximation for r, *_ in seen), timeout=30_000)
    qtbot.mouseRelease(vp, left, plain, view.data_to_widget(x0 + 0.45, y0 + 0.225))
    wait_idle(qtbot, w)
    w.fit_drawn.disconnect(on_drawn)

    drafts = [(r, shown, refused) for r, shown, refused in seen if r.approximation]
    assert drafts, "the drag drew drafts"
    for r, shown, refused in drafts:
        assert shown, "a draft is marked on the picture"
        assert refused, "a draft is never exported"
        assert r.diagnostics["draft"] == r.approximation
        assert f"{DRAFT_CENTERS} of the {N_POINTS}" in r.approximation
        assert r.n_expansion_total == DRAFT_CENTERS
    assert badge.accessibleName() == badge.text() == "draft"

    final = w.pictures.main_slot.result
    assert final.approximation is None and not badge.isVisible()
    assert w.is_settled()
    assert np.allclose(final.X[i], w.data.X()[i]) and not np.allclose(final.X[i], (x0, y0))
    assert final.n_expansion_total == N_POINTS
    out = tmp_path / "exact.png"
    assert w.exporter.export_figure_to(out) and out.exists()

    cold = _cold(final)
    scale = float(np.ptp(cold.outputs))
    # The window's exact fit updated the terms of the moved point (core/incremental.py): equal
    # to the cold fit up to round-off amplified by the condition number of N + mu I.
    tol = 1e3 * float(cold.diagnostics["condition"]) * np.finfo(float).eps * scale
    np.testing.assert_allclose(final.outputs, cold.outputs, rtol=0, atol=tol)
    np.testing.assert_allclose(final.grid.values, cold.grid.values, rtol=0, atol=tol)
    assert final.threshold == pytest.approx(cold.threshold, abs=tol)


def test_a_slider_step_draws_a_draft_and_the_exact_fit_replaces_it(large, qtbot):
    w = large
    width = w.workspace.algorithm_panel.widget("width")
    seen = []
    w.fit_drawn.connect(seen.append)
    width.slider.setValue(width.slider.value() + 40)
    wait_idle(qtbot, w)
    w.fit_drawn.disconnect(seen.append)
    assert [r.approximation is not None for r in seen][-1] is False
    assert any(r.approximation for r in seen), "the step was drawn from a draft first"
    final = w.pictures.main_slot.result
    assert final.params["width"] == pytest.approx(width.value())
    cold = _cold(final)
    scale = float(np.ptp(cold.outputs))
    tol = 1e3 * float(cold.diagnostics["condition"]) * np.finfo(float).eps * scale
    np.testing.assert_allclose(final.grid.values, cold.grid.values, rtol=0, atol=tol)
