"""A forward child that stops answering (SIGSTOP) never hangs its study: a request times out,
the child is killed and the next request starts a new one, and abort() (the window's close)
ends a wait at once."""
import os
import signal
import threading
import time

import psutil
import pytest

from gui.realheads import forward_process as fp
from tiny_models import write_bert  # noqa: E402

pytestmark = pytest.mark.slow     # real forward processes

SENTENCE = "the cat sat on the mat."


@pytest.fixture
def tiny_bert(tmp_path):
    return str(write_bert(tmp_path / "tiny-bert"))


@pytest.fixture
def process():
    process = fp.ForwardProcess()
    yield process
    process.stop()


def stalled(process, folder) -> int:
    assert process.ask(folder, SENTENCE)[0] == "ok"
    pid = process.pid
    os.kill(pid, signal.SIGSTOP)
    return pid


def test_a_stalled_child_times_out_and_the_next_request_starts_anew(process, tiny_bert,
                                                                     monkeypatch):
    pid = stalled(process, tiny_bert)
    monkeypatch.setattr(fp, "REPLY_S", 0.5)
    t0 = time.perf_counter()
    with pytest.raises(fp.ForwardProcessError, match="did not answer within"):
        process.ask(tiny_bert, SENTENCE)
    assert time.perf_counter() - t0 < 0.5 + fp.STOP_WAIT_S * 3
    assert not psutil.pid_exists(pid)
    assert process.ask(tiny_bert, SENTENCE)[0] == "ok"
    assert process.processes_started == 2


def test_abort_ends_a_wait_for_a_stalled_child_at_once(process, tiny_bert):
    pid = stalled(process, tiny_bert)
    outcome = []

    def ask():
        try:
            outcome.append(process.ask(tiny_bert, SENTENCE))
        except fp.ForwardProcessError as exc:
            outcome.append(exc)
    waiter = threading.Thread(target=ask)
    waiter.start()
    time.sleep(0.2)                 # the waiter is blocked on the stopped child's reply
    t0 = time.perf_counter()
    process.abort()
    waiter.join(5)
    assert not waiter.is_alive() and time.perf_counter() - t0 < 1.0
    assert isinstance(outcome[0], fp.ForwardProcessError)
    process.stop()
    assert not psutil.pid_exists(pid)
    with pytest.raises(fp.ForwardProcessError, match="stopped"):
        process.ask(tiny_bert, SENTENCE)


def test_closing_the_window_with_a_stalled_forward_child_takes_under_2_s(qtbot, tiny_bert,
                                                                        tmp_path, monkeypatch):
    from PySide6.QtWidgets import QApplication

    from gui.window.main_window import MainWindow

    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))   # no MiniLM
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1400, 900)        # every panel on screen, the Real heads tab among them
    window.show()
    tab = window.model_heads
    window.area.bring_forward(tab.objectName())
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *args, **kwargs: tiny_bert))
    window.menus.open_model_action.trigger()
    qtbot.waitUntil(lambda: tab.result is not None, timeout=20000)   # after the debounce
    QApplication.processEvents()
    pids = {p.pid for p in fp.forward_processes() if p.pid is not None}
    assert pids and tab.result is not None, tab.message
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    window.state.update_heads_input(sentence="the dog sat on the rug.")   # now waits on it
    qtbot.wait(300)
    t0 = time.perf_counter()
    window.close()
    assert time.perf_counter() - t0 < 2.0
    assert not any(psutil.pid_exists(pid) for pid in pids)
