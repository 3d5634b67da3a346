"""Every writer goes through kfdviz.atomic_file: the results cache, the desktop entry and icons,
the gallery's thumbnails. Each cleans up after a killed save of its target, as the atomic writer
does, and none changes the process's umask (which other threads read)."""

from __future__ import annotations

import os

import pytest

from kfdviz import atomic_file


def _leftover(target) -> os.PathLike:
    """A temporary file left by a save that was killed (its process is long gone)."""
    dead_pid = 2**22 + 12345  # above Linux's pid_max default: no such process
    path = target.with_name(f".{target.name}.{dead_pid}.0badc0de{atomic_file.TEMP_SUFFIX}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"half a file")
    return path


@pytest.fixture
def no_umask(monkeypatch):
    def refuse(*_args):
        raise AssertionError("os.umask changes the mask of every thread of the process")

    monkeypatch.setattr(os, "umask", refuse)


def test_the_results_cache_writes_through_the_atomic_writer(tmp_path, no_umask, disk_full):
    from kfdviz.experiments.cache import write_text_atomic

    target = tmp_path / "results" / "table.md"
    leftover = _leftover(target)
    assert write_text_atomic(target, "| x |\n") == target
    assert target.read_text() == "| x |\n"
    assert not leftover.exists()
    disk_full.arm(3)
    with pytest.raises(OSError):
        write_text_atomic(target, "a longer table than the disk takes\n")
    assert target.read_text() == "| x |\n"


def test_the_desktop_entry_and_icons_write_through_the_atomic_writer(tmp_path, no_umask):
    from kfdviz import desktop

    home = tmp_path / "share"
    entry = desktop.installed_files(home)[0]
    leftover = _leftover(entry)
    written = desktop.install(home, command=["/usr/bin/kfdviz"])
    assert entry in written and entry.read_text().startswith("[Desktop Entry]")
    assert not leftover.exists()


def test_a_thumbnail_writes_through_the_atomic_writer(tmp_path):
    pytest.importorskip("PySide6")
    from kfdviz.app import gallery

    target = gallery.thumbnail_path(tmp_path, "default")
    leftover = _leftover(target)
    gallery.render_thumbnail("default", target)
    assert target.read_bytes().startswith(b"\x89PNG")
    assert not leftover.exists()
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
