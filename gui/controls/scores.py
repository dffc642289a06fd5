"""The scores part of the control panel: the field, its error line, the sliders, the
preset box and Sample q·k. A mixin of ControlPanel (listed before QWidget)."""
from __future__ import annotations

from PySide6.QtCore import Slot
from superqt.utils import qdebounced

from engine import ParamsError, random_scores
from engine.scores import format_scores, parse_scores

from gui.controls.fields import SCORE_SLIDER_SCALE, score_to_slider
from gui.controls.presets import preset_scores
from gui.common.i18n import tr


class ScoresControls:
    """Typed, slid, preset and sampled scores → AppState (see the module docstring)."""

    @Slot()
    def _apply_scores_text(self) -> None:
        text = self.scores_edit.text()
        try:
            scores = parse_scores(text)
        except ParamsError as exc:
            self._set_scores_error(str(exc))
            return
        self._set_scores_error(None)
        p = self.model.params
        shown = parse_scores(format_scores(self.shown_scores(p)))   # as the field shows them
        if scores != shown or (scores != p.scores and not p.live_scores):
            self._update(scores=scores, live_scores=False)

    def _set_scores_error(self, reason: str | None) -> None:
        """Show why the typed scores were not applied, for as long as the field holds that
        text: it goes when the scores change by any other way (a slider, a preset, live
        scores at a new d_k, a session, a lesson step), shown or hidden alike."""
        self._scores_error_reason = reason
        if reason is None:
            self._scores_error_for = None
            self.scores_error.setVisible(False)
            return
        self._scores_error_for = self.shown_scores(self.model.params)
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

    @qdebounced(timeout=300)
    def _apply_scores_text_later(self, _text: str = "") -> None:
        self._apply_scores_text()

    @Slot(int)
    def _on_score_slider(self, _value: int) -> None:
        scores = list(self.shown_scores(self.model.params))   # what the sliders show
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
        self._update(scores=preset_scores(key, self.model.params), live_scores=False)

    @Slot()
    def _on_sample_scores(self) -> None:
        p = self.model.params
        self._sample_presses += 1
        self._set_scores_error(None)
        self._update(scores=random_scores(p.dk, len(p.scores), p.seed + self._sample_presses,
                                          p.distribution, p.sigma), live_scores=False)
