"""The numerical core of kfdviz: kernels, the Rayleigh-coefficient engine, solvers, grids.

Nothing here imports Qt or pyqtgraph; the GUI, the command line and notebooks share it.
"""

from .expansion import Expansion
from .kernels import Kernel

__all__ = ["Expansion", "Kernel"]
