"""The GUI scenarios of ``kfdviz bench``: the real main window, its fit thread and its signals.

Each scenario opens :class:`kfdviz.app.main_window.MainWindow` on data made here and drives it
as a person would: a parameter edited in the algorithm panel, a point dragged with the Move tool
by synthetic mouse events, a repaint of the plot, and the ``kfdviz --screenshot`` command as a
child process. Times run from the edit to the window's ``fit_drawn`` signal, emitted once every
view of the fit has its new data (``setImage``/``setData``), or between pictures actually painted.

Without a running Qt application the scenarios start one on ``QT_QPA_PLATFORM`` if set, else on
Qt's offscreen platform (nothing appears on the screen, and the pictures are still painted into
the window's backing store). A platform that cannot start is found by a child interpreter first,
so the bench reports the scenario as skipped instead of aborting in Qt.

Qt and the window are imported inside the functions that use them: importing this module (as
``kfdviz bench --list`` and a run of the numerical scenarios do) needs no Qt.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from time import perf_counter

import numpy as np

from kfdviz import session
from kfdviz.core.fit_cache import FIT_CACHE

from .numeric import two_class_data
from .registry import Case, Check, Measured, ScenarioSkipped, Target, scenario

DEFAULT_PLATFORM = "offscreen"
WIDTH = 1.0
MU = 1e-3
# A fit or a picture that takes longer than this inside a scenario is a failure, not a time.
WAIT_SECONDS = 120.0
# Synthetic mouse moves during a drag: about a real mouse's report rate.
MOVE_INTERVAL_MS = 8
# Keeps the application (and so every window made here) alive for the whole process.
_APPLICATION: list = []


# -- Qt ------------------------------------------------------------------------------------------
@cache
def _platform_problem(platform: str) -> str | None:
    """None when a QApplication starts on ``platform`` in a child interpreter, else why not."""
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication(sys.argv[:1])\n"
        "print(app.platformName())\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": platform}
    try:
        probe = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"no Qt platform could start ({platform}): {exc}"
    if probe.returncode != 0:
        lines = (probe.stderr or probe.stdout).strip().splitlines() or ["(no output)"]
        return f"no Qt platform could start ({platform}): {lines[-1]}"
    return None


def qt_application():
    """The running QApplication, or a new one (see the module's docstring); skips without Qt."""
    try:
        # Qt loads only when a GUI scenario runs (see the module docstring).
        from PySide6.QtCore import QCoreApplication, Qt
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:  # pragma: no cover - PySide6 is a dependency
        raise ScenarioSkipped(f"PySide6 cannot be imported: {exc}") from None
    app = _existing_application()
    if app is not None:
        if not isinstance(app, QApplication):
            raise ScenarioSkipped("a Qt application without widgets is running in this process")
        return app
    platform = os.environ.get("QT_QPA_PLATFORM") or DEFAULT_PLATFORM
    problem = _platform_problem(platform)
    if problem is not None:
        raise ScenarioSkipped(problem)
    # As the app does: pyqtgraph's 3-D views need contexts that share resources.
    QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
    app = QApplication(["kfdviz-bench", "-platform", platform])
    _APPLICATION.append(app)
    if platform == "offscreen":
        _drop_offscreen_noise()
    return app


def _drop_offscreen_noise() -> None:
    """Qt's offscreen platform reports every top-level window's size hints as unsupported, a
    line per window on stderr that says nothing about the app; other messages pass."""
    # Qt: loads only when a GUI scenario runs.
    from PySide6.QtCore import qInstallMessageHandler

    previous = []

    def handler(mode, context, message):
        if "propagateSizeHints" in message:
            return
        if previous and previous[0] is not None:
            previous[0](mode, context, message)
        else:
            sys.stderr.write(message + "\n")

    previous.append(qInstallMessageHandler(handler))
    _APPLICATION.append(handler)  # Qt keeps no reference of its own


def spin(app, predicate, timeout: float = WAIT_SECONDS, what: str = "the window") -> None:
    """Run the event loop until ``predicate()`` holds (sleeping while no event comes)."""
    # Qt: loads only when a GUI scenario runs.
    from PySide6.QtCore import QEventLoop, QTimer

    ticker = QTimer()  # wakes the loop now and then, so that the timeout is noticed
    ticker.setInterval(20)
    ticker.start()
    deadline = perf_counter() + timeout
    try:
        while not predicate():
            if perf_counter() > deadline:
                raise TimeoutError(f"{what} did not finish within {timeout:g} s")
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        ticker.stop()


class BenchWindow:
    """The main window on (X, y) with one KFD picture, and what the scenarios need of it."""

    def __init__(self, app, X, y, params: dict, *, resolution: int = 200):
        # The window brings Qt: loaded only when a GUI scenario runs.
        from kfdviz.app.main_window import MainWindow

        self.app = app
        self.w = w = MainWindow(None, settings=None, restore=False)
        w.resize(1280, 800)
        w.show()
        spin(app, w.is_settled, what="the default preset's fit")
        state = session.SessionState(
            X=np.asarray(X, float),
            y=np.asarray(y),
            test_mask=np.zeros(len(X), bool),
            panels=(session.PanelState("kfd", dict(params)),),
            view_settings={"resolution": int(resolution)},
            title="kfdviz bench",
        )
        w.apply_session(state)
        guard = w.fit.large_data
        if guard.last_estimate is not None and guard.last_estimate.large and not guard.approved:
            guard.fit_anyway()  # the user's answer to the large-data banner (app/large_data.py)
        self.settle()
        if self.result is None or self.result.X.shape[0] != len(X):
            raise RuntimeError(f"the window did not fit the bench data: {w.last_status[1]}")

    @property
    def result(self):
        return self.w.pictures.main_slot.result

    def settle(self) -> None:
        spin(self.app, self.w.is_settled, what="the fit")

    def views_showing(self, result) -> int:
        """How many of the views that draw a fit show ``result`` (input, outputs, diagnostics)."""
        w = self.w
        views = (w.workspace.input_view, w.workspace.outputs_view, w.workspace.diagnostics_view)
        return sum(v.result is result for v in views)

    def close(self) -> None:
        # Qt: loads only when a GUI scenario runs.
        from PySide6.QtCore import QCoreApplication, QEvent

        w = self.w
        w.close()
        w.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        self.app.processEvents()


def _clear_fit_cache() -> None:
    """Forget the fit terms (a new parameter is a new fit) but keep the cached distances, as
    the app has them after its first fit on unchanged data."""

    FIT_CACHE.clear()


def _kfd_params(**extra) -> dict:
    return {"kernel": "rbf", "width": WIDTH, "mu": MU, "threshold": "prior", **extra}


# The window of the scenario being run (closed by its case's teardown, or by the next setup).
_OPEN: list[BenchWindow] = []


def _existing_application():
    # Qt: loads only when a GUI scenario runs.
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.instance()


def _open_window(X, y, params, *, resolution: int) -> BenchWindow:
    app = qt_application()
    close_windows()
    win = BenchWindow(app, X, y, params, resolution=resolution)
    _OPEN.append(win)
    return win


def close_windows() -> None:
    """Close the windows the scenarios opened (each case's teardown)."""
    while _OPEN:
        _OPEN.pop().close()


# -- a parameter change ---------------------------------------------------------------------------
@scenario(
    "gui-param-change",
    title="width slider step -> every view shows the new KFD fit (real window)",
    target=Target.absolute(0.150),
    group="gui",
    app_threads=True,
)
def _param_change(quick: bool) -> Case:
    n, resolution = (300, 60) if quick else (1000, 200)
    X, y = two_class_data(n, seed=6)
    win = _open_window(X, y, _kfd_params(), resolution=resolution)
    w = win.w
    width = w.workspace.algorithm_panel.widget("width")
    steps = [0]

    def candidate():
        drawn = []

        def on_drawn(result):
            drawn.append((perf_counter(), result))

        w.fit_drawn.connect(on_drawn)
        try:
            # Back and forth between two neighbouring widths, each one a fresh fit.
            step = 40 if steps[0] % 2 == 0 else -40
            steps[0] += 1
            t0 = perf_counter()
            width.slider.setValue(width.slider.value() + step)
            spin(win.app, lambda: bool(drawn) and w.is_settled(), what="the refit")
        finally:
            w.fit_drawn.disconnect(on_drawn)
        t_drawn, result = drawn[-1]
        return Measured(t_drawn - t0, (result, float(width.value())))

    def check(measured, _):
        result, wanted = measured.value
        stale = 3 - win.views_showing(result)
        if result.params.get("width") != wanted or result.X.shape[0] != n:
            stale += 10
        return Check.at_most("views not showing the new fit", stale, 0)

    return Case(
        candidate,
        check=check,
        prepare_candidate=_clear_fit_cache,
        teardown=close_windows,
        sizes={"n": n, "grid": f"{resolution}x{resolution}"},
        notes=(
            "from the slider's step to fit_drawn (the input view, outputs and diagnostics have "
            "their new data); fit cache emptied before each step, distances cached as in the app"
        ),
    )


# -- dragging a point -----------------------------------------------------------------------------
class _PaintLog:
    """Which fit each paint of a widget showed, and when (an event filter on the widget)."""

    def __init__(self, widget, current):
        # Qt: loads only when a GUI scenario runs.
        from PySide6.QtCore import QEvent, QObject

        log = self

        class Filter(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint:
                    log.paints.append((perf_counter(), current()))
                return False

        # (time, the fit on screen): the fits are kept, so that their ids stay unique.
        self.paints: list[tuple[float, object]] = []
        self.widget = widget
        self.filter = Filter()
        widget.installEventFilter(self.filter)

    def remove(self) -> None:
        self.widget.removeEventFilter(self.filter)

    def pictures_between(self, t0: float, t1: float, exclude) -> list[float]:
        """The times at which a fit not painted before (and not ``exclude``) was first painted."""
        seen = {id(exclude)}
        times = []
        for t, result in self.paints:
            if t0 <= t <= t1 and id(result) not in seen:
                seen.add(id(result))
                times.append(t)
        return times


def drag_point(win: BenchWindow, index: int, path, seconds: float, interval_ms: int) -> dict:
    """Drag point ``index`` with the Move tool along ``path(t)`` (data coordinates, t from 0 to
    1) for ``seconds``: a timer every ``interval_ms`` moves the mouse to where the path is at that
    moment, as a real pointer's reports would (a busy event loop sees fewer moves, not late
    ones). Returns what was painted meanwhile."""
    # Qt: loads only when a GUI scenario runs.
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtTest import QTest

    w, view = win.w, win.w.workspace.input_view
    vp = view.plot.viewport()
    left, plain = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    x0, y0 = w.data.X()[index]
    before = win.result
    log = _PaintLog(vp, lambda: view.result)
    drawn: list[float] = []
    moves = [0]

    def on_drawn(_result):
        drawn.append(perf_counter())

    def pixel(t: float):
        x, y = path(min(max(t, 0.0), 1.0))
        return view.data_to_widget(float(x), float(y))

    w.fit_drawn.connect(on_drawn)
    try:
        QTest.mousePress(vp, left, plain, view.data_to_widget(float(x0), float(y0)))
        loop = QEventLoop()
        timer = QTimer()
        timer.setTimerType(Qt.TimerType.PreciseTimer)
        timer.setInterval(interval_ms)
        t0 = perf_counter()

        def move():
            t = (perf_counter() - t0) / seconds
            QTest.mouseMove(vp, pixel(t))
            moves[0] += 1
            if t >= 1.0:
                timer.stop()
                loop.quit()

        timer.timeout.connect(move)
        timer.start()
        loop.exec()
        t1 = perf_counter()
        QTest.mouseRelease(vp, left, plain, pixel(1.0))
        win.settle()
        win.app.processEvents()  # the last picture's paint
    finally:
        w.fit_drawn.disconnect(on_drawn)
        log.remove()
    return {
        "seconds": t1 - t0,
        "moves": moves[0],
        "pictures": log.pictures_between(t0, t1, before),
        "drawn": [t for t in drawn if t0 <= t <= t1],
        "final": win.result,
        "end": np.asarray(path(1.0), float),
        "pixel": np.asarray(view.pixel_size()),
    }


def _drag_path(start: np.ndarray, radius: float):
    """A loop from ``start`` and back: half an ellipse's turn out and the other half home."""

    def path(t: float) -> np.ndarray:
        a = 2.0 * np.pi * t
        return start + radius * np.array([np.sin(a), 0.5 * (1.0 - np.cos(a))])

    return path


@scenario(
    "gui-drag",
    title="drag a training point (Move tool): time per picture drawn, KFD",
    target=Target.absolute(1.0 / 30.0),
    group="gui",
    app_threads=True,
)
def _drag(quick: bool) -> Case:
    n, resolution, seconds = (200, 60, 0.6) if quick else (500, 200, 2.0)
    X, y = two_class_data(n, seed=7)
    win = _open_window(X, y, _kfd_params(), resolution=resolution)
    win.w.canvas.set_tool("move")
    # The point nearest the middle of the data, dragged round a circle of a fifth of the box.
    middle = 0.5 * (X.min(axis=0) + X.max(axis=0))
    index = int(np.argmin(((X - middle) ** 2).sum(axis=1)))
    radius = 0.2 * float(np.ptp(X[:, 1]))
    trips = [0]

    def candidate():
        start = win.w.data.X()[index].copy()
        path = _drag_path(start, radius if trips[0] % 2 == 0 else -radius)
        trips[0] += 1
        out = drag_point(win, index, path, seconds, MOVE_INTERVAL_MS)
        count = len(out["pictures"])
        return Measured(out["seconds"] / count if count else float("inf"), out)

    def check(measured, _):
        out = measured.value
        final = out["final"]
        # The pointer lands on whole pixels: the point ends within a pixel of the path's end.
        moved = final is not None and np.all(np.abs(final.X[index] - out["end"]) <= out["pixel"])
        # Without pictures during the drag the level sets did not follow the point at all. The
        # quick run's 0.6 s drag proves that they follow (one picture suffices: a loaded machine
        # may paint only one in that time); the measured run needs two to give a rate.
        count = len(out["pictures"]) if moved else 0
        return Check.at_least("new pictures painted during the drag", count, 1 if quick else 2)

    return Case(
        candidate,
        check=check,
        teardown=close_windows,
        sizes={"n": n, "grid": f"{resolution}x{resolution}", "drag": f"{seconds:g} s"},
        notes=(
            f"the pointer moves every {MOVE_INTERVAL_MS} ms for {seconds:g} s; time = the drag's "
            "duration / new fits painted in the plot during it (1 / time = pictures per second)"
        ),
    )


# -- repainting many points -----------------------------------------------------------------------
@scenario(
    "gui-redraw-20k",
    quick_name="gui-redraw-2000",
    title="repaint of the input view with 20 000 points, level sets and image",
    target=Target.absolute(0.050),
    group="gui",
    app_threads=True,
)
def _redraw(quick: bool) -> Case:
    n, centers, resolution = (2000, 60, 60) if quick else (20_000, 300, 200)
    X, y = two_class_data(n, seed=8)
    win = _open_window(X, y, _kfd_params(n_centers=centers, random_state=0), resolution=resolution)
    viewport = win.w.workspace.input_view.plot.viewport()

    def candidate():
        viewport.repaint()  # a whole frame of the plot, painted now

    def check(_c, _b):
        shown = sum(len(item.data) for item in win.w.workspace.input_view._scatters.values())
        if win.views_showing(win.result) != 3:
            shown = 0
        return Check.at_least("points in the painted plot", shown, n)

    return Case(
        candidate,
        check=check,
        teardown=close_windows,
        sizes={"n": n, "centers": centers, "grid": f"{resolution}x{resolution}"},
        notes="QWidget.repaint() of the plot's viewport: points, image, level sets, boundary",
    )


# -- start-up --------------------------------------------------------------------------------------
# The child: the real `kfdviz --screenshot` (kfdviz.cli.main), with the time of the window's first
# fit_drawn written out (CLOCK_MONOTONIC, which parent and child share on Linux and macOS).
_STARTUP_CHILD = """
import json, sys, time
from kfdviz.app import main_window
first = []
class Timed(main_window.MainWindow):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fit_drawn.connect(lambda _r: first or first.append(time.monotonic()))
main_window.MainWindow = Timed
from kfdviz import cli
code = cli.main(["--screenshot", sys.argv[1]])
print(json.dumps({"first_picture": first[0] if first else None, "code": code}))
sys.exit(code)
"""


def startup(platform: str, shot: Path) -> dict:
    """Run ``kfdviz --screenshot`` in a child; seconds to its first picture and to its exit."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    env["QT_QPA_PLATFORM"] = platform
    if shot.exists():
        shot.unlink()
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _STARTUP_CHILD, str(shot)],
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT_SECONDS,
    )
    t_exit = time.monotonic() - t0
    report = {}
    for line in reversed(proc.stdout.strip().splitlines()):
        try:
            report = json.loads(line)
            break
        except ValueError:
            continue
    first = report.get("first_picture")
    return {
        "code": proc.returncode,
        "first_picture": None if first is None else first - t0,
        "exit": t_exit,
        "shot": shot.exists() and shot.stat().st_size > 0,
        "stderr": proc.stderr.strip().splitlines()[-3:],
    }


@scenario(
    "gui-startup",
    title="start to first fitted picture: `kfdviz --screenshot` in a child process",
    target=Target.absolute(3.0),
    group="gui",
    app_threads=True,
)
def _startup(quick: bool) -> Case:
    app = qt_application()
    platform = app.platformName()
    folder = Path(tempfile.mkdtemp(prefix="kfdviz-bench-"))
    shot = folder / "startup.png"

    def candidate():
        out = startup(platform, shot)
        seconds = out["first_picture"] if out["first_picture"] is not None else float("inf")
        return Measured(seconds, out)

    def check(measured, _):
        out = measured.value
        bad = out["code"] != 0 or not out["shot"] or out["first_picture"] is None
        if bad:
            print(f"gui-startup: the child failed: {out}", file=sys.stderr)
        return Check.at_most("failed runs (exit code, screenshot, first picture)", int(bad), 0)

    return Case(
        candidate,
        check=check,
        teardown=lambda: shutil.rmtree(folder, ignore_errors=True),
        sizes={"preset": "default", "platform": platform},
        notes=(
            "from spawning the interpreter to the window's first fit_drawn; the whole command "
            "also waits 0.3 s for the last paint, saves the screenshot and exits"
        ),
    )
