"""Qt fixtures: every test gets a fresh window, and leaks fail the test (after napari).

The leak checks belong to the tests, not to production classes: QThread.start is
wrapped for the session to see every thread a test starts, and after each test
no thread it started may still run, no top-level widget it opened may be visible,
no timer of those widgets may be active, and no child process may be left.
"""
import weakref

import psutil
import pytest
from PySide6.QtCore import QThread, QTimer
from PySide6.QtWidgets import QApplication

from gui.app import configure_pyqtgraph, limit_blas_threads

_started_threads: "list[weakref.ref]" = []


@pytest.fixture(scope="session", autouse=True)
def track_threads():
    original = QThread.start

    def start(self, *args):
        _started_threads.append(weakref.ref(self))
        return original(self, *args)

    QThread.start = start
    yield
    QThread.start = original


@pytest.fixture(scope="session", autouse=True)
def one_blas_thread():
    """As create_application sets up the app's process."""
    limit_blas_threads()


@pytest.fixture(scope="session", autouse=True)
def isolated_settings(qapp, tmp_path_factory):
    """QSettings write to a temporary folder, never to the user's real settings."""
    from PySide6.QtCore import QSettings

    qapp.setOrganizationName("AttentionLabTests")
    qapp.setApplicationName("Attention Lab Tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path_factory.mktemp("settings")))


def running_threads() -> list:
    alive = []
    for ref in _started_threads:
        thread = ref()
        try:
            if thread is not None and thread.isRunning():
                alive.append(thread)
        except RuntimeError:   # the C++ side is already gone
            pass
    return alive


def active_timers(widgets) -> list:
    timers = []
    for widget in widgets:
        try:
            timers += [t for t in widget.findChildren(QTimer) if t.isActive()]
        except RuntimeError:
            pass
    return timers


@pytest.fixture(autouse=True)
def no_leaks(qapp, qtbot):
    configure_pyqtgraph()
    before = set(QApplication.topLevelWidgets())
    children_before = {p.pid for p in psutil.Process().children(recursive=True)}
    _started_threads.clear()
    yield
    QApplication.processEvents()
    running = running_threads()
    assert not running, f"threads left running: {[t.objectName() for t in running]}"
    new = [w for w in QApplication.topLevelWidgets() if w not in before]
    leaked = [w for w in new if w.isVisible()]
    assert not leaked, f"top-level widgets left open: {leaked}"
    # single-shot timers of closed widgets may still fire once; repeating ones must be stopped
    qtbot.waitUntil(lambda: not active_timers(new), timeout=1500)
    children = [p for p in psutil.Process().children(recursive=True)
                if p.pid not in children_before and p.is_running()]
    assert not children, f"child processes left running: {children}"


@pytest.fixture
def window(qtbot):
    from gui.main_window import MainWindow

    font = QApplication.font()   # text size and presentation mode change the app's font
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.model.wait_idle()
    QApplication.processEvents()
    yield win
    win.close()
    QApplication.setFont(font)


@pytest.fixture
def restore_view(window):
    """After the test: windowed, 100 % text, English (for tests that change the view)."""
    yield
    window.set_presentation(False)
    window.zoom_reset()
    window.switch_language("en")
