"""The figure's text: captions that say once what every panel shares, lines that break where a
reader expects, ticks that give a scale, and labels that stay over their own plot.

The captions are checked on the plans of real presets; the painting on a scratch canvas at a
paper column's size (3.5 in at 300 dpi), where room is scarcest.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from PySide6.QtGui import QImage, QPainter

from kfdviz import render, session
from kfdviz.figure import palette
from kfdviz.figure.axes import _spaced_ticks, tick_label
from kfdviz.figure.canvas import _Canvas
from kfdviz.figure.export import ensure_app, render_image
from kfdviz.figure.plan import describe_params, join_caption, param_parts
from kfdviz.render import compute

COLUMN = (1050, 700)
DPI = 300


@pytest.fixture
def canvas():
    ensure_app()
    image = QImage(*COLUMN, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    try:
        yield _Canvas(painter, *COLUMN, DPI, palette.theme("light"))
    finally:
        painter.end()


@pytest.fixture(scope="module")
def novelty_sweep():
    return compute(session.state_from_preset("novelty-width-sweep"))


# -- captions ------------------------------------------------------------------------------------
def test_caption_parts_join_as_the_caption_reads():
    params = {"kernel": "rbf", "width": 0.5, "mu": 0.01}
    parts = param_parts("kfd", params)
    assert [name for name, _ in parts] == ["kernel", "width", "mu"]
    assert join_caption(parts) == describe_params("kfd", params) == "Gaussian, c = 0.5 · μ = 0.01"
    # a Gaussian without its width (said elsewhere) is named as a kernel
    assert join_caption([p for p in parts if p[0] != "width"]) == "Gaussian kernel · μ = 0.01"
    assert join_caption([]) == ""


def test_what_every_panel_shares_is_said_once(novelty_sweep):
    plan = render.figure_plan(novelty_sweep)
    shared, own = plan.captions()
    # the three panels differ only in the width, which their titles name
    assert "q = 40" in shared and "outside fraction 1 %" in shared and "Gaussian" in shared
    assert "c =" not in shared
    for panel, caption in zip(plan.panels, own, strict=True):
        assert "q = 40" not in caption and "Gaussian" not in caption
        assert panel.caption.startswith("Gaussian, c = ")  # the whole caption is kept
    # under titles that name the width the panels need no caption of their own ...
    assert own == ["", "", ""]
    # ... without them, each says its width
    _, untitled = plan.captions(panel_titles=False)
    assert [c.startswith("c = ") for c in untitled] == [True] * 3
    assert len(set(untitled)) == 3


def test_a_single_panel_or_a_chart_shares_nothing(novelty_sweep):
    plan = render.figure_plan(novelty_sweep)
    single = plan.single_panels()[0]
    # alone, a panel keeps its caption, less what its title says (the width)
    assert single.panels[0].title.startswith("c = 0.005")
    assert single.captions() == ("", ["Gaussian kernel · q = 40 · outside fraction 1 %"])
    assert single.captions(panel_titles=False) == ("", [single.panels[0].caption])
    plan.panels[1].caption_parts = ()  # a caption in one piece (a chart's)
    shared, own = plan.captions()
    assert shared == "" and own == plan.unshared_captions()
    assert own[1] == plan.panels[1].caption
    assert [c.startswith("Gaussian kernel · q = 40") for c in own] == [True, False, True]


def test_an_invariance_the_title_names_is_not_repeated():
    plan = render.figure_plan(compute(session.state_from_preset("okpca-invariance")))
    _, own = plan.captions()
    assert "rotation" in plan.panels[1].title and "invariant to" not in own[1]
    assert own[1] == own[2] == "μ = 0.01"
    _, untitled = plan.captions(panel_titles=False)
    assert "invariant to rotation" in untitled[1]


def test_the_shared_line_is_painted_once_above_the_panels(novelty_sweep, drawn):
    plan = render.fitted_plan(novelty_sweep, COLUMN, DPI)
    drawn.clear()
    _, geometry = render_image(plan, COLUMN, DPI)
    texts = drawn[-1].drawn_texts
    shared, _ = plan.captions()
    top = min(g.cell.top() for g in geometry.panels)
    lines = [(t, box) for t, box in texts if "q = 40" in t]
    assert [t for t, _ in lines] == [shared]
    assert lines[0][1].bottom() <= top + 1
    # the panels' headers: their titles and measures
    for panel, g in zip(plan.panels, geometry.panels, strict=True):
        inside = " ".join(t for t, box in texts if g.cell.contains(box.center()))
        assert panel.title in inside and panel.measures in inside


# -- lines ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("room_pt", [30, 45, 60, 80, 120])
def test_a_number_keeps_its_unit_and_an_equals_sign_both_sides(canvas, room_pt):
    font = canvas.font(8.0)
    text = "Gaussian, c = 3.162 · μ = 0.001 · training error 9.5 % · zero coefficients 0 %"
    lines = canvas.wrap(text, font, canvas.pt(room_pt))
    assert " ".join(lines) == text
    for line in lines:
        assert not line.startswith(("%", "=", "·")), lines
        assert not line.endswith("="), lines


def test_centred_lines_break_at_the_captions_separators_and_evenly(canvas):
    font = canvas.font(10.5, bold=True)
    width = canvas.text_width("Kernel PCA, feature", font) + 1
    _, lines = canvas.fit_text("Kernel PCA, feature 1", 10.5, width, bold=True)
    assert lines == ["Kernel PCA,", "feature 1"]
    font = canvas.font(8.0)
    text = "training error 9.0 % · zero coefficients 68 %"
    width = canvas.text_width("zero coefficients 68 %", font) + 1
    _, lines = canvas.fit_text(text, 8.0, width)
    assert lines == ["training error 9.0 %", "zero coefficients 68 %"]
    # without separators, lines of about equal width
    text = "one two three four five six seven eight"
    width = canvas.text_width("one two three four five six seven", font)
    _, lines = canvas.fit_text(text, 8.0, width)
    widths = [canvas.text_width(line, font) for line in lines]
    assert len(lines) == 2 and max(widths) < 0.7 * width


# -- ticks ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "lo, hi", [(-4.1, 4.1), (-0.25, 0.92), (-0.31, 0.45), (-5.5, 5.5), (0.0, 21.0), (-3.4, 3.4)]
)
@pytest.mark.parametrize("length_pt", [40, 60, 90, 140])
@pytest.mark.parametrize("across", [False, True])
def test_an_axis_has_at_least_two_ticks_whose_labels_do_not_touch(
    canvas, lo, hi, length_pt, across
):
    font = canvas.font(7.5)
    length = canvas.pt(length_pt)
    values = _spaced_ticks(canvas, lo, hi, length, font, across=across)
    assert np.all((values >= lo - 1e-12) & (values <= hi + 1e-12))
    # two labels centred on their ticks do not touch when their centres are this far apart
    labels = [
        tick_label(float(v), float(np.diff(values)[0]) if len(values) > 1 else None) for v in values
    ]
    if across:
        need = canvas.text_height(font)
    else:
        need = max(canvas.text_width(t, font) for t in labels) + canvas.pt(4)
    pitch = np.diff(values) / (hi - lo) * length
    assert np.all(pitch >= 0.5 * need if len(values) == 2 else pitch >= need)
    if len(values) < 2:
        # one tick only where no two fit: two ticks a whole axis apart would touch
        assert length < 2 * need


# -- placement -----------------------------------------------------------------------------------
@pytest.fixture
def drawn(monkeypatch):
    """The canvases painted during a test, to read the texts they drew and where."""
    canvases = []
    init = _Canvas.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        canvases.append(self)

    monkeypatch.setattr(_Canvas, "__init__", recording)
    return canvases


@pytest.mark.parametrize("name", ["novelty-width-sweep", "kfd-vs-kpca", "okpca-invariance"])
def test_headers_stand_over_their_plots_and_bar_labels_over_their_bars(name, drawn):
    plan = render.fitted_plan(compute(session.state_from_preset(name)), COLUMN, DPI)
    drawn.clear()
    _, geometry = render_image(plan, COLUMN, DPI)
    texts = drawn[-1].drawn_texts
    maps = [g for g in geometry.panels if g.kind == "input"]
    assert len(maps) == 3
    for panel, g in zip(plan.panels, maps, strict=True):
        boxes = [
            box
            for t, box in texts
            if t in panel.title and box.bottom() < g.plot.top() and g.cell.contains(box.center())
        ]
        assert boxes, panel.title
        for box in boxes:
            assert abs(box.center().x() - g.plot.center().x()) < 2, (name, panel.title)

    def below(g):
        """The texts under a map's plot, within its cell: tick labels, the colour bar's."""
        return [
            box for _, box in texts if box.top() > g.plot.bottom() and g.cell.contains(box.center())
        ]

    # the end labels of one colour bar never meet the next bar's: texts of neighbouring
    # panels at one height stand apart
    gap = drawn[-1].pt(2)
    for left, right in itertools.pairwise(maps):
        for a in below(left):
            for b in below(right):
                if a.top() < b.bottom() and b.top() < a.bottom():
                    assert b.left() - a.right() >= gap, name
