"""The shared test fixtures in conftest.py do what they promise."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")
MARKERS = """
[pytest]
markers =
    gl: needs OpenGL
    gui: drives real Qt widgets
    shared_data: needs the benchmark data folder
"""


@pytest.fixture
def inner(pytester: pytest.Pytester) -> pytest.Pytester:
    """A scratch test project that uses this suite's conftest."""
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    pytester.makeini(MARKERS)
    return pytester


def test_leaked_python_thread_fails_the_test(inner: pytest.Pytester):
    inner.makepyfile(
        """
        import threading, time

        def test_leaks():
            threading.Thread(target=time.sleep, args=(2.5,), name="forgotten").start()

        def test_joins():
            t = threading.Thread(target=time.sleep, args=(0.05,))
            t.start()
            t.join()

        def test_daemon_is_fine():
            threading.Thread(target=time.sleep, args=(2.5,), daemon=True).start()
        """
    )
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*non-daemon Python thread(s) still running: 'forgotten'*"])


def test_unfinished_qthread_fails_the_test(inner: pytest.Pytester):
    pytest.importorskip("PySide6")
    inner.makepyfile(
        """
        from PySide6.QtCore import QThread

        class Sleeper(QThread):
            def run(self):
                self.msleep(2500)

        keep = []

        def test_leaks():
            t = Sleeper()
            t.setObjectName("sleeper")
            t.start()
            keep.append(t)

        def test_waits():
            t = Sleeper()
            t.run = lambda: None
            t.start()
            t.wait()
        """
    )
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*QThread(s) started and not finished: Sleeper('sleeper')*"])


def test_gl_tests_skip_offscreen_with_a_reason(inner: pytest.Pytester, monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.delenv("KFDVIZ_REQUIRE_GL", raising=False)
    inner.makepyfile(
        """
        import pytest

        @pytest.mark.gl
        def test_marked():
            pass

        def test_fixture(require_gl):
            pass

        def test_flag(gl_available):
            assert gl_available is False
        """
    )
    result = inner.runpytest_subprocess("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["*QT_QPA_PLATFORM=offscreen*"])


def test_gl_tests_fail_when_gl_is_required(inner: pytest.Pytester, monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setenv("KFDVIZ_REQUIRE_GL", "1")
    inner.makepyfile(
        """
        import pytest

        @pytest.mark.gl
        def test_marked():
            pass
        """
    )
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)


def test_data_tests_skip_without_the_data(inner: pytest.Pytester, monkeypatch, tmp_path):
    monkeypatch.delenv("KFDVIZ_DATA_DIR", raising=False)
    inner.makepyfile(
        """
        import pytest

        def test_fixture(ida_dir):
            pass

        @pytest.mark.shared_data
        def test_marked():
            pass
        """
    )
    result = inner.runpytest_subprocess("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=2)
    result.stdout.fnmatch_lines(["*set KFDVIZ_DATA_DIR*"])

    monkeypatch.setenv("KFDVIZ_DATA_DIR", str(tmp_path))
    result = inner.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


@pytest.mark.gl
def test_gl_renderer_is_known(require_gl: str):
    assert require_gl


def test_ida_dir_holds_the_benchmark_sets(ida_dir: Path):
    assert (ida_dir / "banana.npz").is_file()
