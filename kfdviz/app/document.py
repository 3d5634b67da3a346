"""The document: everything a user edits in the window, and its one history of undoable steps.

Plain Python and numpy, no Qt (``tests/test_app_ownership.py`` checks it): the window's widgets and
views observe the document, they do not own any of it.

The document is

- the points (a :class:`~kfdviz.datasets.drawing.DrawnDataset`: coordinates, classes or targets,
  train/test roles, classification or regression) and the split that chose the roles (ratio,
  seed), and the generator that made the points;
- the pictures (:class:`~kfdviz.app.pictures.Pictures`): every slot's algorithm, parameters,
  feature shown and caption, the layout, the compare panels, their count and what they show,
  the linked parameters, the grid's resolution and the SVR option.

The session file is its serialization (:mod:`kfdviz.app.session_actions`); the pictures'
results are derived from it and are not part of it.

A user action is one *step* of the :class:`History`: the action runs inside
:meth:`History.group`, which snapshots the document before and after (:class:`DocState`; a
snapshot of the points is three references, since the data set's arrays are never written in
place). Groups nest: a step that does several things (Generate replaces the points and sets the
kernel width from them) is one step. Steps given the same ``merge`` key one after the other are
one step (a slider drag, a brush stroke). Undo puts the snapshot before the step back, redo the
one after; a new step clears the steps undone. What the program does by itself (a refit, a view
range) changes nothing here, so it is never a step.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..datasets.drawing import DrawnDataset
from ..estimators import registry
from ..pipeline.standardize import standardized
from .pictures import Pictures, SlotState, param_names, settled_params
from .wording import CHOICE_LABELS

# Steps kept; the oldest go first. Snapshots share the arrays of unchanged data, so a step costs
# the arrays its edit made; BYTE_LIMIT bounds what old data sets keep alive.
HISTORY_LIMIT = 500
BYTE_LIMIT = 512 * 2**20


@dataclass(frozen=True)
class SlotSetting:
    """What one slot fits, as the user set it (no result)."""

    algorithm: str
    params: tuple  # (name, value) pairs, sorted
    feature: object
    title: str
    title_for: tuple | None

    @classmethod
    def of(cls, slot: SlotState) -> SlotSetting:
        params = tuple(sorted(dict(slot.params).items()))
        return cls(slot.algorithm, params, slot.feature, slot.title, slot.title_for)


@dataclass(frozen=True, eq=False)
class DocState:
    """A snapshot of the document. Equal snapshots describe the same document; the panel being
    edited (``active_compare``) is put back by undo but is not a change of its own."""

    X: np.ndarray
    y: np.ndarray
    test: np.ndarray
    mode: str
    test_ratio: float
    split_seed: int
    generator: tuple | None
    slots: tuple[SlotSetting, ...]  # main, compare-0 .. compare-3
    layout: str
    compare_count: int
    compare_mode: str
    active_compare: int
    linked: frozenset
    compare_seeded: bool
    with_svr: bool
    resolution: int
    standardize: bool = False

    def same_data(self, other: DocState) -> bool:
        """The same points, classes, roles and mode."""
        if self.mode != other.mode:
            return False
        return all(
            a is b or (a.shape == b.shape and np.array_equal(a, b))
            for a, b in ((self.X, other.X), (self.y, other.y), (self.test, other.test))
        )

    def settings(self) -> tuple:
        """Everything but the points and the panel being edited."""
        return (
            self.test_ratio,
            self.split_seed,
            self.generator,
            self.slots,
            self.layout,
            self.compare_count,
            self.compare_mode,
            self.linked,
            self.compare_seeded,
            self.with_svr,
            self.resolution,
            self.standardize,
        )

    def __eq__(self, other) -> bool:
        if not isinstance(other, DocState):
            return NotImplemented
        return self.settings() == other.settings() and self.same_data(other)

    __hash__ = None  # snapshots are compared, never hashed

    def differences(self, other: DocState) -> list[str]:
        """What differs from ``other``: "points", the names of the other fields, and
        "<slot name>" for each slot whose setting differs (to say why two are not equal)."""
        found = [] if self.same_data(other) else ["points"]
        for name in (
            "test_ratio",
            "split_seed",
            "generator",
            "layout",
            "compare_count",
            "compare_mode",
            "linked",
            "compare_seeded",
            "with_svr",
            "resolution",
            "standardize",
        ):
            if getattr(self, name) != getattr(other, name):
                found.append(name)
        for name, mine, theirs in zip(SLOT_NAMES, self.slots, other.slots, strict=True):
            if mine != theirs:
                found.append(f"{name}: {mine} != {theirs}")
        return found

    def nbytes(self) -> int:
        return self.X.nbytes + self.y.nbytes + self.test.nbytes


@dataclass
class Step:
    """One undoable step: its name and the document before and after it."""

    text: str
    before: DocState
    after: DocState
    merge: object = None
    replaces_data: bool = False  # a whole new data set (views re-frame on undo and redo)

    def extend(self, after: DocState, text: str | None, replaces_data: bool) -> None:
        """Merge the next change into this step: it now ends at ``after`` (renamed ``text``
        when given)."""
        self.after = after
        self.replaces_data = self.replaces_data or replaces_data
        if text is not None:
            self.text = text


@dataclass(frozen=True)
class Restored:
    """What putting a snapshot back changed: the kind of data change ("replace", "edit",
    "roles" or None) and the slots whose setting changed."""

    data: str | None
    slots: tuple[str, ...]
    layout: bool


def short_label(label: str) -> str:
    """A parameter's label inside a sentence: "Width c" → "width c"; "C", "μ" stay."""
    if len(label) > 1 and label[0].isupper() and label[1].islower():
        return label[0].lower() + label[1:]
    return label


def format_value(value) -> str:
    """A parameter's value in a step's name: "2", "on", "Polynomial" (a choice's label)."""
    if isinstance(value, str):
        return CHOICE_LABELS.get(value, value)
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return ", ".join(format_value(v) for v in value)
    return str(value)


def slot_prefix(name: str, before: DocState) -> str:
    """ "Panel 2 " for a compare slot shown beside others, "" for the main picture."""
    if name == "main" or before.layout != "compare":
        return ""
    return f"Panel {int(name.split('-')[1]) + 1} "


SLOT_NAMES = ("main", "compare-0", "compare-1", "compare-2", "compare-3")


def describe(before: DocState, after: DocState) -> str:
    """A name for the step from ``before`` to ``after`` when its action gave none: the
    parameter and its new value ("width c = 2"), the algorithm, the feature, the layout."""
    slots = list(zip(SLOT_NAMES, before.slots, after.slots, strict=True))
    if after.layout == "compare":  # the panel edited first: others changed only through links
        slots.insert(0, slots.pop(1 + after.active_compare))
    for name, old, new in slots:
        if old == new:
            continue
        prefix = slot_prefix(name, before)
        if old.algorithm != new.algorithm:
            title = (
                registry.get(new.algorithm).title
                if new.algorithm in registry.ALGORITHMS
                else new.algorithm
            )
            return f"{prefix}algorithm {title}".strip()
        o, n = dict(old.params), dict(new.params)
        have = settled_params(new.algorithm, n)
        was = settled_params(old.algorithm, o)
        changed = [
            k for k in sorted(have) if k in param_names(new.algorithm) and was.get(k) != have[k]
        ]
        if len(changed) == 1:
            k = changed[0]
            return f"{prefix}{short_label(param_label(new.algorithm, k))} = {format_value(have[k])}"
        if changed:
            return f"{prefix}parameters".strip()
        if old.feature != new.feature:
            shown = new.feature
            what = f"feature {shown + 1}" if isinstance(shown, int) else format_value(shown)
            what = "automatic" if shown == "auto" else what
            return f"{prefix}show {what}".strip()
        return f"{prefix}caption".strip()
    if before.layout != after.layout:
        return "Compare on" if after.layout == "compare" else "Compare off"
    if before.linked != after.linked:
        gained = sorted(after.linked - before.linked)
        lost = sorted(before.linked - after.linked)
        return f"Link {', '.join(gained)}" if gained else f"Unlink {', '.join(lost)}"
    if before.compare_count != after.compare_count:
        return f"{after.compare_count} compare panels"
    if before.compare_mode != after.compare_mode:
        return f"Compare panels show {after.compare_mode}"
    if before.test_ratio != after.test_ratio:
        return f"Split {round(100 * after.test_ratio)} % test"
    if before.standardize != after.standardize:
        return f"Standardize features {'on' if after.standardize else 'off'}"
    if before.with_svr != after.with_svr:
        return f"SVR tube {'on' if after.with_svr else 'off'}"
    if not before.same_data(after):
        return "Edit points"
    return "Change"


def param_label(algorithm: str, name: str) -> str:
    """The label the algorithm panel shows for parameter ``name``."""
    if algorithm in registry.ALGORITHMS:
        for p in registry.get(algorithm).params:
            if p.name == name:
                return p.label or name
    return name


class History:
    """The undo history of a document (see the module's docstring).

    ``capture()`` returns the document's snapshot; ``restore(state, step)`` puts one back
    (``step`` is the step undone or redone). ``listeners`` are called with no arguments after
    every change of the history.
    """

    def __init__(self, capture: Callable[[], DocState], restore: Callable[[DocState, Step], None]):
        self.capture = capture
        self._restore = restore
        self.undo_steps: list[Step] = []
        self.redo_steps: list[Step] = []
        self.listeners: list[Callable[[], None]] = []
        self._depth = 0
        self._open: tuple | None = None  # text, before, merge of the outermost group
        self._replaces = False
        self._restoring = False

    # -- recording ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def group(self, text: str | Callable[[DocState, DocState], str] = "", merge=None):
        """Run the block as one step named ``text`` (or a function of the snapshots before and
        after); nested groups belong to the outermost; nothing is recorded while a snapshot is
        being put back."""
        if self._restoring:
            yield
            return
        self._depth += 1
        if self._depth == 1:
            self._open = (text, self.capture(), merge)
            self._replaces = False
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                text, before, merge = self._open
                self._open = None
                self._record(text, before, merge)

    def note_replace(self) -> None:
        """The open step puts a whole new data set in place (undo re-frames the views)."""
        if self._depth:
            self._replaces = True

    @property
    def recording(self) -> bool:
        """Whether a step is open."""
        return self._depth > 0

    def _record(self, text, before: DocState, merge) -> None:
        after = self.capture()
        if after == before:
            return
        top = self.undo_steps[-1] if self.undo_steps and not self.redo_steps else None
        if merge is not None and top is not None and top.merge == merge:
            named = callable(text) or not text
            top.extend(after, _name(text, top.before, after) if named else None, self._replaces)
        else:
            self.undo_steps.append(
                Step(_name(text, before, after), before, after, merge, self._replaces)
            )
            self._trim()
        self.redo_steps.clear()
        self._changed()

    def _trim(self) -> None:
        del self.undo_steps[:-HISTORY_LIMIT]
        seen: set[int] = set()
        total = 0
        for i in range(len(self.undo_steps) - 1, -1, -1):
            state = self.undo_steps[i].before
            for a in (state.X, state.y, state.test):
                if id(a) not in seen:
                    seen.add(id(a))
                    total += a.nbytes
            if total > BYTE_LIMIT and i < len(self.undo_steps) - 1:
                del self.undo_steps[: i + 1]
                break

    # -- moving through it -------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self.undo_steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_steps)

    @property
    def undo_text(self) -> str:
        return self.undo_steps[-1].text if self.undo_steps else ""

    @property
    def redo_text(self) -> str:
        return self.redo_steps[-1].text if self.redo_steps else ""

    @property
    def index(self) -> int:
        """How many steps are done (0: the document as it was opened)."""
        return len(self.undo_steps)

    def texts(self) -> list[str]:
        """Every step's name, the done ones first (the last done at :attr:`index` - 1)."""
        return [s.text for s in self.undo_steps] + [s.text for s in reversed(self.redo_steps)]

    def undo(self) -> bool:
        if not self.undo_steps or self._depth:
            return False
        step = self.undo_steps.pop()
        self._put_back(step.before, step)
        self.redo_steps.append(step)
        self._changed()
        return True

    def redo(self) -> bool:
        if not self.redo_steps or self._depth:
            return False
        step = self.redo_steps.pop()
        self._put_back(step.after, step)
        self.undo_steps.append(step)
        self._changed()
        return True

    def jump(self, index: int) -> None:
        """Undo or redo until ``index`` steps are done."""
        index = max(0, min(index, len(self.texts())))
        while self.index > index and self.undo():
            pass
        while self.index < index and self.redo():
            pass

    def clear(self) -> None:
        """Forget every step (a session opened starts a fresh history)."""
        self.undo_steps.clear()
        self.redo_steps.clear()
        self._changed()

    def put_aside(self) -> tuple:
        """The steps, taken out (a presentation shows its slides in between); see
        :meth:`take_back`."""
        saved = (self.undo_steps, self.redo_steps)
        self.undo_steps, self.redo_steps = [], []
        self._changed()
        return saved

    def take_back(self, saved: tuple) -> None:
        self.undo_steps, self.redo_steps = saved
        self._changed()

    def _put_back(self, state: DocState, step: Step) -> None:
        self._restoring = True
        try:
            self._restore(state, step)
        finally:
            self._restoring = False

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()


def _name(text, before: DocState, after: DocState) -> str:
    if callable(text):
        return text(before, after)
    return text or describe(before, after)


@dataclass
class Document:
    """The points, the split, the generator and the pictures, with their history."""

    pictures: Pictures = field(default_factory=Pictures)
    dataset: DrawnDataset = field(default_factory=lambda: DrawnDataset(2))
    test_ratio: float = 0.0
    split_seed: int = 0
    generator: tuple | None = None  # (name, parameters, seed) of the generator of the points
    # whether the kernel sees the features standardized (data of more than two features only)
    standardize: bool = False
    # called with (state, step, restored) after a snapshot is put back
    restored_listeners: list = field(default_factory=list)

    def __post_init__(self):
        self.history = History(self.state, self._restore)

    def state(self) -> DocState:
        """The snapshot of the document as it is now."""
        p, ds = self.pictures, self.dataset
        return DocState(
            X=ds.X,
            y=ds.y,
            test=ds.test_mask,
            mode=ds.mode,
            test_ratio=float(self.test_ratio),
            split_seed=int(self.split_seed),
            generator=_frozen_generator(self.generator),
            slots=tuple(SlotSetting.of(s) for s in p.all_slots()),
            layout=p.layout_name,
            compare_count=p.compare_count,
            compare_mode=p.compare_mode,
            active_compare=p.active_compare,
            linked=frozenset(p.linked),
            compare_seeded=p.compare_seeded,
            with_svr=p.with_svr,
            resolution=p.resolution,
            standardize=self.standardize,
        )

    # -- the parts the window sets -------------------------------------------------------------
    def set_split(self, ratio: float, seed: int | None = None) -> None:
        self.test_ratio = float(ratio)
        if seed is not None:
            self.split_seed = int(seed)

    def set_generator(self, generator: tuple | None) -> None:
        self.generator = generator

    def set_standardize(self, on: bool) -> None:
        self.standardize = bool(on)

    def standardizes(self, X) -> bool:
        """Whether the kernel sees ``X`` standardized: asked for, and ``X`` has more than two
        features (points in the plane are pictured over the plane in their own units)."""
        return self.standardize and np.ndim(X) == 2 and np.shape(X)[1] > 2

    def kernel_data(self, X, train) -> np.ndarray:
        """The points as the kernel sees them: standardized over the training points
        (``train``, a boolean mask) when :meth:`standardizes`, else as they are."""
        return standardized(X, train) if self.standardizes(X) else np.asarray(X, dtype=float)

    def use_dataset(self, dataset: DrawnDataset) -> DrawnDataset:
        """Work on ``dataset`` from now on (its observers are the old one's); the old one."""
        old, self.dataset = self.dataset, dataset
        for observer in list(old.observers):
            old.unsubscribe(observer)
            dataset.subscribe(observer)
        return old

    # -- undo ----------------------------------------------------------------------------------
    def _restore(self, state: DocState, step: Step) -> None:
        before = self.state()
        data = None
        if not before.same_data(state):
            roles = np.where(state.test, "test", "train")
            ds = DrawnDataset.from_arrays(state.X, state.y, roles, mode=state.mode)
            self.use_dataset(ds)
            if (
                step.replaces_data
                or before.mode != state.mode
                or before.X.shape[1:] != state.X.shape[1:]
            ):
                data = "replace"
            elif np.array_equal(before.X, state.X) and np.array_equal(before.y, state.y):
                data = "roles"
            else:
                data = "edit"
        self.test_ratio, self.split_seed = state.test_ratio, state.split_seed
        self.generator = generator_tuple(state.generator)
        self.standardize = state.standardize
        p = self.pictures
        changed = []
        for slot, setting, old in zip(p.all_slots(), state.slots, before.slots, strict=True):
            if setting != old:
                slot.set_setting(
                    algorithm=setting.algorithm,
                    params=dict(setting.params),
                    feature=setting.feature,
                    title=setting.title,
                    title_for=setting.title_for,
                )
                changed.append(slot.name)
        layout = (before.layout, before.compare_count) != (state.layout, state.compare_count)
        p.set_view(
            layout_name=state.layout,
            compare_count=state.compare_count,
            compare_mode=state.compare_mode,
            active_compare=state.active_compare,
            linked=set(state.linked),
            compare_seeded=state.compare_seeded,
            with_svr=state.with_svr,
            resolution=state.resolution,
        )
        restored = Restored(data, tuple(changed), layout)
        for listener in list(self.restored_listeners):
            listener(state, step, restored)


def _frozen_generator(generator) -> tuple | None:
    if generator is None:
        return None
    name, params, seed = generator
    return (name, tuple(sorted(dict(params).items())), seed)


def generator_tuple(frozen) -> tuple | None:
    """A generator as the window keeps it, (name, parameters as a dict, seed)."""
    if frozen is None:
        return None
    name, params, seed = frozen
    return (name, dict(params), seed)


__all__ = [
    "BYTE_LIMIT",
    "HISTORY_LIMIT",
    "DocState",
    "Document",
    "History",
    "Restored",
    "SlotSetting",
    "Step",
    "describe",
    "generator_tuple",
    "short_label",
]
