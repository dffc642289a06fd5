"""`trainLossPlot` (TrainingCurves): loss, accuracy, attention entropy and log10 |∇W_Q| by
step; mean over seeds with a min–max band per group (scaling: d_k × scaled/unscaled of one
task, in the scaled and unscaled colours, a shade per d_k; heads: h; roles: the model and
its 1-layer control). Drawn from engine.training Snapshots; items are built once per
experiment and updated in place.

Windowed, the four metrics stand in two rows under the panel's title, the legend under
them. Compact (presentation mode), the two metrics of PRESENTED_METRICS stand in one row,
the legend and a short note in a column at their right: the plots get the height a
projector has. Before a run the plots are frames with their names and a note that says to
press Start.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.training import ScalingConfig, band
from engine.training.tasks import copy_one_token_accuracy

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.axis_names import fit_bottom_name
from gui.panels.empty_note import EmptyNote
from gui.panels.text_fit import MinimumHeight
from gui.panels.training_common import (LEGEND_COLUMNS, METRICS, TrainingPlotBase, band_item,
                                        band_path, fit_ticks, group_name, group_runs,
                                        metric_titles, scaling_colour, show_tick_values,
                                        snapshot_keys)

#: The metrics a compact (presentation) panel shows for each experiment, in one row: what
#: its lesson step's text is about.
PRESENTED_METRICS = {"scaling": ("accuracy", "attention_entropy"),
                     "heads": ("loss", "accuracy"), "roles": ("loss", "accuracy")}


class TrainingCurves(TrainingPlotBase):
    """`trainLossPlot`: the metrics by step (see the module docstring)."""

    def __init__(self, parent=None):
        self.task = "averaging"
        self.planned = "scaling"      # the experiment the tab has chosen (set_experiment)
        self.planned_dks: tuple[int, ...] = tuple(ScalingConfig().d_ks)
        super().__init__(names.TRAIN_LOSS, parent)

    def build(self) -> None:
        self.title = self.text_label()
        self.info = self.text_label()
        self.info.setText(" ")
        self.grid = self.addLayout(row=2, col=0)
        self.ci.layout.setColumnStretchFactor(0, 1)
        self.ci.layout.setRowStretchFactor(2, 1)
        for col in (0, 1):
            self.grid.layout.setColumnStretchFactor(col, 1)
        # Compact: the legend and the note in a column right of the plots.
        self.side = self.side_column()
        self.plots, self.plot_titles, self.notes = {}, {}, {}
        for metric in METRICS:
            plot = pg.PlotItem(enableMenu=False)
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.disableAutoRange()
            plot.vb.sigResized.connect(self._fit_ticks)
            plot.vb.sigRangeChanged.connect(self._fit_ticks)
            self.plots[metric] = plot
            self.plot_titles[metric] = self.text_label()
            self.notes[metric] = EmptyNote(plot)
        self.plots["accuracy"].setYRange(0.0, 1.02, padding=0)
        self.baseline = pg.InfiniteLine(angle=0, movable=False)
        self.plots["accuracy"].addItem(self.baseline)
        self.baseline.hide()
        # Under the plots or beside them: inside a plot it covered the curves.
        self.legend = pg.LegendItem(colCount=4)
        self.items: dict = {}          # key → {metric: (mean curve, band)}
        self.experiment = None
        self.arrange()
        self._show_empty(True)
        # Each row of plots keeps room for PLOT_LINES lines of tick labels.
        self.minimum_height = MinimumHeight(self, self.needed_height)

    # -- arrangement ------------------------------------------------------------------
    def shown_metrics(self) -> tuple[str, ...]:
        """The metrics on screen: all four windowed; compact, those of the experiment shown
        (or, before its run, chosen)."""
        if not self.compact:
            return METRICS
        return PRESENTED_METRICS.get(self.experiment or self.planned, METRICS[:2])

    def plot_rows(self) -> list:
        rows = {}
        for i, metric in enumerate(self.shown_metrics()):
            rows.setdefault(1 if self.compact else 2 * (i // 2) + 1, self.plots[metric])
        return [(self.grid, row, plot) for row, plot in sorted(rows.items())]

    def arrange(self) -> None:
        shown = self.shown_metrics()
        grid, compact = self.grid, self.compact
        places = [(item, None) for metric in METRICS if metric not in shown
                  for item in (self.plot_titles[metric], self.plots[metric])]
        for i, metric in enumerate(shown):
            row, col = (0, i) if compact else (2 * (i // 2), i % 2)
            places += [(self.plot_titles[metric], grid, row, col),
                       (self.plots[metric], grid, row + 1, col)]
        if compact:
            places += [(self.title, None), (self.side, grid, 0, 2, 2, 1),
                       (self.legend, self.side, 0, 0), (self.info, self.side, 1, 0)]
        else:
            places += [(self.title, self.ci, 0, 0), (self.info, self.ci, 1, 0),
                       (self.legend, self.ci, 3, 0), (self.side, None)]
        self.place_many(places)
        rows = 2 if compact else 4
        for row in range(4):    # the plots' rows take the height the titles leave
            grid.layout.setRowStretchFactor(row, 1 if row % 2 and row < rows else 0)
            if row >= rows:     # a row the arrangement leaves empty needs no height
                grid.layout.setRowMinimumHeight(row, 0)
        grid.layout.setColumnStretchFactor(2, 0)
        self._legend_columns()
        self._show_empty(self.results is None)
        self._refit_height()      # other rows, another legend: another minimum

    #: Compact: the legend's entries in one column up to this many, else in two (a scaling
    #: run of four d_k has eight; one column of them is taller than a projector's plots).
    COMPACT_LEGEND_ROWS = 5

    def _legend_columns(self) -> None:
        if self.compact:
            columns = 1 if len(self.legend.items) <= self.COMPACT_LEGEND_ROWS else 2
        else:
            columns = LEGEND_COLUMNS.get(self.experiment or self.planned, 1)
        self.legend.setColumnCount(columns)      # a no-op when it has them

    def inner_layouts(self) -> list:
        return [self.grid, self.side]

    def set_experiment(self, experiment: str) -> None:
        """The experiment the tab has chosen: before its run, a compact panel shows its
        metrics."""
        if experiment != self.planned:
            self.planned = experiment
            if self.results is None:
                self.arrange()

    def set_planned_dks(self, d_ks) -> None:
        """The d_k values of the next scaling run: each one's shade (scaling_colour)."""
        self.planned_dks = tuple(int(d) for d in d_ks)

    def _show_empty(self, empty: bool) -> None:
        """Before a run: frames without tick labels, a note in the first plot shown."""
        first = self.shown_metrics()[0]
        for metric, plot in self.plots.items():
            show_tick_values(plot, not empty)
            self.notes[metric].set_shown(empty and metric == first)
        self._fit_axes()

    def forget_run(self) -> None:
        self._clear()
        self.arrange()

    def _fit_ticks(self, *_args) -> None:
        for plot in self.plots.values():
            fit_ticks(self, plot)

    def _fit_axes(self) -> None:
        font = plot_font(self.theme)
        for plot in self.plots.values():
            fit_bottom_name(plot.getAxis("bottom"), font)

    def restyle(self) -> None:
        for metric, plot in self.plots.items():
            self.style_plot(plot)
            self.notes[metric].set_style(self.theme)
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
            title = (tr("entropy (nats)") if self.compact and metric == "attention_entropy"
                     else metric_titles()[metric])     # compact: one line in half a screen
            label.setText(title, color=self.theme.foreground,
                          size=f"{self.theme.font_pt:.1f}pt")
            self.notes[metric].set_text(tr("Press Start to train: the curves are drawn here "
                                           "as the model learns."), tr("Press Start to train."))
        for plot in self.plots.values():
            plot.setLabel("bottom", tr("step"))
        self._fit_axes()
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
            colour = scaling_colour(self.theme, key[1], key[0], self.planned_dks)
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
        self.legend.addItem(per_metric["accuracy"][0],
                            group_name(experiment, key, short=self.compact))
        self._legend_columns()
        self.items[key] = per_metric
        return per_metric

    def show_results(self, snapshot) -> None:
        if snapshot.experiment != self.experiment:
            self._clear()
            self.experiment = snapshot.experiment
            self.arrange()
        elif self.notes[self.shown_metrics()[0]].wanted:
            self._show_empty(False)
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
        lines = [tr("mean of {n} seeds, band = min–max").format(n=seeds)
                 if seeds > 1 and not self.compact else ""]
        if averaging:       # compact: the axis gives the value (two lines in a narrow column)
            lines.append(tr("dotted: copy one token") if self.compact else
                         tr("dotted: copy one token = {acc:.3f}").format(
                             acc=copy_one_token_accuracy()))
        if snapshot.experiment == "scaling" and not self.compact:   # compact: the legend
            lines.append(tr("solid: ÷√d_k · dashed: unscaled"))
        self.set_text(self.info, " · ".join(line for line in lines if line) or " ")
