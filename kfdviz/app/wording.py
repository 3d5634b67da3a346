"""Counts in words the window shows: "1 point", "2 points"."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` with the noun in the number it takes: ``count(1, "point")`` is "1 point"."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


__all__ = ["count"]
