"""Plot 2: histograms of sampled q·k, raw and ÷√d_k, with the theory density.

For ±1 (Rademacher) components at small d_k the law lives on a lattice coarser than the
bins: the exact pmf is drawn as stems of height P(x)/bin width (the density a bin holding
that one lattice point has), not as a normal curve. For normal components at d_k = 1 the
exact density diverges at 0: the axis is fitted to the histogram and the text says so.
The title carries the legend (histogram, theory, the ±2σ² band).
"""
from __future__ import annotations

import html

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem

from gui.common.style import brush, format_number, pen, plot_font
from gui.panels.base import Plot, SideNotes
from gui.panels.text_fit import MinimumHeight, fit_bottom_axis, layout_minimum_px, lines_px, wrap_lines
from gui.common.i18n import tr



def nice_ceiling(x: float) -> float:
    """Smallest of 1, 2, 5 × 10^k that is ≥ x (x > 0)."""
    exponent = math.floor(math.log10(x))
    for step in (1, 2, 5, 10):
        if step * 10.0**exponent >= x * (1 - 1e-12):
            return step * 10.0**exponent
    return 10.0 ** (exponent + 1)


def nice_step_below(nice: float) -> float:
    """The 1-2-5 value just below `nice` (itself a 1-2-5 value): 1 → 0.5, 2 → 1, 5 → 2."""
    mantissa = round(nice / 10.0 ** math.floor(math.log10(nice) + 1e-12))
    return nice * {1: 0.5, 2: 0.5, 5: 0.4}[mantissa]


RAW_HEADROOM = 1.25     # at least: top of the density axis over the tallest peak it must hold
SCALED_HEADROOM = 2.0   # at least, for the scaled histogram (it spans the plot's width)
TEXT_GAP_PX = 4         # between the statistics text and the tallest peak


def text_headroom(text_px: float, plot_px: float, minimum: float) -> float:
    """Headroom (top of the axis / tallest peak) that keeps a peak below a text band
    `text_px` high at the top of a plot `plot_px` high."""
    if plot_px <= 0:
        return minimum
    free = max(1 - (text_px + TEXT_GAP_PX) / plot_px, 0.25)  # a tiny plot: the text may overlap
    return max(minimum, 1 / free)


def density_top(edge: float, half: float, peak: float, headroom: float = RAW_HEADROOM) -> float:
    """Top of the density axis for a histogram on [−edge, edge] shown on [−half, half].

    A density's peak times its width is the same for every d_k and σ (peak ∝ 1/std,
    edge ∝ std), so the top is chosen for the narrowest histogram that still rounds up to
    this `half`: it stays fixed while `half` does, and the flattening of the raw histogram
    as d_k grows stays visible instead of being rescaled away."""
    return headroom * peak * edge / nice_step_below(half)


#: The scaled histogram's y axis is fitted again when its peak falls below this share of
#: the peak it was fitted to.
SCALED_FLAT_SHARE = 0.7


class HistogramItem(QGraphicsPathItem):
    """A filled step outline of a histogram, painted by Qt without calling into Python.
    `edges` (n + 1) and `density` (n) are kept for reading back."""

    def __init__(self):
        super().__init__()
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.edges = np.zeros(1)
        self.density = np.zeros(0)

    def set_histogram(self, edges: np.ndarray, density: np.ndarray) -> None:
        self.edges, self.density = edges, density
        x = np.repeat(edges, 2)                               # x0 x0 x1 x1 … xn xn
        y = np.concatenate([[0.0], np.repeat(density, 2), [0.0]])
        self.setPath(pg.arrayToQPath(x, y, connect="all"))

    def dataBounds(self, *_args, **_kwargs):  # noqa: N802 (the panel sets the ranges itself)
        return [None, None]


class VariancePlot(Plot):
    """Tall room: the title with the legend, the two histograms one above the other, each
    with its statistics at its top (a headroom keeps the peaks below them). Wide room (a
    projector): the histograms side by side and the legend and statistics in a column
    beside them (SideNotes), never on the data."""

    ARRANGES = True
    #: In a wide panel the notes column takes this share of the width.
    NOTES_SHARE = 0.24

    def __init__(self, parent=None):
        super().__init__("variancePlot", parent)

    def build(self) -> None:
        self.title = self.add_title()
        self.plot_raw = self.addPlot(row=1, col=0)
        self.plot_scaled = self.addPlot(row=2, col=0)
        self.hist = {}
        self.theory = {}
        self.stems, self.stem_tops = {}, {}
        for key, plot in (("raw", self.plot_raw), ("scaled", self.plot_scaled)):
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
            plot.enableAutoRange(False)
            self.hist[key] = HistogramItem()
            self.theory[key] = pg.PlotCurveItem()
            self.stems[key] = pg.PlotCurveItem(connect="pairs")
            self.stem_tops[key] = pg.ScatterPlotItem(size=5)
            plot.addItem(self.hist[key])
            plot.addItem(self.theory[key])
            plot.addItem(self.stems[key])
            plot.addItem(self.stem_tops[key])
        # The spread that ÷√d_k restores (±2σ²), drawn on the raw axis for comparison.
        # A plain rect item: Qt paints it without calling into Python.
        self.unit_band = QGraphicsRectItem()
        self.unit_band.setPen(QPen(Qt.PenStyle.NoPen))
        self.plot_raw.addItem(self.unit_band, ignoreBounds=True)
        self.stats_raw = self.overlay_text(self.plot_raw)
        self.stats_scaled = self.overlay_text(self.plot_scaled)
        self.stats = {"raw": self.stats_raw, "scaled": self.stats_scaled}
        self.notes = SideNotes()           # the legend and statistics, beside (wide)
        self._stats_text = {"raw": "", "scaled": ""}
        self._ranges = {"raw": None, "scaled": None}
        self._plot_heights = None
        # each plot: its statistics and two lines of histogram below them; wide, three
        # lines of histogram (the statistics are beside them)
        self.minimum_height = MinimumHeight(
            self, lambda: layout_minimum_px(self) + (lines_px(self.theme, 3) if self.wide else sum(
                label.rect().height() + lines_px(self.theme, 2) for label in self.stats.values())))
        for plot in (self.plot_raw, self.plot_scaled):
            plot.vb.sigResized.connect(self._on_resized)
            plot.vb.sigResized.connect(self.minimum_height.request)

    def _on_resized(self, *_args) -> None:
        """New plot sizes: the statistics wrap again and the headroom above the histograms
        is chosen again."""
        heights = tuple(round(x) for p in (self.plot_raw, self.plot_scaled)
                        for x in (p.vb.width(), p.vb.height()))     # widths: the text wraps
        if heights != self._plot_heights:
            self._plot_heights = heights
            self._ranges = {"raw": None, "scaled": None}
            if self.wide:
                self.notes.refit(from_largest=True)
            self.redraw()

    def arrange(self, wide: bool) -> None:
        """The histograms in a column (tall) or side by side with the notes beside them."""
        layout = self.ci
        for item in (self.title, self.plot_raw, self.plot_scaled, self.notes):
            if item in layout.items:
                layout.removeItem(item)
        grid = layout.layout
        if wide:
            layout.addItem(self.title, row=0, col=0, colspan=3)
            layout.addItem(self.plot_raw, row=1, col=0)
            layout.addItem(self.plot_scaled, row=1, col=1)
            layout.addItem(self.notes, row=1, col=2)
            # half a line under the title: a tick label at the top of a density axis
            # reaches that far above its plot
            grid.setRowSpacing(0, lines_px(self.theme, 0.5))
            share = round(100 * (1 - self.NOTES_SHARE) / 2)
            for column, stretch in enumerate((share, share, round(100 * self.NOTES_SHARE))):
                grid.setColumnStretchFactor(column, stretch)
        else:
            layout.addItem(self.title, row=0, col=0)
            layout.addItem(self.plot_raw, row=1, col=0)
            layout.addItem(self.plot_scaled, row=2, col=0)
            for column in (1, 2):
                grid.setColumnStretchFactor(column, 0)
            grid.setRowSpacing(0, grid.verticalSpacing())
        for label in self.stats.values():
            label.setVisible(not wide)
        self.plot_scaled.getAxis("left").showLabel(not wide)     # see retranslate()
        self._ranges = {"raw": None, "scaled": None}

    def restyle(self) -> None:
        self.minimum_height.reset()
        if self.wide:        # the gap under the title follows the text size
            self.ci.layout.setRowSpacing(0, lines_px(self.theme, 0.5))
        self.unit_band.setBrush(brush(self.theme.scaled, 50))
        for plot in (self.plot_raw, self.plot_scaled):
            self.style_plot(plot)
        for key, colour in (("raw", self.theme.unscaled), ("scaled", self.theme.scaled)):
            self.hist[key].setBrush(brush(colour, 110))
            self.theory[key].setPen(pen(self.theme.foreground, self.theme, 0.5, Qt.PenStyle.DashLine))
            self.stems[key].setPen(pen(self.theme.foreground, self.theme, 0.8))
            self.stem_tops[key].setPen(None)
            self.stem_tops[key].setBrush(brush(self.theme.foreground, 255))
        if self.results is not None:
            self._set_title(self.results.variance)

    def retranslate(self) -> None:
        if self.results is not None:
            self._set_title(self.results.variance)
        else:
            self.set_title(self.title, tr("q·k: raw and ÷√d_k"))
        self.plot_raw.setLabel("bottom", tr("q·k"))
        self.plot_scaled.setLabel("bottom", tr("q·k / √d_k"))
        for plot in (self.plot_raw, self.plot_scaled):
            fit_bottom_axis(plot.getAxis("bottom"), plot_font(self.theme))
        for plot in (self.plot_raw, self.plot_scaled):
            plot.setLabel("left", tr("density"))
        # side by side the scaled histogram's density axis is read against the raw one's name
        self.plot_scaled.getAxis("left").showLabel(not self.wide)
        self.unit_band.setToolTip(tr("the ±2σ² width that ÷√d_k restores"))

    def _set_range(self, key: str, plot, edge: float, peak: float) -> None:
        """x on a 1-2-5 ladder. The raw histogram's width follows d_k, so its y axis comes
        from density_top and both axes (and their ticks) change only when d_k crosses a
        step, which also makes the widening read as jumps of the axis. The scaled one keeps
        its width for every d_k: its y axis just fits its peak. Either way the tallest peak
        stays below the statistics text at the top (text_headroom). y is recomputed early
        only if the histogram would not fit or would look flat (a discrete distribution)."""
        half = nice_ceiling(edge)
        # a line more or less moves the top (wide: the statistics are beside the plot)
        text_px = 0.0 if self.wide else self.stats[key].rect().height()
        old = self._ranges[key]
        headroom = text_headroom(text_px, plot.vb.height(),
                                 RAW_HEADROOM if key == "raw" else SCALED_HEADROOM)
        # "flat" is relative to the headroom: a short plot under a tall text has a high top.
        # The raw plot tolerates a peak down to a third of its fit (its axes move in steps);
        # the scaled one, whose bell has the same height at every d_k but the smallest, only
        # to FLAT_SHARE of it, so a tall d_k = 1 axis does not stay behind.
        if old is not None:
            share = 1 / 3 if key == "raw" else SCALED_FLAT_SHARE
            flat = share * old[1] / headroom
        if (old is None or old[0] != half or not flat < 1.1 * peak < old[1]
                or old[2] != text_px):
            top = (density_top(edge, half, peak, headroom) if key == "raw"
                   else headroom * peak)
            plot.setXRange(-half, half, padding=0)
            plot.setYRange(0, top, padding=0)
            self._ranges[key] = (half, top, text_px)

    def _set_band(self, sigma2: float) -> None:
        """±2σ² over the raw plot's full height (set again only when σ or the range moves)."""
        rect = QRectF(-2 * sigma2, 0, 4 * sigma2, self._ranges["raw"][1])
        if rect != self.unit_band.rect():
            self.unit_band.setRect(rect)

    def _set_stats(self, key: str, text: str) -> None:
        """The statistics on as few lines as the plot's width allows: a first line too
        wide for it breaks after its first ": ", and any line still too wide at its spaces.
        (Wide: they are kept for the notes beside the plots, _show_notes.)"""
        self._stats_text[key] = text
        if self.wide:
            return
        plot = self.plot_raw if key == "raw" else self.plot_scaled
        width = plot.vb.width() - 8
        if self.stats[key].width_of(text) > width:
            text = wrap_lines(text.replace(": ", "\n", 1), width, self.stats[key].width_of)
        self.set_text(self.stats[key], text)
        self.minimum_height.request()

    @staticmethod
    def theory_label(v) -> str:
        return {"exact": tr("exact density"), "exact pmf": tr("exact pmf")}.get(
            v.theory_kind, tr("normal approx."))

    def _legend_entries(self, v, glued: bool = True) -> list[str]:
        """The legend's entries as HTML: histogram, theory, ±2σ² band (`glued`: each on
        one line)."""
        entries = [(self.theme.unscaled, "■", tr("sampled")),
                   (self.theme.foreground, "┆" if v.theory_kind == "exact pmf" else "╌╌",
                    self.theory_label(v)),
                   (self.theme.scaled, "■", tr("±2σ² band: the spread ÷√d_k keeps"))]
        return [f"<span style='color:{colour}'>{mark}</span>&nbsp;"
                + html.escape(text).replace(" ", "&nbsp;" if glued else " ")
                for colour, mark, text in entries]

    def _set_title(self, v) -> None:
        """Title and, on its second line, the legend (wide: the title alone; the legend is
        in the notes)."""
        title = tr("q·k: raw and ÷√d_k")
        if self.wide:
            self.set_title(self.title, title)
            return
        key = "&nbsp;&nbsp; ".join(self._legend_entries(v))
        self.set_title(self.title, f"{title}<br><span style='font-size:{self.theme.font_pt * 0.85:.1f}pt'>{key}</span>")

    def _show_notes(self, v) -> None:
        """The legend and both histograms' statistics beside the plots (wide)."""
        stats = "<br><br>".join(html.escape(self._stats_text[key]).replace("\n", "<br>")
                                for key in ("raw", "scaled"))
        self.notes.show_notes("<br>".join(self._legend_entries(v, glued=False)) + "<br><br>" + stats,
                              self.theme.foreground, self.theme.font_pt)

    @staticmethod
    def stem_heights(pmf, edges: np.ndarray) -> np.ndarray:
        """P(x)/w for bins of width w: each bin then holds at most one lattice point, and
        this is the density the histogram's bin at x has in expectation."""
        return pmf.prob / float(edges[1] - edges[0])

    def _set_stems(self, key: str, pmf, edges: np.ndarray) -> float:
        """Stems of the exact pmf (or none); returns their tallest top. Without stems the
        two items are emptied once and hidden: an empty pyqtgraph curve or scatter item
        still works out its bounds and paints nothing on every repaint."""
        stems, tops = self.stems[key], self.stem_tops[key]
        if pmf is None:
            if stems.isVisible():
                stems.setData(x=np.zeros(0), y=np.zeros(0))
                tops.setData(x=np.zeros(0), y=np.zeros(0))
                stems.setVisible(False)
                tops.setVisible(False)
            return 0.0
        heights = self.stem_heights(pmf, edges)
        xs = np.repeat(pmf.x, 2)
        ys = np.column_stack([np.zeros_like(heights), heights]).ravel()
        stems.setData(x=xs, y=ys)
        tops.setData(x=pmf.x, y=heights)
        stems.setVisible(True)
        tops.setVisible(True)
        return float(heights.max()) if heights.size else 0.0

    def show_results(self, results) -> None:
        v = results.variance
        sigma = results.params.sigma
        sigma2 = sigma ** 2
        self._set_title(v)
        # The texts first: their height decides the headroom of the density axes.
        # σ = 1 is the plain case; any other σ is spelled out, so the d_k·σ⁴ is seen to move.
        theory = format_number(v.theory_unscaled) if sigma == 1 else \
            f"{v.dk}·{sigma:g}⁴ = {format_number(v.theory_unscaled)}"
        raw = tr("raw, d_k = {dk}: Var = {var} ± {se}\ntheory d_k·σ⁴ = {th}").format(
            dk=v.dk, var=format_number(v.empirical_unscaled), se=format_number(v.stderr_unscaled),
            th=theory)
        if not v.theory_bounded:
            raw += "\n" + tr("exact density → ∞ at 0 (no finite peak)")
        self._set_stats("raw", raw)
        theory = format_number(v.theory_scaled) if sigma == 1 else \
            f"{sigma:g}⁴ = {format_number(v.theory_scaled)}"
        self._set_stats("scaled", tr("÷√d_k: Var = {var} ± {se}\ntheory σ⁴ = {th}\n{n} samples, {kind}").format(
            var=format_number(v.empirical_scaled), se=format_number(v.stderr_scaled),
            th=theory, n=v.samples, kind=self.theory_label(v)))
        stems = v.theory_kind == "exact pmf"
        for key, plot, h, pmf in (("raw", self.plot_raw, v.hist_unscaled, v.pmf_unscaled),
                                  ("scaled", self.plot_scaled, v.hist_scaled, v.pmf_scaled)):
            self.hist[key].set_histogram(h.edges, h.density)
            self.theory[key].setData(h.theory_x, h.theory_density)
            self.theory[key].setVisible(not stems)
            stem_peak = self._set_stems(key, pmf if stems else None, h.edges)
            peak = max(float(np.max(h.density)), stem_peak)
            if v.theory_bounded and not stems:
                peak = max(peak, float(np.max(h.theory_density)))
            self._set_range(key, plot, float(h.edges[-1]), peak)
        self._set_band(sigma2)
        if self.wide:
            self._show_notes(v)
