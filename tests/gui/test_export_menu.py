"""Export from the window: figure (PNG, SVG, PDF), data, clipboard and the 3-D view, all from
the results on screen (no refit)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from gui_helpers import make_window, wait_idle
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from kfdviz.app.export import ExportDialog
from kfdviz.figure import palette

pytestmark = pytest.mark.gui

SVG = "{http://www.w3.org/2000/svg}"


def _pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    buffer = np.frombuffer(image.constBits(), dtype=np.uint8)
    return buffer.reshape(h, image.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).copy()


def _not_blank(image: QImage) -> None:
    assert not image.isNull()
    px = _pixels(image)
    assert px.std() > 10, "the picture is blank"
    # the class colours of the points are in it
    blue = palette.rgb(palette.class_color(0)).astype(int)
    assert (np.abs(px.astype(int) - blue).sum(axis=2) < 40).sum() > 20


def _no_refit(w, qtbot):
    """Exporting must not start a fit."""
    assert not w.fit.worker.is_busy()


def test_export_png_svg_pdf_from_the_window_after_a_fit(window, qtbot, tmp_path):
    w = window
    result = w.pictures.main_slot.result
    assert result is not None
    png, svg, pdf = tmp_path / "a.png", tmp_path / "a.svg", tmp_path / "a.pdf"
    assert w.export_figure_to(png, size=(800, 450), dpi=100)
    assert w.export_figure_to(svg)
    assert w.export_figure_to(pdf, size=(1050, 700), dpi=300)
    _no_refit(w, qtbot)
    assert w.pictures.main_slot.result is result
    image = QImage(str(png))
    assert (image.width(), image.height()) == (800, 450)
    _not_blank(image)
    root = ET.parse(svg).getroot()
    paths = root.findall(f".//{SVG}path")
    assert len(paths) > 20, "level sets, boundary and points are vector paths"
    texts = "".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "KFD" in texts or "Fisher" in texts, "text stays text"
    head = pdf.read_bytes()[:8]
    assert head.startswith(b"%PDF")
    assert pdf.stat().st_size > 5_000


def test_export_dialog_sizes_and_format(window, qtbot, tmp_path):
    w = window
    dialog = w.exporter.export_figure()
    assert isinstance(dialog, ExportDialog) and dialog.isVisible()
    assert dialog.size_key() == "slide"
    assert (dialog.width_spin.value(), dialog.height_spin.value()) == (1600, 900)
    dialog.set_size_key("column")
    assert dialog.width_spin.value() == 1050 and dialog.dpi_spin.value() == 300
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    dialog.path_edit.setText(str(tmp_path / "figure.txt"))
    assert not save.isEnabled(), "an unknown suffix cannot be saved"
    dialog.set_size_key("custom")
    dialog.width_spin.setValue(640)
    dialog.height_spin.setValue(400)
    dialog.dpi_spin.setValue(1200)
    assert dialog.dpi_spin.value() == 1200
    dialog.dpi_spin.setValue(96)
    out = tmp_path / "figure.png"
    dialog.path_edit.setText(str(out))
    assert save.isEnabled()
    save.click()
    assert out.is_file()
    image = QImage(str(out))
    assert (image.width(), image.height()) == (640, 400)
    assert round(image.dotsPerMeterX() * 0.0254) == 96
    _not_blank(image)


def test_copy_figure_puts_an_image_on_the_clipboard(window, qtbot):
    w = window
    clipboard = QApplication.clipboard()
    clipboard.clear()
    w.action_table["copy"].trigger()
    image = clipboard.image()
    assert not image.isNull()
    assert image.width() >= 800
    _not_blank(image)


def test_export_data_csv_and_npz(window, qtbot, tmp_path):
    w = window
    assert w.export_data_to(tmp_path / "points.csv")
    header = (tmp_path / "points.csv").read_text().splitlines()[0]
    assert header.startswith("x1,x2,label,role")
    params = json.loads((tmp_path / "points.json").read_text())
    assert params["panels"][0]["algorithm"] == "kfd"
    assert params["preset"] == "default"
    assert w.export_data_to(tmp_path / "points.npz")
    with np.load(tmp_path / "points.npz") as npz:
        np.testing.assert_array_equal(npz["X"], w.data.X())
        assert "params_json" in npz.files


def test_compare_layout_exports_every_panel(qtbot, settings, tmp_path):
    w = make_window(qtbot, settings, "kfd-vs-kpca")
    try:
        plan = w.exporter.figure_plan()
        assert [p.kind for p in plan.panels] == ["input"] * 3
        assert w.export_figure_to(tmp_path / "compare.svg")
        root = ET.parse(tmp_path / "compare.svg").getroot()
        texts = "".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
        assert "KPCA feature 2" in texts
    finally:
        w.close()


@pytest.mark.gl
def test_export_the_3d_view_png_from_opengl_and_vector_projection(qtbot, settings, tmp_path):
    w = make_window(qtbot, settings, "koc-iris")
    try:
        wait_idle(qtbot, w)
        view = w.exporter.current_3d_view()
        assert view is not None and view.gl_view is not None
        qtbot.waitUntil(lambda: view.gl_view.isVisible(), timeout=5_000)
        assert w.export_3d_to(tmp_path / "screen.png")
        image = QImage(str(tmp_path / "screen.png"))
        assert image.width() >= view.gl_view.width()
        _not_blank(image)
        assert w.export_3d_to(tmp_path / "big.png", size=(900, 700), dpi=200)
        big = QImage(str(tmp_path / "big.png"))
        assert (big.width(), big.height()) == (900, 700)
        _not_blank(big)
        dialog = w.exporter.export_3d()
        assert dialog.size_key() == "natural"
        dialog.close()
        view.gl_view.setCameraPosition(elevation=40, azimuth=120)
        assert w.export_3d_to(tmp_path / "view.svg")
        root = ET.parse(tmp_path / "view.svg").getroot()
        assert len(root.findall(f".//{SVG}path")) > 50  # one per point
        texts = "".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
        assert "Elevation 40°, azimuth 120°" in texts, "the view's camera angles"
        assert w.export_3d_to(tmp_path / "view.pdf")
        assert (tmp_path / "view.pdf").read_bytes()[:4] == b"%PDF"
    finally:
        w.close()


def test_the_window_and_the_figures_share_one_palette(window):
    from kfdviz.views import style

    assert style.CLASS_COLORS == palette.CLASS_COLORS
    for name in ("light", "dark"):
        theme = style.THEMES[name]
        expected = palette.lookup_table(theme.diverging_anchors(0, 1), 5)
        got = theme.diverging(0, 1).getLookupTable(0.0, 1.0, 5, alpha=False)
        assert np.abs(got.astype(int) - expected.astype(int)).max() <= 1
        positions, anchors = theme.novelty_anchors()
        got = theme.novelty().getLookupTable(0.0, 1.0, 3, alpha=False)
        expected = palette.lookup_table(anchors, 3, positions)
        assert np.abs(got.astype(int) - expected.astype(int)).max() <= 1


def _svg_texts(path) -> str:
    root = ET.parse(path).getroot()
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_paper_sizes_leave_the_figure_title_out_and_the_panels_follow_the_arrangement(
    qtbot, settings, tmp_path
):
    w = make_window(qtbot, settings, "kfd-vs-kpca")
    try:
        dialog = w.exporter.export_figure()

        def choose_titles(value: str) -> None:
            dialog.titles.setCurrentIndex(dialog.titles.findData(value))

        assert dialog.size_key() == "slide" and dialog.titles.currentData() == "all"
        dialog.set_size_key("column")
        assert dialog.titles.currentData() == "panels", "a paper's caption names the figure"
        panels = dialog.height_spin.value()
        choose_titles("all")
        assert dialog.height_spin.value() > panels, "the figure's title takes room"
        choose_titles("none")
        one_row = dialog.height_spin.value()
        assert one_row < panels, "the panels' titles take room"
        dialog.arrangement.setCurrentIndex(dialog.arrangement.findData("column"))
        assert dialog.height_spin.value() > 2 * one_row, "three panels stacked"
        dialog.arrangement.setCurrentIndex(dialog.arrangement.findData("auto"))
        assert dialog.height_spin.value() == one_row
        choose_titles("panels")
        out = tmp_path / "column.svg"
        dialog.path_edit.setText(str(out))
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        _no_refit(w, qtbot)
        column = _svg_texts(out)
        assert "KPCA feature 1" in column and "Mika" not in column
        assert "x₁" in column, "the axes are drawn"
        untitled = tmp_path / "untitled.svg"
        assert w.exporter.export_figure_to(untitled, size=(1050, 700), dpi=300, titles="none")
        assert "KPCA feature 1" not in _svg_texts(untitled)
        titled = tmp_path / "titled.svg"
        assert w.exporter.export_figure_to(titled, size=(1050, 700), dpi=300, titles="all")
        assert "Mika" in _svg_texts(titled)
    finally:
        w.close()
