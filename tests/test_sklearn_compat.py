"""scikit-learn's private API is reached through ``kfdviz/estimators/_compat.py`` alone."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import kfdviz
from kfdviz.estimators import _compat

PACKAGE = Path(kfdviz.__file__).parent
COMPAT = PACKAGE / "estimators" / "_compat.py"


def _is_private(dotted: str) -> bool:
    return any(part.startswith("_") for part in dotted.split("."))


def private_sklearn_imports(source: str) -> list[tuple[int, str]]:
    """(line, what) of every import of a private scikit-learn module or name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "sklearn":
                continue
            if _is_private(node.module):
                found.append((node.lineno, node.module))
            found.extend(
                (node.lineno, f"{node.module}.{a.name}") for a in node.names if _is_private(a.name)
            )
        elif isinstance(node, ast.Import):
            found.extend(
                (node.lineno, a.name)
                for a in node.names
                if a.name.split(".")[0] == "sklearn" and _is_private(a.name)
            )
    return found


def test_the_scan_finds_private_imports():
    source = (
        "from sklearn.utils._param_validation import Interval\n"
        "from sklearn.utils.validation import _num_samples, check_is_fitted\n"
        "import sklearn.utils._testing\n"
        "from sklearn.utils.validation import check_is_fitted\n"
        "from ._param_validation import x\n"
    )
    assert [line for line, _ in private_sklearn_imports(source)] == [1, 2, 3]


def test_only_the_compat_module_imports_private_sklearn_names():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == COMPAT:
            continue
        for line, what in private_sklearn_imports(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {what}")
    assert not offenders, "import these through kfdviz.estimators._compat:\n" + "\n".join(offenders)


@pytest.mark.parametrize("name", _compat.__all__)
def test_the_compat_names_exist_in_the_installed_scikit_learn(name):
    assert getattr(_compat, name) is not None
    # Each is scikit-learn's own object, not a copy of ours.
    assert getattr(_compat, name).__module__.startswith("sklearn.")


def test_the_installed_scikit_learn_meets_the_declared_floor():
    sklearn = importlib.import_module("sklearn")
    text = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    floor = re.search(r'"scikit-learn>=([0-9.]+)', text).group(1)
    have = tuple(int(p) for p in re.findall(r"\d+", sklearn.__version__)[:2])
    assert have >= tuple(int(p) for p in floor.split(".")[:2])
