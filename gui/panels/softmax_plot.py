"""Plot 1: softmax(s/T) against softmax(s/(T·√d_k)) as side-by-side bars.

The probability axis ends at 1 (a little room above it for the value labels, no tick
beyond 1); the legend, with each side's entropy in nats, has a row of its own above the plot.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QSizePolicy

from engine.params import SCORES_MAX

from gui.common.style import brush, format_number, plot_font
from gui.panels.base import Plot
from gui.panels.items import Bars
from gui.panels.label import Label
from gui.panels.text_fit import (MinimumHeight, fit_bottom_axis, fitting_step, layout_minimum_px, lines_px,
                       ticks_between)
from gui.common.i18n import tr

BAR_WIDTH = 0.38
LABEL_GAP_PX = 2       # between a lifted value label and the one under it
#: Side by side, value labels keep this share of their height apart (a space, at any size).
LABEL_GAP_X_SHARE = 0.25
LEGEND_SWATCH_PX = 60  # the legend's colour sample, its offset and padding
Y_TOP_MIN, Y_TOP_MAX = 1.08, 1.6   # probabilities ≤ 1; above 1 only a value label's room
PROBABILITY_TICKS = [(v, f"{v:g}") for v in (0.0, 0.25, 0.5, 0.75, 1.0)]



def legend_lines(entry: str, narrow: bool = False) -> str:
    """A legend entry "name: H = …, max p = …" on two lines, or on three in a narrow plot
    (on one line it is wider than the plot at a laptop's panel size, and the legend's
    colour swatches end up clipped)."""
    entry = re.sub(r"[:：]\s*", "<br>", entry, count=1)        # Japanese writes ":" unspaced
    return re.sub(r",\s*|、", "<br>", entry, count=1) if narrow else entry


class SoftmaxPlot(Plot):
    """Tall room: title, legend row, bars. Wide room (a projector): the legend in a column
    beside the bars, one entry above the other."""

    ARRANGES = True
    #: The bars (with their axis) keep this share of a wide panel's width; the legend the
    #: rest, in LEGEND_WIDE_FACTOR × the plot text.
    WIDE_PLOT_SHARE = 0.7
    LEGEND_WIDE_FACTOR = 0.8

    def __init__(self, parent=None):
        super().__init__("softmaxPlot", parent)

    def build(self) -> None:
        self.title = self.add_title()
        self.legend = pg.LegendItem(labelTextSize="10pt", colCount=2)
        self.addItem(self.legend, row=1, col=0)
        self.plot = self.addPlot(row=2, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self._y_top = Y_TOP_MIN
        self.plot.setYRange(0, self._y_top, padding=0)
        self.plot.getAxis("left").setTicks([PROBABILITY_TICKS, []])
        empty = np.zeros(0)
        self.bars_unscaled = Bars(x=empty, height=empty, width=BAR_WIDTH)
        self.bars_scaled = Bars(x=empty, height=empty, width=BAR_WIDTH)
        self.plot.addItem(self.bars_unscaled)
        self.plot.addItem(self.bars_scaled)
        self.legend.addItem(self.bars_unscaled, "raw")
        self.legend.addItem(self.bars_scaled, "scaled")
        self._legend_px = 0.0   # set with the theme's font in restyle()
        self._narrow = None
        self._vb_size = None
        self.plot.vb.sigResized.connect(self._on_resized)
        # the plot: four probability ticks and a stack of lifted value labels (tall), or
        # three ticks and a label (wide: a projector's short room)
        self.minimum_height = MinimumHeight(self, self._needed_height)
        self.plot.vb.sigResized.connect(self.minimum_height.request)
        self.value_labels = []
        for _ in range(2 * SCORES_MAX):
            label = Label(anchor=(0.5, 1.0))
            label.setVisible(False)
            self.plot.addItem(label, ignoreBounds=True)
            self.value_labels.append(label)
        self._count = None

    def restyle(self) -> None:
        self.minimum_height.reset()
        self.style_plot(self.plot)
        self.bars_unscaled.setOpts(brush=brush(self.theme.unscaled, 220), pen=None)
        self.bars_scaled.setOpts(brush=brush(self.theme.scaled, 220), pen=None)
        font = plot_font(self.theme, 0.9)
        for label in self.value_labels:
            label.setFont(font)
            label.setColor(self.theme.foreground)
        legend_factor = self.LEGEND_WIDE_FACTOR if self.wide else 1.0
        self.style_legend(self.legend, self.theme.font_pt * legend_factor)
        # what a two-line legend entry needs: its colour swatch, then the statistics line
        self._legend_px = (QFontMetricsF(plot_font(self.theme, legend_factor))
                           .horizontalAdvance("H = 0.0000 nats, max p = 0.0000") + LEGEND_SWATCH_PX)
        self._narrow = None

    def retranslate(self) -> None:
        self.set_title(self.title, tr("softmax: raw vs ÷√d_k"))
        self.plot.setLabel("left", tr("probability"))
        self.plot.setLabel("bottom", tr("key"))
        fit_bottom_axis(self.plot.getAxis("bottom"), plot_font(self.theme), tick_lines=2)

    def _needed_height(self) -> float:
        """The grid's minimum and room for the bars: 7 lines of text (four probability
        ticks and a stack of lifted value labels), or, wide, 3 lines (three ticks and a
        label) beside a legend that may be taller than the plot's axes."""
        if not self.wide:
            return layout_minimum_px(self) + lines_px(self.theme, 7)
        minimum = Qt.SizeHint.MinimumSize
        beside = self.legend.effectiveSizeHint(minimum).height() - \
            self.plot.effectiveSizeHint(minimum).height()
        return layout_minimum_px(self) + max(0.0, lines_px(self.theme, 3) - max(0.0, beside))

    def arrange(self, wide: bool) -> None:
        """The legend in row 1 above the bars, or (wide) in column 1 beside them."""
        layout = self.ci
        for item in (self.title, self.legend, self.plot):
            layout.removeItem(item)
        layout.addItem(self.title, row=0, col=0, colspan=2 if wide else 1)
        if wide:
            layout.addItem(self.plot, row=1, col=0)
            layout.addItem(self.legend, row=1, col=1)
            # its own size, at the left of its column: stretched, pyqtgraph's legend grid
            # put the swatches far from their names
            self.legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            layout.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignLeft |
                                       Qt.AlignmentFlag.AlignVCenter)
            layout.layout.setColumnStretchFactor(0, round(100 * self.WIDE_PLOT_SHARE))
            layout.layout.setColumnStretchFactor(1, round(100 * (1 - self.WIDE_PLOT_SHARE)))
        else:
            self.legend.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            layout.addItem(self.legend, row=1, col=0)
            layout.addItem(self.plot, row=2, col=0)
            layout.layout.setColumnStretchFactor(1, 0)
        self.restyle()

    def _is_narrow(self) -> bool:
        """Would one two-line legend entry overflow the panel (or, wide, its column)? (Then
        it takes three.)"""
        room = self.width() * (1 - self.WIDE_PLOT_SHARE) if self.wide else self.width()
        return self._legend_px > room - 20

    def _legend_columns(self) -> int:
        """Two entries side by side where they fit, else one above the other (always,
        beside the bars)."""
        return 2 if not self.wide and 2 * self._legend_px <= self.width() - 20 else 1

    def y_top(self) -> float:
        """Top of the probability axis: 1 plus the height of a value label on a bar at p = 1,
        T ≥ 1 / (1 − label px / plot px) (ticks stop at 1)."""
        label_px = self.value_labels[0].rect().height() + 4
        plot_px = self.plot.vb.height()
        if plot_px <= 0:
            return Y_TOP_MIN
        top = min(Y_TOP_MAX, max(Y_TOP_MIN, 1.0 / max(1.0 - label_px / plot_px, 1e-3)))
        return math.ceil(top * 50 - 1e-9) / 50   # steps of 0.02: the same size, the same axis

    def _fit_y(self) -> None:
        top = self.y_top()
        if top != self._y_top:
            self._y_top = top
            self.plot.setYRange(0, top, padding=0)

    def _on_resized(self, *_args) -> None:
        self._fit_y()
        size = (round(self.plot.vb.width()), round(self.plot.vb.height()))
        # The value labels are placed in pixels (lifted, kept inside): a new size moves them.
        if (self._is_narrow(), self._legend_columns()) != self._narrow or size != self._vb_size:
            self._vb_size = size
            self.redraw()

    def _fit_y_ticks(self) -> None:
        """Probability ticks 0.25 apart where the plot's height leaves them readable, else
        0.5 or 1 apart (short plots at large text)."""
        text_px = QFontMetricsF(plot_font(self.theme)).height()
        step = fitting_step(self._y_top, self.plot.vb.height(), text_px, minimum=0.25)
        ticks = ticks_between(0.0, 1.0, step if step in (0.25, 0.5) else 1.0)
        self.set_ticks(self.plot.getAxis("left"), ticks)

    def _keep_inside(self, xs: np.ndarray) -> np.ndarray:
        """Label centres moved in so that each label lies inside the plot's width."""
        vb = self.plot.vb
        x0, x1 = vb.viewRange()[0]
        if not vb.width() > 0 or x1 <= x0:
            return xs
        per_px = (x1 - x0) / vb.width()
        halves = np.array([self.value_labels[i].rect().width() / 2 for i in range(xs.size)]) * per_px
        return np.clip(xs, x0 + halves, np.maximum(x0 + halves, x1 - halves))

    def _lift_colliding_labels(self, tops: np.ndarray, xs: np.ndarray) -> np.ndarray:
        """Value labels sit on their bars; a label that would overlap one already placed
        (low bars side by side, numbers wider than a bar: a key's two labels, or one key's
        ÷√d_k label and the next key's raw label) goes on top of it. Lowest labels are
        placed first. `tops`: label bottoms in data units; `xs`: their centres."""
        vb = self.plot.vb
        (x0, x1), (y0, y1) = vb.viewRange()
        tops = tops.copy()
        if not (vb.width() > 0 and vb.height() > 0) or x1 <= x0 or y1 <= y0:
            return tops                      # not laid out yet, or collapsed to 0 px
        px_x, px_y = vb.width() / (x1 - x0), vb.height() / (y1 - y0)
        sizes = [(self.value_labels[i].rect().width(), self.value_labels[i].rect().height())
                 for i in range(xs.size)]
        placed: list[int] = []
        for i in np.argsort(tops, kind="stable"):
            moved, rounds = True, 0
            while moved and rounds <= len(placed):       # each round lifts i above one label
                moved, rounds = False, rounds + 1
                for j in placed:
                    apart_x = abs(xs[i] - xs[j]) * px_x >= (sizes[i][0] + sizes[j][0]) / 2 \
                        + LABEL_GAP_X_SHARE * sizes[i][1]
                    below = (tops[i] - tops[j]) * px_y >= sizes[j][1] + LABEL_GAP_PX / 2
                    above = (tops[j] - tops[i]) * px_y >= sizes[i][1] + LABEL_GAP_PX / 2
                    if not (apart_x or below or above):
                        tops[i] = tops[j] + (sizes[j][1] + LABEL_GAP_PX) / px_y
                        moved = True
            placed.append(int(i))
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
        self._fit_y()
        self._fit_y_ticks()
        if show_values:
            xs = self._keep_inside(xs)
            tops = self._lift_colliding_labels(tops, xs)
            vb = self.plot.vb
            px_y = vb.height() / self._y_top if vb.height() > 0 else 0.0
            for i in range(xs.size):
                label = self.value_labels[i]
                label.setPos(float(xs[i]), float(tops[i]))
                # a label lifted over the top of the axis (a short plot): not drawn half cut off
                fits = px_y > 0 and tops[i] + label.rect().height() / px_y <= self._y_top
                label.setVisible(bool(fits))
        dk = results.params.dk
        t = results.params.temperature
        t_text = "" if t == 1 else f", T={format_number(t)}"
        narrow, columns = self._is_narrow(), self._legend_columns()
        self._narrow = (narrow, columns)
        if self.legend.columnCount != columns:
            self.legend.setColumnCount(columns)
        self.set_text(self.legend.items[0][1], legend_lines(
            tr("raw{t}: H = {h} nats, max p = {m}").format(
                t=t_text, h=format_number(sm.entropy_unscaled), m=format_number(sm.max_prob_unscaled)),
            narrow))
        self.set_text(self.legend.items[1][1], legend_lines(
            tr("÷√{dk} = ÷{div}: H = {h} nats, max p = {m}").format(
                dk=dk, div=format_number(sm.divisor), h=format_number(sm.entropy_scaled),
                m=format_number(sm.max_prob_scaled)), narrow))
