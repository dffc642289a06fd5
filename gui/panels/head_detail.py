"""One pretrained head up close: its attention map and its line view.

Map: A (n, n), query tokens down the rows, key tokens along the columns (token names on both
axes), weight 0 → 1 in viridis, square cells. Hovering a cell reads out
"query → key: A[i, j]" and narrows the line view to that query.

Line view (after BertViz's head view): the tokens in two columns, queries on the left and keys
on the right; a line joins query i to key j with opacity and width growing with A[i, j]
(weights below LINE_MIN are not drawn). The lines are grouped into a few weight bands, one
PlotDataItem each, so a new sentence updates a fixed set of items.

show_results takes a gui.model_heads.HeadDetailData.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Slot
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem

from ..i18n import tr
from ..model_heads import role_names
from ..style import ROLE_COLOURS, format_number, plot_font
from .base import Panel, TitleLabel
from .label import Label
from .token_axis import TokenAxis, fit_square_cells

SEQUENTIAL = pg.colormap.get("viridis")
LINE_MIN = 0.02
#: Upper edges of the weight bands of the line view; each band is one item.
BANDS = (0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
LEFT_X, RIGHT_X = 0.0, 1.0
GAP_PX = 4.0


class HeadDetail(Panel):
    """The clicked head's map and line view (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__("headDetail", parent)

    def build(self) -> None:
        self.title, self.readout = TitleLabel(), TitleLabel()
        self.addItem(self.title, row=0, col=0, colspan=2)
        self.addItem(self.readout, row=1, col=0, colspan=2)
        self.ci.layout.setColumnStretchFactor(0, 3)
        self.ci.layout.setColumnStretchFactor(1, 2)
        self.ci.layout.setRowStretchFactor(2, 1)
        self.left_axis, self.bottom_axis = TokenAxis("left"), TokenAxis("bottom")
        self.map_plot = self.addPlot(row=2, col=0, axisItems={"left": self.left_axis,
                                                              "bottom": self.bottom_axis})
        for plot in (self.map_plot,):
            plot.setMouseEnabled(False, False)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.invertY(True)
        self.map_plot.vb.sigResized.connect(self._fit_map)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setColorMap(SEQUENTIAL)
        self.map_plot.addItem(self.image)
        self.line_plot = self.addPlot(row=2, col=1)
        self.line_plot.setMouseEnabled(False, False)
        self.line_plot.setMenuEnabled(False)
        self.line_plot.hideButtons()
        self.line_plot.invertY(True)
        self.line_plot.hideAxis("left")
        self.line_plot.hideAxis("bottom")
        self.line_plot.vb.sigResized.connect(self._place_token_labels)
        self.bands = [pg.PlotDataItem(connect="pairs") for _ in BANDS]
        for item in self.bands:
            self.line_plot.addItem(item)
        self.query_labels: list[Label] = []
        self.key_labels: list[Label] = []
        self.hover_query: int | None = None
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)

    # -- the data ------------------------------------------------------------------
    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens on screen (a hidden panel may hold newer data, see Panel.offer_results)."""
        r = self.results
        return r.tokens if r is not None else ()

    @property
    def weights(self) -> np.ndarray | None:
        r = self.results
        return r.weights if r is not None else None

    def show_results(self, data) -> None:
        n = len(data.tokens)
        self.image.setImage(data.weights, levels=(0.0, 1.0), rect=QRectF(0, 0, n, n))
        self.left_axis.set_labels(list(data.tokens))
        self.bottom_axis.set_labels(list(data.tokens))
        self._fit_map(self.map_plot.vb)
        self._ensure_labels(n)
        for i, token in enumerate(data.tokens):
            self.query_labels[i].setText(token)
            self.key_labels[i].setText(token)
        self.line_plot.setYRange(-1.0, n, padding=0)   # room for the first and last labels
        if self.hover_query is not None and self.hover_query >= n:
            self.hover_query = None
        self._draw_lines()
        self._place_token_labels()
        self._update_title()
        self._set_readout(tr("hover over a cell: query → key: weight"))

    def _ensure_labels(self, n: int) -> None:
        font = plot_font(self.theme, 0.85)
        while len(self.query_labels) < n:
            for column, anchor in ((self.query_labels, (1.0, 0.5)), (self.key_labels, (0.0, 0.5))):
                label = Label(anchor=anchor)
                label.setFont(font)
                label.setColor(self.theme.foreground)
                self.line_plot.addItem(label)
                column.append(label)

    @Slot()
    def _place_token_labels(self, *_args) -> None:
        n = len(self.tokens)
        vb = self.line_plot.vb
        height = vb.boundingRect().height()
        line_px = QFontMetricsF(plot_font(self.theme, 0.85)).height()
        step = max(1, math.ceil(line_px * 0.9 / (height / n))) if n and height > 0 else 1
        # x range: the lines span 0 … 1, the labels beside them keep their pixel width.
        width = vb.boundingRect().width()
        widest = max((self.query_labels[i].width_of(t) for i, t in enumerate(self.tokens)),
                     default=0.0) + 2 * GAP_PX
        span = max(width - 2 * widest, 0.25 * width, 1.0)
        side = widest / span
        vb.setXRange(-side, 1 + side, padding=0)
        gap = GAP_PX / span
        for i, (left, right) in enumerate(zip(self.query_labels, self.key_labels)):
            shown = i < n and i % step == 0
            left.setVisible(shown)
            right.setVisible(shown)
            if shown:
                left.setPos(LEFT_X - gap, i)
                right.setPos(RIGHT_X + gap, i)

    def _draw_lines(self) -> None:
        weights = self.weights
        if weights is None:
            return
        n = weights.shape[0]
        rows = np.arange(n) if self.hover_query is None else np.array([self.hover_query])
        block = weights[rows]
        colour = QColor(ROLE_COLOURS.get(self.results.role, "#999999"))
        low = LINE_MIN
        for item, high in zip(self.bands, BANDS):
            qi, kj = np.nonzero((block > low) & (block <= high))
            xs = np.empty(2 * len(qi))
            ys = np.empty(2 * len(qi))
            xs[0::2], xs[1::2] = LEFT_X, RIGHT_X
            ys[0::2], ys[1::2] = rows[qi], kj
            c = QColor(colour)
            c.setAlphaF(min(1.0, 0.15 + 0.85 * high))
            item.setPen(pg.mkPen(c, width=max(1.0, 3.0 * high * self.theme.line_width / 2)))
            item.setData(xs, ys)
            low = high

    # -- hover ---------------------------------------------------------------------
    @Slot(object)
    def _on_mouse_moved(self, scene_pos) -> None:
        weights = self.weights
        if weights is None:
            return
        vb = self.map_plot.vb
        n = weights.shape[0]
        query = None
        if vb.sceneBoundingRect().contains(scene_pos):
            point = vb.mapSceneToView(scene_pos)
            i, j = int(np.floor(point.y())), int(np.floor(point.x()))
            if 0 <= i < n and 0 <= j < n:
                query = i
                self._set_readout(self.readout_text(i, j))
        if query != self.hover_query:
            self.hover_query = query
            self._draw_lines()

    def readout_text(self, query: int, key: int) -> str:
        tokens = self.tokens
        return tr("{query} → {key}: {weight}").format(
            query=tokens[query], key=tokens[key],
            weight=format_number(float(self.weights[query, key])))

    def cache_text(self) -> None:
        """As Panel's, but readout changes with every result (or mouse move): a device cache
        would only be rebuilt each time, and after a font change it was not repainted."""
        super().cache_text()
        self.readout.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    # -- layout and texts ------------------------------------------------------------
    @Slot(object)
    def _fit_map(self, vb) -> None:
        """Square cells, the map against its token axes (spare room right and top)."""
        fit_square_cells(vb, len(self.tokens))

    def _update_title(self) -> None:
        data = self.newest_results
        if data is None:
            self.set_title(self.title, tr("click a head in the grid"))
            return
        self.set_title(self.title, data.title or tr("layer {layer} · head {head}: {role}").format(
            layer=data.layer, head=data.head, role=role_names()[data.role]))

    def restyle(self) -> None:
        # One line each for the title and the readout: wrapped, they pushed the title out.
        layout = self.ci.layout
        layout.setRowFixedHeight(0, QFontMetricsF(plot_font(self.theme, 1.2)).height() + 8)
        layout.setRowFixedHeight(1, QFontMetricsF(plot_font(self.theme)).height() + 6)
        self.style_plot(self.map_plot)
        font = plot_font(self.theme, 0.85)
        for axis in (self.left_axis, self.bottom_axis):
            axis.setTickFont(font)
        for label in self.query_labels + self.key_labels:
            label.setFont(font)
            label.setColor(self.theme.foreground)

    def retranslate(self) -> None:
        self._update_title()
        if self.newest_results is None:
            self._set_readout(tr("hover over a cell: query → key: weight"))

    def _set_readout(self, text: str) -> None:
        if self._shown.get((self.readout, "readout")) != (text, self.theme.foreground,
                                                          self.theme.font_pt):
            self._shown[self.readout, "readout"] = (text, self.theme.foreground,
                                                    self.theme.font_pt)
            self.readout.setText(text, color=self.theme.foreground,
                                 size=f"{self.theme.font_pt:.1f}pt")

    @property
    def readout_shown(self) -> str:
        return self.readout.text
