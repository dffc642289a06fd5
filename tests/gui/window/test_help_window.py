"""Help → Keyboard shortcuts lists what the window really binds; How to read explains it.
The tests share one window; each closes the help it opened and puts the view back."""
import pytest
from PySide6.QtWidgets import QTextBrowser

from tab_fixtures import fresh_view, module_window  # noqa: F401 (fixtures)


@pytest.fixture
def window(fresh_view):
    """The module's window; after the test its help closed and its shortcut list as built."""
    shortcuts = fresh_view.menus.presentation_action.shortcuts()
    yield fresh_view
    fresh_view.menus.presentation_action.setShortcuts(shortcuts)
    if fresh_view.files.help_dialog is not None:
        fresh_view.files.help_dialog.close()


def test_shortcuts_are_read_from_the_actions(window):
    rows = dict((text, keys) for keys, text in window.shortcut_rows())
    assert rows["Presentation mode"] == "F5, F11"
    assert "Ctrl+=" in rows["Larger text"]
    assert rows["Next lesson step"] in ("PgDown", "PageDown")
    assert rows["Previous lesson step"] in ("PgUp", "PageUp")
    assert rows["Next lesson step, unless a slider, box or text field has the focus"] == "Right"
    assert rows["Blank the screen"] == "B, ."
    assert rows["Leave presentation or blank"] == "Esc"
    window.menus.shortcuts_action.trigger()
    text = window.findChild(QTextBrowser, "helpText").toPlainText()
    assert "F5" in text and "Presentation mode" in text
    window.menus.presentation_action.setShortcut("F9")            # the list follows the bindings
    assert dict((t, k) for k, t in window.shortcut_rows())["Presentation mode"] == "F9"


def test_how_to_read_explains_the_four_lengths(window):
    window.menus.how_to_read_action.trigger()
    assert window.files.help_dialog.isVisible()
    text = window.findChild(QTextBrowser, "helpText").toPlainText()
    assert "keys n" in text and "sequence length" in text and "tokens" in text
    window.switch_language("ja")
    try:
        window.menus.how_to_read_action.trigger()
        assert window.findChild(QTextBrowser, "helpText").toPlainText() != text
    finally:
        window.switch_language("en")


def test_how_to_read_names_every_bottom_tab(window):
    window.menus.how_to_read_action.trigger()
    text = window.findChild(QTextBrowser, "helpText").toPlainText()
    tabs = [window.workspace_tabs.tabText(i).replace("&", "") for i in range(window.workspace_tabs.count())]
    assert len(tabs) >= 3
    for title in tabs:
        assert f"{title}:" in text or f"{title} (bottom tab):" in text, title


def test_help_grows_with_the_text_size(window, qtbot):
    window.menus.how_to_read_action.trigger()
    small = window.files.help_dialog.size()
    window.set_ui_scale(2.0)            # while the dialog is open: it follows
    try:
        qtbot.waitUntil(lambda: window.files.help_dialog.size() != small, timeout=3000)
        large = window.files.help_dialog.size()
        room = window.files.help_dialog.screen().availableGeometry()
        assert large.width() > small.width() or large.width() >= room.width() - 40
        assert large.height() > small.height() or large.height() >= room.height() - 80
        assert large.width() <= max(room.width(), 320) and large.height() <= max(room.height(), 240)
    finally:
        window.set_ui_scale(1.0)
