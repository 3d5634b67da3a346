"""The user's own data for `kfdviz reproduce`: benchmarks.mat, the .asc folders, random splits.

Each test writes its data in the published layout (a small ``benchmarks.mat`` by scipy, the
``NAME_{train,test}_{data,labels}_K.asc`` files by numpy) and checks that the same splits give
the same table as kfdviz's own NPZ form.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scipy.io import savemat

from kfdviz.datasets.benchmark import RandomSplits, open_benchmark, open_user_data
from kfdviz.datasets.errors import DataFileError
from kfdviz.experiments import methods as methods_module
from kfdviz.experiments.report import to_json
from kfdviz.experiments.run import reproduce

GRID = {"width": [1.0, 4.0], "mu": [1e-3, 1.0]}


@pytest.fixture
def small_kfd_grid(monkeypatch):
    kfd = dataclasses.replace(methods_module.METHODS["kfd"], grid=lambda d: dict(GRID))
    monkeypatch.setitem(methods_module.METHODS, "kfd", kfd)


def pool(n=90, d=2, seed=0):
    rng = np.random.RandomState(seed)
    t = np.where(rng.rand(n) < 0.4, 1.0, -1.0)
    x = rng.randn(n, d) + 1.1 * t[:, None] * np.r_[1.0, np.zeros(d - 1)]
    return x, t


def realizations(n, n_train, k, seed=1):
    rng = np.random.RandomState(seed)
    train, test = [], []
    for _ in range(k):
        order = rng.permutation(n)
        train.append(order[:n_train])
        test.append(order[n_train:])
    return np.array(train), np.array(test)


def write_all_layouts(tmp_path, names=("banana", "breast_cancer"), k=3):
    """The same data sets as benchmarks.mat, as .asc folders and as NAME.npz."""
    structs, asc, npz = {}, tmp_path / "asc", tmp_path / "npz"
    npz.mkdir()
    for i, name in enumerate(names):
        x, t = pool(seed=i)
        train, test = realizations(len(t), 50, k, seed=10 + i)
        structs[name] = {"x": x, "t": t[:, None], "train": train + 1, "test": test + 1}
        public = name.replace("_", "-")
        folder = asc / name
        folder.mkdir(parents=True)
        for r in range(k):
            for part, idx in (("train", train[r]), ("test", test[r])):
                np.savetxt(folder / f"{name}_{part}_data_{r + 1}.asc", x[idx])
                np.savetxt(folder / f"{name}_{part}_labels_{r + 1}.asc", t[idx])
        np.savez(
            npz / f"{public}.npz",
            X=x,
            y=t.astype(np.int8),
            train_idx=train,
            test_idx=test,
            realizations=np.arange(1, k + 1),
        )
    mat = tmp_path / "mat" / "benchmarks.mat"
    mat.parent.mkdir()
    savemat(mat, structs)
    return mat, asc, npz


def test_benchmarks_mat_and_asc_folders_read_as_the_npz_form(tmp_path):
    mat, asc, npz = write_all_layouts(tmp_path)
    sources = [open_benchmark(p) for p in (mat, mat.parent, asc, npz)]
    for source in sources:
        assert source.names() == ["banana", "breast-cancer"]
        assert source.realizations("breast-cancer") == [1, 2, 3]
    x, t = pool(seed=1)
    train, test = realizations(len(t), 50, 3, seed=11)
    for source in sources:
        X_train, y_train, X_test, y_test = source.load("breast-cancer", 2)
        np.testing.assert_allclose(X_train, x[train[1]], rtol=1e-15)
        np.testing.assert_array_equal(y_train, (t[train[1]] > 0).astype(int))
        np.testing.assert_allclose(X_test, x[test[1]], rtol=1e-15)
        np.testing.assert_array_equal(y_test, (t[test[1]] > 0).astype(int))


def test_every_layout_gives_the_same_table(tmp_path, small_kfd_grid):
    mat, asc, npz = write_all_layouts(tmp_path, names=("banana",), k=2)
    docs = [
        to_json(
            reproduce(
                "mika-table1",
                path,
                methods=["kfd"],
                datasets=["banana"],
                cache_dir=tmp_path / f"cache{i}",
                progress=False,
            )
        )
        for i, path in enumerate((npz, mat, asc))
    ]
    # .asc holds text: the points round-trip through savetxt's 18 digits, exactly
    assert docs[0] == docs[1] == docs[2]


def test_bad_benchmark_files_get_clear_errors(tmp_path):
    x, t = pool()
    savemat(tmp_path / "bad.mat", {"heart": {"x": x, "t": t, "train": [[0, 1, 2]], "test": [[3]]}})
    with pytest.raises(DataFileError, match="1-based"):
        open_benchmark(tmp_path / "bad.mat").load("heart", 1)
    savemat(tmp_path / "labels.mat", {"heart": {"x": x, "t": t * 2, "train": [[1]], "test": [[2]]}})
    with pytest.raises(DataFileError, match="-1 or \\+1"):
        open_benchmark(tmp_path / "labels.mat").load("heart", 1)
    savemat(tmp_path / "other.mat", {"a": np.eye(2)})
    with pytest.raises(DataFileError, match="fields x, t, train and test"):
        open_benchmark(tmp_path / "other.mat")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataFileError, match="no benchmark data"):
        open_benchmark(empty)
    with pytest.raises(DataFileError, match="no data set 'iris'"):
        open_benchmark(tmp_path / "bad.mat").load("iris", 1)
    with pytest.raises(DataFileError, match="no realization 4"):
        open_benchmark(tmp_path / "bad.mat").load("heart", 4)


def write_csv(path, n=80, seed=0):
    x, t = pool(n, d=3, seed=seed)
    labels = np.where(t > 0, "yes", "no")
    lines = ["a,b,c,label"] + [
        f"{r[0]},{r[1]},{r[2]},{lab}" for r, lab in zip(x, labels, strict=True)
    ]
    path.write_text("\n".join(lines) + "\n")
    return x, labels


def test_random_splits_are_stratified_seeded_and_standardized(tmp_path):
    _, labels = write_csv(tmp_path / "mine.csv")
    a = RandomSplits(tmp_path / "mine.csv", splits=3, seed=5)
    b = open_user_data(tmp_path / "mine.csv", splits=3, seed=5)
    assert a.names() == ["mine"] and a.realizations("mine") == [1, 2, 3]
    for r in (1, 2, 3):
        for u, v in zip(a.load("mine", r), b.load("mine", r), strict=True):
            np.testing.assert_array_equal(u, v)
    X_train, y_train, _, y_test = a.load("mine", 1)
    np.testing.assert_allclose(X_train.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(X_train.std(axis=0), 1, atol=1e-12)
    positives = np.mean(labels == "yes")
    assert abs(np.mean(y_test == 1) - positives) < 0.05  # stratified
    assert len(y_train) + len(y_test) == len(labels)
    other = RandomSplits(tmp_path / "mine.csv", splits=3, seed=6).load("mine", 1)
    assert not np.array_equal(other[1], y_train) or not np.array_equal(other[0], X_train)
    with pytest.raises(DataFileError, match="--splits"):
        open_user_data(tmp_path / "mine.csv")


def test_the_protocol_table_runs_on_a_csv(tmp_path, small_kfd_grid):
    write_csv(tmp_path / "mine.csv")
    kwargs = dict(methods=["kfd"], splits=3, seed=2, progress=False)
    doc = reproduce("protocol", tmp_path / "mine.csv", cache_dir=tmp_path / "c", **kwargs)
    (row,) = doc["rows"]
    assert row["dataset"] == "mine" and row["realizations"] == 3
    cell = row["cells"]["kfd"]
    assert cell["paper"] is None and cell["difference_se"] is None
    assert len(cell["ours"]["cv_choices"]) == 3 and 0 <= cell["ours"]["mean"] <= 100
    again = reproduce("protocol", tmp_path / "mine.csv", cache_dir=tmp_path / "c2", **kwargs)
    assert to_json(again) == to_json(doc)
    with pytest.raises(ValueError, match="protocol table"):
        reproduce("mika-table1", tmp_path / "mine.csv", splits=3, progress=False)


def test_the_command_line_runs_the_protocol_table_and_prints_the_expected_time(tmp_path):
    import subprocess
    import sys

    write_csv(tmp_path / "mine.csv", n=60)
    command = [sys.executable, "-m", "kfdviz", "reproduce", "protocol", "--data"]
    command += [str(tmp_path / "mine.csv"), "--splits", "2", "--seed", "3", "--methods", "kfd"]
    command += ["--out", str(tmp_path / "out"), "--no-progress", "--expected-time", "1,4"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "| Mine |" in proc.stdout or "| mine |" in proc.stdout
    assert "expected on 4 workers" in proc.stderr and "tasks in 2 rounds" in proc.stderr
    missing = subprocess.run(
        [*command[:6], str(tmp_path / "mine.csv"), "--methods", "kfd", "--no-progress"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert missing.returncode == 1 and "--splits" in missing.stderr
