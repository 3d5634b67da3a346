"""Results stored as they finish, one JSON file per task, so that a run resumes and reruns are free.

A task is named by its key: what it computes (kind), the data set, the realization, the method,
its parameters or grid, and the code version. The file name carries a digest of the key and the
file holds the key itself, so a stored result is only ever returned for exactly that key.
Files are written through :mod:`kfdviz.atomic_file` (a temporary file in the same folder, flushed,
then renamed), so a killed run leaves either the whole result or none of it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .. import atomic_file


def write_text_atomic(path, text: str) -> Path:
    """Write ``text`` to ``path`` (making its folders) through :mod:`kfdviz.atomic_file`."""
    atomic_file.write_text(path, text, make_folders=True)
    return Path(path)


def canonical(key: dict) -> str:
    return json.dumps(key, sort_keys=True, separators=(",", ":"), allow_nan=False)


class ResultStore:
    """A folder of task results: ``get(key)`` (None when absent) and ``put(key, result)``."""

    def __init__(self, folder):
        self.folder = Path(folder)

    def path(self, key: dict) -> Path:
        digest = hashlib.sha256(canonical(key).encode()).hexdigest()[:20]
        dataset = str(key.get("dataset", "_"))
        method = str(key.get("method", "_"))
        realization = key.get("realization", "_")
        name = f"{key.get('kind', 'task')}-r{realization}-{digest}.json"
        return self.folder / dataset / method / name

    def get(self, key: dict) -> dict | None:
        entry = self.get_entry(key)
        return None if entry is None else entry[0]

    def get_entry(self, key: dict) -> tuple[dict, dict | None] | None:
        """The stored result for ``key`` and the task's durations (None where not stored)."""
        path = self.path(key)
        try:
            with open(path, encoding="utf-8") as handle:
                stored = json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # unreadable (a foreign or damaged file): computed again, then replaced
        if stored.get("key") != json.loads(canonical(key)):
            return None
        return stored.get("result"), stored.get("seconds")

    def put(self, key: dict, result: dict, seconds: dict | None = None) -> Path:
        """Store ``result`` under ``key``, with the task's durations (``{"wall_s", "cpu_s"}``)."""
        entry = {"key": key, "result": result}
        if seconds is not None:
            entry["seconds"] = seconds
        text = json.dumps(entry, sort_keys=True, indent=1)
        return write_text_atomic(self.path(key), text)
