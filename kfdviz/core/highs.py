"""HiGHS instances that write nothing to stdout, for every LP and QP of the core.

highspy's constructor enables its callbacks, and HiGHS writes its banner ("Running HiGHS ...")
to stdout when callbacks are set while its ``output_flag`` option is on: switched off afterwards,
the banner is out already, and a command whose stdout is JSON no longer parses. The instance
made here switches it off before the callbacks, so HiGHS writes nothing at all.
"""

from __future__ import annotations

import functools


@functools.cache
def _quiet_highs_class():
    # Imported when a program is first solved: highspy loads a compiled library.
    import highspy

    class QuietHighs(highspy.Highs):
        """A ``highspy.Highs`` with ``output_flag`` off from its construction on."""

        def enableCallbacks(self):
            self.setOptionValue("output_flag", False)
            super().enableCallbacks()

    return QuietHighs


def quiet_highs():
    """A HiGHS instance that writes nothing to stdout (its banner included)."""
    highs = _quiet_highs_class()()
    # Also where the constructor does not enable callbacks (older highspy): nothing is logged
    # before the first model is passed.
    highs.setOptionValue("output_flag", False)
    return highs


__all__ = ["quiet_highs"]
