"""One pretrained head up close: its attention map and its line view.

Map: A (n, n), query tokens down the rows, key tokens along the columns (token names on both
axes), weight 0 → 1 in viridis, square cells. Hovering a cell reads out
"query → key: A[i, j]" and narrows the line view to that query.

Line view (after BertViz's head view): the tokens in two columns, queries on the left and keys
on the right; a line joins query i to key j with opacity and width growing with A[i, j]
(weights below LINE_MIN are not drawn). The lines are grouped into a few weight bands
(BANDS), each one QPainterPath in one path item, so a new sentence sets len(BANDS) paths.
The token labels are re-laid out only when the tokens or the view's size change.

Beside the map while the line view has room for its two columns of tokens (LINE_VIEW_SHARE
of the width ≥ SIDE_BY_SIDE_LABELS widest tokens), below it otherwise (large text, a
narrow panel). The panel's minimum height leaves the map and the line view a text line per
token (at most MAX_ROWS_ASKED): below it the window scrolls instead of thinning labels.
Where the rows are still too close, the token names shrink (token_axis.label_fit) and only
then is every k-th one named; a note under the map says so (token_note).

show_results takes a gui.realheads.study.HeadDetailData.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Slot
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.names import role_names
from gui.common.style import ROLE_COLOURS, format_number, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.label import Label
from gui.panels.text_fit import MinimumHeight, layout_minimum_px
from gui.panels.token_axis import (TokenAxis, fit_square_cells, label_fit, label_max_px,
                                   thinning_note)

SEQUENTIAL = pg.colormap.get("viridis")
LINE_MIN = 0.02
#: Upper edges of the weight bands of the line view; each band is one item.
BANDS = (0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
LEFT_X, RIGHT_X = 0.0, 1.0
GAP_PX = 4.0
LINE_VIEW_SHARE = 0.4        # of the width, beside the map
MIN_SPAN_SHARE = 0.15        # of the line view's width, at least, for the lines
#: Widest tokens the line view needs across: two columns of them and MIN_SPAN_SHARE for lines.
SIDE_BY_SIDE_LABELS = 2 / (1 - MIN_SPAN_SHARE)
MAX_ROWS_ASKED = 16          # tokens the minimum height makes room for
TEXT_ROW_LINES_MAX = 3       # lines the title or the readout may wrap to


def line_path(queries: np.ndarray, keys: np.ndarray) -> QPainterPath:
    """One path of lines from (LEFT_X, queries[k]) to (RIGHT_X, keys[k]), in view units."""
    xs = np.empty(2 * len(queries))
    ys = np.empty(2 * len(queries))
    xs[0::2], xs[1::2] = LEFT_X, RIGHT_X
    ys[0::2], ys[1::2] = queries, keys
    return pg.arrayToQPath(xs, ys, connect="pairs")


class HeadDetail(Plot):
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
        self.stacked = False   # the line view below the map (see the module docstring)
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
        self.bands = [QGraphicsPathItem() for _ in BANDS]
        for item in self.bands:
            item.setBrush(QBrush())
            self.line_plot.addItem(item)
        self._band_style = None   # (colour, line width) the bands' pens were made for
        self._labels_placed = None   # (tokens, view size, font) of the labels' layout
        self.line_step = 1    # every line_step-th token is named in the line view
        self.token_note = ""  # under the map: what thinning_note says, or ""
        self._map_n = None    # tokens of the map's rectangle and range
        self.query_labels: list[Label] = []
        self.key_labels: list[Label] = []
        self.hover_query: int | None = None
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.minimum_height = MinimumHeight(self, self._needed_height)

    # -- arrangement -----------------------------------------------------------------
    def _widest_token_px(self) -> float:
        fm = QFontMetricsF(plot_font(self.theme, 0.85))
        widest = max((fm.horizontalAdvance(t) for t in self.tokens),
                     default=fm.horizontalAdvance("token"))
        return min(widest, label_max_px(fm)) + 2 * GAP_PX

    def wants_stacked(self, width: float) -> bool:
        return LINE_VIEW_SHARE * width < SIDE_BY_SIDE_LABELS * self._widest_token_px()

    def set_stacked(self, on: bool) -> None:
        """The line view below the map (on) or beside it."""
        if on == self.stacked:
            return
        self.stacked = on
        layout = self.ci.layout
        self.ci.removeItem(self.line_plot)
        self.ci.removeItem(self.map_plot)
        self.ci.addItem(self.map_plot, row=2, col=0, colspan=2 if on else 1)
        if on:
            self.ci.addItem(self.line_plot, row=3, col=0, colspan=2)
            layout.setRowStretchFactor(3, 1)
        else:
            self.ci.addItem(self.line_plot, row=2, col=1)
            layout.setRowStretchFactor(3, 0)
        self.minimum_height.request()

    def _needed_height(self) -> float:
        """The texts' rows, and a text line per token (up to MAX_ROWS_ASKED) for the map
        (above its token axis) and for the line view."""
        rows = min(max(len(self.tokens), 4), MAX_ROWS_ASKED)
        row_px = QFontMetricsF(plot_font(self.theme, 0.85)).height()
        room = rows * row_px
        layout = self.ci.layout
        map_px = room + self.bottom_axis.height()
        layout.setRowMinimumHeight(2, map_px)
        layout.setRowMinimumHeight(3, room if self.stacked else 0)
        layout.invalidate()   # else the minimum below is the one before these rows
        # A line of slack: with both rows at their minimum the grid came out about half a
        # line taller than its reported minimum (the end labels left the view).
        return layout_minimum_px(self) + row_px

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self._fit_text_rows(event.size().width())
            self.set_stacked(self.wants_stacked(event.size().width()))
            self.minimum_height.request()

    # -- the data ------------------------------------------------------------------
    @property
    def tokens(self) -> tuple[str, ...]:
        """The tokens on screen (a hidden panel may hold newer data, see Plot.offer_results)."""
        r = self.results
        return r.tokens if r is not None else ()

    @property
    def weights(self) -> np.ndarray | None:
        r = self.results
        return r.weights if r is not None else None

    def show_results(self, data) -> None:
        n = len(data.tokens)
        new_n = n != self._map_n
        self._map_n = n
        if new_n:
            self.image.setImage(data.weights, levels=(0.0, 1.0), rect=QRectF(0, 0, n, n))
            self._fit_map(self.map_plot.vb)
        else:   # same n: the item's rectangle still holds
            self.image.setImage(data.weights, levels=(0.0, 1.0))
        tokens = list(data.tokens)
        if self.left_axis.labels != tokens:
            self.left_axis.set_labels(tokens)
            self.bottom_axis.set_labels(tokens)
        self._ensure_labels(n)
        for i, token in enumerate(data.tokens):
            self.query_labels[i].setText(token)
            self.key_labels[i].setText(token)
        if self.hover_query is not None and self.hover_query >= n:
            self.hover_query = None
        self._draw_lines()
        self._place_token_labels()
        self._update_token_note()
        self._update_title()
        self._set_readout(tr("hover over a cell: query → key: weight"))
        self.set_stacked(self.wants_stacked(self.width()))
        if new_n:
            self.minimum_height.request()

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
        font = plot_font(self.theme, 0.85)
        placed = (self.tokens, vb.boundingRect().size(), font.toString())
        if placed == self._labels_placed:
            return
        self._labels_placed = placed
        height = vb.boundingRect().height()
        line_px = QFontMetricsF(font).height()
        # y range: half a label's height (and a gap) above the first token and below the
        # last, in pixels, so that the end labels stay inside the view at any text size.
        margin = line_px / 2 + GAP_PX
        if n > 1 and height > 2 * margin + 1:
            row_px = (height - 2 * margin) / (n - 1)
            vb.setYRange(-margin / row_px, n - 1 + margin / row_px, padding=0)
        else:
            row_px = height / max(n, 1)
            vb.setYRange(-1.0, max(n, 1), padding=0)
        small, step = label_fit(font, row_px) if n and row_px > 0 else (font, 1)
        fonted = (small.toString(), len(self.query_labels))
        if fonted != getattr(self, "_line_font", None):
            self._line_font = fonted
            for label in self.query_labels + self.key_labels:
                label.setFont(small)
        self.line_step = step
        # x range: the lines span 0 … 1, the labels beside them keep their pixel width.
        width = vb.boundingRect().width()
        widest = max((self.query_labels[i].width_of(t) for i, t in enumerate(self.tokens)),
                     default=0.0) + 2 * GAP_PX
        span = max(width - 2 * widest, MIN_SPAN_SHARE * width, 1.0)
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
        style = (ROLE_COLOURS.get(self.results.role, "#999999"), self.theme.line_width)
        if style != self._band_style:
            self._band_style = style
            for item, high in zip(self.bands, BANDS):
                c = QColor(style[0])
                c.setAlphaF(min(1.0, 0.15 + 0.85 * high))
                item.setPen(pg.mkPen(c, width=max(1.0, 3.0 * high * style[1] / 2)))
        qi, kj = np.nonzero(block > LINE_MIN)
        band = np.searchsorted(BANDS, block[qi, kj])   # (low, high] → the band of high
        for index, item in enumerate(self.bands):
            mine = band == index
            item.setPath(line_path(rows[qi[mine]], kj[mine]))

    def drawn_lines(self) -> list[list[tuple[float, float]]]:
        """Per band (BANDS), the (query, key) of every line its path draws, read back from
        the path (tests)."""
        out = []
        for item in self.bands:
            path = item.path()
            out.append([(path.elementAt(k).y, path.elementAt(k + 1).y)
                        for k in range(0, path.elementCount() - 1, 2)])
        return out

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
        """As Plot's, but readout changes with every result (or mouse move): a device cache
        would only be rebuilt each time, and after a font change it was not repainted."""
        super().cache_text()
        self.readout.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    # -- layout and texts ------------------------------------------------------------
    @Slot(object)
    def _fit_map(self, vb) -> None:
        """Square cells, the map against its token axes (spare room right and top)."""
        fit_square_cells(vb, len(self.tokens))
        self._update_token_note()

    def _update_token_note(self) -> None:
        """The note under the map when its axes or the line view name only every k-th
        token (the axis's label row appears only then)."""
        if not hasattr(self, "line_step"):
            return
        steps = [self.line_step] + [axis.step for axis in (self.left_axis, self.bottom_axis)]
        note = thinning_note(max(steps)) if self.tokens else ""
        if note != self.token_note:
            self.token_note = note
            axis = self.map_plot.getAxis("bottom")
            if note:
                self.map_plot.setLabel("bottom", note)
            else:
                axis.showLabel(False)

    def _update_title(self) -> None:
        data = self.newest_results
        if data is None:
            self.set_title(self.title, tr("click a head in the grid"))
            self._fit_text_rows(self.width())
            return
        self.set_title(self.title, data.title or tr("layer {layer} · head {head}: {role}").format(
            layer=data.layer, head=data.head, role=role_names()[data.role]))
        self._fit_text_rows(self.width())

    def restyle(self) -> None:
        self._fit_text_rows(self.width())
        self.style_plot(self.map_plot)
        font = plot_font(self.theme, 0.85)
        for axis in (self.left_axis, self.bottom_axis):
            axis.setTickFont(font)
        for label in self.query_labels + self.key_labels:
            label.setFont(font)
            label.setColor(self.theme.foreground)
        self.set_stacked(self.wants_stacked(self.width()))
        self.minimum_height.reset()
        self._labels_placed = None
        self._place_token_labels()
        self._update_token_note()

    def _fit_text_rows(self, width: float) -> None:
        """The title's and the readout's rows as tall as their wrapped lines at `width`
        (fixed heights: growing on their own, they pushed the title out). The readout
        keeps room for the hint's lines, so hovering does not move the maps."""
        if not hasattr(self, "readout"):
            return
        room = max(width - 16.0, 1.0)
        hint = tr("hover over a cell: query → key: weight")
        for row, label, factor, texts, pad in (
                (0, self.title, 1.2, (self.title.text,), 8),
                (1, self.readout, 1.0, (self.readout.text, hint), 6)):
            fm = QFontMetricsF(plot_font(self.theme, factor))
            lines = max(min(TEXT_ROW_LINES_MAX, math.ceil(fm.horizontalAdvance(t or " ") / room))
                        for t in texts)
            height = max(1, lines) * fm.height() + pad
            if self._shown.get((label, "row")) != height:
                self._shown[label, "row"] = height
                self.ci.layout.setRowFixedHeight(row, height)

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
            self._fit_text_rows(self.width())

    @property
    def readout_shown(self) -> str:
        return self.readout.text
