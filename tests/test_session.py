"""Session files: exact round trips, and bad files refused with a clear reason, without loss."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from kfdviz import presets
from kfdviz.session import (
    FORMAT_VERSION,
    MIGRATIONS,
    PanelState,
    SessionError,
    SessionState,
    fit_requests,
    load_session,
    loads_session,
    save_session,
    split_roles,
    state_from_preset,
    understood_versions,
)


def _same_arrays(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _document(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path, document) -> None:
    path.write_text(json.dumps(document), encoding="utf-8")


@pytest.fixture
def saved(tmp_path):
    state = state_from_preset("default")
    path = save_session(tmp_path / "moons.kfdviz", state)
    return state, path


# -- round trips -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", presets.names())
def test_round_trip_is_exact(name, tmp_path):
    state = state_from_preset(name)
    path = save_session(tmp_path / f"{name}.kfdviz", state)
    loaded = load_session(path)
    assert loaded == state
    assert _same_arrays(loaded.X, state.X)
    assert _same_arrays(loaded.y, state.y)
    assert _same_arrays(loaded.test_mask, state.test_mask)
    assert loaded.panels == state.panels  # parameters compare exactly (floats by repr)
    for a, b in zip(loaded.panels, state.panels, strict=True):
        for key, value in a.params.items():
            assert type(value) is type(b.params[key]), key
    assert (loaded.layout, loaded.view, loaded.with_svr, loaded.regression) == (
        state.layout,
        state.view,
        state.with_svr,
        state.regression,
    )
    assert loaded.view_settings == state.view_settings
    assert loaded.sweep == state.sweep
    assert loaded.generator == state.generator and loaded.split == state.split
    assert loaded.format_version == FORMAT_VERSION
    # and a second save is byte-identical: nothing drifts
    again = save_session(tmp_path / f"{name}-again.kfdviz", loaded)
    assert again.read_bytes() == path.read_bytes()


def test_arbitrary_floats_survive_bit_for_bit(tmp_path):
    rng = np.random.default_rng(7)
    # every scale a session may hold (sizes up to 1e150: squared distances stay finite)
    X = rng.standard_normal((50, 2)) * 10.0 ** rng.integers(-300, 149, (50, 2))
    X[0] = [np.nextafter(0.0, 1.0), -0.0]  # a subnormal and a negative zero
    y = rng.integers(0, 3, 50)
    state = SessionState(
        X=X,
        y=y,
        test_mask=rng.random(50) < 0.3,
        panels=(PanelState("kfd", {"kernel": "rbf", "width": 0.1 + 0.2, "mu": 1 / 3}),),
        view_settings={"resolution": 123, "theme": "dark"},
    )
    loaded = load_session(save_session(tmp_path / "floats", state))
    assert _same_arrays(loaded.X, X) and _same_arrays(loaded.y, y.astype(np.int64))
    assert np.signbit(loaded.X[0, 1])
    assert loaded.panels[0].params["width"] == 0.1 + 0.2
    assert loaded.panels[0].params["mu"] == 1 / 3


def test_regression_targets_and_tuples(tmp_path):
    state = state_from_preset("kfd-regression-noisy")
    assert state.regression and state.y.dtype == np.float64 and state.with_svr
    okpca = state_from_preset("okpca-invariance")
    assert okpca.panels[1].params["tangents"] == ("rotation",)
    loaded = load_session(save_session(tmp_path / "okpca.kfdviz", okpca))
    assert loaded.panels[1].params["tangents"] == ("rotation",)


def test_suffix_is_added(tmp_path):
    path = save_session(tmp_path / "plain", state_from_preset("default"))
    assert path.name == "plain.kfdviz" and path.is_file()


def test_the_file_is_json_with_the_version_and_no_pickle(saved):
    _, path = saved
    doc = _document(path)
    assert doc["format"] == "kfdviz-session" and doc["format_version"] == FORMAT_VERSION
    assert doc["data"]["X"]["dtype"] == "<f8"
    assert len(base64.b64decode(doc["data"]["X"]["data"])) == 8 * 200 * 2
    raw = path.read_bytes()
    assert b"pickle" not in raw and b"__reduce__" not in raw


def test_opening_restores_the_exact_picture(qapp, saved, tmp_path):
    from kfdviz.figure import plan_figure
    from kfdviz.figure.export import render_image
    from kfdviz.render import compute

    state, path = saved
    before = compute(state)
    after = compute(load_session(path))
    np.testing.assert_array_equal(before.results[0].grid.values, after.results[0].grid.values)
    a, _ = render_image(plan_figure(before.state, before.results), (800, 450), 96)
    b, _ = render_image(plan_figure(after.state, after.results), (800, 450), 96)
    assert a == b  # pixel for pixel


def test_requests_match_the_app(saved):
    state, _ = saved
    (request,) = fit_requests(state)
    assert request.slot == "main" and request.grid.resolution == 200
    assert request.grid.box is not None  # 2-D classification: the data's box
    compare = fit_requests(state_from_preset("kfd-vs-kpca"))
    assert [r.slot for r in compare] == ["compare-0", "compare-1", "compare-2"]
    assert len({r.grid.box for r in compare}) == 1  # linked panels share one box


def test_split_is_the_apps_split():
    from kfdviz.datasets.drawing import DrawnDataset

    rng = np.random.default_rng(0)
    for n, ratio, seed in [(200, 0.25, 0), (7400, 7000 / 7400, 0), (10, 0.5, 3), (5, 0.0, 1)]:
        X = rng.standard_normal((n, 2))
        y = rng.integers(0, 3, n)
        ds = DrawnDataset.from_arrays(X, y)
        ds.split(ratio, seed)
        np.testing.assert_array_equal(split_roles(n, ratio, seed, y), ds.test_mask)
        reg = DrawnDataset.from_arrays(X, y + 0.5, mode="regression")
        reg.split(ratio, seed, stratify=False)
        np.testing.assert_array_equal(split_roles(n, ratio, seed), reg.test_mask)
    state = state_from_preset("output-distributions")
    np.testing.assert_array_equal(state.test_mask, split_roles(7400, 7000 / 7400, 0, state.y))


# -- bad files -------------------------------------------------------------------------------------
def _refused(path, *fragments):
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(SessionError) as info:
        load_session(path)
    message = str(info.value)
    assert path.name in message
    for fragment in fragments:
        assert fragment in message, message
    if before is not None:
        assert path.read_bytes() == before  # reading never changes the file
    return message


def test_truncated_file(saved):
    _, path = saved
    raw = path.read_bytes()
    for cut in (len(raw) // 2, len(raw) - 3, 40):
        path.write_bytes(raw[:cut])
        _refused(path, "truncated")


def test_not_json_not_utf8_empty(tmp_path):
    path = tmp_path / "s.kfdviz"
    path.write_text("this is not a session }", encoding="utf-8")
    _refused(path, "not a kfdviz session", "not valid JSON")
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    _refused(path, "not UTF-8")
    path.write_bytes(b"")
    _refused(path, "empty")
    _write(path, {"hello": "world"})
    _refused(path, "not a kfdviz session")
    _write(path, [1, 2, 3])
    _refused(path, "not a kfdviz session")
    _refused(tmp_path / "missing.kfdviz", "no such file")
    with pytest.raises(SessionError, match="folder"):
        load_session(tmp_path)


def test_damaged_array(saved):
    _, path = saved
    doc = _document(path)
    data = doc["data"]["X"]["data"]
    doc["data"]["X"]["data"] = ("B" if data[10] != "B" else "C").join([data[:10], data[11:]])
    _write(path, doc)
    _refused(path, "data.X", "checksum")
    doc = _document(path)
    doc["data"]["X"]["data"] = "!!not base64!!"
    _write(path, doc)
    _refused(path, "data.X", "base64")
    doc["data"]["X"] = {"dtype": "<f8", "shape": [200, 3], "data": data}
    _write(path, doc)
    _refused(path, "data.X", "shape (200, 3) needs 4800 bytes")


def test_wrong_dtype_is_refused_never_unpickled(saved):
    _, path = saved
    doc = _document(path)
    doc["data"]["X"]["dtype"] = "|O"
    _write(path, doc)
    _refused(path, "data.X", "'|O'")


def test_missing_fields(saved):
    _, path = saved
    original = _document(path)
    for where in (("data", "X"), ("data", "test"), ("panels",), ("layout",), ("data",)):
        doc = json.loads(json.dumps(original))
        holder = doc
        for key in where[:-1]:
            holder = holder[key]
        del holder[where[-1]]
        _write(path, doc)
        _refused(path, "missing the field " + ".".join(where))
    doc = json.loads(json.dumps(original))
    del doc["panels"][0]["algorithm"]
    _write(path, doc)
    _refused(path, "panels[0].algorithm")


def test_shape_mismatch_and_nan(saved):
    state, path = saved
    from kfdviz.session import encode_array

    doc = _document(path)
    doc["data"]["y"] = encode_array(np.zeros(150, dtype=np.int64))
    _write(path, doc)
    _refused(path, "data.y has shape (150,); data.X has 200 points")
    doc = _document(path)
    X = state.X.copy()
    X[3, 1] = np.nan
    doc["data"]["X"] = encode_array(X)
    doc["data"]["y"] = encode_array(state.y)
    _write(path, doc)
    _refused(path, "NaN")
    text = json.dumps(_document(path)).replace('"resolution"', '"resolution"')
    doc = _document(path)
    doc["data"]["X"] = encode_array(state.X)
    text = json.dumps(doc).replace('"view_settings": {}', '"view_settings": {"zoom": NaN}')
    path.write_text(text, encoding="utf-8")
    _refused(path, "NaN")


def test_bad_algorithm_or_parameter(saved):
    _, path = saved
    doc = _document(path)
    doc["panels"][0]["algorithm"] = "telepathy"
    _write(path, doc)
    _refused(path, "'telepathy'", "kfd")
    doc["panels"][0]["algorithm"] = "kfd"
    doc["panels"][0]["params"]["mu"] = -1.0
    _write(path, doc)
    _refused(path, "'mu'")
    doc["panels"][0]["params"]["mu"] = 1e-3
    doc["panels"][0]["params"]["spin"] = 1
    _write(path, doc)
    _refused(path, "spin")
    del doc["panels"][0]["params"]["spin"]
    doc["layout"] = "grid"
    _write(path, doc)
    _refused(path, "layout")


def test_newer_version_says_so(saved):
    _, path = saved
    doc = _document(path)
    doc["format_version"] = 99
    _write(path, doc)
    message = _refused(path, "newer", "99")
    assert ", ".join(map(str, understood_versions())) in message
    doc["format_version"] = "one"
    _write(path, doc)
    _refused(path, "format_version")


def _version_0(state) -> dict:
    """A made-up pre-release layout: one algorithm, arrays as plain lists."""
    return {
        "format": "kfdviz-session",
        "format_version": 0,
        "X": state.X.tolist(),
        "y": state.y.tolist(),
        "test": state.test_mask.tolist(),
        "algorithm": state.panels[0].algorithm,
        "params": dict(state.panels[0].params),
    }


def test_version_0_is_refused_clearly(saved):
    state, path = saved
    _write(path, _version_0(state))
    _refused(path, "session format 0", "cannot read", f"formats {FORMAT_VERSION}")


def test_migration_hook_converts_an_old_format(saved, monkeypatch):
    from kfdviz.session import encode_array

    state, path = saved

    def from_0(doc):
        return {
            "format": "kfdviz-session",
            "format_version": 1,
            "data": {
                "X": encode_array(np.array(doc["X"], dtype=np.float64)),
                "y": encode_array(np.array(doc["y"], dtype=np.int64)),
                "test": encode_array(np.array(doc["test"], dtype=bool)),
            },
            "panels": [{"algorithm": doc["algorithm"], "params": doc["params"]}],
            "layout": "single",
        }

    monkeypatch.setitem(MIGRATIONS, 0, from_0)
    _write(path, _version_0(state))
    loaded = load_session(path)
    assert _same_arrays(loaded.X, state.X) and _same_arrays(loaded.test_mask, state.test_mask)
    assert loaded.panels[0].params == state.panels[0].params
    # a migration that fails says what it could not convert
    monkeypatch.setitem(MIGRATIONS, 0, lambda doc: doc["nothing"])
    _refused(path, "could not be converted from session format 0")


# -- nothing is lost -------------------------------------------------------------------------------
def test_a_bad_file_leaves_the_open_session_untouched(saved, tmp_path):
    _state, path = saved
    current = load_session(path)
    snapshot = (current.X.copy(), current.y.copy(), current.test_mask.copy(), current.panels)
    bad = tmp_path / "bad.kfdviz"
    bad.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(SessionError):
        current = load_session(bad)  # the assignment never happens
    assert _same_arrays(current.X, snapshot[0]) and _same_arrays(current.y, snapshot[1])
    assert _same_arrays(current.test_mask, snapshot[2]) and current.panels == snapshot[3]


def test_a_failed_save_keeps_the_old_file(saved, tmp_path):
    state, path = saved
    before = path.read_bytes()
    X = state.X.copy()
    X[0, 0] = np.inf
    with pytest.raises(SessionError, match="NaN or infinite"):
        save_session(path, replace(state, X=X))
    assert path.read_bytes() == before
    with pytest.raises(SessionError, match="cannot be stored"):
        save_session(path, replace(state, panels=(PanelState("kfd", {"mu": float("nan")}),)))
    assert path.read_bytes() == before
    with pytest.raises(SessionError):
        save_session(tmp_path / "no" / "such" / "folder" / "s.kfdviz", state)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["moons.kfdviz"]  # no temp files left


def test_session_module_imports_no_qt():
    code = (
        "import sys, kfdviz.session, kfdviz.export_data, kfdviz.sweep, kfdviz.paper_presets, "
        "kfdviz.figure.plan, kfdviz.figure.palette, kfdviz.figure.project3d, kfdviz.render\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_loads_from_text():
    state = state_from_preset("default")
    from kfdviz.session import _to_document

    text = json.dumps(_to_document(state))
    assert loads_session(text) == state
    with pytest.raises(SessionError, match="truncated"):
        loads_session(text[:-1])


def test_a_session_that_standardizes_fits_what_the_window_fitted(tmp_path):
    from sklearn.datasets import load_wine  # only this test needs a data set in other units
    from sklearn.preprocessing import StandardScaler  # the independent computation

    X, y = load_wine(return_X_y=True)
    test = np.zeros(len(X), bool)
    test[::4] = True
    state = SessionState(
        X=X, y=y, test_mask=test, panels=(PanelState("kfd", {}),), standardize=True
    )
    loaded = load_session(save_session(tmp_path / "wine", state))
    assert loaded.standardize
    (request,) = fit_requests(loaded)
    expected = StandardScaler().fit(X[~test]).transform(X)
    np.testing.assert_allclose(request.X, expected, rtol=1e-12, atol=1e-12)
    # a session written before the choice existed fits the points as they are
    old = SessionState(X=X, y=y, test_mask=test, panels=(PanelState("kfd", {}),))
    assert not old.standardize
    np.testing.assert_array_equal(fit_requests(old)[0].X, X)
