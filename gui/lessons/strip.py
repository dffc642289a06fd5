"""The lesson panel: step text with live numbers, Back / Play / Train / Next, a step
indicator, and the layers × heads picture of the layers step.

The step's numbers come from a LessonContext (gui/lessons/context.py) that `context_source()`
builds; the window replaces the default (simulation and head roles only) with one that
also holds the training runs and the Real heads result.

Entering the lesson (the first step change or Play) remembers the user's Params and lock;
`leave()` (the lesson strip closed) and `reset_controls()` (Edit → Reset) put them back.
"""
from __future__ import annotations

import dataclasses
import html

from PySide6.QtCore import QElapsedTimer, QEvent, QSizeF, QTimer, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import (QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSlider,
                               QVBoxLayout, QWidget)

from engine import Params, ParamsError

from gui.common.i18n import tr
from gui.lessons.context import LessonContext
from gui.lessons.layers_grid import LayersHeadsGrid, preset_for
from gui.lessons.strip_fit import StripFit
from gui.lessons.text import LessonText
from gui.lessons.training_facts import LESSON_RUNS, lesson_training
from gui.lessons.steps import STEPS, step_heads_input, step_params, step_text, sweep_facts
from gui.common.guard import SUPER, guarded, listener

@dataclasses.dataclass(frozen=True)
class StudentSettings:
    """What the student had set before the lesson's first step, put back when the lesson is
    left: the Params, the d_model lock, the head-roles input (its sentence) and the training
    settings (None: left as they are)."""

    params: Params
    lock: bool
    heads_input: object = None
    training: object = None


#: What Edit → Reset puts back when the lesson has not changed the controls: the first run's.
DEFAULT_CONTROLS = StudentSettings(Params(live_scores=True), True)

PLAY_INTERVAL_MS = 700
#: New Results refresh the step's text at once, unless it was refreshed less than this long
#: ago (a drag of a slider): then this long after that refresh, with the newest Results.
#: A text read at reading speed loses nothing, and most of a drag's changes skip the
#: rich-text layout (about a tenth of a change's time on the GUI thread).
TEXT_REFRESH_MIN_MS = 200


class LessonStrip(QWidget):
    """Drives AppState (its intents) through the lesson; `highlight` names the panel a step is about.
    How the strip fits its window (compact strip, text height) is `strip_fit`'s (a
    StripFit, gui/lessons/strip_fit.py); the panel's event handlers call it."""

    highlight = Signal(str)
    lock_requested = Signal(bool)
    train_requested = Signal(str, object)   # experiment, options for TrainingTab.start
    #: The text asks for another height (a new step, new numbers, a new width): the window
    #: gives the lesson strip the height it needs (MainWindow.fit_lesson_dock).
    height_wanted = Signal()
    #: The step's text was set again from the newest Results (refresh_text).
    text_refreshed = Signal()

    def __init__(self, state, model, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonPanel")
        self.state = state          # written through its intents
        self.model = model          # the simulation study: its newest Results
        self.heads_view = None      # the head-roles view, when the window has one
        self.context_source = self.default_context
        self.training_results: dict = {}   # experiment → its last finished result
        self.training_now: str | None = None
        self.user_controls: StudentSettings | None = None   # from before the lesson
        self._watched_window = None
        self._sweep_pos = 0
        self._rendered_key = None
        # Edit → Reset (the window puts it in its Edit menu)
        self.reset_action = QAction(self, objectName="resetAction")
        self.reset_action.setShortcut(QKeySequence("Ctrl+R"))
        self.reset_action.triggered.connect(self.reset_controls)
        self._text_clock = QElapsedTimer()      # since the text's last refresh
        self._text_timer = QTimer(self, singleShot=True, objectName="lessonTextTimer")
        self._text_timer.timeout.connect(self.refresh_text)
        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_INTERVAL_MS)
        self.timer.timeout.connect(self._advance_sweep)
        self._build()
        self._show_step_widgets()
        self.retranslate()
        model.results_ready.connect(self._on_results)
        self.state.events.lesson_step.connect(self._on_step_state)

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        top = self.top_row = QHBoxLayout()
        self.step_label = QLabel(objectName="lessonStep")
        self.title_label = QLabel(objectName="lessonTitle")
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        # Wraps: at 300 % text a long title and the four buttons were wider than the strip,
        # which then scrolled sideways and cut the step's text off on the right.
        self.title_label.setWordWrap(True)
        self.back_button = QPushButton(objectName="lessonBack")
        self.play_button = QPushButton(objectName="lessonPlay")
        self.play_button.setCheckable(True)
        self.next_button = QPushButton(objectName="lessonNext")
        self.train_button = QPushButton(objectName="lessonTrain")
        for w in (self.back_button, self.play_button, self.train_button, self.next_button):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the window's lesson shortcuts
        top.addWidget(self.step_label)
        top.addWidget(self.title_label, 1)
        top.addWidget(self.back_button)
        top.addWidget(self.play_button)
        top.addWidget(self.train_button)
        top.addWidget(self.next_button)
        layout.addLayout(top)
        # A text view, not a QLabel: a word-wrapped label's new text re-lays out the whole
        # dock (and asks the label for its height twice more), which cost a third of a
        # d_k change; the view lays the text out once and repaints itself.
        self.text_view = LessonText(objectName="lessonText")
        self.text_view.setFrameShape(QFrame.Shape.NoFrame)
        self.text_view.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys stay with the lesson shortcuts
        self.text_view.setOpenLinks(False)
        self.text_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.text_view.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        self.text_view.document().setDocumentMargin(2)
        # A new width wraps the text into more or fewer lines. The height is asked for after
        # the document's layout pass, never inside it: a minimum height set from
        # documentSizeChanged resized the view while its text was being laid out, and Qt
        # crashed in QTextEngine (random-use stress run).
        self._fit_timer = QTimer(self, singleShot=True, interval=0)
        self._fit_timer.timeout.connect(self._fit_text)
        self.text_view.document().documentLayout().documentSizeChanged.connect(self._request_fit)
        self.layers_grid = LayersHeadsGrid()
        body = self.body = QHBoxLayout()
        body.addWidget(self.text_view, 3)
        body.addWidget(self.layers_grid, 2)
        layout.addLayout(body, 1)
        # Below the text in a row of their own; beside it, one above the other, in the
        # compact strip (see _place_offset_gap).
        self.offset_gap = QWidget(objectName="lessonOffsetGap")
        self.offset_gap_grid = QGridLayout(self.offset_gap)
        self.offset_gap_grid.setContentsMargins(0, 0, 0, 0)
        self.offset_label, self.gap_label = QLabel(), QLabel()
        self.offset_slider = QSlider(Qt.Orientation.Horizontal, objectName="lessonOffsetSlider")
        self.offset_slider.setRange(0, 100)
        self.gap_slider = QSlider(Qt.Orientation.Horizontal, objectName="lessonGapSlider")
        self.gap_slider.setRange(0, 20)
        self.gap_slider.setValue(9)
        for slider in (self.offset_slider, self.gap_slider):
            slider.valueChanged.connect(self._on_offset_gap)
        self.strip_fit = StripFit(
            self, top_row=top, step_label=self.step_label, title_label=self.title_label,
            buttons=(self.back_button, self.play_button, self.train_button, self.next_button),
            body=body, text_view=self.text_view, layers_grid=self.layers_grid,
            offset_gap=self.offset_gap, offset_gap_grid=self.offset_gap_grid,
            offset_label=self.offset_label, offset_slider=self.offset_slider,
            gap_label=self.gap_label, gap_slider=self.gap_slider,
            height_wanted=self.height_wanted.emit, pages_changed=self._show_page_buttons)
        self.strip_fit.place_offset_gap()
        self.back_button.clicked.connect(self.back)
        self.next_button.clicked.connect(self.next)
        self.play_button.toggled.connect(self._on_play)
        self.train_button.clicked.connect(self.train)
        self.state.events.params.connect(self._on_params)
        self.state.events.view.connect(self._on_view)
        self._on_view(self.state.view)

    # -- fitting the window (StripFit) ----------------------------------------------
    @property
    def compact(self) -> bool:
        """The compact strip: a window too short for its text size."""
        return self.strip_fit.compact

    @property
    def number_in_text(self) -> bool:
        """Compact and too narrow for the step number beside the buttons: it heads the text."""
        return self.strip_fit.number_in_text

    @property
    def strip_max_share(self) -> float | None:
        """The lesson strip's largest share of the window's height (the window sets it)."""
        return self.strip_fit.strip_max_share

    @strip_max_share.setter
    def strip_max_share(self, share: float | None) -> None:
        self.strip_fit.strip_max_share = share

    def text(self) -> str:
        """The step's text as shown, without markup (and without the title the compact
        strip puts above it)."""
        return self.strip_fit.text()

    @Slot()
    def _fit_text(self) -> None:
        """Ask for the height the wrapped text needs (StripFit.fit_text): run after the
        text's layout pass, never inside it."""
        self.strip_fit.fit_text()

    @Slot()
    @Slot(QSizeF)
    def _request_fit(self, _size=None) -> None:
        self._fit_timer.start()

    @guarded(fallback=SUPER)
    def minimumSizeHint(self):  # noqa: N802 (Qt naming)
        """At least the height the strip needs at its width: the title wraps, and the
        window fits the lesson dock to this hint (MainWindow.fit_lesson_dock)."""
        hint = super().minimumSizeHint()
        layout = self.layout()
        if layout is not None and layout.hasHeightForWidth() and self.width() > 0:
            hint.setHeight(max(hint.height(), layout.totalHeightForWidth(self.width())))
        return hint

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_timer.start()

    @guarded
    def showEvent(self, event) -> None:
        """Follow the window's height (the compact strip), which a taller or shorter window
        changes without resizing the strip's width."""
        super().showEvent(event)
        window = self.window()
        if window is not self and window is not self._watched_window:
            if self._watched_window is not None:
                self._watched_window.removeEventFilter(self)
            window.installEventFilter(self)
            self._watched_window = window
        self._fit_timer.start()

    @guarded
    def hideEvent(self, event) -> None:
        """Stop following the window while hidden (showEvent follows it again): the strip,
        a child of the window, must not keep the closed window alive."""
        super().hideEvent(event)
        if self._watched_window is not None:
            self._watched_window.removeEventFilter(self)
            self._watched_window = None

    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt naming)
        if watched is self._watched_window and event.type() == QEvent.Type.Resize:
            self._fit_timer.start()
        return super().eventFilter(watched, event)

    # -- texts -------------------------------------------------------------------
    def retranslate(self) -> None:
        self.back_button.setText(tr("◀ Back"))
        self.next_button.setText(tr("Next ▶"))
        self._show_page_buttons()
        self.play_button.setText(tr("■ Stop") if self.play_button.isChecked() else tr("▶ Play"))
        self.back_button.setToolTip(tr("Previous step (PageUp, ←)"))
        self.next_button.setToolTip(tr("Next step (PageDown, →)"))
        self.play_button.setToolTip(tr("Animate this step's sweep"))
        self.train_button.setText(tr("Training…") if self._training_this_step() else
                                  tr("▶ Train"))
        self.train_button.setToolTip(tr("Train this step's tiny models in the Training tab"))
        self.reset_action.setText(tr("Reset controls"))
        self.reset_action.setToolTip(tr("Put back the controls from before the lesson"))
        self.offset_label.setText(tr("offset"))
        self.gap_label.setText(tr("gap"))
        self.refresh_text()

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:    # another text size: compact or not
            self._fit_timer.start()
        super().changeEvent(event)

    # -- navigation --------------------------------------------------------------
    @property
    def index(self) -> int:
        """The step shown: AppState.lesson_step, clamped to the steps there are."""
        return min(self.state.lesson_step, len(STEPS) - 1)

    @index.setter
    def index(self, value: int) -> None:
        self.state.set_lesson_step(max(0, min(len(STEPS) - 1, value)))

    @listener
    def _on_step_state(self, _step: int) -> None:
        self._show_step_widgets()
        self.refresh_text()

    def _show_step_widgets(self) -> None:
        step = self.step
        self._show_page_buttons()
        self.offset_gap.setVisible(step.offset_gap)
        self.play_button.setEnabled(bool(step.sweep))
        self.train_button.setVisible(step.train is not None)
        self.train_button.setEnabled(not self._training_this_step())
        self.train_button.setText(tr("Training…") if self._training_this_step() else
                                  tr("▶ Train"))
        self.layers_grid.setVisible(step.grid)
        self.height_wanted.emit()

    @property
    def step(self):
        return STEPS[self.index]

    def go_to(self, index: int) -> None:
        """Show step `index` (0-based, clamped) and set the controls for it."""
        self.stop()
        self.remember_user_controls()
        self.index = max(0, min(len(STEPS) - 1, index))
        step = self.step
        self.lock_requested.emit(step.lock_d_model)
        self._show_step_widgets()
        if step.offset_gap:
            scores = step.settings["scores"]
            self.offset_slider.blockSignals(True)
            self.gap_slider.blockSignals(True)
            self.offset_slider.setValue(int(min(scores[1:])))
            self.gap_slider.setValue(int(scores[0] - min(scores[1:])))
            self.offset_slider.blockSignals(False)
            self.gap_slider.blockSignals(False)
        self.state.set_params(step_params(step, self.state.params))
        self.state.update_heads_input(**step_heads_input(step, self.state.view.language,
                                                         self.user_controls.heads_input))
        if step.train is not None and self.training_now is None:
            # the Training lab shows the experiment the step's ▶ Train runs, before it runs
            self.state.set_training(lesson_training(step.train))
        self.highlight.emit(step.panel)
        self.refresh_text()

    @Slot()
    def next(self) -> None:
        """The next page of the step's text, else the next step; on the last page of the
        last step nothing happens (the button is disabled there)."""
        fit = self.strip_fit
        if fit.page < fit.page_count - 1:
            fit.show_page(fit.page + 1)
        elif self.index < len(STEPS) - 1:
            self.go_to(self.index + 1)

    @Slot()
    def back(self) -> None:
        """The page before, else the step before (from its first page); on the first page
        of the first step nothing happens, so the controls the user changed there stay
        (going to step 1 again would set them anew)."""
        fit = self.strip_fit
        if fit.page > 0:
            fit.show_page(fit.page - 1)
        elif self.index > 0:
            self.go_to(self.index - 1)

    @property
    def page(self) -> tuple[int, int]:
        """(the page of the step's text on screen, 0-based; how many pages it has)."""
        return self.strip_fit.page, self.strip_fit.page_count

    def _show_page_buttons(self) -> None:
        """Next says "More" while the step's text has pages left; Back and Next are enabled
        where they lead somewhere."""
        page, pages = self.page
        more = page < pages - 1
        self.back_button.setEnabled(self.index > 0 or page > 0)
        self.next_button.setEnabled(self.index < len(STEPS) - 1 or more)
        text = tr("More {k}/{n} ▼").format(k=page + 1, n=pages) if more else tr("Next ▶")
        if self.next_button.text() != text:
            self.next_button.setText(text)

    @listener
    def _on_view(self, view) -> None:
        if self.strip_fit.presenting != view.presentation:
            self.strip_fit.presenting = view.presentation
            self._fit_timer.start()

    # -- play --------------------------------------------------------------------
    @Slot(bool)
    def _on_play(self, on: bool) -> None:
        if on:
            self.remember_user_controls()
            self._sweep_pos = 0
            self._advance_sweep()
            self.timer.start()
        else:
            self.timer.stop()
        self.play_button.setText(tr("■ Stop") if on else tr("▶ Play"))

    def stop(self) -> None:
        if self.play_button.isChecked():
            self.play_button.setChecked(False)

    @Slot()
    def _advance_sweep(self) -> None:
        sweep = self.step.sweep
        if self._sweep_pos >= len(sweep):
            self.stop()
            return
        try:
            self.state.update_params(**sweep[self._sweep_pos])
        except ParamsError:
            self.stop()
            return
        self._sweep_pos += 1

    @Slot(int)
    def _on_offset_gap(self, _value: int) -> None:
        offset, gap = float(self.offset_slider.value()), float(self.gap_slider.value())
        self.state.update_params(scores=(offset + gap, offset, offset, offset), live_scores=False)

    # -- entering and leaving: the user's controls ------------------------------------
    def remember_user_controls(self) -> None:
        """Keep the user's Params, lock and head-roles input (its sentence) the first time
        the lesson changes them."""
        if self.user_controls is None:
            state = self.state
            self.user_controls = StudentSettings(state.params, state.lock_d_model,
                                                 state.heads_input, state.training)

    @Slot()
    def leave(self) -> None:
        """Leaving the lesson: stop Play and put back the controls the user had before it."""
        self.stop()
        if self.user_controls is not None:
            self._put_back(self.user_controls)

    @Slot(bool)
    def on_strip_shown(self, on: bool) -> None:
        if not on:
            self.leave()

    @Slot()
    def reset_controls(self) -> None:
        """Edit → Reset: the controls from before the lesson, or the first run's if the
        lesson has not changed them."""
        self.stop()
        self._put_back(self.user_controls or DEFAULT_CONTROLS)

    def _put_back(self, controls: StudentSettings) -> None:
        self.user_controls = None
        self.lock_requested.emit(controls.lock)
        self.state.set_params(controls.params)
        if controls.heads_input is not None:
            self.state.update_heads_input(**dataclasses.asdict(controls.heads_input))
        if controls.training is not None and self.training_now is None:
            self.state.set_training(controls.training)

    # -- training runs --------------------------------------------------------------
    def _training_this_step(self) -> bool:
        run = LESSON_RUNS.get(self.step.train) if self.step.train else None
        return run is not None and self.training_now == run[0]

    @Slot()
    def train(self) -> None:
        """Start the step's training run (the window shows it in the Training tab)."""
        if self.step.train is None:
            return
        experiment, options = LESSON_RUNS[self.step.train]
        self.train_requested.emit(experiment, dict(options))

    def training_started(self, experiment: str) -> None:
        self.training_now = experiment
        self._show_step_widgets()
        self.refresh_text()

    @Slot(object)
    def on_training_result(self, result) -> None:
        """A run finished (or was stopped: its result says so and the text ignores it)."""
        self.training_results[result.experiment] = result
        self.training_ended()
        run = LESSON_RUNS.get(self.step.train) if self.step.train else None
        if run is not None and run[0] == result.experiment:   # the new result ends the text
            bar = self.text_view.verticalScrollBar()
            bar.setValue(bar.maximum())

    @Slot()
    @Slot(str)
    @Slot(int)
    def training_ended(self, _why=None) -> None:
        self.training_now = None
        self._show_step_widgets()
        self.refresh_text()

    def default_context(self) -> LessonContext:
        """The simulation's Results and the head-roles heads on screen (the window's
        context_source adds the training runs and the Real heads result)."""
        view = self.heads_view
        return LessonContext(results=self.model.results,
                             head_roles=None if view is None else view.newest_results,
                             training=self.training_results, running=self.training_now)

    @listener
    def _on_params(self, params) -> None:
        if self.step.grid:
            self.layers_grid.set_preset(preset_for(params))

    # -- text --------------------------------------------------------------------
    @Slot(object)
    def _on_results(self, _results) -> None:
        """The text now, or, within TEXT_REFRESH_MIN_MS of its last refresh, once that time
        is up (one pending refresh; it reads the newest Results when it runs). A step that
        shows no numbers yet ("computing…") gets them at once."""
        if self._text_timer.isActive():
            return
        clock = self._text_clock
        waiting = self._rendered_key != self.step.key
        if not waiting and clock.isValid() and clock.elapsed() < TEXT_REFRESH_MIN_MS:
            self._text_timer.start(TEXT_REFRESH_MIN_MS - clock.elapsed())
        else:
            self.refresh_text()

    @property
    def text_pending(self) -> bool:
        """Newer Results than the text shows wait for the next refresh (_on_results)."""
        return self._text_timer.isActive()

    @Slot()
    @Slot(object)
    def refresh_text(self, _results=None) -> None:
        """The step's title and text from the newest Results and runs (text_refreshed)."""
        self._text_timer.stop()
        self._text_clock.start()
        try:
            self._set_step_text()
        finally:
            self.text_refreshed.emit()

    def _set_step_text(self) -> None:
        title, body = step_text(self.step.key)
        self.step_label.setText(tr("Step {i} / {n}").format(i=self.index + 1, n=len(STEPS)))
        # <big> is relative to the label's font, so the title follows the UI scale.
        self.title_label.setText(f"<b><big>{html.escape(title)}</big></b>")
        self.title_label.setToolTip(title)
        self.strip_fit.title = title
        step = self.step
        results = self.model.results
        if step.facts is not None and (results is None or results.params != self.state.params):
            if self._rendered_key != step.key:  # keep the last numbers while a sweep runs
                self.strip_fit.set_text(html.escape(tr("computing…")), step.key)
            return
        self._rendered_key = step.key
        facts = sweep_facts(step)
        if step.facts is not None:
            facts.update(step.facts(results))
        if step.run_facts is not None:
            facts.update(step.run_facts(self.context_source()))
        if step.grid:
            self.layers_grid.set_preset(preset_for(self.state.params))
        self.strip_fit.set_text(body.format(**facts), step.key)
