"""LabController against stand-in views: no MainWindow, the studies in synchronous mode.

The stand-ins record what the controller asks of them; they have the attributes and signals
the controller uses of the real views (gui/window/controller.py, LabController.attach_views
and view_built)."""
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QObject, Signal

from engine import Params, compute
from gui.common import names
from gui.state import AppState, HeadsInput, StateSnapshot
from gui.studies.cycle import StudyCycle
from gui.window.controller import LabController


class PlotStandIn:
    def __init__(self):
        self.offered = []

    def offer_results(self, results) -> bool:
        self.offered.append(results)
        return False          # as a paused plot: nothing to settle


class SidebarStandIn(QObject):
    note = Signal(str)


class LessonStandIn(QObject):
    highlight = Signal(str)
    train_requested = Signal(str, object)

    def __init__(self):
        super().__init__()
        self.heads_view = None
        self.training_results = {}
        self.context_source = None
        self.calls = []

    def refresh_text(self, *_args) -> None:
        self.calls.append("refresh_text")

    def on_training_result(self, result) -> None:
        self.training_results[result.experiment] = result
        self.calls.append(("on_training_result", result))

    def training_ended(self, *_args) -> None:
        self.calls.append("training_ended")

    def training_started(self, experiment: str) -> None:
        self.calls.append(("training_started", experiment))


class HeadsViewStandIn(QObject):
    changed = Signal()

    def __init__(self):
        super().__init__()
        self.newest_results = None


class FetcherStandIn(QObject):
    finished = Signal(str)

    def __init__(self):
        super().__init__()
        self.running = True

    def is_running(self) -> bool:
        return self.running

    def shutdown(self) -> None:
        self.running = False


class RealHeadsStandIn(QObject):
    """The Real heads tab: made with the controller's study and fetcher; the compared head
    sets."""

    def __init__(self, study, fetcher):
        super().__init__()
        self.study, self.fetcher = study, fetcher
        self.result = None
        self.hand, self.trained = [], []

    def set_hand_heads(self, result) -> None:
        self.hand.append(result)

    def set_trained_heads(self, result) -> None:
        self.trained.append(result)


class RunnerStandIn(QObject):
    result_ready = Signal(object)
    failed = Signal(str)
    crashed = Signal(int)
    stopped = Signal()

    def __init__(self):
        super().__init__()
        self.running, self.held_while, self.holds = False, None, 0

    def hold_while_busy(self, cycle) -> None:
        self.held_while = cycle

    def hold_snapshots(self, *_args) -> None:
        self.holds += 1

    def is_running(self) -> bool:
        return self.running

    def shutdown(self) -> None:
        self.running = False


class TrainingStandIn:
    """The Training tab: made with the controller's runner."""

    def __init__(self, runner):
        self.runner = runner
        self.started = []

    def start(self, experiment: str, options) -> bool:
        self.started.append((experiment, options))
        self.runner.running = True
        return True


class Front:
    """bring_forward: records the names, and builds the Training view the first time (as
    the window's lazy tabs do)."""

    def __init__(self):
        self.names = []
        self.controller = None
        self.training = None

    def __call__(self, name: str) -> None:
        self.names.append(name)
        if name == names.TRAINING_PANEL and self.controller.view(name) is None:
            self.training = TrainingStandIn(self.controller.training_runner)
            self.controller.view_built(name, self.training)


def real_heads_view(controller):
    """A Real heads stand-in made as the window makes the tab: with the controller's study
    and fetcher."""
    return RealHeadsStandIn(controller.real_heads_study, controller.model_fetcher)


def roles_run():
    return SimpleNamespace(experiment="roles", heads=(object(),), stopped=False)


@pytest.fixture
def lab(sync_studies):
    """A controller over its own AppState with stand-in views attached."""
    state = AppState(StateSnapshot(params=Params(samples=2000)))
    controller = LabController(
        state, compute, training_runner=RunnerStandIn(),
        real_heads_study=StudyCycle("modelHeads", lambda request: request, synchronous=True),
        model_fetcher=FetcherStandIn())
    plots = {name: PlotStandIn() for name in (names.SOFTMAX, names.VARIANCE, names.COST)}
    notices, front = [], Front()
    front.controller = controller
    lesson, sidebar = LessonStandIn(), SidebarStandIn()
    controller.attach_views(plots, sidebar, lesson,
                            lambda message, ms: notices.append((message, ms)), front)
    shown = []
    controller.results_shown.connect(lambda: shown.append(True))
    yield SimpleNamespace(controller=controller, state=state, plots=plots, lesson=lesson,
                          sidebar=sidebar, notices=notices, front=front, shown=shown)
    controller.shutdown()
    controller.deleteLater()


def test_a_params_change_reaches_every_plot_with_the_engines_results(lab):
    controller = lab.controller
    assert controller.model.wait_idle()
    lab.state.update_params(seed=3)
    assert controller.model.wait_idle()
    results = controller.model.results
    assert results.params == lab.state.params and results.params.seed == 3
    for plot in lab.plots.values():
        assert plot.offered[-1] is results
    assert lab.shown


def test_head_roles_results_reach_a_real_heads_view_built_later(lab):
    controller = lab.controller
    controller.heads_study.request(HeadsInput())
    assert controller.heads_study.wait_idle()
    first = controller.hand_heads
    assert first is not None and first is controller.heads_study.result
    real = real_heads_view(controller)
    controller.view_built(names.MODEL_HEADS, real)
    assert real.hand == [first]            # the shared head set, at once
    controller.heads_study.request(HeadsInput(seed=1, random_heads=True))
    assert controller.heads_study.wait_idle()
    assert real.hand[-1] is controller.hand_heads is not first


def test_the_controller_owns_every_study_before_any_tab_is_built(sync_studies):
    """The training runner, the Real heads study and the model fetcher are the controller's
    from the start (not their tabs'): among `studies`, stopped by shutdown(). The runner and
    the StudyCycles are Studies (gui.studies.protocol)."""
    from gui.realheads.study import ModelFetcher
    from gui.studies.protocol import Study
    from gui.training.runner import TrainingRunner

    controller = LabController(AppState(StateSnapshot(params=Params(samples=2000))), compute)
    runner, real, fetcher = (controller.training_runner, controller.real_heads_study,
                             controller.model_fetcher)
    try:
        assert isinstance(runner, TrainingRunner) and isinstance(fetcher, ModelFetcher)
        assert all(study.parent() is controller for study in (runner, real, fetcher))
        assert all(isinstance(study, Study) for study in (runner, real, controller.heads_study))
        assert controller.view(names.TRAINING_PANEL) is controller.view(names.MODEL_HEADS) is None
        assert {runner, real, fetcher} <= set(controller.studies)
        assert real.is_running()              # its worker; no forward process yet
    finally:
        controller.shutdown()
    assert not any(study.is_running() for study in (runner, real, fetcher))


def test_real_heads_results_refresh_the_lesson_before_and_after_its_view_is_built(lab):
    controller, lesson = lab.controller, lab.lesson
    controller.real_heads_study.request("a request")
    assert controller.real_heads_study.wait_idle()
    assert lesson.calls.count("refresh_text") == 1
    controller.model_fetcher.finished.emit("/models/minilm")
    assert lesson.calls.count("refresh_text") == 2
    controller.view_built(names.MODEL_HEADS, real_heads_view(controller))
    controller.real_heads_study.request("another")
    assert controller.real_heads_study.wait_idle()
    assert lesson.calls.count("refresh_text") == 3     # once: not wired again by the view


def test_a_training_result_reaches_the_lesson_and_the_real_heads_view(lab):
    """No Training view is built: the runner's results reach the lesson and the Real heads
    view all the same."""
    controller = lab.controller
    real = real_heads_view(controller)
    controller.view_built(names.MODEL_HEADS, real)
    runner = controller.training_runner
    run = roles_run()
    runner.result_ready.emit(run)
    assert controller.view(names.TRAINING_PANEL) is None
    assert real.trained == [run]
    assert ("on_training_result", run) in lab.lesson.calls
    assert controller.roles_run is run
    runner.failed.emit("boom")
    assert lab.lesson.calls[-1] == "training_ended"
    later = real_heads_view(controller)       # a Real heads view built after the run
    controller.view_built(names.MODEL_HEADS, later)
    assert later.trained == [run]


def test_a_run_of_another_experiment_is_not_kept_as_the_roles_run(lab):
    controller = lab.controller
    controller.training_runner.result_ready.emit(
        SimpleNamespace(experiment="scaling", stopped=False))
    assert controller.roles_run is None


def test_the_lesson_context_holds_the_newest_results(lab):
    controller, lesson = lab.controller, lab.lesson
    assert controller.model.wait_idle()
    heads = SimpleNamespace(view=HeadsViewStandIn())
    heads.view.newest_results = "heads on screen"
    controller.view_built(names.HEADS_PANEL, heads)
    heads.view.changed.emit()
    assert lesson.heads_view is heads.view and "refresh_text" in lesson.calls
    real = real_heads_view(controller)
    real.result = "real heads"
    controller.view_built(names.MODEL_HEADS, real)
    lesson.train_requested.emit("roles", {"steps": 3})
    training = lab.front.training
    run = roles_run()
    training.runner.result_ready.emit(run)
    training.runner.running = True
    context = lesson.context_source()
    assert context.results is controller.model.results
    assert context.head_roles == "heads on screen"
    assert context.real_heads == "real heads"
    assert context.training["roles"] is run and context.trained("roles") is run
    assert context.running == lab.state.training.experiment
    lab.state.update_params(seed=5)
    assert controller.model.wait_idle()
    assert lesson.context_source().results.params.seed == 5


def test_the_lessons_train_brings_the_training_view_forward_and_starts_it(lab):
    lab.lesson.train_requested.emit("roles", {"steps": 3})
    training = lab.front.training
    assert lab.front.names == [names.TRAINING_PANEL]
    assert training.started == [("roles", {"steps": 3})]
    assert ("training_started", "roles") in lab.lesson.calls
    assert lab.controller.view(names.TRAINING_PANEL) is training


def test_a_lesson_highlight_brings_only_the_lesson_views_forward(lab):
    lab.lesson.highlight.emit(names.SOFTMAX)
    lab.lesson.highlight.emit(names.MODEL_HEADS)
    assert lab.front.names == [names.MODEL_HEADS]


def test_notes_and_failures_go_to_the_notice_sink(sync_studies):
    def broken(_params):
        raise ValueError("no results")

    controller = LabController(AppState(), broken)
    notices, sidebar = [], SidebarStandIn()
    controller.attach_views({}, sidebar, LessonStandIn(),
                            lambda message, ms: notices.append((message, ms)), lambda _name: None)
    assert controller.model.wait_idle()
    sidebar.note.emit("a note")
    assert [ms for _message, ms in notices] == [10000, 8000]
    assert "no results" in notices[0][0] and notices[1][0] == "a note"
    controller.shutdown()


def test_shutdown_stops_every_study(lab):
    controller = lab.controller
    runner = controller.training_runner
    runner.running = True                     # a run, started with no tab built
    studies = controller.studies
    assert {controller.model.cycle, controller.heads_study, controller.real_heads_study,
            controller.model_fetcher, runner, controller.pruning_study} == set(studies)
    assert all(study.is_running() for study in studies)
    controller.shutdown()
    assert not any(study.is_running() for study in studies)


def test_the_background_studies_are_held_from_the_start(lab):
    controller = lab.controller
    runner = controller.training_runner
    assert runner.held_while is controller.model.cycle
    hold = controller.background_work.hold
    assert {relay.study for relay in hold._relays} == {controller.heads_study,
                                                      controller.real_heads_study}
    lab.state.update_params(seed=3)
    assert runner.holds >= 1
