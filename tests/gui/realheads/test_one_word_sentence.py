"""A one-word sentence (one token) reaches the Head roles and Real heads tabs without an
exception: the role detector needs 2 tokens, and the hand-built heads then say so."""
import numpy as np

from gui.panels.heads_view import compute_heads
from gui.realheads.study import hand_head_set
from gui.state import HeadsInput


def test_hand_head_set_of_one_token_is_none():
    result = compute_heads(HeadsInput(sentence="Hi"))
    assert np.shape(result.weights)[-1] == 1
    assert hand_head_set(result) is None


def test_typing_one_word_raises_nothing_and_the_tab_says_why(window, qtbot):
    tab = window.model_heads                     # builds the Real heads tab
    window.state.update_heads_input(sentence="Hi")
    assert window.heads_study.wait_idle()
    qtbot.waitUntil(lambda: "2 or more tokens" in tab.compare.key_text, timeout=5000)
    assert tab.hand_heads is None
    window.state.update_heads_input(sentence="Hi there")
    assert window.heads_study.wait_idle()
    qtbot.waitUntil(lambda: tab.hand_heads is not None, timeout=5000)
