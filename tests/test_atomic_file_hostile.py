"""The atomic writer and the guarded reader: faults mid-save, killed saves, links, FIFOs."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap

import pytest

from kfdviz import atomic_file
from kfdviz.regular_file import NotRegularFile, TooLarge, read_regular


def _temporaries(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(atomic_file.TEMP_SUFFIX))


def test_write_replaces_the_content(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    atomic_file.write_text(target, "new content")
    assert target.read_text() == "new content"
    assert _temporaries(tmp_path) == []


def test_a_full_disk_mid_write_leaves_the_old_file_whole(tmp_path, disk_full):
    target = tmp_path / "a.bin"
    old = os.urandom(20_000)
    target.write_bytes(old)
    disk_full.arm(823)
    with pytest.raises(OSError) as caught:
        atomic_file.write_bytes(target, os.urandom(30_000))
    assert caught.value.errno == errno.ENOSPC
    assert target.read_bytes() == old
    assert _temporaries(tmp_path) == []


def test_an_error_in_the_block_leaves_the_old_file(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_file.atomic_write(target, text=True) as f:
        f.write("half")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert _temporaries(tmp_path) == []


def test_permissions_are_kept_and_new_files_get_the_usual_ones(tmp_path):
    target = tmp_path / "shared.txt"
    target.write_text("old")
    target.chmod(0o640)
    atomic_file.write_text(target, "new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    umask = os.umask(0o022)
    try:
        atomic_file.write_text(fresh, "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real" / "data.txt"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    written = atomic_file.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new" and written == real


def test_a_killed_save_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    target = tmp_path / "session.txt"
    target.write_text("the user's work")
    child = textwrap.dedent(
        f"""
        import os, signal
        from kfdviz.atomic_file import atomic_write
        with atomic_write({str(target)!r}) as f:
            f.write(b"partial" * 1000)
            f.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=120)
    assert result.returncode == -signal.SIGKILL
    assert target.read_text() == "the user's work"
    assert len(_temporaries(tmp_path)) == 1  # the killed process's leftover
    atomic_file.write_text(target, "saved again")
    assert target.read_text() == "saved again"
    assert _temporaries(tmp_path) == []


def test_a_running_save_of_another_process_is_not_cleaned_up(tmp_path):
    target = tmp_path / "x.txt"
    # this process's own pid: alive, and recent
    live = tmp_path / f".x.txt.{os.getpid()}.0000abcd{atomic_file.TEMP_SUFFIX}"
    live.write_text("in progress")
    other = tmp_path / f".other.txt.1.0000abcd{atomic_file.TEMP_SUFFIX}"
    other.write_text("another target's")
    atomic_file.write_text(target, "x")
    assert live.exists() and other.exists()


def test_read_regular_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile, match="pipe"):
        read_regular(fifo, 1000)


def test_read_regular_refuses_folders_and_devices_and_caps_the_size(tmp_path):
    with pytest.raises(NotRegularFile, match="folder"):
        read_regular(tmp_path, 1000)
    if os.path.exists("/dev/zero"):
        with pytest.raises(NotRegularFile, match="device"):
            read_regular("/dev/zero", 1000)
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(TooLarge):
        read_regular(big, 1999)
    assert read_regular(big, 2000) == b"x" * 2000
