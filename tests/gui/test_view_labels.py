"""What the plots' labels say: colour bar values, histogram legends and axes, level-set labels
above the points."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.figure.axes import tick_label
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.views import InputSpaceView, OutputsView

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def moons():
    return datasets.make("moons", n_samples=120, noise=0.15, seed=0)


def _shown_view(qtbot, result, X, y, size=(600, 900)):
    view = InputSpaceView()
    qtbot.addWidget(view)
    view.resize(*size)
    view.set_points(X, y, np.zeros(len(X), bool))
    view.set_result(result)
    view.show()
    qtbot.waitExposed(view)
    return view


@pytest.mark.parametrize("algorithm", ["kfd-lp", "kfd", "novelty"])
def test_colour_bar_has_a_few_round_labels_spanning_its_range(qtbot, moons, algorithm):
    X, y = moons
    r = run_fit(FitRequest(algorithm, {"width": 0.5}, X, y))
    view = _shown_view(qtbot, r, X, y)  # a tall bar: pyqtgraph's own ticks crowded it
    (major, minor) = view.colorbar.axis._tickLevels
    values = np.array([v for v, _ in major])
    lo, hi = sorted(r.grid.color_range)
    assert 3 <= len(values) <= 8 and not minor
    assert np.all((values >= lo - 1e-12) & (values <= hi + 1e-12))
    # Evenly spaced, and spread over the bar rather than bunched at one end.
    assert np.allclose(np.diff(values), np.diff(values)[0])
    assert values[-1] - values[0] >= 0.5 * (hi - lo)
    labels = [text for _, text in major]
    assert len(set(labels)) == len(labels)


def test_level_labels_are_drawn_over_the_points(qtbot, moons):
    X, y = moons
    view = _shown_view(qtbot, run_fit(FitRequest("kfd", {"width": 0.5}, X, y)), X, y)
    assert view.contour_labels
    top_marker = max(item.zValue() for item in view._scatters.values())
    assert all(label.zValue() > top_marker for label in view.contour_labels)


def _legend_entries(view: OutputsView) -> list[str]:
    import re

    text = re.sub(r"<[^>]+>", "", view._legend_html).replace("&nbsp;", " ")
    return [e.strip() for e in re.split(r"[■▭]", text) if e.strip()]


def test_novelty_histogram_lists_all_points_once(qtbot, moons):
    X, _ = moons
    r = run_fit(FitRequest("novelty", {"width": 0.5}, X, np.zeros(len(X), int)))
    view = OutputsView()
    qtbot.addWidget(view)
    view.set_result(r)
    assert _legend_entries(view) == ["all points"]


def test_novelty_histogram_names_the_labelled_classes(qtbot, moons):
    X, y = moons
    r = run_fit(FitRequest("novelty", {"width": 0.5}, X, y))
    view = OutputsView()
    qtbot.addWidget(view)
    view.set_result(r)
    assert _legend_entries(view) == ["class 1", "class 2"]


def test_histogram_axes_keep_the_outputs_units(qtbot, moons):
    X, _ = moons
    r = run_fit(FitRequest("novelty", {"width": 0.5}, X, np.zeros(len(X), int)))
    view = OutputsView()
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.set_result(r)
    view.show()
    qtbot.waitExposed(view)
    for name in ("left", "bottom"):
        axis = view.hist_plot.getPlotItem().getAxis(name)
        assert axis.autoSIPrefixScale == 1.0
        assert "x0" not in axis.labelString() and "×" not in axis.labelString()


@pytest.mark.parametrize(
    "value, step, text",
    [(-0.2, 0.05, "−0.20"), (0.05, 0.05, "0.05"), (0.125, 0.025, "0.125"), (2.0, 1.0, "2")],
)
def test_tick_labels_have_the_step_s_digits(value, step, text):
    assert tick_label(value, step) == text
