"""Issue 13: the Real heads forward and the head roles yield to the simulation.

While a d_k change is asked, computed and shown, no head-roles or Real heads result is drawn
(gui/background_work.py ResultHold); the Real heads forward process starts when that tab is
first opened, before its first request, and the window's close stops it."""
import sys
import time
from pathlib import Path

import psutil
import pytest
from PySide6.QtWidgets import QApplication, QSpinBox

from gui import panel_names as names
from gui_helpers import forward_pids, no_forward_in_this_process

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from tiny_models import write_bert  # noqa: E402

SENTENCE = "the cat sat on the mat."


@pytest.fixture
def tiny_bert(tmp_path):
    return write_bert(tmp_path / "tiny-bert", plants={0: "previous", 1: "first", 2: "self"})


@pytest.fixture
def slow_window(qtbot, tiny_bert, monkeypatch):
    """A window whose simulation takes 0.4 s per change, its Real heads tab shown on the
    tiny BERT."""
    from engine import compute
    from gui.main_window import MainWindow

    def slow(params):
        time.sleep(0.4)
        return compute(params)

    no_forward_in_this_process(monkeypatch)
    font = QApplication.font()
    win = MainWindow(compute_fn=slow)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    try:
        assert win.model.wait_idle(10000)
        win.state.update_heads_input(sentence=SENTENCE)
        tab = win.model_heads
        tab.add_model_folder(str(tiny_bert))
        win.bottom_tabs.setCurrentWidget(tab)
        assert tab.wait_idle() and win.heads_study.wait_idle()
        QApplication.processEvents()
        assert tab.result.error == ""
        yield win
    finally:
        win.close()
        QApplication.setFont(font)


def change_during_a_new_sentence(win, qtbot, sentence: str):
    """A d_k change, then a new sentence for both studies while it computes; the results
    each study delivered while the change had not been shown yet (identity per result)."""
    tab = win.model_heads
    shown = win.model.results
    win.findChild(QSpinBox, "dkSpin").setValue(48)
    win.state.update_heads_input(sentence=sentence)
    tab.request()                                  # the debounce skipped: it starts now
    seen_real, seen_hand = {id(tab.result)}, {id(tab.hand_heads)}
    while win.model.results is shown:              # the change computes, then is shown
        seen_real.add(id(tab.result))
        seen_hand.add(id(tab.hand_heads))
        qtbot.wait(10)
    return len(seen_real) - 1, len(seen_hand) - 1


def test_no_background_result_is_drawn_while_a_change_computes(slow_window, qtbot):
    win, tab = slow_window, slow_window.model_heads
    hold = win.background_work.hold
    held = hold.held
    during = change_during_a_new_sentence(win, qtbot, "a big red dog ran.")
    assert during == (0, 0)
    assert hold.held >= held + 2                     # both studies' results waited …
    assert not tab.study.idle                        # … and count as not delivered yet
    assert tab.wait_idle() and win.heads_study.wait_idle()   # then they are drawn
    assert tab.result.forward.tokens[1:-1] == ("a", "big", "red", "dog", "ran", ".")
    assert tab.hand_heads.tokens[-1] == "."
    assert hold.waiting() == 0 and not hold.is_holding()


def test_without_the_hold_the_same_results_land_inside_the_change(slow_window, qtbot):
    """The test above can fail: unheld, both results arrive while the change computes."""
    slow_window.background_work.hold.hold_s = 0.0
    assert change_during_a_new_sentence(slow_window, qtbot, "a big red dog ran.") == (1, 1)


def test_a_stale_result_is_handed_on_at_once_and_the_newest_follows(slow_window, qtbot):
    """A held result the study would drop (a newer request was made) does not keep the newer
    request waiting: it is computed while the change still computes, and held in its turn."""
    win, tab = slow_window, slow_window.model_heads
    hold = win.background_work.hold
    (relay,) = [r for r in hold._relays if r.study is tab.study]
    shown, before = win.model.results, tab.result
    win.findChild(QSpinBox, "dkSpin").setValue(48)
    for sentence in ("the cat.", "the mat.", "the cat sat."):
        win.state.update_heads_input(sentence=sentence)
        tab.request()
        qtbot.wait(30)
    qtbot.waitUntil(lambda: relay.waiting is not None and not relay.stale(), timeout=5000)
    assert win.model.results is shown and tab.result is before   # all while it computes
    assert tab.wait_idle()
    assert tab.result.forward.tokens[1:-1] == ("the", "cat", "sat", ".")
    assert hold.waiting() == 0


# -- the forward process starts before the first request ---------------------------------------
def test_the_window_starts_no_forward_process(window):
    assert forward_pids() == set()
    assert not window.lazy_tabs.is_built(names.MODEL_HEADS)


def test_opening_the_tab_starts_the_process_before_its_first_request(window, tiny_bert, qtbot,
                                                                     monkeypatch):
    from gui.forward_process import forward_processes

    no_forward_in_this_process(monkeypatch)
    window.state.update_model_view(model="tiny-bert", model_dir=str(tiny_bert))
    window.state.update_heads_input(sentence=SENTENCE)
    window.bottom_tabs.setCurrentWidget(window.lazy_tabs.page(names.MODEL_HEADS))
    assert not window.lazy_tabs.is_built(names.MODEL_HEADS)     # built one turn later
    (early,) = forward_processes()
    qtbot.waitUntil(lambda: early.pid is not None, timeout=5000)
    pid = early.pid
    assert psutil.Process(pid).ppid() == psutil.Process().pid
    tab = window.model_heads
    assert tab.wait_idle() and tab.result.error == "" and tab.result.model_name == "tiny-bert"
    assert tab.study.generation == 1
    assert forward_processes() == (early,) and early.pid == pid and early.processes_started == 1
    window.bottom_tabs.setCurrentIndex(0)
    window.bottom_tabs.setCurrentWidget(tab)                     # no second early start
    assert forward_processes() == (early,)
    window.close()
    assert not psutil.pid_exists(pid) and forward_pids() == set()


def test_a_process_started_early_and_never_asked_ends_with_the_window(window, tiny_bert, qtbot):
    from gui.forward_process import forward_processes

    window.state.update_model_view(model="tiny-bert", model_dir=str(tiny_bert))
    window.bottom_tabs.setCurrentWidget(window.lazy_tabs.page(names.MODEL_HEADS))
    (early,) = forward_processes()
    qtbot.waitUntil(lambda: early.pid is not None, timeout=5000)
    pid = early.pid
    window.close()                                     # before the tab was even built
    assert not psutil.pid_exists(pid) and forward_pids() == set()


def test_a_warm_up_reply_is_never_taken_for_the_answer(tiny_bert):
    """start(warm_folder) sends a warm-up request; ask() skips its reply."""
    from gui.forward_process import ForwardProcess

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
