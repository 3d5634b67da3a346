"""What a figure shows, decided without Qt: which panels, in what grid, with which captions.

``plan_figure(state, results, sweep)`` turns a session (or preset) and its fitted results into a
:class:`FigurePlan`: a list of panels, each one of

- ``"input"``: the feature over the input plane (2-D data): image, level sets, boundary, points;
- ``"histogram"``: a classifier's outputs per class, for the training or the test points;
- ``"regression"``: a fitted curve over its samples, expansion points circled, an SVR tube;
- ``"scatter3d"``: points in 3-D (an embedding, or 3-D input) as a software projection;
- ``"sweep"``: a measure against a swept parameter (one line per pipeline);
- ``"chart"``: curves or images a paper's figure computes (:mod:`kfdviz.charts`);
- ``"errorbars"``: values ± errors over named categories (``result`` is an ``ErrorBarData``);
- ``"message"``: a panel whose fit failed, saying why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.kernels import KERNEL_KINDS
from ..core.tangents import data_spread, tangent_directions
from ..estimators import registry
from ..session import VIEW_DEFAULTS

TANGENT_NAMES = {
    "rotation": "rotation",
    "translate-x": "x-translation",
    "translate-y": "y-translation",
    "scale": "scaling",
}


# A slide's size in inches (width, height): the painters' nominal sizes are for it, and a
# figure smaller than it is set smaller (``canvas.type_scale``).
NOMINAL_IN = (7.5, 4.2)

# Which titles a figure shows (its ``titles`` setting): the figure's and the panels', the
# panels' only (a paper's caption takes the figure's), or none (the caption names the panels
# too). The parameters and measures under a panel's title are shown in every case.
TITLES = ("all", "panels", "none")


def titles_shown(settings: dict) -> str:
    """The ``titles`` setting of a figure's ``settings`` (one of :data:`TITLES`; default
    "all")."""
    choice = settings.get("titles", "all")
    if choice not in TITLES:
        raise ValueError(f"titles must be one of {', '.join(TITLES)}, not {choice!r}")
    return choice


def default_titles(width_in: float) -> str:
    """The titles a figure ``width_in`` inches wide starts with: "all" on a slide or a screen;
    on a figure narrower than a slide, a paper's, "panels" (the paper's caption takes the
    figure's title, and the lines it would take go to the pictures)."""
    return "all" if width_in >= NOMINAL_IN[0] else "panels"


@dataclass
class PanelPlan:
    kind: str
    title: str = ""
    caption: str = ""  # parameters
    measures: str = ""  # what was measured (errors, sparsity)
    result: object | None = None  # FitResult
    # the caption's (name, text) parts (:func:`param_parts`), so that a figure can say the parts
    # its panels share once; () for a caption that is one piece (a chart's, a 3-D input's)
    caption_parts: tuple[tuple[str, str], ...] = ()
    role: str = "train"  # histogram panels: "train" or "test"
    points: np.ndarray | None = None  # scatter3d
    labels: np.ndarray | None = None
    test_mask: np.ndarray | None = None
    axis_labels: tuple[str, ...] = ()
    sweep: object | None = None  # SweepResult
    metric: str = ""
    message: str = ""
    chart: object | None = None  # kfdviz.charts.Chart


@dataclass
class FigurePlan:
    title: str
    panels: list[PanelPlan]
    rows: int
    cols: int
    settings: dict = field(default_factory=dict)
    note: str = ""  # a footnote line (the source)

    def captions(self, panel_titles: bool = True) -> tuple[str, list[str]]:
        """What the panels' captions share, said once, and each panel's caption without it.

        Parts every panel's caption has (the kernel, a width or μ common to all) go into the
        shared line; a panel keeps the parts that set it apart, less a part its own title
        already says when ``panel_titles`` are shown ("c = 0.02" under the title "c = 0.02 (σ =
        0.1)"). A figure of one panel, or with a panel whose caption is one piece (a chart's),
        shares nothing: each panel keeps its caption, less what its title says.
        """
        whole = self.unshared_captions(panel_titles)
        captioned = [p for p in self.panels if p.caption or p.caption_parts]
        if len(captioned) < 2 or any(not p.caption_parts for p in captioned):
            return "", whole
        shared = [
            part
            for part in captioned[0].caption_parts
            if all(part in p.caption_parts for p in captioned)
        ]
        own = []
        for p in self.panels:
            parts = [part for part in p.caption_parts if part not in shared]
            if panel_titles and p.title:
                parts = [part for part in parts if not _title_says(p.title, part)]
            own.append(join_caption(parts) if p.caption_parts else p.caption)
        return join_caption(shared), own

    def unshared_captions(self, panel_titles: bool = True) -> list[str]:
        """Each panel's caption when nothing is said once for all: its whole caption, less a
        part its own title already says when ``panel_titles`` are shown."""
        return [
            join_caption([part for part in p.caption_parts if not _title_says(p.title, part)])
            if panel_titles and p.title and p.caption_parts
            else p.caption
            for p in self.panels
        ]

    def single_panels(self) -> list[FigurePlan]:
        """One figure per panel (for one file each): no figure title, the settings kept."""
        return [
            FigurePlan("", [panel], 1, 1, dict(self.settings), self.note) for panel in self.panels
        ]


def _title_says(title: str, part: tuple[str, str]) -> bool:
    """Whether a panel's ``title`` already says a caption ``part``: its text ("c = 0.02" in
    "c = 0.02 (σ = 0.1)"), or for the invariances, each one named ("rotation invariant")."""
    name, text = part
    if text in title:
        return True
    if name == "tangents":
        return all(t in title for t in text.removeprefix("invariant to ").split(", "))
    return False


def format_value(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int | np.integer):
        return str(int(v))
    if isinstance(v, float | np.floating):
        v = float(v)
        if v == 0:
            return "0"
        if abs(v) >= 1e4 or abs(v) < 1e-2:
            mant, exp = f"{v:.3g}".split("e") if "e" in f"{v:.3g}" else (f"{v:.3g}", None)
            if exp is None:
                return mant
            return f"{mant}e{int(exp)}"
        return f"{v:.4g}"
    if isinstance(v, tuple | list):
        return ", ".join(TANGENT_NAMES.get(str(x), str(x)) for x in v) or "none"
    return str(v)


def width_caption(width: float, sigma: float | None = None) -> str:
    """The Gaussian width as the Algorithm panel names it, "c = 2" (kfdviz's kernel is
    exp(−‖x−z‖²/c)); with ``sigma``, the value a paper writes for the same kernel in its own
    convention after it: "c = 2 (σ = 1)"."""
    text = f"c = {format_value(float(width))}"
    return text if sigma is None else f"{text} (σ = {format_value(float(sigma))})"


def param_parts(algorithm: str, params: dict) -> list[tuple[str, str]]:
    """The parameters that shape the picture as (name, text) parts, named as the Algorithm
    panel names them (the Gaussian width is "c") in the papers' symbols: ("kernel",
    "Gaussian"), ("width", "c = 0.5"), ("mu", "μ = 0.01"), ..."""
    p = dict(params)
    parts = []
    # An estimator with a width and no kernel choice (the Parzen window) is Gaussian.
    kernel = p.get("kernel", "rbf" if "width" in p else None)
    if kernel == "rbf":
        parts.append(("kernel", KERNEL_KINDS["rbf"].title))
        parts.append(("width", width_caption(p.get("width", 1.0))))
    elif kernel == "poly":
        coef0 = float(p.get("coef0", 1.0))
        inner = "x·z" if coef0 == 0 else f"x·z + {format_value(coef0)}"
        degree = str(int(p.get("degree", 3))).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
        parts.append(("kernel", f"({inner}){degree}"))
    elif kernel == "linear":
        parts.append(("kernel", f"{KERNEL_KINDS['linear'].title} kernel"))
    if algorithm in ("svd", "pca") and "n_components" in p:
        parts.append(
            (
                "n_components",
                f"rank {int(p['n_components'])}"
                if algorithm == "svd"
                else f"{int(p['n_components'])} components",
            )
        )
    symbols = {
        "mu": "μ",
        "C": "C",
        "nu": "ν",
        "epsilon": "ε",
        "n_components": "q" if algorithm == "novelty" else "components",
        "contamination": "outside fraction",
        "tangents": "invariant to",
        "n_centers": "centers",
    }
    for key, sym in symbols.items():
        if key not in p or p[key] is None:
            continue
        if key == "n_components" and algorithm not in ("novelty",):
            continue
        if key == "tangents" and not p[key]:
            continue
        if (
            key == "epsilon"
            and algorithm == "kfd-regression"
            and p.get("loss") != ("epsilon-insensitive")
        ):
            continue
        if key == "mu" and algorithm == "kfd-regression":
            parts.append((key, f"C = {format_value(p[key])}"))
            continue
        if key == "contamination":
            parts.append((key, f"{sym} {100 * float(p[key]):.3g} %"))
            continue
        parts.append(
            (
                key,
                f"{sym} = {format_value(p[key])}"
                if sym != "invariant to"
                else f"{sym} {format_value(p[key])}",
            )
        )
    if algorithm == "kfd-regression" and p.get("regularizer"):
        parts.append(
            (
                "regularizer",
                {"l1": "ℓ1 regularizer", "l2": "ℓ2 regularizer"}.get(
                    p["regularizer"], p["regularizer"]
                ),
            )
        )
    return parts


def join_caption(parts) -> str:
    """One line of (name, text) parts: "Gaussian, c = 0.5 · μ = 0.01"; a Gaussian kernel
    without its width (said elsewhere) reads "Gaussian kernel"."""
    texts = []
    for i, (name, text) in enumerate(parts):
        if name == "width" and i > 0 and parts[i - 1][0] == "kernel":
            texts[-1] = f"{texts[-1]}, {text}"
        elif (
            name == "kernel"
            and text == KERNEL_KINDS["rbf"].title
            and (i + 1 == len(parts) or parts[i + 1][0] != "width")
        ):
            texts.append(f"{text} kernel")
        else:
            texts.append(text)
    return " · ".join(texts)


def describe_params(algorithm: str, params: dict) -> str:
    """A short line of the parameters that shape the picture (:func:`param_parts`, joined)."""
    return join_caption(param_parts(algorithm, params))


def params_caption(algorithm: str, params: dict) -> str:
    """A caption naming the algorithm and the parameters that shape its picture (every
    parameter it takes, its defaults filled in), as figures write them: "Kernel Orthogonal
    Centroid · Gaussian, c = 2". The window's compare captions and the exported figures' panels
    without a title of their own both use it."""
    if algorithm not in registry.ALGORITHMS:
        return algorithm
    spec = registry.get(algorithm)
    values = {**spec.defaults(), **dict(params)}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    described = describe_params(algorithm, values)
    return f"{spec.title} · {described}" if described else spec.title


def describe_zeros(result, *, always: bool = False) -> str:
    """The fraction of training points whose expansion coefficient is zero, as a caption states
    it ("zero coefficients 61 %"), for a kernel expansion that has some; ``always``: also when
    none is (a dense expansion, where the picture circles every training point). "" for a
    result without a kernel expansion."""
    r = result
    if r.kind not in ("classifier", "regressor", "novelty"):
        return ""
    if r.sparsity is None or not r.n_expansion_total or not (r.sparsity or always):
        return ""
    return f"zero coefficients {100 * r.sparsity:.0f} %"


def describe_measures(result, role: str | None = None, *, zeros: bool = False) -> str:
    """The errors and the fraction of zero coefficients (``zeros``: even when it is 0 %,
    :func:`describe_zeros`) of ``result``; ``role``: only the training or the test set's."""
    r = result
    parts = []
    if r.error_name == "error" and r.train_error is not None:
        if role in (None, "train"):
            parts.append(f"training error {100 * r.train_error:.1f} %")
        if r.test_error is not None and role in (None, "test"):
            parts.append(f"test error {100 * r.test_error:.1f} %")
    elif r.error_name == "outliers" and r.train_error is not None:
        parts.append(f"training outliers {100 * r.train_error:.1f} %")
    elif r.error_name == "RMSE" and r.train_error is not None:
        parts.append(f"RMSE {r.train_error:.3g}")
    stated = describe_zeros(r, always=zeros)
    if stated and role in (None, "train"):
        n_nz = r.diagnostics.get("n_nonzero")
        if n_nz is not None and r.kind == "regressor":
            parts.append(f"{n_nz} of {r.n_train} expansion points")
        parts.append(stated)
    return " · ".join(parts)


def invariance_ratio(result, name: str) -> float | None:
    """How much the drawn feature changes along a transformation relative to across it.

    At the training points, the median of |∇f·t| / |∇f·n| with t the unit tangent of the
    transformation ``name`` (about the data's mean) and n its normal, the gradient taken on the
    drawn grid. Near 0: the level sets follow the transformation; near 1 or above: they do not.
    """
    g = result.grid
    if g is None or result.X.shape[1] != 2:
        return None
    fy, fx = np.gradient(g.values, g.ys, g.xs)
    X = result.X[~np.asarray(result.test_mask)]
    D = tangent_directions(X, name, center=X.mean(axis=0), spread=data_spread(X))
    norm = np.linalg.norm(D, axis=1)
    keep = norm > 1e-9 * max(float(norm.max(initial=0.0)), 1e-300)
    if not keep.any():
        return None
    t = D[keep] / norm[keep, None]
    a = np.clip(np.searchsorted(g.xs, X[keep, 0]), 0, g.xs.size - 1)
    b = np.clip(np.searchsorted(g.ys, X[keep, 1]), 0, g.ys.size - 1)
    grad = np.column_stack([fx[b, a], fy[b, a]])
    along = np.abs(np.sum(grad * t, axis=1))
    across = np.abs(grad[:, 0] * -t[:, 1] + grad[:, 1] * t[:, 0])
    return float(np.median(along / np.maximum(across, 1e-300)))


def _grid_shape(n: int) -> tuple[int, int]:
    if n <= 3:
        return 1, max(n, 1)
    if n == 4:
        return 2, 2
    return 2, int(np.ceil(n / 2))


def _histogram_panels(result, title: str, caption: str) -> list[PanelPlan]:
    """One output histogram for the training set and, if there is one, one for the test set."""
    roles = ["train"] + (["test"] if result.n_test else [])
    return [
        PanelPlan(
            "histogram",
            f"{title}: {'training' if role == 'train' else 'test'} set",
            caption,
            describe_measures(result, role),
            result=result,
            role=role,
        )
        for role in roles
    ]


def plan_figure(state, results, sweep=None, *, titles=None, charts=()) -> FigurePlan:
    """The panels of ``state``'s picture, from its results (FitResult or a failure message).

    ``charts`` (:class:`kfdviz.charts.Chart`) come first; with the view setting ``charts_only``
    they are the whole picture.
    """
    settings = {**VIEW_DEFAULTS, **dict(state.view_settings)}
    panels: list[PanelPlan] = []
    if sweep is not None:
        for metric in sweep.sweep.metrics:
            panels.append(PanelPlan("sweep", title="", sweep=sweep, metric=metric))
    else:
        titles = titles or [p.title for p in state.panels]
        shown_input = False
        for i, r in enumerate(results):
            panel_state = state.panels[i] if i < len(state.panels) else None
            title = (titles[i] if i < len(titles) else "") or (
                getattr(r, "title", "") if not isinstance(r, str) else ""
            )
            if isinstance(r, str) or r is None:
                algo = panel_state.algorithm if panel_state else ""
                panels.append(PanelPlan("message", title=title or algo, message=r or "not fitted"))
                continue
            caption = describe_params(r.algorithm, r.params)
            # with the expansion points drawn, a dense expansion's 0 % is stated too
            measures = describe_measures(r, zeros=settings.get("show_expansion") is True)
            if r.kind == "regressor":
                panels.append(PanelPlan("regression", title, caption, measures, result=r))
            elif state.view == "outputs" and r.histograms is not None:
                panels.extend(_histogram_panels(r, title, caption))
            elif r.grid is not None and state.view != "embedding":
                invariance = settings.get("invariance")
                ratio = invariance_ratio(r, invariance) if invariance else None
                if ratio is not None:
                    name = TANGENT_NAMES.get(invariance, invariance)
                    measures = " · ".join(
                        m for m in (measures, f"change along {name} / across {ratio:.2g}") if m
                    )
                panels.append(PanelPlan("input", title, caption, measures, result=r))
            elif (
                r.histograms is not None
                and r.kind == "classifier"
                and (r.embedding is None or r.embedding.shape[1] < 2)
            ):
                # a one-dimensional discriminant of high-dimensional data: its outputs say most
                panels.extend(_histogram_panels(r, title, caption))
            elif r.embedding is not None or r.points3d is not None:
                if (
                    not shown_input
                    and settings.get("show_input_3d")
                    and r.points3d is not None
                    and r.X.shape[1] == 3
                    and len(results) > 1
                ):
                    panels.append(
                        PanelPlan(
                            "scatter3d",
                            "Input data",
                            f"{r.X.shape[0]} points, {len(r.classes)} classes",
                            result=r,
                            points=r.points3d,
                            labels=r.y,
                            test_mask=r.test_mask,
                            axis_labels=r.points3d_labels,
                        )
                    )
                    shown_input = True
                if r.embedding is not None:
                    panels.append(
                        PanelPlan(
                            "scatter3d",
                            title,
                            caption,
                            measures,
                            result=r,
                            points=r.embedding,
                            labels=None if r.kind == "regressor" else r.y,
                            test_mask=r.test_mask,
                            axis_labels=r.embedding_labels,
                        )
                    )
                else:
                    panels.append(
                        PanelPlan(
                            "scatter3d",
                            f"{title}: input",
                            caption,
                            measures,
                            result=r,
                            points=r.points3d,
                            labels=r.y,
                            test_mask=r.test_mask,
                            axis_labels=r.points3d_labels,
                        )
                    )
            elif r.histograms is not None:
                panels.append(PanelPlan("histogram", title, caption, measures, result=r))
            else:
                panels.append(PanelPlan("message", title, message="nothing to draw for this fit"))
    for panel in panels:
        # a panel captioned with its fit's parameters keeps their parts (FigurePlan.captions)
        if panel.result is None:
            continue
        parts = tuple(param_parts(panel.result.algorithm, panel.result.params))
        if panel.caption == join_caption(parts):
            panel.caption_parts = parts
    chart_panels = [
        PanelPlan("chart", ch.title, ch.caption, ch.measures, chart=ch) for ch in charts or ()
    ]
    if chart_panels:
        panels = chart_panels + ([] if settings.get("charts_only") else panels)
    rows, cols = _grid_shape(len(panels))
    note = ""
    if any(p.kind == "scatter3d" for p in panels):
        note = (
            f"3-D views seen from elevation {float(settings['elevation']):g}°, azimuth "
            f"{float(settings['azimuth']):g}°, one scale on all axes; points drawn far to near."
        )
    return FigurePlan(
        title=state.title,
        panels=panels,
        rows=rows,
        cols=cols,
        settings=settings,
        note=note,
    )


__all__ = [
    "NOMINAL_IN",
    "TITLES",
    "FigurePlan",
    "PanelPlan",
    "default_titles",
    "describe_measures",
    "describe_params",
    "describe_zeros",
    "format_value",
    "join_caption",
    "param_parts",
    "params_caption",
    "plan_figure",
    "titles_shown",
    "width_caption",
]
