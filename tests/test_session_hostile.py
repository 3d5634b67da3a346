"""Hostile session files: every one refused with a SessionError naming the file, field and range.

Each case is a small document that used to exhaust memory, hang, or escape as another exception
(RecursionError, OverflowError, ZeroDivisionError, TypeError, ...).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest

from kfdviz import session_schema as schema
from kfdviz.session import (
    SessionError,
    load_session,
    loads_session,
    save_session,
    state_from_preset,
    with_settings,
)


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> dict:
    path = save_session(tmp_path_factory.mktemp("s") / "moons.kfdviz", state_from_preset("default"))
    return json.loads(path.read_text(encoding="utf-8"))


def _refused(doc, *fragments) -> SessionError:
    with pytest.raises(SessionError) as caught:
        loads_session(json.dumps(doc), path="hostile.kfdviz")
    message = str(caught.value)
    assert message.startswith("hostile.kfdviz: "), message
    for fragment in fragments:
        assert fragment in message, message
    return caught.value


def _with(document, key, value) -> dict:
    doc = copy.deepcopy(document)
    doc["view_settings"] = {**doc.get("view_settings", {}), key: value}
    return doc


@pytest.mark.parametrize(
    "key, value, allowed",
    [
        ("resolution", 1_000_000_000, "an integer from 8 to 1000"),
        ("resolution", 0, "an integer from 8 to 1000"),
        ("resolution", 1, "an integer from 8 to 1000"),
        ("resolution", "abc", "an integer from 8 to 1000"),
        ("resolution", False, "an integer from 8 to 1000"),
        ("resolution", 200.5, "an integer from 8 to 1000"),
        ("bins", 1_000_000_000, "an integer from 1 to 1000"),
        ("bins", 0, "an integer from 1 to 1000"),
        ("levels", 10_000_000, "an integer from 1 to 100"),
        ("padding", -1, "a number from 0 to 2"),
        ("padding", "wide", "a number from 0 to 2"),
        ("point_size", -3, "a number from 0.1 to 100"),
        ("point_size", "big", "a number from 0.1 to 100"),
        ("theme", [1], "one of 'light', 'dark'"),
        ("theme", "neon", "one of 'light', 'dark'"),
        ("show_points", "yes", "one of True, False"),
        ("show_expansion", 2, "one of 'auto', True, False"),
        ("elevation", 1e300, "a number from -360 to 360"),
    ],
)
def test_view_settings_out_of_range(document, key, value, allowed):
    _refused(_with(document, key, value), f"view_settings.{key}", allowed)


def test_valid_extremes_are_accepted(document):
    doc = _with(document, "resolution", schema.MAX_RESOLUTION)
    doc["view_settings"].update(levels=schema.MAX_LEVELS // 2, bins=schema.MAX_BINS, padding=0)
    doc["view_settings"].update(point_size=None, theme="dark", future_setting={"kept": [1, 2]})
    state = loads_session(json.dumps(doc))
    assert state.setting("resolution") == schema.MAX_RESOLUTION
    assert state.view_settings["future_setting"] == {"kept": [1, 2]}


def test_the_work_budget_counts_every_panel(document):
    compare = copy.deepcopy(document)
    panel = compare["panels"][0]
    compare["panels"] = [panel, dict(panel, title="b"), dict(panel, title="c")]
    compare["layout"] = "compare"
    compare["view_settings"] = {"resolution": 900}  # 3 x 810 000 grid points
    error = _refused(compare, "view_settings.resolution", "budget", "at most 816")
    assert "2,000,000" in str(error)
    compare["view_settings"] = {"resolution": 800, "levels": 100}
    _refused(compare, "view_settings.levels", "budget")
    compare["view_settings"] = {"resolution": 800, "levels": 20}
    assert loads_session(json.dumps(compare)).setting("levels") == 20


def test_a_state_built_in_code_is_checked_when_saved(tmp_path):
    state = with_settings(state_from_preset("default"), resolution=0)
    with pytest.raises(SessionError, match=r"view_settings\.resolution is 0"):
        save_session(tmp_path / "x.kfdviz", state)
    assert not (tmp_path / "x.kfdviz").exists()


def test_deep_nesting_is_refused_without_recursion(document):
    for depth in (40, 600, 900):
        doc = copy.deepcopy(document)
        nested: object = 1
        for _ in range(depth):
            nested = {"a": nested}
        doc["view_settings"] = {"deep": nested}
        _refused(doc, "nests more than 32 levels")


def test_very_deep_json_is_refused(document):
    text = json.dumps(document)[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(SessionError, match=r"nested too deeply|nests more"):
        loads_session(text, path="deep.kfdviz")


def test_huge_integers(document):
    doc = copy.deepcopy(document)
    text = json.dumps(doc)[:-1] + ', "extra": ' + "9" * 5000 + "}"
    limit = sys.get_int_max_str_digits()
    with pytest.raises(SessionError, match=f"holds an integer of more than {limit} digits"):
        loads_session(text, path="digits.kfdviz")
    doc["view_settings"] = {"resolution": 10**30}
    _refused(doc, "view_settings.resolution", "digits")
    doc = copy.deepcopy(document)
    doc["panels"][0]["feature"] = 10**12
    _refused(doc, "panels[0].feature", "from 0 to 1000")


def test_overflowing_numbers(document):
    text = json.dumps(document)[:-1] + ', "extra": 1e400}'
    with pytest.raises(SessionError, match="too large to be finite"):
        loads_session(text, path="inf.kfdviz")


@pytest.mark.parametrize(
    "shape, fragment",
    [
        ([10**20, 2], "data.X.shape[0]"),
        ([200, 10**20], "data.X.shape[1]"),
        ([200, -1], "data.X.shape[1]"),
        ([10_000_000, 10_000], "data.X.shape"),
        ([2, 2, 2], "dimensions"),
        ([200, "2"], "data.X.shape[1]"),
    ],
)
def test_absurd_array_shapes(document, shape, fragment):
    doc = copy.deepcopy(document)
    doc["data"]["X"]["shape"] = shape
    _refused(doc, fragment)


def _sweep_document(document) -> dict:
    doc = copy.deepcopy(document)
    doc["sweep"] = {
        "param": "width",
        "values": [0.5, 1.0, 2.0],
        "curves": [{"label": "KFD", "steps": [{"algorithm": "kfd", "params": {"mu": 0.001}}]}],
        "metrics": ["accuracy"],
    }
    return doc


def test_a_valid_sweep_loads(document):
    state = loads_session(json.dumps(_sweep_document(document)))
    assert state.sweep["values"] == [0.5, 1.0, 2.0]


@pytest.mark.parametrize(
    "change, fragments",
    [
        (lambda s: s.update(values=list(range(1, 100_001))), ("sweep.values", "1 to 200")),
        (lambda s: s.update(values=[]), ("sweep.values", "1 to 200")),
        (lambda s: s.update(values=["x"]), ("sweep.values[0]", "a number")),
        (lambda s: s["curves"][0]["steps"][0].update(algorithm="nope"), ("algorithm", "'nope'")),
        (lambda s: s.update(param="degreez"), ("sweep.param", "does not take")),
        (lambda s: s.update(values=[-1.0]), ("params.width",)),
        (lambda s: s.update(metrics=["speed"]), ("sweep.metrics[0]", "accuracy")),
        (lambda s: s["curves"][0].update(swept=5), ("swept", "from 0 to 0")),
        (lambda s: s.update(curves=[s["curves"][0]] * 9), ("sweep.curves", "1 to 8")),
        (lambda s: s.update(values=[1.0] * 200, curves=[s["curves"][0]] * 6), ("fits",)),
        (lambda s: s.update(curves="all"), ("sweep.curves", "list")),
    ],
)
def test_hostile_sweeps(document, change, fragments):
    doc = _sweep_document(document)
    change(doc["sweep"])
    _refused(doc, *fragments)


def test_long_texts(document):
    doc = copy.deepcopy(document)
    doc["title"] = "t" * 5000
    _refused(doc, "title", "1,000")
    doc = copy.deepcopy(document)
    doc["view_settings"] = {"note": "n" * 200_000}
    _refused(doc, "view_settings.note", "100,000")


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.kfdviz"
    os.mkfifo(fifo)
    with pytest.raises(SessionError, match=r"pipe\.kfdviz: is a pipe"):
        load_session(fifo)
    with pytest.raises(SessionError, match="folder"):
        load_session(tmp_path)


def test_the_cli_prints_one_line_for_a_hostile_session(document, tmp_path):
    doc = _with(document, "resolution", "abc")
    path = tmp_path / "bad.kfdviz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "kfdviz", "render", "--session", str(path), "--out", "x.png"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kfdviz: error: bad.kfdviz: "), result.stderr
    assert "view_settings.resolution" in lines[0] and "8 to 1000" in lines[0]
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("what", ["panels", "numbers"])
def test_a_million_entries_are_refused_while_parsing(document, what):
    import tracemalloc

    doc = copy.deepcopy(document)
    if what == "panels":
        doc["panels"] = [doc["panels"][0]] * 1_000_000
        fragment = f"more than {schema.MAX_OBJECTS:,} objects"
    else:
        doc["view_settings"] = {**doc["view_settings"], "extra": [0.5] * 2_000_000}
        fragment = f"more than {schema.MAX_NUMBERS:,} numbers"
    text = json.dumps(doc)
    tracemalloc.start()
    try:
        with pytest.raises(SessionError) as caught:
            loads_session(text, path="hostile.kfdviz")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith("hostile.kfdviz: ") and fragment in str(caught.value)
    # stopped at the first entry over the limit: nothing like the document was built
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MiB taken to refuse it"
