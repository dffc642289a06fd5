"""The scores box of the control panel: live q·k, the field and its error line, the
sliders, the preset box and Sample q·k.

Every widget sends an intent through `update` (the panel's: it reports a refused value
and re-renders); the panel's sync_from calls `sync_from(params)`, which sets every widget
here with its signals blocked. The field's error message lasts as long as the field holds
the refused text: it goes when the scores shown change by any other way.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtWidgets import (QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QSlider, QVBoxLayout, QWidget)

from engine import Params, ParamsError, live_scores_for, random_scores
from engine.params import SCORES_MAX
from engine.scores import format_scores, parse_scores

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.qt_util import all_signals_blocked, signals_blocked
from gui.controls.fields import SCORE_SLIDER_RANGE, SCORE_SLIDER_SCALE, score_to_slider
from gui.controls.presets import SCORE_PRESET_KEYS, preset_scores, scores_preset_key
from gui.controls.texts import fill_combo, lengths_note, two_lines


def shown_scores(params: Params) -> tuple[float, ...]:
    """The scores the softmax panel uses: the live q·k at d_k (the engine's own function,
    so they equal Results.softmax.scores) or the typed ones."""
    return live_scores_for(params) if params.live_scores else params.scores


#: Typed scores are applied this long after the last key (and at once on Enter or leaving).
TYPING_PAUSE_MS = 300


class ScoresBox(QGroupBox):
    """The "Scores" group box. `state` (AppState) gives the Params shown (state.params); `update(**changes)`
    sends an intent and returns whether it was taken. Widgets (objectNames): live_scores_check
    (liveScoresCheck), scores_edit (scoresEdit), scores_error (scoresError), score_sliders
    (scoreSlider0…), scores_preset (scoresPreset), sample_button (sampleScoresButton)."""

    def __init__(self, state, update: Callable[..., bool], parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self._update = update
        self._sample_presses = 0
        self._narrow = False
        self._live_text = ""
        self._scores_error_for: tuple | None = None   # the scores shown when it was raised
        self._scores_error_reason: str | None = None
        self._build()
        self.retranslate()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.live_scores_check = QCheckBox(objectName="liveScoresCheck")
        self.scores_edit = QLineEdit(objectName="scoresEdit")
        self.scores_error = QLabel(objectName="scoresError")
        self.scores_error.setWordWrap(True)
        self.scores_error.setStyleSheet("color: #C0392B; font-weight: bold;")
        self.scores_error.setVisible(False)
        self.scores_preset = QComboBox(objectName="scoresPreset")
        self.sample_button = QPushButton(objectName="sampleScoresButton")
        slider_row = QHBoxLayout()
        self.score_sliders: list[QSlider] = []
        for i in range(SCORES_MAX):
            slider = QSlider(Qt.Orientation.Vertical, objectName=f"scoreSlider{i}")
            slider.setRange(-SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE,
                            SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE)
            slider.setMinimumHeight(70)
            slider.valueChanged.connect(self._on_score_slider)
            slider_row.addWidget(slider)
            self.score_sliders.append(slider)
        layout.addWidget(self.live_scores_check)
        layout.addWidget(self.scores_edit)
        layout.addWidget(self.scores_error)
        layout.addLayout(slider_row)
        pair = QWidget()
        row = QHBoxLayout(pair)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.scores_preset, 1)
        row.addWidget(self.sample_button)
        layout.addWidget(pair)
        self.live_scores_check.toggled.connect(self._on_live_scores)
        self.scores_edit.editingFinished.connect(self._apply_scores_text)
        # Typing: the scores are applied once the keys have paused for TYPING_PAUSE_MS.
        self._typing_pause = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS,
                                    objectName="scoresTypingPause")
        self._typing_pause.timeout.connect(self._apply_scores_text)
        self.scores_edit.textEdited.connect(self._apply_scores_text_later)
        self.scores_preset.activated.connect(self._on_scores_preset)
        self.sample_button.clicked.connect(self._on_sample_scores)

    # -- texts -------------------------------------------------------------------
    def retranslate(self) -> None:
        """Every label, tooltip and preset entry, in the current language."""
        self.setTitle(tr("Scores"))
        self.setToolTip(tr(
            "The softmax panel's scores: one query against 2 to 16 keys. Four lengths in this "
            "window: these scores, the keys n of the saturation study, the tokens of the "
            "multi-head diagram and the sequence length of the cost panel."))
        self._live_text = tr("live q·k at d_k")
        self.live_scores_check.setText(two_lines(self._live_text) if self._narrow
                                       else self._live_text)
        self.live_scores_check.setToolTip(tr(
            "Scores q·k_j sampled at the current d_k from the seed, redrawn as d_k moves: raw "
            "they spread like √d_k and softmax goes one-hot; ÷√d_k keeps their shape. Typing or "
            "choosing scores switches it off."))
        self.scores_edit.setPlaceholderText(tr("2 to 16 numbers, e.g. 10, 1, 1, 1"))
        self.scores_edit.setToolTip(tr("Scores separated by commas or spaces") + "\n\n"
                                    + lengths_note())
        names = {"ten": "(10, 1, 1, 1)", "hundred": "(100, 91, 91, 91)", "uniform": tr("uniform"),
                 "gap": tr("one large gap"), "random": tr("random at current d_k")}
        fill_combo(self.scores_preset, [(tr("preset…"), None, None)] + [
            (names[key], key, None) for key in SCORE_PRESET_KEYS])
        self.scores_preset.setToolTip(tr(
            "Example scores; choosing one switches live scores off. The box shows \"custom "
            "scores\" once the scores are none of them."))
        self.sample_button.setText(tr("Sample q·k"))
        self.sample_button.setToolTip(tr("Fill the scores with q·k_j sampled at the current d_k"))
        self._show_preset(self.state.params)
        self._show_scores_error_text()

    def set_narrow(self, narrow: bool) -> None:
        """The live-scores check box's text on two lines (True) or one."""
        if narrow != self._narrow:
            self._narrow = narrow
            self.live_scores_check.setText(two_lines(self._live_text) if narrow
                                           else self._live_text)

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- params → widgets ----------------------------------------------------------
    @Slot(object)
    def sync_from(self, params: Params) -> None:
        """Show `params`' scores (live or typed) in the check box, the field and the
        sliders, and the preset they match; signals blocked."""
        with all_signals_blocked([self.live_scores_check, self.scores_edit,
                                  *self.score_sliders]):
            self.live_scores_check.setChecked(params.live_scores)
            scores = shown_scores(params)
            text = format_scores(scores)
            if self._scores_error_for is not None and scores != self._scores_error_for:
                self._set_scores_error(None)   # the scores moved on: the message is stale
            if self._scores_error_for is None and self.scores_edit.text() != text:
                self.scores_edit.setText(text)
            for i, slider in enumerate(self.score_sliders):
                slider.setVisible(i < len(scores))
                if i < len(scores):
                    slider.setValue(score_to_slider(scores[i]))
                    tip = f"k{i + 1} = {scores[i]:g}"
                    if slider.toolTip() != tip:
                        slider.setToolTip(tip)
        self._show_preset(params)

    def _show_preset(self, params: Params) -> None:
        """The preset the scores match, or the first entry: "custom scores" (or "preset…"
        while the scores are live)."""
        none_text = tr("preset…") if params.live_scores else tr("custom scores")
        if self.scores_preset.itemText(0) != none_text:
            self.scores_preset.setItemText(0, none_text)
        index = self.scores_preset.findData(scores_preset_key(params))
        if self.scores_preset.currentIndex() != max(index, 0):
            with signals_blocked(self.scores_preset):
                self.scores_preset.setCurrentIndex(max(index, 0))

    # -- the error line ------------------------------------------------------------
    def _set_scores_error(self, reason: str | None) -> None:
        """Show why the typed scores were not applied, for as long as the field holds that
        text: it goes when the scores change by any other way (a slider, a preset, live
        scores at a new d_k, a session, a lesson step), shown or hidden alike."""
        self._scores_error_reason = reason
        if reason is None:
            self._scores_error_for = None
            self.scores_error.setVisible(False)
            return
        self._scores_error_for = shown_scores(self.state.params)
        self._show_scores_error_text()
        self.scores_error.setVisible(True)

    def _show_scores_error_text(self) -> None:
        """The message in the current language (retranslate calls it too)."""
        if self._scores_error_reason is not None:
            self.scores_error.setText(tr("Not applied: {reason}. Showing the last valid "
                                         "scores.").format(reason=self._scores_error_reason))

    @property
    def scores_error_text(self) -> str:
        """The message shown under the scores field ("" when none), hidden controls or not."""
        return self.scores_error.text() if self._scores_error_for is not None else ""

    # -- widgets → intents ---------------------------------------------------------
    @Slot()
    def _apply_scores_text(self) -> None:
        text = self.scores_edit.text()
        try:
            scores = parse_scores(text)
        except ParamsError as exc:
            self._set_scores_error(str(exc))
            return
        self._set_scores_error(None)
        p = self.state.params
        shown = parse_scores(format_scores(shown_scores(p)))   # as the field shows them
        if scores != shown or (scores != p.scores and not p.live_scores):
            self._update(scores=scores, live_scores=False)

    @Slot(str)
    def _apply_scores_text_later(self, _text: str = "") -> None:
        self._typing_pause.start()      # restarted by every key: one apply after the pause

    @Slot(bool)
    def _on_live_scores(self, on: bool) -> None:
        self._set_scores_error(None)
        self._update(live_scores=on)

    @Slot(int)
    def _on_score_slider(self, _value: int) -> None:
        scores = list(shown_scores(self.state.params))   # what the sliders show
        for i in range(len(scores)):
            slider_value = self.score_sliders[i].value() / SCORE_SLIDER_SCALE
            if score_to_slider(scores[i]) != self.score_sliders[i].value():
                scores[i] = slider_value
        self._set_scores_error(None)
        self._update(scores=tuple(scores), live_scores=False)

    @Slot(int)
    def _on_scores_preset(self, index: int) -> None:
        key = self.scores_preset.itemData(index)
        if key is None:
            return
        self._set_scores_error(None)
        self._update(scores=preset_scores(key, self.state.params), live_scores=False)

    @Slot()
    def _on_sample_scores(self) -> None:
        p = self.state.params
        self._sample_presses += 1
        self._set_scores_error(None)
        self._update(scores=random_scores(p.dk, len(p.scores), p.seed + self._sample_presses,
                                          p.distribution, p.sigma), live_scores=False)
