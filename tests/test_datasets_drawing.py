"""The drawn dataset: edits, roles, undo/redo with merged drags, observers, snapshots."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kfdviz.datasets.drawing import MAX_CLASSES, Change, DrawnDataset


def state(ds: DrawnDataset):
    return ds.X.copy(), ds.y.copy(), ds.roles.copy(), ds.mode


def assert_same(a, b):
    for u, v in zip(a[:3], b[:3], strict=True):
        np.testing.assert_array_equal(u, v)
        assert u.dtype == v.dtype
    assert a[3] == b[3]


def test_empty_dataset():
    ds = DrawnDataset()
    assert ds.n_points == 0 and len(ds) == 0 and ds.dim == 2
    assert ds.X.shape == (0, 2) and ds.y.shape == (0,) and ds.roles.shape == (0,)
    assert ds.mode == "classification" and ds.version == 0
    assert not ds.can_undo and not ds.can_redo and ds.undo() is False and ds.redo() is False
    assert ds.nearest([0, 0]) is None
    assert DrawnDataset(3).X.shape == (0, 3)


def test_from_arrays_copies_and_infers_mode():
    X = np.array([[0.0, 1.0], [2.0, 3.0]])
    y = np.array([1, 0])
    ds = DrawnDataset.from_arrays(X, y, ["train", "test"])
    X[0, 0] = 99.0
    y[0] = 5
    assert ds.X[0, 0] == 0.0 and ds.y[0] == 1
    np.testing.assert_array_equal(ds.roles, ["train", "test"])
    np.testing.assert_array_equal(ds.train_mask, [True, False])
    np.testing.assert_array_equal(ds.test_mask, [False, True])
    assert ds.mode == "classification" and ds.y.dtype == np.int64
    assert not ds.can_undo and ds.version == 0
    reg = DrawnDataset.from_arrays(np.zeros((2, 1)), [0.5, 1.0])
    assert reg.mode == "regression" and reg.y.dtype == np.float64
    whole = DrawnDataset.from_arrays(np.zeros((2, 5)), [0.0, 1.0])
    assert whole.mode == "classification" and whole.dim == 5
    assert DrawnDataset.from_arrays(np.zeros((3, 2))).y.tolist() == [0, 0, 0]


def test_arrays_are_read_only_snapshots():
    ds = DrawnDataset.from_arrays([[0.0, 0.0]], [0])
    X = ds.X
    with pytest.raises(ValueError):
        X[0, 0] = 1.0
    ds.move(0, [5.0, 5.0])
    assert X[0, 0] == 0.0  # the old snapshot is unchanged
    X2, _, _ = ds.snapshot()
    X2[0, 0] = -1.0
    assert ds.X[0, 0] == 5.0


def test_add_remove_move_relabel_roles_and_undo_each():
    ds = DrawnDataset()
    start = state(ds)
    assert ds.add([[0, 0], [1, 1], [2, 2]], labels=[0, 1, 2]).tolist() == [0, 1, 2]
    after_add = state(ds)
    ds.remove([1])
    np.testing.assert_array_equal(ds.X, [[0, 0], [2, 2]])
    np.testing.assert_array_equal(ds.y, [0, 2])
    after_remove = state(ds)
    ds.move([1], [[5, 6]])
    after_move = state(ds)
    ds.relabel([0, 1], 7)
    after_relabel = state(ds)
    ds.set_roles([0], "test")
    np.testing.assert_array_equal(ds.roles, ["test", "train"])
    after_roles = state(ds)
    ds.clear()
    assert ds.n_points == 0

    history = [after_roles, after_relabel, after_move, after_remove, after_add, start]
    for expected in history:
        assert ds.undo()
        assert_same(state(ds), expected)
    assert not ds.can_undo
    for expected in reversed(history[:-1]):
        assert ds.redo()
        assert_same(state(ds), expected)
    assert ds.redo() and ds.n_points == 0 and not ds.can_redo


def test_remove_in_the_middle_restores_order():
    ds = DrawnDataset.from_arrays(np.arange(12.0).reshape(6, 2), [0, 1, 2, 3, 4, 5])
    before = state(ds)
    ds.remove([4, 0, 2])
    np.testing.assert_array_equal(ds.y, [1, 3, 5])
    ds.undo()
    assert_same(state(ds), before)


def test_drag_merges_into_one_undo_step():
    ds = DrawnDataset.from_arrays([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    token = ds.new_merge_token()
    for t in range(1, 61):
        ds.move(0, [t / 10, t / 20], merge=token)
    assert ds.X[0].tolist() == [6.0, 3.0]
    assert ds.version == 60
    assert ds.undo_text == "Move point"
    ds.undo()
    assert ds.X[0].tolist() == [0.0, 0.0] and not ds.can_undo
    ds.redo()
    assert ds.X[0].tolist() == [6.0, 3.0]


def test_separate_drags_stay_separate():
    ds = DrawnDataset.from_arrays([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    first, second = ds.new_merge_token(), ds.new_merge_token()
    ds.move(0, [1, 1], merge=first)
    ds.move(0, [2, 2], merge=first)
    ds.move(0, [3, 3], merge=second)
    ds.move(1, [9, 9], merge=second)  # same token, other point: its own step
    ds.move(0, [4, 4])  # no token: never merges
    ds.move(0, [5, 5])
    positions = []
    while ds.undo():
        positions.append(ds.X.tolist())
    assert positions == [
        [[4, 4], [9, 9]],
        [[3, 3], [9, 9]],
        [[3, 3], [1, 1]],
        [[2, 2], [1, 1]],
        [[0, 0], [1, 1]],
    ]


def test_drag_after_undo_does_not_merge_into_history():
    ds = DrawnDataset.from_arrays([[0.0, 0.0]], [0])
    token = ds.new_merge_token()
    ds.move(0, [1, 1], merge=token)
    ds.add([5, 5])
    ds.undo()  # the add
    ds.move(0, [2, 2], merge=token)  # a redo stack existed: starts a new step
    ds.undo()
    assert ds.X.tolist() == [[1, 1]]


def test_brush_stroke_adds_merge():
    ds = DrawnDataset()
    token = ds.new_merge_token()
    for i in range(10):
        ds.add([i, i], labels=1, merge=token)
    assert ds.n_points == 10 and ds.undo_text == "Add points"
    ds.undo()
    assert ds.n_points == 0 and not ds.can_undo
    ds.redo()
    assert ds.n_points == 10 and np.all(ds.y == 1)


def test_erase_stroke_removes_in_one_undo_step():
    X = np.arange(20.0).reshape(10, 2)
    ds = DrawnDataset.from_arrays(X, np.arange(10) % 3, ["train"] * 5 + ["test"] * 5)
    before = state(ds)
    seen = []
    ds.subscribe(lambda _ds, change: seen.append(change))
    token = ds.new_merge_token()
    ds.remove([7], merge=token)  # original row 7
    ds.remove([0, 2], merge=token)  # original rows 0 and 2
    ds.remove([5], merge=token)  # now row 5 is original row 8
    assert [c.kind for c in seen] == ["remove"] * 3
    np.testing.assert_array_equal(ds.X[:, 0], [2, 6, 8, 10, 12, 18])
    assert ds.undo_text == "Delete points"
    after = state(ds)
    assert ds.undo()
    assert_same(state(ds), before)
    np.testing.assert_array_equal(seen[-1].indices, [0, 2, 7, 8])  # numbered as before the stroke
    assert seen[-1].kind == "add" and not ds.can_undo
    assert ds.redo()
    assert_same(state(ds), after)
    # A removal without the token (or with another) is a step of its own.
    ds.remove([0])
    ds.remove([0], merge=ds.new_merge_token())
    ds.undo()
    ds.undo()
    assert_same(state(ds), after)


def test_replace_is_one_undoable_step_and_may_change_dimension_and_mode():
    ds = DrawnDataset.from_arrays([[0.0, 0.0], [1.0, 1.0]], [0, 1], ["train", "test"])
    ds.add([2.0, 2.0], labels=1)
    before = state(ds)
    kinds = []
    ds.subscribe(lambda _ds, change: kinds.append((change.kind, change.source)))
    X3 = np.arange(12.0).reshape(4, 3)
    ds.replace(X3, [0, 1, 2, 2], roles=["train", "test", "train", "train"])
    assert ds.dim == 3 and ds.n_points == 4 and ds.mode == "classification"
    np.testing.assert_array_equal(ds.roles, ["train", "test", "train", "train"])
    assert ds.undo_text == "Replace data" and ds.can_undo
    ds.add([9.0, 9.0, 9.0], labels=2)
    ds.undo()
    ds.undo()
    assert_same(state(ds), before)
    assert ds.dim == 2
    ds.redo()
    assert ds.dim == 3 and ds.n_points == 4
    assert kinds[0] == ("replace", "do") and ("replace", "undo") in kinds
    ds.replace(np.linspace(0, 1, 5)[:, None], np.sin(np.linspace(0, 1, 5)), mode="regression")
    assert ds.mode == "regression" and ds.y.dtype == np.float64 and ds.dim == 1
    ds.undo()
    assert ds.mode == "classification" and ds.dim == 3
    ds.replace(np.empty((0, 2)))
    assert ds.n_points == 0 and ds.dim == 2


def test_replaced_data_sets_kept_for_undo_are_bounded():
    from kfdviz.datasets import drawing

    ds = DrawnDataset()
    for k in range(drawing.REPLACE_LIMIT + 5):
        ds.add([float(k), 0.0])
        ds.replace(np.full((1, 2), float(k)), [0])  # data set k
    undone = 0
    while ds.undo():
        undone += 1
    # The last REPLACE_LIMIT data sets, each with the point added before it; the oldest state
    # reached is the data set that came before them.
    assert undone == 2 * drawing.REPLACE_LIMIT
    k = 5 - 1
    assert ds.X.tolist() == [[float(k), float(k)]]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (([[0.0, np.nan]], [0]), "finite"),
        (([[0.0, 1.0]], [MAX_CLASSES]), "class labels"),
        (([[0.0, 1.0]], [0], ["maybe"]), "roles"),
        (([[0.0, 1.0]], [0, 1]), "labels"),
    ],
)
def test_bad_replace_is_refused_without_side_effects(args, fragment):
    ds = DrawnDataset.from_arrays([[0.0, 0.0]], [1])
    before = state(ds)
    with pytest.raises(ValueError, match=fragment):
        ds.replace(*args)
    assert_same(state(ds), before)
    assert not ds.can_undo and ds.version == 0


def test_new_edit_clears_redo():
    ds = DrawnDataset()
    ds.add([0, 0])
    ds.add([1, 1])
    ds.undo()
    assert ds.can_redo and ds.redo_text == "Add point"
    ds.add([2, 2])
    assert not ds.can_redo
    np.testing.assert_array_equal(ds.X, [[0, 0], [2, 2]])


def test_no_op_edits_make_no_step():
    ds = DrawnDataset.from_arrays([[0.0, 0.0]], [1], ["test"])
    ds.relabel([0], 1)
    ds.set_roles([0], "test")
    ds.remove([])
    ds.move([], np.empty((0, 2)))
    ds.add(np.empty((0, 2)))
    ds.set_mode("classification")
    assert ds.version == 0 and not ds.can_undo
    DrawnDataset().clear()


def test_version_increases_on_every_change():
    ds = DrawnDataset()
    versions = [ds.version]
    ds.add([0, 0])
    versions.append(ds.version)
    ds.move(0, [1, 1])
    versions.append(ds.version)
    ds.undo()
    versions.append(ds.version)
    ds.redo()
    versions.append(ds.version)
    assert versions == [0, 1, 2, 3, 4]


def test_observers_are_told_what_changed():
    ds = DrawnDataset()
    seen: list[Change] = []
    ds.subscribe(lambda dataset, change: seen.append(change))
    other = ds.subscribe(lambda dataset, change: None)
    ds.unsubscribe(other)
    assert len(ds.observers) == 1
    ds.add([[0, 0], [1, 1]])
    ds.move(1, [2, 2])
    ds.remove([0])
    ds.undo()
    ds.clear()
    ds.undo()
    kinds = [(c.kind, c.source, None if c.indices is None else c.indices.tolist()) for c in seen]
    assert kinds == [
        ("add", "do", [0, 1]),
        ("move", "do", [1]),
        ("remove", "do", [0]),
        ("add", "undo", [0]),
        ("clear", "do", None),
        ("restore", "undo", None),
    ]
    assert [c.version for c in seen] == list(range(1, 7))


def test_observer_sees_the_new_state():
    ds = DrawnDataset()
    counts = []
    ds.observers.append(lambda dataset, change: counts.append(dataset.n_points))
    ds.add([0, 0])
    ds.add([1, 1])
    ds.undo()
    assert counts == [1, 2, 1]


def test_split_is_stratified_deterministic_and_one_step():
    X = np.zeros((100, 2))
    y = np.repeat([0, 1, 2], [50, 30, 20])
    ds = DrawnDataset.from_arrays(X, y)
    ds.split(0.2, seed=1)
    test = ds.test_mask
    assert [int(np.sum(test & (y == c))) for c in range(3)] == [10, 6, 4]
    other = DrawnDataset.from_arrays(X, y)
    other.split(0.2, seed=1)
    np.testing.assert_array_equal(other.roles, ds.roles)
    third = DrawnDataset.from_arrays(X, y)
    third.split(0.2, seed=2)
    assert not np.array_equal(third.roles, ds.roles)
    assert ds.undo_text == "Split train/test"
    ds.undo()
    assert not ds.test_mask.any() and not ds.can_undo
    ds.split(1.0)
    assert ds.test_mask.all()
    with pytest.raises(ValueError, match="test_ratio"):
        ds.split(1.5)


def test_regression_mode_and_switching():
    ds = DrawnDataset(mode="regression")
    ds.add([[0, 0], [1, 1]], labels=[0.25, -3.5])
    assert ds.y.dtype == np.float64 and ds.y.tolist() == [0.25, -3.5]
    ds.relabel([0], 1.75)
    ds.set_mode("classification")
    assert ds.mode == "classification" and ds.y.tolist() == [2, 0]
    ds.undo()
    assert ds.mode == "regression" and ds.y.tolist() == [1.75, -3.5]
    ds.set_mode("classification")
    ds.set_mode("regression")
    assert ds.y.tolist() == [2.0, 0.0] and ds.y.dtype == np.float64
    split = DrawnDataset.from_arrays(np.zeros((10, 1)), np.linspace(0, 1, 10))
    split.split(0.3, seed=0)
    assert split.test_mask.sum() == 3
    with pytest.raises(ValueError, match="classification mode"):
        split.class_counts()


def test_class_counts_and_nearest():
    ds = DrawnDataset.from_arrays([[0, 0], [1, 0], [5, 5]], [0, 3, 3])
    assert ds.class_counts().tolist() == [1, 0, 0, 2, 0, 0, 0, 0]
    assert ds.nearest([0.9, 0.1]) == 1
    assert ds.nearest([3, 3], max_distance=1.0) is None
    with pytest.raises(ValueError, match="2 coordinates"):
        ds.nearest([1, 2, 3])


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda ds: ds.add([1, 2, 3]), "2 coordinates each"),
        (lambda ds: ds.add([np.nan, 0]), "finite"),
        (lambda ds: ds.add([0, 0], labels=MAX_CLASSES), r"integers 0\.\.7"),
        (lambda ds: ds.add([0, 0], labels=-1), r"integers 0\.\.7"),
        (lambda ds: ds.add([0, 0], labels=0.5), r"integers 0\.\.7"),
        (lambda ds: ds.add([[0, 0], [1, 1]], labels=[0, 1, 2]), "one label or 2 labels"),
        (lambda ds: ds.add([0, 0], roles="validation"), "'train' or 'test'"),
        (lambda ds: ds.remove([5]), r"indices must be in 0\.\.1"),
        (lambda ds: ds.remove([0, 0]), "must not repeat"),
        (lambda ds: ds.remove([0.5]), "indices must be integers"),
        (lambda ds: ds.move([0, 1], [[0, 0]]), "expected 2 positions"),
        (lambda ds: ds.set_mode("clustering"), "mode must be one of"),
    ],
)
def test_bad_edits_are_refused_without_side_effects(call, fragment):
    ds = DrawnDataset.from_arrays([[0.0, 0.0], [1.0, 1.0]], [0, 1])
    before = state(ds)
    with pytest.raises(ValueError, match=fragment):
        call(ds)
    assert_same(state(ds), before)
    assert ds.version == 0 and not ds.can_undo


def test_bad_construction():
    with pytest.raises(ValueError, match="dim must be a positive integer"):
        DrawnDataset(0)
    with pytest.raises(ValueError, match="mode must be one of"):
        DrawnDataset(mode="x")
    with pytest.raises(ValueError, match="shape"):
        DrawnDataset.from_arrays(np.zeros(3))
    with pytest.raises(ValueError, match=r"integers 0\.\.7"):
        DrawnDataset.from_arrays(np.zeros((2, 2)), [0, 9])
    big = DrawnDataset.from_arrays(np.zeros((2, 2)), [0, 9], max_classes=10)
    assert big.class_counts().shape == (10,)


def test_history_is_bounded():
    from kfdviz.datasets import drawing

    ds = DrawnDataset()
    for i in range(drawing.HISTORY_LIMIT + 5):
        ds.add([i, 0])
    undone = 0
    while ds.undo():
        undone += 1
    assert undone == drawing.HISTORY_LIMIT and ds.n_points == 5


# --- random edit sequences: undo all gets back the start, redo all the end ---------------------

EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "add",
                "remove",
                "erase",
                "move",
                "drag",
                "relabel",
                "roles",
                "clear",
                "split",
                "replace",
                "undo",
                "redo",
            ]
        ),
        st.integers(0, 10**6),
    ),
    max_size=25,
)


def _apply(ds: DrawnDataset, edit: str, r: int) -> None:
    rng = np.random.default_rng(r)
    n = ds.n_points
    if edit == "add":
        k = 1 + r % 3
        ds.add(rng.normal(size=(k, ds.dim)), labels=rng.integers(0, MAX_CLASSES, k))
    elif edit == "undo":
        ds.undo()
    elif edit == "redo":
        ds.redo()
    elif edit == "clear":
        ds.clear()
    elif edit == "split":
        ds.split(0.3, seed=r)
    elif edit == "replace":
        k = r % 5
        ds.replace(rng.normal(size=(k, 2 + r % 2)), rng.integers(0, 3, k), roles="train")
    elif edit == "erase" and n:
        token = ds.new_merge_token()
        while ds.n_points and rng.random() < 0.8:
            ds.remove(rng.choice(ds.n_points, size=1, replace=False), merge=token)
    elif n:
        idx = rng.choice(n, size=1 + r % min(n, 3), replace=False)
        if edit == "remove":
            ds.remove(idx)
        elif edit == "move":
            ds.move(idx, rng.normal(size=(len(idx), ds.dim)))
        elif edit == "drag":
            token = ds.new_merge_token()
            for _ in range(3):
                ds.move(idx, rng.normal(size=(len(idx), ds.dim)), merge=token)
        elif edit == "relabel":
            ds.relabel(idx, rng.integers(0, MAX_CLASSES, len(idx)))
        elif edit == "roles":
            ds.set_roles(idx, rng.choice(["train", "test"], len(idx)))


@given(setup=EDITS, edits=EDITS)
def test_undo_and_redo_retrace_any_edit_sequence(setup, edits):
    ds = DrawnDataset.from_arrays(np.arange(8.0).reshape(4, 2), [0, 1, 2, 3])
    for edit, r in setup:
        _apply(ds, edit, r)
    ds.clear_history()
    start = state(ds)
    for edit, r in edits:
        version = ds.version
        _apply(ds, edit, r)
        assert ds.version >= version
        assert len(ds.X) == len(ds.y) == len(ds.roles)
    end, redo_left = state(ds), ds.can_redo
    steps = 0
    while ds.undo():
        steps += 1
    assert_same(state(ds), start)
    for _ in range(steps):
        assert ds.redo()
    assert ds.can_redo == redo_left
    assert_same(state(ds), end)
