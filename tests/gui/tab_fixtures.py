"""Fixtures and helpers for tests of one tab or plot: the widget alone, or one window for a
whole module of tests that read it, instead of a new MainWindow (about 1 s) per test.

A test module imports the fixtures it uses from here (pytest finds them by name):

    training_tab      a Training tab (TrainingTab) of its own state, shown
    tiny_bert           a tiny random BERT folder named "tiny-bert", one per module
    in_thread_forward   the Real heads forward runs in the study's thread, not in a child
                        process (gui.realheads.forward_process.ENABLED off)
    module_window       one MainWindow for the module; `fresh_view` puts its view back
    resource_tracker_first   multiprocessing's resource tracker started before a test

`dispose(widget)` closes a widget and deletes it now.

A closed window that is not deleted lives on for the rest of the session, and every later
language, font or palette change reaches its widgets too (a closed MainWindow retranslates
itself): the suite gets slower test by test. So every widget made here is deleted.
"""
import multiprocessing.resource_tracker

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication

from gui.common import names


from tiny_models import write_bert  # noqa: E402

WINDOW_SIZE = (1400, 900)    # the size the `window` fixture of conftest.py gives


def dispose(widget) -> None:
    """Close `widget` and delete it (and its children) at once; what it has scheduled for
    the next event-loop turn (a zero-time timer) runs first, while it is alive."""
    widget.close()
    QApplication.processEvents()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.fixture(scope="module")
def resource_tracker_first():
    """multiprocessing's resource tracker is a process that lives as long as the test
    session; it starts with the first spawn-context process or queue. Start it before the
    leak check of a test counts this process's children."""
    multiprocessing.resource_tracker.ensure_running()


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    """A tiny BERT with a previous-token, a first-token and a self head in layer 0."""
    folder = tmp_path_factory.mktemp("models") / "tiny-bert"
    return write_bert(folder, plants={0: "previous", 1: "first", 2: "self"})


@pytest.fixture
def in_thread_forward(monkeypatch):
    """No forward process: the Real heads study computes in its own thread, as the window
    did before the forward moved to a child process (same numbers, no process start)."""
    import gui.realheads.forward_process as forward_process

    monkeypatch.setattr(forward_process, "ENABLED", False)


@pytest.fixture
def training_tab(qtbot):
    """A Training tab of its own AppState, shown at about its size in the window."""
    from gui.state import AppState
    from gui.training.runner import TrainingRunner
    from gui.training.tab import TrainingTab

    panel = TrainingTab(AppState(), TrainingRunner())
    qtbot.addWidget(panel)
    panel.resize(1000, 450)
    panel.show()
    QApplication.processEvents()
    yield panel
    panel.runner.shutdown()
    dispose(panel)


@pytest.fixture(scope="module")
def module_window(qapp):
    """One MainWindow for the tests of a module that read it or put back what they change
    (with `fresh_view`). Built before each test's leak check starts, it is not counted as
    a window the test left open; a test must not build a tab that starts a worker."""
    from gui.app import configure_pyqtgraph
    from gui.window.main_window import MainWindow

    configure_pyqtgraph()
    font = QApplication.font()
    win = MainWindow()
    win.resize(*WINDOW_SIZE)
    win.show()
    assert win.model.wait_idle()
    QApplication.processEvents()
    yield win
    dispose(win)
    QApplication.setFont(font)


@pytest.fixture
def fresh_view(module_window):
    """After the test: the module window windowed, at 100 % text, in English, at its size."""
    yield module_window
    module_window.set_presentation(False)
    module_window.zoom_reset()
    module_window.switch_language("en")
    module_window.resize(*WINDOW_SIZE)
    QApplication.processEvents()
