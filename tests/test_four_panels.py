"""Four panels everywhere a picture's panels are counted: presets, sessions and their schema, the
figure (a 2 × 2 grid on a slide, one row where two rows leave no room), gallery thumbnails; the
fraction of zero coefficients stated for a dense expansion when the expansion points are drawn.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtGui import QImage

from kfdviz import presets
from kfdviz.figure import paint
from kfdviz.figure.export import render_image
from kfdviz.figure.plan import describe_measures, describe_zeros
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.preset_catalog import MAX_PANELS, DataSpec, PanelSpec, Preset
from kfdviz.render import compute, figure_plan
from kfdviz.session import (
    SessionError,
    check_state,
    load_session,
    loads_session,
    save_session,
    state_from_preset,
)

KFD = {"kernel": "rbf", "width": 1.0, "mu": 1e-3}


@pytest.fixture(scope="module")
def sparsity():
    return compute(state_from_preset("kfd-sparsity"))


def test_a_preset_holds_one_to_four_panels():
    assert MAX_PANELS == 4
    data = DataSpec("moons", {"n_samples": 40})
    four = Preset("t", "t", "t", data, tuple(PanelSpec("kfd", KFD) for _ in range(4)), "compare")
    assert len(four.panels) == 4
    with pytest.raises(ValueError, match="one to 4 panels, got 5"):
        Preset("t", "t", "t", data, tuple(PanelSpec("kfd", KFD) for _ in range(5)), "compare")


def test_a_four_panel_session_round_trips_and_a_fifth_panel_is_refused(tmp_path):
    state = state_from_preset("kfd-sparsity")
    assert len(state.panels) == 4
    path = save_session(tmp_path / "four.kfdviz", state)
    loaded = load_session(path)
    assert loaded.panels == state.panels and loaded.layout == "compare"

    doc = json.loads(path.read_text(encoding="utf-8"))
    five = copy.deepcopy(doc)
    five["panels"].append(copy.deepcopy(doc["panels"][1]))
    with pytest.raises(SessionError) as caught:
        loads_session(json.dumps(five), path="five.kfdviz")
    message = str(caught.value)
    assert message.startswith("five.kfdviz: panels") and "has 5 panels; allowed: 1 to 4" in message
    with pytest.raises(SessionError, match="one to 4 panels, this one 5"):
        check_state(replace(state, panels=(*state.panels, state.panels[0])))


def test_zero_fraction_of_a_dense_expansion_is_stated_when_its_points_are_drawn():
    state = state_from_preset("default")
    r = run_fit(FitRequest("kfd", dict(KFD), state.X, state.y))
    # the plain KFD expands in every training point
    assert r.sparsity == 0.0 and len(r.expansion_points) == r.n_train
    assert describe_zeros(r) == ""
    assert describe_zeros(r, always=True) == "zero coefficients 0 %"
    assert "zero coefficients" not in describe_measures(r)
    assert describe_measures(r, zeros=True).endswith("zero coefficients 0 %")


def _plot_sides(geometry) -> list[float]:
    return [min(g.plot.width(), g.plot.height()) for g in geometry.panels if g.plot is not None]


def test_four_maps_make_a_grid_on_a_slide_and_a_row_at_a_paper_column(sparsity):
    plan = figure_plan(sparsity)
    assert [p.kind for p in plan.panels] == ["input"] * 4
    assert paint.arrangement(plan) == (2, 2)
    # on a slide, two rows of two
    _, slide = render_image(plan, (1600, 1000), 150)
    assert len({round(g.cell.top()) for g in slide.panels}) == 2
    # at a paper column, two rows would leave the plots no height under their headers: one row
    assert paint.roomiest_arrangement(plan, 1050, 700, 300) == (1, 4)
    _, column = render_image(plan, (1050, 700), 300)
    assert len({round(g.cell.top()) for g in column.panels}) == 1
    # inches at 300 dpi; with no text under 6.5 pt, four maps drawn as fitted (not refitted
    # to their rooms) keep about 0.2 in (test_figure_paper_size lists the crowded presets)
    assert min(_plot_sides(column)) >= 0.18 * 300
    # measured: the grid's plots there would have had no height at all
    assert paint._smallest_plot(plan, 1050, 700, 300, (2, 2)) < min(_plot_sides(column))
    # an arrangement asked for is kept
    plan.settings["arrangement"] = "grid"
    try:
        assert paint.roomiest_arrangement(plan, 1050, 700, 300) == (2, 2)
    finally:
        plan.settings.pop("arrangement")


def test_the_figure_states_every_panels_zero_fraction(sparsity):
    plan = figure_plan(sparsity)
    for panel, r in zip(plan.panels, sparsity.results, strict=True):
        assert panel.measures.endswith(f"zero coefficients {100 * r.sparsity:.0f} %")
    assert plan.panels[1].title == "KFD" and plan.panels[1].measures.endswith(" 0 %")


def test_the_gallery_thumbnail_of_four_panels(tmp_path):
    from kfdviz.app.gallery import RENDER_SIZE, render_thumbnail

    path = render_thumbnail("kfd-sparsity", tmp_path / "kfd-sparsity.png")
    image = QImage(str(path))
    assert (image.width(), image.height()) == RENDER_SIZE
    # not blank: the four maps' colours are there
    ptr = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = ptr.width(), ptr.height()
    pixels = np.frombuffer(ptr.constBits(), np.uint8).reshape(h, ptr.bytesPerLine())[:, : 3 * w]
    assert pixels.std() > 20
    assert presets.get("kfd-sparsity").panels[1].algorithm == "kfd"
