"""An axis whose logarithmic ticks read as the figures' do: 0.1, 1, 10, 100, 1000, then 10⁴.

pyqtgraph writes a log axis's labels with one significant digit in exponent form, which mixes
"0.1" and "1" with "10¹" and "10²" on one axis.
"""

from __future__ import annotations

import math

import pyqtgraph as pg

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade_label(value: float) -> str:
    """A log axis's tick label: the plain number from 0.001 to below 10 000, a power of ten
    ("10⁴", "10⁻⁵") outside, or a mantissa and a power ("2·10⁴") between decades."""
    if not math.isfinite(value) or value <= 0:
        return ""
    if 1e-3 <= value < 1e4:
        return f"{value:g}"
    exponent = math.floor(math.log10(value) + 1e-9)
    mantissa = value / 10.0**exponent
    power = f"10{str(exponent).translate(_SUPERSCRIPT)}"
    return power if abs(mantissa - 1.0) < 1e-6 else f"{mantissa:g}·{power}"


class DecadeAxis(pg.AxisItem):
    """A pyqtgraph axis that labels its log-mode ticks with :func:`decade_label`."""

    def logTickStrings(self, values, scale, spacing):
        return [decade_label(10.0 ** float(v) * float(scale)) for v in values]


__all__ = ["DecadeAxis", "decade_label"]
