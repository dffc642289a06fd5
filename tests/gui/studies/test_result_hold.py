"""The Real heads forward and the head roles yield to the simulation: while a d_k change is
asked, computed and shown, no head-roles or Real heads result is drawn
(gui/studies/hold.py ResultHold); the newest is drawn once the change has been shown.
The window's Real heads forward runs in its child process (each test starts one)."""
import time

import pytest
from PySide6.QtWidgets import QApplication, QSpinBox

from gui_helpers import no_forward_in_this_process
from tab_fixtures import tiny_bert  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

SENTENCE = "the cat sat on the mat."


@pytest.fixture
def slow_window(qtbot, tiny_bert, monkeypatch):
    """A window whose simulation takes 0.4 s per change, its Real heads tab shown on the
    tiny BERT."""
    from engine import compute
    from gui.window.main_window import MainWindow

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
        win.area.bring_forward(tab.objectName())
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
