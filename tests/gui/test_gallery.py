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
    w.gallery_action.trigger()
    g = w.gallery
    assert g is not None and g.isVisible()
    assert set(g.buttons) == set(presets.names())
    # the first thumbnail arrives from the background thread and lands in the cache
    qtbot.waitUntil(lambda: "default" not in g.pending, timeout=60_000)
    assert gallery_module.thumbnail_path(cache, "default").is_file()
    icon = g.buttons["default"].icon().pixmap(gallery_module.THUMB_SIZE)
    assert not icon.isNull()
    qtbot.mouseClick(g.buttons["kfd-sparsity"], Qt.MouseButton.LeftButton)
    assert w.preset_name == "kfd-sparsity"
    assert w.layout_name == "compare"
    assert [s.algorithm for s in w.compare_slots[: w.compare_count]] == [
        p.algorithm for p in presets.get("kfd-sparsity").panels
    ]
    assert w.gallery is None, "the gallery closes on a choice and its thread is joined"
    wait_idle(qtbot, w)


def test_cached_thumbnails_show_at_once(window, qtbot, cache):
    w = window
    names = ["default", "novelty-spiral"]
    for name in names:
        gallery_module.render_thumbnail(name, gallery_module.thumbnail_path(cache, name))
    g = w.show_gallery()
    qtbot.waitUntil(lambda: not (set(names) & g.pending), timeout=10_000)
    for name in names:
        assert "drawing" not in g.buttons[name].text()
    g.close()
    assert w.gallery is None
    assert not g.loader.thread.is_alive()


def test_every_thumbnail(window, qtbot, cache):
    """All presets draw (once); the gallery shows them."""
    w = window
    g = w.show_gallery()
    qtbot.waitUntil(lambda: not g.pending, timeout=240_000)
    assert all("no thumbnail" not in b.text() for b in g.buttons.values())
    save_and_check(g, "gallery")
    g.close()
