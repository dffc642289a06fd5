"""The lesson strip follows the text size both ways, and a saved layout never crushes the
plots."""
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from gui.window.main_window import MainWindow


def wait_layout(win, qtbot):
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(10)


def test_lesson_strip_shrinks_back_after_ctrl_0(window, qtbot):
    window.resize(1920, 1080)
    wait_layout(window, qtbot)
    normal = window.lesson_dock.height()
    font = QApplication.font()
    try:
        window.set_ui_scale(3.0)
        wait_layout(window, qtbot)
        big = window.lesson_dock.height()
        assert big > normal
        assert big <= 0.35 * window.height() + 5
        window.zoom_reset()
        wait_layout(window, qtbot)
        assert window.lesson_dock.height() <= normal + 10
    finally:
        window.zoom_reset()
        QApplication.setFont(font)


def test_a_saved_crushed_layout_is_not_brought_back(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1920, 1080)
    win.show()
    win.resizeDocks([win.lesson_dock], [900], Qt.Orientation.Vertical)   # plots crushed
    wait_layout(win, qtbot)
    win.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert again.model.wait_idle()
    wait_layout(again, qtbot)
    try:
        assert again.lesson_dock.height() <= 0.35 * again.height() + 5
        assert not again.area.compact or again.height() < 800
    finally:
        again.close()
        QSettings().remove("window")


def test_the_lesson_writes_the_state_through_its_intents(qtbot):
    """The strip sets a step's Params with AppState's intents; the study it is given only
    supplies Results (a stand-in with no way to write)."""
    from PySide6.QtCore import QObject, Signal

    from engine import Params
    from gui.lessons.steps import STEPS, step_params
    from gui.lessons.strip import LessonStrip
    from gui.state import AppState, StateSnapshot

    class ResultsOnly(QObject):
        results_ready = Signal(object)
        results = None

    state = AppState(StateSnapshot(params=Params(seed=7)))
    heard = []
    state.events.params.connect(heard.append)
    strip = LessonStrip(state, ResultsOnly())
    qtbot.addWidget(strip)
    strip.go_to(2)
    assert state.params == step_params(STEPS[2], Params(seed=7)) != Params(seed=7)
    assert heard[-1] == state.params
    strip.reset_controls()
    assert state.params == Params(seed=7)


def test_results_in_quick_succession_refresh_the_text_once_more_with_the_newest(qtbot):
    """Results within TEXT_REFRESH_MIN_MS of the text's last refresh (a drag) wait, and the
    one refresh that follows shows the newest numbers, not those of a change in between."""
    from PySide6.QtCore import QObject, Signal

    from engine import Params, compute
    from gui.lessons import strip as strip_module
    from gui.lessons.strip import LessonStrip
    from gui.state import AppState, StateSnapshot

    class Study(QObject):
        results_ready = Signal(object)
        results = None

        def show(self, results):
            self.results = results
            self.results_ready.emit(results)

    timeout = 2 * strip_module.TEXT_REFRESH_MIN_MS + 1000
    state = AppState(StateSnapshot(params=Params(live_scores=True)))
    study = Study()
    strip = LessonStrip(state, study)
    qtbot.addWidget(strip)
    study.show(compute(state.params))
    qtbot.waitUntil(lambda: not strip.text_pending, timeout=timeout)
    assert "d_k = 64," in strip.strip_fit.text()
    for dk in (128, 256):             # just after a refresh: both wait
        state.update_params(dk=dk, d_model=dk * 8)
        study.show(compute(state.params))
    assert strip.text_pending and "d_k = 64," in strip.strip_fit.text()
    qtbot.waitUntil(lambda: not strip.text_pending, timeout=timeout)
    text = strip.strip_fit.text()
    assert "d_k = 256," in text and "d_k = 128," not in text
