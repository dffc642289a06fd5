"""Text size is scaled from the application's own font size, never from the size an earlier
window left: a session saved at 150 % reopens at 150 %, in a new window as in the same one."""
import pytest
from PySide6.QtWidgets import QApplication

from gui.window.main_window import MainWindow


def open_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.model.wait_idle()
    return window


def test_a_session_at_150_percent_reopens_at_150_percent(qtbot, tmp_path):
    base = QApplication.font().pointSizeF()
    first = open_window(qtbot)
    first.set_ui_scale(1.5)
    assert QApplication.font().pointSizeF() == pytest.approx(1.5 * base)
    path = tmp_path / "s.json"
    first.save_session(path)
    first.close()
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    second = open_window(qtbot)
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    second.load_session(path)
    QApplication.processEvents()
    assert QApplication.font().pointSizeF() == pytest.approx(1.5 * base)
    assert second.lesson.title_label.font().pointSizeF() == pytest.approx(1.5 * base)
    second.close()
