"""A closed window ignores the application's later language changes (its menus may already
be on their way out) and reports no error."""
from PySide6.QtWidgets import QApplication

from gui.common.guard import errors
from gui.common.i18n import current_language, set_language
from gui.window.main_window import MainWindow


def test_a_language_change_after_close_reports_nothing(qtbot):
    reported = []
    errors.reported.connect(reported.append)
    try:
        window = MainWindow()
        qtbot.addWidget(window)
        window.show()
        window.close()
        assert window.closed
        window.menus.file_menu.deleteLater()           # Qt deleting the menus of a closed window
        QApplication.processEvents()
        before = current_language()
        set_language("ja" if before == "en" else "en")
        QApplication.processEvents()
        set_language(before)
        QApplication.processEvents()
    finally:
        errors.reported.disconnect(reported.append)
    assert reported == []


def test_a_closed_window_leaves_no_pooled_thread(qtbot):
    """Qt's global thread pool (image conversions and scaling use it) has no thread left
    once the window is closed."""
    import os

    from PySide6.QtCore import QThreadPool

    def pooled() -> int:
        names = []
        for task in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{task}/comm") as comm:
                    names.append(comm.read().strip())
            except OSError:
                pass
        return names.count("Thread (pooled)")

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    pool = QThreadPool.globalInstance()
    pool.start(lambda: None)
    qtbot.waitUntil(lambda: pool.activeThreadCount() == 0)
    assert pooled() >= 1          # an idle pooled thread, waiting for work
    window.close()
    assert pooled() == 0


def _exit_at_once() -> None:
    pass


def test_a_closed_window_leaves_no_resource_tracker(qtbot):
    """multiprocessing's resource tracker, started by the window's spawned children (the
    training run, the Real heads forward), ends with the window."""
    import multiprocessing
    from multiprocessing import resource_tracker

    import psutil

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    child = multiprocessing.get_context("spawn").Process(target=_exit_at_once)
    child.start()
    child.join(30)
    tracker = resource_tracker._resource_tracker._pid
    assert tracker is not None and psutil.pid_exists(tracker)
    window.close()
    assert not any(c.pid == tracker and c.status() != psutil.STATUS_ZOMBIE
                   for c in psutil.Process().children())



def test_the_state_does_not_call_deleted_controls(qtbot, sync_studies):
    """AppState's events (psygnal) hold the sidebar's methods weakly but know nothing of Qt: a
    change made after Qt deleted the controls (a closed window's widgets, while Python still
    holds them) calls none of them: a call would raise, and be reported."""
    import shiboken6

    from gui.controls.sidebar import Sidebar
    from gui.state import AppState
    from gui.studies.simulation import SimulationModel

    state = AppState()
    model = SimulationModel(state)
    controls = Sidebar(model.state, model)
    controls.show()
    controls.close()
    reported = []
    errors.reported.connect(reported.append)
    try:
        shiboken6.delete(controls)
        assert not shiboken6.isValid(controls)
        state.update_params(seed=5)
        state.set_lock_d_model(not state.lock_d_model)
        assert model.wait_idle()
    finally:
        errors.reported.disconnect(reported.append)
        model.shutdown()
    assert reported == []
    assert model.results.params.seed == 5
