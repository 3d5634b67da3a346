"""The window's stored settings (``kfdviz.conf``): read, validated, reset when they do not hold.

The settings file is the user's, and anything can be in it: another version's values, a value
edited by hand, a file cut short. Nothing read from it may stop the app from starting. Every key
the window reads is checked once, when the window opens (:meth:`StoredSettings.check`): a value
that does not validate is removed, so the default is used from then on, and a notice says which
settings were reset and why (the window shows it in its status line). The getters return only
checked values. The geometry and the dock layout are checked where Qt reads them
(:meth:`StoredSettings.restore_window`).

Keys: ``theme`` (a theme's name), ``live`` (true/false), ``geometry`` and ``window_state``
(Qt's bytes), ``algorithm`` (JSON: the main picture's algorithm, parameters and feature),
``generator`` (JSON: [name, parameters, seed]), ``deck`` (JSON: preset names), and the file
dialogs' folders (``file_folder``, ``export_folder``: any text; a folder that is gone is ignored
where it is used).
"""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from .. import deck as decks
from ..estimators import registry
from ..views.style import THEMES

TRUE_TEXTS = ("true", "1")
FALSE_TEXTS = ("false", "0")


class SettingsProblem(ValueError):
    """A stored setting that does not validate (the message says why)."""


def _json(value, what: str):
    if isinstance(value, bytes | QByteArray):
        value = bytes(value).decode("utf-8", "replace")
    if not isinstance(value, str):
        raise SettingsProblem(f"{what} is not JSON text")
    try:
        return json.loads(value)
    except ValueError as exc:
        raise SettingsProblem(f"{what} is not valid JSON ({exc.msg})") from None


def check_theme(value) -> str:
    if not isinstance(value, str) or value not in THEMES:
        raise SettingsProblem(f"unknown theme {value!r}: one of {', '.join(sorted(THEMES))}")
    return value


def check_live(value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).lower() if isinstance(value, str | int) else None
    if text in TRUE_TEXTS:
        return True
    if text in FALSE_TEXTS:
        return False
    raise SettingsProblem(f"{value!r} is not true or false")


def check_algorithm(value) -> dict:
    """The stored main picture: {"algorithm": key, "params": {...}, "feature": ...}."""
    if value in ("", None):
        return {}
    saved = _json(value, "the stored algorithm")
    if not isinstance(saved, dict):
        raise SettingsProblem("the stored algorithm is not a table")
    key = saved.get("algorithm")
    if key not in registry.ALGORITHMS:
        raise SettingsProblem(f"unknown algorithm {key!r}")
    params = saved.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        kind = type(params).__name__
        raise SettingsProblem(f"params is a {kind}, not a table of parameter values")
    problems = registry.get(key).validate(params)
    if problems:
        name, reason = next(iter(problems.items()))
        raise SettingsProblem(f"parameter {name!r} of {key}: {reason}")
    feature = saved.get("feature", "auto")
    if feature != "auto" and not (isinstance(feature, int) and not isinstance(feature, bool)):
        if not isinstance(feature, str):
            raise SettingsProblem(f"feature {feature!r} is neither 'auto' nor a number")
    if isinstance(feature, int) and feature < 0:
        raise SettingsProblem(f"feature {feature} is negative")
    return {"algorithm": key, "params": dict(params), "feature": feature}


def check_generator(value) -> list:
    if value in ("", None):
        return []
    saved = _json(value, "the stored generator")
    ok = (
        isinstance(saved, list)
        and len(saved) == 3
        and isinstance(saved[0], str)
        and isinstance(saved[1], dict)
        and isinstance(saved[2], int)
    )
    if not ok:
        raise SettingsProblem("the stored generator is not [name, parameters, seed]")
    return saved


def check_deck(value) -> list[str]:
    if value in ("", None):
        return []
    try:
        return decks.check_deck(_json(value, "the stored deck"))
    except decks.DeckError as exc:
        raise SettingsProblem(str(exc)) from None


def check_folder(value) -> str:
    if not isinstance(value, str):
        raise SettingsProblem(f"{value!r} is not a folder's name")
    return value


def check_bytes(value) -> QByteArray:
    if isinstance(value, QByteArray):
        return value
    if isinstance(value, bytes):
        return QByteArray(value)
    raise SettingsProblem(f"{type(value).__name__} where Qt's saved bytes belong")


CHECKS = {
    "theme": check_theme,
    "live": check_live,
    "algorithm": check_algorithm,
    "generator": check_generator,
    "deck": check_deck,
    "file_folder": check_folder,
    "export_folder": check_folder,
    "geometry": check_bytes,
    "window_state": check_bytes,
}


class StoredSettings:
    """The checked view of a QSettings (None: no settings, every getter gives its default)."""

    def __init__(self, settings: QSettings | None):
        self.settings = settings
        self.notices: list[str] = []

    def check(self) -> list[str]:
        """Check every known key; remove those that do not validate. Returns the notices
        (one per reset key, "key: why"), also kept in :attr:`notices`."""
        s = self.settings
        if s is None:
            return []
        if s.status() == QSettings.Status.FormatError:
            self.notices.append(f"{s.fileName()} could not be read (not a settings file)")
        elif s.status() == QSettings.Status.AccessError:
            self.notices.append(f"{s.fileName()} could not be read or written")
        for key, check in CHECKS.items():
            if not s.contains(key):
                continue
            try:
                check(s.value(key))
            except SettingsProblem as exc:
                self.reset(key, str(exc))
            except Exception as exc:  # whatever a hand-edited file holds: never fatal
                self.reset(key, f"{exc.__class__.__name__}: {exc}")
        return list(self.notices)

    def reset(self, key: str, why: str) -> None:
        """Forget ``key`` (its default applies) and note why."""
        if self.settings is not None:
            self.settings.remove(key)
        self.notices.append(f"{key}: {why}")

    def notice_text(self) -> str:
        """One line for the status line ("" when nothing was reset)."""
        if not self.notices:
            return ""
        return "Settings reset to their defaults — " + "; ".join(self.notices)

    def _get(self, key: str, default):
        if self.settings is None or not self.settings.contains(key):
            return default
        try:
            return CHECKS[key](self.settings.value(key))
        except Exception:
            return default

    # -- checked values -------------------------------------------------------------------------
    def theme(self, default: str = "light") -> str:
        return self._get("theme", default)

    def live(self, default: bool = True) -> bool:
        return self._get("live", default)

    def algorithm(self) -> dict | None:
        """The stored main picture ({"algorithm", "params", "feature"}), or None."""
        return self._get("algorithm", {}) or None

    def deck(self) -> list[str] | None:
        return self._get("deck", []) or None

    def restore_window(self, window) -> None:
        """Give ``window`` (a QMainWindow) its stored geometry and dock layout; bytes Qt
        refuses are reset like any other setting."""
        for key, restore in (
            ("geometry", window.restoreGeometry),
            ("window_state", window.restoreState),
        ):
            value = self._get(key, None)
            if value is not None and not restore(value):
                self.reset(key, "Qt could not read the saved bytes")

    # -- writing --------------------------------------------------------------------------------
    def save(self, **values) -> None:
        """Store ``values`` (geometry, window_state, theme, live, algorithm, generator, deck);
        the tables are written as JSON, None leaves a key as it is."""
        s = self.settings
        if s is None:
            return
        for key, value in values.items():
            if value is None:
                continue
            if key == "live":
                value = "true" if value else "false"
            elif key in ("algorithm", "generator", "deck"):
                try:
                    value = json.dumps(value)
                except (TypeError, ValueError):
                    value = ""
            s.setValue(key, value)
        s.sync()


__all__ = ["CHECKS", "SettingsProblem", "StoredSettings"]
