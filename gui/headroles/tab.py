"""The "Head roles" tab: the sentence, token mode and random-heads inputs above a HeadsView
(gui/panels/heads_view.py).

The inputs render AppState.heads_input and send intents to it; every change of it is a
request to the head-roles study (heads_view.compute_heads), whose newest HeadsResult the view
draws. follow_language keeps an untouched default sentence in the UI language.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Slot
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGridLayout, QHBoxLayout, QLabel,
                               QSpinBox, QVBoxLayout, QWidget)

from engine.head_roles import MAX_TOKENS, mode_for_text

from gui.common import names
from gui.common.guard import guarded, listener
from gui.common.i18n import current_language, tr
from gui.panels.heads_view import HeadsView, compute_heads
from gui.common.qt_util import all_signals_blocked
from gui.common.sentence_edit import SentenceEdit
from gui.studies.cycle import StudyCycle
from gui.state import AppState, HeadsInput
from gui.state.app_state import DEFAULT_SENTENCES, DEFAULT_TOKEN_MODES, HEADS_SEED_MAX

__all__ = ["HeadRolesTab", "compute_heads", "follow_language"]


def follow_language(state: AppState, language: str) -> None:
    """An untouched default sentence follows the UI language, with its token mode (the
    window calls this too: the Head roles tab may not be built yet)."""
    if language not in DEFAULT_SENTENCES:
        return
    other = [lang for lang in DEFAULT_SENTENCES if lang != language]
    if state.heads_input.sentence.strip() in (DEFAULT_SENTENCES[o] for o in other):
        state.update_heads_input(sentence=DEFAULT_SENTENCES[language],
                                 token_mode=HeadRolesTab.DEFAULT_MODES[language])


class HeadRolesTab(QWidget):
    """Sentence, tokenisation and random-heads inputs above a HeadsView.

    The inputs render AppState.heads_input and send intents to it; every change of it
    is a request to the head-roles study, whose newest HeadsResult the view draws. A
    panel made without a state and a study (a test, a script) makes and owns both."""

    MODE_ORDER = ("en", "ja_chars", "ja_words")
    #: The token mode of each language's default sentence.
    DEFAULT_MODES = DEFAULT_TOKEN_MODES

    def __init__(self, state: AppState | None = None, study: StudyCycle | None = None,
                 parent=None):
        super().__init__(parent)
        self.setObjectName(names.HEADS_PANEL)
        self.state = state or AppState()
        self.owns_study = study is None
        self.study = study or StudyCycle("heads", compute_heads, self)
        self.sentence_label = QLabel(objectName="sentenceLabel")
        self.sentence_edit = SentenceEdit(objectName="sentenceEdit")
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
        sentence_row.addWidget(self.sentence_edit.note)
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
    @listener
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
