"""A large data set: the window shows the predicted cost before any fit and offers a subset."""

from __future__ import annotations

import numpy as np
import pytest
from gui_helpers import OFFSCREEN_NOISE, wait_idle

from kfdviz import datasets

pytestmark = [pytest.mark.gui, pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)]

N = 20_000


@pytest.fixture
def big_file(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], N // 2)
    X = rng.normal(size=(N, 2)) + np.where(y[:, None] == 1, 1.5, -1.5)
    path = tmp_path / "big.npz"
    datasets.save(str(path), X, y)
    return path


def _load(w, qtbot, path):
    fitted = []
    w.fit.worker.outcome.connect(lambda o: fitted.append(o))
    assert w.load_file(str(path))
    qtbot.waitUntil(w.fit.large_data.banner.isVisible, timeout=10_000)
    qtbot.wait(300)  # longer than the debounce: still nothing fitted
    assert fitted == [] and not w.fit.worker.is_busy()
    return fitted


def test_a_large_data_set_asks_before_the_first_fit_and_trains_on_a_subset(window, qtbot, big_file):
    w = window
    before = w.pictures.main_slot.result
    fitted = _load(w, qtbot, big_file)
    banner = w.fit.large_data.banner
    assert w.data.n == N
    n_train = int((~w.data.test_mask()).sum())  # the window's split holds some out
    assert f"{n_train:,} training points" in banner.label.text()
    assert "GB" in banner.label.text() or " s " in banner.label.text()
    assert w.fit.large_data.last_estimate.large
    assert w.pictures.main_slot.result is before, "nothing was fitted on the new data"
    assert banner.subset_button.isVisible() and banner.fit_button.isVisible()
    centers = banner.centers
    assert 10 <= centers <= 2000 and f"{centers} centers" in banner.subset_button.text()

    banner.subset_button.click()
    assert not banner.isVisible()
    wait_idle(qtbot, w, timeout=120_000)
    r = w.pictures.main_slot.result
    assert r is not before and r.X.shape[0] == N
    assert r.params["n_centers"] == centers and r.n_expansion_total == centers
    assert w.workspace.algorithm_panel.widget("n_centers").value() == centers
    assert len(fitted) >= 1

    # Choosing the subset is one step of the history, named, and undone as a whole.
    assert w.action_table["undo"].text() == f"Undo Train on a subset of {centers:,} centers"
    w.action_table["undo"].trigger()
    assert w.pictures.main_slot.params.get("n_centers") != centers


def test_fit_anyway_fits_as_asked_and_edits_do_not_ask_again(window, qtbot, big_file, monkeypatch):
    w = window
    _load(w, qtbot, big_file)
    # Asking again with the same choice pending does nothing new.
    w.request_fit(now=True)
    assert w.fit.large_data.banner.isVisible() and not w.fit.worker.is_busy()
    # Choosing fewer centers in the panel ends the question by itself.
    widget = w.workspace.algorithm_panel.widget("n_centers")
    widget.set_value(50)
    widget.changed.emit()
    wait_idle(qtbot, w, timeout=120_000)
    assert not w.fit.large_data.banner.isVisible()
    assert w.pictures.main_slot.result.params["n_centers"] == 50
    # All points again: asked again; "Fit anyway" fits as asked (the fit over 20 000 centers
    # is not run here: the requests are caught) and approves this data set.
    submitted = []
    monkeypatch.setattr(
        w.fit.worker, "submit", lambda request, **_options: submitted.append(request) or 0
    )
    widget.set_value(None)
    widget.changed.emit()
    qtbot.waitUntil(w.fit.large_data.banner.isVisible, timeout=10_000)
    assert submitted == []
    w.fit.large_data.banner.fit_button.click()
    assert w.fit.large_data.approved and not w.fit.large_data.banner.isVisible()
    assert len(submitted) == 1 and submitted[0].params.get("n_centers") is None
    assert submitted[0].X.shape[0] == N
    # Edits of the approved data set do not ask again; another data set does.
    w.data.move(0, 0.0, 0.0)
    qtbot.waitUntil(lambda: len(submitted) == 2, timeout=10_000)
    assert not w.fit.large_data.banner.isVisible()
    assert w.load_file(str(big_file))
    qtbot.waitUntil(w.fit.large_data.banner.isVisible, timeout=10_000)
    assert len(submitted) == 2


def test_a_small_data_set_is_fitted_without_asking(window, qtbot, tmp_path):
    w = window
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "small.csv"
    datasets.save(str(path), X, y)
    assert w.load_file(str(path))
    wait_idle(qtbot, w)
    assert not w.fit.large_data.banner.isVisible()
    assert w.pictures.main_slot.result.X.shape[0] == 300
