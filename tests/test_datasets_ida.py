"""The IDA benchmark files: realizations, labels, errors; and the generators' agreement with them."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz import datasets
from kfdviz.datasets import DataFileError, DataFileNotFoundError, load_ida


def test_banana_realization_1(ida_dir):
    X_train, y_train, X_test, y_test = load_ida(ida_dir, "banana", 1)
    assert X_train.shape == (400, 2) and X_test.shape == (4900, 2)
    assert y_train.shape == (400,) and y_test.shape == (4900,)
    assert X_train.dtype == np.float64 and y_train.dtype == np.int64
    assert set(np.unique(y_train)) == {0, 1} and set(np.unique(y_test)) == {0, 1}
    with np.load(ida_dir / "banana.npz") as raw:
        k = list(raw["realizations"]).index(1)
        np.testing.assert_array_equal(X_train, raw["X"][raw["train_idx"][k]])
        np.testing.assert_array_equal(y_test, raw["y"][raw["test_idx"][k]] > 0)


def test_signed_labels(ida_dir):
    _, y_train, _, _ = load_ida(ida_dir, "banana", 1, signed=True)
    assert set(np.unique(y_train)) == {-1, 1}
    _, y01, _, _ = load_ida(ida_dir, "banana", 1)
    np.testing.assert_array_equal(y01, (y_train + 1) // 2)


def test_realizations_differ_and_arrays_are_copies(ida_dir):
    a = load_ida(ida_dir, "banana", 1)
    b = load_ida(ida_dir, "banana", 2)
    assert not np.array_equal(a[0], b[0])
    a[0][0, 0] = 1e9
    assert load_ida(ida_dir, "banana", 1)[0][0, 0] != 1e9


def test_names_and_realizations(ida_dir):
    names = datasets.ida_names(ida_dir)
    assert {"banana", "twonorm", "ringnorm", "waveform"} <= set(names)
    assert datasets.ida_realizations(ida_dir, "twonorm") == [1]
    assert datasets.ida_realizations(ida_dir, "banana") == list(range(1, 11))


def test_twonorm_has_only_realization_1(ida_dir):
    X_train, _, X_test, _ = load_ida(ida_dir, "twonorm", 1)
    assert X_train.shape == (400, 20) and X_test.shape == (7000, 20)
    with pytest.raises(DataFileError) as info:
        load_ida(ida_dir, "twonorm", 2)
    assert str(info.value) == "twonorm.npz: has no realization 2; it holds realization 1"


def test_missing_realization_lists_the_range(ida_dir):
    with pytest.raises(DataFileError, match=r"banana\.npz: has no realization 11; .* 1-10"):
        load_ida(ida_dir, "banana", 11)
    with pytest.raises(ValueError, match="realization must be an integer"):
        load_ida(ida_dir, "banana", "1")


def test_missing_data_set_lists_what_exists(ida_dir):
    with pytest.raises(DataFileNotFoundError) as info:
        load_ida(ida_dir, "bananas", 1)
    message = str(info.value)
    assert "no benchmark data set 'bananas'" in message and "bananas.npz" in message
    for name in datasets.ida_names(ida_dir):
        assert name in message
    with pytest.raises(DataFileNotFoundError, match=r"no benchmark data set '\.\./ida/banana'"):
        load_ida(ida_dir, "../ida/banana", 1)


def test_missing_folder(tmp_path):
    folder = tmp_path / "nowhere"
    with pytest.raises(DataFileNotFoundError) as info:
        load_ida(folder, "banana", 1)
    assert isinstance(info.value, FileNotFoundError)
    assert str(folder) in str(info.value) and "no such folder" in str(info.value)
    file = tmp_path / "file.txt"
    file.write_text("x")
    with pytest.raises(DataFileError, match="is a file; expected the folder"):
        datasets.ida_names(file)


def test_empty_folder_and_broken_files(tmp_path):
    with pytest.raises(DataFileNotFoundError, match="available: none"):
        load_ida(tmp_path, "banana", 1)
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    with pytest.raises(DataFileError, match=r"broken\.npz: is not a readable \.npz archive"):
        load_ida(tmp_path, "broken", 1)
    np.savez(tmp_path / "partial.npz", X=np.zeros((2, 2)), y=np.array([-1, 1]))
    with pytest.raises(DataFileError, match=r"partial\.npz: lacks array.*'train_idx'"):
        load_ida(tmp_path, "partial", 1)


# --- the generators use the benchmark's label convention ---------------------------------------


def _class_means(ida_dir, name):
    X, y, _, _ = load_ida(ida_dir, name, 1)
    return X[y == 0].mean(axis=0), X[y == 1].mean(axis=0), X, y


def test_twonorm_label_1_has_the_positive_mean(ida_dir):
    m0, m1, _, _ = _class_means(ida_dir, "twonorm")
    assert np.all(m1 > 0) and np.all(m0 < 0)
    X, y = datasets.make("twonorm", n_samples=2000)
    assert np.all(X[y == 1].mean(axis=0) > 0)


def test_ringnorm_label_1_is_the_wide_class_and_the_shift_is_2_over_sqrt20(ida_dir):
    X, y, _, _ = load_ida(ida_dir, "ringnorm", 1)
    narrow, wide = X[y == 0], X[y == 1]
    assert wide.std(axis=0).mean() > 1.7 * narrow.std(axis=0).mean()
    # In units of the narrow class's standard deviation (the files are standardized).
    shift = (narrow.mean(axis=0) - wide.mean(axis=0)).mean() / narrow.std(axis=0).mean()
    assert abs(shift - 2 / np.sqrt(20)) < abs(shift - 1 / np.sqrt(20))
    Xg, yg = datasets.make("ringnorm", n_samples=2000)
    assert Xg[yg == 1].std() > 1.7 * Xg[yg == 0].std()


def test_waveform_label_1_matches_ida_profile(ida_dir):
    X, y, X_test, y_test = load_ida(ida_dir, "waveform", 1)
    X_all = np.concatenate([X, X_test])
    y_all = np.concatenate([y, y_test])
    Xg, yg = datasets.make("waveform", n_samples=6000)
    Xg = (Xg - Xg.mean(axis=0)) / Xg.std(axis=0)
    corr = np.corrcoef(X_all[y_all == 1].mean(axis=0), Xg[yg == 1].mean(axis=0))[0, 1]
    assert corr > 0.99
    assert abs(y_all.mean() - yg.mean()) < 0.03


def test_banana_generator_resembles_ida_banana(ida_dir):
    from sklearn.svm import SVC

    X, y, _, _ = load_ida(ida_dir, "banana", 1)
    Xg, yg = datasets.make("banana", n_samples=3000, seed=1)
    error = 1 - SVC(C=10.0, gamma=1.0).fit(X, y).score(Xg, yg)
    assert error < 0.16
