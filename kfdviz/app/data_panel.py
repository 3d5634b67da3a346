"""The data panel: generate a data set, load or save a file, the drawing tools, the split."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from .. import datasets
from ..datasets.drawing import MAX_CLASSES
from ..views.style import class_color
from .params import compact_combo, small_font


class DataPanel(QWidget):
    generate_requested = Signal(str, dict, int)  # generator name, parameters, seed
    split_changed = Signal(float)
    class_changed = Signal(int)
    mode_changed = Signal(str)  # "classification" | "regression"
    standardize_changed = Signal(bool)  # the "Standardize features" box, ticked by the user

    def __init__(self, tool_actions: list[QAction], file_actions: list[QAction], parent=None):
        super().__init__(parent)
        # -- generator ------------------------------------------------------------------------
        gen_box = QGroupBox("Generate")
        form = QFormLayout(gen_box)
        self.generator = compact_combo(12)
        for name in datasets.names():
            info = datasets.describe(name)
            if info["dimension"] > 3 and name not in ("iris",):
                # 20-D sets are for the command line's tables; iris keeps its 3-D view
                label = f"{info['title']} ({info['dimension']}-D)"
            else:
                label = info["title"]
            self.generator.addItem(label, name)
            self.generator.setItemData(
                self.generator.count() - 1,
                f"{info['source']}\n\n{info['description']}",
                Qt.ItemDataRole.ToolTipRole,
            )
        self.generator.setToolTip("Which data set to generate")
        self.n_samples = QSpinBox()
        self.n_samples.setRange(4, 20000)
        self.n_samples.setValue(200)
        self.n_samples.setToolTip("Number of points")
        self.noise = QDoubleSpinBox()
        self.noise.setRange(0.0, 5.0)
        self.noise.setDecimals(3)
        self.noise.setSingleStep(0.01)
        self.noise.setToolTip("Standard deviation of the Gaussian noise added to each coordinate")
        self.classes = QSpinBox()
        self.classes.setRange(1, MAX_CLASSES)
        self.classes.setToolTip("Number of classes (for the generators that have a choice)")
        self.seed = QSpinBox()
        self.seed.setRange(0, 99_999)
        self.seed.setToolTip("Random seed: the same seed gives the same points")
        self.generate = QPushButton("Generate")
        self.generate.setToolTip("Replace the points by a fresh sample (undo brings them back)")
        grid_gen = QGridLayout()
        grid_gen.setContentsMargins(0, 0, 0, 0)
        grid_gen.setHorizontalSpacing(6)
        grid_gen.addWidget(QLabel("Points"), 0, 0)
        grid_gen.addWidget(self.n_samples, 0, 1)
        grid_gen.addWidget(QLabel("Noise"), 0, 2)
        grid_gen.addWidget(self.noise, 0, 3)
        grid_gen.addWidget(QLabel("Classes"), 1, 0)
        grid_gen.addWidget(self.classes, 1, 1)
        grid_gen.addWidget(QLabel("Seed"), 1, 2)
        grid_gen.addWidget(self.seed, 1, 3)
        form.addRow(self.generator)
        form.addRow(grid_gen)
        form.addRow(self.generate)
        buttons = QHBoxLayout()
        self._file_buttons = buttons
        form.addRow(buttons)
        self.generator.currentIndexChanged.connect(self._generator_changed)
        self.generate.clicked.connect(self._emit_generate)

        # -- files ----------------------------------------------------------------------------
        for action in file_actions:
            button = QToolButton()
            button.setDefaultAction(action)
            button.setAccessibleName(action.text())
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self._file_buttons.addWidget(button)

        # -- drawing --------------------------------------------------------------------------
        draw_box = QGroupBox("Draw")
        grid = QGridLayout(draw_box)
        for i, action in enumerate(tool_actions):
            button = QToolButton()
            button.setDefaultAction(action)
            button.setAccessibleName(action.text())
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            grid.addWidget(button, i // 3, i % 3)
        self.class_group = QButtonGroup(self)
        self.class_group.setExclusive(True)
        class_row = QHBoxLayout()
        class_row.setSpacing(2)
        class_row.addWidget(QLabel("Class"))
        self.class_buttons = []
        for k in range(MAX_CLASSES):
            b = QToolButton()
            b.setText(str(k + 1))
            b.setCheckable(True)
            b.setToolTip(f"Draw points of class {k + 1} (key {k + 1})")
            b.setStyleSheet(
                f"QToolButton {{ color: {class_color(k)}; font-weight: bold; }}"
                f"QToolButton:checked {{ background: {class_color(k)}; color: white; }}"
            )
            self.class_group.addButton(b, k)
            class_row.addWidget(b)
            self.class_buttons.append(b)
            b.setVisible(k < 3)
        class_row.addStretch(1)
        self.class_buttons[0].setChecked(True)
        self.class_group.idToggled.connect(self._class_toggled)
        self.regression = QPushButton("Regression mode")
        self.regression.setCheckable(True)
        self.regression.setToolTip(
            "Draw (x, y) samples of a function and fit KFD regression (NIPS 2000 Fig. 3) "
            "instead of classes"
        )
        self.regression.toggled.connect(
            lambda on: self.mode_changed.emit("regression" if on else "classification")
        )
        grid.addLayout(class_row, 3, 0, 1, 3)
        grid.addWidget(self.regression, 4, 0, 1, 3)

        # -- split ----------------------------------------------------------------------------
        split_box = QGroupBox("Train / test split")
        split_layout = QHBoxLayout(split_box)
        self.split = QSlider(Qt.Orientation.Horizontal)
        self.split.setRange(0, 90)
        self.split.setSingleStep(5)
        self.split.setPageStep(10)
        self.split.setToolTip(
            "Percentage of the points held out as test points (chosen at random, per class): "
            "drawn hollow, never used for fitting, counted in the test error. Points you draw "
            "afterwards are training points until the slider moves again."
        )
        self.split_label = QLabel("0 % test")
        self.split_label.setMinimumWidth(60)
        split_layout.addWidget(self.split, 1)
        split_layout.addWidget(self.split_label)
        self.split.valueChanged.connect(self._split_moved)
        self.split.sliderReleased.connect(self._split_released)

        # -- the features' units ------------------------------------------------------------
        self.standardize = QCheckBox("Standardize features")
        self.standardize.setToolTip(
            "The kernel sees each feature centred and divided by its standard deviation (over "
            "the training points), so that a feature in large units does not drown the others. "
            "Applies to data of more than two features."
        )
        self.standardize.toggled.connect(self.standardize_changed)
        self.standardize_note = QLabel("")
        self.standardize_note.setWordWrap(True)
        small_font(self.standardize_note)
        self.standardize_note.hide()

        self.count = QLabel("")
        self.count.setWordWrap(True)
        small_font(self.count)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(gen_box)
        layout.addWidget(draw_box)
        layout.addWidget(split_box)
        layout.addWidget(self.standardize)
        layout.addWidget(self.standardize_note)
        layout.addWidget(self.count)
        layout.addStretch(1)
        self._generator_changed()
        # Each control named as it is labelled (screen readers, UI automation).
        for widget, name in (
            (self.generator, "Data set"),
            (self.n_samples, "Points"),
            (self.noise, "Noise"),
            (self.classes, "Classes"),
            (self.seed, "Seed"),
            (self.generate, "Generate"),
            (self.regression, "Regression mode"),
            (self.split, "Train / test split"),
            (self.standardize, "Standardize features"),
        ):
            widget.setAccessibleName(name)
        for k, button in enumerate(self.class_buttons):
            button.setAccessibleName(f"Class {k + 1}")

    # -- generator ----------------------------------------------------------------------------

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            # A widget with a style sheet keeps the palette it was polished with: polish the
            # class buttons again, or they keep the previous theme's background.
            for button in getattr(self, "class_buttons", ()):
                button.setStyleSheet(button.styleSheet())

    def _generator_changed(self, *_):
        name = self.generator.currentData()
        params = datasets.describe(name)["parameters"]
        self.n_samples.setEnabled("n_samples" in params)
        if "n_samples" in params:
            self.n_samples.setValue(int(params["n_samples"]))
        self.noise.setEnabled("noise" in params)
        if "noise" in params:
            self.noise.setValue(float(params["noise"]))
        key = "centers" if "centers" in params else "n_classes" if "n_classes" in params else None
        self.classes.setEnabled(key is not None)
        if key is not None:
            self.classes.setValue(int(params[key]))
        else:
            info = datasets.describe(name)
            n = info["n_classes"]
            self.classes.setValue(int(n) if isinstance(n, int) else 1)

    def generator_params(self) -> dict:
        name = self.generator.currentData()
        defaults = datasets.describe(name)["parameters"]
        params = {}
        if "n_samples" in defaults:
            params["n_samples"] = self.n_samples.value()
        if "noise" in defaults:
            params["noise"] = self.noise.value()
        if "centers" in defaults:
            params["centers"] = self.classes.value()
        elif "n_classes" in defaults:
            params["n_classes"] = self.classes.value()
        return params

    def _emit_generate(self) -> None:
        self.generate_requested.emit(
            self.generator.currentData(), self.generator_params(), self.seed.value()
        )

    def set_generator(self, name: str, params: dict, seed: int) -> None:
        index = self.generator.findData(name)
        if index < 0:
            return
        self.generator.blockSignals(True)
        self.generator.setCurrentIndex(index)
        self.generator.blockSignals(False)
        self._generator_changed()
        if "n_samples" in params:
            self.n_samples.setValue(int(params["n_samples"]))
        if "noise" in params:
            self.noise.setValue(float(params["noise"]))
        for key in ("centers", "n_classes"):
            if key in params:
                self.classes.setValue(int(params[key]))
        self.seed.setValue(int(seed))

    # -- classes, split, counts ---------------------------------------------------------------
    def _class_toggled(self, k: int, checked: bool) -> None:
        if checked:
            self.class_changed.emit(k)

    def current_class(self) -> int:
        return max(self.class_group.checkedId(), 0)

    def set_current_class(self, k: int) -> None:
        if 0 <= k < MAX_CLASSES:
            self.class_buttons[k].setVisible(True)
            self.class_buttons[k].setChecked(True)

    def show_classes(self, n: int) -> None:
        """Offer buttons for n classes and one more (to start a new class)."""
        for k, b in enumerate(self.class_buttons):
            b.setVisible(k < max(n + 1, 2) or b.isChecked())

    def test_ratio(self) -> float:
        return self.split.value() / 100.0

    def set_test_ratio(self, ratio: float) -> None:
        self.split.blockSignals(True)
        self.split.setValue(round(100 * ratio))
        self.split.blockSignals(False)
        self.split_label.setText(f"{self.split.value()} % test")

    def _split_moved(self, value: int) -> None:
        self.split_label.setText(f"{value} % test")
        if not self.split.isSliderDown():
            self.split_changed.emit(value / 100.0)

    def _split_released(self) -> None:
        self.split_changed.emit(self.split.value() / 100.0)

    def set_standardize(self, on: bool, applies: bool, note: str = "") -> None:
        """Show the box ticked or not (without telling), enabled where it ``applies`` (data of
        more than two features), with ``note`` under it (hidden when empty)."""
        self.standardize.blockSignals(True)
        self.standardize.setChecked(on)
        self.standardize.blockSignals(False)
        self.standardize.setEnabled(applies)
        self.standardize_note.setText(note)
        self.standardize_note.setVisible(bool(note))

    def set_counts(self, text: str) -> None:
        self.count.setText(text)

    def set_regression(self, on: bool) -> None:
        self.regression.blockSignals(True)
        self.regression.setChecked(on)
        self.regression.blockSignals(False)
        for b in self.class_buttons:
            b.setEnabled(not on)
