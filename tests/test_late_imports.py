"""Imports inside functions say why they load late; the module-level imports form no cycle.

An import inside a function (at any depth of it) is explained when a comment sits on one of its
lines, or on a line of its own within the two lines above it. Consecutive import statements of
one block form a group that one comment explains. A comment that is only a linter's directive
(``# noqa: F401``, ``# type: ignore``) explains nothing.

The import graph joins each ``kfdviz`` module to the ``kfdviz`` modules its module-level imports
name: statements at the top level and inside classes, ``if``, ``try`` and ``with`` blocks, but
not inside functions, nor under ``if TYPE_CHECKING:`` (which never runs). Relative imports are
resolved; ``from package import name`` names the submodule ``package.name`` when there is one,
else the package. The parent packages that Python imports on the way are not edges.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from collections.abc import Iterator
from pathlib import Path

import kfdviz

PACKAGE = Path(kfdviz.__file__).resolve().parent

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_IMPORTS = (ast.Import, ast.ImportFrom)
# Comment text that is a tool's directive, not a reason.
_DIRECTIVE = re.compile(r"noqa(:\s*[A-Z]+[0-9]+(\s*,\s*[A-Z]+[0-9]+)*)?|type:\s*ignore(\[[^]]*\])?")


# -- late imports ---------------------------------------------------------------------------------
def _explaining_comments(source: str) -> dict[int, bool]:
    """{line: whether the comment there stands on a line of its own} for each comment that says
    something besides linter directives."""
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        text = _DIRECTIVE.sub("", tok.string.lstrip("#"))
        if re.search(r"\w", text):
            found[tok.start[0]] = not tok.line[: tok.start[1]].strip()
    return found


def _statement_lists(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for _, value in ast.iter_fields(node):
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            yield value


def _late_import_groups(tree: ast.Module) -> list[list[ast.stmt]]:
    """Runs of consecutive import statements inside functions, in source order."""
    groups: list[list[ast.stmt]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        inside = in_function or isinstance(node, _FUNCTIONS)
        if inside:
            for body in _statement_lists(node):
                run: list[ast.stmt] = []
                for stmt in [*body, None]:
                    if isinstance(stmt, _IMPORTS):
                        run.append(stmt)
                    elif run:
                        groups.append(run)
                        run = []
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, False)
    return sorted(groups, key=lambda group: group[0].lineno)


def unexplained_late_imports(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """(line, the statement) for each import inside a function that no comment explains."""
    comments = _explaining_comments(source)
    lines = source.splitlines()
    missing = []
    for group in _late_import_groups(ast.parse(source, filename=filename)):
        first, last = group[0].lineno, group[-1].end_lineno or group[-1].lineno
        on_group = any(first <= line <= last for line in comments)
        above = any(comments.get(line) for line in (first - 2, first - 1))
        if not (on_group or above):
            missing += [(stmt.lineno, lines[stmt.lineno - 1].strip()) for stmt in group]
    return missing


def _sources() -> list[tuple[str, Path]]:
    return [
        (path.relative_to(PACKAGE.parent).as_posix(), path)
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _unexplained_by_file() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for name, path in _sources():
        missing = unexplained_late_imports(path.read_text(encoding="utf-8"), name)
        if missing:
            found[name] = missing
    return found


def test_every_late_import_says_why_it_loads_late():
    found = _unexplained_by_file()
    listing = [
        f"{name}:{line}: {text}"
        for name, missing in sorted(found.items())
        for line, text in missing
    ]
    assert listing == [], (
        "imports inside functions without a comment saying why they load late (a cycle, a "
        "heavy or optional module, Qt); move them to the module's top or explain them:\n"
        + "\n".join(listing)
    )


def test_the_late_import_check_finds_what_it_should():
    source = textwrap.dedent(
        """
        import os


        def bare():
            import json

            return json


        def explained_above():
            # Qt loads only to paint.
            from PySide6 import QtGui
            from PySide6 import QtCore

            import numpy

            return QtGui, QtCore, numpy


        def explained_on_the_line():
            import numpy  # numpy's BLAS, for threadpoolctl


        def a_directive_is_no_reason():
            import numpy  # noqa: F401


        def too_far_above():
            # A comment about something else.
            x = 1

            import numpy


        def a_trailing_comment_above_is_no_reason():
            y = 2  # about y
            import numpy


        def nested():
            def inner():
                if True:
                    import pickle


        class Holder:
            import math

            def method(self):
                try:
                    from collections import OrderedDict
                except ImportError:  # the cycle: see above
                    pass
        """
    )
    lines = [line for line, _ in unexplained_late_imports(source)]
    text = source.splitlines()
    named = sorted(text[line - 1].strip() for line in lines)
    assert named == sorted(
        [
            "import json",
            "import numpy  # noqa: F401",
            "import numpy",
            "import numpy",
            "import pickle",
            "from collections import OrderedDict",
        ]
    )


# -- import cycles --------------------------------------------------------------------------------
def _module_names(root: Path) -> dict[str, Path]:
    """{dotted name: file} for every module of the package at ``root``."""
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if path.name == "__init__.py":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    for stmt in body:
        if isinstance(stmt, _IMPORTS):
            yield stmt
        elif isinstance(stmt, (*_FUNCTIONS, ast.Lambda)):
            continue
        elif isinstance(stmt, ast.If) and _is_type_checking(stmt.test):
            yield from _module_level_imports(stmt.orelse)
        else:
            for inner in _statement_lists(stmt):
                yield from _module_level_imports(inner)
            for handler in getattr(stmt, "handlers", ()):
                yield from _module_level_imports(handler.body)
            for case in getattr(stmt, "cases", ()):
                yield from _module_level_imports(case.body)


def import_graph(root: Path) -> dict[str, set[str]]:
    """{module: the package's modules its module-level imports name} for the package at
    ``root`` (see the module docstring for what counts)."""
    modules = _module_names(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for stmt in _module_level_imports(tree.body):
            if isinstance(stmt, ast.Import):
                targets |= {alias.name for alias in stmt.names if alias.name in modules}
                continue
            if stmt.level:
                base = package.split(".")[: len(package.split(".")) - stmt.level + 1]
                source = ".".join([*base, stmt.module] if stmt.module else base)
            else:
                source = stmt.module or ""
            for alias in stmt.names:
                if f"{source}.{alias.name}" in modules:
                    targets.add(f"{source}.{alias.name}")
                elif source in modules:
                    targets.add(source)
        targets.discard(name)
        graph[name] = targets
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (its modules in import order, the first repeated at the end) for each strongly
    connected group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return [_a_cycle_within(graph, group) for group in groups]


def _a_cycle_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module] & group):
                if target == start:
                    return [*paths[module], start]
                if target not in paths:
                    paths[target] = [*paths[module], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not strongly connected")


def test_the_package_has_no_import_cycle():
    graph = import_graph(PACKAGE)
    assert "kfdviz.estimators" in graph["kfdviz"]  # the graph sees the package's own imports
    cycles = import_cycles(graph)
    assert cycles == [], "module-level import cycles:\n" + "\n".join(
        " -> ".join(cycle) for cycle in cycles
    )


def test_the_cycle_check_finds_a_cycle_and_ignores_type_checking(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from .a import A\n",
        "a.py": "from .sub import b\nA = 1\n",
        "sub/__init__.py": "",
        "sub/b.py": "try:\n    from ..c import C\nexcept ImportError:\n    C = None\n",
        "c.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from pkg import d\n"
            "class C:\n    from . import a\n"
            "def late():\n    from . import d\n"
        ),
        "d.py": "import pkg.c\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph = import_graph(package)
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.c"},
    }
    assert import_cycles(graph) == [["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]]
