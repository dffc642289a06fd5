"""`trainHeadsChart` (HeadsVsH): the heads experiment's final accuracy and loss against h
beside the paper's Table 3 (A) dev perplexity, and a sentence computed from the finished runs.
Redrawn only when a run finishes. Windowed, the two plots stand one above the other under
the panel's title, the sentence under them; compact (presentation mode), side by side, the
title and the sentence left to the lesson text. Until a run finishes, a note in the runs'
plot says to press Start."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

from engine.training import PAPER_TABLE3_A, HeadsConfig, band

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.axis_names import fit_bottom_name
from gui.panels.empty_note import EmptyNote
from gui.panels.text_fit import MinimumHeight, layout_minimum_px, lines_px
from gui.panels.training_common import TrainingPlotBase


H_PAD = 0.4   # log₂ units of room beside the first and the last h


class HeadsVsH(TrainingPlotBase):
    """`trainHeadsChart`: final accuracy and loss against h beside the paper's Table 3 (A)."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_VS_H, parent)

    def build(self) -> None:
        self.title = self.text_label()
        self.grid = self.addLayout(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.ours_title, self.paper_title = self.text_label(), self.text_label()
        self.ours, self.paper = pg.PlotItem(enableMenu=False), pg.PlotItem(enableMenu=False)
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
        self.verdict = self.text_label()
        self.note = EmptyNote(self.ours)
        self.note.set_shown(True)
        self.arrange()
        self._drawn = None    # (steps per run, final losses of the finished runs per h) drawn
        self._show_h_axis(self.planned_heads)
        # Each plot keeps PLOT_LINES lines of tick labels, the paper's its rotated axis name.
        self.minimum_height = MinimumHeight(self, self._needed_height)

    def arrange(self) -> None:
        """Windowed: the plots one above the other (they share the narrow right-hand side
        with the heads), the title above and the sentence under them. Compact: side by side,
        neither title nor sentence."""
        grid, compact = self.grid, self.compact
        self.place(self.title, None if compact else self.ci, 0, 0)
        self.place(self.verdict, None if compact else self.ci, 2, 0)
        self.place(self.ours_title, grid, 0, 0)
        self.place(self.ours, grid, 1, 0)
        self.place(self.paper_title, grid, *((0, 1) if compact else (2, 0)))
        self.place(self.paper, grid, *((1, 1) if compact else (3, 0)))
        grid.layout.setRowStretchFactor(1, 1 if compact else 3)
        grid.layout.setRowStretchFactor(3, 0 if compact else 2)
        grid.layout.setColumnStretchFactor(0, 1)
        grid.layout.setColumnStretchFactor(1, 1 if compact else 0)

    def _needed_height(self) -> float:
        if not self.isVisible():
            return 0.0      # see TrainingPlotBase.needed_height
        fm = QFontMetricsF(plot_font(self.theme))
        left = self.paper.getAxis("left")
        name = fm.horizontalAdvance(left.labelText or "") + 8 if left.label.isVisible() else 0
        plot = lines_px(self.theme, self.PLOT_LINES)
        layout = self.grid.layout
        ours = plot + self.ours.getAxis("bottom").height()
        paper = max(plot, name) + self.paper.getAxis("bottom").height()
        if self.compact:    # one row
            layout.setRowMinimumHeight(1, max(ours, paper))
            layout.setRowMinimumHeight(3, 0)
        else:
            layout.setRowMinimumHeight(1, ours)
            layout.setRowMinimumHeight(3, paper)
        layout.invalidate()   # else the minimum below is the one before these rows
        # Windowed, a line of slack (see HeadDetail); compact, the row of plots keeps its
        # PLOT_LINES above the lines of data it must have on a projector.
        return layout_minimum_px(self) + (0 if self.compact else fm.height())

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
        self.note.set_style(self.theme)
        self._drawn = None

    def retranslate(self) -> None:
        self.set_title(self.title, tr("final quality against h (same d_model, same cost)"))
        size = f"{self.theme.font_pt:.1f}pt"
        if self.compact:    # one line each on a projector; the lesson text names the table
            ours, paper = tr("accuracy ● and loss ■"), tr("paper: dev perplexity")
        else:
            ours = tr("these runs: accuracy ● and loss ■ (nats)")
            paper = tr("paper, Table 3 (A): dev perplexity (lower is better)")
        self.ours_title.setText(ours, color=self.theme.foreground, size=size)
        self.paper_title.setText(paper, color=self.theme.foreground, size=size)
        self._drawn = None      # the verdict again, in the new language
        self.ours.setLabel("bottom", tr("heads h"))
        self.paper.setLabel("bottom", tr("heads h"))
        # Compact: the title names the paper's axis (rotated, the name needs its length).
        self.paper.setLabel("left", "" if self.compact else tr("dev perplexity"))
        self.paper.showLabel("left", not self.compact)
        for plot in (self.ours, self.paper):
            fit_bottom_name(plot.getAxis("bottom"), plot_font(self.theme))
        self.note.set_text(tr("Press Start to train: each h's final accuracy and loss are "
                              "drawn here when its runs end."), tr("Press Start to train."))
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
        self.note.set_shown(not rows)
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
