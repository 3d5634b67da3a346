"""Headless figures: every preset to PNG and SVG, vector SVG/PDF, and pictures that line up.

Runs on Qt's offscreen platform (no display, no OpenGL): figures are painted with QPainter.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pytest

from kfdviz import presets
from kfdviz.figure import plan_figure
from kfdviz.figure.export import (
    check_size,
    default_size,
    render_image,
    save_figure,
    save_pdf,
    save_svg,
)
from kfdviz.figure.palette import LIGHT, colorize, lookup_table
from kfdviz.figure.project3d import Camera, normalized, painter_order
from kfdviz.render import Computed, compute, render_state
from kfdviz.session import state_from_preset, with_settings

SVG = "{http://www.w3.org/2000/svg}"

_CACHE: dict[str, Computed] = {}


def computed(name: str) -> Computed:
    if name not in _CACHE:
        _CACHE[name] = compute(state_from_preset(name))
    return _CACHE[name]


def read_png(path) -> np.ndarray:
    """(height, width, 3) uint8 pixels of a PNG file, read with Qt."""
    from PySide6.QtGui import QImage

    img = QImage(str(path))
    assert not img.isNull(), path
    img = img.convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes())
    return buf.reshape(h, img.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).copy()


def image_pixels(qimage) -> np.ndarray:
    from PySide6.QtGui import QImage

    img = qimage.convertToFormat(QImage.Format.Format_RGB888)
    w, h = img.width(), img.height()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.sizeInBytes())
    return buf.reshape(h, img.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).copy()


def svg_groups(root):
    """(group attributes, paths) for every <g> that holds paths."""
    for g in root.iter(f"{SVG}g"):
        paths = [e for e in g if e.tag == f"{SVG}path"]
        if paths:
            yield g.attrib, paths


# -- every preset ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", presets.names())
def test_preset_renders_to_png_and_svg(name, qapp, tmp_path):
    c = computed(name)
    png = tmp_path / f"{name}.png"
    _, geom = render_state(c.state, png, computed=c)
    pixels = read_png(png)
    assert pixels.shape[:2] == (geom.height, geom.width)
    # not blank: contrast, many colours, and every panel's plot area has something in it
    assert pixels.std() > 20
    colours = np.unique(pixels.reshape(-1, 3) // 8, axis=0)
    grey = bool(np.all(colours == colours[:, :1]))  # a figure of grey images (digits)
    assert len(colours) > (20 if grey else 40)
    for panel in geom.panels:
        if panel.plot is None:
            continue
        r = panel.plot
        crop = pixels[
            int(r.top()) + 2 : int(r.bottom()) - 2, int(r.left()) + 2 : int(r.right()) - 2
        ]
        assert crop.size and crop.std() > 5, (name, panel.kind)

    svg = tmp_path / f"{name}.svg"
    _, geom_svg = render_state(c.state, svg, computed=c)
    root = ET.parse(svg).getroot()  # well-formed XML
    assert root.tag == f"{SVG}svg"
    paths = list(root.iter(f"{SVG}path"))
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    images = list(root.iter(f"{SVG}image"))
    assert len(paths) >= 5
    # Qt splits a text where it falls back to another font for a glyph: compare joined text
    joined = "".join(texts)
    assert c.state.title in joined
    kinds = [p.kind for p in geom_svg.panels]
    n_input = kinds.count("input")
    if n_input:
        # the filled feature images (one per panel; colour bars are images too)
        assert len(images) >= n_input
        assert "x₁" in joined and "x₂" in joined
        # each level set is one vector path, drawn with the contour pen
        contour_paths = sum(
            len(p) for attrs, p in svg_groups(root) if attrs.get("stroke") == LIGHT.contour
        )
        assert contour_paths == sum(p.n_contour_paths for p in geom_svg.panels)
        assert contour_paths >= n_input  # at least one level set per panel
        boundaries = sum(p.boundary_drawn for p in geom_svg.panels)
        thick = sum(
            len(p)
            for attrs, p in svg_groups(root)
            if attrs.get("stroke") == LIGHT.boundary and float(attrs.get("stroke-width", 0)) > 3
        )
        assert thick >= boundaries
    if "histogram" in kinds:
        assert "output" in texts and "density" in texts
    if "regression" in kinds:
        assert "x" in texts and "y" in texts
    if "scatter3d" in kinds:
        for panel_plan in plan_figure(c.state, c.results, c.sweep).panels:
            for label in panel_plan.axis_labels:
                assert label in joined
    if "sweep" in kinds:
        assert "Test accuracy (%)" in texts and "Support vectors" in texts
        for curve in c.sweep.sweep.curves:
            assert curve.label in joined


def test_png_size_and_resolution(qapp, tmp_path):
    c = computed("kfd-vs-kpca")
    plan = plan_figure(c.state, c.results)
    image, _geom = render_image(plan, (800, 450), 96)
    assert (image.width(), image.height()) == (800, 450)
    assert image.dotsPerMeterX() == round(96 / 0.0254)
    big, _ = render_image(plan, (3200, 1800), 600)
    assert (big.width(), big.height()) == (3200, 1800)
    assert big.dotsPerMeterX() == round(600 / 0.0254)
    # the default is a slide: 1600 wide, at most 16:9, as tall as the panels need
    w, h = default_size(plan)
    assert w == 1600 and 0.3 * w <= h <= w * 9 / 16
    with pytest.raises(ValueError, match="pixels"):
        check_size((5, 5000), 150)
    with pytest.raises(ValueError, match="dpi"):
        check_size((800, 600), 5000)
    with pytest.raises(ValueError, match=r"\.png, \.svg, \.pdf"):
        save_figure(plan, tmp_path / "figure.bmp")


def test_same_picture_at_any_resolution(qapp):
    """Doubling size and dpi doubles every length: the pictures agree when scaled down."""
    c = computed("default")
    plan = plan_figure(c.state, c.results)
    _small, g1 = render_image(plan, (800, 450), 75)
    _large, g2 = render_image(plan, (1600, 900), 150)
    p1, p2 = g1.panels[0].plot, g2.panels[0].plot
    assert p2.width() == pytest.approx(2 * p1.width(), rel=0.02)
    assert p2.left() == pytest.approx(2 * p1.left(), rel=0.02)


def test_pdf_is_vector_with_a_page(qapp, tmp_path):
    c = computed("kfd-vs-kpca")
    plan = plan_figure(c.state, c.results)
    pdf = tmp_path / "figure.pdf"
    save_pdf(plan, pdf, (1600, 900), 150)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert (
        data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") + data.count(b"/Type/Page") >= 1
    )
    assert b"/Type /Pages" in data or b"/Type/Pages" in data
    # 1600 x 900 pixels at 150 dpi is 768 x 432 points
    assert b"/MediaBox [0 0 768" in data
    assert b"/Font" in data  # text as text
    assert b"/Image" in data  # the filled feature images, embedded


def test_3d_presets_export_a_vector_projection(qapp, tmp_path):
    c = computed("koc-iris")
    plan = plan_figure(c.state, c.results)
    svg = tmp_path / "koc.svg"
    geom = save_svg(plan, svg)
    root = ET.parse(svg).getroot()
    assert [p.kind for p in geom.panels] == ["scatter3d"] * 3
    # one vector marker per point and panel, no raster at all
    assert len(list(root.iter(f"{SVG}path"))) >= 3 * 150
    assert not list(root.iter(f"{SVG}image"))
    cuboids = plan_figure(computed("koc-cuboids").state, computed("koc-cuboids").results)
    assert next(p.title for p in cuboids.panels) == "Input data"
    assert (cuboids.rows, cuboids.cols) == (2, 2)


# -- the picture lines up with the data ----------------------------------------------------------
def _plain_state(name):
    return with_settings(
        state_from_preset(name),
        show_points=False,
        show_contours=False,
        show_boundary=False,
        show_expansion=False,
        show_tangents=False,
    )


@pytest.mark.parametrize("name", ["default", "kfd-sparsity"])
def test_pixel_under_each_training_point_has_the_sign_of_its_decision(name, qapp):
    """Draw only the filled image; at each training point's pixel the colour must be class 1's
    hue (vermillion) where the decision value is positive and class 0's (blue) where negative."""
    state = _plain_state(name)
    c = compute(state)
    plan = plan_figure(state, c.results)
    image, geom = render_image(plan, (1600, 900), 150)
    pixels = image_pixels(image).astype(int)
    checked = 0
    for r, panel in zip(c.results, geom.panels, strict=True):
        assert panel.kind == "input"
        f = r.outputs  # the decision value at each point
        strong = np.abs(f) > 0.2 * np.max(np.abs(f))
        u, v = panel.transform.px(r.X[:, 0], r.X[:, 1])
        col = pixels[np.floor(v).astype(int), np.floor(u).astype(int)]
        warm = col[:, 0] > col[:, 2]  # red above blue: class 1's side of the map
        agree = warm[strong] == (f[strong] > 0)
        assert agree.mean() == 1.0, (name, agree.mean())
        # the same pixels read upside down would not agree: the test can tell a flipped image
        rows = 2 * panel.plot.top() + panel.plot.height() - v
        flipped = pixels[np.floor(rows).astype(int), np.floor(u).astype(int)]
        assert ((flipped[:, 0] > flipped[:, 2])[strong] == (f[strong] > 0)).mean() < 0.85
        checked += int(strong.sum())
    assert checked > 100


def test_image_covers_exactly_the_grid_box(qapp, tmp_path):
    c = computed("default")
    state = c.state
    svg = tmp_path / "box.svg"
    geom = save_svg(plan_figure(state, c.results), svg)
    t = geom.panels[0].transform
    x0, x1, y0, y1 = c.results[0].grid.box
    (left, right), (bottom, top) = t.px(np.array([x0, x1]), np.array([y0, y1]))
    image = next(ET.parse(svg).getroot().iter(f"{SVG}image"))
    assert float(image.get("x")) == pytest.approx(left, abs=0.01)
    assert float(image.get("y")) == pytest.approx(top, abs=0.01)
    assert float(image.get("width")) == pytest.approx(right - left, abs=0.01)
    assert float(image.get("height")) == pytest.approx(bottom - top, abs=0.01)


def test_value_image_rows_run_from_the_top(qapp):
    """Grid row 0 is the lowest y; the image's top row must be the highest y."""
    from kfdviz.figure.paint_input import _value_image

    values = np.array([[0.0, 0.0], [1.0, 1.0]])  # row 0 (low y) = 0, row 1 (high y) = 1
    lut = lookup_table(np.array([[0, 0, 0], [255, 255, 255]]), 256)
    px = image_pixels(_value_image(values, 0.0, 1.0, lut))
    assert px[0, 0].tolist() == [255, 255, 255]  # top: high y
    assert px[1, 0].tolist() == [0, 0, 0]


# -- pieces ----------------------------------------------------------------------------------------
def test_colorize_and_lookup_tables():
    lut = lookup_table(LIGHT.diverging_anchors(0, 1))
    rgba = colorize(np.array([[-1.0, 0.0, 1.0, np.nan]]), -1.0, 1.0, lut)
    assert rgba.shape == (1, 4, 4)
    low, mid, high, nan = rgba[0]
    assert low[2] > low[0] and high[0] > high[2]  # blue below, vermillion above
    assert abs(int(mid[0]) - int(mid[2])) < 3  # neutral middle
    assert nan[3] == 0 and low[3] == 255


def test_software_projection_depth_order():
    cam = Camera(22.0, 38.0)
    P = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [-1.0, -1.0, 0.0]])
    uv, depth = cam.project(P)
    # the camera sits at azimuth 38 degrees: (1, 1, 0) is nearer than (-1, -1, 0)
    assert depth[1] < depth[0] < depth[2]
    order = painter_order(depth)
    assert order.tolist() == [2, 0, 1]  # far to near
    # z is up on the picture
    up, _ = cam.project(np.array([[0.0, 0.0, 1.0]]))
    assert up[0, 1] > uv[0, 1]
    Q, scale, centre = normalized(np.array([[0.0, 0, 0], [2.0, 4.0, 6.0]]))
    assert np.abs(Q).max() == pytest.approx(1.0) and scale == 3.0
    np.testing.assert_allclose(centre, [1.0, 2.0, 3.0])


def test_failed_panel_is_drawn_as_a_message(qapp):
    state = state_from_preset("kfd-vs-kpca")
    bad = replace(state.panels[0], params={**state.panels[0].params, "mu": -1.0})
    state = replace(state, panels=(bad, *state.panels[1:]))
    c = compute(state)
    assert isinstance(c.results[0], str)
    plan = plan_figure(state, c.results)
    assert plan.panels[0].kind == "message"
    image, _ = render_image(plan, (1200, 500), 100)
    assert not image.isNull()


def test_what_each_kind_of_fit_is_drawn_as(qapp):
    from kfdviz import datasets
    from kfdviz.session import PanelState, SessionState

    X, y = datasets.make("ringnorm", seed=0, n_samples=200, dim=6)
    state = SessionState(
        X=X,
        y=y,
        test_mask=np.arange(200) % 4 == 0,
        panels=(
            PanelState("kfd", {"kernel": "rbf", "width": 10.0}),
            PanelState("kpca", {"kernel": "rbf", "width": 10.0, "n_components": 3}),
        ),
        layout="compare",
    )
    c = compute(state)
    plan = plan_figure(state, c.results)
    # a 1-D discriminant of 6-D data: its outputs, training and test; KPCA: a 3-D embedding
    assert [p.kind for p in plan.panels] == ["histogram", "histogram", "scatter3d"]
    assert [p.role for p in plan.panels[:2]] == ["train", "test"]
    image, _ = render_image(plan, (1200, 500), 100)
    assert image_pixels(image).std() > 20


def test_exported_figures_number_classes_as_the_app_does():
    from kfdviz import session
    from kfdviz.figure import palette
    from kfdviz.figure.paint import _legend_items
    from kfdviz.render import compute, figure_plan

    plan = figure_plan(compute(session.state_from_preset("default")))
    names = [name for _, _, name in _legend_items(plan)]
    assert "class 1" in names and "class 2" in names and "class 0" not in names
    assert palette.class_name(np.int64(0)) == "class 1"
    assert palette.class_name(2.0) == "class 3"
    assert palette.class_name("benign") == "benign"
