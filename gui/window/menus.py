"""The main window's menus and keyboard shortcuts: built once, retitled on a language change.

Every action is kept as an attribute of the window (`window.presentation_action`, …):
tests, the stress driver and the lesson reach them there. The slots they trigger are
the window's own methods.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QShortcut

from gui.common.i18n import LANGUAGES, current_language, tr
from gui.state.app_state import EXPORT_SCALES


def _action(window, menu, slot, shortcut=None, name=None) -> QAction:
    action = QAction(window)
    if name:
        action.setObjectName(name)
    if shortcut:
        action.setShortcut(shortcut)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def _checkable(window, menu, slot, shortcut=None, name=None, checked=False) -> QAction:
    action = QAction(window, objectName=name, checkable=True, checked=checked)
    if shortcut:
        action.setShortcut(shortcut)
    action.toggled.connect(slot)
    menu.addAction(action)
    return action


def _data_actions(window, menu, keys, slot, object_name, checkable=False) -> dict:
    """One action per key (its data), all triggering `slot`, which reads sender().data()."""
    actions = {}
    for key in keys:
        action = QAction(window, objectName=object_name.format(key=key), checkable=checkable)
        action.setData(key)
        action.triggered.connect(slot)
        menu.addAction(action)
        actions[key] = action
    return actions


def build_menus(w) -> None:
    """File, Edit, View and Help on the window `w`."""
    bar = w.menuBar()
    w.file_menu = bar.addMenu("")
    w.open_session_action = _action(w, w.file_menu, w.files.open_session_dialog,
                                    QKeySequence.StandardKey.Open, "openSessionAction")
    w.save_session_action = _action(w, w.file_menu, w.files.save_session_dialog,
                                    QKeySequence.StandardKey.Save, "saveSessionAction")
    w.open_model_action = _action(w, w.file_menu, w.files.open_model_folder_dialog, None,
                                  "openModelFolderAction")
    w.file_menu.addSeparator()
    w.export_window_action = _action(w, w.file_menu, w.files.export_window_dialog,
                                     QKeySequence("Ctrl+E"), "exportWindowAction")
    w.export_panel_menu = w.file_menu.addMenu("")
    w.export_panel_actions = _data_actions(w, w.export_panel_menu, w.files.exportable_names(),
                                           w.files._export_panel_triggered, "export_{key}")
    w.export_scale_menu = w.file_menu.addMenu("")
    w.export_scale_menu.setObjectName("exportScaleMenu")
    w.export_scale_actions = _data_actions(w, w.export_scale_menu, EXPORT_SCALES,
                                           w.files._on_export_scale, "exportScale{key}", checkable=True)
    group = QActionGroup(w)
    for scale, action in w.export_scale_actions.items():
        action.setText(f"{scale}×")
        group.addAction(action)
    w.file_menu.addSeparator()
    w.quit_action = _action(w, w.file_menu, w.close, QKeySequence.StandardKey.Quit)
    w.edit_menu = bar.addMenu("")
    w.copy_actions = _data_actions(w, w.edit_menu, w.files.exportable_names(), w.files._copy_panel_triggered,
                                   "copy_{key}")
    next(iter(w.copy_actions.values())).setShortcut(QKeySequence.StandardKey.Copy)
    _build_view_menu(w, bar)
    w.help_menu = bar.addMenu("")
    w.how_to_read_action = _action(w, w.help_menu, w.files.show_how_to_read, QKeySequence("F1"),
                                   "howToReadAction")
    w.shortcuts_action = _action(w, w.help_menu, w.files.show_shortcuts, None, "shortcutsAction")
    w.help_menu.addSeparator()
    w.about_action = _action(w, w.help_menu, w.files.show_about)


def _build_view_menu(w, bar) -> None:
    w.view_menu = menu = bar.addMenu("")
    w.presentation_action = _checkable(w, menu, w.set_presentation, QKeySequence("F5"),
                                       "presentationAction")
    w.controls_action = _checkable(w, menu, w.set_controls_visible, QKeySequence("F6"),
                                   "toggleControlsAction", True)
    w.lesson_action = _checkable(w, menu, w.set_lesson_visible, QKeySequence("F7"),
                                 "toggleLessonAction", True)
    menu.addSeparator()
    w.zoom_in_action = _action(w, menu, w.zoom_in, None, "zoomInAction")
    w.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
    w.zoom_out_action = _action(w, menu, w.zoom_out, QKeySequence("Ctrl+-"), "zoomOutAction")
    w.zoom_reset_action = _action(w, menu, w.zoom_reset, QKeySequence("Ctrl+0"), "zoomResetAction")
    menu.addSeparator()
    w.theme_menu = menu.addMenu("")
    group = QActionGroup(w)
    w.light_action = _checkable(w, w.theme_menu, w._on_light, None, "lightThemeAction", True)
    w.dark_action = _checkable(w, w.theme_menu, w._on_dark, None, "darkThemeAction")
    group.addAction(w.light_action)
    group.addAction(w.dark_action)
    w.colour_safe_action = _checkable(w, menu, w.set_colour_safe, None, "colourSafeAction", True)
    w.language_menu = menu.addMenu("")
    w.language_actions = _data_actions(w, w.language_menu, LANGUAGES, w._on_language_action,
                                       "language_{key}", checkable=True)
    languages = QActionGroup(w)
    for code, action in w.language_actions.items():
        action.setText(LANGUAGES[code])
        languages.addAction(action)
    w.language_actions[current_language()].setChecked(True)


def build_shortcuts(w) -> None:
    """Presentation clickers send PageDown/PageUp, arrows and B; Escape leaves."""
    pairs = ((Qt.Key.Key_PageDown, w.lesson.next), (Qt.Key.Key_Right, w.lesson.next),
             (Qt.Key.Key_PageUp, w.lesson.back), (Qt.Key.Key_Left, w.lesson.back),
             (Qt.Key.Key_B, w.toggle_blank), (Qt.Key.Key_Period, w.toggle_blank))
    w.lesson_shortcuts, w._lesson_slots = [], []
    for key, slot in pairs:
        w._lesson_slots.append(slot.__name__)
        shortcut = QShortcut(QKeySequence(key), w)
        shortcut.activated.connect(slot)
        w.lesson_shortcuts.append(shortcut)
    w.escape_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), w)
    w.escape_shortcut.activated.connect(w._on_escape)


def retranslate_menus(w, titles: dict[str, str]) -> None:
    """Every menu and action text, in the current language; `titles` by panel objectName."""
    w.file_menu.setTitle(tr("&File"))
    w.open_session_action.setText(tr("&Open session…"))
    w.save_session_action.setText(tr("&Save session…"))
    w.open_model_action.setText(tr("Open &model folder…"))
    w.export_window_action.setText(tr("Export &window…"))
    w.export_panel_menu.setTitle(tr("Export &panel"))
    w.export_scale_menu.setTitle(tr("PNG export and copy &size"))
    for name, action in w.export_panel_actions.items():
        action.setText(tr("{panel}…").format(panel=titles[name]))
    w.quit_action.setText(tr("&Quit"))
    w.edit_menu.setTitle(tr("&Edit"))
    for name, action in w.copy_actions.items():
        action.setText(tr("Copy {panel} image").format(panel=titles[name]))
    w.view_menu.setTitle(tr("&View"))
    w.presentation_action.setText(tr("&Presentation mode"))
    w.controls_action.setText(tr("Show &controls"))
    w.lesson_action.setText(tr("Show &lesson"))
    w.zoom_in_action.setText(tr("Larger text"))
    w.zoom_out_action.setText(tr("Smaller text"))
    w.zoom_reset_action.setText(tr("Normal text size"))
    w.theme_menu.setTitle(tr("&Theme"))
    w.light_action.setText(tr("High-contrast light"))
    w.dark_action.setText(tr("Dark"))
    w.colour_safe_action.setText(tr("Colour-blind-safe colours (Okabe–Ito)"))
    w.language_menu.setTitle(tr("&Language"))
    w.help_menu.setTitle(tr("&Help"))
    w.about_action.setText(tr("&About Attention Lab"))
    w.how_to_read_action.setText(tr("&How to read this window"))
    w.shortcuts_action.setText(tr("&Keyboard shortcuts"))
