"""Log axes in the window read as the figures' do: 0.1, 1, 10, 100, 1000, then powers of ten."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.views.decade_axis import DecadeAxis, decade_label

pytestmark = pytest.mark.gui


def test_decades_read_as_plain_numbers_then_as_powers():
    assert [decade_label(10.0**k) for k in range(-3, 4)] == [
        "0.001",
        "0.01",
        "0.1",
        "1",
        "10",
        "100",
        "1000",
    ]
    assert decade_label(1e4) == "10⁴" and decade_label(1e-5) == "10⁻⁵"
    assert decade_label(2e5) == "2·10⁵" and decade_label(3.0) == "3"
    assert decade_label(0.0) == "" and decade_label(float("nan")) == ""


def test_the_axis_labels_its_log_ticks_with_them(qapp):
    axis = DecadeAxis("bottom")
    axis.setLogMode(True)
    assert axis.tickStrings(list(np.arange(-1.0, 4.0)), 1.0, 1.0) == [
        "0.1",
        "1",
        "10",
        "100",
        "1000",
    ]
