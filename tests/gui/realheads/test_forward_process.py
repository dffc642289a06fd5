"""The Real heads forward in a child process (gui/realheads/forward_process.py): the window's study
computes in a process of its own, started when the tab is first opened (before its first
request), started again when killed, and stopped with the study or the window; on the GUI
thread the study computes in place."""
import os

import numpy as np
import psutil
import pytest
from PySide6.QtWidgets import QApplication

from engine.models import load_model, run_sentence
from gui.common import names
from gui.realheads.study import compute_model_heads
from gui.realheads.tab import ModelHeadsTab
from gui.state import AppState
from gui_helpers import forward_pids, no_forward_in_this_process
from tab_fixtures import dispose
from tab_fixtures import resource_tracker_first, tiny_bert  # noqa: F401 (fixtures)

SENTENCE = "the cat sat on the mat."
slow = pytest.mark.slow              # the tests that start a forward process


@pytest.fixture
def tab(qtbot, tiny_bert):
    """A tab of its own showing the tiny BERT, its forward in a child process."""
    state = AppState()
    state.update_heads_input(sentence=SENTENCE)
    widget = ModelHeadsTab(state)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    widget.add_model_folder(str(tiny_bert))
    assert widget.wait_idle()
    QApplication.processEvents()
    yield widget
    widget.shutdown()
    dispose(widget)


def show_tab(window):
    window.area.bring_forward(names.MODEL_HEADS)
    assert window.model_heads.wait_idle()
    QApplication.processEvents()
    return window.model_heads


@slow
def test_the_forward_runs_in_a_child_process_not_in_the_window(tab, qtbot, monkeypatch):
    no_forward_in_this_process(monkeypatch)
    tab.sentence_edit.clear()
    qtbot.keyClicks(tab.sentence_edit, "the dog ran")
    assert tab.wait_idle()
    QApplication.processEvents()
    assert tab.result.error == "" and tab.result.forward.tokens[1:-1] == ("the", "dog", "ran")
    expected = run_sentence(load_model(tab.result.request.folder), "the dog ran").attentions
    np.testing.assert_allclose(tab.result.forward.attentions, expected, atol=1e-6)
    assert not tab.result.forward.attentions.flags.writeable
    children = {p.pid for p in psutil.Process().children()}
    (pid,) = forward_pids()
    assert pid != os.getpid() and pid in children
    tab.shutdown()                                   # the study's thread ends: so does its child
    assert not psutil.pid_exists(pid) and forward_pids() == set()


def test_the_gui_thread_computes_in_place(tiny_bert):
    """A lesson or a test calling the study on the GUI thread gets no process."""
    from gui.realheads.study import ModelHeadsRequest

    result = compute_model_heads(ModelHeadsRequest(str(tiny_bert), "the cat sat"))
    assert result.forward.tokens == ("[CLS]", "the", "cat", "sat", "[SEP]")
    assert forward_pids() == set()


@slow
def test_closing_the_window_stops_the_forward_process(window, tiny_bert, monkeypatch):
    no_forward_in_this_process(monkeypatch)
    tab = window.model_heads
    tab.add_model_folder(str(tiny_bert))
    show_tab(window)
    assert tab.result.error == "" and tab.result.model_name == "tiny-bert"
    (pid,) = forward_pids()
    window.close()
    assert not psutil.pid_exists(pid) and forward_pids() == set()


@slow
def test_a_killed_forward_process_is_started_again(tab, qtbot):
    import signal

    from gui.realheads.forward_process import forward_processes

    (process,) = forward_processes()
    first = process.pid
    os.kill(first, signal.SIGKILL)
    tab.state.update_heads_input(sentence="a big red cat")
    tab.request()
    assert tab.wait_idle()
    assert tab.result.error == "" and tab.result.forward.tokens[1:-1] == ("a", "big", "red", "cat")
    assert process.processes_started == 2 and process.pid != first


@slow
@pytest.mark.usefixtures("resource_tracker_first")
def test_without_a_socket_pair_a_spawned_process_serves(qtbot, tiny_bert, monkeypatch):
    """Windows: no pass_fds; the same serve() runs as a multiprocessing "spawn" target."""
    import gui.realheads.forward_process as forward_process

    monkeypatch.setattr(forward_process, "USE_SUBPROCESS", False)
    no_forward_in_this_process(monkeypatch)
    state = AppState()
    state.update_heads_input(sentence=SENTENCE)
    widget = ModelHeadsTab(state)
    qtbot.addWidget(widget)
    widget.show()
    widget.add_model_folder(str(tiny_bert))
    assert widget.wait_idle() and widget.result.error == ""
    (pid,) = forward_pids()
    widget.shutdown()
    widget.close()
    assert not psutil.pid_exists(pid)


@slow
def test_opening_the_tab_starts_the_process_before_its_first_request(window, tiny_bert, qtbot,
                                                                     monkeypatch):
    from gui.realheads.forward_process import forward_processes

    no_forward_in_this_process(monkeypatch)
    window.state.update_model_view(model="tiny-bert", model_dir=str(tiny_bert))
    window.state.update_heads_input(sentence=SENTENCE)
    window.area.bring_forward(names.MODEL_HEADS)
    assert not window.lazy_views.is_built(names.MODEL_HEADS)     # built one turn later
    (early,) = forward_processes()
    qtbot.waitUntil(lambda: early.pid is not None, timeout=5000)
    pid = early.pid
    assert psutil.Process(pid).ppid() == psutil.Process().pid
    tab = window.model_heads
    assert tab.wait_idle() and tab.result.error == "" and tab.result.model_name == "tiny-bert"
    assert tab.study.generation == 1
    assert forward_processes() == (early,) and early.pid == pid and early.processes_started == 1
    window.area.bring_forward(names.SOFTMAX)
    window.area.bring_forward(tab.objectName())                     # no second early start
    assert forward_processes() == (early,)
    window.close()
    assert not psutil.pid_exists(pid) and forward_pids() == set()


@slow
def test_a_process_started_early_and_never_asked_ends_with_the_window(window, tiny_bert, qtbot):
    """Started as opening the Real heads tab starts it (the tab itself is not built here: a
    window closed before a shown tab is built builds it afterwards, see
    test_lazy_views.py::test_closing_before_a_shown_tab_is_built_builds_nothing)."""
    from gui.realheads.forward_process import forward_processes, start_early

    assert start_early(str(tiny_bert))
    (early,) = forward_processes()
    qtbot.waitUntil(lambda: early.pid is not None, timeout=5000)
    pid = early.pid
    window.close()
    assert not psutil.pid_exists(pid) and forward_pids() == set()


@slow
def test_a_warm_up_reply_is_never_taken_for_the_answer(tiny_bert):
    """start(warm_folder) sends a warm-up request; ask() skips its reply."""
    from gui.realheads.forward_process import ForwardProcess

    process = ForwardProcess()
    try:
        process.start(str(tiny_bert))
        process.start(str(tiny_bert))                  # two warm-ups in flight
        kind, analysis = process.ask(str(tiny_bert), "the dog")
        assert kind == "ok" and analysis.forward.tokens[1:-1] == ("the", "dog")
        kind, analysis = process.ask(str(tiny_bert), "a cat")
        assert kind == "ok" and analysis.forward.tokens[1:-1] == ("a", "cat")
        assert process.processes_started == 1
    finally:
        process.stop()
