"""What the window's pictures are: the slots, the layout, the compare panels, the grid.

A picture is a slot: "main" in the single layout, "compare-0".."compare-3" in the compare layout.
Each slot says what it fits (algorithm, parameters, which output to draw, a caption) and keeps
its last result and its last failure. Which slots are on screen follows from the layout and the
compare count; the active slot is the one the algorithm panel edits.

Each compare slot has its own parameters. A parameter name in :attr:`Pictures.linked` has one
value in every shown compare slot whose algorithm has that parameter (slots without it are left
alone). A slot's caption (:func:`caption`) is its given title only while the slot fits exactly
what that title was written for; otherwise it is built from the slot's current parameters, so a
caption never names a value the picture was not drawn with.

Plain data, no Qt: the fit control, the views and the session actions read and change it on the
GUI thread only; the fit thread sees frozen requests made from it, never the model itself.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..core.kernels import KERNEL_PARAMETERS
from ..estimators import registry
from ..figure.plan import params_caption
from ..pipeline import FitResult

LAYOUTS = ("single", "compare")
COMPARE_MODES = ("input", "outputs", "embedding")
KERNEL_PARAM_NAMES = frozenset(KERNEL_PARAMETERS)


@dataclass
class SlotState:
    """What one slot fits: an algorithm, its parameters, which output to draw, a caption.

    ``title`` is a caption written for one setting of the slot, ``title_for`` that setting (see
    :func:`setting`); :func:`caption` uses the title only while the slot has that setting.
    """

    name: str
    algorithm: str
    params: dict = field(default_factory=dict)
    feature: int | str = "auto"
    title: str = ""
    result: FitResult | None = None
    error: str | None = None
    error_param: str | None = None
    title_for: tuple | None = None

    def titled(self, title: str) -> SlotState:
        """Give the slot ``title`` for what it fits now; returns the slot."""
        self.title = title
        self.title_for = setting(self)
        return self

    def set_setting(self, **values) -> None:
        """Set what the slot fits: ``algorithm``, ``params``, ``feature``, ``title``,
        ``title_for`` (those given); a failure shown for the old setting is forgotten."""
        unknown = set(values) - {"algorithm", "params", "feature", "title", "title_for"}
        if unknown:
            raise TypeError(f"not a slot setting: {', '.join(sorted(unknown))}")
        if "algorithm" in values:
            self.algorithm = values["algorithm"]
        if "params" in values:
            self.params = dict(values["params"])
        if "feature" in values:
            self.feature = values["feature"]
        if "title" in values:
            self.title = values["title"]
        if "title_for" in values:
            self.title_for = values["title_for"]
        self.error = self.error_param = None

    def untitled(self) -> None:
        """The caption follows the parameters from now on."""
        self.title, self.title_for = "", None

    def set_result(self, result: FitResult | None) -> None:
        """The slot's last picture (None: none); no failure stands."""
        self.result = result
        self.error = self.error_param = None

    def set_failure(self, message: str | None, param: str | None = None) -> None:
        """Why the slot's last fit failed (and on which parameter), or None."""
        self.error, self.error_param = message, param

    def renamed(self, name: str) -> SlotState:
        """A copy fitting what this slot fits, called ``name``, without result or failure."""
        return SlotState(
            name,
            self.algorithm,
            dict(self.params),
            self.feature,
            self.title,
            title_for=self.title_for,
        )


def default_compare_slots() -> list[SlotState]:
    """One slot per compare panel: KFD beside kernel PCA's first two features (Mika et al.
    1999, Fig. 1), and the SVM, the papers' usual baseline, for a fourth panel."""
    return [
        SlotState("compare-0", "kfd", {}, "auto").titled("KFD"),
        SlotState("compare-1", "kpca", {"n_components": 2}, 0).titled("KPCA feature 1"),
        SlotState("compare-2", "kpca", {"n_components": 2}, 1).titled("KPCA feature 2"),
        SlotState("compare-3", "svm", {}, "auto").titled("SVM"),
    ]


def param_names(algorithm: str) -> frozenset[str]:
    """The parameters the algorithm panel shows for ``algorithm`` (none for an unknown one)."""
    if algorithm not in registry.ALGORITHMS:
        return frozenset()
    return frozenset(p.name for p in registry.get(algorithm).params)


def settled_params(algorithm: str, params: dict) -> dict:
    """Every parameter ``algorithm`` takes, with its value in ``params`` or its default (lists of
    choices as tuples, so that equal settings compare equal)."""
    if algorithm not in registry.ALGORITHMS:
        return dict(params)
    values = {**registry.get(algorithm).defaults(), **params}
    return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}


def setting(slot: SlotState) -> tuple:
    """What a slot fits, as a comparable value: algorithm, every parameter, the feature."""
    values = settled_params(slot.algorithm, slot.params)
    return (slot.algorithm, tuple(sorted(values.items())), slot.feature)


def caption(slot: SlotState) -> str:
    """The slot's caption: its title while the slot fits what the title was written for, else
    one built from its algorithm and current parameters (:func:`params_caption`)."""
    return current_title(slot) or params_caption(slot.algorithm, slot.params)


def current_title(slot: SlotState) -> str:
    """The slot's given title while it still describes what the slot fits, else ""."""
    if slot.title and (slot.title_for is None or slot.title_for == setting(slot)):
        return slot.title
    return ""


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
    linked: set[str] = field(default_factory=set)  # parameters with one value in every panel
    compare_seeded: bool = False  # the compare slots belong to the session on screen

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
            linked=set(self.linked),
            compare_seeded=self.compare_seeded,
        )

    def shown_compare_slots(self) -> list[SlotState]:
        return self.compare_slots[: self.compare_count]

    def seed_compare_from_main(self) -> None:
        """Compare slots for the session on screen: the first fits what the single layout fits,
        the others the default comparison (kernel PCA's first two features) with its kernel,
        each panel in the input space; no parameter is linked."""
        main = self.main_slot
        first = main.renamed("compare-0")
        kernel = {k: v for k, v in main.params.items() if k in KERNEL_PARAM_NAMES}
        others = default_compare_slots()[1:]
        for slot in others:
            own = param_names(slot.algorithm)
            slot.set_setting(
                params={**slot.params, **{k: v for k, v in kernel.items() if k in own}}
            )
        self.compare_slots = [first, *others]
        self.active_compare = 0
        self.compare_mode = "input"
        self.linked = set()
        self.compare_seeded = True

    def spread_links(self, source: SlotState, names=None) -> list[str]:
        """Give every other shown compare slot whose algorithm has a linked parameter (of
        ``names``, default all linked) the value ``source`` has; the names of the slots changed."""
        names = self.linked if names is None else set(names) & self.linked
        have = settled_params(source.algorithm, source.params)
        values = {n: have[n] for n in names if n in param_names(source.algorithm)}
        changed = []
        for other in self.shown_compare_slots():
            if other is source:
                continue
            own = param_names(other.algorithm)
            current = settled_params(other.algorithm, other.params)
            updates = {n: v for n, v in values.items() if n in own and current[n] != v}
            if updates:
                other.set_setting(params={**other.params, **updates})
                changed.append(other.name)
        return changed

    def pull_links(self, slot: SlotState) -> dict:
        """Give ``slot`` the linked values the other shown compare slots have (for parameters
        its algorithm has); the values taken."""
        own = param_names(slot.algorithm)
        taken = {}
        for name in sorted(self.linked & own):
            for other in self.shown_compare_slots():
                if other is not slot and name in param_names(other.algorithm):
                    taken[name] = settled_params(other.algorithm, other.params)[name]
                    break
        if taken:
            slot.set_setting(params={**slot.params, **taken})
        return taken

    # -- what the user changes (the document's commands call these) ------------------------------
    def set_view(self, **values) -> None:
        """Set fields of the layout: ``layout_name``, ``compare_count``, ``compare_mode``,
        ``active_compare``, ``linked``, ``compare_seeded``, ``with_svr``, ``resolution``,
        ``main_slot``, ``compare_slots`` (those given)."""
        for name, value in values.items():
            if name not in self.__dataclass_fields__:
                raise TypeError(f"not a field of the pictures: {name}")
            setattr(self, name, value)

    def set_values(self, slot: SlotState, algorithm: str, params: dict, feature, problems=()):
        """Give ``slot`` (the one the algorithm panel edits) the panel's algorithm, parameters
        and feature; the names of the slots changed and the linked values it took (a compare
        slot given another algorithm takes the linked values the other panels have; the other
        shown panels take its valid linked values)."""
        new_algorithm = algorithm != slot.algorithm
        slot.set_setting(algorithm=algorithm, params=params, feature=feature)
        changed, taken = [slot.name], {}
        if self.layout_name == "compare" and slot.name != "main":
            if new_algorithm:
                slot.untitled()
                taken = self.pull_links(slot)
            changed += self.spread_links(slot, self.linked - set(problems))
        return changed, taken

    def choose_compare_algorithm(self, index: int, key: str) -> SlotState:
        """Compare panel ``index`` fits ``key``, keeping the kernel it had and taking the
        linked values; its caption follows its parameters. Returns the slot."""
        slot = self.compare_slots[index]
        own = param_names(key)
        kernel = {k: v for k, v in slot.params.items() if k in KERNEL_PARAM_NAMES and k in own}
        slot.set_setting(algorithm=key, params=kernel, feature="auto")
        slot.untitled()
        self.pull_links(slot)
        return slot

    def set_compare_count(self, n: int) -> list[SlotState]:
        """Show ``n`` compare panels; the shown slots that took linked values."""
        self.compare_count = n
        pulled = [slot for slot in self.shown_compare_slots() if self.pull_links(slot)]
        if self.active_compare >= n:
            self.active_compare = 0
        return pulled

    def set_link(self, name: str, on: bool, *, valid: bool = True) -> list[str]:
        """Link parameter ``name`` across the compare panels (every shown panel whose algorithm
        has it takes the active panel's value, when ``valid``) or unlink it (each keeps the value
        it has); the names of the slots changed."""
        if on:
            self.linked.add(name)
        else:
            self.linked.discard(name)
        if not on or self.layout_name != "compare" or not valid:
            return []
        return self.spread_links(self.active_slot(), [name])

    def restore(self, other: Pictures) -> None:
        """Take every field of ``other`` (a :meth:`snapshot`)."""
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(other, name))


__all__ = [
    "COMPARE_MODES",
    "KERNEL_PARAM_NAMES",
    "LAYOUTS",
    "Pictures",
    "SlotState",
    "caption",
    "current_title",
    "default_compare_slots",
    "param_names",
    "params_caption",
    "setting",
    "settled_params",
]
