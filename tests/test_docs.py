"""The API reference (docs/api, built by ``python3 tasks.py docs``) documents every name the
package exports, including names added later, without editing the docs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import kfdviz

CONF = Path(__file__).resolve().parents[1] / "docs" / "api" / "conf.py"


def _conf():
    spec = importlib.util.spec_from_file_location("kfdviz_docs_conf", CONF)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_documents_every_exported_name():
    text = _conf().reference_text()
    names = [n for n in kfdviz.__all__ if not n.startswith("_")]
    assert len(names) >= 13
    for name in names:
        assert f".. autoclass:: {name}\n" in text or f".. autofunction:: {name}\n" in text, name
    assert "__version__" not in text


def test_a_name_exported_later_appears_in_the_reference(monkeypatch):
    conf = _conf()

    class LevelSetDisplay:
        """A stand-in for a class the package may export later."""

    def plot_levels():
        """A stand-in for a function."""

    monkeypatch.setattr(kfdviz, "LevelSetDisplay", LevelSetDisplay, raising=False)
    monkeypatch.setattr(kfdviz, "plot_levels", plot_levels, raising=False)
    monkeypatch.setattr(kfdviz, "__all__", [*kfdviz.__all__, "LevelSetDisplay", "plot_levels"])
    text = conf.reference_text()
    assert ".. autoclass:: LevelSetDisplay\n" in text
    assert ".. autofunction:: plot_levels\n" in text


def test_the_docs_build_fetches_nothing_and_runs_its_examples():
    conf = _conf()
    assert "sphinx.ext.intersphinx" not in conf.extensions
    assert "sphinx.ext.doctest" in conf.extensions
    examples = (CONF.parent / "examples.rst").read_text(encoding="utf-8")
    for topic in ("make_pipeline", "GridSearchCV", "errors"):
        assert topic in examples
