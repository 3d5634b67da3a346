"""Decks: ordered lists of presets to step through in presentation mode (no Qt here).

A deck file (``.kfddeck``) is UTF-8 JSON::

    {"format": "kfdviz-deck", "format_version": 1, "title": "...", "presets": ["name", ...]}

The default deck is the papers' figures in the order of the project's figure table.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import atomic_file, presets
from .regular_file import NotRegularFile, TooLarge, read_regular

FORMAT_NAME = "kfdviz-deck"
FORMAT_VERSION = 1
SUFFIX = ".kfddeck"
MAX_BYTES = 1 << 20

# The figure table's order (kfd-regression-noisy is the second half of its row).
PAPER_ORDER = (
    "okpca-invariance",
    "invariant-kfd",
    "kfd-vs-kpca",
    "output-distributions",
    "kfd-losses",
    "kfd-regression",
    "kfd-regression-noisy",
    "kfd-sparsity",
    "novelty-ring-line-square",
    "novelty-spiral",
    "novelty-sine-noise",
    "novelty-width-sweep",
    "novelty-roc",
    "novelty-digits",
    "koc-iris",
    "koc-cuboids",
    "koc-linear-svm",
)


class DeckError(ValueError):
    """A deck that cannot be read, written or used, with the reason."""


def default_deck() -> list[str]:
    """The papers' presets in the figure table's order."""
    return [name for name in PAPER_ORDER if name in presets.PRESETS]


def check_deck(names) -> list[str]:
    """``names`` as a list of known preset names; DeckError naming any unknown one."""
    if isinstance(names, str) or not isinstance(names, list | tuple):
        raise DeckError("a deck is a list of preset names")
    out = []
    for name in names:
        if not isinstance(name, str):
            raise DeckError(f"a deck holds preset names, not {name!r}")
        if name not in presets.PRESETS:
            raise DeckError(f"unknown preset {name!r}: choose from {', '.join(presets.PRESETS)}")
        out.append(name)
    if not out:
        raise DeckError("the deck is empty")
    return out


def dumps_deck(names, title: str = "") -> str:
    names = check_deck(list(names))
    document = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "title": str(title),
        "presets": names,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def loads_deck(text: str | bytes, *, path=None) -> list[str]:
    where = f"{Path(path).name}: " if path is not None else ""
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DeckError(f"{where}not a deck file (not JSON: {exc})") from None
    except RecursionError:
        raise DeckError(f"{where}not a deck file (JSON nested too deeply)") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise DeckError(f"{where}not a kfdviz deck file")
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        raise DeckError(
            f"{where}deck format version {version!r}; this kfdviz reads version {FORMAT_VERSION}"
        )
    try:
        return check_deck(document.get("presets"))
    except DeckError as exc:
        raise DeckError(f"{where}{exc}") from None


def save_deck(path, names, title: str = "") -> Path:
    """Write a deck file atomically (a failed save leaves an existing file as it was)."""
    path = Path(path)
    text = dumps_deck(names, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_file.write_text(path, text)
    return path


def load_deck(path) -> list[str]:
    path = Path(path)
    try:
        raw = read_regular(path, MAX_BYTES)
    except TooLarge:
        raise DeckError(
            f"{path.name}: too large for a deck file (at most {MAX_BYTES // 1024} KiB)"
        ) from None
    except NotRegularFile as exc:
        what = str(exc).rsplit(" is ", 1)[-1]
        raise DeckError(f"{path.name}: is {what}, not a deck file") from None
    except OSError as exc:
        raise DeckError(f"{path.name}: {exc.strerror or exc}") from None
    return loads_deck(raw, path=path)


__all__ = [
    "PAPER_ORDER",
    "SUFFIX",
    "DeckError",
    "check_deck",
    "default_deck",
    "dumps_deck",
    "load_deck",
    "loads_deck",
    "save_deck",
]
