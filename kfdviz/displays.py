"""Pictures of fitted estimators, in scikit-learn's Display style, drawn by kfdviz's painter.

Each display is made by ``from_estimator`` from an estimator the user has fitted (one of
kfdviz's, or a scikit-learn ``Pipeline`` ending in one); it evaluates the estimator — its
``decision_function``, ``transform``, ``score_samples`` or ``predict`` — and never fits it. It
holds the computed arrays for whoever draws with something else, shows itself in a notebook
(``_repr_png_``, ``_repr_svg_``) and writes PNG, SVG or PDF with :meth:`save`, through the figure
painter that ``kfdviz render`` and the window's export use (:mod:`kfdviz.figure`): the same
picture by all three routes.

- :class:`LevelSetDisplay`: a feature's or decision value's level sets over 2-D input, with the
  points, the decision boundary, the expansion points and a colour bar; a regressor's fitted
  curve over 1-D input.
- :class:`OutputHistogramDisplay`: the outputs' histograms per class, training set and test set.
- :class:`EmbeddingDisplay`: the points in the estimator's first two or three features, seen
  from fixed angles.

No display is needed: where no Qt application runs, one is started on Qt's offscreen platform.
Importing this module loads no Qt; painting does.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from .figure.export import format_of, render_image, save_figure, save_svg, titles_for
from .figure.palette import THEMES
from .figure.plan import FigurePlan, plan_figure
from .pipeline.fitted import describe_fitted
from .pipeline.geometry import split_pieces
from .pipeline.request import GridSpec
from .pipeline.result import FitResult
from .session import PanelState, SessionState

# A notebook's picture: 7.5 in (a slide, the painter's nominal width) at 120 dpi.
NOTEBOOK_WIDTH = 900
NOTEBOOK_DPI = 120.0


def ensure_painter_app():
    """The running Qt application, or a new ``QGuiApplication`` on the offscreen platform.

    An application that runs (a window, a notebook's Qt event loop) is used as it is. A new one
    is offscreen unless ``QT_QPA_PLATFORM`` asks for another platform, so that painting needs no
    display; the environment is left as it was found.
    """
    # Qt loads only to paint (see the module docstring).
    from PySide6.QtGui import QGuiApplication

    from .figure.export import ensure_app

    if QGuiApplication.instance() is not None or os.environ.get("QT_QPA_PLATFORM"):
        return ensure_app()
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    try:
        return ensure_app()
    finally:
        del os.environ["QT_QPA_PLATFORM"]


def _checked_theme(theme) -> str:
    """``theme`` when the painter has it; ValueError naming the themes otherwise."""
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(map(repr, THEMES))}, not {theme!r}.")
    return theme


def _joined(X, y, X_test, y_test):
    """(points, labels or None, test mask): the training points, then the test points."""
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        raise ValueError(
            f"X must be a 2-D array of points (n, d); got a 1-D array of {X.size} values "
            "(reshape it with X.reshape(-1, 1) for one feature)."
        )
    if X_test is None:
        if y_test is not None:
            raise ValueError("y_test was given without X_test: pass the test points too.")
        return X, None if y is None else np.asarray(y), np.zeros(X.shape[0], bool)
    X_test = np.asarray(X_test, dtype=float)
    if X_test.ndim != 2 or X_test.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_test must have the columns of X ({X.shape[1]}); got shape {X_test.shape}."
        )
    if (y is None) != (y_test is None):
        raise ValueError(
            "Pass labels for both the training and the test points (y and y_test), or neither."
        )
    labels = None if y is None else np.concatenate([np.asarray(y), np.asarray(y_test)])
    mask = np.concatenate([np.zeros(X.shape[0], bool), np.ones(X_test.shape[0], bool)])
    return np.vstack([X, X_test]), labels, mask


class _FigureDisplay:
    """What every display shares: its figure plan, the notebook's pictures and :meth:`save`."""

    _view = "input"

    def __init__(self, result: FitResult, *, estimator=None, title=None, settings=None):
        self.result = result
        self.estimator = estimator
        self.title = result.title if title is None else str(title)
        self.settings = dict(settings or {})

    def figure_plan(self, titles: str = "all") -> FigurePlan:
        """The figure the painter draws: one panel (two for the histograms).

        Parameters
        ----------
        titles : {"all", "panels", "none"}, default="all"
            Which titles the figure shows.

        Returns
        -------
        FigurePlan
            What :mod:`kfdviz.figure` paints.
        """
        r = self.result
        state = SessionState(
            X=r.X,
            y=r.y,
            test_mask=r.test_mask,
            panels=(PanelState(r.algorithm, {}, r.feature, self.title),),
            view=self._view,
            regression=r.kind == "regressor",
            view_settings=self.settings,
        )
        plan = plan_figure(state, [r])
        plan.settings["titles"] = titles
        return plan

    def to_png(self, size=None, dpi=None, titles: str = "auto") -> bytes:
        """The picture as PNG bytes.

        Parameters
        ----------
        size : (int, int), optional
            (width, height) in pixels; by default a slide's width (1600 pixels at 150 dpi) and
            as tall as the panels need.
        dpi : float, optional
            The resolution the text and lines are set at (default 150).
        titles : {"auto", "all", "panels", "none"}, default="auto"
            Which titles the picture shows: the figure's and the panels', the panels' only, or
            none; "auto" chooses by the picture's width (a paper's column gets the panels').

        Returns
        -------
        bytes
            A PNG file's content, its resolution recorded in it.
        """
        # Qt loads only to paint (see the module docstring).
        from PySide6.QtCore import QBuffer, QByteArray, QIODevice

        ensure_painter_app()
        plan = self.figure_plan(titles_for(titles, size, dpi))
        image, _ = render_image(plan, size, dpi)
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):
            raise OSError("could not encode the picture as PNG")
        buffer.close()
        return bytes(data.data())

    def to_svg(self, size=None, dpi=None, titles: str = "auto") -> str:
        """The picture as SVG text: vector paths and text, the filled levels embedded as PNG.

        Parameters
        ----------
        size : (int, int), optional
            (width, height) in pixels; by default a slide's width (1600 pixels at 150 dpi) and
            as tall as the panels need.
        dpi : float, optional
            The resolution the text and lines are set at (default 150).
        titles : {"auto", "all", "panels", "none"}, default="auto"
            Which titles the picture shows: the figure's and the panels', the panels' only, or
            none; "auto" chooses by the picture's width (a paper's column gets the panels').

        Returns
        -------
        str
            An SVG document.
        """
        ensure_painter_app()
        plan = self.figure_plan(titles_for(titles, size, dpi))
        with tempfile.TemporaryDirectory(prefix="kfdviz-") as folder:
            path = Path(folder) / "figure.svg"
            save_svg(plan, path, size, dpi)
            return path.read_text(encoding="utf-8")

    def _notebook_size(self) -> tuple[tuple[int, int], float]:
        # Qt loads only to paint (see the module docstring).
        from .figure.export import default_size

        ensure_painter_app()
        plan = self.figure_plan(titles_for("auto", (NOTEBOOK_WIDTH, 1), NOTEBOOK_DPI))
        return default_size(plan, NOTEBOOK_DPI, NOTEBOOK_WIDTH), NOTEBOOK_DPI

    def _repr_png_(self) -> bytes:
        size, dpi = self._notebook_size()
        return self.to_png(size, dpi)

    def _repr_svg_(self) -> str:
        size, dpi = self._notebook_size()
        return self.to_svg(size, dpi)

    def save(self, path, *, size=None, dpi=None, titles: str = "auto") -> Path:
        """Write the picture to a PNG, SVG or PDF file, as ``kfdviz render`` writes figures.

        The file is replaced atomically: a failed save leaves what was there.

        Parameters
        ----------
        path : str or path-like
            The file; its suffix (.png, .svg, .pdf) chooses the format. SVG and PDF hold vector
            paths and text, the filled levels embedded as an image.
        size : (int, int), optional
            (width, height) in pixels; by default a slide's width (1600 pixels at 150 dpi) and
            as tall as the panels need.
        dpi : float, optional
            The resolution the text and lines are set at (default 150).
        titles : {"auto", "all", "panels", "none"}, default="auto"
            Which titles the picture shows: the figure's and the panels', the panels' only, or
            none; "auto" chooses by the picture's width (a paper's column gets the panels').

        Returns
        -------
        Path
            The file written.
        """
        format_of(path)  # an unknown suffix is refused before anything is painted
        ensure_painter_app()
        plan = self.figure_plan(titles_for(titles, size, dpi))
        save_figure(plan, path, size, dpi)
        return Path(path)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.title}>"


class LevelSetDisplay(_FigureDisplay):
    """The level sets of a fitted estimator's output over 2-D input, or a regressor's curve.

    The training and test points are drawn over the filled levels, with the decision boundary,
    the expansion points and a colour bar. Made by :meth:`from_estimator`.

    Parameters
    ----------
    result : FitResult
        The arrays drawn (:func:`kfdviz.pipeline.fitted.describe_fitted`).
    estimator : object, optional
        The fitted estimator they come from.
    title : str, optional
        The panel's title; by default the algorithm's name.
    settings : dict, optional
        View settings of the picture (``theme``, ``show_points``, ...).

    Attributes
    ----------
    grid : ndarray of shape (ny, nx, 2), or (m, 1) for a curve
        The points the output was evaluated at: ``grid[b, a] = (xs[a], ys[b])``.
    values : ndarray of shape (ny, nx), or (m,) for a curve
        The output at the grid's points, as the estimator computes it there.
    xs, ys : ndarray
        The grid's axes (``ys`` is empty for a curve).
    levels : ndarray
        The contour levels drawn (empty for a curve).
    contours : dict
        level -> list of (k, 2) polylines of that level set.
    boundary : list of ndarray
        The decision boundary's polylines ((k, 2) each); empty when there is none.
    color_range : tuple of float
        The colour map's (low, high).
    feature, feature_label
        Which output is drawn, and its name.
    expansion_points : ndarray of shape (m, d) or None
        The points the output's kernel expansion is over, with a non-zero coefficient.
    result : FitResult
        Every array the painter draws.

    See Also
    --------
    OutputHistogramDisplay : The outputs' histograms per class.
    EmbeddingDisplay : The points in the first features.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from kfdviz import KernelFisherDiscriminant, LevelSetDisplay
    >>> X, y = make_moons(60, noise=0.1, random_state=0)
    >>> kfd = KernelFisherDiscriminant(width=0.5).fit(X, y)
    >>> shown = LevelSetDisplay.from_estimator(kfd, X, y, grid_resolution=50)
    >>> shown.values.shape == shown.grid.shape[:2]
    True
    >>> bool(np.allclose(kfd.decision_function(shown.grid.reshape(-1, 2)), shown.values.ravel()))
    True
    """

    _view = "input"

    def __init__(self, result: FitResult, *, estimator=None, title=None, settings=None):
        super().__init__(result, estimator=estimator, title=title, settings=settings)
        r = result
        self.feature = r.feature
        self.feature_label = r.feature_label
        self.expansion_points = r.expansion_points
        if r.grid is not None:
            g = r.grid
            self.xs, self.ys = g.xs, g.ys
            gx, gy = np.meshgrid(g.xs, g.ys)
            self.grid = np.stack([gx, gy], axis=-1)
            self.values = g.values
            self.levels = np.array([c.level for c in g.contours], dtype=float)
            self.contours = {c.level: split_pieces(c) for c in g.contours}
            self.boundary = [] if g.boundary is None else split_pieces(g.boundary)
            self.color_range = g.color_range
        else:
            curve = r.curve
            self.xs, self.ys = curve.x, np.zeros(0)
            self.grid = curve.x[:, None]
            self.values = curve.y
            self.levels = np.zeros(0)
            self.contours = {}
            self.boundary = []
            self.color_range = (float(np.min(curve.y)), float(np.max(curve.y)))

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y=None,
        *,
        X_test=None,
        y_test=None,
        feature="auto",
        grid_resolution: int = 200,
        box=None,
        padding: float = 0.15,
        levels: int = 9,
        title: str | None = None,
        show_points: bool = True,
        show_contours: bool = True,
        show_boundary: bool = True,
        show_expansion="auto",
        show_colorbar: bool = True,
        theme: str = "light",
    ) -> LevelSetDisplay:
        """The level sets of the fitted ``estimator``'s output over the plane of ``X``.

        Parameters
        ----------
        estimator : fitted kfdviz estimator, or a fitted Pipeline ending in one
            Evaluated over the grid, never fitted.
        X : array-like of shape (n, 2), or (n, 1) for a regressor
            The training points drawn (filled); they also set the grid's box.
        y : array-like of shape (n,), optional
            Their class labels (a regressor's targets), for the points' colours and the errors.
        X_test, y_test : array-like, optional
            Test points, drawn hollow.
        feature : "auto", "decision", "score" or int, default="auto"
            The output drawn: the decision value of a classifier or novelty detector, a novelty
            score, or a column of ``transform``; "auto" is the decision value where there is
            one, else the first feature.
        grid_resolution : int, default=200
            Grid points along the box's longer side (more where a narrow Gaussian kernel needs).
        box : (x0, x1, y0, y1), optional
            The rectangle the grid covers; by default the points' box enlarged by ``padding``.
        padding : float, default=0.15
            The enlargement of the points' box, a fraction of its extent.
        levels : int, default=9
            The number of contour levels.
        title : str, optional
            The panel's title; by default the algorithm's name.
        show_points, show_contours, show_boundary : bool, default=True
            Whether the picture shows the points, the contour lines and the decision boundary.
        show_expansion : "auto" or bool, default="auto"
            Circle the expansion points ("auto": where fewer than all training points are).
        show_colorbar : bool, default=True
            Whether a colour bar shows the levels' values.
        theme : {"light", "dark"}, default="light"
            The picture's colours.

        Returns
        -------
        LevelSetDisplay
            The arrays and their picture.
        """
        _checked_theme(theme)
        if show_expansion not in ("auto", True, False):
            raise ValueError(
                f"show_expansion must be 'auto', True or False, not {show_expansion!r}."
            )
        points, labels, test = _joined(X, y, X_test, y_test)
        if points.shape[1] not in (1, 2):
            raise ValueError(
                f"LevelSetDisplay draws over 2-D input (1-D for a regressor's curve); X has "
                f"{points.shape[1]} columns. Use EmbeddingDisplay or OutputHistogramDisplay "
                "for higher-dimensional data."
            )
        grid = GridSpec(
            resolution=int(grid_resolution),
            padding=float(padding),
            box=None if box is None else tuple(float(v) for v in box),
        )
        result = describe_fitted(
            estimator, points, labels, test, feature=feature, grid=grid, levels=levels
        )
        if result.grid is None and result.curve is None:
            raise ValueError(
                f"{result.title} over 1-D input has no level sets to draw: only a regressor's "
                "curve is drawn over one input column."
            )
        settings = {
            "show_points": bool(show_points),
            "show_contours": bool(show_contours),
            "show_boundary": bool(show_boundary),
            "show_expansion": show_expansion,
            "show_colorbar": bool(show_colorbar),
            "theme": theme,
            "padding": float(padding),
            "levels": int(levels),
            "resolution": int(grid_resolution),
        }
        return cls(result, estimator=estimator, title=title, settings=settings)


class OutputHistogramDisplay(_FigureDisplay):
    """The fitted estimator's outputs as histograms per class, training and test set apart.

    The training set's and the test set's histograms are drawn side by side, the decision
    threshold marked (the NIPS'99 paper's figure). Made by :meth:`from_estimator`.

    Parameters
    ----------
    result : FitResult
        The arrays drawn (:func:`kfdviz.pipeline.fitted.describe_fitted`).
    estimator : object, optional
        The fitted estimator they come from.
    title : str, optional
        The panel's title; by default the algorithm's name.
    settings : dict, optional
        View settings of the picture (``theme``, ``show_points``, ...).

    Attributes
    ----------
    outputs, values : ndarray of shape (n,)
        The counted output at the training points, then at the test points.
    edges : ndarray
        The bins' edges, shared by every histogram.
    density : dict
        (class label, "train" or "test") -> density over the bins (it integrates to one).
    counts : dict
        The same keys -> the points per bin.
    threshold : float or None
        The decision threshold on the outputs' scale, drawn as a line.
    result : FitResult

    See Also
    --------
    LevelSetDisplay : The output's level sets over the input.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from kfdviz import KernelFisherDiscriminant, OutputHistogramDisplay
    >>> X, y = make_moons(60, noise=0.1, random_state=0)
    >>> X_test, y_test = make_moons(30, noise=0.1, random_state=1)
    >>> kfd = KernelFisherDiscriminant(width=0.5).fit(X, y)
    >>> hist = OutputHistogramDisplay.from_estimator(kfd, X, y, X_test, y_test, bins=10)
    >>> sorted(hist.counts)
    [(0, 'test'), (0, 'train'), (1, 'test'), (1, 'train')]
    >>> int(hist.counts[(0, "train")].sum())
    30
    """

    _view = "outputs"

    def __init__(self, result: FitResult, *, estimator=None, title=None, settings=None):
        super().__init__(result, estimator=estimator, title=title, settings=settings)
        h = result.histograms
        self.feature = result.feature
        self.feature_label = result.feature_label
        self.outputs = self.values = result.outputs
        self.edges = h.edges
        self.density = dict(h.density)
        self.counts = dict(h.counts)
        self.threshold = result.threshold

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y=None,
        X_test=None,
        y_test=None,
        *,
        feature="auto",
        bins: int = 30,
        title: str | None = None,
        theme: str = "light",
    ) -> OutputHistogramDisplay:
        """Histograms of the fitted ``estimator``'s output per class and set.

        Parameters
        ----------
        estimator : fitted kfdviz estimator, or a fitted Pipeline ending in one
            Evaluated at the points, never fitted.
        X, y : array-like
            The training points and their labels (None for a novelty detector's one group).
        X_test, y_test : array-like, optional
            The test points and their labels: a second panel.
        feature : "auto", "decision", "score" or int, default="auto"
            The output counted (see :meth:`LevelSetDisplay.from_estimator`).
        bins : int, default=30
            The number of bins, shared by every histogram.
        title : str, optional
            The panels' title; by default the algorithm's name.
        theme : {"light", "dark"}, default="light"
            The picture's colours.

        Returns
        -------
        OutputHistogramDisplay
            The histograms and their picture.
        """
        _checked_theme(theme)
        points, labels, test = _joined(X, y, X_test, y_test)
        result = describe_fitted(estimator, points, labels, test, feature=feature, bins=bins)
        if result.histograms is None:
            raise ValueError(
                f"{result.title} has no output to count in histograms: a regressor's picture "
                "is its curve (LevelSetDisplay)."
            )
        return cls(
            result, estimator=estimator, title=title, settings={"theme": theme, "bins": int(bins)}
        )


class EmbeddingDisplay(_FigureDisplay):
    """The points in the fitted estimator's first two or three features, from fixed angles.

    The features are the estimator's ``transform`` (KOC's embedding, kernel PCA's first
    components), the test points hollow. Made by :meth:`from_estimator`.

    Parameters
    ----------
    result : FitResult
        The arrays drawn (:func:`kfdviz.pipeline.fitted.describe_fitted`).
    estimator : object, optional
        The fitted estimator they come from.
    title : str, optional
        The panel's title; by default the algorithm's name.
    settings : dict, optional
        View settings of the picture (``theme``, ``show_points``, ...).

    Attributes
    ----------
    embedding, values : ndarray of shape (n, k), k = 2 or 3
        The training points' features, then the test points'.
    axis_labels : tuple of str
    azimuth, elevation : float
        The viewing angles in degrees.
    result : FitResult

    See Also
    --------
    LevelSetDisplay : A feature's level sets over 2-D input.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from kfdviz import EmbeddingDisplay, KernelOrthogonalCentroid
    >>> X, y = make_blobs(80, n_features=4, centers=4, random_state=0)
    >>> koc = KernelOrthogonalCentroid(width=10.0).fit(X, y)
    >>> shown = EmbeddingDisplay.from_estimator(koc, X, y, azimuth=50, elevation=25)
    >>> shown.embedding.shape
    (80, 3)
    """

    _view = "embedding"

    def __init__(self, result: FitResult, *, estimator=None, title=None, settings=None):
        super().__init__(result, estimator=estimator, title=title, settings=settings)
        self.embedding = self.values = result.embedding
        self.axis_labels = result.embedding_labels
        self.azimuth = float(self.settings["azimuth"])
        self.elevation = float(self.settings["elevation"])

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y=None,
        *,
        X_test=None,
        y_test=None,
        n_components: int = 3,
        azimuth: float = 38.0,
        elevation: float = 22.0,
        title: str | None = None,
        theme: str = "light",
    ) -> EmbeddingDisplay:
        """The points in the fitted ``estimator``'s first two or three features.

        Parameters
        ----------
        estimator : fitted kfdviz estimator with ``transform``, or a Pipeline ending in one
            Evaluated at the points, never fitted.
        X, y : array-like
            The training points (any number of columns) and their labels, optional.
        X_test, y_test : array-like, optional
            Test points, drawn hollow.
        n_components : {2, 3}, default=3
            How many features to show (fewer when the estimator has fewer).
        azimuth, elevation : float, default=38, 22
            The viewing angles, degrees.
        title : str, optional
            The panel's title; by default the algorithm's name.
        theme : {"light", "dark"}, default="light"
            The picture's colours.

        Returns
        -------
        EmbeddingDisplay
            The embedding and its picture.
        """
        _checked_theme(theme)
        if n_components not in (2, 3):
            raise ValueError(f"n_components must be 2 or 3, not {n_components!r}.")
        for name, angle in (("azimuth", azimuth), ("elevation", elevation)):
            if not np.isfinite(float(angle)):
                raise ValueError(f"{name} must be a finite angle in degrees, not {angle!r}.")
        points, labels, test = _joined(X, y, X_test, y_test)
        result = describe_fitted(estimator, points, labels, test, n_embed=n_components)
        if result.embedding is None or result.embedding.shape[1] < 2:
            k = 0 if result.embedding is None else result.embedding.shape[1]
            raise ValueError(
                f"{result.title} gives {k} feature(s) here; an embedding picture needs two or "
                "three: ask for more components, or give a discriminant more classes."
            )
        settings = {"azimuth": float(azimuth), "elevation": float(elevation), "theme": theme}
        return cls(result, estimator=estimator, title=title, settings=settings)


__all__ = [
    "EmbeddingDisplay",
    "LevelSetDisplay",
    "OutputHistogramDisplay",
    "ensure_painter_app",
]
