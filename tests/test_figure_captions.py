"""Captions name parameters as the Algorithm panel does: the Gaussian width is "c".

One function builds a caption from an algorithm and its parameters (``params_caption``, over
``describe_params``); the window's compare captions and the exported figures use it, so a width
changed in either place is named the same way. A preset that follows a paper writing σ names
kfdviz's width first and the paper's σ after it.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from kfdviz import presets, session
from kfdviz.app.pictures import SlotState, caption
from kfdviz.figure.plan import describe_params, params_caption, width_caption
from kfdviz.render import compute, figure_plan


def _named_width(text: str) -> float:
    found = re.search(r"\bc = ([0-9.eE+-]+)", text)
    assert found, f"no width named in {text!r}"
    return float(found.group(1))


@pytest.mark.parametrize("width", [2.0, 0.5, 0.001])
def test_a_gaussian_caption_names_c_with_the_width(width):
    text = params_caption("koc", {"kernel": "rbf", "width": width})
    assert text.startswith("Kernel Orthogonal Centroid · Gaussian")
    assert _named_width(text) == pytest.approx(width)
    assert "σ" not in text


def test_a_caption_follows_a_width_change():
    before = params_caption("kfd", {"kernel": "rbf", "width": 1.0, "mu": 0.01})
    after = params_caption("kfd", {"kernel": "rbf", "width": 3.0, "mu": 0.01})
    assert before != after
    assert (_named_width(before), _named_width(after)) == (1.0, 3.0)
    assert "μ = 0.01" in before and "μ = 0.01" in after


def test_a_non_gaussian_caption_names_no_width():
    assert "c =" not in params_caption("kfd", {"kernel": "poly", "degree": 2, "coef0": 1.0})


def test_a_papers_sigma_follows_the_apps_width():
    assert width_caption(2.0) == "c = 2"
    assert width_caption(2.0, sigma=1.0) == "c = 2 (σ = 1)"


def test_the_windows_compare_caption_and_the_export_name_a_width_alike():
    slot = SlotState("compare-0", "koc", {"kernel": "rbf", "width": 1.0}).titled(
        "KOC, Gaussian c = 1 (σ = 1)"
    )
    assert caption(slot) == "KOC, Gaussian c = 1 (σ = 1)"
    slot.params = {"kernel": "rbf", "width": 2.0}
    # The title no longer describes the slot: the caption is built from the parameters.
    assert caption(slot) == params_caption("koc", {"kernel": "rbf", "width": 2.0})
    assert _named_width(caption(slot)) == 2.0

    state = session.state_from_preset("default")
    panel = state.panels[0]
    assert panel.params.get("kernel", "rbf") == "rbf"
    widths = []
    for width in (0.5, 2.0):
        changed = replace(state, panels=(replace(panel, params={**panel.params, "width": width}),))
        plan = figure_plan(compute(changed))
        widths.append(_named_width(plan.panels[0].caption))
        assert plan.panels[0].caption == describe_params(
            panel.algorithm, plan.panels[0].result.params
        )
    assert widths == [0.5, 2.0]


def _sigma_titles():
    """(preset, title, parameters) of every preset panel whose title names a paper's σ."""
    return [
        (name, panel.title, panel.params)
        for name in presets.names()
        for panel in presets.get(name).panels
        if "σ" in panel.title
    ]


def test_the_papers_sigma_titles_are_found():
    names = {name for name, _, _ in _sigma_titles()}
    assert {"koc-iris", "novelty-width-sweep", "novelty-roc"} <= names


@pytest.mark.parametrize("name, title, params", _sigma_titles())
def test_preset_titles_name_the_width_as_c_first(name, title, params):
    """A title naming σ names kfdviz's width c (the panel's) first, the paper's σ after it."""
    found = re.search(r"\bc = ([0-9.eE+-]+) \(σ = ([0-9.]+)\)", title)
    assert found, f"{name}: {title!r} names σ without c first"
    assert float(found.group(1)) == pytest.approx(params["width"], rel=2e-3)
    assert title.count("σ") == 1
