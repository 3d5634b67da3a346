"""Widgets for the estimators' declared parameters (``ParamSpec``): one per parameter.

Continuous values get a slider (log-scaled where the spec says so) beside a typed field that
accepts any value, also outside the slider's range; an invalid value is marked on its widget with
the reason, and the panel does not fit until it is fixed.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAccessible, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..views.style import error_style
from .help_dialogs import wrapped_tip
from .wording import CHOICE_LABELS

SLIDER_STEPS = 1000


def small_font(widget: QWidget, points: float = 8.0) -> QWidget:
    """Smaller text for secondary labels (a font, not a style sheet: themes keep working)."""
    font = widget.font()
    font.setPointSizeF(points)
    widget.setFont(font)
    return widget


def compact_combo(min_chars: int = 8) -> QComboBox:
    """A combo box that does not insist on the width of its longest item (panels are narrow)."""
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(min_chars)
    return combo


def name_unnamed(widget: QWidget, name: str) -> None:
    """Give ``widget`` and every control in it that has no accessible name the name ``name``
    (a plot, a table, a scroll area: what a screen reader says when it gets the focus)."""
    for child in [widget, *widget.findChildren(QWidget)]:
        if child.focusPolicy() == Qt.FocusPolicy.NoFocus or accessible_name(child):
            continue
        parent = child.parentWidget()
        if isinstance(parent, QAbstractSpinBox) and parent.accessibleName():
            child.setAccessibleName(parent.accessibleName())  # the field inside a spin box
        else:
            child.setAccessibleName(name)


def accessible_name(widget: QWidget) -> str:
    """What a screen reader calls ``widget``: its accessible name, or what Qt derives from it
    (a button's text, a combo box's current item)."""
    if widget.accessibleName():
        return widget.accessibleName()
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name) if interface is not None else ""


def tab_focusable(root: QWidget) -> list[QWidget]:
    """The controls under ``root`` (itself included) that Tab reaches, in the order they were
    made (a spin box's own field is part of the spin box)."""
    window = root.window()
    return [
        w
        for w in [root, *root.findChildren(QWidget)]
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus
        and w.window() is window  # not a combo box's popup list
        and not isinstance(w.parentWidget(), QAbstractSpinBox)
    ]


class WindowUndoKeys(QObject):
    """Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y) in a parameter's field undo and redo the window's last
    step, as anywhere in the window, once what was typed is taken (Return, or the field left);
    while the user is still typing they undo the typing, as in any text field."""

    KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)

    def eventFilter(self, obj, event) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(obj, QLineEdit)
            and not obj.isModified()
            and any(event.matches(key) for key in self.KEYS)
        ):
            event.ignore()  # not the field's: the window's Undo and Redo take the keys
            return True
        return False


class InvalidValue(ValueError):
    """The text typed into a parameter's field is not a value of its kind."""


def format_float(v: float) -> str:
    if v == 0:
        return "0"
    if abs(v) >= 1e4 or abs(v) < 1e-3:
        return f"{v:.3g}"
    return f"{v:.4g}"


class ParamWidget(QWidget):
    """Base: a labelled editor for one ParamSpec with ``value()``, ``set_value`` and errors."""

    changed = Signal()

    def __init__(self, spec, parent: QWidget | None = None):
        super().__init__(parent)
        self.spec = spec
        self._error: str | None = None
        self.setToolTip(wrapped_tip(spec.tooltip))
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setObjectName("paramError")
        self.error_label.setStyleSheet("color: #D55E00; font-size: 8pt;")
        self.error_label.hide()

    def value(self):  # pragma: no cover - overridden
        raise NotImplementedError

    def set_value(self, value) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def editor(self) -> QWidget:
        """The widget that shows the error frame."""
        return self

    def dragging(self) -> bool:
        """Whether the user is dragging this widget's slider (its changes are one step)."""
        return False

    def set_accessible_label(self, label: str) -> None:
        """Name this widget and every control in it ``label``, as its row is labelled."""
        self.setAccessibleName(label)
        for child in self.findChildren(QWidget):
            if child.focusPolicy() == Qt.FocusPolicy.NoFocus:
                continue
            text = child.text() if isinstance(child, QAbstractButton) else ""
            own = text.replace("&", "")
            # a check box of several (the choices of a tuple) is named by its own text too
            child.setAccessibleName(label if not own or label.endswith(own) else f"{label} {own}")

    def error(self) -> str | None:
        return self._error

    def set_error(self, message: str | None) -> None:
        self._error = message
        editor = self.editor()
        if message:
            editor.setStyleSheet(error_style())
            editor.setToolTip(wrapped_tip(f"{message}\n\n{self.spec.tooltip}"))
            self.error_label.setText(message)
            self.error_label.show()
        else:
            editor.setStyleSheet("")
            editor.setToolTip(wrapped_tip(self.spec.tooltip))
            self.error_label.hide()


class FloatParam(ParamWidget):
    """A slider over [low, high] (log-scaled if asked) and a field accepting any number."""

    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        self.low = float(spec.low if spec.low is not None else 0.0)
        self.high = float(spec.high if spec.high is not None else max(1.0, self.low + 1.0))
        self.log = bool(spec.log) and self.low > 0
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setToolTip(wrapped_tip(spec.tooltip))
        self.field = QLineEdit()
        self.field.setFixedWidth(70)
        self.field.setToolTip(wrapped_tip(spec.tooltip))
        self.field.setAlignment(Qt.AlignmentFlag.AlignRight)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.slider, 1)
        row.addWidget(self.field)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addLayout(row)
        outer.addWidget(self.error_label)
        self.slider.valueChanged.connect(self._slider_moved)
        self.field.editingFinished.connect(self._field_edited)
        self._undo_keys = WindowUndoKeys(self)
        self.field.installEventFilter(self._undo_keys)
        self._value: float | str = float(spec.default)
        self.set_value(spec.default)

    def editor(self) -> QWidget:
        return self.field

    def dragging(self) -> bool:
        return self.slider.isSliderDown()

    def center_range_on(self, v: float) -> None:
        """Keep ``v`` inside the slider's range: a value outside it (a data set's scale far
        from the spec's) moves the range, as wide as before on the log scale, to centre on it."""
        if not self.log or v <= 0 or self.low <= v <= self.high:
            return
        half = math.sqrt(self.high / self.low)
        self.low, self.high = float(f"{v / half:.3g}"), float(f"{v * half:.3g}")
        self.slider.blockSignals(True)
        self.slider.setValue(self._to_slider(v))
        self.slider.blockSignals(False)

    def _to_slider(self, v: float) -> int:
        if self.log:
            v = max(v, 1e-300)
            t = (math.log10(v) - math.log10(self.low)) / (
                math.log10(self.high) - math.log10(self.low)
            )
        else:
            t = (v - self.low) / (self.high - self.low)
        return round(min(max(t, 0.0), 1.0) * SLIDER_STEPS)

    def _from_slider(self, i: int) -> float:
        t = i / SLIDER_STEPS
        if self.log:
            v = 10 ** (math.log10(self.low) + t * (math.log10(self.high) - math.log10(self.low)))
            # Round to 3 significant digits so that slider values read well.
            return float(f"{v:.3g}")
        return float(f"{self.low + t * (self.high - self.low):.4g}")

    def _slider_moved(self, i: int) -> None:
        v = self._from_slider(i)
        self._value = v
        self.field.setText(format_float(v))
        self.changed.emit()

    def _field_edited(self) -> None:
        self.field.setModified(False)  # taken: Ctrl+Z is the window's again
        text = self.field.text().strip()
        previous = self._value
        try:
            v = float(text)
        except ValueError:
            self._value = text
        else:
            self._value = v
            if math.isfinite(v):
                self.slider.blockSignals(True)
                self.slider.setValue(self._to_slider(v))
                self.slider.blockSignals(False)
        if self._value != previous:
            self.changed.emit()

    def value(self) -> float:
        if isinstance(self._value, str):
            raise InvalidValue(f"“{self._value}” is not a number.")
        return self._value

    def set_value(self, value) -> None:
        v = float(value)
        self._value = v
        self.slider.blockSignals(True)
        self.slider.setValue(self._to_slider(v))
        self.slider.blockSignals(False)
        self.field.setText(format_float(v))


class IntParam(ParamWidget):
    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        self.box = QSpinBox()
        low = int(spec.low) if spec.low is not None else 0
        high = int(spec.high) if spec.high is not None else 1000
        # Allow typing past the suggested range; the estimator's constraints decide validity.
        self.box.setRange(min(low, 0), max(high * 10, high + 100))
        self.box.setToolTip(wrapped_tip(spec.tooltip))
        self.box.setKeyboardTracking(False)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addWidget(self.box)
        outer.addWidget(self.error_label)
        self.set_value(spec.default)
        self.box.valueChanged.connect(lambda _v: self.changed.emit())

    def editor(self) -> QWidget:
        return self.box

    def value(self) -> int:
        return int(self.box.value())

    def set_value(self, value) -> None:
        self.box.blockSignals(True)
        self.box.setValue(int(value))
        self.box.blockSignals(False)


class OptionalIntParam(ParamWidget):
    """A whole number, or empty for "all" (None)."""

    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        self.field = QLineEdit()
        self.field.setPlaceholderText("all")
        self.field.setToolTip(wrapped_tip(spec.tooltip))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addWidget(self.field)
        outer.addWidget(self.error_label)
        self._last = self.field.text()
        self.set_value(spec.default)
        self.field.editingFinished.connect(self._edited)
        self._undo_keys = WindowUndoKeys(self)
        self.field.installEventFilter(self._undo_keys)

    def editor(self) -> QWidget:
        return self.field

    def _edited(self) -> None:
        self.field.setModified(False)  # taken: Ctrl+Z is the window's again
        if self.field.text() != self._last:
            self._last = self.field.text()
            self.changed.emit()

    def value(self):
        text = self.field.text().strip()
        if not text or text.lower() in ("all", "none"):
            return None
        try:
            return int(text)
        except ValueError:
            raise InvalidValue(f"“{text}” is not a whole number (leave empty for all).") from None

    def set_value(self, value) -> None:
        self.field.setText("" if value is None else str(int(value)))
        self._last = self.field.text()


class ChoiceParam(ParamWidget):
    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        self.combo = compact_combo(15)
        for choice in spec.choices:
            self.combo.addItem(CHOICE_LABELS.get(str(choice), str(choice)), choice)
        self.combo.setToolTip(wrapped_tip(spec.tooltip))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addWidget(self.combo)
        outer.addWidget(self.error_label)
        self.set_value(spec.default)
        self.combo.currentIndexChanged.connect(lambda _i: self.changed.emit())

    def editor(self) -> QWidget:
        return self.combo

    def value(self):
        return self.combo.currentData()

    def set_value(self, value) -> None:
        i = self.combo.findData(value)
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(i, 0))
        self.combo.blockSignals(False)


class BoolParam(ParamWidget):
    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        self.box = QCheckBox(spec.label or spec.name)
        self.box.setToolTip(wrapped_tip(spec.tooltip))
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.box)
        outer.addWidget(self.error_label)
        self.set_value(spec.default)
        self.box.toggled.connect(lambda _b: self.changed.emit())

    def editor(self) -> QWidget:
        return self.box

    def value(self) -> bool:
        return self.box.isChecked()

    def set_value(self, value) -> None:
        self.box.blockSignals(True)
        self.box.setChecked(bool(value))
        self.box.blockSignals(False)


class TupleChoiceParam(ParamWidget):
    """Any subset of the choices, as a row of check boxes (kept in the choices' order)."""

    def __init__(self, spec, parent=None):
        super().__init__(spec, parent)
        row = QGridLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setHorizontalSpacing(6)
        row.setVerticalSpacing(0)
        self.boxes = {}
        for i, choice in enumerate(spec.choices):
            box = QCheckBox(CHOICE_LABELS.get(str(choice), str(choice)))
            box.setToolTip(wrapped_tip(spec.tooltip))
            box.toggled.connect(lambda _b: self.changed.emit())
            self.boxes[choice] = box
            row.addWidget(box, i // 2, i % 2)
        self.holder = QWidget()
        self.holder.setLayout(row)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(1)
        outer.addWidget(self.holder)
        outer.addWidget(self.error_label)
        self.set_value(spec.default)

    def editor(self) -> QWidget:
        return self.holder

    def value(self) -> tuple:
        return tuple(c for c, box in self.boxes.items() if box.isChecked())

    def set_value(self, value) -> None:
        chosen = set((value,) if isinstance(value, str) else (value or ()))
        for c, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(c in chosen)
            box.blockSignals(False)


WIDGETS = {
    "float": FloatParam,
    "int": IntParam,
    "optional-int": OptionalIntParam,
    "choice": ChoiceParam,
    "bool": BoolParam,
    "tuple-choice": TupleChoiceParam,
}


def make_param_widget(spec, parent: QWidget | None = None) -> ParamWidget:
    try:
        cls = WIDGETS[spec.kind]
    except KeyError:
        raise ValueError(f"no widget for parameter kind {spec.kind!r} ({spec.name})") from None
    return cls(spec, parent)
