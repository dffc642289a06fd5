"""The lesson in the window: Train buttons start their runs in the Training tab and the text
quotes them, the Real heads step shows its tab, the layers step draws layers × heads, and
leaving the lesson or Edit → Reset puts back the user's controls (issues 10, 11, 12, 13)."""
import multiprocessing.resource_tracker

import pytest
from PySide6.QtWidgets import QCheckBox

from engine import Params
from engine.presets import preset_by_slug
from gui.common import names
from gui.lessons.strip import DEFAULT_CONTROLS
from gui.lessons.steps import STEPS
from gui.common.style import format_number
from gui_helpers import settle

@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


SHORT = {"steps": 20, "seeds": 1, "log_every": 5, "snapshot_every": 5}


@pytest.fixture(scope="module", autouse=True)
def resource_tracker_first():
    """multiprocessing's resource tracker lives as long as the session and starts with the
    first training queue: start it before a leak check counts this process's children."""
    multiprocessing.resource_tracker.ensure_running()


def step_index(key):
    return [s.key for s in STEPS].index(key)


@pytest.fixture
def english():
    from gui.common.i18n import set_language

    set_language("en")
    yield
    set_language("en")


def go(window, key):
    window.lesson.go_to(step_index(key))
    settle(window)
    window.lesson.refresh_text()
    return window.lesson.text()


def test_new_steps_sit_where_the_issues_put_them():
    keys = [s.key for s in STEPS]
    assert keys.index("real_heads") == keys.index("roles") + 1
    assert keys.index("many_heads") == keys.index("cost") + 1
    assert [s.key for s in STEPS if s.train] == ["gradients", "roles", "many_heads"]


def test_leaving_the_lesson_puts_back_the_users_controls(window, english):
    lock = window.findChild(QCheckBox, "lockDModelCheck")
    lock.setChecked(False)
    window.state.update_params(dk=100, heads=3, d_model=300, seed=7, scale=True)
    settle(window)
    mine = window.model.params
    window.lesson.go_to(step_index("gradients"))        # unticks ÷√d_k and the lock
    settle(window)
    assert not window.model.params.scale and not window.state.lock_d_model
    window.lesson.next()
    settle(window)
    window.menus.lesson_action.setChecked(False)              # F7: the strip closes
    settle(window)
    assert window.model.params == mine and window.state.lock_d_model is False
    assert not lock.isChecked()
    window.menus.lesson_action.setChecked(True)


def test_edit_reset_puts_back_what_play_changed(window, qtbot, english):
    lock = window.findChild(QCheckBox, "lockDModelCheck")
    window.state.update_params(dk=32, heads=16, d_model=512, seed=11)
    settle(window)
    mine, locked = window.model.params, window.state.lock_d_model
    window.lesson.go_to(0)
    window.lesson.timer.setInterval(10)
    window.lesson.play_button.setChecked(True)
    qtbot.waitUntil(lambda: not window.lesson.play_button.isChecked(), timeout=10000)
    settle(window)
    assert window.model.params != mine and not window.state.lock_d_model
    assert window.lesson.reset_action.shortcut().toString() == "Ctrl+R"
    assert window.lesson.reset_action in window.menus.edit_menu.actions()
    window.lesson.reset_action.trigger()
    settle(window)
    assert window.model.params == mine and window.state.lock_d_model == locked == lock.isChecked()
    window.lesson.reset_action.trigger()                       # nothing from the lesson left: defaults
    settle(window)
    assert (window.model.params, window.state.lock_d_model) == (DEFAULT_CONTROLS.params,
                                                                DEFAULT_CONTROLS.lock)


def test_gradients_train_button_runs_in_the_training_tab_and_the_text_quotes_it(
        window, qtbot, english, monkeypatch):
    import gui.lessons.training_facts as lesson_training
    from gui.lessons.training_facts import percent, scaling_facts

    experiment, options = lesson_training.LESSON_RUNS["gradients"]
    monkeypatch.setitem(lesson_training.LESSON_RUNS, "gradients",
                        (experiment, {**options, **SHORT}))
    text = go(window, "gradients")
    button = window.lesson.train_button
    assert button.isVisible() and "Press Train" in text
    button.click()
    assert window.area.workspace() == "training"
    assert window.state.training.experiment == "scaling"
    qtbot.waitUntil(lambda: "scaling" in window.lesson.training_results, timeout=30000)
    settle(window)
    window.lesson.refresh_text()
    result = window.lesson.training_results["scaling"]
    assert result.config.d_ks == (256,) and result.config.tasks == ("averaging", "lookup")
    f = scaling_facts(result)
    text = window.lesson.text()
    for value in (percent(f["acc_s"]), percent(f["acc_u"]), format_number(f["g_u"]),
                  format_number(f["ent_s"])):
        assert value in text
    assert button.isEnabled()
    assert not window.training_tab.runner.is_running()


def test_roles_step_frames_the_learned_heads_and_keeps_the_hand_built_ones(window, english):
    text = go(window, "roles")
    assert window.area.highlighted == names.TRAINING_PANEL
    assert window.area.workspace() == "training"
    assert "emerge rather than being assigned" in text and "Voita et al. 2019" in text
    assert "Head roles tab keeps hand-built heads" in text
    view = window.head_roles_tab.view
    if view.entropies is not None:
        assert format_number(float(view.entropies[0].mean())) in text


def test_real_heads_step_shows_the_tab_and_its_result(window, english):
    text = go(window, "real_heads")
    assert window.area.workspace() == "realheads"
    assert window.area.highlighted == names.MODEL_HEADS
    tab = window.model_heads
    if tab.model_folder() is None:
        assert "Fetch MiniLM" in text
        return
    assert tab.wait_idle(60000)
    settle(window)
    window.lesson.refresh_text()
    r = tab.result
    text = window.lesson.text()
    assert f"{r.summary.first_token_heads} of {r.summary.heads} heads" in text
    # the per-head picture (engine per_head_summary), not the pooled per-layer figures
    from engine.models.score_variance import per_head_summary

    s = per_head_summary(r.forward.head_scaled_within_row_variance)
    medians = ", ".join(f"L{i} {format_number(m)}" for i, m in enumerate(s.medians))
    hl, hh = s.highest_at
    assert f"the median head's Var(q·k/√d_k) per layer is {medians};" in text
    assert f"L{hl}·H{hh} stands out at {format_number(s.highest_over_median)} times" in text
    assert f"L0 {format_number(float(r.forward.raw_score_variance[0]))}" not in text


def test_layers_step_draws_one_cell_per_head_of_the_chosen_model(window, english):
    go(window, "layers")
    grid = window.lesson.layers_grid
    assert grid.isVisible()
    window.lesson.repaint()
    grid.repaint()
    base = preset_by_slug("transformer-base")
    assert grid.preset == base and len(grid.cells) == 18 * 8 == 144
    assert {kind for kind, _ in grid.cells} == {"encoder", "decoder", "cross"}
    llama = preset_by_slug("llama-2-70b")
    window.state.update_params(dk=llama.dk, heads=llama.heads, d_model=llama.d_model,
                        kv_heads=llama.kv_heads, cached_layers=llama.cached_layers)
    settle(window)
    grid.repaint()
    assert grid.preset == llama and len(grid.cells) == 80 * 64
    assert "LLaMA" in window.lesson.text() or llama.name in window.lesson.text()
    window.lesson.next()
    assert not grid.isVisible()


def test_the_grid_keeps_labels_inside_and_cells_apart_at_300_percent(window, english):
    go(window, "layers")
    grid = window.lesson.layers_grid
    try:
        for scale in (1.0, 3.0):
            window.set_ui_scale(scale)
            settle(window)
            grid.repaint()
            bounds = grid.rect()
            label_rects = [r for _, r in grid.labels]
            for rect in label_rects:
                assert rect.right() <= bounds.width() + 0.5
            cells = [r for _, r in grid.cells]
            assert max(r.bottom() for r in cells) <= bounds.height() + 0.5
            sections = [r for text, r in grid.labels if "=" not in text and "×" in text]
            assert len(sections) == 3                # encoder self, decoder self, cross
            for rect in sections:                    # beside or above the cells, never on them
                assert not any(rect.intersected(r).height() > 0.5 and
                               rect.intersected(r).width() > 0.5 for r in cells)
            assert any(text.endswith("= 144") for text, _ in grid.labels), grid.labels
            assert max(r.bottom() for r in label_rects) <= bounds.height() + 0.5
            for width in (140.0, 260.0):             # narrow (300 % on 1366 px): labels above
                labels, cells = grid.layout_cells(width, 320.0)
                sections = [r for text, r in labels[-3:] if "=" not in text and text]
                assert len(sections) == 3, (scale, width, labels)     # after the caption
                for rect in sections:
                    assert rect.right() <= width + 0.5
                    assert not any(rect.intersected(r).height() > 0.5 and
                                   rect.intersected(r).width() > 0.5 for _, r in cells)
                assert max(r.bottom() for _, r in cells) <= 320.5
    finally:
        window.set_ui_scale(1.0)


def test_params_restored_by_the_default_reset_are_valid():
    params, lock = DEFAULT_CONTROLS.params, DEFAULT_CONTROLS.lock
    assert isinstance(params, Params) and params.live_scores and lock is True


def test_presentation_keeps_the_training_tab_of_a_training_step_on_screen(window, english):
    go(window, "roles")
    try:
        window.menus.presentation_action.setChecked(True)
        settle(window)
        assert window.area.workspace() == "training"
        assert window.training_tab.isVisibleTo(window)
        go(window, "real_heads")
        assert window.area.workspace() == "realheads"
        assert window.model_heads.isVisibleTo(window)
        go(window, "fix")                       # back to a simulation plot: its workspace
        assert window.area.workspace() == "scaling"
        assert not window.training_tab.isVisibleTo(window)
    finally:
        window.menus.presentation_action.setChecked(False)
        settle(window)


def test_every_step_shows_its_whole_text_after_next_and_back(window, qtbot, english):
    """The strip was fitted to the text only on a resize: going from a short step to a long
    one left the new text cut off at the bottom (or scrolled a few pixels off its top)."""
    window.resize(1600, 1000)
    window.set_lesson_visible(True)
    qtbot.wait(50)
    order = list(range(len(STEPS))) + list(range(len(STEPS) - 2, -1, -1))
    for i in order:
        window.lesson.go_to(i)
        settle(window)
        window.lesson.refresh_text()
        qtbot.waitUntil(lambda: abs(window.lesson_scroll.height() - min(
            window.lesson.minimumSizeHint().height() + 8,
            int(window.height() * window.LESSON_MAX_SHARE))) <= 12, timeout=2000)
        view = window.lesson.text_view
        bar = view.verticalScrollBar()
        assert bar.value() == 0, STEPS[i].key                       # read from its first line
        if window.lesson.minimumSizeHint().height() + 8 <= window.height() * window.LESSON_MAX_SHARE:
            assert bar.maximum() == 0, STEPS[i].key                 # nothing hidden below
            assert window.lesson_scroll.verticalScrollBar().maximum() <= 12, STEPS[i].key


@pytest.mark.slow     # every step at 300 % in Japanese: seconds
def test_at_300_percent_the_strip_never_scrolls_sideways_and_shows_whole_lines(window, qtbot):
    """A long title and four buttons pushed the strip sideways (the text was cut off on the
    right); a scrolling text showed half a line and a second scroll bar."""
    from PySide6.QtWidgets import QApplication

    from gui.common.i18n import set_language

    font = QApplication.font()
    set_language("ja")
    try:
        window.resize(1366, 768)
        window.set_lesson_visible(True)
        window.set_ui_scale(3.0)
        qtbot.wait(50)
        for i, step in enumerate(STEPS):
            window.lesson.go_to(i)
            settle(window)
            window.lesson.refresh_text()
            qtbot.wait(30)
            assert window.lesson_scroll.horizontalScrollBar().maximum() == 0, step.key
            if step.grid:
                continue               # beside the layers picture the strip may scroll
            assert window.lesson_scroll.verticalScrollBar().maximum() == 0, step.key
            view = window.lesson.text_view
            if view.verticalScrollBar().maximum() > 0:
                inner = view.height() - 2 * view.frameWidth()
                assert view.whole_lines_height(inner) == inner, step.key
    finally:
        window.zoom_reset()
        set_language("en")
        QApplication.setFont(font)


def test_the_real_heads_step_reads_an_english_sentence_in_japanese_too(window):
    """MiniLM reads English: the Japanese lesson gives it the English sentence too, says
    what it means, and leaving the lesson puts the student's sentence back."""
    from gui.lessons.steps import REAL_HEADS_SENTENCE, STEPS

    window.menus.lesson_action.setChecked(False)
    window.state.update_heads_input(sentence="my own sentence", token_mode="en")
    window.menus.lesson_action.setChecked(True)
    window.switch_language("ja")
    step = [s.key for s in STEPS].index("real_heads")
    window.lesson.go_to(step)
    settle(window)
    assert window.state.heads_input.sentence == REAL_HEADS_SENTENCE
    assert window.state.heads_input.token_mode == "en"
    assert REAL_HEADS_SENTENCE in window.lesson.text() and "英語" in window.lesson.text()
    window.lesson.go_to(step - 3)            # a step about the head-roles sentence: the
    settle(window)                           # student's own
    assert window.state.heads_input.sentence == "my own sentence"
    window.lesson.go_to(step)
    window.state.update_heads_input(sentence="changed at the step")
    window.lesson.go_to(step - 3)
    assert window.state.heads_input.sentence == "my own sentence"
    window.menus.lesson_action.setChecked(False)
    assert window.state.heads_input.sentence == "my own sentence"
