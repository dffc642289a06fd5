"""`trainPruningPlot`: accuracy of the heads experiment's models as their heads are switched
off one at a time, least important first (Michel et al. 2019), against the fraction of heads
removed; one curve per h (the first seed's model), the paper's 20 % (WMT) and 40 % (BERT)
as dotted lines. Drawn from a HeadsResult's `pruning` (engine/training/pruning.py), which
the training process computes after the runs; items are built per h and updated in place.
Compact (presentation mode): no title and no sentences (the lesson text has them), the
legend at the plot's right. Until a run is pruned, a note in the plot says to press Start.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg

from engine.training.pruning import PAPER_PRUNING

from gui.common import names
from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.axis_names import fit_bottom_name, fit_left_name
from gui.panels.empty_note import EmptyNote
from gui.panels.paper_lines import PaperLines
from gui.panels.text_fit import MinimumHeight, ticks_between
from gui.panels.training_common import TrainingPlotBase

#: The plot's fixed tick labels: accuracy and the fraction of heads removed, 0 … 1.
TICKS = ticks_between(0.0, 1.0, 0.2)


def paper_sentence() -> str:
    return tr("Dotted: Michel et al. 2019 removed {wmt:.0%} of a WMT Transformer's heads and "
              "{bert:.0%} of BERT's without a noticeable loss.").format(
        wmt=PAPER_PRUNING[0]["fraction"], bert=PAPER_PRUNING[1]["fraction"])


def curve_text(heads: int, curve) -> str:
    """One h's curve in a sentence: every head on, and after removing as many heads as the
    paper's two fractions allow (none when h is too small)."""
    parts = []
    for entry in PAPER_PRUNING:
        k, quality = curve.at_fraction(entry["fraction"])
        if k:
            parts.append(tr("{q:.0%} with {k} of {n} removed").format(q=quality, k=k, n=heads))
    if not parts:
        return tr("h = {h}: {q0:.0%} with every head; too few heads to remove {f:.0%}.").format(
            h=heads, q0=float(curve.quality[0]), f=PAPER_PRUNING[0]["fraction"])
    return tr("h = {h}: {q0:.0%} with every head; {parts}.").format(
        h=heads, q0=float(curve.quality[0]), parts=", ".join(parts))


class PruningPlot(TrainingPlotBase):
    """`trainPruningPlot` (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_PRUNE, parent)

    def build(self) -> None:
        self.title = self.text_label()
        self.plot = self.addPlot(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.ci.layout.setColumnStretchFactor(0, 1)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setXRange(0.0, 1.0, padding=0.02)
        self.plot.setYRange(0.0, 1.02, padding=0)
        # right of its line, each a line lower than the one before: at 300 % two labels are
        # wider than the gap between their lines (placed in pixels: _place_paper_labels)
        self.paper = PaperLines(self.plot, positions=(0.93, 0.78), anchors=[(0, 0.5), (0, 0.5)])
        self.paper_lines = self.paper.lines
        for name in ("left", "bottom"):
            self.set_ticks(self.plot.getAxis(name), TICKS)
        self.curves: dict[int, pg.PlotDataItem] = {}
        self.legend = pg.LegendItem(colCount=5)
        self.side = self.side_column()
        self.info = self.text_label()
        self.note = EmptyNote(self.plot)      # under the paper's labels
        self.note.set_shown(True)
        self.plot.vb.sigResized.connect(self._place_paper_labels)
        self.shown: tuple = ()
        self.arrange()
        self.minimum_height = MinimumHeight(self, self.needed_height)

    def plot_rows(self) -> list:
        return [(self.ci, 1, self.plot)]

    def arrange(self) -> None:
        """Windowed: title, plot, legend and sentences in rows; compact: the plot with the
        legend at its right."""
        compact = self.compact
        self.place_many([(self.title, None if compact else self.ci, 0, 0),
                         (self.side, self.ci if compact else None, 1, 1),
                         (self.legend, *((self.side, 0, 0) if compact else (self.ci, 2, 0))),
                         (self.info, None if compact else self.ci, 3, 0)])
        self.ci.layout.setColumnStretchFactor(1, 0)
        self.legend.setColumnCount(1 if compact else 5)

    def forget_run(self) -> None:
        for item in self.curves.values():
            self.plot.removeItem(item)
        self.curves, self.shown = {}, ()
        self.legend.clear()
        self.note.set_shown(True)

    #: Pixels above the first paper label and between the two.
    LABEL_GAP_PX = 3.0

    def _place_paper_labels(self, *_args) -> None:
        """The paper's labels one under the other from the top of the view, whatever its
        height: at fixed shares of it (0.93, 0.78) the first one stuck out of a view less
        than about seven label heights tall (300 % text in a 720p window)."""
        height = self.plot.vb.height()
        if height <= 0:
            return
        top = self.LABEL_GAP_PX
        for line in self.paper_lines:
            label = line.label.textItem.boundingRect().height()
            line.label.setPosition(min(1.0, max(0.0, 1.0 - (top + label / 2) / height)))
            top += label + self.LABEL_GAP_PX
        self.note.set_free_top(top)

    def _fit_axes(self) -> None:
        font = plot_font(self.theme)
        fit_bottom_name(self.plot.getAxis("bottom"), font)
        fit_left_name(self.plot.getAxis("left"), font, [label for _v, label in TICKS])

    def restyle(self) -> None:
        self.style_plot(self.plot)
        self.note.set_style(self.theme)
        self.minimum_height.reset()
        self.style_legend(self.legend, self.theme.font_pt * 0.85)
        self.paper.restyle(self.theme)
        self._place_paper_labels()
        self._colour_curves()

    def _colour_curves(self) -> None:
        self.legend.clear()
        for i, (heads, item) in enumerate(sorted(self.curves.items())):
            colour = self.theme.head_colour(i)
            item.setPen(pen(colour, self.theme, 0.8))
            item.setSymbolBrush(brush(colour))
            self.legend.addItem(item, tr("h = {h}").format(h=heads))

    def retranslate(self) -> None:
        self.set_title(self.title, tr("Do we need all the heads? Accuracy as heads are "
                                      "switched off, least important first"))
        self.plot.setLabel("bottom", tr("fraction of heads removed"))
        self.plot.setLabel("left", tr("accuracy"))
        self._fit_axes()
        self.note.set_text(tr("Press Start to train."))
        self.paper.retranslate()
        self._place_paper_labels()
        self._colour_curves()
        self._say()

    def _say(self) -> None:
        size = f"{self.theme.font_pt * 0.9:.1f}pt"
        if not self.shown:
            text = tr("Train the heads experiment: after the runs, each h's first model is "
                      "pruned head by head (importance |∂loss/∂mask|, Michel et al. 2019).")
        else:
            text = "<br>".join([html.escape(curve_text(h, c)) for h, c in self.shown]
                               + [html.escape(paper_sentence())])
        self.info.setText(text, color=self.theme.foreground, size=size)
        self.minimum_height.request()

    def show_results(self, result) -> None:
        pruning = tuple(getattr(result, "pruning", ()) or ())
        if not pruning:
            return
        self.shown = pruning
        self.note.set_shown(False)
        wanted = {h for h, _ in pruning}
        for heads in [h for h in self.curves if h not in wanted]:
            self.plot.removeItem(self.curves.pop(heads))
        for heads, curve in pruning:
            item = self.curves.get(heads)
            if item is None:
                item = self.curves[heads] = pg.PlotDataItem(symbol="o", symbolSize=5)
                self.plot.addItem(item)
            item.setData(np.asarray(curve.fractions, dtype=np.float64),
                         np.asarray(curve.quality, dtype=np.float64))
        self._colour_curves()
        self._say()
