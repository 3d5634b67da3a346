"""The presets gallery: thumbnails drawn in the background and cached; a click opens a preset."""

from __future__ import annotations

import pytest
from gui_helpers import save_and_check, wait_idle
from PySide6.QtCore import Qt

from kfdviz import presets
from kfdviz.app import gallery as gallery_module

pytestmark = pytest.mark.gui


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "thumbnails"
    monkeypatch.setenv(gallery_module.ENV_DIR, str(folder))
    return folder


def test_gallery_opens_and_a_click_loads_that_preset(window, qtbot, cache):
    w = window
    w.action_table["gallery"].trigger()
    g = w.gallery.dialog
    assert g is not None and g.isVisible()
    assert set(g.buttons) == set(presets.names())
    # the first thumbnail arrives from the background thread and lands in the cache
    qtbot.waitUntil(lambda: "default" not in g.pending, timeout=60_000)
    assert gallery_module.thumbnail_path(cache, "default").is_file()
    icon = g.buttons["default"].icon().pixmap(gallery_module.THUMB_SIZE)
    assert not icon.isNull()
    qtbot.mouseClick(g.buttons["kfd-sparsity"], Qt.MouseButton.LeftButton)
    assert w.files.preset_name == "kfd-sparsity"
    assert w.pictures.layout_name == "compare"
    assert [s.algorithm for s in w.pictures.compare_slots[: w.pictures.compare_count]] == [
        p.algorithm for p in presets.get("kfd-sparsity").panels
    ]
    assert w.gallery.dialog is None, "the gallery closes on a choice and its thread is joined"
    wait_idle(qtbot, w)


def test_cached_thumbnails_show_at_once(window, qtbot, cache):
    w = window
    names = ["default", "novelty-spiral"]
    for name in names:
        gallery_module.render_thumbnail(name, gallery_module.thumbnail_path(cache, name))
    g = w.gallery.show()
    qtbot.waitUntil(lambda: not (set(names) & g.pending), timeout=10_000)
    for name in names:
        assert "drawing" not in g.buttons[name].text()
    g.close()
    assert w.gallery.dialog is None
    assert not g.loader.thread.is_alive()


def test_every_thumbnail(window, qtbot, cache):
    """All presets draw (once); the gallery shows them."""
    w = window
    g = w.gallery.show()
    qtbot.waitUntil(lambda: not g.pending, timeout=240_000)
    assert all("no thumbnail" not in b.text() for b in g.buttons.values())
    save_and_check(g, "gallery")
    g.close()


def test_tile_titles_are_whole_and_fit_their_tiles(window, qtbot, cache):
    """Titles wrap under the thumbnail instead of being elided by the tool button."""
    w = window
    names = ["default", "output-distributions"]
    for name in names:
        gallery_module.render_thumbnail(name, gallery_module.thumbnail_path(cache, name))
    g = w.gallery.show()
    try:
        qtbot.waitExposed(g)
        qtbot.waitUntil(lambda: not (set(names) & g.pending), timeout=10_000)
        width = gallery_module.THUMB_SIZE.width()
        for name, button in g.buttons.items():
            lines = button.text().split("\n")
            title = lines[:-1] if lines[-1] == "(drawing…)" else lines
            assert name not in names or title == lines
            assert " ".join(title) == presets.get(name).title, "the whole title"
            metrics = button.fontMetrics()
            assert all(metrics.horizontalAdvance(line) <= width for line in lines)
            assert width < button.width(), "each line fits inside its button"
            # the tile is tall enough for the picture and every line
            text_height = len(lines) * metrics.lineSpacing()
            assert button.height() >= gallery_module.THUMB_SIZE.height() + text_height
        long_title = presets.get("output-distributions").title
        assert len(long_title) > 60 and "…" not in g.buttons["output-distributions"].text()
    finally:
        g.close()
    assert not g.loader.thread.is_alive()


def test_wrap_text_breaks_at_spaces_and_elides_past_the_last_line(qtbot):
    from PySide6.QtGui import QFont, QFontMetrics

    metrics = QFontMetrics(QFont())
    width = metrics.horizontalAdvance("x" * 20)
    text = " ".join(["word"] * 40)
    lines = gallery_module.wrap_text(text, metrics, width, 3)
    assert len(lines) == 3
    assert all(metrics.horizontalAdvance(line) <= width for line in lines)
    assert lines[0].startswith("word word") and lines[-1].endswith("…")
    assert gallery_module.wrap_text("short", metrics, width, 3) == ["short"]
    assert gallery_module.wrap_text("x" * 100, metrics, width, 3)[0].endswith("…")
