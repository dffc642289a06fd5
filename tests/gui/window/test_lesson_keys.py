"""Keys do what the user expects (issue 31): a focused control keeps its arrow keys, a
clicker's PageUp/PageDown always step the lesson, the arrows step it when nothing that
uses them has focus, and a hidden lesson takes no keys at all."""
import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QCheckBox, QSlider

from gui.controls.fields import DK_SLIDER_STEPS_PER_OCTAVE, slider_to_dk
from gui_helpers import settle


def focus(window, widget) -> None:
    window.activateWindow()
    widget.setFocus(Qt.FocusReason.MouseFocusReason)
    QApplication.processEvents()
    assert QApplication.focusWidget() is widget


def test_a_focused_slider_takes_the_right_arrow_and_the_lesson_stays(sync_window):
    window = sync_window
    window.lesson.go_to(0)
    settle(window)
    slider = window.findChild(QSlider, "dkSlider")
    focus(window, slider)
    before = window.state.params
    value = slider.value()
    QTest.keyClick(slider, Qt.Key.Key_Right)
    settle(window)
    assert slider.value() == value + 1                  # one step of the slider
    assert window.state.params.dk == slider_to_dk(value + 1)
    assert window.lesson.index == 0
    for _ in range(DK_SLIDER_STEPS_PER_OCTAVE):         # the next notch that changes d_k
        if window.state.params.dk != before.dk:
            break
        QTest.keyClick(slider, Qt.Key.Key_Right)
        settle(window)
    assert window.state.params.dk > before.dk
    assert window.lesson.index == 0
    # what the student set stays: nothing of another step was applied
    assert window.state.params == dataclasses.replace(before, dk=window.state.params.dk,
                                                      d_model=window.state.params.d_model)


def test_page_down_steps_the_lesson_whatever_has_focus(sync_window):
    window = sync_window
    window.lesson.go_to(0)
    settle(window)
    slider = window.findChild(QSlider, "dkSlider")
    focus(window, slider)
    value = slider.value()
    QTest.keyClick(slider, Qt.Key.Key_PageDown)
    assert window.lesson.index == 1 and slider.value() == value
    QTest.keyClick(slider, Qt.Key.Key_PageUp)
    assert window.lesson.index == 0


def test_arrows_step_the_lesson_when_the_focus_does_not_use_them(sync_window):
    window = sync_window
    window.lesson.go_to(0)
    settle(window)
    check = window.findChild(QCheckBox, "lockDModelCheck")
    focus(window, check)
    QTest.keyClick(check, Qt.Key.Key_Right)
    assert window.lesson.index == 1
    QTest.keyClick(check, Qt.Key.Key_Left)
    assert window.lesson.index == 0


def test_a_hidden_lesson_takes_no_keys(sync_window):
    window = sync_window
    window.lesson.go_to(2)
    settle(window)
    window.menus.lesson_action.setChecked(False)
    check = window.findChild(QCheckBox, "lockDModelCheck")
    focus(window, check)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_PageDown):
        QTest.keyClick(check, key)
    assert window.state.lesson_step == 2
    window.menus.lesson_action.setChecked(True)
    QTest.keyClick(check, Qt.Key.Key_PageDown)
    assert window.state.lesson_step == 3


def test_in_presentation_the_arrows_step_the_lesson(sync_window):
    window = sync_window
    window.lesson.go_to(1)                 # its offset and gap sliders are in the strip
    settle(window)
    window.set_presentation(True)
    try:
        QApplication.processEvents()
        slider = window.lesson.gap_slider
        focus(window, slider)
        QTest.keyClick(slider, Qt.Key.Key_Right)
        assert window.lesson.index == 2
    finally:
        window.set_presentation(False)


def test_a_step_gives_its_settings_and_leaving_gives_the_students_back(sync_window):
    """Step 5 and back to step 1 gives step 1's settings exactly; leaving the lesson (the
    strip closed) puts back what the student had set before the lesson's first step."""
    window = sync_window
    state = window.state
    window.menus.lesson_action.setChecked(False)       # the student works without the lesson
    state.set_lock_d_model(False)
    state.update_params(dk=96, heads=3, d_model=288, scores=(3.0, 2.0, 1.0), live_scores=False,
                        temperature=1.5, seed=7, causal=True)
    settle(window)
    student = (state.params, state.lock_d_model)
    window.menus.lesson_action.setChecked(True)
    window.lesson.go_to(0)
    settle(window)
    step_one = (state.params, state.lock_d_model)
    assert step_one != student
    for _ in range(4):
        QTest.keyClick(window, Qt.Key.Key_PageDown)
    settle(window)
    assert window.lesson.index == 4
    state.update_params(temperature=2.5)               # the student plays with step 5
    for _ in range(4):
        QTest.keyClick(window, Qt.Key.Key_PageUp)
    settle(window)
    assert window.lesson.index == 0
    assert (state.params, state.lock_d_model) == step_one
    window.lesson.go_to(6)
    window.lesson.go_to(0)
    assert (state.params, state.lock_d_model) == step_one
    window.menus.lesson_action.setChecked(False)        # leaving the lesson
    settle(window)
    assert (state.params, state.lock_d_model) == student


def test_lesson_leave_in_the_menu_gives_the_students_settings_back(sync_window):
    window = sync_window
    state = window.state
    window.menus.lesson_action.setChecked(False)
    state.update_params(temperature=2.0, seed=11)
    student = (state.params, state.lock_d_model, state.heads_input)
    window.menus.lesson_start_action.trigger()
    settle(window)
    assert window.menus.lesson_action.isChecked() and window.lesson.index == 0
    assert state.params != student[0]
    window.lesson.go_to(7)
    settle(window)
    window.menus.lesson_leave_action.trigger()
    settle(window)
    assert not window.lesson_dock.isVisible() or not window.menus.lesson_action.isChecked()
    assert (state.params, state.lock_d_model, state.heads_input) == student


def test_a_training_step_shows_its_experiment_before_train_and_leaving_puts_back(sync_window):
    """Steps 7 and 10 bring up the Training lab: before ▶ Train it shows the experiment the
    step will run (it showed the student's, ÷√d_k by default), and leaving the lesson puts
    the student's training settings back."""
    from gui.lessons.steps import STEPS
    from gui.state.app_state import TrainingSettings

    window = sync_window
    state = window.state
    window.menus.lesson_action.setChecked(False)
    state.set_training(TrainingSettings("scaling", {"steps": 123}))
    student = state.training
    window.menus.lesson_action.setChecked(True)
    for key, experiment in (("roles", "roles"), ("many_heads", "heads")):
        window.lesson.go_to([s.key for s in STEPS].index(key))
        settle(window)
        assert state.training.experiment == experiment
    window.menus.lesson_leave_action.trigger()
    assert state.training == student
