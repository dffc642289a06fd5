"""A saved session brings back everything the user set: the sentence, theme, text size,
language and lesson step, through File → Open session and through --session. The tests that
change one part of the state share one window."""
import json

import pytest
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLineEdit, QPushButton

from gui.app import build_window
from gui.common.i18n import current_language, set_language
from gui.window.main_window import MainWindow
from gui.state import read_session
from gui_helpers import settle, view_in_front
from tab_fixtures import dispose, module_window  # noqa: F401 (a fixture)


def change_everything(win):
    win.head_roles_tab.findChild(QLineEdit, "sentenceEdit").setText("Mary gave John a book.")
    win.menus.dark_action.trigger()
    win.zoom_in()
    win.zoom_in()
    win.lesson.go_to(4)
    win.switch_language("ja")
    settle(win)
    assert win.head_roles_tab.wait_idle()


def assert_restored(win):
    assert win.head_roles_tab.findChild(QLineEdit, "sentenceEdit").text() == "Mary gave John a book."
    assert win.head_roles_tab.view.tokens[0].text == "Mary"
    assert win.dark and win.menus.dark_action.isChecked()
    assert win.ui_scale == 1.5
    assert current_language() == "ja" and win.menus.language_actions["ja"].isChecked()
    assert win.findChild(QPushButton, "lessonNext").text() != "Next ▶"
    assert win.lesson.index == 4 and "5 /" in win.lesson.step_label.text()


@pytest.fixture(scope="module")
def class_session(module_window, tmp_path_factory):
    """A session saved after changing everything in the module's window, which then gets its
    state back: the file and the window's params when it was saved."""
    window = module_window
    before = window.state.snapshot()
    change_everything(window)
    path = tmp_path_factory.mktemp("session") / "class.json"
    window.save_session(path)
    params = window.model.params
    window.state.restore(before)
    settle(window)
    assert current_language() == "en" and not window.dark
    return path, params


def test_file_open_session_restores_everything(class_session, monkeypatch):
    path, params = class_session
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["view"] == {"theme": "dark", "text_scale": 1.5, "presentation": False,
                             "colour_safe": True, "language": "ja", "export_scale": 1}
    assert saved["heads_input"]["sentence"] == "Mary gave John a book."
    font = QApplication.font()
    fresh = MainWindow()
    try:
        fresh.show()
        assert fresh.model.wait_idle()
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
        fresh.menus.open_session_action.trigger()
        settle(fresh)
        assert fresh.head_roles_tab.wait_idle()
        assert_restored(fresh)
        assert fresh.model.params == params
        assert read_session(path) == fresh.state.snapshot()
    finally:
        dispose(fresh)
        set_language("en")
        QApplication.setFont(font)


def test_command_line_session_restores_everything(class_session):
    path, _params = class_session
    font = QApplication.font()
    win = build_window(["--session", str(path)])
    try:
        win.show()
        settle(win)
        assert win.head_roles_tab.wait_idle()
        assert_restored(win)
    finally:
        dispose(win)
        set_language("en")
        QApplication.setFont(font)


def test_a_bad_session_changes_nothing(module_window, tmp_path, monkeypatch):
    window = module_window
    from PySide6.QtWidgets import QMessageBox

    before = window.state.snapshot()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "attention-lab-session", "version": 2, "params": {"dk": 64, '
                   '"heads": 8, "d_model": 512}, "view": {"theme": "neon"}}', encoding="utf-8")
    warnings = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warnings.append(a[2]))
    window.menus.open_session_action.trigger()
    assert warnings and "neon" in warnings[0]
    assert window.state.snapshot() == before


def test_token_mode_choice_is_part_of_the_session(module_window, tmp_path):
    window = module_window
    combo = window.head_roles_tab.findChild(QComboBox, "tokenModeCombo")
    combo.setCurrentIndex(combo.findData("ja_words"))
    path = tmp_path / "s.json"
    window.save_session(path)
    assert read_session(path).heads_input.token_mode == "ja_words"
    assert read_session(path).heads_input.sentence == "猫がマットに座った。それは暖かかった。"


def choose_precision(win, bits):
    combo = win.findChild(QComboBox, "kvPrecisionCombo")
    combo.setCurrentIndex(combo.findData(bits))
    combo.activated.emit(combo.currentIndex())


def test_kv_precision_is_state_and_part_of_the_session(module_window, tmp_path):
    """The combo sends an intent; AppState.cost renders it (combo and text); a session keeps it;
    a version 2 file (before the precision was state) opens at 16 bits."""
    window = module_window
    cost = view_in_front(window, "costPlot", idle=True)            # its workspace in front: drawn
    combo = window.findChild(QComboBox, "kvPrecisionCombo")
    assert window.state.cost.kv_bits == 16 and combo.currentData() == 16
    choose_precision(window, 4)
    assert window.state.cost.kv_bits == 4
    assert "KV cache, 4-bit" in cost.memory_text.text
    path = tmp_path / "s.json"
    window.save_session(path)
    assert json.loads(path.read_text(encoding="utf-8"))["cost"] == {"kv_bits": 4}
    window.state.update_cost(kv_bits=32)              # state → widget, no widget reads back
    assert combo.currentData() == 32 and "KV cache, 32-bit" in cost.memory_text.text
    window.load_session(path)
    settle(window)
    assert combo.currentData() == 4 and "KV cache, 4-bit" in cost.memory_text.text
    old = json.loads(path.read_text(encoding="utf-8"))
    old["version"] = 2
    del old["cost"]
    path.write_text(json.dumps(old), encoding="utf-8")
    window.load_session(path)
    settle(window)
    assert window.state.cost.kv_bits == 16 and combo.currentData() == 16
    assert "KV cache, 16-bit" in cost.memory_text.text
