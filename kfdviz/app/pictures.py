"""What the window's pictures are: the slots, the layout, the compare panels, the grid.

A picture is a slot: "main" in the single layout, "compare-0".."compare-2" in the compare layout.
Each slot says what it fits (algorithm, parameters, which output to draw, a caption) and keeps
its last result and its last failure. Which slots are on screen follows from the layout and the
compare count; the active slot is the one the algorithm panel edits.

Plain data, no Qt: the fit control, the views and the session actions read and change it on the
GUI thread only; the fit thread sees frozen requests made from it, never the model itself.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..pipeline import FitResult

LAYOUTS = ("single", "compare")
COMPARE_MODES = ("input", "outputs", "embedding")


@dataclass
class SlotState:
    """What one slot fits: an algorithm, its parameters, which output to draw, a caption."""

    name: str
    algorithm: str
    params: dict = field(default_factory=dict)
    feature: int | str = "auto"
    title: str = ""
    result: FitResult | None = None
    error: str | None = None
    error_param: str | None = None


def default_compare_slots() -> list[SlotState]:
    return [
        SlotState("compare-0", "kfd", {}, "auto", "KFD"),
        SlotState("compare-1", "kpca", {"n_components": 2}, 0, "KPCA feature 1"),
        SlotState("compare-2", "kpca", {"n_components": 2}, 1, "KPCA feature 2"),
    ]


@dataclass
class Pictures:
    """The pictures on screen.

    ``layout_name`` is one of :data:`LAYOUTS`; in the compare layout the first
    ``compare_count`` compare slots are shown, and ``active_compare`` (below the count) is the one
    edited. ``resolution`` is the side of the grid the level sets are computed on; ``with_svr``
    asks regression fits for a support vector regression beside them.
    """

    main_slot: SlotState = field(default_factory=lambda: SlotState("main", "kfd"))
    compare_slots: list[SlotState] = field(default_factory=default_compare_slots)
    layout_name: str = "single"
    compare_count: int = 3
    compare_mode: str = "input"  # what each compare panel shows (COMPARE_MODES)
    active_compare: int = 0
    resolution: int = 200
    with_svr: bool = False

    def slot(self, name: str) -> SlotState:
        """The slot called ``name`` ("main" or "compare-<i>")."""
        if name == "main":
            return self.main_slot
        return self.compare_slots[int(name.split("-")[1])]

    def active_slot(self) -> SlotState:
        """The slot the algorithm panel edits."""
        if self.layout_name == "compare":
            return self.compare_slots[self.active_compare]
        return self.main_slot

    def layout_slot_names(self) -> list[str]:
        """The names of the slots on screen, in their order."""
        if self.layout_name == "compare":
            return [s.name for s in self.compare_slots[: self.compare_count]]
        return ["main"]

    def all_slots(self) -> list[SlotState]:
        """Every slot, shown or not."""
        return [self.main_slot, *self.compare_slots]

    @staticmethod
    def compare_index(name: str) -> int | None:
        """The panel index of a compare slot's name, None for "main"."""
        return int(name.split("-")[1]) if name.startswith("compare-") else None

    def snapshot(self) -> Pictures:
        """A copy whose slots can be changed without changing these (results are shared)."""
        return Pictures(
            main_slot=copy.copy(self.main_slot),
            compare_slots=[copy.copy(s) for s in self.compare_slots],
            layout_name=self.layout_name,
            compare_count=self.compare_count,
            compare_mode=self.compare_mode,
            active_compare=self.active_compare,
            resolution=self.resolution,
            with_svr=self.with_svr,
        )

    def restore(self, other: Pictures) -> None:
        """Take every field of ``other`` (a :meth:`snapshot`)."""
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(other, name))


__all__ = [
    "COMPARE_MODES",
    "LAYOUTS",
    "Pictures",
    "SlotState",
    "default_compare_slots",
]
