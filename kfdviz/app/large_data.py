"""Before the first fit of a large data set: the predicted time and memory, and a subset offered.

When the fits the window is about to start are predicted (:mod:`kfdviz.pipeline.cost`) to take
longer than ``WARN_SECONDS`` or to hold more than ``WARN_BYTES``, nothing is fitted yet. A banner
above the plots says what the fit would cost and offers to train on a subset of centers (the
subset expansion of TPAMI eq. 13: the algorithm's ``n_centers``), with the size the cost model
proposes, or to fit anyway. It does not block: the window stays usable, and a parameter changed
meanwhile (fewer centers, another algorithm) is estimated again. "Fit anyway" holds for this
data set until another one is loaded or generated.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from ..estimators import registry
from ..pipeline import cost
from .banner import Banner


class LargeDataBanner(Banner):
    """A strip above the plots: "… predicted to take about 2 min and 6 GB … [Subset] [Fit]"."""

    subset = Signal(int)
    fit_anyway = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__("largeDataBanner", tone="info", parent=parent)
        self.centers = 0
        self.subset_button = self.add_action("subset", "")
        self.fit_button = self.add_action("fit", "Fit anyway")
        self.subset_button.clicked.connect(lambda: self.subset.emit(self.centers))
        self.fit_button.clicked.connect(self.fit_anyway)

    def offer(self, text: str, centers: int | None) -> None:
        self.centers = int(centers or 0)
        self.subset_button.setVisible(bool(centers))
        if centers:
            self.subset_button.setText(f"Train on a subset of {centers} centers")
        self.show_message(text)


class LargeDataGuard(QObject):
    """The window's check before it fits (see the module's docstring)."""

    def __init__(self, parent: QObject, *, fit, data, pictures, algorithm_panel, status):
        super().__init__(parent)
        self.fit = fit  # request_fit, live
        self.data = data
        self.pictures = pictures
        self.algorithm_panel = algorithm_panel
        self.status = status
        self.banner = LargeDataBanner()
        self.banner.subset.connect(self.train_on_subset)
        self.banner.fit_anyway.connect(self.fit_anyway)
        self.approved = False
        self.last_estimate: cost.Estimate | None = None
        # Connected before the window's own slot, so that a new data set is asked about anew.
        data.changed.connect(self._data_changed)

    def _data_changed(self, kind: str) -> None:
        if kind == "replace":
            self.approved = False
            self.banner.hide()

    def _problem(self) -> tuple[int, int, int]:
        """(training points, input dimension, classes) of the window's data."""
        data = self.data
        train = ~data.test_mask()
        n = int(train.sum())
        classes = 1
        if not data.regression and n:
            classes = len(set(data.y()[train].tolist()))
        return n, data.dimension, classes

    def _params(self, name: str) -> tuple[str, dict]:
        slot = self.pictures.slot(name)
        params = dict(slot.params)
        if slot is self.pictures.active_slot():
            values, problems = self.algorithm_panel.collect()
            if not problems:
                params = values
        return slot.algorithm, params

    def estimate(self, slots: list[str]) -> cost.Estimate | None:
        """The predicted cost of fitting ``slots`` one after the other (None when nothing is
        fitted)."""
        n, d, classes = self._problem()
        if n == 0 or not slots:
            return None
        resolution = self._resolution(d)
        seconds, peak, centers = 0.0, 0, n
        for name in slots:
            algorithm, params = self._params(name)
            if algorithm not in registry.ALGORITHMS:
                continue
            e = cost.estimate(algorithm, params, n, d, classes=classes, resolution=resolution)
            seconds += e.seconds
            peak = max(peak, e.peak_bytes)
            centers = min(centers, e.centers)
        return cost.Estimate(seconds, peak, n, centers)

    def _resolution(self, d: int) -> int:
        return self.pictures.resolution if d == 2 and not self.data.regression else 0

    def subset(self) -> int | None:
        """The subset of centers to propose for the active picture (None when there is none)."""
        algorithm, params = self._params(self.pictures.active_slot().name)
        if not cost.supports_subset(algorithm):
            return None
        n, d, classes = self._problem()
        resolution = self._resolution(d)
        return cost.subset_size(algorithm, params, n, d, classes=classes, resolution=resolution)

    def holds(self, slots: list[str]) -> bool:
        """True (and the banner shown) when fitting ``slots`` now would start a fit predicted to
        be large that was not approved for this data set; the window fits nothing then."""
        if self.approved:
            return False
        estimate = self.estimate(slots)
        self.last_estimate = estimate
        if estimate is None or not estimate.large:
            self.banner.hide()
            return False
        subset = self.subset()
        title = registry.get(self.pictures.active_slot().algorithm).title
        what = "with every point a center " if estimate.centers >= estimate.n else ""
        text = (
            f"{estimate.n:,} training points: {title} {what}is predicted to take "
            f"{estimate.describe()} here. Nothing has been fitted yet."
        )
        if subset:
            text += f" A subset expansion of {subset} centers (TPAMI eq. 13) is much quicker."
        self.banner.offer(text, subset)
        self.status.show(
            f"Large data set: the fit would take {estimate.describe()}; choose in the banner.",
            kind="info",
        )
        return True

    def train_on_subset(self, centers: int) -> None:
        """Expand every picture of the layout that can over ``centers`` points, and fit."""
        self.banner.hide()
        with self.data.history.group(f"Train on a subset of {int(centers):,} centers"):
            others = self._use_subset(int(centers))
        if not self.fit.live:
            self.fit.request_fit(now=True)
        elif others:
            self.fit.request_fit(slots=others)

    def _use_subset(self, centers: int) -> list[str]:
        """Set ``n_centers`` on every picture of the layout that takes it; the names of those
        other than the active one (whose panel refits it as if typed)."""
        others = []
        for name in self.pictures.layout_slot_names():
            slot = self.pictures.slot(name)
            if not cost.supports_subset(slot.algorithm):
                continue
            if slot is self.pictures.active_slot():
                widget = self.algorithm_panel.widget("n_centers")
                if widget is not None:
                    widget.set_value(centers)
                    widget.changed.emit()  # as if typed: the panel, the slot and a live fit
            else:
                slot.set_setting(params={**slot.params, "n_centers": centers})
                others.append(name)
        return others

    def fit_anyway(self) -> None:
        """Fit as asked, and do not ask again for this data set."""
        self.approved = True
        self.banner.hide()
        self.fit.request_fit(now=True)
