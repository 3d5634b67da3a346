"""Hostile data files: each raises DataFileError naming the file, never another exception.

Also the NPZ size limits: sizes are checked from each array's header before anything is
decompressed, and ``max_bytes`` counts decompressed bytes (a zip bomb is refused cheaply).
"""

from __future__ import annotations

import io
import os
import tracemalloc
import zipfile

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.datasets import DataFileError, load_for_drawing, load_table


def _npz(path, **arrays):
    np.savez(path, **arrays)
    return path


def _zip(path, members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _npy(a) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, a)
    return buffer.getvalue()


def test_labels_above_int64_are_classes(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("x1,x2,label\n0,0,99999999999999999999\n1,1,5\n2,2,99999999999999999999\n")
    loaded = load_table(path)
    assert loaded.task == "classification"
    assert loaded.y.tolist() == [1, 0, 1]
    assert loaded.class_names == ["5", "99999999999999999999"]


def test_uint64_labels_do_not_wrap_to_negative_classes(tmp_path):
    top = np.iinfo(np.uint64).max
    path = _npz(tmp_path / "u.npz", X=np.zeros((3, 2)), y=np.array([top, 7, top], np.uint64))
    loaded = load_table(path)
    assert loaded.y.tolist() == [1, 0, 1] and loaded.y.min() >= 0
    assert loaded.class_names == ["7", str(top)]


def test_a_role_only_header(tmp_path):
    path = tmp_path / "roles.csv"
    path.write_text("role\n1\n2\n")  # a header, as the column holds numbers below it
    with pytest.raises(DataFileError, match=r"roles\.csv: has only a role column"):
        load_table(path)


def test_an_empty_label_name_array(tmp_path):
    path = _npz(tmp_path / "n.npz", X=np.zeros((2, 2)), y=np.array([0, 1]), label_name=np.array([]))
    with pytest.raises(DataFileError, match=r"'label_name'.*one text"):
        load_table(path)


def test_non_npy_members_are_refused(tmp_path):
    path = _zip(tmp_path / "m.npz", {"X.npy": _npy(np.zeros((2, 2))), "readme.txt": b"hello"})
    with pytest.raises(DataFileError, match=r"member 'readme\.txt' is not a \.npy array"):
        load_table(path)
    path = _zip(tmp_path / "t.npz", {"X.npy": b"not an array at all"})
    with pytest.raises(DataFileError, match=r"array 'X' is not a readable \.npy array"):
        load_table(path)


def test_object_arrays_are_never_unpickled(tmp_path):
    path = tmp_path / "o.npz"
    np.savez(path, X=np.zeros((2, 2)), y=np.array([{"a": 1}, None], dtype=object))
    with pytest.raises(DataFileError, match="Python objects"):
        load_table(path)


def test_byte_flips_in_a_compressed_npz_raise_only_data_file_errors(tmp_path):
    rng = np.random.default_rng(0)
    source = tmp_path / "c.npz"
    np.savez_compressed(
        source,
        X=rng.normal(size=(200, 3)),
        y=rng.integers(0, 3, 200),
        roles=np.array(["train"] * 200),
    )
    original = source.read_bytes()
    outcomes = {"loaded": 0, "refused": 0}
    for k in range(300):
        data = bytearray(original)
        position = int(rng.integers(len(data)))
        data[position] ^= 1 << int(rng.integers(8))
        damaged = tmp_path / f"d{k}.npz"
        damaged.write_bytes(bytes(data))
        try:
            loaded = load_table(damaged)
        except DataFileError:
            outcomes["refused"] += 1
        else:
            outcomes["loaded"] += 1
            assert loaded.X.shape[1] == 3 and np.isfinite(loaded.X).all()
        damaged.unlink()
    assert outcomes["refused"] > 100  # flips inside compressed data are found, not crashed on


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(DataFileError, match=r"pipe\.csv: is a pipe"):
        load_table(fifo)


def _bomb(path, rows: int, columns: int = 2):
    """An NPZ whose X is ``rows`` x ``columns`` zeros: megabytes that decompress to much more."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<f8", "fortran_order": False, "shape": (rows, columns)}
    )
    zero = bytes(1 << 20)
    total = rows * columns * 8
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("X.npy", "w", force_zip64=True) as f:
            f.write(header.getvalue())
            while total > 0:
                f.write(zero[: min(total, len(zero))])
                total -= len(zero)
        z.writestr("y.npy", _npy(np.zeros(rows, np.int64)))
    return path


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    return _bomb(tmp_path_factory.mktemp("bomb") / "bomb.npz", 5_000_000)  # 80 MB of X


def _peak_bytes(call) -> int:
    tracemalloc.start()
    try:
        call()
    except DataFileError:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_a_zip_bomb_is_refused_from_its_headers(bomb):
    assert bomb.stat().st_size < 1_000_000
    with pytest.raises(DataFileError, match="5,000,000 points, more than the limit of 1,000"):
        load_table(bomb, max_points=1000, max_bytes=10_000_000)
    with pytest.raises(DataFileError, match=r"76\.3 MB once decompressed.*9\.5 MB"):
        load_table(bomb, max_bytes=10_000_000)
    # refused before decompressing: far less memory than the 80 MB of the array
    assert _peak_bytes(lambda: load_table(bomb, max_points=1000)) < 8_000_000
    assert _peak_bytes(lambda: load_table(bomb, max_bytes=10_000_000)) < 8_000_000


def test_a_few_bytes_of_svmlight_cannot_ask_for_gigabytes(tmp_path):
    path = tmp_path / "wide.svm"
    path.write_text("1 300000000:1\n0 1:2\n")
    with pytest.raises(
        DataFileError, match=r"4\.5 GB as a dense array, more than the limit of 1\.0 GB"
    ):
        load_table(path)
    with pytest.raises(DataFileError, match=r"more than the limit of 1000 bytes"):
        load_table(tmp_path / _write(tmp_path / "narrow.svm", "1 200:1\n0 1:2\n"), max_bytes=1000)
    assert load_table(tmp_path / "narrow.svm", max_bytes=10_000).X.shape == (2, 200)


def _write(path, text):
    path.write_text(text)
    return path.name


def test_max_bytes_counts_decompressed_bytes(tmp_path):
    X = np.zeros((1000, 4))
    path = tmp_path / "z.npz"
    np.savez_compressed(path, X=X, y=np.zeros(1000, np.int64))
    assert path.stat().st_size < 5_000
    with pytest.raises(DataFileError, match="once decompressed"):
        load_table(path, max_bytes=20_000)
    assert load_table(path, max_bytes=50_000).X.shape == (1000, 4)


def test_a_header_that_lies_about_its_size(tmp_path):
    data = bytearray(_npy(np.zeros((10, 2))))
    data[: len(data)] = data.replace(b"(10, 2)", b"(99, 2)")
    path = _zip(tmp_path / "lie.npz", {"X.npy": bytes(data), "y.npy": _npy(np.zeros(10, int))})
    with pytest.raises(DataFileError, match="damaged: its header describes"):
        load_table(path)


def test_ten_classes_for_the_canvas(tmp_path):
    rows = "\n".join(f"{i},{i % 3},{i % 10}" for i in range(40))
    path = tmp_path / "ten.csv"
    path.write_text("x1,x2,label\n" + rows + "\n")
    assert load_table(path).n_classes == 10  # a data file may have ten classes
    with pytest.raises(
        DataFileError, match="'label' has 10 classes; the drawing canvas holds at most 8"
    ):
        load_for_drawing(path)
    sparse = tmp_path / "far.csv"
    sparse.write_text("x1,x2,label\n0,0,3\n1,1,200\n2,2,3\n")
    loaded = load_for_drawing(sparse)
    assert loaded.y.tolist() == [0, 1, 0] and loaded.class_names == ["3", "200"]
    ds = datasets.DrawnDataset.from_arrays(loaded.X, loaded.y)
    assert ds.n_points == 3
