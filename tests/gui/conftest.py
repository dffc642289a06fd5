"""Qt fixtures: every test gets a fresh window, and leaks fail the test (after napari)."""
import pytest
from PySide6.QtWidgets import QApplication

from gui.app import configure_pyqtgraph
from gui.model import SimulationModel


@pytest.fixture(scope="session", autouse=True)
def isolated_settings(qapp, tmp_path_factory):
    """QSettings write to a temporary folder, never to the user's real settings."""
    from PySide6.QtCore import QSettings

    qapp.setOrganizationName("AttentionLabTests")
    qapp.setApplicationName("Attention Lab Tests")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                      str(tmp_path_factory.mktemp("settings")))


@pytest.fixture(autouse=True)
def no_leaks(qapp):
    configure_pyqtgraph()
    before = set(QApplication.topLevelWidgets())
    yield
    QApplication.processEvents()
    running = SimulationModel.running_threads()
    assert not running, f"worker threads left running: {running}"
    leaked = [w for w in QApplication.topLevelWidgets() if w not in before and w.isVisible()]
    assert not leaked, f"top-level widgets left open: {leaked}"


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
