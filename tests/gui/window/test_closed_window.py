"""A closed window ignores the application's later language changes (its menus may already
be on their way out) and reports no error."""
from PySide6.QtWidgets import QApplication

from gui.common.guard import errors
from gui.common.i18n import current_language, set_language
from gui.window.main_window import MainWindow


def test_a_language_change_after_close_reports_nothing(qtbot):
    reported = []
    errors.reported.connect(reported.append)
    try:
        window = MainWindow()
        qtbot.addWidget(window)
        window.show()
        window.close()
        assert window.closed
        window.menus.file_menu.deleteLater()           # Qt deleting the menus of a closed window
        QApplication.processEvents()
        before = current_language()
        set_language("ja" if before == "en" else "en")
        QApplication.processEvents()
        set_language(before)
        QApplication.processEvents()
    finally:
        errors.reported.disconnect(reported.append)
    assert reported == []
