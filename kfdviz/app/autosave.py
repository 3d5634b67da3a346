"""Autosave and crash recovery.

While the window is open its session (points, roles, algorithms, parameters, layout, view
settings) is written every ``interval`` seconds when something changed, and a few seconds after
an edit, to ``session-<pid>-<token>.kfdviz`` in the autosave folder (the application's data
folder, or ``KFDVIZ_AUTOSAVE_DIR``). ``session.save_session`` writes atomically, so a crash in the
middle of a save leaves the previous autosave intact. Beside it a marker ``….running`` names the
process; a clean exit removes both.

At start an autosave whose process is gone means the app did not exit cleanly: the window offers
to recover it in a banner (never a dialog that blocks start-up). Autosaves of another kfdviz still
running are left alone.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QWidget

from .. import session
from .banner import Banner

ENV_DIR = "KFDVIZ_AUTOSAVE_DIR"
INTERVAL_SECONDS = 60
EDIT_DELAY_MS = 3000
PREFIX = "session-"
MARKER_SUFFIX = ".running"

# Tokens of the autosavers alive in this process (a marker naming this process's pid is stale
# unless its token is here).
_LIVE_TOKENS: set[str] = set()


def default_dir() -> Path:
    """``KFDVIZ_AUTOSAVE_DIR``, else ``<application data folder>/autosave``."""
    value = os.environ.get(ENV_DIR)
    if value:
        return Path(value)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".kfdviz") / "autosave"


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (on this machine)."""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        try:
            ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        finally:
            kernel32.CloseHandle(handle)
        return bool(ok) and code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class Recoverable:
    """An autosave left by a kfdviz that did not exit cleanly."""

    path: Path
    marker: Path | None
    saved_at: float  # seconds since the epoch

    def describe(self) -> str:
        when = time.strftime("%d %b %H:%M", time.localtime(self.saved_at))
        return when


def _marker_owner(marker: Path) -> tuple[int, str] | None:
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
        return int(info["pid"]), str(info["token"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _running(marker: Path) -> bool:
    owner = _marker_owner(marker)
    if owner is None:
        return False
    pid, token = owner
    if pid == os.getpid():
        return token in _LIVE_TOKENS
    return pid_alive(pid)


def find_recoverable(folder) -> list[Recoverable]:
    """Autosaves in ``folder`` whose process is gone, newest first."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = []
    for path in folder.glob(f"{PREFIX}*{session.SUFFIX}"):
        marker = path.with_suffix(MARKER_SUFFIX)
        if marker.exists() and _running(marker):
            continue
        try:
            saved_at = path.stat().st_mtime
        except OSError:
            continue
        found.append(Recoverable(path, marker if marker.exists() else None, saved_at))
    found.sort(key=lambda r: r.saved_at, reverse=True)
    return found


def discard(items) -> None:
    """Delete these autosaves and their markers."""
    for item in items:
        for path in (item.path, item.marker):
            if path is not None:
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
                except OSError:
                    pass


class Autosaver(QObject):
    """Writes ``window.session_state()`` now and then; removes it on a clean exit."""

    saved = Signal(str)  # the path written
    failed = Signal(str)  # why a save did not happen

    def __init__(
        self,
        window,
        folder,
        *,
        interval_seconds: float = INTERVAL_SECONDS,
        edit_delay_ms: int = EDIT_DELAY_MS,
    ):
        super().__init__(window)
        self.window = window
        self.folder = Path(folder)
        self.token = secrets.token_hex(4)
        stem = f"{PREFIX}{os.getpid()}-{self.token}"
        self.path = self.folder / f"{stem}{session.SUFFIX}"
        self.marker = self.folder / f"{stem}{MARKER_SUFFIX}"
        self.dirty = False
        self.paused = False
        self._active = False
        self._periodic = QTimer(self)
        self._periodic.setInterval(max(1, round(1000 * interval_seconds)))
        self._periodic.timeout.connect(self._tick)
        self._after_edit = QTimer(self)
        self._after_edit.setSingleShot(True)
        self._after_edit.setInterval(int(edit_delay_ms))
        self._after_edit.timeout.connect(self._tick)

    def start(self) -> bool:
        """Claim a marker and start the timers; False when the folder cannot be written."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.marker.write_text(
                json.dumps({"pid": os.getpid(), "token": self.token, "started": time.time()}),
                encoding="utf-8",
            )
        except OSError as exc:
            self.failed.emit(f"cannot autosave in {self.folder}: {exc}")
            return False
        _LIVE_TOKENS.add(self.token)
        self._active = True
        self._periodic.start()
        return True

    @property
    def active(self) -> bool:
        return self._active

    def mark_dirty(self) -> None:
        """Something changed: save a little later (restarted by each further edit)."""
        if not self._active:
            return
        self.dirty = True
        if not self.paused:
            self._after_edit.start()

    def pause(self, paused: bool) -> None:
        """While paused (presentation mode) nothing is written; the last autosave stays."""
        self.paused = paused
        if paused:
            self._after_edit.stop()
        elif self.dirty:
            self._after_edit.start()

    def _tick(self) -> None:
        if self.dirty and not self.paused:
            self.save_now()

    def save_now(self) -> bool:
        if not self._active:
            return False
        try:
            state = self.window.session_state()
            session.save_session(self.path, state)
        except (OSError, ValueError) as exc:  # SessionError is a ValueError
            self.failed.emit(str(exc))
            return False
        self.dirty = False
        self.saved.emit(str(self.path))
        return True

    def stop(self, *, clean: bool = True) -> None:
        """Stop saving; on a clean exit remove the autosave and the marker. ``clean=False``
        leaves both behind, as a crash would."""
        self._periodic.stop()
        self._after_edit.stop()
        if not self._active:
            return
        self._active = False
        _LIVE_TOKENS.discard(self.token)
        if clean:
            discard([Recoverable(self.path, self.marker, 0.0)])


class RecoveryBanner(Banner):
    """A strip above the plots: "kfdviz did not close properly … [Recover] [Discard]"."""

    recover = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__("recoveryBanner", tone="warning", dismiss_text="Discard", parent=parent)
        self.recover_button = self.add_action("recover", "Recover")
        self.recover_button.clicked.connect(self.recover)
        self.discard_button = self.dismiss_button

    def offer(self, item: Recoverable, n_points: int | None = None) -> None:
        what = f" ({n_points} points)" if n_points is not None else ""
        self.show_message(
            "kfdviz did not close properly last time. Recover the session autosaved on "
            f"{item.describe()}{what}?"
        )


class AutosaveMixin:
    """The main window's side: start the autosaver, mark edits, offer and carry out recovery."""

    autosaver: Autosaver | None = None
    recovery: list[Recoverable]

    def _init_autosave(self, folder, interval_seconds=None, edit_delay_ms=None) -> None:
        self.recovery = []
        self.recovery_banner = RecoveryBanner()
        self.recovery_banner.recover.connect(self.recover_autosave)
        self.recovery_banner.dismissed.connect(self.discard_autosave)
        if folder is None:
            return
        found = find_recoverable(folder)
        kwargs = {}
        if interval_seconds is not None:
            kwargs["interval_seconds"] = interval_seconds
        if edit_delay_ms is not None:
            kwargs["edit_delay_ms"] = edit_delay_ms
        self.autosaver = Autosaver(self, folder, **kwargs)
        self.autosaver.start()
        if found:
            self.recovery = found
            n = None
            try:
                n = len(session.load_session(found[0].path).X)
            except (session.SessionError, OSError):
                n = None
            self.recovery_banner.offer(found[0], n)

    def _autosave_edit(self, *_args) -> None:
        if self.autosaver is not None:
            self.autosaver.mark_dirty()

    def recover_autosave(self) -> bool:
        """Open the newest autosave of an unclean exit; the autosaves found are then removed
        (this window's own autosave keeps the recovered session from now on)."""
        if not self.recovery:
            self.recovery_banner.hide()
            return False
        ok = self.open_session_file(str(self.recovery[0].path))
        if ok:
            discard(self.recovery)
            self.recovery = []
            self.recovery_banner.hide()
            self._show_status("Recovered the autosaved session.", kind="info")
            if self.autosaver is not None:
                self.autosaver.mark_dirty()
        return ok

    def discard_autosave(self) -> None:
        discard(self.recovery)
        self.recovery = []
        self.recovery_banner.hide()


__all__ = [
    "ENV_DIR",
    "AutosaveMixin",
    "Autosaver",
    "Recoverable",
    "RecoveryBanner",
    "default_dir",
    "discard",
    "find_recoverable",
    "pid_alive",
]
