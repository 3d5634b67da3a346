"""Views: widgets that draw arrays handed to them (no numerical work on the GUI thread)."""

from .diagnostics_view import DiagnosticsView
from .input_view import CanvasViewBox, InputSpaceView
from .outputs_view import OutputsView
from .scatter3d import Scatter3DView, gl_available
from .style import CLASS_COLORS, DARK, LIGHT, THEMES, Theme, apply_theme

__all__ = [
    "CLASS_COLORS",
    "DARK",
    "LIGHT",
    "THEMES",
    "CanvasViewBox",
    "DiagnosticsView",
    "InputSpaceView",
    "OutputsView",
    "Scatter3DView",
    "Theme",
    "apply_theme",
    "gl_available",
]
