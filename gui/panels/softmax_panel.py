"""Panel 1: softmax(s/T) against softmax(s/(T·√d_k)) as side-by-side bars."""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QFontMetricsF

from engine.params import SCORES_MAX

from ..style import brush, format_number, plot_font
from .base import Panel
from .items import Bars
from .label import Label
from ..i18n import tr

BAR_WIDTH = 0.38
LEGEND_SWATCH_PX = 60  # the legend's colour sample, its offset and padding



def legend_lines(entry: str, narrow: bool = False) -> str:
    """A legend entry "name: H = …, max p = …" on two lines, or on three in a narrow plot
    (on one line it is wider than the plot at a laptop's panel size, and the legend's
    colour swatches end up clipped)."""
    entry = entry.replace(": ", "<br>", 1)
    return entry.replace(", ", "<br>", 1) if narrow else entry


class SoftmaxPanel(Panel):
    def __init__(self, parent=None):
        super().__init__("softmaxPlot", parent)

    def build(self) -> None:
        self.title = self.add_title()
        self.plot = self.addPlot(row=1, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.setYRange(0, 1.75, padding=0)  # headroom for the legend
        self.legend = self.plot.addLegend(offset=(-10, 10), labelTextSize="10pt")
        empty = np.zeros(0)
        self.bars_unscaled = Bars(x=empty, height=empty, width=BAR_WIDTH)
        self.bars_scaled = Bars(x=empty, height=empty, width=BAR_WIDTH)
        self.plot.addItem(self.bars_unscaled)
        self.plot.addItem(self.bars_scaled)
        self.legend.addItem(self.bars_unscaled, "raw")
        self.legend.addItem(self.bars_scaled, "scaled")
        self._legend_px = 0.0   # set with the theme's font in restyle()
        self._narrow = None
        self.plot.vb.sigResized.connect(self._on_resized)
        self.value_labels = []
        for _ in range(2 * SCORES_MAX):
            label = Label(anchor=(0.5, 1.0))
            label.setVisible(False)
            self.plot.addItem(label, ignoreBounds=True)
            self.value_labels.append(label)
        self._count = None

    def restyle(self) -> None:
        self.style_plot(self.plot)
        self.bars_unscaled.setOpts(brush=brush(self.theme.unscaled, 220), pen=None)
        self.bars_scaled.setOpts(brush=brush(self.theme.scaled, 220), pen=None)
        font = plot_font(self.theme, 0.9)
        for label in self.value_labels:
            label.setFont(font)
            label.setColor(self.theme.foreground)
        self.style_legend(self.legend, self.theme.font_pt)
        # what a two-line legend entry needs: its colour swatch, then the statistics line
        self._legend_px = (QFontMetricsF(plot_font(self.theme))
                           .horizontalAdvance("H = 0.0000, max p = 0.0000") + LEGEND_SWATCH_PX)
        self._narrow = None

    def retranslate(self) -> None:
        self.set_title(self.title, tr("softmax: raw vs ÷√d_k"))
        self.plot.setLabel("left", tr("probability (H in nats)"))
        self.plot.setLabel("bottom", tr("key"))

    def _is_narrow(self) -> bool:
        """Would a two-line legend entry overflow the plot?"""
        return self._legend_px > self.plot.vb.width()

    def _on_resized(self, *_args) -> None:
        if self._is_narrow() != self._narrow:
            self.redraw()

    def _lift_colliding_labels(self, tops: np.ndarray, n: int) -> np.ndarray:
        """Value labels sit on their bars; where a key's two labels would overlap (both
        bars low, the numbers wider than a bar), the taller bar's label goes on top of the
        other one. `tops`: label bottoms in data units, raw bars first, then ÷√d_k."""
        vb = self.plot.vb
        (x0, x1), (y0, y1) = vb.viewRange()
        tops = tops.copy()
        if vb.width() < 1 or vb.height() < 1 or x1 <= x0 or y1 <= y0:
            return tops                      # a collapsed plot (0 px): nothing to lift
        px_x, px_y = vb.width() / (x1 - x0), vb.height() / (y1 - y0)
        for j in range(n):
            a, b = self.value_labels[j], self.value_labels[n + j]
            half_widths = (a.rect().width() + b.rect().width()) / 2
            height = max(a.rect().height(), b.rect().height())
            if half_widths > BAR_WIDTH * px_x and abs(tops[j] - tops[n + j]) * px_y < height:
                low, high = (j, n + j) if tops[j] <= tops[n + j] else (n + j, j)
                tops[high] = tops[low] + height / px_y
        return tops

    def show_results(self, results) -> None:
        sm = results.softmax
        n = sm.scores.size
        x = np.arange(n, dtype=float)
        self.bars_unscaled.setOpts(x=x - BAR_WIDTH / 2, height=sm.probs_unscaled)
        self.bars_scaled.setOpts(x=x + BAR_WIDTH / 2, height=sm.probs_scaled)
        if n != self._count:
            self._count = n
            self.plot.setXRange(-0.6, n - 0.4, padding=0)
        ticks = [(i, f"k{i + 1}\n{format_number(s)}") for i, s in enumerate(sm.scores)]
        self.set_ticks(self.plot.getAxis("bottom"), ticks)
        probs = np.concatenate([sm.probs_unscaled, sm.probs_scaled])
        xs = np.concatenate([x - BAR_WIDTH / 2, x + BAR_WIDTH / 2])
        show_values = n <= 10  # more labels than this overlap
        tops = probs + 0.01
        for i, label in enumerate(self.value_labels):
            if i < xs.size and show_values:
                label.setText(format_number(float(probs[i])))
            label.setVisible(i < xs.size and show_values)
        if show_values:
            tops = self._lift_colliding_labels(tops, n)
            for i in range(xs.size):
                self.value_labels[i].setPos(float(xs[i]), float(tops[i]))
        dk = results.params.dk
        t = results.params.temperature
        t_text = "" if t == 1 else f", T={format_number(t)}"
        self._narrow = narrow = self._is_narrow()
        self.set_text(self.legend.items[0][1], legend_lines(
            tr("raw{t}: H = {h}, max p = {m}").format(
                t=t_text, h=format_number(sm.entropy_unscaled), m=format_number(sm.max_prob_unscaled)),
            narrow))
        self.set_text(self.legend.items[1][1], legend_lines(
            tr("÷√{dk} = ÷{div}: H = {h}, max p = {m}").format(
                dk=dk, div=format_number(sm.divisor), h=format_number(sm.entropy_scaled),
                m=format_number(sm.max_prob_scaled)), narrow))
