"""The layer that marks a plot's picture as stale (grey, the reason, a fix) or busy (progress,
Cancel), driven as a user sees and clicks it."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from kfdviz import datasets
from kfdviz.pipeline import FitRequest, run_fit
from kfdviz.views import DARK, InputSpaceView, OutputsView

pytestmark = pytest.mark.gui


@pytest.fixture
def drawn_view(qtbot):
    X, y = datasets.make("moons", n_samples=80, noise=0.1, seed=0)
    result = run_fit(FitRequest("kfd", {"width": 0.5}, X, y))
    view = InputSpaceView()
    qtbot.addWidget(view)
    view.resize(500, 420)
    view.set_points(X, y, np.zeros(len(X), bool))
    view.set_result(result)
    view.show()
    qtbot.waitExposed(view)
    return view


def _saturation(image: QImage) -> float:
    """The mean colour saturation of a grab (0 for a grey picture)."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    ptr = image.constBits()
    a = np.frombuffer(ptr, np.uint8, image.sizeInBytes()).reshape(image.height(), -1)[
        :, : 4 * image.width()
    ]
    rgb = a.reshape(image.height(), image.width(), 4)[..., :3].astype(float)
    return float((rgb.max(axis=2) - rgb.min(axis=2)).mean())


def test_stale_picture_fades_with_its_reason_and_fix(qtbot, drawn_view):
    view = drawn_view
    plot_rect = view.plot.geometry()
    corner_rect = plot_rect.adjusted(0, 0, -plot_rect.width() // 2, -plot_rect.height() // 2)
    before = _saturation(view.grab().toImage().copy(corner_rect))
    view.overlay.show_stale("Only one class: KFD needs two.", fix="Use KPCA novelty")
    qtbot.wait(20)
    card = view.overlay.card
    assert card.isVisible()
    assert view.overlay.message.text() == "Only one class: KFD needs two."
    assert view.overlay.fix_button.isVisible()
    assert not view.overlay.cancel_button.isVisible()
    # What the user sees: the picture faded, the points (the data on screen) not, the card
    # over the plot's middle.
    assert plot_rect.contains(card.geometry().center())
    assert view.image.opacity() < 0.5
    assert all(item.opacity() == 1.0 for item in view._scatters.values())
    corner = view.grab().toImage().copy(corner_rect)
    assert _saturation(corner) < 0.5 * before
    with qtbot.waitSignal(view.overlay.fix_requested, timeout=1000):
        qtbot.mouseClick(view.overlay.fix_button, Qt.MouseButton.LeftButton)


def test_clear_brings_back_the_colours(qtbot, drawn_view):
    view = drawn_view
    before = _saturation(view.plot.grab().toImage())
    view.overlay.show_stale("The data changed.")
    assert not view.overlay.fix_button.isVisible()
    view.overlay.clear()
    qtbot.wait(20)
    assert not view.overlay.card.isVisible()
    assert view.image.opacity() == 1.0
    assert _saturation(view.plot.grab().toImage()) == pytest.approx(before, rel=0.05)


def test_busy_card_shows_progress_and_cancels(qtbot, drawn_view):
    view = drawn_view
    view.overlay.show_busy("Solving the linear program", None)
    assert view.overlay.progress.maximum() == 0  # not known yet: a moving bar
    view.overlay.show_busy("Solving the linear program", 0.4)
    assert view.overlay.progress.value() == 40
    assert view.overlay.cancel_button.isVisible() and not view.overlay.fix_button.isVisible()
    assert view.image.opacity() == 1.0  # the last finished picture keeps its colours
    with qtbot.waitSignal(view.overlay.cancel_requested, timeout=1000):
        qtbot.mouseClick(view.overlay.cancel_button, Qt.MouseButton.LeftButton)


def test_the_plot_under_a_stale_card_still_takes_clicks(qtbot, drawn_view):
    view = drawn_view
    view.set_tool_active(True)
    view.overlay.show_stale("Only one class.")
    qtbot.wait(20)
    card = view.overlay.card.geometry()
    plot = view.plot.geometry()
    # A point of the plot outside the card, a quarter of the way in.
    target = view.plot.mapFrom(view, plot.topLeft()) + (plot.bottomRight() - plot.topLeft()) / 4
    assert not card.contains(view.plot.mapTo(view, target))
    with qtbot.waitSignal(view.viewbox.clicked, timeout=1000):
        qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=target)


def test_card_follows_the_plot_size(qtbot, drawn_view):
    view = drawn_view
    view.overlay.show_stale("A reason long enough to wrap over more than one line of the card.")
    view.resize(900, 700)
    qtbot.wait(20)
    card, plot = view.overlay.card.geometry(), view.plot.geometry()
    assert abs(card.center().x() - plot.center().x()) <= 1
    assert card.width() <= plot.width()


def test_outputs_view_has_the_same_layer(qtbot):
    view = OutputsView(theme=DARK)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    view.overlay.show_stale("The fit failed.")
    assert view.overlay.card.isVisible()
    assert view.stack.graphicsEffect() is not None
