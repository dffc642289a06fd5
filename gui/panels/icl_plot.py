"""`trainIclPlot`: the roles experiment's loss and in-context-learning score by step, for
the 2-layer model and the 1-layer control trained beside it (engine/training/icl.py).

Left the loss, right the ICL score (late-half minus early-half loss, nats), one curve per
depth. Where a model's largest head induction score first reaches the threshold
(engine.training.roles.INDUCTION_THRESHOLD) a vertical line crosses both plots; the two
logged points around the ICL score's steepest fall are marked on both curves of that
model (on the loss: the bump that comes with the heads), for a model whose heads formed. The marks and the sentence under
the plots come from engine.training.icl.phase_change. Items are built once and updated in
place (setData / setValue). Compact (presentation mode): no title and no sentences (the
lesson text has them), the legend at the plots' right. Before a run the plots are frames
with their names and a note that says to press Start.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.training.icl import phase_change
from engine.training.roles import INDUCTION_THRESHOLD

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.axis_names import fit_bottom_name
from gui.panels.empty_note import EmptyNote
from gui.panels.text_fit import MinimumHeight
from gui.panels.training_common import TrainingPlotBase, fit_ticks, show_tick_values

DEPTHS = (2, 1)          # the model, then the control
PLOTS = ("loss", "icl_score")


def depth_name(layers: int) -> str:
    return tr("1 layer (control)") if layers == 1 else tr("{n} layers").format(n=layers)


def change_text(layers: int, change) -> str:
    """One model's phase change (engine.training.icl.PhaseChange) as a sentence (plain
    text); the steepest fall only for a model whose induction heads formed."""
    if change.induction_step is None:
        return tr("{model}: no induction head (largest induction score {ind:.2f} < {t:g}); "
                  "ICL score now {icl:.2f} nats.").format(
            model=depth_name(layers), ind=change.final_induction, t=change.threshold,
            icl=change.final_icl)
    formed = tr("induction heads from step {step} (largest induction score ≥ {t:g}, "
                "now {ind:.2f})").format(step=change.induction_step, t=change.threshold,
                                         ind=change.final_induction)
    return tr("{model}: {formed}; ICL score fell fastest from step {a} to {b} ({i0:.2f} → "
              "{i1:.2f}), loss {l0:.2f} → {l1:.2f}; ICL score now {icl:.2f} nats.").format(
        model=depth_name(layers), formed=formed, a=change.drop_from, b=change.drop_to,
        i0=change.icl_before, i1=change.icl_after, l0=change.loss_before,
        l1=change.loss_after, icl=change.final_icl)


def changes_of(snapshot) -> dict:
    """layers → PhaseChange (or None) of every run of a roles snapshot."""
    out = {}
    for run in snapshot.runs:
        c = run.curve
        if len(c.icl_score) == len(c.steps):
            out[int(run.label.get("layers", 2))] = phase_change(
                c.steps, c.icl_score, c.loss, c.induction_max, INDUCTION_THRESHOLD)
    return out


class IclPlot(TrainingPlotBase):
    """`trainIclPlot` (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_ICL, parent)

    def build(self) -> None:
        self.title = self.text_label()
        grid = self.grid = self.addLayout(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.plots, self.plot_titles = {}, {}
        for col, key in enumerate(PLOTS):
            label = self.text_label()
            grid.addItem(label, row=0, col=col)
            grid.layout.setColumnStretchFactor(col, 1)
            self.plot_titles[key] = label
            plot = grid.addPlot(row=1, col=col)
            plot.setMouseEnabled(False, False)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(x=True, y=True, alpha=0.25)
            # Tick steps that fit the text size (pyqtgraph's ran together in narrow plots).
            plot.vb.sigResized.connect(self._fit_ticks)
            plot.vb.sigRangeChanged.connect(self._fit_ticks)
            self.plots[key] = plot
        self.curves, self.lines, self.marks = {}, {}, {}
        for layers in DEPTHS:
            for key, plot in self.plots.items():
                curve = pg.PlotCurveItem()
                mark = pg.ScatterPlotItem(size=9)
                line = pg.InfiniteLine(angle=90, movable=False)
                line.hide()
                for item in (curve, mark, line):
                    plot.addItem(item)
                self.curves[layers, key], self.marks[layers, key] = curve, mark
                self.lines[layers, key] = line
        self.legend = pg.LegendItem(colCount=2)
        self.side = self.side_column()
        self.info = self.text_label()
        self.note = EmptyNote(self.plots["loss"])
        self.changes: dict = {}
        self.arrange()
        self._show_empty(True)
        self.minimum_height = MinimumHeight(self, self.needed_height)

    def plot_rows(self) -> list:
        return [(self.grid, 1, self.plots["loss"])]

    def _fit_ticks(self, *_args) -> None:
        for plot in self.plots.values():
            fit_ticks(self, plot)

    def arrange(self) -> None:
        """Windowed: title, plots, legend and sentences in rows; compact: the plots with the
        legend at their right."""
        compact = self.compact
        self.place_many([(self.title, None if compact else self.ci, 0, 0),
                         (self.side, self.grid if compact else None, 0, 2, 2, 1),
                         (self.legend, *((self.side, 0, 0) if compact else (self.ci, 2, 0))),
                         (self.info, None if compact else self.ci, 3, 0)])
        self.grid.layout.setColumnStretchFactor(2, 0)
        self.legend.setColumnCount(1 if compact else 2)

    def _show_empty(self, empty: bool) -> None:
        """Before a run: frames without tick labels, and the note."""
        for plot in self.plots.values():
            show_tick_values(plot, not empty)
            fit_bottom_name(plot.getAxis("bottom"), plot_font(self.theme))
        self.note.set_shown(empty)

    def forget_run(self) -> None:
        """Back to the empty plot (another experiment was chosen)."""
        for layers in DEPTHS:
            for key in PLOTS:
                self.curves[layers, key].setData([], [])
                self.marks[layers, key].setData([], [])
                self.lines[layers, key].hide()
        self.changes = {}
        self._show_empty(True)

    def restyle(self) -> None:
        for plot in self.plots.values():
            self.style_plot(plot)
        self._fit_ticks()
        self.note.set_style(self.theme)
        self.minimum_height.reset()
        self.style_legend(self.legend, self.theme.font_pt * 0.85)
        self.legend.clear()
        for i, layers in enumerate(DEPTHS):
            colour = self.theme.head_colour(i)
            style = Qt.PenStyle.SolidLine if layers > 1 else Qt.PenStyle.DashLine
            for key in PLOTS:
                self.curves[layers, key].setPen(pen(colour, self.theme, 0.8, style))
                self.marks[layers, key].setBrush(brush(colour))
                self.marks[layers, key].setPen(pen(self.theme.foreground, self.theme, 0.5))
                self.lines[layers, key].setPen(pen(colour, self.theme, 0.6, Qt.PenStyle.DotLine))
            self.legend.addItem(self.curves[layers, "loss"], depth_name(layers))

    def retranslate(self) -> None:
        size = f"{self.theme.font_pt:.1f}pt"
        titles = {"loss": tr("loss (nats)"),     # compact: the lesson text defines the score
                  "icl_score": tr("ICL score (nats)") if self.compact
                  else tr("ICL score: late − early loss (nats)")}
        for key, label in self.plot_titles.items():
            label.setText(titles[key], color=self.theme.foreground, size=size)
            self.plots[key].setLabel("bottom", tr("step"))
            fit_bottom_name(self.plots[key].getAxis("bottom"), plot_font(self.theme))
        self.note.set_text(tr("Press Start to train: dotted lines will mark where induction "
                              "heads form."), tr("Press Start to train."))
        self.restyle()          # the legend's names in the new language
        self.set_title(self.title, tr("in-context learning: 2 layers beside a 1-layer control"))
        self._say()

    def _say(self) -> None:
        size = f"{self.theme.font_pt * 0.9:.1f}pt"
        if not self.changes:
            text = tr("Train the roles experiment: dotted lines mark where induction heads "
                      "form, dots the ICL score's steepest fall.")
        else:
            text = "<br>".join(html.escape(change_text(layers, change))
                               for layers, change in sorted(self.changes.items(), reverse=True)
                               if change is not None)
        self.info.setText(text, color=self.theme.foreground, size=size)
        self.minimum_height.request()

    def show_results(self, snapshot) -> None:
        if snapshot.experiment != "roles":
            return
        if self.note.wanted:
            self._show_empty(False)
        self.changes = changes_of(snapshot)
        for run in snapshot.runs:
            layers = int(run.label.get("layers", 2))
            if layers not in DEPTHS or layers not in self.changes:
                continue
            c = run.curve
            x = c.steps.astype(np.float64)
            change = self.changes[layers]
            for key in PLOTS:
                y = getattr(c, key).astype(np.float64)
                self.curves[layers, key].setData(x, y)
                line, mark = self.lines[layers, key], self.marks[layers, key]
                if change is None:
                    line.hide()
                    mark.setData([], [])
                    continue
                formed = change.induction_step is not None
                line.setVisible(formed)
                if not formed:          # a steepest fall without the heads marks nothing
                    mark.setData([], [])
                    continue
                line.setValue(change.induction_step)
                before, after = ((change.loss_before, change.loss_after) if key == "loss"
                                 else (change.icl_before, change.icl_after))
                mark.setData([change.drop_from, change.drop_to], [before, after])
        self._say()
