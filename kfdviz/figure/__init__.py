"""Figures without a window: a preset's or session's panels painted with QPainter.

``plan`` decides what the picture shows (no Qt); ``paint`` draws it on any paint device;
``export`` writes PNG (chosen size and resolution), SVG and PDF (vector paths and text, the feature
image embedded as a raster). ``palette`` and ``project3d`` are Qt-free helpers the views can share.
Importing this package does not import Qt; the Qt-based names load on first use.
"""

from __future__ import annotations

from importlib import import_module

from .plan import FigurePlan, PanelPlan, describe_measures, describe_params, plan_figure

_LAZY = {
    "paint_figure": "paint",
    "FigureGeometry": "paint",
    "PanelGeometry": "paint",
    "Transform": "paint",
    "render_image": "export",
    "save_figure": "export",
    "save_png": "export",
    "save_svg": "export",
    "save_pdf": "export",
    "ensure_app": "export",
    "DEFAULT_SIZE": "export",
    "DEFAULT_DPI": "export",
    "FORMATS": "export",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "FigurePlan",
    "PanelPlan",
    "describe_measures",
    "describe_params",
    "plan_figure",
    *_LAZY,
]
