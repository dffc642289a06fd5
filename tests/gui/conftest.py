"""Qt fixtures: windows and widgets for the tests, and leaks fail the test (after napari).

The leak checks belong to the tests, not to production classes: QThread.start is
wrapped for the session to see every thread a test starts, and after each test
no thread it started may still run, no top-level widget it opened may be visible,
no timer of those widgets may be active, and no child process may be left. A window
shared by the tests of a module (`shared_window`) is checked the same way when the
module ends.

Windows:
    window         a fresh MainWindow for the test, its studies on worker threads (the
                   real threaded behaviour: tests of timing, holds, held results)
    sync_window    a fresh MainWindow whose studies compute on the GUI thread
                   (StudyCycle's synchronous mode): for tests that only need results
    shared_window  one synchronous MainWindow for every test of a module that asks for it;
                   after each test its state, size, tabs, text size and language are put
                   back and checked (tests that change only what that reset restores)
    restore_view   after the test: windowed, 100 % text, English (with `window`)
Widgets:
    sync_studies   StudyCycles made during the test are synchronous
    controls       a Sidebar over a SimulationModel of its own AppState (synchronous)
    make_panel     make_panel(name, params=None): one live panel, shown, fed engine Results
"""
import weakref

import pytest
from PySide6.QtCore import QSettings, QThread
from PySide6.QtWidgets import QApplication

from gui.app import configure_pyqtgraph, limit_blas_threads
from gui.studies.cycle import StudyCycle
from gui_helpers import STARTED_THREADS, LeakBaseline
from tab_fixtures import dispose


@pytest.fixture(scope="session", autouse=True)
def track_threads():
    original = QThread.start

    def start(self, *args):
        STARTED_THREADS.append(weakref.ref(self))
        return original(self, *args)

    QThread.start = start
    yield
    QThread.start = original


@pytest.fixture(scope="session", autouse=True)
def one_blas_thread():
    """As create_application sets up the app's process."""
    limit_blas_threads()


@pytest.fixture(scope="session", autouse=True)
def gui_thread_collection(qapp):
    """As create_application sets up the app's process: the cyclic garbage collector runs on
    the GUI thread only (gui.common.qt_lifetime.GuiThreadCollector)."""
    from gui.common.qt_lifetime import collect_on_gui_thread

    collector = collect_on_gui_thread(qapp)
    yield collector
    collector.uninstall()


@pytest.fixture(scope="session", autouse=True)
def app_fonts(qapp):
    """The bundled fonts (the Japanese one), as create_application installs them: without
    them Japanese text fell back to a system font with 1.24× taller lines whenever no
    earlier test of the process had installed them, and axis names at 300 % lay on the
    tick labels in one run of two (issue 31)."""
    from gui.common.i18n import install_fonts

    install_fonts(qapp)


@pytest.fixture(scope="session", autouse=True)
def isolated_settings(qapp, tmp_path_factory):
    """QSettings write to a temporary folder, never to the user's real settings."""
    qapp.setOrganizationName("AttentionLabTests")
    qapp.setApplicationName("Attention Lab Tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path_factory.mktemp("settings")))


@pytest.fixture(autouse=True)
def no_leaks(qapp, qtbot):
    configure_pyqtgraph()
    baseline = LeakBaseline()
    yield
    baseline.check()


class GuardReports:
    """The exceptions gui.common.guard catches during a test (see guard_reports_fail)."""

    def __init__(self):
        from gui.common.guard import errors

        self.errors = errors
        self.start = errors.count
        self.allowed = 0

    def new(self) -> list[str]:
        count = self.errors.count - self.start
        return list(self.errors.recent)[-count:] if count else []

    def expect(self, count: int = 1) -> list[str]:
        """A test that provokes caught exceptions on purpose (the guard's own tests, a
        panel's error message) takes them here: returns the messages caught since the
        test began, and they no longer fail it."""
        caught = self.new()
        assert len(caught) >= count, caught
        self.allowed = len(caught)
        return caught

    def unexpected(self) -> list[str]:
        """The caught exceptions no expect() took."""
        return self.new()[self.allowed:]


@pytest.fixture(autouse=True)
def guard_reports_fail(qapp, request):
    """An exception the window's guard caught is still a bug: it fails the test (issue 32).
    A test that provokes one on purpose asks for `guard_reports` and calls its expect()."""
    reports = GuardReports()
    request.node.guard_reports = reports
    yield reports
    unexpected = reports.unexpected()
    if unexpected:
        pytest.fail("gui.common.guard caught exceptions: " + " | ".join(unexpected),
                    pytrace=False)


@pytest.fixture
def guard_reports(guard_reports_fail):
    return guard_reports_fail


@pytest.fixture(autouse=True)
def english_after(qapp):
    """Every test leaves the app's language as it found it, English: the translators are
    global, and a test left in Japanese fails the next one to read an English text."""
    from gui.common.i18n import current_language, set_language

    yield
    left = current_language()
    if left != "en":
        set_language("en")
        pytest.fail(f"the test left the language at {left!r}")


def forget_window_geometry() -> None:
    """A window saves its geometry and dock layout on close and the next one restores them:
    forgotten, the next window starts from the defaults."""
    settings = QSettings()
    for key in ("window/geometry", "window/state"):
        settings.remove(key)


def _new_window(synchronous: bool):
    """A shown MainWindow (1400×900) whose first Results are on screen."""
    from gui.window.main_window import MainWindow

    previous = StudyCycle.synchronous
    StudyCycle.synchronous = synchronous
    try:
        win = MainWindow()
    finally:
        StudyCycle.synchronous = previous
    win.resize(1400, 900)
    win.show()
    assert win.model.wait_idle()
    QApplication.processEvents()
    return win


@pytest.fixture
def sync_studies(monkeypatch):
    """Every StudyCycle made during the test computes on the GUI thread (no QThread)."""
    monkeypatch.setattr(StudyCycle, "synchronous", True)


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(StudyCycle, "synchronous", False)   # tabs built later too
    font = QApplication.font()   # text size and presentation mode change the app's font
    win = _new_window(synchronous=False)
    qtbot.addWidget(win)
    yield win
    win.close()
    QApplication.setFont(font)


@pytest.fixture
def sync_window(qtbot, sync_studies):
    """A fresh synchronous window from the default geometry (none restored from an earlier
    window's settings), forgotten again after the test, and the app's language English
    again (the window may have switched it; the translators outlive the window)."""
    from gui.common.i18n import set_language

    forget_window_geometry()
    font = QApplication.font()
    win = _new_window(synchronous=True)
    yield win
    dispose(win)
    set_language("en")
    QApplication.setFont(font)
    forget_window_geometry()


@pytest.fixture
def restore_view(window):
    """After the test: windowed, 100 % text, English (for tests that change the view)."""
    yield
    window.set_presentation(False)
    window.zoom_reset()
    window.switch_language("en")


# -- a window shared by the tests of a module ---------------------------------------------

SHARED_SIZE = (1400, 900)


class SharedWindow:
    """The module's window and what it looked like when made (see reset())."""

    def __init__(self):
        self.baseline = LeakBaseline()
        self.font = QApplication.font()
        self._make()

    def _make(self) -> None:
        forget_window_geometry()
        self.win = win = _new_window(synchronous=True)
        self.snapshot = win.state.snapshot()
        self.shown = (win.menus.lesson_action.isChecked(),
                      win.area.control_scroll.isVisibleTo(win), win.area.highlighted)
        self.tabs = self._tabs()

    def _tabs(self) -> tuple:
        win = self.win
        return (win.workspace_tabs.currentIndex(),
                {ws: bar.currentIndex() for ws, bar in win.area.view_tabs.items()})

    def reset(self) -> None:
        """Back to how it was made: every part of the AppState (params, lock, lesson step,
        view: language, text size, theme, presentation; head-roles input, training, model
        view, cost), the window's size, the lesson strip, the controls, the framed panel and
        the tabs in front, the lesson stopped, the blank screen off, the status bar empty, no
        Real heads process started early; then the newest results shown."""
        win = self.win
        win.lesson.stop()
        if win.blank.isVisible():
            win.toggle_blank()
        win.state.restore(self.snapshot)
        lesson, controls, highlighted = self.shown
        win.menus.lesson_action.setChecked(lesson)
        win.set_controls_visible(controls)
        win.resize(*SHARED_SIZE)
        if highlighted is not None:
            win.area.highlight_panel(highlighted)
        workspace, views = self.tabs
        win.workspace_tabs.setCurrentIndex(workspace)
        for ws, index in views.items():
            win.area.view_tabs[ws].setCurrentIndex(index)
        win.statusBar().clearMessage()
        from gui.realheads.forward_process import stop_early

        stop_early()     # a Real heads forward process started early lives with the window
        assert win.model.wait_idle()
        QApplication.processEvents()
        assert win.state.snapshot() == self.snapshot, "the shared window was not put back"
        assert win.model.results.params == self.snapshot.params
        assert self._tabs() == self.tabs and win.size().toTuple() == SHARED_SIZE

    def replace(self) -> None:
        """A new window for the module's next tests (after a test that broke this one)."""
        dispose(self.win)
        QApplication.setFont(self.font)
        self._make()

    def close(self) -> None:
        dispose(self.win)
        QApplication.setFont(self.font)
        forget_window_geometry()
        self.baseline.check()


@pytest.fixture(scope="module")
def _module_window(qapp, isolated_settings):
    configure_pyqtgraph()
    shared = SharedWindow()
    yield shared
    shared.close()


@pytest.fixture
def shared_window(_module_window, sync_studies):
    """The module's synchronous window; put back after the test (SharedWindow.reset)."""
    yield _module_window.win
    try:
        _module_window.reset()
    except BaseException:
        _module_window.replace()
        raise


# -- single widgets ---------------------------------------------------------------------

@pytest.fixture
def controls(qtbot, sync_studies):
    """A shown Sidebar over a SimulationModel of its own AppState (first-run params:
    live scores), its first Results computed."""
    from engine import Params
    from gui.controls.sidebar import Sidebar
    from gui.studies.simulation import SimulationModel
    from gui.state import AppState, StateSnapshot

    model = SimulationModel(AppState(StateSnapshot(params=Params(live_scores=True))))
    panel = Sidebar(model.state, model)
    panel.show()
    model.request()
    assert model.wait_idle()
    yield panel
    dispose(panel)
    model.shutdown()


@pytest.fixture
def make_panel(qtbot):
    """make_panel(name, params=None, size=(800, 600)): the live panel `name` (a panel_names
    name) on its own, shown at `size`, showing the engine's Results of `params` (the
    first-run Params if None)."""
    from engine import Params, compute
    from gui.common import names
    from gui.panels import CostPlot, MultiHeadView, SaturationPlot, SoftmaxPlot, VariancePlot

    classes = {names.SOFTMAX: SoftmaxPlot, names.VARIANCE: VariancePlot,
               names.SATURATION: SaturationPlot, names.MULTIHEAD: MultiHeadView,
               names.COST: CostPlot}
    made = []

    def make(name: str, params=None, size=(800, 600)):
        panel = classes[name]()
        made.append(panel)
        panel.resize(*size)
        panel.show()
        panel.show_results(compute(params or Params(live_scores=True)))
        QApplication.processEvents()
        return panel

    yield make
    for panel in made:
        dispose(panel)
