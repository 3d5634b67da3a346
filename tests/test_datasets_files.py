"""Data files: reading CSV/TSV/NPZ/svmlight, writing CSV/NPZ, and every way a file can be wrong."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kfdviz.datasets import (
    DataFileError,
    DataFileNotFoundError,
    LoadedData,
    load,
    load_table,
    save,
)


def write(tmp_path, name: str, text: str | bytes):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def error_of(path, **options) -> DataFileError:
    with pytest.raises(DataFileError) as info:
        load_table(path, **options)
    return info.value


# --- reading text tables -----------------------------------------------------------------------


def test_csv_with_header_and_string_labels(tmp_path):
    path = write(
        tmp_path, "flowers.csv", "x1,x2,species\n1.5,2,setosa\n3,4e-1,virginica\n5,6,setosa\n"
    )
    data = load_table(path)
    assert isinstance(data, LoadedData)
    np.testing.assert_array_equal(data.X, [[1.5, 2.0], [3.0, 0.4], [5.0, 6.0]])
    np.testing.assert_array_equal(data.y, [0, 1, 0])
    assert data.y.dtype == np.int64 and data.X.dtype == np.float64
    assert data.class_names == ["setosa", "virginica"]
    assert data.feature_names == ["x1", "x2"] and data.label_name == "species"
    assert data.task == "classification" and data.roles is None and data.n_classes == 2
    assert data.train_mask.all()
    X, y = load(path)
    np.testing.assert_array_equal(X, data.X)
    np.testing.assert_array_equal(y, data.y)


def test_csv_without_header(tmp_path):
    data = load_table(write(tmp_path, "a.csv", "1,2,0\n3,4,1\n"))
    np.testing.assert_array_equal(data.X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(data.y, [0, 1])
    assert data.label_name is None and data.feature_names == ["x1", "x2"]


@pytest.mark.parametrize(
    ("sep", "name"),
    [("\t", "a.tsv"), ("\t", "a.txt"), (";", "a.csv"), (" ", "a.dat"), ("|", "a.csv")],
)
def test_delimiters_are_sniffed(tmp_path, sep, name):
    text = sep.join(["a", "b", "label"]) + "\n" + sep.join(["1", "2", "0"]) + "\n"
    text += sep.join(["3", "4", "1"]) + "\n"
    data = load_table(write(tmp_path, name, text))
    np.testing.assert_array_equal(data.X, [[1, 2], [3, 4]])
    assert data.feature_names == ["a", "b"]


def test_whitespace_runs_comments_blank_lines_crlf_and_bom(tmp_path):
    text = "\ufeff# a comment\r\n\r\n  x    y   c\r\n 1   2   0\r\n\r\n# more\r\n3\t 4  1\r\n"
    data = load_table(write(tmp_path, "a.txt", text))
    np.testing.assert_array_equal(data.X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(data.y, [0, 1])
    assert data.feature_names == ["x", "y"]


def test_quoted_header_names(tmp_path):
    data = load_table(write(tmp_path, "a.csv", '"width, cm","h",label\n1,2,a\n3,4,b\n'))
    assert data.feature_names == ["width, cm", "h"]


def test_header_forced_either_way(tmp_path):
    path = write(tmp_path, "a.csv", "1,2,3\n4,5,6\n7,8,9\n")
    assert load_table(path).X.shape == (3, 2)
    data = load_table(path, header=True)
    assert data.X.shape == (2, 2) and data.feature_names == ["1", "2"] and data.label_name == "3"


@pytest.mark.parametrize(
    ("label", "feature_names"),
    [("a", ["b", "c"]), ("A", ["b", "c"]), (1, ["a", "c"]), (-2, ["a", "c"])],
)
def test_label_column_by_name_or_index(tmp_path, label, feature_names):
    data = load_table(write(tmp_path, "a.csv", "a,b,c\n0,2,3\n1,5,6\n"), label=label)
    assert data.feature_names == feature_names


def test_no_label_column(tmp_path):
    data = load_table(write(tmp_path, "a.csv", "a,b\n0,2\n1,5\n"), label=False)
    assert data.X.shape == (2, 2)
    np.testing.assert_array_equal(data.y, [0, 0])


def test_integer_labels_kept_or_compacted(tmp_path):
    kept = load_table(write(tmp_path, "a.csv", "x,l\n1,0\n2,3\n3,0\n"))
    np.testing.assert_array_equal(kept.y, [0, 3, 0])
    assert kept.class_names == ["0", "1", "2", "3"]
    signed = load_table(write(tmp_path, "b.csv", "x,l\n1,-1\n2,+1\n3,-1\n"))
    np.testing.assert_array_equal(signed.y, [0, 1, 0])
    assert signed.class_names == ["-1", "1"]
    squeezed = load_table(write(tmp_path, "c.csv", "x,l\n1,0\n2,9\n"), max_classes=8)
    np.testing.assert_array_equal(squeezed.y, [0, 1])
    assert squeezed.class_names == ["0", "9"]


def test_real_labels_are_regression_targets(tmp_path):
    data = load_table(write(tmp_path, "a.csv", "x,t\n1,0.5\n2,2.0\n3,-1e-3\n"))
    assert data.task == "regression" and data.class_names is None
    assert data.y.dtype == np.float64
    np.testing.assert_array_equal(data.y, [0.5, 2.0, -1e-3])
    as_classes = load_table(
        write(tmp_path, "b.csv", "x,t\n1,0.5\n2,10.5\n3,2.5\n"), task="classification"
    )
    assert as_classes.class_names == ["0.5", "2.5", "10.5"]
    np.testing.assert_array_equal(as_classes.y, [0, 2, 1])
    forced = load_table(write(tmp_path, "c.csv", "x,t\n1,1\n2,2\n"), task="regression")
    assert forced.task == "regression" and forced.y.dtype == np.float64


def test_roles_column(tmp_path):
    data = load_table(write(tmp_path, "a.csv", "x,label,role\n1,0,train\n2,1, Test\n3,1,train\n"))
    np.testing.assert_array_equal(data.roles, ["train", "test", "train"])
    np.testing.assert_array_equal(data.train_mask, [True, False, True])
    assert data.feature_names == ["x"] and data.label_name == "label"


# --- malformed text tables: the message says where and what was expected -----------------------


def test_non_numeric_cell(tmp_path):
    text = "x1,x2,label\n" + "1,2,0\n" * 5 + "1,abc,1\n"
    err = error_of(write(tmp_path, "points.csv", text))
    assert str(err) == "points.csv, line 7, column 'x2': 'abc' is not a number"
    assert (err.line, err.column) == (7, "x2")
    assert err.path.endswith("points.csv")


def test_non_numeric_cell_without_header_uses_column_number(tmp_path):
    err = error_of(write(tmp_path, "p.csv", "1,2,0\n1,2,0\n4,x,1\n"))
    assert "p.csv" in str(err) and "line 3" in str(err) and "column 2" in str(err)
    assert "'x' is not a number" in str(err)


def test_empty_cell(tmp_path):
    err = error_of(write(tmp_path, "p.csv", "a,b,c\n1,2,0\n1,,1\n"))
    assert "p.csv, line 3, column 'b': empty cell, expected a number" == str(err)


def test_ragged_row(tmp_path):
    err = error_of(write(tmp_path, "p.csv", "a,b,c\n1,2,0\n1,2\n1,2,0\n"))
    assert str(err) == "p.csv, line 3: 2 fields, expected 3 as in the header"
    err = error_of(write(tmp_path, "q.csv", "1,2,0\n1,2,0,4\n"))
    assert "q.csv, line 2: 4 fields, expected 3 as in line 1" == str(err)


@pytest.mark.parametrize("text", ["", "\n\n  \n", "# only a comment\n"])
def test_empty_file(tmp_path, text):
    err = error_of(write(tmp_path, "e.csv", text))
    assert "e.csv" in str(err) and "empty" in str(err) and "expected rows of numbers" in str(err)


def test_header_only(tmp_path):
    err = error_of(write(tmp_path, "h.csv", "\nx,y,label\n"))
    assert str(err) == "h.csv, line 2: there are no data rows below the header"


def test_single_class_only_when_classes_are_needed(tmp_path):
    path = write(tmp_path, "one.csv", "x,label\n1,a\n2,a\n")
    assert load_table(path).class_names == ["a"]
    err = error_of(path, min_classes=2)
    assert "one.csv" in str(err) and "label column 'label'" in str(err)
    assert "only 1 class ('a')" in str(err) and "at least 2 are needed" in str(err)


@pytest.mark.parametrize(("cell", "line"), [("nan", 3), ("NaN", 3), ("inf", 3), ("-Infinity", 3)])
def test_nan_and_inf(tmp_path, cell, line):
    err = error_of(write(tmp_path, "n.csv", f"a,b,c\n1,2,0\n1,{cell},1\n"))
    assert f"n.csv, line {line}, column 'b': {cell!r} is not a finite number" in str(err)
    assert "missing or infinite values are not supported" in str(err)


def test_missing_label_value(tmp_path):
    err = error_of(write(tmp_path, "m.csv", "a,label\n1,0\n2,\n"))
    assert "m.csv, line 3, column 'label': label is empty" in str(err)
    err = error_of(write(tmp_path, "m2.csv", "a,label\n1,0\n2,NaN\n"))
    assert "line 3" in str(err) and "'NaN'" in str(err)


def test_regression_target_not_a_number(tmp_path):
    err = error_of(write(tmp_path, "r.csv", "a,t\n1,0.5\n2,abc\n"), task="regression")
    assert "r.csv, line 3, column 't': 'abc' is not a number" in str(err)


def test_label_column_that_does_not_exist(tmp_path):
    path = write(tmp_path, "c.csv", "x1,x2,label\n1,2,0\n3,4,1\n")
    err = error_of(path, label="class")
    assert (
        str(err) == "c.csv: there is no label column 'class'; the columns are 'x1', 'x2', 'label'"
    )
    err = error_of(path, label=3)
    assert "no label column number 3" in str(err) and "3 columns" in str(err) and "'x1'" in str(err)
    err = error_of(write(tmp_path, "n.csv", "1,2,0\n3,4,1\n"), label="class")
    assert "no header row" in str(err) and "index" in str(err)


def test_too_many_classes(tmp_path):
    rows = "".join(f"{i},{i + 0.5}\n" for i in range(12))
    err = error_of(write(tmp_path, "k.csv", "x,t\n" + rows), max_classes=8)
    assert "k.csv" in str(err) and "12 classes, more than the 8 allowed" in str(err)
    assert "regression" in str(err)


def test_too_many_points(tmp_path):
    rows = "".join(f"{i},{i % 2}\n" for i in range(30))
    err = error_of(write(tmp_path, "big.csv", "x,label\n" + rows), max_points=20)
    assert "big.csv" in str(err) and "30 points, more than the limit of 20" in str(err)
    assert "subset" in str(err)


def test_too_many_bytes(tmp_path):
    path = write(tmp_path, "big.csv", "x,label\n" + "1.0,0\n" * 400)
    err = error_of(path, max_bytes=1024)
    assert "big.csv" in str(err) and "2.4 KB" in str(err) and "1.0 KB" in str(err)
    assert "subset" in str(err)


def test_bad_role(tmp_path):
    err = error_of(write(tmp_path, "r.csv", "x,label,role\n1,0,train\n2,1,trn\n"))
    assert (
        str(err) == "r.csv, line 3, column 'role': 'trn' is not a role; expected 'train' or 'test'"
    )


def test_single_column(tmp_path):
    err = error_of(write(tmp_path, "s.csv", "1\n2\n3\n"))
    assert "s.csv" in str(err) and "no feature column" in str(err)


def test_binary_file(tmp_path):
    err = error_of(write(tmp_path, "b.csv", b"\x00\x01\x02binary"))
    assert "b.csv" in str(err) and "binary" in str(err)


def test_latin1_text_is_read(tmp_path):
    data = load_table(write(tmp_path, "l.csv", "Gr\xf6\xdfe,label\n1,0\n2,1\n".encode("latin-1")))
    assert data.feature_names == ["Größe"]


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(DataFileNotFoundError) as info:
        load_table(tmp_path / "nope.csv")
    assert isinstance(info.value, FileNotFoundError) and isinstance(info.value, ValueError)
    assert "nope.csv" in str(info.value) and "no such file" in str(info.value)
    err = error_of(tmp_path)
    assert "is a folder" in str(err)


def test_bad_options(tmp_path):
    path = write(tmp_path, "a.csv", "1,0\n")
    with pytest.raises(ValueError, match="unknown file format 'xls'"):
        load_table(path, format="xls")
    with pytest.raises(ValueError, match="max_points must be a positive integer"):
        load_table(path, max_points=0)
    with pytest.raises(ValueError, match="task must be"):
        load_table(path, task="clustering")


# --- NPZ and svmlight --------------------------------------------------------------------------


def test_npz_reading(tmp_path):
    path = tmp_path / "d.npz"
    np.savez(
        path,
        X=np.arange(6.0).reshape(3, 2),
        y=np.array(["b", "a", "b"]),
        roles=np.array(["train", "test", "train"]),
    )
    data = load_table(path)
    np.testing.assert_array_equal(data.y, [1, 0, 1])
    assert data.class_names == ["a", "b"]
    np.testing.assert_array_equal(data.roles, ["train", "test", "train"])


@pytest.mark.parametrize(
    ("arrays", "fragment"),
    [
        ({"Z": np.zeros((2, 2))}, "has no array 'X' (the points); its arrays are: 'Z'"),
        ({"X": np.zeros(3), "y": np.zeros(3)}, "array 'X' has shape (3,)"),
        ({"X": np.zeros((3, 2))}, "has no label array 'y'; its arrays are: 'X'"),
        ({"X": np.zeros((3, 2)), "y": np.zeros(2, int)}, "array 'y' has shape (2,); expected (3,)"),
        (
            {"X": np.array([[1.0, np.nan]]), "y": np.zeros(1, int)},
            "array 'X', row 1, column 2: nan",
        ),
        ({"X": np.zeros((2, 1)), "y": np.array([0.5, np.inf])}, "array 'y', row 2: label inf"),
        (
            {"X": np.zeros((2, 1)), "y": np.array([0, 1]), "roles": np.array(["train", "x"])},
            "array 'roles', row 2: 'x' is not a role",
        ),
        ({"X": np.zeros((2, 1)), "y": np.zeros(2, int)}, "only 1 class ('0'); at least 2"),
    ],
)
def test_npz_errors(tmp_path, arrays, fragment):
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    err = error_of(path, min_classes=2)
    assert "bad.npz" in str(err) and fragment in str(err)


def test_npz_that_is_not_a_zip(tmp_path):
    err = error_of(write(tmp_path, "x.npz", "hello"))
    assert "x.npz" in str(err) and "not a readable .npz archive" in str(err)


def test_npz_with_pickled_objects_is_refused(tmp_path):
    path = tmp_path / "o.npz"
    np.savez(path, X=np.zeros((1, 1)), y=np.array([{"a": 1}], dtype=object))
    assert "holds Python objects, which kfdviz never unpickles" in str(error_of(path))


def test_svmlight(tmp_path):
    path = write(tmp_path, "d.libsvm", "# comment\n+1 1:0.5 3:2\n-1 2:1.5\n+1 qid:3 1:1\n")
    data = load_table(path)
    np.testing.assert_array_equal(data.X, [[0.5, 0, 2], [0, 1.5, 0], [1, 0, 0]])
    np.testing.assert_array_equal(data.y, [1, 0, 1])
    assert data.class_names == ["-1", "1"]
    zero_based = load_table(write(tmp_path, "z.svm", "1 0:1 1:2\n0 0:3\n"))
    np.testing.assert_array_equal(zero_based.X, [[1, 2], [3, 0]])
    reg = load_table(write(tmp_path, "r.svm", "0.25 1:1\n1.5 1:2\n"))
    assert reg.task == "regression"
    np.testing.assert_array_equal(reg.y, [0.25, 1.5])


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1 1:0.5\nabc 1:2\n", "line 2: label 'abc' is not a number"),
        ("1 1:0.5\n1 1:2 oops\n", "line 2: item 3 ('oops') is not of the form index:value"),
        ("1 1:0.5\n1 1:zz\n", "line 2: item 2: 'zz' is not a number"),
        ("1 2:0.5 1:1\n", "line 1: item 3: feature indices must increase"),
        ("0 21955046003:0\n", "line 1: item 2: feature index 21955046003 is too large"),
        ("\n# nothing\n", "the file is empty"),
    ],
)
def test_svmlight_errors(tmp_path, text, fragment):
    err = error_of(write(tmp_path, "s.svm", text))
    assert str(err).startswith("s.svm") and fragment in str(err)


def test_format_by_content(tmp_path):
    svm = write(tmp_path, "data.unknown", "1 1:2 2:3\n-1 1:1\n")
    assert load_table(svm).X.shape == (2, 2)
    npz = tmp_path / "archive"
    with open(npz, "wb") as handle:
        np.savez(handle, X=np.ones((2, 2)), y=np.array([0, 1]))
    assert load_table(npz).X.shape == (2, 2)
    assert load_table(write(tmp_path, "t.unknown", "a,b\n1,0\n")).X.shape == (1, 1)
    assert load_table(svm, format="libsvm").X.shape == (2, 2)


# --- writing, and round trips ------------------------------------------------------------------

AWKWARD = np.array(
    [
        [np.pi, -0.0, 1e-310],
        [1e150, -1.0 / 3.0, 2.0**-1074],  # 1e150: the largest a data file may hold
        [0.1 + 0.2, 123456789.123456789, -7.0],
    ]
)


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".npz"])
def test_round_trip_classification_with_roles(tmp_path, suffix):
    y = np.array([0, 2, 2])
    roles = np.array(["train", "test", "train"])
    path = tmp_path / f"out{suffix}"
    save(path, AWKWARD, y, roles)
    data = load_table(path)
    np.testing.assert_array_equal(data.X, AWKWARD)
    assert np.signbit(data.X[0, 1])
    np.testing.assert_array_equal(data.y, y)
    np.testing.assert_array_equal(data.roles, roles)
    assert data.task == "classification"


@pytest.mark.parametrize("suffix", [".csv", ".npz"])
def test_round_trip_regression(tmp_path, suffix):
    y = np.array([1.0, 2.0, -0.1])  # whole numbers must stay regression targets
    path = tmp_path / f"reg{suffix}"
    save(path, AWKWARD, y)
    data = load_table(path)
    assert data.task == "regression" and data.roles is None
    np.testing.assert_array_equal(data.y, y)
    np.testing.assert_array_equal(data.X, AWKWARD)


def test_csv_layout(tmp_path):
    path = tmp_path / "o.csv"
    save(path, [[1.0, 2.5]], [1], ["test"], feature_names=["a", "b"], label_name="cls")
    assert path.read_text() == "a,b,cls,role\n1.0,2.5,1,test\n"


def test_npz_keeps_names(tmp_path):
    path = tmp_path / "o.npz"
    save(
        path,
        np.zeros((2, 2)),
        [0, 1],
        feature_names=["u", "v"],
        label_name="kind",
        class_names=["cat", "dog"],
    )
    data = load_table(path)
    assert data.feature_names == ["u", "v"] and data.label_name == "kind"
    assert data.class_names == ["cat", "dog"]


def test_save_does_not_modify_its_inputs_and_load_copies(tmp_path):
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    y = np.array([True, False])
    roles = ["train", "test"]
    X0, y0 = X.copy(), y.copy()
    save(tmp_path / "a.npz", X, y, roles)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert roles == ["train", "test"]
    first, second = load_table(tmp_path / "a.npz"), load_table(tmp_path / "a.npz")
    first.X[0, 0] = 99.0
    assert second.X[0, 0] == 1.0


@pytest.mark.parametrize(
    ("X", "y", "roles", "fragment"),
    [
        (np.zeros(3), [0, 1, 2], None, "X must be a 2-D array"),
        (np.zeros((2, 1)), [0], None, "y must have one entry per row"),
        (np.array([[np.nan]]), [0], None, "NaN or infinite"),
        (np.zeros((1, 1)), [np.inf], None, "y contains NaN"),
        (np.zeros((1, 1)), [0], ["validate"], "roles must be 'train' or 'test'"),
        (np.zeros((1, 1)), ["a"], None, "y must hold integer class labels"),
    ],
)
def test_save_rejects_bad_input(tmp_path, X, y, roles, fragment):
    with pytest.raises(ValueError, match=fragment):
        save(tmp_path / "x.csv", X, y, roles)
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left behind


def test_save_rejects_reserved_or_duplicate_names(tmp_path):
    with pytest.raises(ValueError, match="distinct"):
        save(tmp_path / "x.csv", np.zeros((1, 2)), [0], feature_names=["a", "A"])
    with pytest.raises(ValueError, match="reserved"):
        save(tmp_path / "x.csv", np.zeros((1, 1)), [0], feature_names=["role"])
    with pytest.raises(ValueError, match="svmlight"):
        save(tmp_path / "x.svm", np.zeros((1, 1)), [0])


# --- no input crashes the reader with anything but DataFileError -------------------------------

CELL = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-5, 5).map(str),
    st.sampled_from(
        ["", " ", "a", "nan", "train", "test", '"', '"q,"', "1e5", "#", "role", "label"]
    ),
    st.text(max_size=4),
)


@st.composite
def tables(draw):
    sep = draw(st.sampled_from([",", "\t", ";", " ", "|"]))
    n_rows = draw(st.integers(0, 6))
    width = draw(st.integers(1, 4))
    rows = []
    for _ in range(n_rows):
        w = width if draw(st.booleans()) else draw(st.integers(1, 5))
        rows.append(sep.join(draw(st.lists(CELL, min_size=w, max_size=w))))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(rows)


def _check_read(path, **options):
    try:
        data = load_table(path, **options)
    except DataFileError as exc:
        assert str(exc).startswith(path.name)
        return
    n = data.X.shape[0]
    assert data.X.ndim == 2 and n >= 1 and np.all(np.isfinite(data.X))
    assert data.y.shape == (n,)
    assert data.roles is None or data.roles.shape == (n,)


@given(text=tables(), label=st.sampled_from([None, 0, -1, "label", False]))
def test_generated_tables_never_crash_the_reader(tmp_path_factory, text, label):
    path = tmp_path_factory.mktemp("gen") / "table.csv"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _check_read(path, label=label)
    _check_read(path, label=label, min_classes=2, max_classes=3)


@given(text=st.text(max_size=200))
def test_arbitrary_text_never_crashes_the_reader(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("txt") / "any.csv"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    _check_read(path)


@given(data=st.binary(max_size=200), suffix=st.sampled_from([".csv", ".npz", ".svm", ".bin"]))
def test_arbitrary_bytes_never_crash_the_reader(tmp_path_factory, data, suffix):
    path = tmp_path_factory.mktemp("bin") / f"any{suffix}"
    path.write_bytes(data)
    _check_read(path)


@given(
    X=st.lists(
        st.lists(st.floats(min_value=-1e150, max_value=1e150), min_size=2, max_size=2),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
)
def test_csv_round_trip_is_exact(tmp_path_factory, X, data):
    X = np.array(X)
    y = np.array(data.draw(st.lists(st.integers(0, 7), min_size=len(X), max_size=len(X))))
    roles = np.array(
        data.draw(st.lists(st.sampled_from(["train", "test"]), min_size=len(X), max_size=len(X)))
    )
    path = tmp_path_factory.mktemp("rt") / "points.csv"
    save(path, X, y, roles)
    loaded = load_table(path)
    np.testing.assert_array_equal(loaded.X, X)
    np.testing.assert_array_equal(loaded.y, y)
    np.testing.assert_array_equal(loaded.roles, roles)


def test_a_label_column_first_keeps_the_other_columns_as_features(tmp_path):
    from kfdviz import datasets

    path = tmp_path / "first.csv"
    path.write_text("label,a,b\n0,1.0,2.0\n1,3.0,4.0\n0,5.0,6.0\n")
    loaded = datasets.load_table(path)
    assert loaded.feature_names == ["a", "b"] and list(loaded.y) == [0, 1, 0]
