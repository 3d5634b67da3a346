"""Sphinx configuration of kfdviz's API reference (``python3 tasks.py docs`` builds it).

The reference lists every name ``kfdviz`` exports (``kfdviz.__all__``): the page is written
here, at each build, so that a class added to the package appears without editing the docs.
Nothing is fetched from the network (no intersphinx), and the examples run under Sphinx's
doctest builder.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

import kfdviz  # noqa: E402  (the checkout, put on the path above)

project = "kfdviz"
author = "kfdviz developers"
copyright = "kfdviz developers"  # noqa: A001  (Sphinx's name)
release = version = kfdviz.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest", "numpydoc"]
html_theme = "furo"
html_title = f"kfdviz {release}"
exclude_patterns = ["_build"]
# The examples page's code, run by `sphinx-build -b doctest`.
doctest_global_setup = "import numpy as np"

autodoc_default_options = {"members": True}
autodoc_member_order = "groupwise"
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
# One page per name, written below; numpydoc's own member tables would add a second listing.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


def _skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's metadata-routing setters (``set_fit_request`` and the like),
    which scikit-learn adds to every estimator and documents itself."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_member)


def _kind(obj) -> str:
    return "autoclass" if inspect.isclass(obj) else "autofunction"


def reference_text() -> str:
    """The reference page: every public name of ``kfdviz`` (estimators, displays, functions
    alike), one section each."""
    names = [n for n in kfdviz.__all__ if not n.startswith("_")]
    lines = [
        ".. This file is written by conf.py at every build: do not edit it.",
        "",
        "API reference",
        "=============",
        "",
        "Everything ``import kfdviz`` offers. The estimators follow scikit-learn's contract",
        "(``fit``, ``transform``, ``decision_function``, ``predict``, ``get_params``), so they",
        "work in pipelines, grid searches and ``clone``.",
        "",
        ".. currentmodule:: kfdviz",
        "",
    ]
    for name in sorted(names):
        lines += [name, "-" * len(name), "", f".. {_kind(getattr(kfdviz, name))}:: {name}", ""]
    return "\n".join(lines)


def write_reference(path: Path = HERE / "reference.rst") -> None:
    """Write :func:`reference_text` to ``path`` where it changed (Sphinx rereads a changed
    file only)."""
    text = reference_text()
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


write_reference()
