"""A live fit of a mathematical program on a thousand points and more asks before it starts: its
solve takes many seconds (docs/performance.md), and the cost banner says so. Driven like a user,
with the real window and the real fit thread."""

from __future__ import annotations

import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle

from kfdviz.estimators import registry

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]


def _choose(w, qtbot, algorithm: str) -> None:
    combo = w.workspace.algorithm_panel.combo
    combo.setCurrentIndex(combo.findData(algorithm))
    wait_idle(qtbot, w)
    assert w.pictures.main_slot.result.algorithm == algorithm


def _generate(w, name: str, n: int) -> None:
    panel = w.workspace.data_panel
    panel.generator.setCurrentIndex(panel.generator.findData(name))
    panel.n_samples.setValue(n)
    panel.generate.click()


def test_a_live_sparse_kfd_fit_of_1200_points_asks_first(window, qtbot):
    w = window
    assert w.fit.live
    _choose(w, qtbot, "kfd-sparse")  # on the small default data: fitted at once
    before = w.pictures.main_slot.result
    fitted = []
    w.fit.worker.outcome.connect(fitted.append)
    banner = w.fit.large_data.banner
    assert not banner.isVisible()

    _generate(w, "moons", 1200)
    qtbot.waitUntil(banner.isVisible, timeout=10_000)
    qtbot.wait(300)  # longer than the live fit's debounce: still nothing fitted
    assert fitted == [] and not w.fit.worker.is_busy()
    assert w.pictures.main_slot.result is before
    estimate = w.fit.large_data.last_estimate
    n_train = int((~w.data.test_mask()).sum())
    assert w.data.n == 1200 and estimate.n == n_train and estimate.large
    text = banner.label.text()
    assert f"{n_train:,} training points" in text
    assert registry.get("kfd-sparse").title in text
    # The subset it offers is predicted to be quick, and training on it fits at once.
    centers = banner.centers
    assert 10 <= centers < n_train and banner.subset_button.isVisible()
    banner.subset_button.click()
    assert not banner.isVisible()
    wait_idle(qtbot, w, timeout=120_000)
    result = w.pictures.main_slot.result
    assert result is not before and result.algorithm == "kfd-sparse"
    assert result.params["n_centers"] == centers and result.X.shape[0] == 1200


def test_a_small_live_sparse_kfd_fit_does_not_ask(window, qtbot):
    w = window
    _choose(w, qtbot, "kfd-sparse")
    _generate(w, "moons", 150)
    wait_idle(qtbot, w, timeout=60_000)
    assert not w.fit.large_data.banner.isVisible()
    assert w.pictures.main_slot.result.X.shape[0] == 150
