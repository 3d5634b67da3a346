"""Fuzzing every file format kfdviz reads: each input is read, or refused with the format's error.

Structure-aware: session documents are valid sessions with one field (a key of the format, at
any level) replaced by hostile JSON or removed; NPZ archives are made of arrays with the format's
names and odd types and shapes; tables are rows of cells mixing numbers, labels, roles, huge
integers and junk. Byte-level damage is fuzzed too. ``FUZZ_EXAMPLES`` (default 200) sets the
examples per test; the reliability page reports larger runs made with it.
"""

from __future__ import annotations

import copy
import io
import json
import os
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kfdviz import deck
from kfdviz.datasets import DataFileError, load_table
from kfdviz.session import (
    SessionError,
    SessionState,
    fit_requests,
    loads_session,
    save_session,
    state_from_preset,
)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- hostile JSON values ---------------------------------------------------------------------------
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, 1, -1, 2**63, 2**64, 10**18, 10**400 // 10**390]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1e-300, 1e300, 5e-324, 0.5, 1e9]),
    st.text(max_size=20),
    st.sampled_from(["", "abc", "auto", "light", "dark", "kfd", "rbf", "<f8", "|b1", "nan"]),
)
json_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def session_documents(tmp_path_factory) -> list[dict]:
    """A classifier session, a compare session and a sweep session, as parsed JSON."""
    folder = tmp_path_factory.mktemp("fuzz")
    docs = []
    for name in ("default", "kfd-vs-kpca", "koc-linear-svm"):
        path = save_session(folder / f"{name}.kfdviz", state_from_preset(name))
        docs.append(json.loads(path.read_text(encoding="utf-8")))
    return docs


def _paths(value, prefix=()) -> list[tuple]:
    """Every key path into a document, at every level, containers included."""
    out = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        path = (*prefix, key)
        out.append(path)
        if isinstance(item, dict | list):
            out.extend(_paths(item, path))
    return out


def _set(doc, path, value, delete=False):
    target = doc
    for key in path[:-1]:
        target = target[key]
    if delete and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = value


def _read_session(text):
    try:
        state = loads_session(text, path="fuzz.kfdviz")
    except SessionError as exc:
        assert str(exc).startswith("fuzz.kfdviz: ")
        event("refused")
        return None
    event("read")
    assert isinstance(state, SessionState)
    fit_requests(state)  # what a picture is made from can be built
    return state


@FUZZ
@given(data=st.data(), value=json_values, delete=st.booleans())
def test_fuzz_session_fields(session_documents, data, value, delete):
    doc = copy.deepcopy(data.draw(st.sampled_from(session_documents)))
    path = data.draw(st.sampled_from(_paths(doc)))
    _set(doc, path, value, delete)
    _read_session(json.dumps(doc))


_VIEW_KEYS = ["resolution", "padding", "levels", "bins", "theme", "point_size", "show_points"]


# Values near and inside the ranges as well as hostile ones, so that both paths are taken.
_view_values = st.one_of(
    json_values,
    st.integers(-5, 1100),
    st.floats(-1.0, 120.0),
    st.sampled_from(["light", "dark", "auto", None, True, False]),
)


@FUZZ
@given(
    data=st.data(), settings_=st.dictionaries(st.sampled_from(_VIEW_KEYS), _view_values, max_size=3)
)
def test_fuzz_view_settings(session_documents, data, settings_):
    doc = copy.deepcopy(data.draw(st.sampled_from(session_documents)))
    doc["view_settings"] = settings_
    state = _read_session(json.dumps(doc))
    if state is not None:
        for request in fit_requests(state):
            assert 8 <= request.grid.resolution <= 1000 and 1 <= request.bins <= 1000


@FUZZ
@given(data=st.data(), cut=st.integers(min_value=0), flips=st.lists(st.integers(), max_size=4))
def test_fuzz_session_bytes(session_documents, data, cut, flips):
    raw = bytearray(json.dumps(data.draw(st.sampled_from(session_documents))).encode())
    for f in flips:
        raw[f % len(raw)] ^= 1 << (f % 8)
    _read_session(bytes(raw[: len(raw) - cut % len(raw)]))


# -- decks -----------------------------------------------------------------------------------------
@FUZZ
@given(
    document=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"format": st.just("kfdviz-deck"), "format_version": st.just(1)},
            optional={
                "presets": st.one_of(
                    json_values,
                    st.lists(st.sampled_from(["default", "koc-iris", "kfd-vs-kpca", "nope", ""])),
                ),
                "title": json_values,
            },
        ),
    )
)
def test_fuzz_decks(document):
    try:
        names = deck.loads_deck(json.dumps(document), path="fuzz.kfddeck")
    except deck.DeckError as exc:
        assert str(exc).startswith("fuzz.kfddeck: ")
        event("refused")
    else:
        event("read")
        assert names and all(isinstance(n, str) for n in names)


# -- data files ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("data")


def _load(path, **options):
    try:
        loaded = load_table(path, **options)
    except DataFileError as exc:
        assert path.name in str(exc)
        event("refused")
        return None
    event("read")
    n = loaded.X.shape[0]
    assert loaded.X.dtype == np.float64 and np.isfinite(loaded.X).all() and n > 0
    assert loaded.y.shape == (n,)
    if loaded.task == "classification":
        assert loaded.y.min() >= 0 and loaded.y.max() < len(loaded.class_names)
    return loaded


_cells = st.one_of(
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.floats().map(repr),
    st.sampled_from(["", "a", "b", "role", "train", "test", "label", "x1", "nan", "inf", '"q"']),
    st.text(alphabet="0123456789.-e+,;\t |#ab", max_size=6),
)


@FUZZ
@given(
    rows=st.lists(st.lists(_cells, min_size=1, max_size=4), min_size=1, max_size=8),
    delimiter=st.sampled_from([",", ";", "\t", " "]),
    suffix=st.sampled_from([".csv", ".tsv", ".txt"]),
)
def test_fuzz_tables(folder, rows, delimiter, suffix):
    path = folder / f"table{suffix}"
    path.write_text("\n".join(delimiter.join(r) for r in rows) + "\n", encoding="utf-8")
    _load(path)


_NAMES = ["X", "y", "roles", "label_name", "feature_names", "class_names", "other"]
_arrays = st.one_of(
    st.builds(
        lambda shape, kind: np.zeros(shape, dtype=kind),
        st.lists(st.integers(0, 4), max_size=3).map(tuple),
        st.sampled_from(["<f8", "<i8", "<u8", "|b1", "<f4", "<U5", "|S3", "<c16"]),
    ),
    st.lists(st.integers(min_value=0, max_value=2**64 - 1), min_size=1, max_size=5).map(
        lambda v: np.array(v, dtype=np.uint64)
    ),
    st.lists(st.floats(), min_size=1, max_size=6).map(lambda v: np.array(v).reshape(-1, 1)),
    st.lists(st.sampled_from(["train", "test", "x", ""]), max_size=5).map(np.array),
)


def _valid_arrays(n: int, labels) -> dict:
    return {"X": np.arange(2.0 * n).reshape(n, 2), "y": np.resize(np.asarray(labels), n)}


@FUZZ
@given(
    base=st.one_of(
        st.just({}),
        st.builds(
            _valid_arrays,
            st.integers(1, 6),
            st.one_of(
                st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=6),
                st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=6),
                st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=6),
            ),
        ),
    ),
    arrays=st.dictionaries(st.sampled_from(_NAMES), _arrays, max_size=5),
    compressed=st.booleans(),
    flips=st.lists(st.integers(min_value=0), max_size=3),
    max_bytes=st.sampled_from([None, 200, 10_000]),
)
def test_fuzz_npz(folder, base, arrays, compressed, flips, max_bytes):
    arrays = {**base, **arrays} if base and len(arrays) < 2 else arrays or base
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **arrays)
    raw = bytearray(buffer.getvalue())
    for f in flips:
        raw[f % len(raw)] ^= 1 << (f % 8)
    path = folder / "fuzz.npz"
    path.write_bytes(bytes(raw))
    _load(path, max_bytes=max_bytes)


@FUZZ
@given(
    members=st.dictionaries(
        st.from_regex(r"[A-Za-z_/]{1,6}(\.npy|\.txt)?", fullmatch=True),
        st.one_of(
            st.binary(max_size=64),
            st.sampled_from([b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00\x10\x00{}"]),
            _arrays.map(lambda a: _npy_bytes(a)),
        ),
        max_size=4,
    )
)
def test_fuzz_npz_members(folder, members):
    path = folder / "members.npz"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    _load(path)


def _npy_bytes(a) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, a)
    return buffer.getvalue()


@FUZZ
@given(
    lines=st.lists(
        st.lists(
            st.one_of(
                st.integers(-5, 5).map(str),
                st.builds("{}:{}".format, st.integers(-2, 2**32), st.floats()),
                st.sampled_from(["qid:1", "#", "1:", ":1", "a:b"]),
            ),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=6,
    )
)
def test_fuzz_svmlight(folder, lines):
    path = folder / "fuzz.svm"
    path.write_text("\n".join(" ".join(line) for line in lines) + "\n")
    # A few bytes can name feature 4 294 967 296: the dense budget must hold, and stay small here.
    _load(path, max_bytes=1_000_000)
