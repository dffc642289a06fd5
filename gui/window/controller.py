"""The lab's controller: the studies, their holds and the results the views share.

After ndv's split of models, views and controllers: AppState is the model (written only
through its intents), the plots, the sidebar, the lesson strip and the tabs are views, and
one LabController connects them. MainWindow lays the views out, builds the controller and
hands it the views; the controller never reaches into the window, so it can be run against
stand-in views (tests/gui/window/test_controller.py).

    LabController(state, compute_fn=compute, parent=None, training_runner=None,
                  real_heads_study=None, model_fetcher=None, pruning_study=None)
        model, heads_study     the simulation study (SimulationModel) and the head-roles
                               study (StudyCycle, shown by the Head roles tab)
        training_runner        the training study (TrainingRunner, or the one given)
        real_heads_study, model_fetcher
                               the Real heads study (a "modelHeads" StudyCycle) and the
                               MiniLM download (ModelFetcher), or the ones given
                               (each made with the controller, so owned from the start, and
                               handed to its tab when the tab is built)
        pruning_study          the Real heads tab's "Do we need all the heads?" study (a
                               "modelPruning" StudyCycle, gui.realheads.pruning), likewise
        background_work       the holds of background results (BackgroundWork), once
                               attach_views ran
        attach_views(plots, sidebar, lesson, notify, bring_forward)
                               the views made with the studies; see its docstring
        view_built(key, view)  a slot: a tab built later exists (Head roles, Real heads,
                               Training; gui.common.names keys); it is wired to the other
                               views
        view_shown(name)       a slot: the view `name` became the current tab
        hand_heads, roles_run  the head-roles study's newest result and the newest "roles"
                               training run, for a Real heads tab built after them
        lesson_context()       what the lesson's texts read (gui.lessons.context)
        train_for_lesson(experiment, options)   a slot: the lesson's Train button
        show_results(results)  offer Results to every plot (the simulation's results_ready)
        studies                every study (gui.studies.protocol.Study) and worker
        shutdown()             stop every study (the window's close)
"""
from __future__ import annotations

from typing import Callable, Mapping

from PySide6.QtCore import QObject, Signal, Slot

from engine import compute

from gui.common import names
from gui.common.guard import guard_call
from gui.common.i18n import tr
from gui.common.qt_lifetime import weak_method
from gui.headroles.tab import compute_heads
from gui.panels.base import settle_scenes
from gui.realheads.pruning import make_pruning_study
from gui.realheads.study import MINILM, ModelFetcher, is_roles_run, make_model_heads_study
from gui.state import AppState
from gui.studies.cycle import StudyCycle
from gui.studies.simulation import SimulationModel
from gui.training.runner import TrainingRunner
from gui.window.background import BackgroundWork


class LabController(QObject):
    """The studies of one AppState and their wiring to the views (see the module docstring).

    Views are held as given; callables the views' owner hands over (notify, bring_forward)
    should not keep that owner alive (gui.common.qt_lifetime.weak_method), since the
    controller is normally the owner's child."""

    #: The plots were offered new Results (the window shows the compute time after this).
    results_shown = Signal()

    #: The views a lesson step brings to the front when it highlights them.
    LESSON_VIEWS = (names.TRAINING_PANEL, names.MODEL_HEADS)

    def __init__(self, state: AppState, compute_fn: Callable = compute, parent=None,
                 training_runner=None, real_heads_study=None, model_fetcher=None,
                 pruning_study=None):
        super().__init__(parent)
        self.setObjectName("labController")
        self.state = state
        # Its first Results are computed on the worker while the views are built.
        self.model = SimulationModel(state, compute_fn, parent=self)
        self.heads_study = StudyCycle("heads", compute_heads, self)
        self.hand_heads = self.roles_run = None
        self.heads_study.result_ready.connect(self._keep_hand_heads)
        # The training study: no process until a run is started (TrainingRunner.start).
        self.training_runner = training_runner or TrainingRunner(self)
        self.training_runner.result_ready.connect(self._keep_roles_run)
        # The Real heads study (its worker thread idle, no forward process until a request)
        # and the model download (no thread until a fetch starts).
        self.real_heads_study = real_heads_study or make_model_heads_study(parent=self)
        self.model_fetcher = model_fetcher or ModelFetcher(MINILM, parent=self)
        # Its "Do we need all the heads?" study: idle until the tab's button is pressed.
        self.pruning_study = pruning_study or make_pruning_study(parent=self)
        self.plots: Mapping[str, object] = {}
        self.sidebar = self.lesson = None
        self.background_work: BackgroundWork | None = None
        self._views: dict[str, object] = {}
        self._notify = self._bring_forward = None

    # -- views ---------------------------------------------------------------------------
    def attach_views(self, plots: Mapping[str, object], sidebar, lesson,
                     notify: Callable[[str, int], None],
                     bring_forward: Callable[[str], None]) -> None:
        """Connect the views made with `model` (call once, after the owner connected what must
        see a result before the background holds start):

        plots          name → plot: offer_results(results) -> bool (True: shown now, and
                       then settled through gui.panels.base.settle_scenes)
        sidebar        its `note(str)` signal goes to notify
        lesson         the LessonStrip: its context_source, train_requested and highlight
                       are served here, the training runs' results and ends reach it, and
                       the Real heads results and downloads and the built tabs' changes
                       refresh its text
        notify         notify(message, timeout_ms): a message in the status bar
        bring_forward  bring_forward(name): the view `name` (a gui.common.names key) is the
                       current one, and built, when it returns
        """
        self.plots, self.sidebar, self.lesson = plots, sidebar, lesson
        self._notify, self._bring_forward = notify, bring_forward
        self.model.results_ready.connect(self.show_results)
        self.model.compute_failed.connect(self.show_failure)
        sidebar.note.connect(self.show_note)
        lesson.context_source = weak_method(self.lesson_context)
        lesson.train_requested.connect(self.train_for_lesson)
        lesson.highlight.connect(self._on_lesson_highlight)
        runner = self.training_runner
        runner.result_ready.connect(lesson.on_training_result)
        for ended in (runner.failed, runner.crashed, runner.stopped):
            ended.connect(lesson.training_ended)
        self.real_heads_study.result_ready.connect(lesson.refresh_text)
        self.model_fetcher.finished.connect(lesson.refresh_text)
        # After show_results: a hold starts once a result is shown.
        self.background_work = BackgroundWork(self.model, self.heads_study, runner,
                                              self.real_heads_study, self.state, self)

    def view(self, key: str):
        """The view built for `key` (view_built), or None."""
        return self._views.get(key)

    @Slot(str, object)
    def view_built(self, key: str, view) -> None:
        """A tab built later exists: wire it to the studies and the other views.

        Head roles (HeadRolesTab): its view's heads are the lesson's, its changes refresh the
        lesson's text. Real heads (ModelHeadsTab, made with real_heads_study and
        model_fetcher): gets the newest hand-built heads and roles run now and every later
        one. Training (TrainingTab, made with training_runner): nothing more, its runner is
        wired from the start (attach_views)."""
        self._views[key] = view
        lesson = self.lesson
        if key == names.HEADS_PANEL:
            lesson.heads_view = view.view
            view.view.changed.connect(lesson.refresh_text)
        elif key == names.MODEL_HEADS:
            view.set_hand_heads(self.hand_heads)
            if self.roles_run is not None:
                view.set_trained_heads(self.roles_run)
            self.heads_study.result_ready.connect(view.set_hand_heads)
            self.training_runner.result_ready.connect(view.set_trained_heads)

    @Slot(str)
    def view_shown(self, name: str) -> None:
        """The view `name` became the current tab."""
        if self.background_work is not None:
            self.background_work.view_shown(name)

    # -- the shared head sets ------------------------------------------------------------
    @Slot(object)
    def _keep_hand_heads(self, result) -> None:
        self.hand_heads = result

    @Slot(object)
    def _keep_roles_run(self, result) -> None:
        if is_roles_run(result):       # the one test of "a roles run"
            self.roles_run = result

    # -- results ---------------------------------------------------------------------------
    @Slot(object)
    def show_results(self, results) -> None:
        """Offer `results` to every plot; those that showed them are settled at once."""
        shown = [plot for plot in self.plots.values() if plot.offer_results(results)]
        settle_scenes(shown)
        self.results_shown.emit()

    @Slot(str)
    def show_failure(self, message: str) -> None:
        self._notice(tr("Computation failed: {m}").format(m=message), 10000)

    @Slot(str)
    def show_note(self, message: str) -> None:
        self._notice(message, 8000)

    def _notice(self, message: str, timeout_ms: int) -> None:
        if self._notify is not None:
            self._notify(message, timeout_ms)

    # -- the lesson ------------------------------------------------------------------------
    def lesson_context(self):
        """What the lesson's texts read: the newest results, runs and models of the studies."""
        from engine.models.fetch import cached_model

        from gui.lessons.context import LessonContext

        lesson = self.lesson
        real = self.view(names.MODEL_HEADS)
        running = self.training_runner.is_running()
        return LessonContext(
            results=self.model.results,
            head_roles=lesson.heads_view.newest_results if lesson.heads_view else None,
            training=lesson.training_results,
            running=self.state.training.experiment if running else None,
            real_heads=real.result if real is not None else None,
            minilm_ready=cached_model() is not None, sentence=self.state.heads_input.sentence)

    @Slot(str, object)
    def train_for_lesson(self, experiment: str, options) -> None:
        """The lesson's Train: the Training view comes to the front and starts the run."""
        self._bring_forward(names.TRAINING_PANEL)
        training = self.view(names.TRAINING_PANEL)
        if training is not None and training.start(experiment, options):
            self.lesson.training_started(experiment)

    @Slot(str)
    def _on_lesson_highlight(self, name: str) -> None:
        if name in self.LESSON_VIEWS:
            self._bring_forward(name)

    # -- shutdown --------------------------------------------------------------------------
    @property
    def studies(self) -> tuple:
        """Every study and worker for the views, whichever tabs are built: the simulation,
        the head roles, the training runner, the Real heads study and the model fetcher."""
        return (self.model.cycle, self.heads_study, self.training_runner,
                self.real_heads_study, self.model_fetcher, self.pruning_study)

    def shutdown(self) -> None:
        """Drop held results, end the Real heads forward process, stop every study."""
        if self.background_work is not None:
            guard_call("background work", self.background_work.closing)
        for study in self.studies:
            study.shutdown()
