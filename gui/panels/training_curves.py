"""`trainLossPlot` (TrainingCurves): loss, accuracy, attention entropy and log10 |∇W_Q| by
step; mean over seeds with a min–max band per group (scaling: d_k × scaled/unscaled of one
task; heads: h; roles: the model and its 1-layer control). Drawn from engine.training
Snapshots; items are built once per experiment and updated in place."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.training import band
from engine.training.tasks import copy_one_token_accuracy

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.base import TitleLabel
from gui.panels.text_fit import MinimumHeight, fit_bottom_axis, layout_minimum_px, lines_px
from gui.panels.training_common import (LEGEND_COLUMNS, METRICS, TrainingPlotBase, band_item,
                                        band_path, fit_ticks, group_name, group_runs,
                                        metric_titles, snapshot_keys)


class TrainingCurves(TrainingPlotBase):
    """`trainLossPlot`: the four metrics by step (see the module docstring)."""

    def __init__(self, parent=None):
        self.task = "averaging"
        super().__init__(names.TRAIN_LOSS, parent)

    def build(self) -> None:
        self.title = self.add_title(row=0, col=0)
        self.ci.layout.setColumnStretchFactor(0, 1)
        self.plots = {}
        grid = self.addLayout(row=2, col=0)
        self.ci.layout.setRowStretchFactor(2, 1)
        for i, metric in enumerate(METRICS):
            plot = grid.addPlot(row=2 * (i // 2) + 1, col=i % 2)
            plot.setMouseEnabled(False, False)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.disableAutoRange()
            plot.vb.sigResized.connect(self._fit_ticks)
            plot.vb.sigRangeChanged.connect(self._fit_ticks)
            self.plots[metric] = plot
        self.plot_titles = {}
        for i, metric in enumerate(METRICS):
            label = TitleLabel()
            grid.addItem(label, row=2 * (i // 2), col=i % 2)
            self.plot_titles[metric] = label
        self.plots["accuracy"].setYRange(0.0, 1.02, padding=0)
        self.baseline = pg.InfiniteLine(angle=0, movable=False)
        self.plots["accuracy"].addItem(self.baseline)
        self.baseline.hide()
        # Under the plots, in rows of its own: inside a plot it covered the curves.
        self.legend = pg.LegendItem(colCount=4)
        self.addItem(self.legend, row=3, col=0)
        self.info = TitleLabel()
        self.info.setText(" ")
        self.addItem(self.info, row=1, col=0)
        self.items: dict = {}          # key → {metric: (mean curve, band)}
        self.experiment = None
        self.groups_shown: list = []
        # Each of the two rows of plots keeps room for PLOT_LINES lines of tick labels.
        self.minimum_height = MinimumHeight(
            self, lambda: layout_minimum_px(self) + 2 * lines_px(self.theme, self.PLOT_LINES))

    def _fit_ticks(self, *_args) -> None:
        for plot in self.plots.values():
            fit_ticks(self, plot)

    def restyle(self) -> None:
        for plot in self.plots.values():
            self.style_plot(plot)
        self.minimum_height.reset()
        self._fit_ticks()
        self.style_legend(self.legend, self.theme.font_pt * 0.85)
        self.baseline.setPen(pen(self.theme.foreground, self.theme, 0.6, Qt.PenStyle.DotLine))
        self.info.setText("", color=self.theme.foreground, size=f"{self.theme.font_pt * 0.9:.1f}pt")
        self._shown.pop((self.info, "text"), None)
        self._clear()

    def retranslate(self) -> None:
        self.set_title(self.title, tr("training curves on a fixed evaluation batch"))
        for metric, label in self.plot_titles.items():
            label.setText(metric_titles()[metric], color=self.theme.foreground,
                          size=f"{self.theme.font_pt:.1f}pt")
        for plot in self.plots.values():
            plot.setLabel("bottom", tr("step"))
            fit_bottom_axis(plot.getAxis("bottom"), plot_font(self.theme))
        self._clear()

    def set_task(self, task: str) -> None:
        if task != self.task:
            self.task = task
            self._clear()
            self.redraw()

    def _clear(self) -> None:
        """Forget the curve items (a new experiment, task, theme or language)."""
        for per_metric in self.items.values():
            for metric, parts in per_metric.items():
                for part in parts:
                    self.plots[metric].removeItem(part)
        self.items = {}
        self.legend.clear()
        self.experiment = None
        self._marks: dict = {}
        self._bounds: dict = {metric: {} for metric in METRICS}
        self._ranges: dict = {}

    def _fit_ranges(self, steps_per_run: int) -> None:
        """Ranges set by hand, and only when they change by more than a tenth: pyqtgraph's
        auto-range asks every curve for its bounds after every setData."""
        for metric, plot in self.plots.items():
            bounds = self._bounds[metric].values()
            if not bounds:
                continue
            low, high = min(b[0] for b in bounds), max(b[1] for b in bounds)
            if metric == "accuracy":
                low, high = 0.0, 1.0
            pad = 0.05 * max(high - low, 1e-6)
            wanted = (0.0, float(steps_per_run), low - pad, high + pad)
            shown = self._ranges.get(metric)
            span = wanted[3] - wanted[2]
            if shown is None or shown[:2] != wanted[:2] or any(
                    abs(a - b) > 0.1 * span for a, b in zip(shown[2:], wanted[2:])):
                self._ranges[metric] = wanted
                plot.setXRange(wanted[0], wanted[1], padding=0)
                plot.setYRange(wanted[2], wanted[3], padding=0)

    def _items_for(self, experiment: str, key, index: int) -> dict:
        if key in self.items:
            return self.items[key]
        if experiment == "scaling":
            colour = self.theme.head_colour(index // 2)
            style = Qt.PenStyle.SolidLine if key[1] else Qt.PenStyle.DashLine
        else:
            colour, style = self.theme.head_colour(index), Qt.PenStyle.SolidLine
        per_metric = {}
        for metric, plot in self.plots.items():
            mean = pg.PlotCurveItem(pen=pen(colour, self.theme, 0.8, style))
            fill = band_item(brush(colour, 50))
            plot.addItem(fill)
            plot.addItem(mean)
            per_metric[metric] = (mean, fill)
        self.legend.addItem(per_metric["accuracy"][0], group_name(experiment, key))
        self.items[key] = per_metric
        return per_metric

    def show_results(self, snapshot) -> None:
        if snapshot.experiment != self.experiment:
            self._clear()
            self.experiment = snapshot.experiment
            self.legend.setColumnCount(LEGEND_COLUMNS.get(snapshot.experiment, 1))
        groups = group_runs(snapshot, self.task)
        keys = (snapshot_keys(snapshot, self.task) if snapshot.experiment == "scaling"
                else sorted(groups, reverse=snapshot.experiment == "roles"))
        for key, runs in groups.items():
            # A group whose runs did not move since the last snapshot keeps its curves: in
            # a scaling run only the d_k in training changes.
            mark = tuple(len(r.curve.steps) for r in runs)
            if self._marks.get(key) == mark:
                continue
            self._marks[key] = mark
            parts = self._items_for(snapshot.experiment, key, keys.index(key))
            for metric in METRICS:
                b = band(runs, metric)
                x = b.steps.astype(np.float64)
                mean, low, high = b.mean, b.low, b.high
                if metric == "grad_norm_wq":
                    with np.errstate(divide="ignore", invalid="ignore"):
                        mean, low, high = np.log10(mean), np.log10(low), np.log10(high)
                keep = np.isfinite(mean) & np.isfinite(low) & np.isfinite(high)
                curve, fill = parts[metric]
                curve.setData(x[keep], mean[keep])
                fill.setPath(band_path(x[keep], low[keep], high[keep]))
                if keep.any():
                    self._bounds[metric][key] = (float(low[keep].min()), float(high[keep].max()))
        self._fit_ranges(snapshot.total_steps // max(1, snapshot.run_count))
        averaging = snapshot.experiment == "scaling" and self.task == "averaging"
        self.baseline.setVisible(averaging)
        if averaging:
            self.baseline.setValue(copy_one_token_accuracy())
        seeds = max((len(r) for r in groups.values()), default=0)
        lines = [tr("mean of {n} seeds, band = min–max").format(n=seeds) if seeds > 1 else ""]
        if averaging:
            lines.append(tr("dotted: copy one token = {acc:.3f}").format(
                acc=copy_one_token_accuracy()))
        if snapshot.experiment == "scaling":
            lines.append(tr("solid: ÷√d_k · dashed: unscaled"))
        self.set_text(self.info, " · ".join(line for line in lines if line) or " ")
