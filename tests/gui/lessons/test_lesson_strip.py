"""The lesson strip follows the text size both ways, and a saved layout never crushes the
plots."""
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication

from gui.window.main_window import MainWindow


def wait_layout(win, qtbot):
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(10)


def test_lesson_strip_shrinks_back_after_ctrl_0(window, qtbot):
    window.resize(1920, 1080)
    wait_layout(window, qtbot)
    normal = window.lesson_dock.height()
    font = QApplication.font()
    try:
        window.set_ui_scale(3.0)
        wait_layout(window, qtbot)
        big = window.lesson_dock.height()
        assert big > normal
        assert big <= 0.35 * window.height() + 5
        window.zoom_reset()
        wait_layout(window, qtbot)
        assert window.lesson_dock.height() <= normal + 10
    finally:
        window.zoom_reset()
        QApplication.setFont(font)


def test_a_saved_crushed_layout_is_not_brought_back(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1920, 1080)
    win.show()
    win.resizeDocks([win.lesson_dock], [900], Qt.Orientation.Vertical)   # plots crushed
    wait_layout(win, qtbot)
    win.close()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    assert again.model.wait_idle()
    wait_layout(again, qtbot)
    try:
        assert again.lesson_dock.height() <= 0.35 * again.height() + 5
        assert not again.area.compact or again.height() < 800
    finally:
        again.close()
        QSettings().remove("window")
