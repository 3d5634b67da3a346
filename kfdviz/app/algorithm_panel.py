"""The algorithm panel: which algorithm, its kernel and parameters, and which feature to show.

The widgets come from the registry's declared parameters. Values are remembered per algorithm;
the kernel (kernel, width, degree, coef0) is shared between algorithms, so switching from KFD to
kernel PCA keeps the kernel the user tuned.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.kernels import KERNEL_PARAMETERS
from ..estimators import registry
from ..estimators.spec import Kind
from .description_label import DescriptionLabel
from .help_dialogs import wrapped_tip
from .param_links import LinkButton, with_link_button
from .params import (
    InvalidValue,
    ParamWidget,
    compact_combo,
    make_param_widget,
    small_font,
    tab_focusable,
)


def algorithms_for(mode: str) -> list:
    """Registry entries usable in ``mode`` ("classification" or "regression"), grouped by kind."""
    specs = list(registry.ALGORITHMS.values())
    if mode == "regression":
        specs = [s for s in specs if s.kind == Kind.REGRESSOR]
    else:
        specs = [s for s in specs if s.kind != Kind.REGRESSOR]
    order = list(Kind)
    return sorted(specs, key=lambda s: order.index(s.kind))


class AlgorithmPanel(QWidget):
    changed = Signal()  # the algorithm or a parameter changed
    feature_changed = Signal()
    width_from_data_requested = Signal()  # the "Width from data" button
    link_toggled = Signal(str, bool)  # a parameter linked (True) or unlinked across compare panels
    rebuilt = Signal()  # the parameters' widgets were made anew (another algorithm)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._mode = "classification"
        self._values: dict[str, dict] = {}
        self._shared: dict = {}
        self._widgets: dict[str, ParamWidget] = {}
        self._rows: dict[str, tuple[QWidget, QWidget]] = {}
        self._feature_value: int | str = "auto"
        self._linked: set[str] = set()
        self._links_shown = False  # the compare layout: a link toggle beside each parameter
        self._link_buttons: dict[str, LinkButton] = {}
        self._gesture: tuple | None = None  # (parameter, number) of the change being made
        self._gestures = 0
        self._prefix = ""  # "Panel 2 " while the panel edits compare panel 2

        self.combo = compact_combo(12)
        self.combo.setToolTip("The algorithm to fit (the compare layout can show up to four)")
        self.description = DescriptionLabel("")
        small_font(self.description)
        self.feature = compact_combo(10)
        self.feature.setToolTip(
            "Which output is drawn: the decision value f(x) = w·Φ(x) + b of a classifier, or "
            "the j-th feature (projection onto the j-th direction w_j)"
        )
        self.feature.addItem("Automatic", "auto")

        self.kernel_box = QGroupBox("Kernel")
        kernel_column = QVBoxLayout(self.kernel_box)
        kernel_column.setContentsMargins(6, 6, 6, 6)
        self.kernel_form = QFormLayout()
        self.kernel_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        kernel_column.addLayout(self.kernel_form)
        self.width_from_data = QPushButton("Width from data")
        self.width_from_data.setToolTip(
            "Set the Gaussian width to the data's scale: the median squared distance between "
            "training points (a starting point; a local kernel is often narrower)"
        )
        self.width_from_data.clicked.connect(self.width_from_data_requested)
        kernel_column.addWidget(self.width_from_data, 0, Qt.AlignmentFlag.AlignRight)
        self.params_box = QGroupBox("Parameters")
        self.params_form = QFormLayout(self.params_box)
        self.params_form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)

        top = QFormLayout()
        top.addRow("Algorithm", self.combo)
        top.addRow("", self.description)
        top.addRow("Show", self.feature)
        self._fixed_names = (
            (self.combo, "Algorithm"),
            (self.feature, "Show"),
            (self.width_from_data, "Width from data"),
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.kernel_box)
        layout.addWidget(self.params_box)
        layout.addStretch(1)

        self._fill_combo()
        self.combo.currentIndexChanged.connect(self._algorithm_changed)
        self.feature.currentIndexChanged.connect(self._feature_picked)
        self._build()

    # -- algorithms ----------------------------------------------------------------------------
    def _fill_combo(self, keep: str | None = None) -> None:
        self.combo.blockSignals(True)
        self.combo.clear()
        last_kind = None
        for spec in algorithms_for(self._mode):
            if spec.kind != last_kind and last_kind is not None:
                self.combo.insertSeparator(self.combo.count())
            last_kind = spec.kind
            self.combo.addItem(spec.title, spec.key)
            self.combo.setItemData(
                self.combo.count() - 1,
                wrapped_tip(f"{spec.kind.label}: {spec.description}"),
                Qt.ItemDataRole.ToolTipRole,
            )
        index = self.combo.findData(keep) if keep else -1
        if index < 0:
            index = self.combo.findData("kfd")
        self.combo.setCurrentIndex(max(index, 0))
        self.combo.blockSignals(False)

    def set_mode(self, mode: str) -> None:
        """ "classification" or "regression": which algorithms are offered."""
        if mode == self._mode:
            return
        self._remember()
        self._mode = mode
        self._fill_combo()
        self._build()
        self.changed.emit()

    def algorithm(self) -> str:
        return self.combo.currentData()

    def spec(self):
        return registry.get(self.algorithm())

    def _algorithm_changed(self, _index: int) -> None:
        self._gesture = None
        self._remember_for(self._built_key)
        self._feature_value = "auto"
        self._build()
        self.changed.emit()

    # -- parameter widgets -------------------------------------------------------------------
    def _remember(self) -> None:
        self._remember_for(getattr(self, "_built_key", None))

    def _remember_for(self, key: str | None) -> None:
        if key is None:
            return
        values = {}
        for name, w in self._widgets.items():
            try:
                values[name] = w.value()
            except InvalidValue:
                continue
        self._values[key] = {k: v for k, v in values.items() if k not in KERNEL_PARAMETERS}
        self._shared.update({k: v for k, v in values.items() if k in KERNEL_PARAMETERS})

    def _clear_forms(self) -> None:
        for form in (self.kernel_form, self.params_form):
            while form.rowCount():
                form.removeRow(0)
        self._widgets.clear()
        self._rows.clear()
        self._link_buttons.clear()

    def _build(self) -> None:
        spec = self.spec()
        self._built_key = spec.key
        self._clear_forms()
        self.description.setText(spec.description)
        if getattr(self, "_compact", False):
            self.combo.setToolTip(wrapped_tip(spec.description))
        remembered = {**self._values.get(spec.key, {}), **self._shared}
        for p in spec.params:
            w = make_param_widget(p)
            if p.name in remembered:
                try:
                    w.set_value(remembered[p.name])
                except (TypeError, ValueError):
                    pass
            w.changed.connect(self._param_changed)
            label = QLabel(p.label or p.name)
            label.setToolTip(p.tooltip)
            form = self.kernel_form if p.name in KERNEL_PARAMETERS else self.params_form
            if p.kind == "bool":
                label = QLabel("")
            w.set_accessible_label(self._prefix + (p.label or p.name))
            field = with_link_button(w, self._link_button(p.name))
            form.addRow(label, field)
            self._widgets[p.name] = w
            self._rows[p.name] = (label, field)
        self._name_fixed()
        self.params_box.setVisible(any(p.name not in KERNEL_PARAMETERS for p in spec.params))
        self.kernel_box.setVisible(any(p.name in KERNEL_PARAMETERS for p in spec.params))
        self._update_visibility()
        self.rebuilt.emit()

    def tab_chain(self) -> list[QWidget]:
        """The panel's controls in the order Tab visits them: top to bottom as laid out (the
        algorithm, what is shown, the kernel, its width from data, the other parameters)."""
        kernel = [n for n in self._rows if n in KERNEL_PARAMETERS]
        others = [n for n in self._rows if n not in KERNEL_PARAMETERS]
        chain = [self.combo, self.feature]
        for name in kernel:
            chain += tab_focusable(self._rows[name][1])
        chain.append(self.width_from_data)
        for name in others:
            chain += tab_focusable(self._rows[name][1])
        return chain

    def _show_remembered(self) -> None:
        """The widgets built show the remembered values, without an error."""
        key = self._built_key
        remembered = {**self._values.get(key, {}), **self._shared}
        for name, w in self._widgets.items():
            if name in remembered:
                try:
                    w.set_value(remembered[name])
                except (TypeError, ValueError):
                    pass
            w.set_error(None)

    def _update_visibility(self) -> None:
        spec = self.spec()
        current = {}
        for name, w in self._widgets.items():
            try:
                current[name] = w.value()
            except InvalidValue:
                current[name] = None
        for p in spec.params:
            visible = True
            if p.visible_when:
                visible = all(current.get(k) in allowed for k, allowed in p.visible_when.items())
            label, w = self._rows[p.name]
            label.setVisible(visible)
            w.setVisible(visible)
        width = self._rows.get("width")
        self.width_from_data.setVisible(width is not None and not width[1].isHidden())

    def _param_changed(self) -> None:
        sender = self.sender()
        if isinstance(sender, ParamWidget):
            sender.set_error(None)
            name = sender.spec.name
            if not (sender.dragging() and self._gesture and self._gesture[0] == name):
                self._gestures += 1
                self._gesture = (name, self._gestures)
        self._update_visibility()
        self._remember()
        self.changed.emit()

    def gesture(self) -> tuple | None:
        """(parameter, number) of the last change of a parameter: the same for every change
        of one slider drag, new for any other change (a value typed, another parameter)."""
        return self._gesture

    def set_name_prefix(self, prefix: str) -> None:
        """Controls named for the picture they edit: "Panel 2 Width c" with ``prefix``
        "Panel 2 " (the compare layout), "Width c" with ""."""
        self._prefix = prefix
        spec = self.spec()
        for p in spec.params:
            w = self._widgets.get(p.name)
            if w is not None:
                w.set_accessible_label(prefix + (p.label or p.name))
        self._name_fixed()

    def _name_fixed(self) -> None:
        for widget, label in self._fixed_names:
            widget.setAccessibleName(self._prefix + label)
        for name, button in self._link_buttons.items():
            label = next((p.label or p.name for p in self.spec().params if p.name == name), name)
            button.setAccessibleName(f"{self._prefix}Link {label}")

    def widget(self, name: str) -> ParamWidget | None:
        return self._widgets.get(name)

    def main_parameters_bottom(self) -> int:
        """The panel's height down to its main parameters: the kernel's and the algorithm's
        first parameter (μ, C, the rank, ...), as laid out now (pixels, panel coordinates)."""
        layout = self.layout()
        layout.activate()
        bottom = self.feature.geometry().bottom()
        if not self.kernel_box.isHidden():
            bottom = self.kernel_box.geometry().bottom()
        own = [
            field
            for name, (_, field) in self._rows.items()
            if name not in KERNEL_PARAMETERS and not field.isHidden()
        ]
        if own and not self.params_box.isHidden():
            bottom = max(bottom, self.params_box.geometry().top() + own[0].geometry().bottom())
        margins = layout.contentsMargins()
        return bottom + margins.bottom() + 6

    def set_compact(self, compact: bool) -> None:
        """Compact (small screens): the description on one line, the whole in its tooltip."""
        self._compact = compact
        self.description.set_one_line(compact)
        self.combo.setToolTip(
            wrapped_tip(self.spec().description)
            if compact
            else "The algorithm to fit (the compare layout can show up to four)"
        )

    def set_width(self, width: float) -> None:
        """Give the kernel width ``width`` (rounded to three figures), as if typed."""
        w = self._widgets.get("width")
        if w is not None:
            if hasattr(w, "center_range_on"):
                w.center_range_on(float(f"{width:.3g}"))
            w.set_value(float(f"{width:.3g}"))
            w.set_error(None)
            self._gestures += 1
            self._gesture = ("width", self._gestures)
            self._remember()
            self.changed.emit()

    # -- links across compare panels --------------------------------------------------------------
    def _link_button(self, name: str) -> LinkButton:
        button = LinkButton(name)
        button.set_linked(name in self._linked)
        button.setVisible(self._links_shown)
        button.toggled.connect(lambda on, name=name: self.link_toggled.emit(name, on))
        self._link_buttons[name] = button
        return button

    def link_button(self, name: str) -> LinkButton | None:
        return self._link_buttons.get(name)

    def set_links(self, linked, *, shown: bool) -> None:
        """Show which parameters are linked; ``shown``: the link toggles are visible (the
        compare layout), else hidden."""
        self._linked, self._links_shown = set(linked), shown
        for name, button in self._link_buttons.items():
            button.set_linked(name in self._linked)
            button.setVisible(shown)

    # -- values and errors ------------------------------------------------------------------
    def collect(self) -> tuple[dict, dict[str, str]]:
        """(parameters, problems): the typed values, and parameter -> reason for bad ones."""
        params, problems = {}, {}
        for name, w in self._widgets.items():
            try:
                params[name] = w.value()
            except InvalidValue as exc:
                problems[name] = str(exc)
        checked = self.spec().validate({k: v for k, v in params.items() if k not in problems})
        for name, reason in checked.items():
            problems.setdefault(name or self.algorithm(), reason)
        return params, problems

    def params(self) -> dict:
        return self.collect()[0]

    def mark_errors(self, problems: dict[str, str]) -> None:
        for name, w in self._widgets.items():
            w.set_error(problems.get(name))

    def show_error(self, param: str | None, message: str) -> bool:
        """Mark ``param``'s widget with ``message``; False when no such widget is shown."""
        w = self._widgets.get(param or "")
        if w is None:
            return False
        w.set_error(message)
        return True

    def clear_errors(self) -> None:
        for w in self._widgets.values():
            w.set_error(None)

    def errors(self) -> dict[str, str]:
        return {n: w.error() for n, w in self._widgets.items() if w.error()}

    # -- the shown feature ----------------------------------------------------------------------
    def feature_value(self):
        return self._feature_value

    def set_feature_options(self, options, current) -> None:
        """Fill "Show" with a fit's outputs; ``current`` is the one drawn."""
        self.feature.blockSignals(True)
        self.feature.clear()
        self.feature.addItem("Automatic", "auto")
        for key, label in options:
            self.feature.addItem(label, key)
        wanted = self._feature_value
        index = self.feature.findData(wanted)
        self.feature.setCurrentIndex(max(index, 0))
        self.feature.blockSignals(False)

    def _feature_picked(self, _index: int) -> None:
        value = self.feature.currentData()
        if value is None or value == self._feature_value:
            return
        self._feature_value = value
        self.feature_changed.emit()

    # -- whole state ------------------------------------------------------------------------------
    def set_state(self, key: str, params: dict | None = None, feature="auto") -> None:
        """Select ``key`` with ``params`` (others at their remembered values or defaults)."""
        params = dict(params or {})
        self._gesture = None
        spec = registry.get(key)
        mode = "regression" if spec.kind == "regressor" else "classification"
        if mode != self._mode:
            self._mode = mode
            self._fill_combo(keep=key)
        self._values[key] = {
            **self._values.get(key, {}),
            **{k: v for k, v in params.items() if k not in KERNEL_PARAMETERS},
        }
        self._shared.update({k: v for k, v in params.items() if k in KERNEL_PARAMETERS})
        self.combo.blockSignals(True)
        self.combo.setCurrentIndex(max(self.combo.findData(key), 0))
        self.combo.blockSignals(False)
        self._feature_value = feature
        if getattr(self, "_built_key", None) == key:
            self._show_remembered()  # the same widgets: the focus stays where it is
        else:
            self._build()
        index = self.feature.findData(feature)
        if index < 0:
            self.feature.blockSignals(True)
            self.feature.clear()
            self.feature.addItem("Automatic", "auto")
            if feature != "auto":
                label = f"Feature {feature + 1}" if isinstance(feature, int) else str(feature)
                self.feature.addItem(label, feature)
            self.feature.setCurrentIndex(self.feature.count() - 1)
            self.feature.blockSignals(False)
        else:
            self.feature.setCurrentIndex(index)

        self._update_visibility()

    def set_values(self, values: dict) -> None:
        """Show ``values`` in their widgets (no ``changed``); the others stay."""
        for name, value in values.items():
            w = self._widgets.get(name)
            if w is not None:
                w.set_value(value)
        self._remember()
        self._update_visibility()
