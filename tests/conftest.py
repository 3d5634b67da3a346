"""What every kfdviz test gets.

- No leaked threads: a test that leaves a non-daemon Python thread running, a started QThread not
  finished, or tasks still running in Qt's global thread pool fails at teardown. Qt is looked at
  only when the test (or an earlier one) imported PySide6; this file never imports Qt itself, so
  numerical tests do not pay for it and the layer tests' fresh interpreters stay Qt-free.
- ``ida_dir``: the IDA benchmark data folder (``KFDVIZ_DATA_DIR``, else ``../shared/ida`` beside
  the checkout); tests that need it skip where it is absent. Tests marked ``shared_data`` skip
  the same way without asking for the fixture.
- OpenGL: tests marked ``gl`` (or asking for the ``require_gl`` fixture) run where an OpenGL
  context can be made, i.e. under a real or virtual X display with Mesa, as ``python3 tasks.py
  test`` provides, and skip with the reason elsewhere (``QT_QPA_PLATFORM=offscreen`` has no
  OpenGL). With ``KFDVIZ_REQUIRE_GL=1`` (set by ``tasks.py test``) they fail instead of skipping.
  ``gl_available`` is the same answer as a bool.
- With no display at all (no ``DISPLAY``/``WAYLAND_DISPLAY``) and no ``QT_QPA_PLATFORM``, Qt is
  pointed at its offscreen platform, so that a plain ``pytest`` on a headless machine runs the
  GUI tests instead of aborting in Qt's xcb plugin.
- ``disk_full``: a :class:`disk_faults.DiskFault`; ``disk_full.arm(room)`` makes every atomic
  write from then on fail as a full disk after ``room`` bytes.
- ``small_disk``: a :class:`disk_faults.SmallDisk`, a 1 MiB tmpfs mounted for the test (skipped
  where mounting is not allowed); ``small_disk.fill()`` leaves 16 KiB free.
- Hypothesis: no per-example deadline (timings on a busy 2-core machine are noise); under
  ``CI`` the runs are derandomized so that CI is repeatable.
"""

from __future__ import annotations

import functools
import gc
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "ida"
DATA_SKIP_REASON = (
    "needs the IDA benchmark data: set KFDVIZ_DATA_DIR to the folder holding banana.npz etc."
)
# How long a test's threads get to finish after it returns before they count as leaked.
THREAD_GRACE_SECONDS = 1.0
PLATFORMS_WITHOUT_GL = ("offscreen", "minimal")


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


if (
    sys.platform.startswith("linux")
    and not os.environ.get("QT_QPA_PLATFORM")
    and not _has_display()
):
    os.environ["QT_QPA_PLATFORM"] = "offscreen"


try:
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - hypothesis is in the test extra
    pass
else:
    settings.register_profile("kfdviz", deadline=None)
    settings.register_profile(
        "ci",
        deadline=None,
        derandomize=True,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.load_profile(
        os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "kfdviz")
    )


# One BLAS thread for the test run: the tests check numbers, not speed, and multi-threaded
# OpenBLAS on the suite's small matrices can stall for minutes when the other core is busy
# (spin-waiting threads). The speed of threaded BLAS is measured by `kfdviz bench` instead.
try:
    from threadpoolctl import threadpool_limits
except ImportError:  # pragma: no cover - a dependency of scikit-learn
    pass
else:
    _BLAS_LIMIT = threadpool_limits(1, user_api="blas")


def pytest_report_header(config: pytest.Config) -> list[str]:
    data_dir = _data_dir()
    return [
        "kfdviz: QT_QPA_PLATFORM={} DISPLAY={} KFDVIZ_REQUIRE_GL={}".format(
            os.environ.get("QT_QPA_PLATFORM", "(unset)"),
            os.environ.get("DISPLAY", "(unset)"),
            os.environ.get("KFDVIZ_REQUIRE_GL", "(unset)"),
        ),
        f"kfdviz: benchmark data: {data_dir if data_dir else '(none; those tests skip)'}",
    ]


# ---------------------------------------------------------------------------------------------
# Leaked threads


# Threads still running when a test reported them. QThreads are kept referenced, because a QThread
# whose wrapper is collected while it runs takes the whole process down.
_LEAKED_QTHREADS: list = []
_LEAKED_PYTHON_THREADS: list[threading.Thread] = []
# After the session, how long leaked threads get before the process exits without them.
EXIT_GRACE_SECONDS = 10.0


def _qt_loaded() -> bool:
    return "PySide6.QtCore" in sys.modules


def _cpp_address(obj) -> int:
    import shiboken6

    return shiboken6.getCppPointer(obj)[0]


def _running_qthreads() -> dict[int, object]:
    """Running QThreads known to Python, by C++ address; empty when Qt is not loaded."""
    if not _qt_loaded():
        return {}
    import shiboken6
    from PySide6.QtCore import QThread

    current = _cpp_address(QThread.currentThread())
    running = {}
    for obj in gc.get_objects():
        # type() rather than isinstance(): a dead weakref.proxy raises on __class__.
        if not issubclass(type(obj), QThread):
            continue
        try:
            if shiboken6.isValid(obj) and obj.isRunning():
                address = _cpp_address(obj)
                if address != current:
                    running[address] = obj
        except RuntimeError:  # deleted on the C++ side meanwhile
            continue
    return running


def _pool_active_threads() -> int:
    if not _qt_loaded():
        return 0
    from PySide6.QtCore import QThreadPool

    return QThreadPool.globalInstance().activeThreadCount()


@pytest.fixture(autouse=True)
def _no_leaked_threads():
    python_before = set(threading.enumerate())
    qthreads_before = set(_running_qthreads())
    pool_before = _pool_active_threads()

    yield

    deadline = time.monotonic() + THREAD_GRACE_SECONDS
    problems = []

    leaked = [
        t
        for t in threading.enumerate()
        if t not in python_before and not t.daemon and t is not threading.main_thread()
    ]
    for thread in leaked:
        thread.join(max(0.0, deadline - time.monotonic()))
    leaked = [t for t in leaked if t.is_alive()]
    if leaked:
        names = ", ".join(repr(t.name) for t in leaked)
        problems.append(f"non-daemon Python thread(s) still running: {names}")
        _LEAKED_PYTHON_THREADS.extend(leaked)

    if _qt_loaded():
        qthreads = [
            t for address, t in _running_qthreads().items() if address not in qthreads_before
        ]
        for thread in qthreads:
            thread.wait(max(0, int(1000 * (deadline - time.monotonic()))))
        qthreads = [t for t in qthreads if t.isRunning()]
        if qthreads:
            names = ", ".join(
                f"{type(t).__name__}({t.objectName()!r})" if t.objectName() else type(t).__name__
                for t in qthreads
            )
            problems.append(f"QThread(s) started and not finished: {names}")
            for thread in qthreads:
                thread.requestInterruption()
                thread.quit()
                _LEAKED_QTHREADS.append(thread)

        from PySide6.QtCore import QThreadPool

        pool = QThreadPool.globalInstance()
        if pool.activeThreadCount() > pool_before:
            pool.waitForDone(max(0, int(1000 * (deadline - time.monotonic()))))
            if pool.activeThreadCount() > pool_before:
                problems.append(
                    f"{pool.activeThreadCount() - pool_before} task(s) still running in "
                    "QThreadPool.globalInstance()"
                )

    if problems:
        pytest.fail(
            "the test left threads behind (stop and join them before it returns): "
            + "; ".join(problems),
            pytrace=False,
        )


_SESSION_EXIT_STATUS = [0]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _SESSION_EXIT_STATUS[0] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Do not let a leaked thread (already reported) hang or crash the end of the run."""
    if not (_LEAKED_PYTHON_THREADS or _LEAKED_QTHREADS):
        return
    deadline = time.monotonic() + EXIT_GRACE_SECONDS
    for qthread in _LEAKED_QTHREADS:
        qthread.wait(max(0, int(1000 * (deadline - time.monotonic()))))
    for thread in _LEAKED_PYTHON_THREADS:
        thread.join(max(0.0, deadline - time.monotonic()))
    stuck = [t.name for t in _LEAKED_PYTHON_THREADS if t.is_alive()]
    stuck += [type(t).__name__ for t in _LEAKED_QTHREADS if t.isRunning()]
    if stuck:
        print(f"\nleaked threads still running, exiting without them: {stuck}", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_SESSION_EXIT_STATUS[0] or 1)


# ---------------------------------------------------------------------------------------------
# Benchmark data


def _data_dir() -> Path | None:
    value = os.environ.get("KFDVIZ_DATA_DIR")
    if value:
        return Path(value)
    if DEFAULT_DATA_DIR.is_dir():
        return DEFAULT_DATA_DIR
    return None


@pytest.fixture(scope="session")
def ida_dir() -> Path:
    """The folder holding the IDA benchmark sets (banana.npz, ...)."""
    path = _data_dir()
    if path is None:
        pytest.skip(DATA_SKIP_REASON)
    if not path.is_dir():
        pytest.fail(f"KFDVIZ_DATA_DIR={path} is not a folder", pytrace=False)
    return path


# ---------------------------------------------------------------------------------------------
# Injected faults


@pytest.fixture
def disk_full(monkeypatch):
    """A full disk under the atomic writer, armed by ``disk_full.arm(room)``."""
    # Imported when asked: it imports kfdviz, which this file otherwise never loads.
    from disk_faults import DiskFault

    return DiskFault(monkeypatch)


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs at ``tmp_path / "disk"`` for this test (skipped where mounting is refused)."""
    # Imported when asked: it imports kfdviz, which this file otherwise never loads.
    from disk_faults import SmallDisk

    with SmallDisk(tmp_path / "disk").mounted() as disk:
        yield disk


# ---------------------------------------------------------------------------------------------
# OpenGL

_GL_PROBE = textwrap.dedent(
    """
    import sys
    from PySide6.QtGui import QGuiApplication, QOffscreenSurface, QOpenGLContext
    app = QGuiApplication(sys.argv[:1])
    context = QOpenGLContext()
    if not context.create():
        sys.exit("Qt could not create an OpenGL context")
    surface = QOffscreenSurface()
    surface.create()
    if not context.makeCurrent(surface):
        sys.exit("Qt could not make an OpenGL context current")
    print(context.functions().glGetString(0x1F01))  # GL_RENDERER
    context.doneCurrent()
    """
)


@functools.cache
def gl_status() -> tuple[bool, str]:
    """(available, renderer or the reason why not); probed once, in a child interpreter."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform.split(":")[0] in PLATFORMS_WITHOUT_GL:
        return False, (
            f"needs OpenGL, which QT_QPA_PLATFORM={platform} does not have: run "
            "`python3 tasks.py test`, or pytest under xvfb-run with Mesa (libgl1-mesa-dri)"
        )
    if sys.platform.startswith("linux") and not platform and not _has_display():
        return False, "needs OpenGL: no display (run under xvfb-run)"
    try:
        probe = subprocess.run(
            [sys.executable, "-c", _GL_PROBE], capture_output=True, text=True, timeout=120
        )
    except subprocess.TimeoutExpired:
        return False, "needs OpenGL: the OpenGL probe timed out"
    if probe.returncode != 0:
        tail = (probe.stderr.strip().splitlines() or ["(no output)"])[-1]
        return False, f"needs OpenGL, which is not available here: {tail}"
    return True, probe.stdout.strip()


def _skip_or_fail_without_gl() -> None:
    available, reason = gl_status()
    if available:
        return
    if os.environ.get("KFDVIZ_REQUIRE_GL") == "1":
        pytest.fail(f"KFDVIZ_REQUIRE_GL=1 but this test {reason}", pytrace=False)
    pytest.skip(f"this test {reason}")


@pytest.fixture(scope="session")
def gl_available() -> bool:
    """Whether an OpenGL context can be made here (under the Qt platform in use)."""
    return gl_status()[0]


@pytest.fixture
def require_gl() -> str:
    """Skip (or, with KFDVIZ_REQUIRE_GL=1, fail) without OpenGL; else the GL renderer's name."""
    _skip_or_fail_without_gl()
    return gl_status()[1]


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("shared_data") is not None and _data_dir() is None:
        pytest.skip(DATA_SKIP_REASON)
    if item.get_closest_marker("gl") is not None:
        _skip_or_fail_without_gl()
