"""`modelPruningPlot`: "Do we need all the heads?" for the Real heads tab's pretrained model.
The cosine similarity of the mean-pooled sentence embedding to the unpruned one as its heads
are switched off one at a time, least important first, against the fraction of heads
removed (engine.models.pruning.prune_model; importance = the drop when a head alone is off),
with Michel et al. 2019's 20 % (WMT) and 40 % (BERT) as dotted lines (engine.literature).
Drawn from a gui.realheads.pruning PruningResult; one curve, updated in place.
"""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

from gui.common import names
from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import OKABE_ITO, brush, pen, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.paper_lines import PaperLines, paper_fractions
from gui.panels.text_fit import (MinimumHeight, fitting_step, layout_minimum_px, lines_px,
                                ticks_between)


LABEL_GAP_PX = 4.0   # between the paper lines' names, and under the lowest


def fraction_texts(result) -> list[str]:
    """The cosine after removing as many heads as each of the paper's fractions allows."""
    curve = result.curve
    n = len(curve.order)
    parts = []
    for name, fraction in paper_fractions():
        k, quality = curve.at_fraction(fraction)
        parts.append(tr("{q:.3f} with {k} of {n} heads removed ({f:.0%}, {name})").format(
            q=quality, k=k, n=n, f=fraction, name=name))
    return parts


def result_text(result) -> str:
    """The curve in a sentence: the cosine after removing as many heads as the paper's two
    fractions allow, and what importance means here."""
    curve = result.curve
    n = len(curve.order)
    parts = fraction_texts(result)
    return tr("{model} on {s} sentences: cosine similarity {parts}; {last:.3f} with all but one "
              "removed. A head's importance here is the drop in cosine when it alone is "
              "switched off (an ablation), not Michel et al.'s gradient |∂loss/∂mask|.").format(
        model=result.model_name, s=len(result.request.sentences), parts=tr("; ").join(parts),
        last=float(curve.quality[-2]) if n > 1 else float(curve.quality[-1]))


def paper_text() -> str:
    (wmt, f_wmt), (bert, f_bert) = paper_fractions()
    return tr("Dotted: Michel et al. 2019 removed {wmt:.0%} of a {a} Transformer's heads and "
              "{bert:.0%} of {b}'s at test time without a noticeable loss.").format(
        wmt=f_wmt, a=wmt, bert=f_bert, b=bert)


class ModelPruningPlot(Plot):
    """`modelPruningPlot` (see the module docstring)."""

    #: Lines of text the plot area is high at least (under them the window scrolls);
    #: ROOM_PLOT_LINES when fitting the room (presentation: the tab must not scroll).
    PLOT_LINES = 12
    ROOM_PLOT_LINES = 2

    def __init__(self, parent=None):
        super().__init__(names.MODEL_PRUNE, parent)

    def build(self) -> None:
        self.title = self.add_title(row=0, col=0)
        self.plot = self.addPlot(row=1, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setXRange(0.0, 1.0, padding=0.02)
        self.paper = PaperLines(self.plot, positions=(0.1, 0.1))
        self.paper_lines = self.paper.lines
        self.plot.vb.sigResized.connect(self._place_paper_labels)
        self.plot.vb.sigResized.connect(self._fit_cosine_ticks)
        self.y_range = (0.0, 1.02)
        self.plot.setYRange(*self.y_range, padding=0)
        self.curve = pg.PlotDataItem(symbol="o", symbolSize=4)
        self.plot.addItem(self.curve)
        self.info = TitleLabel()
        self.addItem(self.info, row=2, col=0)
        self.message = ""      # why there is no curve (an error), else ""
        self.fitting_room = False
        self.minimum_height = MinimumHeight(self, lambda: layout_minimum_px(self) + lines_px(
            self.theme, self.ROOM_PLOT_LINES if self.fitting_room else self.PLOT_LINES))

    def set_fit_room(self, on: bool) -> None:
        """Fitting the room (presentation): a smaller plot area at least, a smaller title
        that names the cosine (no axis name up a short axis), the result's numbers without
        the paragraph around them. Else PLOT_LINES and the full texts (windowed)."""
        if on != self.fitting_room:
            self.fitting_room = on
            self.retranslate()
            self.minimum_height.reset()

    def cache_text(self) -> None:
        """No text caches: the text changes with every result."""

    def restyle(self) -> None:
        self.style_plot(self.plot)
        self.minimum_height.reset()
        self.paper.restyle(self.theme)
        self._place_paper_labels()
        self._fit_cosine_ticks()
        colour = OKABE_ITO["blue"]
        self.curve.setPen(pen(colour, self.theme, 0.8))
        self.curve.setSymbolBrush(brush(colour))
        self.curve.setSymbolPen(None)

    def retranslate(self) -> None:
        title = tr("Do we need all the heads? The sentence embedding as heads are switched "
                   "off, least important first")
        if self.fitting_room:      # a smaller title; the cosine named in it, not up the axis
            self.title.setText(tr("Do we need all the heads? (cosine similarity)"),
                               color=self.theme.foreground, size=f"{self.theme.font_pt:.1f}pt")
            self._titles_shown.pop(self.title, None)
        else:
            self.set_title(self.title, title)
        self.plot.setLabel("bottom", tr("fraction of heads removed"))
        self.plot.setLabel("left", "" if self.fitting_room else tr("cosine similarity"))
        self.plot.getAxis("left").showLabel(not self.fitting_room)
        self.paper.retranslate()
        self._place_paper_labels()
        self._say()

    def _place_paper_labels(self, *_args) -> None:
        """The paper lines' names at the bottom of the view, each right of its line where
        it fits there, else as far right as it does, and one above the other where side by
        side they would overlap ('BERT: 40%' ran into 'WMT: 20%' at 300 %, or in a narrow
        plot)."""
        vb = self.plot.vb
        rect = vb.boundingRect()
        (x0, x1), _ = vb.viewRange()
        if rect.width() <= 0 or rect.height() <= 0 or x1 <= x0:
            return
        placed = []
        for line in self.paper_lines:
            size = line.label.textItem.boundingRect()
            x = (line.value() - x0) / (x1 - x0) * rect.width()
            # the anchor's share of the name left of the line: 0 while it fits right of it
            share = min(max((x + size.width() + LABEL_GAP_PX - rect.width()) / size.width(),
                            0.0), 1.0, max(x, 0.0) / size.width())
            placed.append((x - share * size.width(), size, line.label, (share, 1.0)))
        bottom, end, height = LABEL_GAP_PX, -np.inf, 0.0
        for start, size, label, anchor in sorted(placed, key=lambda p: p[0]):
            if start < end + LABEL_GAP_PX:      # beside the previous one they overlap
                bottom += height + LABEL_GAP_PX
            end, height = start + size.width(), size.height()
            label.anchors = [anchor, anchor]    # pyqtgraph picks one on every view change
            label.setPosition(min(bottom / rect.height(), 1.0))

    def _say(self) -> None:
        size = f"{self.theme.font_pt * 0.9:.1f}pt"
        result = self.results
        if self.message:
            text = html.escape(self.message)
        elif result is None or result.curve is None:   # fitting the room: the button says it
            text = " " if self.fitting_room else html.escape(tr(
                "Press “Prune heads” to switch the model's heads off one at a time (a few "
                "seconds for MiniLM).")) + "<br>" + html.escape(paper_text())
        elif self.fitting_room:
            text = html.escape(tr("; ").join(fraction_texts(result)))
        else:
            text = html.escape(result_text(result)) + "<br>" + html.escape(paper_text())
        self.info.setText(text, color=self.theme.foreground, size=size)
        self.minimum_height.request()

    def show_message(self, message: str) -> None:
        """Say why there is no curve (or, with "", go back to the curve or the hint)."""
        self.message = message
        if message:
            self.curve.setData([], [])
        self._say()

    def show_results(self, result) -> None:
        self.message = ""
        if result is None or result.curve is None:
            self.curve.setData([], [])
        else:
            quality = np.asarray(result.curve.quality, dtype=np.float64)
            self.curve.setData(np.asarray(result.curve.fractions, dtype=np.float64), quality)
            self.y_range = (float(min(0.0, quality.min())), 1.02)
            self.plot.setYRange(*self.y_range, padding=0)
            self._fit_cosine_ticks()
        self._say()

    def _fit_cosine_ticks(self, *_args) -> None:
        """Cosine ticks TICK_GAP text heights apart at least (a short plot at 300 %: 0.2,
        0.4, 0.6 and 0.8 lay on each other)."""
        low, high = self.y_range
        step = fitting_step(high - low, self.plot.vb.boundingRect().height(),
                            QFontMetricsF(plot_font(self.theme)).height())
        self.set_ticks(self.plot.getAxis("left"), ticks_between(low, high, step))

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self.minimum_height.request()
