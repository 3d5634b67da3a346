"""Data files refused early and said briefly: a binary file on its first block, a huge cell
quoted in part; text with a byte-order mark (UTF-8, UTF-16) read as text."""

from __future__ import annotations

import subprocess
import tracemalloc

import numpy as np
import pytest

from kfdviz.datasets import load_table
from kfdviz.datasets.errors import DataFileError


def test_a_two_gigabyte_file_of_zeros_is_refused_on_its_first_block(tmp_path):
    path = tmp_path / "zeros.csv"
    subprocess.run(["truncate", "-s", "2G", str(path)], check=True)  # sparse: no 2 GB written
    tracemalloc.start()
    try:
        with pytest.raises(DataFileError, match="NUL bytes"):
            load_table(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MiB taken to refuse a file of zeros"


def test_a_file_named_npz_that_is_no_zip_is_refused_on_its_first_block(tmp_path):
    path = tmp_path / "zeros.npz"
    subprocess.run(["truncate", "-s", "2G", str(path)], check=True)
    tracemalloc.start()
    try:
        with pytest.raises(DataFileError, match=r"not a readable \.npz archive"):
            load_table(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20


@pytest.mark.parametrize("where", ["cell", "header"])
def test_a_huge_cell_is_quoted_in_part(tmp_path, where):
    huge = "x" * 5_000_000
    path = tmp_path / "big.csv"
    if where == "cell":
        path.write_text(f"a,b,label\n1,2,0\n{huge},3,1\n")
    else:
        path.write_text(f"a,{huge},label\n1,2,0\n1,3,1\n1,q,0\n")
    with pytest.raises(DataFileError) as caught:
        load_table(path)
    message = str(caught.value)
    assert len(message) < 500, message[:600]
    assert "big.csv" in message and "characters)" in message


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_text_with_a_byte_order_mark_is_read_as_text(tmp_path, encoding):
    text = "x1,x2,label\n0.5,-1.25,a\n1.5,2.0,b\n-3,4e-3,a\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    loaded = load_table(path)
    np.testing.assert_array_equal(loaded.X, [[0.5, -1.25], [1.5, 2.0], [-3, 4e-3]])
    assert loaded.class_names == ["a", "b"] and list(loaded.y) == [0, 1, 0]
    assert loaded.feature_names == ["x1", "x2"]


def test_a_binary_file_after_a_utf16_mark_is_still_refused(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(b"\xff\xfe" + "1,2\n".encode("utf-16-le") + b"\x00\x00" * 4)
    with pytest.raises(DataFileError, match="NUL bytes"):
        load_table(path)
