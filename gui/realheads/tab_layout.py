"""Where the Real heads tab puts its widgets: windowed, and in presentation mode.

Windowed: the model chooser over the sentence; the grids (the model's heads, and beside
them, or below them when the column is narrow, the learned and hand-built heads) beside the
clicked head's detail (below it when half the tab is too narrow for the detail's line
view); under them the texts beside the variance plot (below it at large text); then "Do we
need all the heads?". The panels' minimum heights grow with the text, and the window
scrolls rather than squeezing them.

Presentation (AppState.view.presentation, a classroom projector): the tab must fit the
workspace without scrolling, at any text size (at 300 % on 1280 × 720 it is 440 px high,
a line of text 40 of them). The chooser, the sentence and a page chooser (modelHeadsPages,
a combo: a tab bar's four tabs took half the row) share one row; the "Model:" and
"Sentence:" names are left out while the sentence would otherwise get under
SENTENCE_CHARS characters, and the sentence goes to a row of its own only when it still
would. The body shows one page:

    heads      the model's heads beside the clicked head (the lesson's step 8 shows this)
    compare    the learned and hand-built heads beside the clicked head
    variance   every head's score variance
    texts      the tab's texts (the role summary, the variance table, the head's scores)
    pruning    "Do we need all the heads?"

The panels then fit the room they get (set_fit_room) instead of asking for their windowed
minimum heights, and the heads and compare pages share their width between the grid and
the detail at fixed shares (ROOM_SHARES). The arrangement
changes on a resize, a font, language or presentation change only (TabLayout.arrange),
never per result.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (QBoxLayout, QComboBox, QHBoxLayout, QSplitter, QVBoxLayout,
                               QWidget)

from gui.common.i18n import tr
from gui.panels.grid_common import grids_fit_beside, grids_shares

PAGES = ("heads", "compare", "variance", "texts", "pruning")


def page_names() -> dict[str, tuple[str, str]]:
    """page → (tab text, tooltip)."""
    return {
        "heads": (tr("Heads"), tr("The model's heads, and the clicked head up close")),
        "compare": (tr("Compare"), tr("The heads trained in the Training tab and the "
                                      "hand-built heads, and the clicked head up close")),
        "variance": (tr("Variance"), tr("Each head's score variance within rows")),
        "texts": (tr("Notes"), tr("What the tab found: roles, the variance table, the "
                                  "head's scores")),
        "pruning": (tr("Pruning"), tr("Do we need all the heads?")),
    }


class TabLayout(QObject):
    """Builds the tab's layout from its widgets and arranges it (module docstring)."""

    #: Lines of text the texts under the maps show at least, windowed (they scroll).
    TEXT_LINES = 6
    #: The variance plot goes beside the texts while LOWER_TEXT_SHARE of the tab holds
    #: this many average characters of text, below them otherwise (300 % text).
    TEXT_BESIDE_CHARS = 48
    LOWER_TEXT_SHARE = 0.55
    #: Lines of text the variance plot is high at least, windowed (its title, axis and
    #: strips); in presentation ROOM_PLOT_LINES, and the texts ROOM_TEXT_LINES.
    PLOT_LINES = 16
    ROOM_PLOT_LINES = 6
    ROOM_TEXT_LINES = 2
    #: The shares of the heads and compare pages' width: the grid's, the detail's.
    ROOM_SHARES = (58, 42)
    #: Characters the sentence shows at least in presentation's one row (see the module
    #: docstring).
    SENTENCE_CHARS = 24

    def __init__(self, tab):
        super().__init__(tab)
        t = tab
        self.presenting = False
        self.page = "heads"
        self.page_bar = QComboBox(objectName="modelHeadsPages")
        self.page_bar.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for page in PAGES:
            self.page_bar.addItem("", page)
        self.page_bar.setVisible(False)
        self.page_bar.currentIndexChanged.connect(self._on_page)
        # The heading: two rows; arrange() places the chooser, the sentence and the bar.
        self.rows = (QHBoxLayout(), QHBoxLayout())
        self.heading = QVBoxLayout()
        for row in self.rows:
            self.heading.addLayout(row)
        self._heading = None        # the arrangement of the heading now
        self._place_heading("windowed")
        self._split_for = None      # the splitter's width its presentation shares are for
        self.grids = QSplitter(Qt.Orientation.Vertical, objectName="modelHeadsGrids")
        self.grids.addWidget(t.grid)
        self.grids.addWidget(t.compare)
        self.grids.setStretchFactor(0, 1)
        self.grids.setStretchFactor(1, 0)     # the compared heads: the room they need
        self.grids.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="modelHeadsSplitter")
        self.splitter.addWidget(self.grids)
        self.splitter.addWidget(t.detail)
        self.text_scroll = t.texts
        # The texts and, beside them (below them when the tab is narrow), every head's
        # score variance: the table's layers, head by head.
        self.lower = QSplitter(Qt.Orientation.Horizontal, objectName="modelHeadsLower")
        self.lower.addWidget(self.text_scroll)
        self.lower.addWidget(t.variance_plot)
        self.lower.setStretchFactor(0, 3)
        self.lower.setStretchFactor(1, 2)
        self.lower.setChildrenCollapsible(False)
        self._lower_sized = False   # the texts' and the variance plot's shares were set
        body = self.body = QSplitter(Qt.Orientation.Vertical, objectName="modelHeadsBody")
        body.addWidget(self.splitter)
        body.addWidget(self.lower)
        # "Do we need all the heads?": the button and the pruning curve, under the texts.
        pruning = self.pruning = QWidget(objectName="modelPruningBox")
        pruning_column = QVBoxLayout(pruning)
        pruning_column.setContentsMargins(0, 0, 0, 0)
        pruning_row = QHBoxLayout()
        pruning_row.addWidget(t.prune_button)
        pruning_row.addWidget(t.prune_status, 1)
        pruning_column.addLayout(pruning_row)
        pruning_column.addWidget(t.pruning_plot, 1)
        body.addWidget(pruning)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        body.setStretchFactor(2, 2)
        body.setSizes([720, 280, 280])   # scaled to the tab's height when shown
        body.setChildrenCollapsible(False)
        layout = QVBoxLayout(t)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(self.heading)
        layout.addWidget(t.message_label)
        layout.addWidget(body, 1)

    @property
    def tab(self):
        """The tab: its Qt parent (an attribute would keep it alive in a reference cycle)."""
        return self.parent()

    # -- presentation and pages ----------------------------------------------------------
    def set_presenting(self, on: bool) -> None:
        """Presentation's arrangement (on) or the windowed one; the panels fit their room
        in presentation."""
        if on == self.presenting and self._heading is not None:
            return
        self.presenting = on
        t = self.tab
        for panel in (t.grid, t.compare, t.detail, t.variance_plot, t.pruning_plot):
            panel.set_fit_room(on)
        self.page_bar.setVisible(on)
        if on:
            self.splitter.setOrientation(Qt.Orientation.Horizontal)
            self.grids.setOrientation(Qt.Orientation.Vertical)
        self._lower_sized = False
        self._heading = None
        self._split_for = None
        self._show_page()
        self.split_heads_page()

    def split_heads_page(self) -> None:
        """Presentation: the grid (or the compared heads) and the detail share the width
        at ROOM_SHARES (the grid's 6 × 12 cells fill its share's height at 300 % text on
        1280 × 720, and the detail's title keeps to one line)."""
        width = self.splitter.width() - self.splitter.handleWidth()
        if not self.presenting or width <= 0 or width == self._split_for:
            return
        self._split_for = width      # a handle dragged since stays until the next resize
        self.splitter.setSizes([round(width * share / sum(self.ROOM_SHARES))
                                for share in self.ROOM_SHARES])

    def show_page(self, page: str) -> None:
        """Show `page` (PAGES) in presentation; windowed, every page is on screen."""
        self.page_bar.setCurrentIndex(PAGES.index(page))

    def _on_page(self, index: int) -> None:
        self.page = PAGES[max(0, index)]
        self._show_page()

    def _show_page(self) -> None:
        t, page = self.tab, self.page
        shown = {
            self.splitter: page in ("heads", "compare"),
            t.grid: page == "heads",
            t.compare: page == "compare",
            self.lower: page in ("variance", "texts"),
            self.text_scroll: page == "texts",
            t.variance_plot: page == "variance",
            self.pruning: page == "pruning",
        }
        for widget, visible in shown.items():
            widget.setVisible(visible or not self.presenting)

    def retranslate(self) -> None:
        for index, (text, tip) in enumerate(page_names()[p] for p in PAGES):
            self.page_bar.setItemText(index, text)
            self.page_bar.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        self.page_bar.setToolTip(tr("What the tab shows"))

    # -- arrangement -------------------------------------------------------------------
    def arrange(self, width: int) -> None:
        """The arrangement for a tab `width` wide, windowed or in presentation (module
        docstring): the heading's rows, the fetch button beside or under the chooser, the
        variance plot beside or under the texts, the detail beside or under the grids."""
        t = self.tab
        metrics = t.fontMetrics()
        t.picker.arrange(width)
        self._arrange_heading(width)
        lines = self.ROOM_TEXT_LINES if self.presenting else self.TEXT_LINES
        self.text_scroll.setMinimumHeight(lines * metrics.lineSpacing())
        beside = self.LOWER_TEXT_SHARE * width >= self.TEXT_BESIDE_CHARS * metrics.averageCharWidth()
        lower = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        plot_lines = self.ROOM_PLOT_LINES if self.presenting else self.PLOT_LINES
        t.variance_plot.setMinimumHeight(plot_lines * metrics.lineSpacing())
        if self.lower.orientation() != lower or not self._lower_sized:
            self._lower_sized = width > 0 and t.isVisible()
            self.lower.setOrientation(lower)
            self.lower.setSizes([3000, 2000] if beside else [1000, 1000])
        if self.presenting:
            self.split_heads_page()
            return
        stacked = t.detail.wants_stacked(width / 2)
        orientation = Qt.Orientation.Vertical if stacked else Qt.Orientation.Horizontal
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            self.splitter.setSizes([1000, 1000])
        column = width if stacked else width / 2
        beside = grids_fit_beside(t.grid, t.compare, column)
        grids = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        if self.grids.orientation() != grids:
            self.grids.setOrientation(grids)
            # Beside: widths as the two grids' columns; below: the compared heads keep the
            # height they need, the model's grid takes the rest.
            shares = grids_shares(t.grid, t.compare) if beside else (1, 0)
            for index, share in enumerate(shares):
                self.grids.setStretchFactor(index, round(10 * share))
            self.grids.setSizes([round(1000 * share) or 1 for share in shares])

    def _arrange_heading(self, width: int) -> None:
        """Windowed: the chooser over the sentence. Presentation: the chooser, the sentence
        and the page chooser in one row, without the names while the sentence would
        otherwise be short, the sentence in a row of its own if it still would (module
        docstring)."""
        t = self.tab
        names = (t.model_label, t.sentence_label)
        if self.presenting:
            spacing = max(self.rows[0].spacing(), 0)
            room = width - 8 - 4 * spacing - t.picker.one_row_width() \
                - self.page_bar.sizeHint().width() - t.sentence_edit.minimumSizeHint().width()
            need = self.SENTENCE_CHARS * t.fontMetrics().averageCharWidth()
            named = t.sentence_label.sizeHint().width() + spacing
            if room - named >= need:
                arrangement = "one row"
            else:
                arrangement = "one row, unnamed" if room + t.model_label.sizeHint().width() \
                    >= need else "two rows"
        else:
            arrangement = "windowed"
        if arrangement != self._heading:
            self._place_heading(arrangement)
        for label in names:
            label.setHidden(arrangement == "one row, unnamed")

    def _place_heading(self, arrangement: str) -> None:
        t = self.tab
        self._heading = arrangement
        for row in self.rows:
            while row.count():
                row.takeAt(0)
        first, second = self.rows
        if arrangement.startswith("one row"):
            self._add(first, (t.picker, 0), (t.sentence_label, 0), (t.sentence_edit, 1),
                      (t.sentence_edit.note, 0), (self.page_bar, 0))
        elif arrangement == "two rows":
            self._add(first, (t.picker, 1), (self.page_bar, 0))
            self._add(second, (t.sentence_label, 0), (t.sentence_edit, 1),
                      (t.sentence_edit.note, 0))
        else:
            self._add(first, (t.picker, 1))
            self._add(second, (t.sentence_label, 0), (t.sentence_edit, 1),
                      (t.sentence_edit.note, 0))
            self._add(first, (self.page_bar, 0))      # hidden, but kept in the layout

    @staticmethod
    def _add(row: QBoxLayout, *widgets) -> None:
        for widget, stretch in widgets:
            row.addWidget(widget, stretch)
