"""Panel 5: FLOPs of one full-width head against h heads, by term and by head."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from engine.cost import TERMS

from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetricsF

from ..style import brush, format_count, pen, plot_font
from .base import Panel
from .items import Bars
from .label import Label
from ..i18n import tr

BAR_WIDTH = 0.6



def term_names() -> dict:
    return {"projections": tr("Q/K/V projections"), "scores": tr("QKᵀ"),
            "softmax": tr("softmax"), "weighted_sum": tr("weights · V"), "w_o": tr("W_O")}


BAR_NAME_X = (0.0, 1.0, 2.0)  # single head, h heads, the per-head slices
MIN_WIDTH_PX = 360            # narrower, the legend covers the notes and the bar names run together


class CostPanel(Panel):
    def __init__(self, parent=None):
        super().__init__("costPlot", parent)

    def build(self) -> None:
        self.setMinimumWidth(MIN_WIDTH_PX)
        self.title = self.add_title()
        self.plot = self.addPlot(row=1, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.enableAutoRange(False)
        self.plot.setXRange(-0.6, 4.0, padding=0)  # room on the right for the legend
        self.legend = self.plot.addLegend(offset=(-10, 10), labelTextSize="9pt")
        zero = np.zeros(2)
        self.term_bars = {}
        for term in TERMS:
            bar = Bars(x=np.array([0.0, 1.0]), height=zero, y0=zero, width=BAR_WIDTH)
            self.plot.addItem(bar)
            self.legend.addItem(bar, term)
            self.term_bars[term] = bar
        # Third bar: the same multi-head total cut into h per-head slices plus W_O.
        self.head_bar = Bars(x=np.zeros(0), height=np.zeros(0), width=BAR_WIDTH)
        self.plot.addItem(self.head_bar)
        self.info = self.overlay_text(self.plot, (0, 0))
        # The bars are named by labels under the axis instead of tick strings: "8 heads"
        # changes with h, and new tick strings make pyqtgraph lay the axis out again.
        axis = self.plot.getAxis("bottom")
        axis.setTicks([[(x, "") for x in BAR_NAME_X]])
        self.bar_names = [Label(anchor=(0.5, 0.0), parent=axis) for _ in BAR_NAME_X]
        self.plot.vb.sigResized.connect(self._place_bar_names)
        axis.geometryChanged.connect(self._place_bar_names)
        self.plot.vb.sigResized.connect(self._place_legend)
        self.legend.geometryChanged.connect(self._place_legend)  # new language or text size
        self._top = None
        self._heads = None
        self._stacked = False
        self._legend_offset = (-10, 10)

    def restyle(self) -> None:
        self.style_plot(self.plot)
        self.plot.getAxis("left").enableAutoSIPrefix(True)  # GFLOP, TFLOP
        for term, bar in self.term_bars.items():
            bar.setOpts(brush=brush(self.theme.term_colour(term), 230), pen=pen(self.theme.foreground, self.theme, 0.3))
        self.style_legend(self.legend, self.theme.font_pt * 0.9)
        font = plot_font(self.theme)
        for label in self.bar_names:
            label.setColor(self.theme.foreground)
            label.setFont(font)
        axis = self.plot.getAxis("bottom")
        axis.setHeight(int(QFontMetricsF(font).lineSpacing() + 2 * Label.MARGIN + 6))
        self._place_bar_names()
        self._heads = None

    def retranslate(self) -> None:
        self.set_title(self.title, tr("cost of one attention layer"))
        self.plot.setLabel("left", tr("FLOPs per layer"), units="FLOP")
        names = term_names()
        for (sample, label), term in zip(self.legend.items, TERMS):
            label.setText(names[term])

    def _place_bar_names(self, *_args) -> None:
        """Each name under its bar: the bar's x in the view, mapped into the axis item."""
        axis, vb = self.plot.getAxis("bottom"), self.plot.vb
        for label, x in zip(self.bar_names, BAR_NAME_X):
            scene_x = vb.mapViewToScene(QPointF(x, 0)).x()
            label.setPos(axis.mapFromScene(QPointF(scene_x, 0)).x(), 4)

    def _place_legend(self, *_args) -> None:
        """The legend sits at the top right, beside the notes; where the two do not fit side
        by side it moves under the notes, and the bars get more headroom to stay clear."""
        room = self.plot.vb.width() - 30
        stacked = self.info.rect().width() + self.legend.boundingRect().width() > room
        if stacked != self._stacked:
            self._stacked = stacked
            self._top = None    # new headroom at the next show_results
            self.redraw()
        offset = (-10, 10 + (self.info.rect().height() + 4 if stacked else 0))
        if offset != self._legend_offset:
            self._legend_offset = offset
            self.legend.setOffset(offset)

    def show_results(self, results) -> None:
        single, multi = results.cost_single, results.cost_multi
        bottom = np.zeros(2)
        for term, bar in self.term_bars.items():
            heights = np.array([single.total[term], multi.total[term]], dtype=float)
            bar.setOpts(y0=bottom.copy(), height=heights)
            bottom += heights
        h = multi.heads
        per_head = float(sum(multi.per_head.values()))
        heights = np.append(np.full(h, per_head), float(multi.total["w_o"]))
        y0 = np.append(np.arange(h) * per_head, h * per_head)
        opts = {"y0": y0, "height": heights}
        if h != self._heads:  # new slice count: pass x, brushes and heights in one call
            self._heads = h
            shades = [brush("#7F7F7F", 230), brush("#BFBFBF", 230)]  # alternate so slices read apart
            thin = h > 64  # outlines would hide thin slices
            opts.update(x=np.full(h + 1, 2.0),
                        brushes=[shades[i % 2] for i in range(h)] + [brush(self.theme.term_colour("w_o"), 230)],
                        pen=pg.mkPen(None) if thin else pen(self.theme.foreground, self.theme, 0.3))
        self.head_bar.setOpts(**opts)
        headroom = 2.2 if self._stacked else 1.5  # room above the bars for the legend and notes
        top = headroom * max(single.flops, multi.flops)
        if self._top is None or not 0.9 < self._top / top < 1.1:
            self._top = top
            self.plot.setYRange(0, top, padding=0)
        for label, name in zip(self.bar_names,
                               (tr("1 head"), tr("{h} heads").format(h=h) if h > 1 else tr("1 head"), tr("per head"))):
            label.setText(name)
        share = multi.total["w_o"] / multi.flops
        self.set_text(self.info,
            tr("n = {n} tokens\n1 × {d}  vs  {h} × {dk}\nW_O: {share:.1%} of FLOPs\n"
               "params {p1} → {p2}").format(
                n=multi.seq_len, d=multi.d_model, h=h, dk=multi.d_model // h, share=share,
                p1=format_count(single.params), p2=format_count(multi.params)))
        self._place_legend()
