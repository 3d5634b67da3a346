"""Open and save dialogs that start where the user last chose a file.

Every file the window reads or writes (points, sessions, decks, figures, exported data) is asked
for through :func:`ask_open_path` or :func:`ask_save_path`. Each remembers the folder of the
chosen file under a settings key, so the next dialog of the same kind opens there instead of in
the working directory; figures and exported data keep their own folder (``EXPORT_FOLDER``),
apart from the data and session files (``FILE_FOLDER``).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

FILE_FOLDER = "file_folder"
EXPORT_FOLDER = "export_folder"


def last_folder(settings, key: str = FILE_FOLDER) -> str:
    """The folder remembered under ``key`` if it still exists, else the working directory."""
    folder = settings.value(key, "") if settings is not None else ""
    folder = str(folder or "")
    return folder if folder and Path(folder).is_dir() else str(Path.cwd())


def remember_folder(settings, path, key: str = FILE_FOLDER) -> None:
    if settings is not None and path:
        settings.setValue(key, str(Path(path).resolve().parent))


def ask_open_path(
    parent: QWidget, caption: str, filters: str, settings=None, key: str = FILE_FOLDER
) -> str | None:
    """A file to read, chosen in a dialog that starts in the last folder; None if cancelled."""
    path, _ = QFileDialog.getOpenFileName(parent, caption, last_folder(settings, key), filters)
    if not path:
        return None
    remember_folder(settings, path, key)
    return path


def ask_save_path(
    parent: QWidget,
    caption: str,
    file_name: str,
    filters: str,
    settings=None,
    key: str = FILE_FOLDER,
    suffix: str = "",
) -> str | None:
    """A file to write, proposed as ``file_name`` in the last folder (a full path is kept as
    given); ``suffix`` is added to a name without one. None if cancelled."""
    start = (
        file_name
        if Path(file_name).is_absolute()
        else str(Path(last_folder(settings, key)) / file_name)
    )
    path, _ = QFileDialog.getSaveFileName(parent, caption, start, filters)
    if not path:
        return None
    if suffix and not Path(path).suffix:
        path += suffix
    remember_folder(settings, path, key)
    return path


__all__ = [
    "EXPORT_FOLDER",
    "FILE_FOLDER",
    "ask_open_path",
    "ask_save_path",
    "last_folder",
    "remember_folder",
]
