"""The layer rule (the numerics never import Qt) and the command line's entry points."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import kfdviz

PACKAGE = Path(kfdviz.__file__).resolve().parent
QT_ROOTS = ("PySide6", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6", "OpenGL")
GUI_PACKAGES = ("kfdviz.app", "kfdviz.views", "kfdviz.workers")
ALWAYS = ("kfdviz", "kfdviz.core", "kfdviz.estimators")
IF_PRESENT = ("kfdviz.pipeline", "kfdviz.datasets")


def _run_python(code: str, *args: str, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTHONSTARTUP", None)
    return subprocess.run(
        [sys.executable, *args] if not code else [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        **kwargs,
    )


def test_numerical_layers_import_no_qt():
    code = textwrap.dedent(
        f"""
        import importlib, importlib.util, json, sys
        imported = []
        for name in {ALWAYS!r}:
            importlib.import_module(name)
            imported.append(name)
        for name in {IF_PRESENT!r}:
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
                imported.append(name)
        qt = sorted(m for m in sys.modules if m.split(".")[0] in {QT_ROOTS!r})
        print(json.dumps({{"imported": imported, "qt": qt}}))
        """
    )
    result = _run_python(code)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(ALWAYS) <= set(report["imported"])
    assert report["qt"] == [], f"importing {report['imported']} loaded Qt: {report['qt']}"


def _numerical_sources() -> list[Path]:
    files: list[Path] = []
    for folder in ("core", "estimators", "datasets", "pipeline"):
        if (PACKAGE / folder).is_dir():
            files += sorted((PACKAGE / folder).rglob("*.py"))
    for module in ("datasets.py", "pipeline.py"):
        if (PACKAGE / module).is_file():
            files.append(PACKAGE / module)
    return files


def _absolute_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in ``path``, relative imports resolved."""
    package_parts = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    if path.name == "__init__.py":
        package_parts = path.relative_to(PACKAGE.parent).parent.parts
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package_parts[: len(package_parts) - node.level + 1])
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def test_numerical_sources_do_not_import_qt_or_gui_layers():
    sources = _numerical_sources()
    assert any(p.parent.name == "core" for p in sources)
    offending = []
    for path in sources:
        for line, module in _absolute_imports(path):
            if module.split(".")[0] in QT_ROOTS or module.startswith(GUI_PACKAGES):
                offending.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module}")
    assert offending == [], "the numerical layers import Qt or the GUI:\n" + "\n".join(offending)


def test_help_lists_info_without_importing_qt():
    code = textwrap.dedent(
        f"""
        import contextlib, io, sys
        from kfdviz.cli import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                main(["--help"])
            except SystemExit as exc:
                assert exc.code == 0, exc.code
        print(out.getvalue())
        qt = sorted(m for m in sys.modules if m.split(".")[0] in {QT_ROOTS!r})
        print("QT-MODULES:", qt)
        """
    )
    result = _run_python(code)
    assert result.returncode == 0, result.stderr
    assert "info" in result.stdout
    assert "--preset" in result.stdout and "--screenshot" in result.stdout
    assert "QT-MODULES: []" in result.stdout


def test_module_help_lists_subcommands():
    result = _run_python("", "-m", "kfdviz", "--help")
    assert result.returncode == 0, result.stderr
    assert "usage: kfdviz" in result.stdout
    assert "info" in result.stdout


def test_info_prints_versions_and_blas():
    result = _run_python("", "-m", "kfdviz", "info")
    assert result.returncode == 0, result.stderr
    rows = {}
    for line in result.stdout.splitlines():
        name, _, value = line.partition(" ")
        rows.setdefault(name, []).append(value.strip())
    for name in ("numpy", "scipy", "scikit-learn", "contourpy"):
        assert rows[name] == [metadata.version(name)], result.stdout
    assert rows["kfdviz"] == [kfdviz.__version__]
    assert "Qt" in rows and "PySide6" in rows and "Python" in rows
    assert rows.get("BLAS"), f"no BLAS line in:\n{result.stdout}"
    assert all(value for value in rows["BLAS"])


def test_version_option():
    result = _run_python("", "-m", "kfdviz", "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"kfdviz {kfdviz.__version__}"


def test_gui_options_are_refused_with_a_subcommand():
    result = _run_python("", "-m", "kfdviz", "--preset", "anything", "info")
    assert result.returncode == 2
    assert "--preset" in result.stderr


def test_missing_app_is_a_clear_error_not_a_traceback():
    code = textwrap.dedent(
        """
        import sys
        sys.modules["kfdviz.app"] = None  # as if kfdviz.app did not exist
        from kfdviz.cli import main
        sys.exit(main([]))
        """
    )
    result = _run_python(code)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("kfdviz: error:")
    assert "kfdviz.app" in result.stderr


def test_console_script_is_installed():
    script = Path(sys.executable).with_name("kfdviz.exe" if os.name == "nt" else "kfdviz")
    if not script.exists():
        import pytest

        pytest.skip("kfdviz is not installed as a console script in this environment")
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "info" in result.stdout


def test_the_app_loads_the_compiled_solvers_before_any_fit_thread():
    """The workers load the compiled modules fits load late (highspy, clarabel, k-means) on
    the thread that imports them, the GUI thread; a fit thread that loaded an extension
    module first could deadlock with it."""
    code = textwrap.dedent(
        """
        import sys
        late = ("highspy", "clarabel", "sklearn.cluster")
        assert not any(name in sys.modules for name in late)
        import kfdviz.workers
        print(*(name in sys.modules for name in late))
        """
    )
    done = _run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]
