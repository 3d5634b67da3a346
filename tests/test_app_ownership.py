"""Who owns the window's state: each object writes only its own attributes, and the document
(everything the user edits, with its history) needs no Qt.

The app's collaborators tell each other what to do through methods and signals; none assigns an
attribute of another (``self.fit.closing = True``, ``slot.params = ...`` in the workspace). Read
from the source: every attribute written in ``kfdviz/app`` is one of ``self``'s.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "kfdviz" / "app"
# The interpreter's own hooks are set by assignment; that is how Python offers them.
PROCESS_HOOKS = {"sys.excepthook"}


def foreign_writes(source: str, filename: str = "<source>") -> list[str]:
    """Each write of an attribute of an object other than ``self`` in ``source``: assignments
    (plain, augmented, annotated, unpacked), deletions, and setattr/delattr on another object."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr")
            and node.args
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
        ):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        for target in targets:
            for sub in ast.walk(target):
                if not isinstance(sub, ast.Attribute) or isinstance(sub.ctx, ast.Load):
                    continue
                if isinstance(sub.value, ast.Name) and sub.value.id == "self":
                    continue
                if ast.unparse(sub) in PROCESS_HOOKS:
                    continue
                found.append(f"{filename}:{sub.lineno}: {ast.unparse(sub)}")
    return found


def test_the_check_finds_writes_to_other_objects():
    source = textwrap.dedent(
        """
        class A:
            def f(self, slot):
                self.x = 1
                self.items[0] = 2
                self.fit.closing = True
                slot.params, self.y = {}, 3
                self.count += 1
                self.fit.n += 1
                setattr(slot, "error", None)
                setattr(self, "z", 4)
                del self.fit.debounce
                sys.excepthook = hook
        """
    )
    found = [line.split(": ", 1)[1] for line in foreign_writes(source)]
    assert sorted(found) == sorted(
        [
            "self.fit.closing",
            "slot.params",
            "self.fit.n",
            "setattr(slot, 'error', None)",
            "self.fit.debounce",
        ]
    )


def test_no_object_of_the_app_writes_another_ones_attributes():
    found = []
    for path in sorted(APP.glob("*.py")):
        found += foreign_writes(path.read_text(encoding="utf-8"), path.name)
    assert not found, "attributes written from outside their object:\n" + "\n".join(found)


def test_the_document_needs_no_qt():
    """The document and the pictures import without Qt (the app package's own __init__, which
    launches the window, is left out)."""
    code = textwrap.dedent(
        f"""
        import sys, types
        package = types.ModuleType("kfdviz.app")
        package.__path__ = [{str(APP)!r}]
        import kfdviz
        sys.modules["kfdviz.app"] = package
        import kfdviz.app.document, kfdviz.app.pictures
        qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
        print(qt)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.strip() == "[]", out
