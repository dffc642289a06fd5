"""Per-head attention maps over a sentence the user edits, and their average.

HeadsView draws six n×n heads (query tokens down the rows, key tokens along
the columns, weight 0 → 1 in viridis) and the mean of the six. The heads are
either hand-built from token rules (engine.head_roles.ROLE_HEADS) or random,
untrained heads; a label says which. The entropy line compares the mean row
entropy of the average with that of the heads (the average is always at
least as flat: entropy is concave).

HeadsView draws HeadsResult values (engine.head_roles.heads_study) that the
head-roles study computes off the GUI thread; HeadsPanel adds the inputs, which
render and change AppState.heads_input.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF, QTimer, Signal, Slot
from PySide6.QtGui import QFontMetricsF, QTextOption
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel,
                               QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from engine.head_roles import MAX_TOKENS, ROLE_HEADS, heads_study, mode_for_text

from ..guard import guarded
from ..qt_util import all_signals_blocked
from ..requests import StudyCycle
from ..state import AppState, HeadsInput
from ..state.app_state import DEFAULT_SENTENCES, HEADS_SEED_MAX, SENTENCE_MAX_CHARS

from .. import panel_names as names
from ..i18n import current_language, tr
from ..style import OKABE_ITO, format_number, plot_font
from .base import Panel, TitleLabel
from .text_fit import WORD_JOINER, MinimumHeight, glue_words, kana_class, lines_px
from .token_axis import TokenAxis, fit_square_cells

QWIDGETSIZE_MAX = (1 << 24) - 1

SEQUENTIAL = pg.colormap.get("viridis")
HEAD_COUNT = len(ROLE_HEADS)
HEAD_COLUMNS = 3
#: A column of small maps narrower than this many text heights broke a Japanese title inside
#: its words (300 % text): the average map then goes below the six, which get the width.
STACK_BELOW_LINES = 5.0


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


class HeadsView(Panel):
    """Six attention heads over the user's tokens and their average (see the module docstring)."""

    changed = Signal()  # a new HeadsResult is on screen

    def __init__(self, parent=None):
        super().__init__(names.HEADS_VIEW, parent)

    def cache_text(self) -> None:
        """No text caches: every title here changes with the sentence, the heads and the
        language, and a device cache kept painting an old (or empty) text of a wrapped
        title, so the entropy line was missing from the screen."""

    # -- construction ------------------------------------------------------------
    def _map(self, row: int, col: int, rowspan: int = 1) -> tuple[pg.PlotItem, pg.ImageItem]:
        """A title in grid row `row` and an n×n map below it."""
        title = TitleLabel()
        # At large text a word can be wider than a small map's column: it breaks, rather
        # than running into the next title.
        option = title.item.document().defaultTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        title.item.document().setDefaultTextOption(option)
        self.maps.addItem(title, row=row, col=col)
        self.titles.append(title)
        row += 1
        left, bottom = TokenAxis("left"), TokenAxis("bottom")
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
        self.token_axes: list[TokenAxis] = []
        self._shown_n: int | None = None
        self._title_rows = None
        self.stacked = False      # the average map below the six (see STACK_BELOW_LINES)
        self.columns = HEAD_COLUMNS
        self._rows_set = 0        # map-grid rows _place_maps has configured
        self.minimum_height = MinimumHeight(self, self._needed_height)

        # Wrapping labels: a long line would widen the layout past a narrow view and clip
        # the average map on the right.
        self.kind_label, self.info_label = TitleLabel(), TitleLabel()
        self.addItem(self.kind_label, row=0, col=0)
        self.addItem(self.info_label, row=1, col=0)
        # The maps get a grid of their own, so the long labels above cannot skew its columns.
        self.maps = self.addLayout(row=2, col=0)
        self.head_plots, self.head_images, self.titles = [], [], []
        for i in range(HEAD_COUNT):   # rows: title, map, title, map
            plot, image = self._map(2 * (i // HEAD_COLUMNS), i % HEAD_COLUMNS)
            # The small maps leave their token names to the large average map: rotated labels
            # on every map would take more room than the cells.
            plot.hideAxis("left")
            plot.hideAxis("bottom")
            self.head_plots.append(plot)
            self.head_images.append(image)
        self.average_plot, self.average_image = self._map(0, HEAD_COLUMNS, rowspan=3)
        self._place_maps()
        self.ci.layout.setRowStretchFactor(2, 1)

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
        them (three rows high) or, stacked, below them across their columns."""
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
        for col in range(HEAD_COLUMNS + 1):
            grid.setColumnStretchFactor(col, 4 if col < c else (7 if col == c and not
                                                                 self.stacked else 0))
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

    def _update_stacked(self) -> None:
        """Beside, below, and below in two columns: the first arrangement whose columns
        are wide enough for the titles (STACK_BELOW_LINES, then the longest word)."""
        if not hasattr(self, "average_plot"):   # resized while build() adds the maps
            return
        width = self.width() - 16
        line = QFontMetricsF(plot_font(self.theme)).height()
        columns, stacked = HEAD_COLUMNS, False
        if width * 4 / (4 * HEAD_COLUMNS + 7) < STACK_BELOW_LINES * line:
            stacked = True
            if width / HEAD_COLUMNS - 8 < self._longest_word_px():
                columns = 2
        if (columns, stacked) != (self.columns, self.stacked):
            self.columns, self.stacked = columns, stacked
            self._title_rows = None
            self._place_maps()
            self._fit_title_rows()

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
        self._update_texts()
        self._fit_title_rows()
        self.changed.emit()

    @Slot(object)
    def _fit_view(self, vb: pg.ViewBox) -> None:
        """Square cells against the token axes (token_axis.fit_square_cells); the titles
        above have wrapped to the new width."""
        fit_square_cells(vb, self._shown_n or 1)
        self._fit_title_rows()

    # -- texts and style -----------------------------------------------------------
    def _update_texts(self) -> None:
        fg = self.theme.foreground
        size = f"{self.theme.font_pt * 1.2:.1f}pt"
        if self.random:
            kind = tr("random heads (seeded, untrained)")
            colour = OKABE_ITO["vermillion"]
        else:
            kind = tr("hand-built heads (rules, not learned)")
            colour = OKABE_ITO["blue"] if self.theme.name != "dark" else OKABE_ITO["sky"]
        self.kind_label.setText(f"<b>{kind}</b>", color=colour, size=size)
        names = role_titles()
        small = f"{self.theme.font_pt:.1f}pt"
        for i, label in enumerate(self.titles[:HEAD_COUNT]):
            title = (tr("random head {i}").format(i=i + 1) if self.random
                     else names[ROLE_HEADS[i]])
            label.setText(glue_words(title), color=fg, size=small)
        self.titles[HEAD_COUNT].setText(
            glue_words(tr("average of the {h} heads").format(h=HEAD_COUNT)), color=fg, size=small)
        if self.results is None:
            self.info_label.setText(tr("computing…"), color=fg, size=small)
            return
        if self.entropies is None:
            self.message = tr("Type a sentence above to see the heads.")
            self.info_label.setText(self.message, color=OKABE_ITO["vermillion"], size=size)
            return
        self.message = ""
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
        self.info_label.setText("<br>".join(lines), color=fg, size=small)

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
        self._update_texts()
        self._fit_title_rows()

    def _fit_title_rows(self) -> None:
        """Each row of map titles as tall as its longest title wrapped to its column (two
        lines at least, so that the rows stay put while the texts change)."""
        if not hasattr(self, "average_plot"):  # resized while build() adds the maps
            return
        two_lines = 2 * QFontMetricsF(plot_font(self.theme)).height() + 6
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

    def _needed_height(self) -> float:
        """The texts as wrapped, and the rows of maps five lines high at least (and the
        average below them, ten lines high, when it is stacked)."""
        texts = sum(label.item.boundingRect().height() for label in (self.kind_label, self.info_label))
        maps = (math.ceil(HEAD_COUNT / self.columns) * lines_px(self.theme, 5)
                + (lines_px(self.theme, 10) if self.stacked else 0))
        return texts + sum(self._title_rows or ()) + maps + 24

    def retranslate(self) -> None:
        self._update_texts()
        self._fit_title_rows()


def follow_language(state: AppState, language: str) -> None:
    """An untouched default sentence follows the UI language, with its token mode (the
    window calls this too: the Head roles tab may not be built yet)."""
    if language not in DEFAULT_SENTENCES:
        return
    other = [lang for lang in DEFAULT_SENTENCES if lang != language]
    if state.heads_input.sentence.strip() in (DEFAULT_SENTENCES[o] for o in other):
        state.update_heads_input(sentence=DEFAULT_SENTENCES[language],
                                 token_mode=HeadsPanel.DEFAULT_MODES[language])


class HeadsPanel(QWidget):
    """Sentence, tokenisation and random-heads inputs above a HeadsView.

    The inputs render AppState.heads_input and send intents to it; every change of it
    is a request to the head-roles study, whose newest HeadsResult the view draws. A
    panel made without a state and a study (a test, a script) makes and owns both."""

    MODE_ORDER = ("en", "ja_chars", "ja_words")
    #: The token mode of each language's default sentence.
    DEFAULT_MODES = {"en": "en", "ja": "ja_words"}

    def __init__(self, state: AppState | None = None, study: StudyCycle | None = None,
                 parent=None):
        super().__init__(parent)
        self.setObjectName(names.HEADS_PANEL)
        self.state = state or AppState()
        self.owns_study = study is None
        self.study = study or StudyCycle("heads", compute_heads, self)
        self.sentence_label = QLabel(objectName="sentenceLabel")
        self.sentence_edit = QLineEdit(objectName="sentenceEdit")
        self.sentence_edit.setMaxLength(SENTENCE_MAX_CHARS)
        self.sentence_label.setBuddy(self.sentence_edit)
        self.mode_label = QLabel(objectName="tokenModeLabel")
        self.mode_combo = QComboBox(objectName="tokenModeCombo")
        for mode in self.MODE_ORDER:
            self.mode_combo.addItem("", mode)
        self.mode_label.setBuddy(self.mode_combo)
        self.random_check = QCheckBox(objectName="randomHeadsCheck")
        self.seed_label = QLabel(objectName="headsSeedLabel")
        self.seed_spin = QSpinBox(objectName="headsSeedSpin")
        self.seed_spin.setRange(0, HEADS_SEED_MAX)
        self.seed_label.setBuddy(self.seed_spin)
        self.view = HeadsView()
        self._rendered_sentence: str | None = None

        # Two rows: on one, the inputs alone made the tab 580 px wide, too wide for a
        # 1280-px window with the controls and the cost panel beside it. The options wrap
        # onto a second row when they are wider than the tab (300 % text, Japanese).
        sentence_row = QHBoxLayout()
        sentence_row.addWidget(self.sentence_label)
        sentence_row.addWidget(self.sentence_edit, 1)
        self.options = QGridLayout()
        self.options_wrapped: bool | None = None
        # measured once the new font or texts have reached the widgets (they come as events)
        self._options_timer = QTimer(self, singleShot=True, interval=0)
        self._options_timer.timeout.connect(self._fit_options)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(sentence_row)
        layout.addLayout(self.options)
        layout.addWidget(self.view, 1)
        self._place_options(False)

        self.sentence_edit.textChanged.connect(self._on_sentence)
        self.mode_combo.currentIndexChanged.connect(self._on_mode)
        self.random_check.toggled.connect(self._on_random)
        self.seed_spin.valueChanged.connect(self._on_seed)
        self.state.events.heads_input.connect(self._on_heads_input)
        self.study.result_ready.connect(self._on_result)
        self.retranslate()
        self._on_heads_input(self.state.heads_input)

    def _place_options(self, wrapped: bool) -> None:
        """Token mode, random heads and seed on one row, or (wrapped) the mode on one and
        the random heads and seed below it."""
        if wrapped == self.options_wrapped:
            return
        self.options_wrapped = wrapped
        grid = self.options
        places = ((self.mode_label, 0, 0), (self.mode_combo, 0, 1), (self.random_check, 1, 0),
                  (self.seed_label, 1, 2), (self.seed_spin, 1, 3)) if wrapped else (
            (self.mode_label, 0, 0), (self.mode_combo, 0, 1), (self.random_check, 0, 2),
            (self.seed_label, 0, 3), (self.seed_spin, 0, 4))
        spans = {self.random_check: 2, self.mode_combo: 4} if wrapped else {}
        for widget, row, column in places:
            grid.removeWidget(widget)
            grid.addWidget(widget, row, column, 1, spans.get(widget, 1))
        for column in range(6):
            grid.setColumnStretch(column, 0)
        grid.setColumnStretch(4 if wrapped else 5, 1)

    def _options_width(self) -> int:
        widgets = (self.mode_label, self.mode_combo, self.random_check, self.seed_label,
                   self.seed_spin)
        margins = self.layout().contentsMargins()
        return (sum(w.sizeHint().width() for w in widgets) + 4 * self.options.horizontalSpacing()
                + margins.left() + margins.right())

    @Slot()
    def _fit_options(self) -> None:
        self._place_options(self._options_width() > self.width())

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self._options_timer.start()

    # -- state → widgets, and the request --------------------------------------------
    def _on_heads_input(self, heads: HeadsInput) -> None:
        if heads.sentence != self._rendered_sentence:
            self._rendered_sentence = heads.sentence
            mode = mode_for_text(heads.sentence, heads.token_mode)
            if mode != heads.token_mode:
                # A sentence typed elsewhere (the Real heads tab) in the other script: the
                # mode follows at once, inside this event, so the Real heads tab's debounce
                # sees one change (deferred, it ran MiniLM twice). psygnal hands the nested
                # change to every listener first, then the old value to those after this
                # panel; the Real heads tab connects before it and reads only the sentence.
                self.state.update_heads_input(token_mode=mode)
                return
        widgets = (self.sentence_edit, self.mode_combo, self.random_check, self.seed_spin)
        with all_signals_blocked(widgets):
            if self.sentence_edit.text() != heads.sentence:
                self.sentence_edit.setText(heads.sentence)
            self.mode_combo.setCurrentIndex(self.mode_combo.findData(heads.token_mode))
            self.random_check.setChecked(heads.random_heads)
            self.seed_spin.setValue(heads.seed)
            self.seed_spin.setEnabled(heads.random_heads)
        self.study.request(heads)

    @Slot(object)
    def _on_result(self, result) -> None:
        self.view.offer_results(result)

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        """Wait until the newest input's heads are computed and offered to the view."""
        return self.study.wait_idle(timeout_ms)

    # -- widgets → intents ---------------------------------------------------------------
    @Slot(str)
    def _on_sentence(self, text: str) -> None:
        """Typed text: the token mode follows its script (Japanese → Japanese words); a mode
        chosen in the box for the same text is kept."""
        self.state.update_heads_input(
            sentence=text, token_mode=mode_for_text(text, self.state.heads_input.token_mode))

    def _follow_language(self) -> None:
        follow_language(self.state, current_language())

    @Slot(int)
    def _on_mode(self, index: int) -> None:
        mode = self.mode_combo.itemData(index)
        language = "en" if mode == "en" else "ja"
        other = "ja" if language == "en" else "en"
        sentence = self.state.heads_input.sentence
        if sentence.strip() == DEFAULT_SENTENCES[other]:
            sentence = DEFAULT_SENTENCES[language]   # an untouched default follows the language
        self.state.update_heads_input(token_mode=mode, sentence=sentence)

    @Slot(bool)
    def _on_random(self, on: bool) -> None:
        self.state.update_heads_input(random_heads=on)

    @Slot(int)
    def _on_seed(self, value: int) -> None:
        self.state.update_heads_input(seed=value)

    @guarded
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if self.owns_study:
            self.study.shutdown()
        super().closeEvent(event)

    def retranslate(self) -> None:
        self.sentence_label.setText(tr("Sentence:"))
        self.sentence_edit.setPlaceholderText(tr("type a sentence in English or Japanese"))
        self.sentence_edit.setToolTip(tr("At most {n} tokens are drawn.").format(n=MAX_TOKENS))
        self.mode_label.setText(tr("Tokens:"))
        names = {"en": tr("English words"), "ja_chars": tr("Japanese characters"),
                 "ja_words": tr("Japanese words")}
        for i in range(self.mode_combo.count()):
            self.mode_combo.setItemText(i, names[self.mode_combo.itemData(i)])
        self.random_check.setText(tr("random heads"))
        self.random_check.setToolTip(tr("Replace the hand-built heads by seeded random, "
                                        "untrained heads: softmax(QKᵀ/√d_k) on random X, W_Q, W_K."))
        self.seed_label.setText(tr("seed:"))
        self.view.retranslate()
        self._follow_language()

    @guarded
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.FontChange):
            self._options_timer.start()
        super().changeEvent(event)
