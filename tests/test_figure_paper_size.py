"""Figures at a paper column's size (3.5 x 2.33 in at 300 dpi): whole and legible.

Every text the painter draws is recorded with its box, so these tests check what a reader sees:
nothing cut with an ellipsis, nothing outside the figure, no two texts on top of each other,
and text no smaller than the painter's minimum.
"""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QRectF

from kfdviz import presets, session
from kfdviz.figure import canvas, paint
from kfdviz.figure.export import render_image
from kfdviz.render import compute, figure_plan

pytestmark = pytest.mark.slow

COLUMN = (1050, 700)  # 3.5 x 2.33 in
DPI = 300


@pytest.fixture(scope="module")
def plans():
    return {name: figure_plan(compute(session.state_from_preset(name))) for name in presets.names()}


@pytest.fixture
def drawn(monkeypatch):
    """The canvases painted during a test, to read their recorded texts."""
    canvases = []
    init = canvas._Canvas.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        canvases.append(self)

    monkeypatch.setattr(canvas._Canvas, "__init__", recording)
    return canvases


def _inset(box: QRectF) -> QRectF:
    return box.adjusted(1, 1, -1, -1)  # antialiased edges may touch


@pytest.mark.parametrize("titles", [True, False])
def test_every_preset_is_whole_at_a_paper_column(plans, drawn, titles):
    figure = QRectF(0, 0, *COLUMN)
    for name, plan in plans.items():
        plan.settings["show_titles"] = titles
        drawn.clear()
        render_image(plan, COLUMN, DPI)
        texts = drawn[-1].drawn_texts
        assert texts, name
        cut = [t for t, _ in texts if "…" in t]
        assert not cut, f"{name}: cut texts {cut}"
        outside = [t for t, box in texts if not figure.contains(_inset(box))]
        assert not outside, f"{name}: texts outside the figure {outside}"
        touching = [
            (a, b)
            for (a, ba), (b, bb) in itertools.combinations(texts, 2)
            if _inset(ba).intersects(_inset(bb))
        ]
        assert not touching, f"{name}: overlapping texts {touching[:5]}"
        whole = " ".join(t for t, _ in texts)
        if titles and plan.title:
            assert plan.title.split()[0] in whole


def test_every_plot_has_room_at_a_paper_column(plans):
    """No panel's headers and axes take all of its cell: every plot keeps a width and a height
    (four maps in two rows once had none; the arrangement then falls back to one row)."""
    for name, plan in plans.items():
        plan.settings["show_titles"] = True
        _, geometry = render_image(plan, COLUMN, DPI)
        plots = [g.plot for g in geometry.panels if g.plot is not None]
        assert all(p.width() > 0 and p.height() > 0 for p in plots), (name, plots)


def test_text_is_set_at_least_at_the_minimum_size(plans, drawn):
    plan = plans["kfd-vs-kpca"]
    drawn.clear()
    render_image(plan, COLUMN, DPI)
    painted = drawn[-1]
    smallest_pt = min(box.height() for _, box in painted.drawn_texts) / (DPI / 72.0)
    # A box is ascent + descent: about 1.1 times the font size.
    assert smallest_pt >= 0.9 * canvas.MIN_TEXT_PT * 0.85


def test_titles_can_be_left_out(plans, drawn):
    plan = plans["kfd-vs-kpca"]
    plan.settings["show_titles"] = False
    drawn.clear()
    render_image(plan, COLUMN, DPI)
    texts = {t for t, _ in drawn[-1].drawn_texts}
    assert "KPCA feature 1" not in texts and not any("Mika" in t for t in texts)
    plan.settings["show_titles"] = True


def test_a_row_of_input_pictures_shares_one_y_axis(plans, drawn):
    plan = plans["kfd-vs-kpca"]
    plan.settings["show_titles"] = True
    drawn.clear()
    _, geometry = render_image(plan, COLUMN, DPI)
    plots = [g.plot for g in geometry.panels if g.kind == "input"]
    assert len(plots) == 3
    # One y title, and the plots are the same size.
    ys = [t for t, _ in drawn[-1].drawn_texts if t == "x₂"]
    assert len(ys) == 1
    assert max(p.width() for p in plots) - min(p.width() for p in plots) < 2
    assert max(p.height() for p in plots) - min(p.height() for p in plots) < 2


@pytest.mark.parametrize("choice, shape", [("row", (1, 3)), ("column", (3, 1)), ("grid", (2, 2))])
def test_panels_can_be_arranged(plans, choice, shape):
    plan = plans["kfd-vs-kpca"]
    plan.settings["arrangement"] = choice
    try:
        assert paint.arrangement(plan) == shape
        _, geometry = render_image(plan, (1600, 1600), 150)
        tops = sorted({round(g.cell.top()) for g in geometry.panels})
        assert len(tops) == shape[0]
    finally:
        plan.settings.pop("arrangement")


def test_a_slide_keeps_the_nominal_sizes():
    assert canvas.type_scale(10.7, 6.0) == 1.0
    assert canvas.font_points(12.5, 1.0) == 12.5
    small = canvas.type_scale(3.5, 2.33)
    assert small < 0.5
    # Larger roles stay larger than smaller ones at any scale.
    assert (
        canvas.font_points(12.5, small)
        > canvas.font_points(10.5, small)
        > canvas.font_points(7.5, small)
    )


def test_render_writes_one_file_per_panel(tmp_path, capsys):
    from PySide6.QtGui import QImage

    from kfdviz.cli import main

    out = tmp_path / "fig.png"
    code = main(
        [
            "render",
            "--preset",
            "kfd-vs-kpca",
            "--out",
            str(out),
            "--size",
            "1050x700",
            "--dpi",
            "300",
            "--panels-separately",
            "--no-titles",
        ]
    )
    assert code == 0
    written = [tmp_path / f"fig-{i}.png" for i in (1, 2, 3)]
    assert capsys.readouterr().out.split() == [str(p) for p in written]
    for path in written:
        image = QImage(str(path))
        assert (image.width(), image.height()) == (1050, 700)
    assert not out.exists()


def test_render_refuses_an_unknown_figure_option(tmp_path):
    from kfdviz import render

    state = session.state_from_preset("default")
    with pytest.raises(ValueError, match="arrangement"):
        render.render_state(state, tmp_path / "x.png", figure_options={"arrangement": "spiral"})
    with pytest.raises(ValueError, match="unknown figure option"):
        render.render_state(state, tmp_path / "x.png", figure_options={"colour": "red"})
