"""An axis whose logarithmic ticks read as the figures' do: 0.1, 1, 10, 100, 1000, then 10⁴.

pyqtgraph writes a log axis's labels with one significant digit in exponent form, which mixes
"0.1" and "1" with "10¹" and "10²" on one axis; this axis sets them as the exported figures'
tick labels (:func:`kfdviz.figure.axes.tick_text`).
"""

from __future__ import annotations

import math

import pyqtgraph as pg

from ..figure.axes import tick_text


def decade_label(value: float) -> str:
    """A log axis's tick label: the plain number from 0.001 to below 10 000, a power of ten
    ("10⁴", "10⁻⁵") outside, or a mantissa and a power ("2·10⁵"); "" for no positive number."""
    if not math.isfinite(value) or value <= 0:
        return ""
    return tick_text(value)


class DecadeAxis(pg.AxisItem):
    """A pyqtgraph axis that labels its log-mode ticks with :func:`decade_label`."""

    # pyqtgraph's own name for the method a log axis asks for its labels
    def logTickStrings(self, values, scale, spacing):
        return [decade_label(10.0 ** float(v) * float(scale)) for v in values]


__all__ = ["DecadeAxis", "decade_label"]
