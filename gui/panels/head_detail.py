"""One pretrained head up close: its attention map and its line view.

Map: A (n, n), query tokens down the rows, key tokens along the columns (token names on both
axes), weight 0 → 1 in viridis, square cells. Hovering a cell reads out
"query → key: A[i, j]" and narrows the line view to that query.

Line view (after BertViz's head view): the tokens in two columns, queries on the left and keys
on the right, joined by lines in weight bands (line_bands.LineBands). The token labels are
re-laid out only when the tokens or the view's size change.

Beside the map while the line view has room for its two columns of tokens (LINE_VIEW_SHARE
of the width ≥ SIDE_BY_SIDE_LABELS widest tokens), below it otherwise (large text, a
narrow panel). The panel's minimum height leaves the map and the line view a text line per
token (at most MAX_ROWS_ASKED): below it the window scrolls instead of thinning labels.
Where the rows are still too close, the token names shrink (token_axis.label_fit) and only
then is every k-th one named; a note under the map and the line view says so (token_note,
wrapped to the panel's width).

Fitting the room (set_fit_room, presentation mode: the tab must not scroll), the line view
is beside the map or not shown at all, the minimum height asks for ROOM_ROWS rows, and the
map's token names are the compact axes' (token_axis: the smallest size, elided shorter).

show_results takes a gui.realheads.study.HeadDetailData.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QRectF, QTimer, Slot
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.names import role_names
from gui.common.style import ROLE_COLOURS, format_number, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.label import Label
from gui.panels.line_bands import LEFT_X, RIGHT_X, LineBands
from gui.panels.text_fit import MinimumHeight, layout_minimum_px
from gui.panels.token_axis import (LABEL_LINE_SHARE, TokenAxis, fit_square_cells, label_fit,
                                   label_max_px, thinning_note)

SEQUENTIAL = pg.colormap.get("viridis")
GAP_PX = 4.0
LINE_VIEW_SHARE = 0.4        # of the width, beside the map
MIN_SPAN_SHARE = 0.15        # of the line view's width, at least, for the lines
#: Widest tokens the line view needs across: two columns of them and MIN_SPAN_SHARE for lines.
SIDE_BY_SIDE_LABELS = 2 / (1 - MIN_SPAN_SHARE)
MAX_ROWS_ASKED = 16          # tokens the minimum height makes room for
ROOM_ROWS = 2                # ... when fitting the room (presentation)
TEXT_ROW_LINES_MAX = 3       # lines the title, the readout or the note may wrap to
NOTE_ROW = 4                 # the token note's row, under the map and the line view
NOTE_SIZE = 0.85             # the note's text, of the text size


class HeadDetail(Plot):
    """The clicked head's map and line view (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__("headDetail", parent)

    def build(self) -> None:
        self.title, self.readout, self.note = TitleLabel(), TitleLabel(), TitleLabel()
        self.addItem(self.title, row=0, col=0, colspan=2)
        self.addItem(self.readout, row=1, col=0, colspan=2)
        # The note is in the layout only while it says something (an empty label still
        # takes a line); placed after the layout pass that changed it.
        self._note_timer = QTimer(self, singleShot=True, interval=0)
        self._note_timer.timeout.connect(self._place_note)
        self.ci.layout.setColumnStretchFactor(0, 3)
        self.ci.layout.setColumnStretchFactor(1, 2)
        self.ci.layout.setRowStretchFactor(2, 1)
        self.stacked = False   # the line view below the map (see the module docstring)
        self.fitting_room = False  # presentation: see the module docstring
        self.line_shown = True   # the line view is on screen (fitting the room, it may not)
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
        self.line_bands = LineBands(self.line_plot)
        self.bands = self.line_bands.items
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
        """The line view below the map (on) or beside it; fitting the room, beside it or
        not shown (on)."""
        line_shown = not (on and self.fitting_room)
        if on == self.stacked and line_shown == self.line_shown:
            return
        self.stacked, self.line_shown = on, line_shown
        layout = self.ci.layout
        if self.line_plot in self.ci.items:
            self.ci.removeItem(self.line_plot)
        self.ci.removeItem(self.map_plot)
        beside = line_shown and not on
        self.ci.addItem(self.map_plot, row=2, col=0, colspan=1 if beside else 2)
        self.line_plot.setVisible(line_shown)
        if not line_shown:
            layout.setRowStretchFactor(3, 0)
        elif on:
            self.ci.addItem(self.line_plot, row=3, col=0, colspan=2)
            layout.setRowStretchFactor(3, 1)
        else:
            self.ci.addItem(self.line_plot, row=2, col=1)
            layout.setRowStretchFactor(3, 0)
        self.minimum_height.request()

    def set_fit_room(self, on: bool) -> None:
        """Fit the room the panel gets (presentation) or keep every token's row (windowed:
        the window scrolls); see the module docstring."""
        if on == self.fitting_room:
            return
        self.fitting_room = on
        self._fit_axes(self.height())
        self.set_stacked(self.wants_stacked(self.width()))
        self._update_title()
        hovered = self.hover_query is not None
        self._set_readout(self.readout.text if hovered else self._hint())
        self.minimum_height.reset()

    def _fit_axes(self, height: float) -> None:
        """Compact token axes (token_axis: the smallest names, elided shorter) while fitting
        the room in a panel `height` high that cannot give the map a full line per token
        (up to MAX_ROWS_ASKED) above full-size names and under the texts."""
        axes = (self.left_axis, self.bottom_axis)
        if not (self.fitting_room or any(axis.compact for axis in axes)) \
                or not shiboken6.isValid(self.ci.layout):    # windowed; a panel going away
            return
        font = plot_font(self.theme, 0.85)
        fm = QFontMetricsF(font)
        rows = min(max(len(self.tokens), 4), MAX_ROWS_ASKED)
        layout = self.ci.layout
        full = rows * fm.height() + label_max_px(fm) + 10 + layout.rowMinimumHeight(0) \
            + layout.rowMinimumHeight(1)
        compact = self.fitting_room and height < full
        for axis in axes:
            if axis.compact != compact:
                axis.compact = compact
                axis.setTickFont(font)   # sizes the axis for its labels

    def _needed_height(self) -> float:
        """The texts' rows, and a text line per token (up to MAX_ROWS_ASKED) for the map
        (above its token axis) and for the line view."""
        rows = ROOM_ROWS if self.fitting_room else min(max(len(self.tokens), 4), MAX_ROWS_ASKED)
        row_px = QFontMetricsF(plot_font(self.theme, 0.85)).height()
        room = rows * row_px
        layout = self.ci.layout
        map_px = room + self.bottom_axis.height()
        layout.setRowMinimumHeight(2, map_px)
        layout.setRowMinimumHeight(3, room if self.stacked and self.line_shown else 0)
        layout.invalidate()   # else the minimum below is the one before these rows
        # A line of slack: with both rows at their minimum the grid came out about half a
        # line taller than its reported minimum (the end labels left the view). Not when
        # fitting the room: the map's row then has more than its minimum anyway.
        return layout_minimum_px(self) + (0 if self.fitting_room else row_px)

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self._fit_text_rows(event.size().width())
            self._fit_axes(event.size().height())
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
        """A head's map and lines (HeadDetailData), or None: nothing (the model failed),
        so that no earlier model's head stays beside the message."""
        if data is None:
            self._show_no_head()
            return
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
        self._set_readout(self._hint())
        self.set_stacked(self.wants_stacked(self.width()))
        if new_n:
            self._fit_axes(self.height())
            self.minimum_height.request()

    def _show_no_head(self) -> None:
        self._map_n = 0
        self.image.clear()
        self.left_axis.set_labels([])
        self.bottom_axis.set_labels([])
        for label in self.query_labels + self.key_labels:
            label.setText("")
            label.setVisible(False)
        self.hover_query = None
        self.line_bands.clear()
        self._update_token_note()
        self._update_title()
        self._set_readout("")

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
        # A whole line per name (label_fit lets the axes' names share their lines' blank
        # margins; these names are items of their own, and overlapped at 300 % text).
        small, step = label_fit(font, row_px * LABEL_LINE_SHARE) if n and row_px > 0 \
            else (font, 1)
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
        rows = np.arange(weights.shape[0]) if self.hover_query is None \
            else np.array([self.hover_query])
        self.line_bands.draw(weights, rows, ROLE_COLOURS.get(self.results.role, "#999999"),
                             self.theme.line_width)

    def drawn_lines(self) -> list[list[tuple[float, float]]]:
        """Per band (BANDS), the (query, key) of every line drawn (tests)."""
        return self.line_bands.drawn()

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
        """The note under the map and the line view when they name only every k-th token
        (its row is empty, 0 px high, otherwise). Under both, not as the map's axis name:
        centred on the narrow map, a long note ran off the panel and over the line view's
        names."""
        if not hasattr(self, "line_step"):
            return
        steps = [self.line_step if self.line_shown else 1] + \
            [axis.step for axis in (self.left_axis, self.bottom_axis)]
        step = max(steps)
        self.token_note = thinning_note(step) if self.tokens else ""
        if self.fitting_room:      # the readout's row says it, while no cell is hovered
            if self.hover_query is None:
                self._set_readout(self._hint())
            note = ""
        else:
            note = self.token_note
        shown = (note, self.theme.foreground, self.theme.font_pt)
        if self._shown.get((self.note, "note")) != shown:
            self._shown[self.note, "note"] = shown
            self.note.setText(note or " ", color=self.theme.foreground,
                              size=f"{self.theme.font_pt * NOTE_SIZE:.1f}pt")
            self._note_timer.start()

    @Slot()
    def _place_note(self) -> None:
        """The note's row in the layout while it has a note, none otherwise."""
        placed = self.note in self.ci.items
        wanted = bool(self._shown.get((self.note, "note"), ("",))[0])
        if wanted and not placed:
            self.ci.addItem(self.note, row=NOTE_ROW, col=0, colspan=2)
        elif placed and not wanted:
            self.ci.removeItem(self.note)
        self._fit_text_rows(self.width())
        self.minimum_height.request()

    def _update_title(self) -> None:
        data = self.newest_results
        if data is None:
            self._set_title(tr("click a head in the grid"))
            self._fit_text_rows(self.width())
            return
        self._set_title(data.title or tr("layer {layer} · head {head}: {role}").format(
            layer=data.layer, head=data.head, role=role_names()[data.role]))
        self._fit_text_rows(self.width())

    def _set_title(self, text: str) -> None:
        """As Plot.set_title, at _text_factors' size."""
        style = dict(color=self.theme.foreground,
                     size=f"{self.theme.font_pt * self._text_factors()[0]:.1f}pt")
        shown = (text, tuple(style.values()))
        if self._shown.get((self.title, "title")) != shown:
            self._shown[self.title, "title"] = shown
            self.title.setText(text, **style)

    def restyle(self) -> None:
        self._fit_text_rows(self.width())
        self.style_plot(self.map_plot)
        font = plot_font(self.theme, 0.85)
        for axis in (self.left_axis, self.bottom_axis):
            axis.setTickFont(font)
        self._fit_axes(self.height())
        for label in self.query_labels + self.key_labels:
            label.setFont(font)
            label.setColor(self.theme.foreground)
        self.set_stacked(self.wants_stacked(self.width()))
        self.minimum_height.reset()
        self._labels_placed = None
        self._place_token_labels()
        self._shown.pop((self.note, "note"), None)
        self._update_token_note()

    def _fit_text_rows(self, width: float) -> None:
        """The title's, the readout's and the note's rows as tall as their wrapped lines
        at `width` (fixed heights: growing on their own, they pushed the title out). The
        readout keeps room for the hint's lines, so hovering does not move the maps."""
        if not hasattr(self, "readout"):
            return
        room = max(width - 16.0, 1.0)
        title, readout = self._text_factors()
        rows = [(0, self.title, title, (self.title.text,), 8),
                (1, self.readout, readout, (self.readout.text, self._hint()), 6)]
        if self.note in self.ci.items:
            rows.append((NOTE_ROW, self.note, NOTE_SIZE, (self.note.text,), 6))
        for row, label, factor, texts, pad in rows:
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
            self._set_readout(self._hint())

    def _hint(self) -> str:
        """What the readout says until a cell is hovered. Fitting the room: shorter, and
        instead the note when the names are thinned (the map needs the note's row)."""
        if not self.fitting_room:
            return tr("hover over a cell: query → key: weight")
        step = max([self.line_step if self.line_shown else 1]
                   + [axis.step for axis in (self.left_axis, self.bottom_axis)]) \
            if self.tokens else 1
        return tr("1 token in {k} named").format(k=step) if step > 1 else \
            tr("hover: query → key: weight")

    def _text_factors(self) -> tuple[float, float]:
        """The title's and the readout's sizes, of the text size: smaller when fitting the
        room (at 300 % on 1280 × 720 the title took two lines of a 440 px page)."""
        return (1.0, 0.85) if self.fitting_room else (1.2, 1.0)

    def _set_readout(self, text: str) -> None:
        point_size = self.theme.font_pt * self._text_factors()[1]
        if self._shown.get((self.readout, "readout")) != (text, self.theme.foreground,
                                                          point_size):
            self._shown[self.readout, "readout"] = (text, self.theme.foreground, point_size)
            self.readout.setText(text, color=self.theme.foreground, size=f"{point_size:.1f}pt")
            self._fit_text_rows(self.width())

    @property
    def readout_shown(self) -> str:
        return self.readout.text
