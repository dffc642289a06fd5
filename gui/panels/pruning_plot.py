"""`trainPruningPlot`: accuracy of the heads experiment's models as their heads are switched
off one at a time, least important first (Michel et al. 2019), against the fraction of heads
removed; one curve per h (the first seed's model), the paper's 20 % (WMT) and 40 % (BERT)
as dotted lines. Drawn from a HeadsResult's `pruning` (engine/training/pruning.py), which
the training process computes after the runs; items are built per h and updated in place.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg

from engine.training.pruning import PAPER_PRUNING

from gui.common import names
from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import brush, pen
from gui.panels.base import Plot, TitleLabel
from gui.panels.paper_lines import PaperLines
from gui.panels.text_fit import MinimumHeight, layout_minimum_px, lines_px


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


class PruningPlot(Plot):
    """`trainPruningPlot` (see the module docstring)."""

    PLOT_LINES = 4

    def __init__(self, parent=None):
        super().__init__(names.TRAIN_PRUNE, parent)

    def build(self) -> None:
        self.title = self.add_title(row=0, col=0)
        self.plot = self.addPlot(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setXRange(0.0, 1.0, padding=0.02)
        self.plot.setYRange(0.0, 1.02, padding=0)
        # right of its line, each a line lower than the one before: at 300 % two labels are
        # wider than the gap between their lines
        self.paper = PaperLines(self.plot, positions=(0.93, 0.78), anchors=[(0, 0.5), (0, 0.5)])
        self.paper_lines = self.paper.lines
        self.curves: dict[int, pg.PlotDataItem] = {}
        self.legend = pg.LegendItem(colCount=5)
        self.addItem(self.legend, row=2, col=0)
        self.info = TitleLabel()
        self.addItem(self.info, row=3, col=0)
        self.shown: tuple = ()
        self.minimum_height = MinimumHeight(
            self, lambda: layout_minimum_px(self) + lines_px(self.theme, self.PLOT_LINES))

    def cache_text(self) -> None:
        """No text caches: the texts change with every run (as in training_plots)."""

    def clear_run(self) -> None:
        self.results = None
        for item in self.curves.values():
            self.plot.removeItem(item)
        self.curves, self.shown = {}, ()
        self.legend.clear()
        self.retranslate()

    def restyle(self) -> None:
        self.style_plot(self.plot)
        self.minimum_height.reset()
        self.style_legend(self.legend, self.theme.font_pt * 0.85)
        self.paper.restyle(self.theme)
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
        self.paper.retranslate()
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

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self.minimum_height.request()
