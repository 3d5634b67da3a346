"""Autosave and crash recovery.

While the window is open its session (points, roles, algorithms, parameters, layout, view
settings) is written every ``interval`` seconds when something changed, and a few seconds after
an edit, to ``session-<pid>-<token>.kfdviz`` in the autosave folder (the application's data
folder, or ``KFDVIZ_AUTOSAVE_DIR``). ``session.save_session`` writes atomically, so a crash in the
middle of a save leaves the previous autosave intact. Beside it a marker ``….running`` names the
process; a clean exit removes both.

At start an autosave whose process is gone means the app did not exit cleanly: the window offers
every such session in a banner (never a dialog that blocks start-up), newest first. Recover opens
the one chosen, Discard deletes it; either acts on that one only, and the banner offers the
others next. An autosave is deleted only once its content is safe elsewhere: Recover first
writes the window's own autosave of the recovered session, and keeps the old one when that
cannot be written. Autosaves of another kfdviz still running are left alone. An autosave that
cannot be written (a folder that cannot be made or written to, a full disk) says so in the
window's status line.

GUI thread only.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QWidget

from .. import session
from .banner import Banner
from .wording import count

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
    """Writes ``session_state()`` now and then; removes it on a clean exit."""

    saved = Signal(str)  # the path written
    failed = Signal(str)  # why a save did not happen

    def __init__(
        self,
        parent: QObject | None,
        folder,
        session_state,
        *,
        interval_seconds: float = INTERVAL_SECONDS,
        edit_delay_ms: int = EDIT_DELAY_MS,
    ):
        super().__init__(parent)
        self.session_state = session_state
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
            state = self.session_state()
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
    """A strip above the plots: "kfdviz did not close properly … [sessions] [Recover] [Discard]".

    With more than one session to recover, a list chooses which one Recover and Discard act on.
    """

    recover = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__("recoveryBanner", tone="warning", dismiss_text="Discard", parent=parent)
        self.choice = QComboBox()
        self.choice.setObjectName("recoveryChoice")
        self.choice.setToolTip("The autosaved session Recover and Discard act on")
        self.choice.hide()
        self.row.insertWidget(1, self.choice)
        self.recover_button = self.add_action("recover", "Recover")
        self.recover_button.clicked.connect(self.recover)
        self.discard_button = self.dismiss_button

    def offer(self, items, n_points=None) -> None:
        """Offer ``items`` (Recoverables, newest first; one alone is accepted too), with their
        number of points where known."""
        if isinstance(items, Recoverable):
            items, n_points = [items], [n_points]
        n_points = list(n_points) if n_points is not None else [None] * len(items)
        self.choice.clear()
        for item, n in zip(items, n_points, strict=True):
            what = f" ({count(n, 'point')})" if n is not None else ""
            self.choice.addItem(f"{item.describe()}{what}", str(item.path))
        self.choice.setVisible(len(items) > 1)
        if len(items) == 1:
            what = f" ({count(n_points[0], 'point')})" if n_points[0] is not None else ""
            text = (
                "kfdviz did not close properly last time. Recover the session autosaved on "
                f"{items[0].describe()}{what}?"
            )
        else:
            text = (
                f"kfdviz did not close properly: {len(items)} sessions were autosaved. Recover "
                "the one chosen (the others stay on offer)?"
            )
        self.show_message(text)

    def chosen(self) -> int:
        """The index of the session chosen (0 when there is one)."""
        return max(self.choice.currentIndex(), 0)


class AutosaveControl(QObject):
    """The window's side of autosave: the autosaver, the edits it hears of, and recovery
    (see the module's docstring)."""

    def __init__(
        self,
        parent: QObject,
        *,
        folder,
        session_state,
        open_session_file,
        status,
        interval_seconds: float | None = None,
        edit_delay_ms: int | None = None,
    ):
        """``folder``: where to autosave and to look for sessions to recover (None: neither);
        ``open_session_file(path) -> bool`` shows a session in the window."""
        super().__init__(parent)
        self.open_session_file = open_session_file
        self.status = status
        self.recovery: list[Recoverable] = []
        self.banner = RecoveryBanner()
        self.banner.recover.connect(self.recover)
        self.banner.dismissed.connect(self.discard)
        self.autosaver: Autosaver | None = None
        if folder is None:
            return
        found = find_recoverable(folder)
        kwargs = {}
        if interval_seconds is not None:
            kwargs["interval_seconds"] = interval_seconds
        if edit_delay_ms is not None:
            kwargs["edit_delay_ms"] = edit_delay_ms
        self.autosaver = Autosaver(self, folder, session_state, **kwargs)
        self.autosaver.failed.connect(self._failed)
        self.autosaver.saved.connect(self._saved)
        self.autosaver.start()
        if found:
            self.recovery = found
            self._offer()

    def _offer(self) -> None:
        if not self.recovery:
            self.banner.hide()
            return
        counts = []
        for item in self.recovery:
            try:
                counts.append(len(session.load_session(item.path).X))
            except (session.SessionError, OSError):
                counts.append(None)
        self.banner.offer(self.recovery, counts)

    def _failed(self, why: str) -> None:
        self.status.notice(f"Autosave is not working: {why}", key="autosave")

    def _saved(self, _path: str) -> None:
        self.status.clear_notice("autosave")

    def edited(self, *_args) -> None:
        """Something changed: autosave soon."""
        if self.autosaver is not None:
            self.autosaver.mark_dirty()

    def pause(self, paused: bool) -> None:
        """While paused nothing is written (presentation mode); pausing saves first."""
        if self.autosaver is None:
            return
        if paused:
            self.autosaver.save_now()
        self.autosaver.pause(paused)

    def recover(self) -> bool:
        """Open the autosave chosen in the banner. It is deleted once this window's own
        autosave holds the recovered session; when that cannot be written it stays."""
        if not self.recovery:
            self.banner.hide()
            return False
        item = self.recovery[self.banner.chosen()]
        if not self.open_session_file(str(item.path)):
            return False
        self.recovery.remove(item)
        if self.autosaver is not None and self.autosaver.save_now():
            discard([item])
            self.status.show("Recovered the autosaved session.", kind="info")
        else:
            self.status.show(
                f"Recovered the autosaved session; {item.path.name} is kept, as this window "
                "cannot autosave it.",
                kind="error",
            )
        self._offer()
        return True

    def discard(self) -> None:
        """Delete the autosave chosen in the banner; offer the others."""
        if self.recovery:
            item = self.recovery.pop(self.banner.chosen())
            discard([item])
        self._offer()

    def stop(self) -> None:
        """The window closes cleanly: its own autosave goes."""
        if self.autosaver is not None:
            self.autosaver.stop(clean=True)


__all__ = [
    "ENV_DIR",
    "AutosaveControl",
    "Autosaver",
    "Recoverable",
    "RecoveryBanner",
    "default_dir",
    "discard",
    "find_recoverable",
    "pid_alive",
]
