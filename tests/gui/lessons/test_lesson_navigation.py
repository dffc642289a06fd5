"""Back on the first step and Next on the last: nothing happens, and the buttons say so."""
from gui.lessons.steps import STEPS


def test_back_on_the_first_step_keeps_the_users_controls(window):
    lesson = window.lesson
    lesson.go_to(0)
    assert not lesson.back_button.isEnabled() and lesson.next_button.isEnabled()
    step_dk = window.state.params.dk
    window.state.update_params(dk=64, heads=1, d_model=64, seed=window.state.params.seed + 7)
    changed = window.state.params
    assert changed.dk == 64 != step_dk
    lesson.back_button.setEnabled(True)      # the shortcut (PageUp) reaches back() all the same
    lesson.back_button.click()
    lesson.back()
    assert lesson.index == 0
    assert window.state.params == changed


def test_next_on_the_last_step_is_disabled_and_does_nothing(window):
    lesson = window.lesson
    lesson.go_to(len(STEPS) - 1)
    assert not lesson.next_button.isEnabled() and lesson.back_button.isEnabled()
    window.state.update_params(seed=window.state.params.seed + 3)
    changed = window.state.params
    lesson.next()
    assert lesson.index == len(STEPS) - 1 and window.state.params == changed
    lesson.back()
    assert lesson.index == len(STEPS) - 2 and lesson.next_button.isEnabled()
