"""Per-head attention maps over a sentence the user edits, and their average.

HeadsView draws six n×n heads (query tokens down the rows, key tokens along
the columns, weight 0 → 1 in viridis) and the mean of the six, every map with its tokens
named on both axes (token_axis: the names shrink before any is left out; when some are, the
texts say so). The heads are
either hand-built from token rules (engine.head_roles.ROLE_HEADS) or random,
untrained heads; a label says which. The entropy line compares the mean row
entropy of the average with that of the heads (the average is always at
least as flat: entropy is concave).

HeadsView draws HeadsResult values (engine.head_roles.heads_study, compute_heads here) that
the head-roles study computes off the GUI thread; gui/headroles/tab.py's HeadRolesTab adds the
inputs, which render and change AppState.heads_input.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal, Slot
from PySide6.QtGui import QFontMetricsF, QTextOption
from PySide6.QtWidgets import QSizePolicy

from engine.head_roles import ROLE_HEADS, heads_study

from gui.common import names
from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.state import HeadsInput
from gui.common.style import OKABE_ITO, format_number, plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.heads_arrangement import COLUMN_WEIGHTS, Arrangement
from gui.panels.text_fit import WORD_JOINER, MinimumHeight, glue_words, kana_class
from gui.panels.token_axis import TokenAxis, fit_square_cells, thinning_note

QWIDGETSIZE_MAX = (1 << 24) - 1

SEQUENTIAL = pg.colormap.get("viridis")
HEAD_COUNT = len(ROLE_HEADS)
HEAD_COLUMNS = 3


def compute_heads(heads: HeadsInput):
    """The head-roles study: HeadsInput → engine HeadsResult (runs on the study's thread)."""
    return heads_study(heads.sentence, heads.token_mode, heads.random_heads, heads.seed)


def role_titles() -> dict[str, str]:
    """Translated display name of each hand-built head."""
    return {
        "previous": tr("previous token"),
        "next": tr("next token"),
        "first": tr("first token"),
        "same_word": tr("same word"),
        "punct_to_all": tr("punctuation → whole sentence"),
        "pronoun_to_noun": tr("pronoun → nearest preceding noun"),
    }


class HeadsView(Arrangement, Plot):
    """Six attention heads over the user's tokens and their average (see the module
    docstring); its texts over the maps or beside them (heads_arrangement)."""

    changed = Signal()  # a new HeadsResult is on screen

    def __init__(self, parent=None):
        super().__init__(names.HEADS_VIEW, parent)

    def cache_text(self) -> None:
        """No text caches: every title here changes with the sentence, the heads and the
        language, and a device cache kept painting an old (or empty) text of a wrapped
        title, so the entropy line was missing from the screen."""

    # -- construction ------------------------------------------------------------
    def _map(self, row: int, col: int, rowspan: int = 1,
             compact: bool = False) -> tuple[pg.PlotItem, pg.ImageItem]:
        """A title in grid row `row` and an n×n map below it (compact token axes: small)."""
        title = TitleLabel()
        # At large text a word can be wider than a small map's column: it breaks, rather
        # than running into the next title.
        option = title.item.document().defaultTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        title.item.document().setDefaultTextOption(option)
        self.maps.addItem(title, row=row, col=col)
        self.titles.append(title)
        row += 1
        left, bottom = TokenAxis("left", compact), TokenAxis("bottom", compact)
        plot = self.maps.addPlot(row=row, col=col, rowspan=rowspan,
                                 axisItems={"left": left, "bottom": bottom})
        plot.setMouseEnabled(False, False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.invertY(True)
        plot.vb.sigResized.connect(self._fit_view)
        image = pg.ImageItem(axisOrder="row-major")
        image.setColorMap(SEQUENTIAL)
        plot.addItem(image)
        self.token_axes += [left, bottom]
        return plot, image

    def build(self) -> None:
        self.message = ""
        self.token_note = ""   # thinning_note of the most thinned map, or ""
        self.token_axes: list[TokenAxis] = []
        self._shown_n: int | None = None
        self._title_rows = None
        self.stacked = False      # the average map below the six (see STACK_BELOW_LINES)
        self.columns = HEAD_COLUMNS
        self._rows_set = 0        # map-grid rows _place_maps has configured
        self._placing = self._place_again = False
        self.minimum_height = MinimumHeight(self, self.least_height)

        # Wrapping labels: a long line would widen the layout past a narrow view and clip
        # the average map on the right. A grid of their own: over the maps or beside them.
        self.kind_label, self.info_label = TitleLabel(), TitleLabel()
        self.texts = self.addLayout(row=0, col=0)
        self.texts.setContentsMargins(0, 0, 0, 0)
        # as high as the texts, at the top of the maps' row when beside them
        self.texts.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.texts.addItem(self.kind_label, row=0, col=0)
        self.texts.addItem(self.info_label, row=1, col=0)
        # The maps get a grid of their own, so the long labels above cannot skew its columns.
        self.maps = self.addLayout(row=1, col=0)
        self.head_plots, self.head_images, self.titles = [], [], []
        for i in range(HEAD_COUNT):   # rows: title, map, title, map
            plot, image = self._map(2 * (i // HEAD_COLUMNS), i % HEAD_COLUMNS, compact=True)
            self.head_plots.append(plot)
            self.head_images.append(image)
        self.average_plot, self.average_image = self._map(0, HEAD_COLUMNS, rowspan=3)
        self._place_maps()
        self.ci.layout.setRowStretchFactor(1, 1)

    def _title_grid(self) -> list[tuple[int, list]]:
        """(grid row, titles) of each row of map titles in the present arrangement."""
        c, average = self.columns, self.titles[HEAD_COUNT]
        heads = self.titles[:HEAD_COUNT]
        rows = [(2 * r, heads[r * c:(r + 1) * c]) for r in range(math.ceil(HEAD_COUNT / c))]
        if self.stacked:
            return rows + [(2 * len(rows), [average])]
        rows[0][1].append(average)
        return rows

    def _place_maps(self) -> None:
        """The six maps in `columns` columns (title rows above map rows), the average beside
        them (three rows high) or, stacked, below them across their columns. Not re-entered:
        a resize while the items move (the window's random use) placed a second arrangement
        into cells the first still held ("QGridLayoutEngine::addItem: … already taken");
        the newest arrangement is placed once the first is done."""
        if self._placing:
            self._place_again = True
            return
        self._placing = True
        try:
            self._place_again = True
            while self._place_again:
                self._place_again = False
                self._place_maps_once()
        finally:
            self._placing = False

    def _place_maps_once(self) -> None:
        grid, c = self.maps.layout, self.columns
        items = [*self.titles, *self.plots]
        for item in items:
            if item in self.maps.items:
                self.maps.removeItem(item)
        for i in range(HEAD_COUNT):
            self.maps.addItem(self.titles[i], row=2 * (i // c), col=i % c)
            self.maps.addItem(self.head_plots[i], row=2 * (i // c) + 1, col=i % c)
        head_rows = math.ceil(HEAD_COUNT / c)
        title, plot = self.titles[HEAD_COUNT], self.average_plot
        if self.stacked:
            self.maps.addItem(title, row=2 * head_rows, col=0, colspan=c)
            self.maps.addItem(plot, row=2 * head_rows + 1, col=0, colspan=c)
        else:
            self.maps.addItem(title, row=0, col=c)
            self.maps.addItem(plot, row=1, col=c, rowspan=2 * head_rows - 1)
        small, average = COLUMN_WEIGHTS[self.text_side]
        for col in range(HEAD_COLUMNS + 1):
            grid.setColumnStretchFactor(col, small if col < c else (
                average if col == c and not self.stacked else 0))
        used = 2 * head_rows + (2 if self.stacked else 0)
        # rows given any setting count as rows (with spacing): only those used now or before
        for row in range(max(used, self._rows_set)):
            grid.setRowMinimumHeight(row, 0)
            grid.setRowMaximumHeight(row, QWIDGETSIZE_MAX if row < used else 0)
            grid.setRowStretchFactor(row, 0 if row % 2 == 0 or row >= used else
                                     (2 if self.stacked and row == used - 1 else 1))
        self._rows_set = max(used, self._rows_set)

    def _longest_word_px(self) -> float:
        """The widest unbreakable piece of the map titles (a word, or a glued Japanese run)."""
        metrics = QFontMetricsF(plot_font(self.theme))
        words = []
        for title in self.titles[:HEAD_COUNT]:
            text = title.text or ""
            word = ""
            for a, b in zip(text, text[1:] + " "):
                if a == WORD_JOINER:
                    continue
                word += a
                breaks = b.isspace() or a.isspace() or (
                    kana_class(a) and kana_class(b) and b != WORD_JOINER)
                if breaks:
                    words.append(word.strip())
                    word = ""
        return max((metrics.horizontalAdvance(w) for w in words if w), default=0.0)

    def _update_stacked(self) -> bool:
        """The maps beside or below one another as their width and titles allow
        (heads_arrangement.map_arrangement); whether they were placed again."""
        if not hasattr(self, "average_plot"):   # resized while build() adds the maps
            return False
        columns, stacked = self.map_arrangement(self.maps_width(), self.text_factor)
        if (columns, stacked) == (self.columns, self.stacked):
            return False
        self.columns, self.stacked = columns, stacked
        self._title_rows = None
        self._place_maps()
        self._fit_title_rows()
        return True

    @property
    def plots(self) -> list[pg.PlotItem]:
        return self.head_plots + [self.average_plot]

    @property
    def images(self) -> list[pg.ImageItem]:
        return self.head_images + [self.average_image]

    # -- the newest result (shown, or kept while hidden) --------------------------
    @property
    def tokens(self) -> list:
        return list(self.newest_results.tokens) if self.newest_results is not None else []

    @property
    def dropped(self) -> int:
        return self.newest_results.dropped if self.newest_results is not None else 0

    @property
    def weights(self) -> np.ndarray | None:
        return self.newest_results.weights if self.newest_results is not None else None

    @property
    def average(self) -> np.ndarray | None:
        return self.newest_results.average if self.newest_results is not None else None

    @property
    def entropies(self) -> tuple[np.ndarray, float] | None:
        r = self.newest_results
        if r is None or r.per_head_entropy is None:
            return None
        return r.per_head_entropy, r.average_entropy

    @property
    def mode(self) -> str | None:
        return self.newest_results.mode if self.newest_results is not None else None

    @property
    def random(self) -> bool:
        return bool(self.newest_results.random) if self.newest_results is not None else False

    def show_results(self, result) -> None:
        """Draw a HeadsResult (engine.head_roles.heads_study) into the existing items."""
        n = len(result.tokens)
        if n == 0:
            for image in self.images:
                image.clear()
                image.setVisible(False)
            for axis in self.token_axes:
                axis.set_labels([])
            self._shown_n = None
        else:
            rect = QRectF(0, 0, n, n)
            for image, data in zip(self.images, [*result.weights, result.average]):
                image.setImage(data, levels=(0.0, 1.0), rect=rect)
                image.setVisible(True)
            labels = [t.text for t in result.tokens]
            for axis in self.token_axes:
                axis.set_labels(labels)
            if n != self._shown_n:
                self._shown_n = n
                for plot in self.plots:
                    self._fit_view(plot.vb)
        self.token_note = self._token_note_text()
        self._update_texts()
        self._fit_title_rows()
        self.changed.emit()

    @Slot(object)
    def _fit_view(self, vb: pg.ViewBox) -> None:
        """Square cells against the token axes (token_axis.fit_square_cells); the titles
        above have wrapped to the new width."""
        fit_square_cells(vb, self._shown_n or 1)
        self._fit_title_rows()
        self._fit_small_axes(vb)
        self._update_token_note()

    #: A small map shows its token names while its cells keep at least this many text
    #: lines across and down beside them; it shows them again only above SMALL_AXES_AGAIN
    #: times that (the axes' own room would otherwise switch them on and off).
    SMALL_MAP_LINES = 5.0
    SMALL_AXES_AGAIN = 1.15

    def _fit_small_axes(self, vb) -> None:
        """A small map too small for its token names hides them (the average map keeps its
        own; the texts say so)."""
        plots = getattr(self, "head_plots", [])
        plot = next((p for p in plots if p.vb is vb), None)
        if plot is None:
            return
        left, bottom = plot.getAxis("left"), plot.getAxis("bottom")
        shown = left.isVisible()
        room_w, room_h = vb.width(), vb.height()
        if shown:
            room_w, room_h = room_w, room_h
        else:
            room_w, room_h = room_w - left.width(), room_h - bottom.height()
        need = self.SMALL_MAP_LINES * QFontMetricsF(plot_font(self.theme)).height()
        want = min(room_w, room_h) >= need * (1.0 if shown else self.SMALL_AXES_AGAIN)
        if want != shown:
            for name in ("left", "bottom"):
                plot.showAxis(name, want)

    def _token_note_text(self) -> str:
        """thinning_note of the most thinned shown axis, and a word when the small maps
        have no room for their token names at all."""
        if not self._shown_n:
            return ""
        shown = [axis for axis in self.token_axes if axis.isVisible()]
        step = max((axis.step for axis in shown), default=1)
        if any(not p.getAxis("left").isVisible() for p in self.head_plots):
            # Only the average is named: say which map thins its names (the two notes side
            # by side left "labels: 1 token in k" without a map).
            if step > 1:
                return tr("the six small maps have no room for token names; the average "
                          "names 1 token in {k}").format(k=step)
            return tr("the six small maps have no room for token names: see the average")
        return thinning_note(step)

    def _update_token_note(self) -> None:
        """Say so under the entropy lines when a map names only every k-th token (its
        cells are too small for the names even at their smallest size)."""
        if not hasattr(self, "info_label"):
            return
        note = self._token_note_text()
        if note != self.token_note:
            self.token_note = note
            self._update_texts()

    # -- texts and style -----------------------------------------------------------
    def text_specs(self) -> dict:
        """label → (label, text, colour, size × the plot text) of every text: the kind of
        heads, the entropy lines (or a message), the map titles."""
        fg = self.theme.foreground
        if self.random:
            kind = tr("random heads (seeded, untrained)")
            colour = OKABE_ITO["vermillion"]
        else:
            kind = tr("hand-built heads (rules, not learned)")
            colour = OKABE_ITO["blue"] if self.theme.name != "dark" else OKABE_ITO["sky"]
        specs = [(self.kind_label, f"<b>{kind}</b>", colour, 1.2)]
        names = role_titles()
        for i, label in enumerate(self.titles[:HEAD_COUNT]):
            title = (tr("random head {i}").format(i=i + 1) if self.random
                     else names[ROLE_HEADS[i]])
            specs.append((label, glue_words(title), fg, 1.0))
        specs.append((self.titles[HEAD_COUNT], glue_words(
            tr("average of the {h} heads").format(h=HEAD_COUNT)), fg, 1.0))
        specs.append((self.info_label, *self._info_spec()))
        return {spec[0]: spec for spec in specs}

    def _info_spec(self) -> tuple:
        """(text, colour, size) of the entropy lines, or of what stands in their place."""
        fg = self.theme.foreground
        if self.results is None:
            return tr("computing…"), fg, 1.0
        if self.entropies is None:
            return tr("Type a sentence above to see the heads."), OKABE_ITO["vermillion"], 1.2
        per_head, avg = self.entropies
        n = len(self.tokens)
        lines = [tr("entropy of the average: {avg} nats vs mean per-head entropy: {mean} nats "
                    "(max ln {n} = {max})").format(
            avg=format_number(avg), mean=format_number(float(per_head.mean())), n=n,
            max=format_number(math.log(n)) if n > 1 else "0"),
            tr("averaging blurs the roles (entropy is concave: H(average) ≥ mean H(head))")]
        if self.dropped:
            lines[1] += " · " + tr("showing the first {k} tokens; {d} more not drawn").format(
                k=n, d=self.dropped)
        if self.token_note:
            lines.append(self.token_note)
        return "<br>".join(lines), fg, 1.0

    def _update_texts(self) -> None:
        """Every text at its size × text_factor; then the texts over or beside the maps."""
        specs = self.text_specs()
        for label, text, colour, size in specs.values():
            label.setText(text, color=colour,
                          size=f"{self.theme.font_pt * size * self.text_factor:.1f}pt")
        self.message = specs[self.info_label][1] if self.results is not None and \
            self.entropies is None else ""
        self.arrange()

    @property
    def entropy_text(self) -> str:
        return self.info_label.text

    @property
    def kind_text(self) -> str:
        return self.kind_label.text

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self.arrange()
            self._update_stacked()
            self.minimum_height.request()

    def restyle(self) -> None:
        font = plot_font(self.theme, 0.85)
        self._title_rows = None
        self.minimum_height.reset()
        self._update_stacked()
        for plot in self.plots:
            self.style_plot(plot)
        for axis in self.token_axes:
            axis.setTickFont(font)
        self.token_note = ""
        self._update_token_note()
        self._update_texts()
        self._fit_title_rows()

    def _fit_title_rows(self) -> None:
        """Each row of map titles as tall as its longest title wrapped to its column (two
        lines at least, so that the rows stay put while the texts change)."""
        if not hasattr(self, "average_plot"):  # resized while build() adds the maps
            return
        # two lines at least over the maps, so that the rows stay put while the texts
        # change; one beside them, where the maps need the height
        lines = 1 if self.text_side else 2
        two_lines = lines * QFontMetricsF(plot_font(self.theme, self.text_factor)).height() + 6
        rows = self._title_grid()
        heights = []
        for row, titles in rows:
            needed = max(title.item.boundingRect().height() for title in titles)
            heights.append(max(two_lines, math.ceil(needed)))
        if heights != self._title_rows:
            self._title_rows = heights
            for (row, _titles), height in zip(rows, heights):
                self.maps.layout.setRowFixedHeight(row, height)
        self.minimum_height.request()

    def retranslate(self) -> None:
        self._update_texts()
        self._fit_title_rows()
