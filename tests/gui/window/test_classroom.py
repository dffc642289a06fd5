"""Lessons, keys, language switching, sessions and presentation mode."""
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QLabel, QPushButton, QSpinBox, QTextBrowser

from engine import Params
from gui.state import SessionError
from gui.common.i18n import set_language
from gui.lessons.steps import STEPS
from gui.window.layout import SHARED_VIEWS
from gui_helpers import settle


@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language("en")


def visible_texts(win) -> set[str]:
    texts = {win.windowTitle()}
    texts |= {a.text() for a in win.menuBar().actions()}
    texts |= {w.text() for w in win.findChildren(QLabel) if w.text()}
    texts |= {w.toPlainText() for w in win.findChildren(QTextBrowser) if w.toPlainText()}
    texts |= {w.text() for w in win.findChildren(QPushButton) if w.text()}
    return texts


def test_at_least_ten_lesson_steps_walk_with_keys(window, qtbot, english):
    assert len(STEPS) >= 10
    step_label = window.findChild(QLabel, "lessonStep")
    window.lesson.go_to(0)
    settle(window)
    seen = []
    for i in range(len(STEPS)):
        assert step_label.text() == f"Step {i + 1} / {len(STEPS)}"
        settle(window)
        text = window.lesson.text()
        assert "{" not in text and "computing" not in text, text   # every placeholder filled live
        seen.append((window.lesson.step.panel, text))
        key = Qt.Key.Key_PageDown if i % 2 else Qt.Key.Key_Right
        qtbot.keyClick(window, key)
    assert window.lesson.index == len(STEPS) - 1          # clamped at the last step
    for i in reversed(range(len(STEPS) - 1)):
        qtbot.keyClick(window, Qt.Key.Key_PageUp if i % 2 else Qt.Key.Key_Left)
        assert window.lesson.index == i
    assert window.area.highlighted == STEPS[0].panel
    assert {panel for panel, _ in seen} >= {"variancePlot", "softmaxPlot", "saturationPlot",
                                            "multiheadView", "costPlot", "headsPanel"}


def test_lesson_numbers_are_live(window, english):
    window.lesson.go_to(0)
    settle(window)
    r = window.model.results
    text = window.lesson.text()
    assert f"d_k = {r.params.dk}" in text
    from gui.common.style import format_number
    assert format_number(r.variance.empirical_unscaled) in text
    window.lesson.go_to(1)          # offset and gap sliders
    settle(window)
    window.lesson.offset_slider.setValue(90)
    settle(window)
    assert window.model.params.scores[1] == 90.0
    p_offset = window.model.results.softmax.max_prob_unscaled
    window.lesson.offset_slider.setValue(0)
    settle(window)
    assert window.model.results.softmax.max_prob_unscaled == pytest.approx(p_offset, rel=1e-12)


def test_play_animates_the_sweep(window, qtbot, english):
    window.lesson.go_to(0)
    window.lesson.timer.setInterval(10)
    window.lesson.play_button.setChecked(True)
    qtbot.waitUntil(lambda: not window.lesson.play_button.isChecked(), timeout=10000)
    settle(window)
    assert window.model.params.dk == STEPS[0].sweep[-1]["dk"]


def test_blank_screen_key(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_B)
    assert window.blank.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_B)
    assert not window.blank.isVisible()


def test_language_switch_changes_visible_texts(window, english):
    before = visible_texts(window)
    window.switch_language("ja")
    after = visible_texts(window)
    assert "ファイル(&F)" in after or any("ファイル" in t for t in after)
    assert window.findChild(QPushButton, "lessonNext").text() != "Next ▶"
    assert len(before & after) < len(before) / 2
    window.switch_language("en")
    assert visible_texts(window) == before


def test_session_round_trip(window, tmp_path):
    window.findChild(QCheckBox, "lockDModelCheck").setChecked(False)
    window.state.update_params(dk=100, heads=3, d_model=300, scores=(1.5, -2.0, 7.0), seed=99,
                        temperature=2.5, distribution="uniform", causal=True, samples=3000)
    window.lesson.index = 4
    path = tmp_path / "s.json"
    window.save_session(path)
    saved = window.model.params
    window.state.set_params(Params())
    window.lesson.index = 0
    window.load_session(path)
    settle(window)
    assert window.model.params == saved
    assert window.lesson.index == 4
    assert not window.findChild(QCheckBox, "lockDModelCheck").isChecked()
    assert window.findChild(QSpinBox, "dkSpin").value() == 100
    window.save_session(tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == json.loads(path.read_text())


@pytest.mark.parametrize("content, needle", [
    ("{not json", "not valid JSON"),
    ('{"format": "something-else", "version": 1}', "not an Attention Lab session"),
    ('{"format": "attention-lab-session", "version": 99, "params": {}}', "newer"),
    ('[1, 2, 3]', "not an Attention Lab session"),
    ('{"format": "attention-lab-session", "version": 1, "params": {"dk": 64}}', "lacks"),
    (b"\xff\xfe\x00garbage", "UTF-8"),
])
def test_corrupt_sessions_are_refused_without_change(window, tmp_path, content, needle):
    window.state.update_params(seed=5)
    settle(window)
    before = (window.model.params, window.lesson.index, window.findChild(QSpinBox, "dkSpin").value())
    path = tmp_path / "bad.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(SessionError, match=needle):
        window.load_session(path)
    assert (window.model.params, window.lesson.index, window.findChild(QSpinBox, "dkSpin").value()) == before


def test_session_with_invalid_values_is_refused(window, tmp_path):
    good = tmp_path / "good.json"
    window.save_session(good)
    data = json.loads(good.read_text())
    data["params"]["heads"] = 7          # does not divide d_model = 512
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(SessionError, match="divide"):
        window.load_session(bad)


def test_presentation_mode_and_ui_scale(window, english):
    label = window.findChild(QTextBrowser, "lessonText")
    size_before = QApplication.font().pointSizeF()
    panel_font = window.panels["softmaxPlot"].theme.font_pt
    window.lesson.go_to(0)
    window.menus.presentation_action.trigger()
    assert window.presentation and window.isFullScreen()
    shown = [name for name, panel in window.panels.items() if panel.isVisibleTo(window)]
    assert shown == ["variancePlot"]          # only the lesson step's panel, large
    assert not window.area.control_scroll.isVisible()
    assert window.panels["softmaxPlot"].theme.font_pt > panel_font
    assert window.panels["softmaxPlot"].theme.line_width > 2.0
    window.menus.presentation_action.trigger()
    assert not window.presentation and not window.isFullScreen()
    assert window.area.workspace() == "scaling"       # the step's workspace, all of it again
    assert all(window.panels[name].isVisibleTo(window) for name in SHARED_VIEWS["scaling"])
    window.zoom_in()
    window.zoom_in()
    assert window.ui_scale == 1.5
    assert QApplication.font().pointSizeF() == pytest.approx(size_before * 1.5)
    QApplication.processEvents()          # the font change reaches widgets as events
    assert label.font().pointSizeF() == pytest.approx(size_before * 1.5)
    for _ in range(20):
        window.zoom_in()
    assert window.ui_scale == 3.0
    window.zoom_reset()
    assert QApplication.font().pointSizeF() == pytest.approx(size_before)
    window.menus.dark_action.trigger()
    assert window.panels["costPlot"].theme.background == "#000000"
    window.menus.colour_safe_action.trigger()
    assert not window.panels["costPlot"].theme.colour_safe
    window.menus.light_action.trigger()
    window.menus.colour_safe_action.trigger()


def test_build_window_applies_options(qapp, tmp_path, sync_studies):
    import main

    session = tmp_path / "s.json"
    session.write_text(json.dumps({"format": "attention-lab-session", "version": 1,
                                   "params": Params(dk=32, heads=16, d_model=512).to_dict(),
                                   "lock_d_model": True, "lesson_step": 2}))
    win = main.build_window(["--lang", "ja", "--session", str(session)])
    try:
        assert win.model.params.dk == 32 and win.lesson.index == 2
        assert win.findChild(QPushButton, "lessonNext").text() != "Next ▶"
    finally:
        win.close()
        set_language("en")
    win = main.build_window(["--lang", "en", "--lesson", "6", "--presentation"])
    try:
        assert win.lesson.index == 5 and win.presentation
    finally:
        win.close()
    with pytest.raises(SessionError):
        main.build_window(["--session", str(tmp_path / "missing.json")])
