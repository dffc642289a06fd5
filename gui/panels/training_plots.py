"""The training lab's plots, each drawn from engine.training Snapshots (replace-all: each one is drawn as it is) and, at the end, the
Result:

    TrainingCurves     `trainLossPlot`    loss, accuracy, attention entropy and log10 |∇W_Q|
                                          by step; mean over seeds with a min–max band per
                                          group (scaling: d_k × scaled/unscaled of one task;
                                          heads: h; roles: the one run)
    TrainingHeadsView  `trainHeadsView`   the learned heads' attention on the sample
                                          sequence, with their scores and role names
    HeadsVsH           `trainHeadsChart`  final accuracy and loss against h beside the
                                          paper's Table 3 (A) dev perplexity (heads only)

Items are built once per experiment shape and updated in place with setData / setImage.
gui/training/tab.py puts them in the Training tab with its controls.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from engine.training import PAPER_TABLE3_A, HeadsConfig, band
from engine.training.tasks import copy_one_token_accuracy

from gui.common import names
from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.matrix_item import weights_rgba
from gui.panels.text_fit import (TICK_GAP, MinimumHeight, fit_bottom_axis, fitting_step, layout_minimum_px,
                       lines_px, ticks_between)

METRICS = ("loss", "accuracy", "attention_entropy", "grad_norm_wq")
SEQUENTIAL = pg.colormap.get("viridis")
#: SEQUENTIAL as 256 RGBA colours: weight w ∈ [0, 1] is drawn in colour round(255 w).
SEQUENTIAL_RGBA = SEQUENTIAL.getLookupTable(0.0, 1.0, 256, alpha=True)
SCALING_TASKS = ("averaging", "lookup")
TEXT_PERIOD_S = 0.5
#: Legend columns: scaling has 8 groups and the full width, heads 5 groups beside the maps.
LEGEND_COLUMNS = {"scaling": 4, "heads": 3, "roles": 2}


def experiment_names() -> dict[str, str]:
    return {"scaling": tr("Does ÷√d_k matter? (scaled vs unscaled)"),
            "roles": tr("Heads specialise (2 layers × 4 heads)"),
            "heads": tr("Many thin heads or one wide one?")}


def task_names() -> dict[str, str]:
    return {"averaging": tr("averaging task (majority colour)"),
            "lookup": tr("lookup task (one key–value pair)")}


def role_names() -> dict[str, str]:
    """Translated names of the engine's role ids."""
    return {"induction": tr("induction"), "previous_token": tr("previous token"),
            "bos": tr("BOS sink"), "self": tr("self"), "mixed": tr("mixed"),
            "content_match": tr("content match"), "previous_item": tr("previous item")}


def heads_rgba(weights: np.ndarray) -> np.ndarray:
    """Attention weights (…, n) in [0, 1] as SEQUENTIAL colours (…, n, 4) uint8."""
    return weights_rgba(weights, SEQUENTIAL_RGBA)


def metric_titles() -> dict[str, str]:
    return {"loss": tr("loss (nats)"), "accuracy": tr("accuracy"),
            "attention_entropy": tr("attention entropy (nats)"),
            "grad_norm_wq": tr("log₁₀ |∇W_Q|")}


def group_runs(snapshot, task: str) -> dict:
    """Runs of a snapshot by what the curves compare: key → (runs, colour index, dashed)."""
    groups: dict = {}
    for run in snapshot.runs:
        label = run.label
        if snapshot.experiment == "scaling":
            if label["task"] != task:
                continue
            key = (label["d_k"], label["scaled"])
        elif snapshot.experiment == "heads":
            key = (label["heads"],)
        else:       # roles: the model and the 1-layer control
            key = (label.get("layers", 2),)
        groups.setdefault(key, []).append(run)
    return groups


def group_name(experiment: str, key) -> str:
    if experiment == "scaling":
        return (tr("d_k = {dk}, ÷√d_k") if key[1] else tr("d_k = {dk}, unscaled")).format(dk=key[0])
    if experiment == "heads":
        return tr("h = {h}").format(h=key[0])
    return tr("1 layer (control)") if key[0] == 1 else tr("{n} layers").format(n=key[0])


class TrainingPlotBase(Plot):
    """A plot of the training tab. Its texts change with every run and language: the
    device caches of Plot.cache_text kept showing an old text of a wrapped title after
    a language change, so these panels paint their texts directly."""

    PLOT_LINES = 4   # lines of tick labels a plot keeps room for

    def cache_text(self) -> None:
        """No text caches (see the class docstring)."""

    def clear_run(self) -> None:
        """Forget the run shown (another experiment was chosen): back to the empty plot with
        its "press Start" title."""
        self.results = None
        self.forget_run()
        self.retranslate()

    def forget_run(self) -> None:
        """Drop the items of the run shown (clear_run)."""

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self.minimum_height.request()        # wrapped texts: a new width, a new height


def band_item(fill_brush) -> QGraphicsPathItem:
    """A filled min–max band with no outline, its path set by band_path."""
    item = QGraphicsPathItem()
    item.setPen(QPen(Qt.PenStyle.NoPen))
    item.setBrush(fill_brush)
    return item


def band_path(x: np.ndarray, low: np.ndarray, high: np.ndarray) -> QPainterPath:
    """The closed outline of the band between `low` and `high` over `x` (each (k,)): along
    the top, back along the bottom. One path per band and snapshot: two hidden edge curves
    under a FillBetweenItem made it rebuild the fill once per edge, and the scene visit both."""
    if len(x) < 2:
        return QPainterPath()
    path = pg.arrayToQPath(np.concatenate([x, x[::-1]]), np.concatenate([high, low[::-1]]))
    path.closeSubpath()
    return path


def label_step(low: float, high: float, length_px: float, measure, distance) -> float:
    """The smallest 1-2-2.5-5 step whose own tick labels over [low, high], shown along
    `length_px` pixels and `measure`d in pixels, stand at least `distance(widest label)`
    pixels apart centre to centre. Each candidate is checked with its own labels: a finer
    step's labels are wider ("0.25" against "0.5"), and a step chosen from another step's
    labels let "0.250.50.75" run together at 300 % text on a 310–340 px plot."""
    span = high - low
    step = fitting_step(span, length_px, distance(measure("0")) / TICK_GAP)
    for _ in range(32):
        widest = max((measure(label) for _v, label in ticks_between(low, high, step)),
                     default=0.0)
        if fitting_step(span, length_px, distance(widest) / TICK_GAP) <= step * (1 + 1e-9):
            return step
        step = fitting_step(span, length_px, 0.0, minimum=step * (1 + 1e-6))   # the next one
    return step


def fit_ticks(panel: Plot, plot: pg.PlotItem) -> None:
    """Tick steps that leave a gap between labels at this plot's size and text size
    (pyqtgraph's own ignore the font: at 300 % text they ran into each other). The x
    labels stand TICK_GAP times (label + a digit) apart; where that leaves no label
    between the two ends (pyqtgraph drops labels that overhang the axis), a gap of 1.5
    digits is enough."""
    vb = plot.vb
    (x0, x1), (y0, y1) = vb.viewRange()
    fm = QFontMetricsF(plot_font(panel.theme))
    y_step = fitting_step(y1 - y0, vb.height(), fm.height())
    panel.set_ticks(plot.getAxis("left"), ticks_between(y0, y1, y_step))
    digit = fm.horizontalAdvance("0")
    x_step = label_step(x0, x1, vb.width(), fm.horizontalAdvance,
                        lambda widest: TICK_GAP * (widest + digit))
    if len(ticks_between(x0, x1, x_step)) < 3:
        x_step = label_step(x0, x1, vb.width(), fm.horizontalAdvance,
                            lambda widest: widest + 1.5 * digit)
    panel.set_ticks(plot.getAxis("bottom"), ticks_between(x0, x1, x_step))


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


def snapshot_keys(snapshot, task: str) -> list:
    """Scaling groups in a fixed order (d_k, scaled first): a colour per d_k."""
    keys = []
    for run in snapshot.runs:
        label = run.label
        if snapshot.experiment == "scaling" and label["task"] == task:
            for scaled in (True, False):
                if (label["d_k"], scaled) not in keys:
                    keys.append((label["d_k"], scaled))
    return keys


class TrainingHeadsView(TrainingPlotBase):
    """`trainHeadsView`: each learned head's attention on the sample sequence."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_HEADS, parent)

    def build(self) -> None:
        self.title = self.add_title(row=0, col=0)
        self.grid = self.addLayout(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.shape = None
        self.maps: list = []        # (title, plot, image)
        self._texts_at, self._texts_shape = 0.0, None

    def forget_run(self) -> None:
        if self.maps:
            self.grid.clear()
            self.maps, self.shape = [], None

    def retranslate(self) -> None:
        self.shape = self._texts_shape = None     # titles again in the new language
        self.redraw()
        if self.results is None:
            self.set_title(self.title, tr("learned heads: press Start"))

    def restyle(self) -> None:
        self.shape = None

    def _map(self, row: int, col: int):
        title = TitleLabel()
        title.setText("", color=self.theme.foreground, size=f"{self.theme.font_pt * 0.9:.1f}pt")
        self.grid.addItem(title, row=row, col=col)
        plot = self.grid.addPlot(row=row + 1, col=col)
        plot.setMouseEnabled(False, False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.invertY(True)
        plot.setAspectLocked(False)
        image = pg.ImageItem(axisOrder="row-major")   # RGBA maps (heads_rgba): no levels
        plot.addItem(image)
        self.style_plot(plot)
        return title, plot, image

    def _rebuild(self, shape) -> None:
        self.grid.clear()
        self.maps = []
        experiment, count, columns, tokens = shape
        if experiment == "heads":
            self.maps.append(self._map(0, 0))
        else:
            for i in range(count):
                self.maps.append(self._map(2 * (i // columns), i % columns))
        for _title, plot, _image in self.maps:
            plot.hideAxis("bottom")
            plot.setXRange(0, len(tokens), padding=0)
            if experiment == "roles":   # small maps: the sample is named in the title
                plot.hideAxis("left")
                plot.hideAxis("bottom")
                plot.setYRange(0, len(tokens), padding=0)
        self._axes = None
        self.shape = shape

    def show_results(self, snapshot) -> None:
        heads = snapshot.heads
        if not heads:
            self.set_title(self.title, tr("no learned heads to show: the scaling task has one "
                                          "head read by a CLS query"))
            if self.maps:
                self.grid.clear()
                self.maps, self.shape = [], None
            return
        per_layer = max(h.head for h in heads) + 1
        shape = (snapshot.experiment, len(heads), per_layer, tuple(snapshot.sample_tokens))
        if shape != self.shape:
            self._rebuild(shape)
        roles = role_names()
        now = time.perf_counter()
        # The maps follow every snapshot; the scores in the texts at most twice a second
        # (laying out a changed text costs more than an image) and at the end.
        texts = snapshot.done or now - self._texts_at >= TEXT_PERIOD_S or shape != self._texts_shape
        if texts:
            self._texts_at, self._texts_shape = now, shape
        if snapshot.experiment == "heads":
            stacked = np.concatenate([h.weights for h in heads], axis=0)
            _title, plot, image = self.maps[0]
            image.setImage(heads_rgba(stacked), autoLevels=False)
            plot.setYRange(0, len(heads), padding=0)
            if not texts:
                return
            self.set_ticks(plot.getAxis("left"), [
                (i + 0.5, tr("H{head} {role} {score:.2f}").format(
                    head=h.head, role=roles.get(h.role, h.role),
                    score=h.scores.get(h.role, h.scores["content_match"])))
                for i, h in enumerate(heads)])
            self.set_text(self.maps[0][0], tr("h = {h}: the query row of each head on "
                                              "“{tokens}”").format(
                h=len(heads), tokens=" ".join(snapshot.sample_tokens)))
            self.set_title(self.title, tr("learned heads: items “key:value”; the query “?k” "
                                          "asks for the value of key k"))
            return
        for (title, _plot, image), h in zip(self.maps, heads):
            image.setImage(heads_rgba(h.weights), autoLevels=False)
            if not texts:
                continue
            s = h.scores
            self.set_text(title, tr("L{layer}·H{head} {role}<br>prev {p:.2f} ind {i:.2f} "
                                    "BOS {b:.2f}").format(
                layer=h.layer, head=h.head, role=roles.get(h.role, h.role),
                p=s["previous_token"], i=s["induction"], b=s["bos"]))
        if not texts:
            return
        self.set_title(self.title, tr("learned heads at step {step} on “{tokens}” (rows: query, "
                                      "columns: key)").format(
            step=snapshot.step, tokens=" ".join(snapshot.sample_tokens)))


H_PAD = 0.4   # log₂ units of room beside the first and the last h


class HeadsVsH(TrainingPlotBase):
    """`trainHeadsChart`: final accuracy and loss against h beside the paper's Table 3 (A)."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_VS_H, parent)

    def build(self) -> None:
        self.title = self.add_title(row=0, col=0)
        grid = self.grid = self.addLayout(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.ours_title, self.paper_title = TitleLabel(), TitleLabel()
        # One above the other: the chart shares the narrow right-hand side with the heads.
        grid.addItem(self.ours_title, row=0, col=0)
        grid.addItem(self.paper_title, row=2, col=0)
        self.ours = grid.addPlot(row=1, col=0)
        self.paper = grid.addPlot(row=3, col=0)
        grid.layout.setRowStretchFactor(1, 3)
        grid.layout.setRowStretchFactor(3, 2)
        for plot in (self.ours, self.paper):
            plot.setMouseEnabled(False, False)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(x=True, y=True, alpha=0.25)
        self.ours.setYRange(0.0, 1.02, padding=0)
        self.acc = pg.PlotDataItem(symbol="o")
        self.acc_low, self.acc_high = pg.PlotCurveItem(pen=None), pg.PlotCurveItem(pen=None)
        self.acc_fill = pg.FillBetweenItem(self.acc_low, self.acc_high)
        self.loss = pg.PlotDataItem(symbol="s")
        for item in (self.acc_fill, self.acc_low, self.acc_high, self.acc, self.loss):
            self.ours.addItem(item)
        self.ppl = pg.PlotDataItem(symbol="o")
        self.paper.addItem(self.ppl)
        heads = [row["heads"] for row in PAPER_TABLE3_A]
        self.paper_ticks = [(math.log2(h), str(h)) for h in heads]
        self.ppl.setData([math.log2(h) for h in heads], [row["ppl"] for row in PAPER_TABLE3_A])
        # Room beside the first and last h: at the axis's end pyqtgraph drops a label ("32").
        self.paper.setXRange(math.log2(min(heads)) - H_PAD, math.log2(max(heads)) + H_PAD,
                             padding=0)
        self.planned_heads: tuple[int, ...] = tuple(HeadsConfig().heads)
        self.verdict = TitleLabel()
        self.addItem(self.verdict, row=2, col=0)
        self._drawn = None    # (steps per run, final losses of the finished runs per h) drawn
        self._show_h_axis(self.planned_heads)
        # Each plot keeps PLOT_LINES lines of tick labels, the paper's its rotated axis name.
        self.minimum_height = MinimumHeight(self, self._needed_height)

    def _needed_height(self) -> float:
        fm = QFontMetricsF(plot_font(self.theme))
        name = fm.horizontalAdvance(self.paper.getAxis("left").labelText or "") + 8
        plot = lines_px(self.theme, self.PLOT_LINES)
        layout = self.grid.layout
        layout.setRowMinimumHeight(1, plot + self.ours.getAxis("bottom").height())
        layout.setRowMinimumHeight(3, max(plot, name) + self.paper.getAxis("bottom").height())
        layout.invalidate()   # else the minimum below is the one before these rows
        return layout_minimum_px(self) + fm.height()   # a line of slack (see HeadDetail)

    def restyle(self) -> None:
        for plot in (self.ours, self.paper):
            self.style_plot(plot)
        self.minimum_height.reset()
        colour, loss_colour = self.theme.scaled, self.theme.unscaled
        self.acc.setPen(pen(colour, self.theme))
        self.acc.setSymbolBrush(brush(colour))
        self.acc_fill.setBrush(brush(colour, 50))
        self.loss.setPen(pen(loss_colour, self.theme, 0.8, Qt.PenStyle.DashLine))
        self.loss.setSymbolBrush(brush(loss_colour))
        self.ppl.setPen(pen(self.theme.foreground, self.theme))
        self.ppl.setSymbolBrush(brush(self.theme.foreground))
        self.paper.getAxis("bottom").setTicks([self.paper_ticks])
        self._drawn = None

    def retranslate(self) -> None:
        self.set_title(self.title, tr("final quality against h (same d_model, same cost)"))
        size = f"{self.theme.font_pt:.1f}pt"
        self.ours_title.setText(tr("these runs: accuracy ● and loss ■ (nats)"),
                                color=self.theme.foreground, size=size)
        self.paper_title.setText(tr("paper, Table 3 (A): dev perplexity (lower is better)"), color=self.theme.foreground, size=size)
        self._drawn = None      # the verdict again, in the new language
        self.ours.setLabel("bottom", tr("heads h"))
        self.paper.setLabel("bottom", tr("heads h"))
        self.paper.setLabel("left", tr("dev perplexity"))
        for plot in (self.ours, self.paper):
            fit_bottom_axis(plot.getAxis("bottom"), plot_font(self.theme))
        # In the text size (it stayed at 100 % at 300 % text).
        self.verdict.setText(self._paper_sentence(), color=self.theme.foreground, size=size)
        self.minimum_height.request()

    @staticmethod
    def _paper_sentence() -> str:
        """How little the paper's Table 3 (A) moves across h, computed from its rows: the gap
        of h = 1 and of the largest h to the best perplexity and the best BLEU."""
        best_ppl = min(row["ppl"] for row in PAPER_TABLE3_A)
        best_bleu = max(row["bleu"] for row in PAPER_TABLE3_A)
        one = next(row for row in PAPER_TABLE3_A if row["heads"] == 1)
        most = max(PAPER_TABLE3_A, key=lambda row: row["heads"])
        return tr("Paper, Table 3 (A): small gaps across h. Against the best (perplexity "
                  "{pb:.2f}, BLEU {bb:.1f}), h = 1 is {dp1:.2f} and {db1:.1f} behind, h = {hm} "
                  "{dpm:.2f} and {dbm:.1f}.").format(
            pb=best_ppl, bb=best_bleu, dp1=one["ppl"] - best_ppl, db1=best_bleu - one["bleu"],
            hm=most["heads"], dpm=most["ppl"] - best_ppl, dbm=best_bleu - most["bleu"])

    def set_planned_heads(self, heads) -> None:
        """The h values the next run trains: the axis shows them before any run finishes."""
        self.planned_heads = tuple(sorted(set(int(h) for h in heads)))
        if not self._drawn or not self._drawn[1]:
            self._show_h_axis(self.planned_heads)

    def _show_h_axis(self, heads) -> None:
        """The bottom axis of these runs: a tick at each h (log₂ scale), room at both ends."""
        if not heads:
            return
        x = [math.log2(h) for h in heads]
        self.set_ticks(self.ours.getAxis("bottom"), [(v, str(h)) for v, h in zip(x, heads)])
        self.ours.setXRange(min(x) - H_PAD, max(x) + H_PAD, padding=0)

    def show_results(self, snapshot) -> None:
        if snapshot.experiment != "heads" or not snapshot.run_count:
            return
        # The run's h values: the plan (the tab's options) and every run seen so far.
        planned = set(self.planned_heads) | {int(run.label["heads"]) for run in snapshot.runs}
        steps_per_run = snapshot.total_steps // snapshot.run_count
        finished: dict = {}
        for run in snapshot.runs:
            if len(run.curve.steps) and int(run.curve.steps[-1]) >= steps_per_run:
                finished.setdefault(run.label["heads"], []).append(run)
        # Only a finished run changes the chart: most snapshots of a run leave it as it is.
        drawn = (steps_per_run, tuple((h, tuple(float(r.curve.loss[-1]) for r in runs))
                                      for h, runs in sorted(finished.items())))
        if drawn == self._drawn:
            return
        self._drawn = drawn
        rows = []
        for h in sorted(finished):
            acc, loss = band(finished[h], "accuracy"), band(finished[h], "loss")
            rows.append((h, float(acc.mean[-1]), float(acc.low[-1]), float(acc.high[-1]),
                         float(loss.mean[-1]), int(finished[h][0].label["d_k"])))
        x = np.array([math.log2(r[0]) for r in rows])
        self.acc.setData(x, np.array([r[1] for r in rows]))
        self.acc_low.setData(x, np.array([r[2] for r in rows]))
        self.acc_high.setData(x, np.array([r[3] for r in rows]))
        self.loss.setData(x, np.array([r[4] for r in rows]))
        # Every h of the run on the axis from its start: it does not move as runs finish.
        self._show_h_axis(sorted(planned | {r[0] for r in rows}))
        if rows:
            top = max(1.02, max(r[4] for r in rows) * 1.05)
            self.ours.setYRange(0.0, top, padding=0)
        self.set_text(self.verdict, self.verdict_text(rows) + "<br>" + self._paper_sentence())

    @staticmethod
    def verdict_text(rows) -> str:
        """What these runs show, from (h, accuracy mean, low, high, loss, d_k) rows."""
        if not rows:
            return tr("Runs so far: none finished yet.")
        best = max(rows, key=lambda r: r[1])
        most = max(rows, key=lambda r: r[0])
        first = min(rows, key=lambda r: r[0])
        text = tr("These runs: h = {h1} reaches {a1:.0%}; the best is h = {hb} with "
                  "{ab:.0%}.").format(h1=first[0], a1=first[1], hb=best[0], ab=best[1])
        if most[0] != best[0] and most[1] < best[1] - 0.02:
            text += " " + tr("Too many heads hurt here: h = {h} (d_k = {dk}) falls to "
                             "{a:.0%}.").format(h=most[0], dk=most[5],
                                                a=most[1])
        elif len(rows) > 1:
            text += " " + tr("More heads did not hurt here: h = {h} reaches {a:.0%}.").format(
                h=most[0], a=most[1])
        single = next((r for r in rows if r[0] == 1), None)
        if single is not None and best[0] != 1:
            text += " " + tr("The {pts}-point gap of h = 1 is built into the task: one head "
                             "cannot tell which item is which.").format(
                pts=f"{100 * (best[1] - single[1]):.0f}")
        return text
