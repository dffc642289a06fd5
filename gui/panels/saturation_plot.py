"""Plot 3: saturation against d_k (log axis): median and quartile band, raw vs ÷√d_k."""
from __future__ import annotations

import html
import math
import re

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QTextDocument
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from gui.common.style import brush, pen, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.items import Dots, VerticalMarker
from gui.panels.text_fit import (MinimumHeight, fit_bottom_axis, fitting_step, layout_minimum_px, lines_px,
                       ticks_between, unbreakable)
from gui.common.i18n import tr

METRIC_ROWS = ("max_prob", "entropy", "jacobian_norm")
DK_TICK_LABELS = [f"{4**i:,}".replace(",", "\u2009") for i in range(8)]  # 1 … 16 384



class SaturationPlot(Plot):
    """Tall room: max p, entropy and ‖J‖_F one above the other, d_k read on the bottom
    axis. Wide room (a projector): the three side by side, each with its own d_k axis."""

    #: A change of d_k, h or d_model moves the d_k markers only: the strip around them.
    VIEWPORT_UPDATE = QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate
    ARRANGES = True

    def __init__(self, parent=None):
        super().__init__("saturationPlot", parent)

    def build(self) -> None:
        self.plots = {}
        self.median = {}
        self.band_edges = {}
        self.markers = {}
        first = None
        self.title = self.add_title()
        self.minimum_height = MinimumHeight(
            self, lambda: layout_minimum_px(self) + (1 if self.wide else 3) * lines_px(self.theme, 3))
        # Each plot is named in a row of its own above it, not by a vertical axis label: a
        # short plot at large text had its three axis labels running into each other.
        self.names = {}
        for i, metric in enumerate(METRIC_ROWS):
            name = self.names[metric] = TitleLabel()
            self.addItem(name, row=1 + 2 * i, col=0)
            plot = self.addPlot(row=2 + 2 * i, col=0)
            plot.setLogMode(x=True, y=False)
            plot.setMouseEnabled(False, False)
            plot.hideButtons()
            plot.enableAutoRange(False)
            plot.setXRange(0, math.log10(16384), padding=0.02)
            # Fixed ticks at powers of 4 (64 and 4096 among them): the automatic log ticks
            # crowd into unreadable minor labels on a wide projector view.
            if first is None:
                first = plot
            else:
                plot.setXLink(first)
            for scaled in (False, True):
                # The band's edges are data only: drawn, pen-less curves would cost paint time.
                lo, hi = pg.PlotCurveItem(), pg.PlotCurveItem()
                band = pg.FillBetweenItem(lo, hi)
                line, dots = pg.PlotCurveItem(), Dots(size=5)
                for item in (band, line, dots):
                    plot.addItem(item)
                    # Only the d_k marker moves during a drag: these are blitted from a
                    # cache under it instead of re-drawn (dropped when their data change).
                    item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
                self.band_edges[metric, scaled] = (lo, hi, band)
                self.median[metric, scaled] = (line, dots)
            self.markers[metric] = VerticalMarker(plot.vb)
            self.plots[metric] = plot
        first.vb.sigResized.connect(self._fit_ticks)
        first.vb.sigResized.connect(self._refit_title)
        self._heads: tuple = ()       # (full title, short title, key, counts) as HTML
        # The counts under the plots, when the title is too long for the panel's top.
        self.footnote = TitleLabel()
        self._footnote_shown = False
        for plot in self.plots.values():
            plot.vb.sigResized.connect(self._fit_y_ticks)
            plot.vb.sigResized.connect(self.minimum_height.request)
        self._y_ticks = {}
        self._keys = None
        self._study_shown = None
        self._tick_every = None

    def arrange(self, wide: bool) -> None:
        """The three plots in a column (tall) or side by side (wide); see the class."""
        layout = self.ci
        for item in (self.title, *self.names.values(), *self.plots.values(), self.footnote):
            if item in layout.items:     # (a resize on the way may show the title anew)
                layout.removeItem(item)
        columns = len(METRIC_ROWS)
        layout.addItem(self.title, row=0, col=0, colspan=columns if wide else 1)
        for i, metric in enumerate(METRIC_ROWS):
            row, col = (1, i) if wide else (1 + 2 * i, 0)
            layout.addItem(self.names[metric], row=row, col=col)
            layout.addItem(self.plots[metric], row=row + 1, col=col)
        if self._footnote_shown and self.footnote not in layout.items:
            layout.addItem(self.footnote, row=self._footnote_row(), col=0,
                           colspan=columns if wide else 1)
        for column in range(columns):
            layout.layout.setColumnStretchFactor(column, 1 if wide or column == 0 else 0)
        self._label_axes()
        self._tick_every = None
        self._fit_ticks()

    def _footnote_row(self) -> int:
        return 3 if self.wide else 2 * len(METRIC_ROWS) + 1

    def _label_axes(self) -> None:
        """d_k's values and name under the bottom plot (tall); wide, its values under each
        plot and no name (the title says "vs d_k": the room is short)."""
        for metric, plot in self.plots.items():
            shown = self.wide or metric == METRIC_ROWS[-1]
            axis = plot.getAxis("bottom")
            axis.setStyle(showValues=shown)
            if shown and not self.wide:
                plot.setLabel("bottom", tr("d_k (log scale)"))
                fit_bottom_axis(axis, plot_font(self.theme))
            else:
                axis.showLabel(False)
                if self.wide:
                    fit_bottom_axis(axis, plot_font(self.theme))
                else:
                    axis.setHeight(None)

    def restyle(self) -> None:
        self.minimum_height.reset()
        for plot in self.plots.values():
            self.style_plot(plot)
        for (metric, scaled), (line, dots) in self.median.items():
            colour = self.theme.scaled if scaled else self.theme.unscaled
            line.setPen(pen(colour, self.theme, 1.2))
            dots.setBrush(brush(colour))
            dots.setPen(pen(colour, self.theme, 0.5))
            lo, hi, band = self.band_edges[metric, scaled]
            band.setBrush(brush(colour, 60))
        for marker in self.markers.values():
            marker.setPen(pen(self.theme.foreground, self.theme, 0.8, Qt.PenStyle.DotLine))
        if self.results is not None:
            self._move_markers(self.results.params.dk)
        self._tick_every = None
        self._fit_ticks()   # the font size may have changed
        self._y_ticks = {}
        self._fit_y_ticks()
        self._study_shown = None  # redraw the curves with the new pens and title colours

    def _fit_ticks(self, *_args) -> None:
        """Labels at every power of 4 (64 and 4096 among them) where they fit, else at every
        power of 16 with unlabelled ticks between: pyqtgraph's automatic log ticks crowd
        into unreadable minor labels on a wide projector view."""
        vb = self.plots["max_prob"].vb
        x0, x1 = vb.viewRange()[0]
        spacing_px = vb.width() * math.log10(4) / max(x1 - x0, 1e-9)
        metrics = QFontMetricsF(plot_font(self.theme))
        widths = [metrics.horizontalAdvance(label) for label in DK_TICK_LABELS]
        # centred labels; 16 384 sits at the axis's end, where pyqtgraph drops it if it would
        # overlap. Two labels keep a digit's width apart: wider than the thin space inside
        # "1 024" (6 px let "1 024" and "4 096" read as one number at 375 %).
        gap = max(6.0, metrics.horizontalAdvance("0"))
        crowded = max(a + b for a, b in zip(widths[:-2], widths[1:-1])) / 2 + gap
        every = 1 if spacing_px >= crowded else 2
        if every == self._tick_every:
            return
        self._tick_every = every
        major = [(math.log10(4**i), DK_TICK_LABELS[i]) for i in range(0, 8, every)]
        minor = [(math.log10(4**i), "") for i in range(1, 8, 2)] if every == 2 else []
        for plot in self.plots.values():
            plot.getAxis("bottom").setTicks([major, minor])

    def _fit_y_ticks(self, *_args) -> None:
        """As many value ticks as the plot's height leaves readable (0, 0.5, 1 on a short
        plot; pyqtgraph's own ticks ran into each other)."""
        text_px = QFontMetricsF(plot_font(self.theme)).height()
        for metric, plot in self.plots.items():
            low, high = plot.vb.viewRange()[1]
            step = fitting_step(high - low, plot.vb.height(), text_px)
            ticks = ticks_between(low, high, step)
            if self._y_ticks.get(metric) != ticks:
                self._y_ticks[metric] = ticks
                plot.getAxis("left").setTicks([ticks, []])

    def retranslate(self) -> None:
        labels = {"max_prob": tr("max p"), "entropy": tr("entropy (nats)"),
                  "jacobian_norm": tr("‖J‖_F")}
        for metric, name in self.names.items():
            name.setText(labels[metric], color=self.theme.foreground, size=f"{self.theme.font_pt:.1f}pt")
        self._label_axes()
        if self.results is not None:
            self._set_title(self.results.saturation)

    def show_results(self, results) -> None:
        sat = results.saturation
        if sat is not self._study_shown:  # the engine reuses it while only d_k, h, d_model move
            self._show_study(sat)
        self._move_markers(results.params.dk)

    def _show_study(self, sat) -> None:
        self._study_shown = sat
        grid = sat.dk_grid
        log_grid = np.log10(grid)
        for (metric, scaled), (line, dots) in self.median.items():
            q = sat.quartiles(metric, scaled)
            # Plain curve and scatter items ignore the plot's log mode: hand them log10(d_k).
            line.setData(log_grid, q.median)
            dots.setData(log_grid, q.median)
            lo, hi, _ = self.band_edges[metric, scaled]
            lo.setData(log_grid, q.q25)
            hi.setData(log_grid, q.q75)
        if sat.keys != self._keys:
            self._keys = sat.keys
            n = sat.keys
            self.plots["max_prob"].setYRange(0, 1.05, padding=0)
            self.plots["entropy"].setYRange(0, 1.05 * math.log(n), padding=0)
            # ‖J‖_F ≤ ½, reached when two keys share all the probability.
            self.plots["jacobian_norm"].setYRange(0, 0.55, padding=0)
            self._fit_y_ticks()
        self._set_title(sat)

    def _move_markers(self, dk: int) -> None:
        position = math.log10(dk)
        for marker in self.markers.values():
            marker.setValue(position)

    @staticmethod
    def counts_text(sat) -> str:
        """The keys and the query count scored at each d_k, without the title's name."""
        counts = [int(c) for c in sat.trials_per_dk]
        if len(set(counts)) == 1:
            return tr("{n} keys, {t} queries per d_k").format(n=sat.keys, t=counts[0])
        first_cut = next(i for i, c in enumerate(counts) if c < counts[0])
        return tr("{n} keys; {t} queries per d_k up to d_k = {dk}, then fewer: {low} at "
                  "d_k = {top}").format(n=sat.keys, t=counts[0], dk=int(sat.dk_grid[first_cut - 1]),
                                        low=counts[-1], top=int(sat.dk_grid[-1]))

    @staticmethod
    def title_text(sat) -> str:
        """The title with the query count actually scored at each d_k (the uniform law's
        explicit vectors cut it at large d_k)."""
        counts = [int(c) for c in sat.trials_per_dk]
        if len(set(counts)) == 1:
            return tr("saturation vs d_k ({n} keys, {t} queries per d_k)").format(
                n=sat.keys, t=counts[0])
        first_cut = next(i for i, c in enumerate(counts) if c < counts[0])
        return tr("saturation vs d_k ({n} keys; {t} queries per d_k up to d_k = {dk}, "
                  "then fewer: {low} at d_k = {top})").format(
            n=sat.keys, t=counts[0], dk=int(sat.dk_grid[first_cut - 1]), low=counts[-1],
            top=int(sat.dk_grid[-1]))

    #: (size factor, most lines) tried in turn for the title and its key: 1.2 × the plot
    #: text in two lines, then 1 × in three; beyond (large text on a narrow panel) the short
    #: title and the key at 1 ×, with the counts under the plots.
    TITLE_FITS = ((1.2, 2), (1.0, 3))
    #: … and in a wide panel (a projector's short room), where height is what is short.
    WIDE_TITLE_FITS = ((1.2, 1), (1.0, 2))

    def _title_width(self) -> float:
        width = self.title.size().width()
        return width if width > 50 else max(50.0, self.width() - 18.0)

    def _fits(self, html_text: str, factor: float, lines: int) -> bool:
        """Whether `html_text` at `factor` × the plot text takes `lines` lines or fewer."""
        font = plot_font(self.theme, factor)
        document = QTextDocument()
        document.setDefaultFont(font)
        document.setDocumentMargin(0)
        document.setHtml(f"<span style='font-size:{font.pointSizeF():.1f}pt'>{html_text}</span>")
        document.setTextWidth(self._title_width())
        return document.size().height() / QFontMetricsF(font).lineSpacing() <= lines + 0.5

    def title_layout(self) -> tuple:
        """(title HTML, point size, footnote or ""), by TITLE_FITS. At 300 % in presentation
        mode on 1366×768 title and key took four lines at 1.2 ×, the whole visible part of
        the panel, and left no plot in view; in Japanese they take four at 1 × too."""
        full, short, key, counts = self._heads
        for factor, lines in (self.WIDE_TITLE_FITS if self.wide else self.TITLE_FITS):
            if self._fits(f"{full}<br>{key}", factor, lines):
                return f"{full}<br>{key}", self.theme.font_pt * factor, ""
        # the short title and the key run on as one text (no line break between them)
        return f"{short}&nbsp;&nbsp;&nbsp; {key}", self.theme.font_pt, counts

    def _refit_title(self, *_args) -> None:
        if self._heads:
            self._show_title()

    def _show_title(self) -> None:
        text, size, footnote = self.title_layout()
        shown = (text, self.theme.foreground, size, footnote)
        if self._shown.get((self.title, "title")) == shown:
            return
        self._shown[self.title, "title"] = shown
        self.title.setText(text, color=self.theme.foreground, size=f"{size:.1f}pt")
        if footnote:
            self.footnote.setText(footnote, color=self.theme.foreground,
                                  size=f"{self.theme.font_pt:.1f}pt")
        self._footnote_shown = bool(footnote)
        placed = self.footnote in self.ci.items
        if footnote and not placed:
            self.addItem(self.footnote, row=self._footnote_row(), col=0,
                         colspan=len(METRIC_ROWS) if self.wide else 1)
        elif placed and not footnote:
            self.removeItem(self.footnote)
        self.minimum_height.request()

    @staticmethod
    def _glued(text: str) -> str:
        """`text` as HTML that breaks only before an opening parenthesis."""
        head, space, tail = (re.split(r"(\s*)(?=[(（])", text, maxsplit=1) + ["", ""])[:3]
        glued = [html.escape(unbreakable(part)).replace(" ", "&nbsp;") for part in (head, tail)]
        return glued[0] + ((" " if space else "\u200b") + glued[1] if tail else "")

    def _set_title(self, sat) -> None:
        """Title with the legend in it: a separate legend row would squeeze the three plots."""
        title = self.title_text(sat)
        raw, scaled = tr("raw q·k (median, quartiles)"), tr("q·k / √d_k")  # lupdate skips f-strings
        # Non-breaking spaces and word joiners inside an entry: a narrow panel wraps between
        # the two entries, or before the raw entry's "(median, quartiles)", never between a
        # swatch and its name nor inside a Japanese word.
        raw, scaled = (self._glued(text) for text in (raw, scaled))
        key = (f"<span style='color:{self.theme.unscaled}'>━━&nbsp;{raw}</span>"
               f"&nbsp;&nbsp; <span style='color:{self.theme.scaled}'>━━&nbsp;{scaled}</span>")
        self._heads = (html.escape(title), html.escape(tr("saturation vs d_k")), key,
                       html.escape(self.counts_text(sat)))
        self._show_title()
