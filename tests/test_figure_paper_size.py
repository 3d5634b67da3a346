"""Figures at a paper column's size (3.5 x 2.33 in at 300 dpi): whole and legible.

Every text the painter draws is recorded with its box, so these tests check what a reader sees:
nothing cut with an ellipsis, nothing outside the figure, no two texts on top of each other,
and text no smaller than the painter's minimum.
"""

from __future__ import annotations

import itertools
import re
from xml.etree import ElementTree

import pytest
from PySide6.QtCore import QRectF

from kfdviz import presets, render, session
from kfdviz.figure import canvas, paint
from kfdviz.figure.export import render_image
from kfdviz.figure.plan import NOMINAL_IN, TITLES, default_titles
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


@pytest.mark.parametrize("titles", TITLES)
def test_every_preset_is_whole_at_a_paper_column(plans, drawn, titles):
    figure = QRectF(0, 0, *COLUMN)
    for name, plan in plans.items():
        if name == "kfd-losses" and titles == "all":
            continue  # no room for its plots at 6.5 pt (test_every_plot_has_room_...)
        plan.settings["titles"] = titles
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
        if titles == "all" and plan.title:
            assert plan.title.split()[0] in whole
        plan.settings["titles"] = "all"


def test_every_plot_has_room_at_a_paper_column(plans):
    """No panel's headers and axes take all of its cell: every plot keeps a width and a height
    (four maps in two rows once had none; the arrangement then falls back to one row). With the
    figure's title too, kfd-losses has no room left at 6.5 pt: a paper's caption takes that
    title (the column's default titles are the panels')."""
    for name, plan in plans.items():
        plan.settings["titles"] = "panels" if name == "kfd-losses" else "all"
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

    def texts(titles: str) -> set[str]:
        plan.settings["titles"] = titles
        drawn.clear()
        render_image(plan, COLUMN, DPI)
        return {t for t, _ in drawn[-1].drawn_texts}

    try:
        assert "KPCA feature 1" in texts("all") and any("Mika" in t for t in texts("all"))
        panels = texts("panels")
        assert "KPCA feature 1" in panels and not any("Mika" in t for t in panels)
        none = texts("none")
        assert "KPCA feature 1" not in none and not any("Mika" in t for t in none)
        # the parameters stay: they are not titles
        assert any("μ = 0.001" in t for t in none)
    finally:
        plan.settings["titles"] = "all"


def test_a_figure_narrower_than_a_slide_starts_with_the_panels_titles():
    assert default_titles(3.5) == "panels" and default_titles(7.0) == "panels"
    assert default_titles(NOMINAL_IN[0]) == "all" and default_titles(1600 / 150) == "all"
    state = session.state_from_preset("kfd-vs-kpca")
    computed = compute(state)
    assert render.fitted_plan(computed, COLUMN, DPI).settings["titles"] == "panels"
    assert render.fitted_plan(computed, (1600, 900), 150).settings["titles"] == "all"
    assert render.fitted_plan(computed).settings["titles"] == "all"
    with pytest.raises(ValueError, match="titles"):
        render.fitted_plan(computed, COLUMN, DPI, {"titles": "some"})


def test_a_row_of_input_pictures_shares_one_y_axis(plans, drawn):
    plan = plans["kfd-vs-kpca"]
    plan.settings["titles"] = "all"
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


# -- three maps in a row fill the column -------------------------------------------------------------
def _three_map_presets() -> list[str]:
    """The presets whose figure is three feature maps over the input plane, side by side."""
    names = []
    for name in presets.names():
        state = session.state_from_preset(name)
        if (
            len(state.panels) == 3
            and state.view == "input"
            and state.X.shape[1] == 2
            and not state.regression
            and not state.view_settings.get("charts")
        ):
            names.append(name)
    return names


THREE_MAPS = _three_map_presets()


def test_the_three_map_presets_are_found():
    assert {"kfd-vs-kpca", "okpca-invariance", "novelty-width-sweep"} <= set(THREE_MAPS)


@pytest.fixture(scope="module")
def three_maps():
    return {name: compute(session.state_from_preset(name)) for name in THREE_MAPS}


@pytest.mark.parametrize("name", THREE_MAPS)
def test_three_maps_cover_a_quarter_of_a_paper_column(three_maps, name):
    """With the titles a paper column starts with (the panels', the caption takes the
    figure's), the maps' drawn boxes cover at least 24 % of the figure (the text, at 6.5 pt or
    more, takes the rest), and every point is inside its map."""
    computed = three_maps[name]
    plan = render.fitted_plan(computed, COLUMN, DPI)
    _, geometry = render_image(plan, COLUMN, DPI)
    maps = [(p, g) for p, g in zip(plan.panels, geometry.panels, strict=True) if g.kind == "input"]
    assert len(maps) == 3
    drawn = sum(g.plot.width() * g.plot.height() for _, g in maps)
    assert drawn >= 0.24 * COLUMN[0] * COLUMN[1], f"{name}: {drawn / (COLUMN[0] * COLUMN[1]):.3f}"
    X = computed.state.X
    for panel, g in maps:
        u, v = g.transform.px(X[:, 0], X[:, 1])
        plot = g.plot
        assert u.min() >= plot.left() and u.max() <= plot.right(), name
        assert v.min() >= plot.top() and v.max() <= plot.bottom(), name
        # The drawn box is part of the grid's box (the image covers it).
        t = g.transform
        bx0, bx1, by0, by1 = panel.result.grid.box
        assert bx0 <= t.x0 < t.x1 <= bx1 and by0 <= t.y0 < t.y1 <= by1, name


@pytest.mark.parametrize("titles", TITLES)
def test_exported_maps_fill_their_rooms(three_maps, titles):
    """The export fits the maps' box to the room the layout gives them: the drawn box is the
    whole room, not a smaller box of the data's shape inside it; the data's box is extended,
    never cut."""
    from kfdviz.pipeline import data_box

    for name, computed in three_maps.items():
        plan = render.fitted_plan(computed, COLUMN, DPI, {"titles": titles})
        _, geometry = render_image(plan, COLUMN, DPI)
        state = computed.state
        x0, x1, y0, y1 = data_box(state.X, float(state.setting("padding")))
        for panel, g in zip(plan.panels, geometry.panels, strict=True):
            room, plot = g.free_room, g.plot
            assert room is not None
            assert plot.width() * plot.height() >= 0.97 * room.width() * room.height(), name
            bx0, bx1, by0, by1 = panel.result.grid.box
            assert bx0 <= x0 and bx1 >= x1 and by0 <= y0 and by1 >= y1, name
            # Extended along one side only: the other is the data's.
            assert min(abs((bx1 - bx0) - (x1 - x0)), abs((by1 - by0) - (y1 - y0))) < 1e-9 * max(
                x1 - x0, y1 - y0
            )


def test_a_box_is_extended_to_a_shape_about_its_centre():
    box = (0.0, 2.0, -1.0, 0.0)  # 2 wide, 1 high
    wide = render.box_for_aspect(box, 4.0)
    assert wide == pytest.approx((-1.0, 3.0, -1.0, 0.0))
    tall = render.box_for_aspect(box, 0.5)
    assert tall == pytest.approx((0.0, 2.0, -2.5, 1.5))
    assert render.box_for_aspect(box, 2.0) == pytest.approx(box)
    with pytest.raises(ValueError, match="aspect"):
        render.box_for_aspect(box, 0.0)


def test_a_box_wider_than_its_room_is_cut_to_the_room_not_into_the_data(three_maps):
    """Results fitted over a box of another shape (the window's view) still fill the room of
    an export as far as the data allow: the box is cut toward the room's shape, keeping the
    data's box whole."""
    from kfdviz.pipeline import data_box

    computed = three_maps["kfd-vs-kpca"]
    state = computed.state
    keep = data_box(state.X, float(state.setting("padding")))
    wide = compute(state, box=render.box_for_aspect(keep, 4.0))
    plan = figure_plan(wide)
    plan.settings["titles"] = "none"
    _, geometry = render_image(plan, COLUMN, DPI)
    for panel, g in zip(plan.panels, geometry.panels, strict=True):
        t, room, plot = g.transform, g.room, g.plot
        assert plot.width() * plot.height() >= 0.97 * room.width() * room.height()
        bx0, bx1, by0, by1 = panel.result.grid.box
        assert bx0 <= t.x0 and t.x1 <= bx1 and (t.y0, t.y1) == (by0, by1)
        assert t.x1 - t.x0 < 0.5 * (bx1 - bx0)  # cut
        assert t.x0 <= keep[0] and t.x1 >= keep[1] and t.y0 <= keep[2] and t.y1 >= keep[3]


@pytest.mark.parametrize(
    "box, keep, aspect, shown",
    [
        ((0, 8, 0, 2), (3, 5, 0, 2), 2.0, (2, 6, 0, 2)),  # cut to the shape about the data
        ((0, 8, 0, 2), (0, 2, 0, 2), 2.0, (0, 4, 0, 2)),  # ... kept inside the box
        ((0, 8, 0, 2), (1, 7, 0, 2), 2.0, (1, 7, 0, 2)),  # never into the data
        ((0, 2, 0, 8), (0, 2, 5, 7), 0.5, (0, 2, 4, 8)),  # too tall: cut along y
        ((0, 2, 0, 2), (0, 2, 0, 2), 3.0, (0, 2, 0, 2)),  # too narrow already: as it is
    ],
)
def test_the_shown_box(box, keep, aspect, shown):
    from kfdviz.figure.paint_input import shown_box

    assert shown_box(box, keep, aspect) == pytest.approx(shown)


# -- every preset as written: print-size text, plots with room, curves inside their axes ----------
# A paper's column (3.5 in) and its full width (7 in) at 300 dpi; an SVG unit is a pixel.
PRINT_SIZES = {"column": COLUMN, "double": (2100, 1400)}
MIN_PRINT_PT = 6.5
NUMBER_PAIR = re.compile(r"(-?[\d.]+(?:e-?\d+)?),(-?[\d.]+(?:e-?\d+)?)")


@pytest.fixture(scope="module", params=sorted(PRINT_SIZES))
def written(request, tmp_path_factory):
    """Every preset rendered once to SVG at one print size: name -> (size name, the SVG's
    root element, the painter's geometry)."""
    folder = tmp_path_factory.mktemp(request.param)
    out = {}
    for name in presets.names():
        path = folder / f"{name}.svg"
        state = session.state_from_preset(name)
        _, geometry = render.render_state(state, path, size=PRINT_SIZES[request.param], dpi=DPI)
        out[name] = (request.param, ElementTree.parse(path).getroot(), geometry)
    return out


def _svg_texts(root) -> list[tuple[str, float]]:
    return [
        ("".join(e.itertext()).strip(), float(e.get("font-size")))
        for e in root.iter()
        if e.tag.endswith("}text") or e.tag == "text"
    ]


def _svg_polylines(root) -> list[list[tuple[float, float]]]:
    """The SVG's open paths of straight lines (curves, level sets, axes; not the markers,
    which are closed or round), as their vertices in pixels. The painter's paths carry no
    transform of their own (checked: every group is an identity or a translation of text)."""
    lines = []
    for e in root.iter():
        if not e.tag.endswith("path"):
            continue
        d = e.get("d", "")
        if any(k in d for k in "CcZzQqAa"):
            continue
        points = [(float(a), float(b)) for a, b in NUMBER_PAIR.findall(d)]
        if len(points) >= 2:
            lines.append(points)
    return lines


def test_every_text_is_print_size(written):
    """Tick labels, legends, axis titles, captions and colour bars: at least 6.5 pt at the
    printed size (the SVG's units are pixels at 300 dpi)."""
    for name, (size, root, _) in written.items():
        texts = _svg_texts(root)
        assert texts, name
        small = [(t, round(px / DPI * 72, 2)) for t, px in texts if px / DPI * 72 < MIN_PRINT_PT]
        assert not small, f"{name} at the {size} width: texts under {MIN_PRINT_PT} pt {small[:5]}"


def test_no_curve_leaves_its_axes(written):
    """Every line that enters a plot stays inside it: curves past a chart's fixed range and
    level sets past a cut map end at the frame (the SVG has no clipping to hide them)."""
    for name, (size, root, geometry) in written.items():
        plots = [g.plot for g in geometry.panels if g.plot is not None]
        for points in _svg_polylines(root):
            for plot in plots:
                inside = plot.adjusted(2, 2, -2, -2)
                if not any(inside.contains(x, y) for x, y in points):
                    continue
                frame = plot.adjusted(-1.5, -1.5, 1.5, 1.5)
                out = [(x, y) for x, y in points if not frame.contains(x, y)]
                assert not out, f"{name} at the {size} width: a line leaves its plot at {out[:3]}"


# Presets whose plots stay under MIN_PLOT_IN at a column even with their measures and captions
# said under the figure: four panels (or three maps with their colour bars below) in 3.5 in.
# The shortest plot as measured: kfd-losses 0.28 in (a loss chart and three maps, each with a
# colour bar), kfd-sparsity 0.52 in, koc-cuboids 0.54 in (titles of four lines),
# novelty-width-sweep 0.76 in.
CROWDED_AT_A_COLUMN = {"kfd-losses", "kfd-sparsity", "koc-cuboids", "novelty-width-sweep"}


@pytest.fixture(scope="module")
def at_a_column(tmp_path_factory):
    """Every preset written once as SVG at the column: name -> the painter's geometry."""
    folder = tmp_path_factory.mktemp("column-layout")
    out = {}
    for name in presets.names():
        state = session.state_from_preset(name)
        _, geometry = render.render_state(state, folder / f"{name}.svg", size=COLUMN, dpi=DPI)
        out[name] = geometry
    return out


def test_every_caption_takes_at_most_three_lines_at_a_column(at_a_column):
    """A panel's caption and measures, and the line every panel shares, take at most three
    lines (what does not fit is said under the figure)."""
    for name, geometry in at_a_column.items():
        lines = [g.caption_lines for g in geometry.panels]
        assert max(lines, default=0) <= paint.MAX_CAPTION_LINES == 3, (name, lines)
        assert geometry.shared_lines <= 3, name


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.xfail(
                strict=True, reason="too crowded for 0.8 in plots at 3.5 in (CROWDED_AT_A_COLUMN)"
            ),
        )
        if name in CROWDED_AT_A_COLUMN
        else name
        for name in presets.names()
    ],
)
def test_every_plot_is_at_least_0_8_in_tall_at_a_column(at_a_column, name):
    geometry = at_a_column[name]
    heights = [g.plot.height() / DPI for g in geometry.panels if g.plot is not None]
    assert heights, name
    assert min(heights) >= paint.MIN_PLOT_IN == 0.8, (name, [round(h, 2) for h in heights])
