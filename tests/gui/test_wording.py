"""Counts in the window's words."""

from __future__ import annotations

import numpy as np
import pytest

from kfdviz.app.data_model import DataModel
from kfdviz.app.show_results import counts_text
from kfdviz.app.wording import count

pytestmark = pytest.mark.gui


@pytest.mark.parametrize("n, text", [(0, "0 points"), (1, "1 point"), (2, "2 points")])
def test_count_takes_the_noun_s_number(n, text):
    assert count(n, "point") == text


def test_the_data_panel_says_one_point(qtbot):
    data = DataModel()
    data.replace(np.array([[0.0, 0.0]]), np.array([0]))
    assert counts_text(data).startswith("1 point (class 1: 1)")
