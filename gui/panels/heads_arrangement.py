"""Where the head-roles view (heads_view.HeadsView) puts its texts and maps.

Over the maps, at their size, where the view is tall enough for the texts, two rows of
maps and their titles (TOP_MAP_LINES lines a row). A view too short for that and wide (a
projector's workspace at large text) puts them in a column right of the maps instead,
SIDE_SHARE of its width, the texts and the map titles shrunk (SIDE_FACTORS × their size,
never under MIN_TEXT_PT) until they leave the maps SIDE_MAP_LINES lines a row: the maps
are the figure the lesson talks about.

The arrangement follows the view's size, font and texts; the view's minimum height is
the least any arrangement needs at its width (it does not depend on the view's height,
so it cannot feed itself).
"""
from __future__ import annotations

import math

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetricsF

from gui.common.style import plot_font
from gui.common.qt_util import measuring_document

#: The texts' size beside the maps, × their size over them, largest first.
SIDE_FACTORS = (1.0, 0.85, 0.7, 0.6, 0.5)
#: Never smaller than this (the plot text at 100 % is 10 pt).
MIN_TEXT_PT = 9.0
#: The texts' column beside the maps, of the view's width.
SIDE_SHARE = 0.3
#: A view narrower than this many lines of plot text keeps its texts over the maps.
SIDE_MIN_LINES = 24
#: A row of maps is at least this many lines of plot text high: over the maps, beside them.
TOP_MAP_LINES, SIDE_MAP_LINES = 5.0, 2.2
#: The average map stacked below the six is this many lines high at least.
STACKED_LINES = 10.0
#: A column of small maps narrower than this many title lines breaks the titles inside
#: their words: the average map then goes below the six, which get the width.
STACK_BELOW_LINES = 5.0
#: Width shares of a small map's column and the average's: over the texts the average is
#: the larger; beside them, where the maps' height limits the average, the titles of the
#: small maps get more of the width (they wrapped to four lines).
COLUMN_WEIGHTS = {False: (4, 7), True: (5, 6)}
FRAME = 24.0        # the grids' margins and spacing
MARGINS = 16.0      # the view's own, left and right


class Arrangement:
    """Mixin of HeadsView: the texts over or beside the maps (see the module docstring).
    The view provides kind_label, info_label, titles, texts (their grid), theme,
    text_specs() and the map-grid methods."""

    text_side = False     # the texts in a column right of the maps
    text_factor = 1.0     # their size, × their size over the maps
    _arranging = False

    def _line(self, factor: float = 1.0) -> float:
        return QFontMetricsF(plot_font(self.theme, factor)).height()

    def _factors(self) -> tuple:
        allowed = tuple(f for f in SIDE_FACTORS if f * self.theme.font_pt >= MIN_TEXT_PT)
        return allowed or SIDE_FACTORS[:1]

    def _text_px(self, spec, factor: float, width: float) -> float:
        """The height of a text (text_specs' label, text, colour, size) at `factor` wrapped
        to `width`, as its label would draw it."""
        label, text, colour, size = spec
        document = measuring_document(label.item.document())
        colour = QColor(colour).name(QColor.NameFormat.HexArgb)
        document.setHtml(f"<span style='color: {colour}; font-size: "
                         f"{self.theme.font_pt * size * factor:.1f}pt'>{text}</span>")
        document.setTextWidth(max(1.0, width))
        return document.size().height()

    def column_widths(self, width: float, columns: int, stacked: bool, side: bool) -> tuple:
        """(a small map's column, the average's) in a map grid `width` wide."""
        small, average = COLUMN_WEIGHTS[side]
        if stacked:
            return width / columns, width
        total = small * columns + average
        return width * small / total, width * average / total

    def map_arrangement(self, width: float, factor: float, side: bool | None = None) -> tuple:
        """(columns, stacked) of the maps in `width`: beside, below, and below in two
        columns, the first whose columns are wide enough for the titles at `factor`
        (STACK_BELOW_LINES, then the longest word)."""
        side = self.text_side if side is None else side
        columns = len(self.titles) // 2
        if self.column_widths(width, columns, False, side)[0] >= \
                STACK_BELOW_LINES * self._line(factor):
            return columns, False
        # a column: its share of the grid less spacing, and the title's own margins
        if width / columns - 24 < self._longest_word_px() * factor:
            return 2, True
        return columns, True

    def _titles_px(self, specs: dict, width: float, factor: float, side: bool) -> float:
        """The rows of map titles, each as high as its highest (two lines at least over
        the maps, one beside them)."""
        columns, stacked = self.map_arrangement(width, factor, side)
        heads = self.titles[:-1]
        small, wide = self.column_widths(width, columns, stacked, side)
        two = (1 if side else 2) * self._line(factor) + 6
        rows = [[(t, small - 8) for t in heads[r * columns:(r + 1) * columns]]
                for r in range(math.ceil(len(heads) / columns))]
        average = (self.titles[-1], wide - 8)
        if stacked:
            rows.append([average])
        else:
            rows[0].append(average)
        return sum(max(two, max(self._text_px(specs[t], factor, w) for t, w in row))
                   for row in rows)

    def _top_px(self, specs: dict, width: float) -> float:
        """The height the view needs with its texts over the maps."""
        columns, stacked = self.map_arrangement(width, 1.0, False)
        texts = sum(self._text_px(specs[label], 1.0, width)
                    for label in (self.kind_label, self.info_label))
        maps = (math.ceil((len(self.titles) - 1) / columns) * TOP_MAP_LINES
                + (STACKED_LINES if stacked else 0)) * self._line()
        return texts + self._titles_px(specs, width, 1.0, False) + maps + FRAME

    def _side_px(self, specs: dict, width: float, factor: float) -> float:
        """The height the view needs with its texts beside the maps at `factor`."""
        column = SIDE_SHARE * width
        maps_width = width - column
        if self.map_arrangement(maps_width, factor, True)[1]:
            return math.inf                 # only with the average beside the six
        texts = sum(self._text_px(specs[label], factor, column)
                    for label in (self.kind_label, self.info_label)) + 12
        maps = 2 * SIDE_MAP_LINES * self._line()
        return max(texts, self._titles_px(specs, maps_width, factor, True) + maps) + FRAME

    def _side_possible(self, width: float) -> bool:
        return width >= SIDE_MIN_LINES * self._line()

    def least_height(self) -> float:
        """The least height any arrangement needs at the view's width."""
        width, specs = self.width() - MARGINS, self.text_specs()
        top = self._top_px(specs, width)
        if not self._side_possible(width):
            return top
        return min(top, self._side_px(specs, width, self._factors()[-1]))

    def arrange(self) -> None:
        """The texts over the maps where they fit, else beside them at the largest size
        that leaves the maps their height."""
        if self._arranging or not hasattr(self, "average_plot") or not (
                shiboken6.isValid(self.ci) and shiboken6.isValid(self.kind_label.item)):
            return                    # resized while built, or while being deleted
        self._arranging = True
        try:
            width, height, specs = self.width() - MARGINS, self.height(), self.text_specs()
            side, factor = False, 1.0
            if self._side_possible(width) and height < self._top_px(specs, width):
                side, factor = True, self._factors()[-1]
                for f in self._factors():
                    if self._side_px(specs, width, f) <= height:
                        factor = f
                        break
            self._place_texts(side, factor, width)
        finally:
            self._arranging = False

    def _place_texts(self, side: bool, factor: float, width: float) -> None:
        moved = side != self.text_side
        if moved:
            self.text_side = side
            self.removeItem(self.texts)
            self.addItem(self.texts, row=1 if side else 0, col=1 if side else 0)
            self.ci.layout.setAlignment(self.texts, Qt.AlignmentFlag.AlignTop)
            self._title_rows = None
        column = int(SIDE_SHARE * width) if side else 0
        grid = self.ci.layout
        grid.setColumnMinimumWidth(1, column)
        grid.setColumnMaximumWidth(1, column)
        if factor != self.text_factor:
            self.text_factor = factor
            self._update_texts()
        if not self._update_stacked() and moved:
            self._place_maps()        # the columns' shares follow the texts' place
        self._fit_title_rows()

    def maps_width(self) -> float:
        """The width the map grid has now."""
        width = self.width() - MARGINS
        return width - SIDE_SHARE * width if self.text_side else width
