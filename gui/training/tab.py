"""The Training tab (`trainingPanel`): controls, progress and the training plots.

Tiny models train live in a separate process: the TrainingRunner (gui/training/runner.py)
the tab is given (the window's LabController owns it from the start); the plots are in
gui/panels/training_plots.py (one module per plot). The settings live in AppState.training:
the experiment combo renders them and sends intents. `TrainingTab.start(experiment,
options)` is the entry point a lesson step calls.

Windowed, the controls stand above the progress and the status, the curves beside (or
above) the tabs of the other plots. In presentation mode (AppState.view.presentation) the
plots take the room (gui/training/arrangement.py): the controls and the progress in one
row, the status only when something failed, the plots compact; where the curves and the
other plots do not fit side by side, one of them at a time, picked in `trainViewCombo`.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (QApplication, QBoxLayout, QComboBox, QGridLayout,
                               QHBoxLayout, QLabel, QProgressBar, QPushButton, QSplitter,
                               QVBoxLayout, QWidget)

from engine.training import EXPERIMENTS, TrainingConfigError

from gui.common import names
from gui.common.guard import guarded, listener
from gui.common.i18n import tr
from gui.panels.icl_plot import IclPlot
from gui.panels.pruning_plot import PruningPlot
from gui.panels.training_plots import (SCALING_TASKS, HeadsVsH, TrainingCurves, TrainingHeadsView,
                                    experiment_names, task_names)
from gui.common.qt_util import all_signals_blocked, forget_combo_size_hints
from gui.state import AppState
from gui.state.app_state import TrainingSettings
from gui.common.style import make_theme
from gui.training.arrangement import PlotTabs, TabArrangement
from gui.training.combo import WrappingComboBox
from gui.training.runner import TrainingRunner, config_from_options, options_from_config
from gui.training.titles import training_titles


#: While a run trains, the curves and the quality-vs-h chart are redrawn at most this
#: often (the last snapshot of a run at once): repainting their 40–60 curves and bands
#: was most of what a snapshot cost the window. The heads' maps and the progress bar
#: follow every snapshot.
CURVES_PERIOD_S = 0.2
CURVES_HOLD_RECHECK_MS = 30   # a deferred redraw looks again this often during a hold


class TrainingTab(QWidget):
    """`trainingPanel`: controls, progress and the three training plots."""

    def __init__(self, state: AppState, runner: TrainingRunner, parent=None):
        super().__init__(parent)
        self.setObjectName(names.TRAINING_PANEL)
        self.arrangement = TabArrangement(self)   # its widgets are made below
        self.state = state
        self.runner = runner      # the controller's: it owns and shuts it down
        self.curves, self.heads_view, self.chart = TrainingCurves(), TrainingHeadsView(), HeadsVsH()
        self.icl, self.pruning = IclPlot(), PruningPlot()
        self.plots = (self.curves, self.heads_view, self.chart, self.icl, self.pruning)
        self.combo = WrappingComboBox(objectName="trainExperimentCombo")
        for name in EXPERIMENTS:
            self.combo.addItem("", name)
        self.task_combo = WrappingComboBox(objectName="trainTaskCombo")
        for task in SCALING_TASKS:
            self.task_combo.addItem("", task)
        for combo in (self.combo, self.task_combo):   # long names must not widen the window
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        self.start_button = QPushButton(objectName="trainStartButton")
        self.stop_button = QPushButton(objectName="trainStopButton")
        self.progress = QProgressBar(objectName="trainProgress")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel(objectName="trainStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Presentation mode: which view is shown where one view at a time fits.
        self.view_combo = QComboBox(objectName="trainViewCombo")
        self.view_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.view_combo.setMinimumContentsLength(10)
        self.view_combo.hide()
        self.present_row = QHBoxLayout()      # presentation mode: every control in one row
        row = self.top_row = QGridLayout()
        row.addWidget(self.combo, 0, 0)
        row.addWidget(self.task_combo, 0, 1)
        row.setColumnStretch(4, 1)
        status_row = self.status_row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        status_row.addWidget(self.progress, 2)
        status_row.addWidget(self.status, 5)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="trainSplitter")
        self.right = PlotTabs(objectName="trainRightTabs")
        self.right.addTab(self.heads_view, "")
        self.right.addTab(self.chart, "")
        self.right.addTab(self.icl, "")
        self.right.addTab(self.pruning, "")
        self.splitter.addWidget(self.curves)
        self.splitter.addWidget(self.right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([1000, 1000])
        column = QVBoxLayout(self)
        column.setContentsMargins(2, 2, 2, 2)
        column.addLayout(self.present_row)
        column.addLayout(row)
        column.addLayout(status_row)
        column.addWidget(self.splitter, 1)
        self.message = ("idle", {})
        self._curves_timer = QTimer(self, singleShot=True, objectName="trainCurvesTimer")
        self._curves_timer.timeout.connect(self._on_curves_timer)
        self._curves_snapshot = None       # the newest snapshot the curves have not drawn
        self._curves_at = float("-inf")    # when they last drew one
        self.last_snapshot = None
        self.result = None
        self._first_seen = None      # (time, step) of the first snapshot of a run
        self.combo.currentIndexChanged.connect(self._on_combo)
        self.task_combo.currentIndexChanged.connect(self._on_task)
        self.view_combo.currentIndexChanged.connect(self._on_view_pick)
        self.start_button.clicked.connect(self._on_start)
        self.stop_button.clicked.connect(self.stop)
        self.runner.snapshot_ready.connect(self._on_snapshot)
        self.runner.result_ready.connect(self._on_result)
        self.runner.failed.connect(self._on_failed)
        self.runner.crashed.connect(self._on_crashed)
        state.events.training.connect(self._render_state)
        state.events.view.connect(self._on_view)
        self._on_view(state.view)
        self.retranslate()
        self._render_state(state.training)

    # -- what other parts of the window use ----------------------------------------
    def exportable(self) -> dict:
        """The plots an export or Copy may take; the curves first catch up with the newest
        snapshot (they may be up to CURVES_PERIOD_S behind it)."""
        self._draw_curves()
        return {names.TRAIN_LOSS: self.curves, names.TRAIN_HEADS: self.heads_view,
                names.TRAIN_VS_H: self.chart, names.TRAIN_ICL: self.icl,
                names.TRAIN_PRUNE: self.pruning}

    @staticmethod
    def titles() -> dict:
        return training_titles()

    def start(self, experiment: str | None = None, options: dict | None = None) -> bool:
        """Train `experiment` (default: AppState.training's) with `options` (config fields
        as JSON scalars, tuples as "16,256"; missing ones keep their defaults) in a new
        process. The settings go into AppState.training first. False, with the reason in
        the panel, if the options are invalid."""
        experiment = experiment or self.state.training.experiment
        if options is None:
            options = (dict(self.state.training.options)
                       if experiment == self.state.training.experiment else {})
        try:
            config = config_from_options(experiment, options)
        except (TrainingConfigError, KeyError) as exc:
            self._say("invalid", reason=str(exc))
            return False
        self.state.set_training(TrainingSettings(experiment, options_from_config(config)))
        self.result, self.last_snapshot, self._first_seen = None, None, None
        self._curves_timer.stop()
        self._curves_snapshot, self._curves_at = None, float("-inf")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.runner.start(experiment, config.to_dict())
        self._say("starting")
        self._update_buttons()
        return True

    @Slot()
    def stop(self) -> None:
        if self.runner.is_running():
            self.runner.stop()
            self._draw_curves()          # the curves as far as the run got
            step = self.last_snapshot.step if self.last_snapshot is not None else 0
            self._say("stopped", step=step)
        self._update_buttons()

    # -- state → widgets -----------------------------------------------------------
    @listener
    def _render_state(self, training: TrainingSettings) -> None:
        index = self.combo.findData(training.experiment)
        with all_signals_blocked([self.combo]):
            self.combo.setCurrentIndex(max(index, 0))
        experiment = training.experiment
        self.task_combo.setVisible(experiment == "scaling")
        self.right.setTabVisible(1, experiment == "heads")
        self.right.setTabVisible(2, experiment == "roles")
        self.right.setTabVisible(3, experiment == "heads")
        self.right.setCurrentIndex({"heads": 1, "roles": 2}.get(experiment, 0))
        self.curves.set_experiment(experiment)
        try:
            config = config_from_options(experiment, training.options)
        except TrainingConfigError:
            config = None   # start() reports bad options; the plots keep the last good plan
        if experiment == "heads" and config is not None:
            self.chart.set_planned_heads(config.heads)
        elif experiment == "scaling" and config is not None:
            self.curves.set_planned_dks(config.d_ks)
        if self.arrangement.page is not None and self.arrangement.page not in (
                key for key, _title in self.arrangement.page_list()):
            self.arrangement.page = None   # another experiment: its own first view
        shown = self.last_snapshot
        if shown is not None and shown.experiment != training.experiment \
                and not self.runner.is_running():
            self._forget_run()
        self.arrangement.arrange(self.width())    # with or without the task box

    def _forget_run(self) -> None:
        """Another experiment was chosen after a run had ended: its curves, heads and
        message go, so nothing of the old run stands under the new experiment's name."""
        self.result, self.last_snapshot, self._first_seen = None, None, None
        self._curves_timer.stop()
        self._curves_snapshot, self._curves_at = None, float("-inf")
        for plot in (self.curves, self.heads_view, self.icl, self.pruning):
            plot.clear_run()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self._say("idle")

    @Slot(int)
    def _on_combo(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name and name != self.state.training.experiment:
            self.state.set_training(TrainingSettings(
                name, options_from_config(config_from_options(name, {}))))

    @Slot(int)
    def _on_task(self, index: int) -> None:
        self.curves.set_task(self.task_combo.itemData(index))

    @Slot()
    def _on_start(self) -> None:
        self.start()

    @Slot(int)
    def _on_view_pick(self, index: int) -> None:
        self.arrangement.pick_page(self.view_combo.itemData(index))

    @listener
    def _on_view(self, view) -> None:
        theme = make_theme(view.dark, view.presentation, view.text_scale, view.colour_safe)
        for plot in self.plots:
            plot.apply_theme(theme)
        self.arrangement.set_presenting(view.presentation)
        self._fit_progress()

    # -- runner → widgets ----------------------------------------------------------
    @Slot(object)
    def _on_snapshot(self, snapshot) -> None:
        self.last_snapshot = snapshot
        now = time.perf_counter()
        if self._first_seen is None:
            self._first_seen = (now, snapshot.step)
        t0, s0 = self._first_seen
        left = None
        if snapshot.step > s0 and now > t0:
            left = (snapshot.total_steps - snapshot.step) * (now - t0) / (snapshot.step - s0)
        # QProgressBar.setValue repaints at once (a paint pass of its own for each
        # snapshot); with updates off it is painted with the plots in Qt's next pass.
        self.progress.setUpdatesEnabled(False)
        self.progress.setRange(0, max(1, snapshot.total_steps))
        self.progress.setValue(snapshot.step)
        self.progress.setFormat(self._progress_text(snapshot.step, snapshot.total_steps, left))
        self.progress.setUpdatesEnabled(True)
        self.heads_view.offer_results(snapshot)
        self._curves_snapshot = snapshot
        wait = self._curves_at + CURVES_PERIOD_S - now
        if snapshot.done or (wait <= 0 and not self.runner.is_holding()):
            self._draw_curves()
        elif not self._curves_timer.isActive():
            self._curves_timer.start(max(1, int(wait * 1000) + 1))
        if self.message[0] == "starting":
            self._say("running", pid=self.runner.pid or 0)

    @Slot()
    def _on_curves_timer(self) -> None:
        """The curves' deferred redraw waits, as snapshots do, while the simulation works
        (TrainingRunner.is_holding): it is the dearest part of a snapshot to draw, and the
        period timer fired inside d_k changes."""
        if self.runner.is_holding():
            self._curves_timer.start(CURVES_HOLD_RECHECK_MS)
            return
        self._draw_curves()

    @Slot()
    def _draw_curves(self) -> None:
        self._curves_timer.stop()
        snapshot, self._curves_snapshot = self._curves_snapshot, None
        if snapshot is not None:
            self._curves_at = time.perf_counter()
            self.curves.offer_results(snapshot)
            self.chart.offer_results(snapshot)
            self.icl.offer_results(snapshot)

    @Slot(object)
    def _on_result(self, result) -> None:
        self.result = result
        self.pruning.offer_results(result)     # computed in the training process
        steps = self.last_snapshot.total_steps if self.last_snapshot is not None else 0
        self.progress.setRange(0, max(1, steps))
        self.progress.setValue(max(1, steps))
        self.progress.setFormat(self._progress_text(steps, steps, 0.0))
        elapsed = result.elapsed_s
        self._say("done", seconds=elapsed, rate=steps / elapsed if elapsed > 0 else 0.0)
        self._update_buttons()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._say("failed", reason=message.splitlines()[0] if message else "")
        self._update_buttons()

    @Slot(int)
    def _on_crashed(self, code: int) -> None:
        self._say("crashed", code=code)
        self._update_buttons()

    # -- texts ---------------------------------------------------------------------
    def _progress_text(self, step: int, total: int, left) -> str:
        """Steps done and seconds left; shorter in presentation mode (one row of controls)."""
        if self.arrangement.presenting:
            if left is None:
                return tr("{step} / {total}").format(step=step, total=total)
            return tr("{step} / {total} · {left:.0f} s").format(step=step, total=total,
                                                                 left=left)
        if left is None:
            return tr("{step} / {total} steps").format(step=step, total=total)
        return tr("{step} / {total} steps · {left:.0f} s left").format(
            step=step, total=total, left=left)

    def _say(self, kind: str, **values) -> None:
        self.message = (kind, values)
        texts = {
            "idle": tr("Pick an experiment and press Start: a tiny model trains in a separate "
                       "process, seeded, on this computer."),
            "starting": tr("Starting the training process…"),
            "running": tr("Training in a separate process (pid {pid}); the window stays "
                          "responsive."),
            "done": tr("Done in {seconds:.1f} s ({rate:.0f} steps per second)."),
            "stopped": tr("Stopped at step {step}."),
            "invalid": tr("These settings cannot be trained: {reason}"),
            "failed": tr("Training failed: {reason}. The window is fine; press Start to try "
                         "again."),
            "crashed": tr("The training process ended unexpectedly (exit code {code}). The "
                          "window is fine; press Start to try again."),
        }
        self.status.setText(texts[kind].format(**values))
        self.status.setProperty("error", kind in ("invalid", "failed", "crashed"))
        self.status.setStyleSheet("color: #B00020;" if kind in ("invalid", "failed", "crashed")
                                  else "")
        self.arrangement.show_status()

    def _update_buttons(self) -> None:
        running = self.runner.is_running()
        self.start_button.setEnabled(not running)
        self.stop_button.setEnabled(running)

    def retranslate(self) -> None:
        for i, name in enumerate(EXPERIMENTS):
            self.combo.setItemText(i, experiment_names()[name])
        for i, task in enumerate(SCALING_TASKS):
            self.task_combo.setItemText(i, task_names()[task])
        self.combo.setToolTip(tr("Which experiment to train"))
        self.task_combo.setToolTip(tr("Which task's curves to show"))
        self.start_button.setText(tr("Start"))
        self.right.setTabText(0, tr("Learned heads"))
        self.right.setTabText(1, tr("Quality vs h"))
        self.right.setTabText(2, tr("In-context learning"))
        self.right.setTabText(3, tr("Pruning heads"))
        self.stop_button.setText(tr("Stop"))
        self.view_combo.setToolTip(tr("Which plots to show"))
        if self.last_snapshot is not None and self.message[0] in ("running", "done"):
            self.progress.setFormat(self._progress_text(self.progress.value(),
                                                        self.progress.maximum(), None))
        else:
            self.progress.setFormat(self._progress_text(0, 0, None))
        self._say(*self.message[:1], **self.message[1])
        self._update_buttons()
        self._fit_progress()
        self.arrangement.show_plots()     # the view box's names in the new language

    @guarded
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            forget_combo_size_hints(self)   # else they keep the old text size's widths
            self._fit_progress()
        super().changeEvent(event)

    def _fit_progress(self) -> None:
        """Room for the progress text at this language and text size (else it is clipped)."""
        widest = self._progress_text(88888, 88888, 888.0)
        # The application's font, not the bar's: on a text-size change this panel hears
        # of it before the bar, whose metrics were still the old size's.
        metrics = QFontMetrics(QApplication.font(self.progress))
        self.progress.setMinimumWidth(metrics.horizontalAdvance(widest) + 24)
        self.arrangement.arrange(self.width())

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self.arrangement.arrange(event.size().width())
