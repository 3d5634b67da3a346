"""The window's structure: collaborators composed by the window, imports one way, sizes bounded.

The window imports its collaborators; none of them imports the window. No module of the package
is over 800 lines and no class of the app over 500, so that each one can be read as a whole.
"""

from __future__ import annotations

import ast
from pathlib import Path

import kfdviz

PACKAGE = Path(kfdviz.__file__).resolve().parent
APP = PACKAGE / "app"
MAX_MODULE_LINES = 800
MAX_CLASS_LINES = 500


def _modules() -> list[Path]:
    return sorted(APP.glob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module and name ``path`` imports, as written ("..session", ".main_window")."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_collaborator_imports_the_window():
    for path in _modules():
        if path.name in ("main_window.py", "__init__.py"):
            continue
        imports = _imports(path)
        bad = {name for name in imports if "main_window" in name}
        assert not bad, f"{path.name} imports the window: {sorted(bad)}"


def test_the_window_is_composed_not_mixed_in():
    tree = ast.parse((APP / "main_window.py").read_text(encoding="utf-8"))
    window = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    assert [ast.unparse(b) for b in window.bases] == ["QMainWindow"]
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        assert "Mixin" not in text, f"{path.name} still speaks of a mixin"


def test_every_module_of_the_package_stays_readable():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > len(_modules())
    for path in modules:
        lines = path.read_text(encoding="utf-8").count("\n")
        name = path.relative_to(PACKAGE).as_posix()
        assert lines <= MAX_MODULE_LINES, f"kfdviz/{name} has {lines} lines"


def test_classes_of_the_app_stay_readable():
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                size = node.end_lineno - node.lineno + 1
                assert size <= MAX_CLASS_LINES, f"{path.name}: {node.name} has {size} lines"
