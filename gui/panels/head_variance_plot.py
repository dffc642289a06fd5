"""The score variance of every head, per layer: a strip of dots on a log axis.

For each layer ℓ two strips of h dots, one per head: the within-row variance of the raw
scores Var(q·k) (left strip, the unscaled colour) and of the scaled scores Var(q·k/√d_k)
(right strip, the scaled colour), each the mean over query rows of the variance over that
row's keys: what softmax sees (engine.models.score_variance). A short bar marks each
strip's median. Dashed lines at d_k (the raw scores' variance for unit-variance q and k) and
at 1 (the scaled scores'): a dot far from its line is a head whose trained q, k are not
unit-variance.

Coordinates: x = ℓ ± STRIP_OFFSET for the strips, head h at x + (h/(H−1) − ½)·STRIP_WIDTH
(the same place in every layer); y = log10(variance), the axis ticks at powers of ten.

show_results takes an engine.models.ForwardResult (or None: nothing shown).
"""
from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

from gui.common.i18n import tr
from gui.common.style import brush, pen, plot_font
from gui.panels.base import Plot
from gui.panels.items import Dots
from gui.panels.text_fit import TICK_GAP, fit_bottom_axis

STRIP_OFFSET = 0.2    # of a layer's unit width: raw strip left of ℓ, scaled right
STRIP_WIDTH = 0.3     # the heads of one strip spread across this
MEDIAN_HALF = 0.17    # half the width of a median bar
#: The log axis spans at least this many decades beyond the data and the two lines.
Y_PADDING = 0.25


def strip_x(layers: int, heads: int, side: float) -> np.ndarray:
    """x (L, h) of every head's dot in the strip at ℓ + side·STRIP_OFFSET."""
    spread = (np.arange(heads) / max(heads - 1, 1) - 0.5) * STRIP_WIDTH if heads > 1 \
        else np.zeros(1)
    return np.arange(layers)[:, None] + side * STRIP_OFFSET + spread[None, :]


def decade_ticks(low: float, high: float, every: int = 1) -> list[tuple[float, str]]:
    """(log10 v, "v") for every `every`-th power of ten v (those whose exponent `every`
    divides) with log10 v in [low, high]: "0.1", "1", "1000"."""
    return [(float(k), f"{10.0 ** k:g}") for k in range(math.ceil(low - 1e-9),
                                                         math.floor(high + 1e-9) + 1)
            if k % every == 0]


def decade_step(low: float, high: float, length_px: float, text_px: float) -> int:
    """Every how many decades a tick is labelled so that labels `text_px` high stay
    TICK_GAP text heights apart along `length_px` pixels for [low, high]."""
    if length_px <= 0 or high <= low:
        return 1
    return max(1, math.ceil(TICK_GAP * text_px * (high - low) / length_px - 1e-9))


class HeadVariancePlot(Plot):
    """Per-head within-row score variance, raw and scaled, per layer (module docstring)."""

    def __init__(self, parent=None):
        super().__init__("headVariancePlot", parent)

    def build(self) -> None:
        self.title = self.add_title()
        self.plot = self.addPlot(row=1, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.enableAutoRange(False)
        self.dots = {"raw": Dots(size=7), "scaled": Dots(size=7)}
        self.medians = {"raw": pg.PlotCurveItem(connect="pairs"),
                        "scaled": pg.PlotCurveItem(connect="pairs")}
        self.d_k_line = pg.InfiniteLine(angle=0, movable=False)
        self.one_line = pg.InfiniteLine(pos=0.0, angle=0, movable=False)
        for item in (self.d_k_line, self.one_line):
            self.plot.addItem(item, ignoreBounds=True)
        for key in ("raw", "scaled"):
            self.plot.addItem(self.medians[key])
            self.plot.addItem(self.dots[key])
        self.d_k = None
        self.fitting_room = False      # presentation: see set_fit_room
        self.values: dict[str, np.ndarray] = {}   # key → (L, h) variances shown
        self.y_range: tuple[float, float] | None = None   # log10 of the variance shown
        self.plot.vb.sigResized.connect(self._label_decades)

    def restyle(self) -> None:
        self.style_plot(self.plot)
        for key, colour in (("raw", self.theme.unscaled), ("scaled", self.theme.scaled)):
            self.dots[key].setPen(None)
            self.dots[key].setBrush(brush(colour, 200))
            self.dots[key].setSize(max(7.0, self.theme.font_pt * 0.45))
            self.medians[key].setPen(pen(self.theme.foreground, self.theme, 1.0))
        self.d_k_line.setPen(pen(self.theme.unscaled, self.theme, 0.7, Qt.PenStyle.DashLine))
        self.one_line.setPen(pen(self.theme.scaled, self.theme, 0.7, Qt.PenStyle.DashLine))

    def set_fit_room(self, on: bool) -> None:
        """Fitting the room (presentation): the title at the text size, not above it, and
        no axis name under the layers' L0, L1, …: a short plot keeps its dots."""
        if on != self.fitting_room:
            self.fitting_room = on
            self.retranslate()

    def retranslate(self) -> None:
        self._set_title()
        self.plot.setLabel("left", tr("variance"))   # log-spaced ticks: 0.1, 1, 10, …
        self.plot.setLabel("bottom", "" if self.fitting_room else tr("layer"))
        self.plot.getAxis("bottom").showLabel(not self.fitting_room)
        # A height from the font, named or not. pyqtgraph's own is the largest tick label
        # it has seen plus 0.8 of the name, and puts the name a fifth of its height over
        # the ticks: in Japanese at 300 % '層' lay on 'L2' unless a larger tick label had
        # been drawn before (the text-overlap test failed run on its own).
        fit_bottom_axis(self.plot.getAxis("bottom"), plot_font(self.theme))

    def _label_decades(self, *_args) -> None:
        """Tick labels at every k-th power of ten, k such that they never overlap (a short
        plot at large text: 1, 10, 100 and 1000 lay on each other)."""
        if self.y_range is None:
            return
        low, high = self.y_range
        every = decade_step(low, high, self.plot.vb.boundingRect().height(),
                            QFontMetricsF(plot_font(self.theme)).height())
        self.set_ticks(self.plot.getAxis("left"), decade_ticks(low, high, every))

    def _set_title(self) -> None:
        title = tr("Each head's score variance within rows (a dot per head)")
        d_k = "d_k" if self.d_k is None else f"d_k = {self.d_k}"
        entries = [(self.theme.unscaled, "●", tr("Var(q·k)")),
                   (self.theme.scaled, "●", tr("Var(q·k/√d_k)")),
                   (self.theme.unscaled, "╌╌", d_k),
                   (self.theme.scaled, "╌╌", "1"),
                   (self.theme.foreground, "━", tr("median"))]
        key = "&nbsp;&nbsp; ".join(
            f"<span style='color:{colour}'>{mark}</span>&nbsp;"
            + html.escape(text).replace(" ", "&nbsp;") for colour, mark, text in entries)
        text = (f"{html.escape(title)}<br><span style='font-size:"
                f"{self.theme.font_pt * 0.85:.1f}pt'>{key}</span>")
        if not self.fitting_room:
            self.set_title(self.title, text)
        elif self._titles_shown.get(self.title) != (text, self.theme.font_pt):
            self._titles_shown[self.title] = (text, self.theme.font_pt)   # not set_title's
            self.title.setText(text, color=self.theme.foreground,
                               size=f"{self.theme.font_pt:.1f}pt")

    def show_results(self, forward) -> None:
        """A model's per-head variances, or None: no model (nothing of an earlier model's:
        no dots, no d_k line, no layer names)."""
        if forward is None:
            for key in ("raw", "scaled"):
                self.dots[key].setData(x=np.zeros(0), y=np.zeros(0))
                self.medians[key].setData(x=np.zeros(0), y=np.zeros(0))
            self.values = {}
            self.y_range = None
            self.d_k = None
            self.d_k_line.hide()
            self.set_ticks(self.plot.getAxis("bottom"), [])
            self._set_title()
            return
        self.d_k_line.show()
        self.d_k = forward.d_k
        self.values = {"raw": np.asarray(forward.head_within_row_variance),
                       "scaled": np.asarray(forward.head_scaled_within_row_variance)}
        layers, heads = self.values["raw"].shape
        logs = []
        for key, side in (("raw", -1.0), ("scaled", 1.0)):
            # a head with no spread at all (one token) has no logarithm: drawn at the floor
            v = np.maximum(self.values[key], np.finfo(np.float64).tiny)
            y = np.log10(v)
            logs.append(y)
            x = strip_x(layers, heads, side)
            self.dots[key].setData(x=x.ravel(), y=y.ravel())
            centre = np.arange(layers) + side * STRIP_OFFSET
            median = np.log10(np.maximum(np.median(v, axis=1), np.finfo(np.float64).tiny))
            self.medians[key].setData(
                x=np.column_stack([centre - MEDIAN_HALF, centre + MEDIAN_HALF]).ravel(),
                y=np.repeat(median, 2))
        self.d_k_line.setValue(math.log10(forward.d_k))
        finite = np.concatenate([y.ravel() for y in logs])
        finite = finite[finite > -300]
        low = min(0.0, float(finite.min()) if finite.size else 0.0) - Y_PADDING
        high = max(math.log10(forward.d_k), float(finite.max()) if finite.size else 0.0) \
            + Y_PADDING
        self.plot.setXRange(-0.5, layers - 0.5, padding=0)
        self.plot.setYRange(low, high, padding=0)
        self.y_range = (low, high)
        self._label_decades()
        self.set_ticks(self.plot.getAxis("bottom"), [(float(i), f"L{i}") for i in range(layers)])
        self._set_title()
