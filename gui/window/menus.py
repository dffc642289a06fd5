"""The main window's menus and keyboard shortcuts: built once, retitled on a language change.

`WindowMenus` builds them on the window and holds every action and shortcut it built
(`window.menus.presentation_action`, …): tests, the stress driver and the lesson reach
them there. The File, Edit and Help actions trigger FileCommands' slots, the View actions
the window's own, and the theme and language actions update the AppState.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from gui.common.i18n import LANGUAGES, current_language, tr
from gui.state import AppState
from gui.state.app_state import EXPORT_SCALES
from gui.window.files import FileCommands
from gui.window.layout import WORKSPACES
from gui.window.lesson_keys import LessonKeys


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


class WindowMenus(QObject):
    """File, Edit, View and Help in `window`'s menu bar, and the presentation keys.

    The actions and shortcuts are the window's children (so Qt finds them when the window
    has focus); this object, also the window's child, holds them by name and keeps no
    reference to the window. `window` gives the View slots (set_presentation,
    set_controls_visible, set_lesson_visible, zoom_in, zoom_out, zoom_reset,
    set_colour_safe), toggle_blank, on_escape and close; `files` the File, Edit and Help
    slots; `lesson` the lesson steps' next and back; `state` takes the theme and language.
    """

    def __init__(self, window: QMainWindow, state: AppState, files: FileCommands, lesson):
        super().__init__(window)
        self.setObjectName("windowMenus")
        self.state = state
        self._build_menus(window, files)
        self._build_lesson_menu(window, lesson)
        self._build_shortcuts(window, lesson)

    def _build_menus(self, w: QMainWindow, files: FileCommands) -> None:
        bar = w.menuBar()
        self.file_menu = bar.addMenu("")
        self.open_session_action = _action(w, self.file_menu, files.open_session_dialog,
                                           QKeySequence.StandardKey.Open, "openSessionAction")
        self.save_session_action = _action(w, self.file_menu, files.save_session_dialog,
                                           QKeySequence.StandardKey.Save, "saveSessionAction")
        self.open_model_action = _action(w, self.file_menu, files.open_model_folder_dialog, None,
                                         "openModelFolderAction")
        self.file_menu.addSeparator()
        self.export_window_action = _action(w, self.file_menu, files.export_window_dialog,
                                            QKeySequence("Ctrl+E"), "exportWindowAction")
        self.export_panel_menu = self.file_menu.addMenu("")
        self.export_panel_actions = _data_actions(w, self.export_panel_menu,
                                                  files.exportable_names(),
                                                  files.export_panel_triggered, "export_{key}")
        self.export_scale_menu = self.file_menu.addMenu("")
        self.export_scale_menu.setObjectName("exportScaleMenu")
        self.export_scale_actions = _data_actions(w, self.export_scale_menu, EXPORT_SCALES,
                                                  files.on_export_scale, "exportScale{key}",
                                                  checkable=True)
        group = QActionGroup(w)
        for scale, action in self.export_scale_actions.items():
            action.setText(f"{scale}×")
            group.addAction(action)
        self.file_menu.addSeparator()
        self.quit_action = _action(w, self.file_menu, w.close, QKeySequence.StandardKey.Quit)
        self.edit_menu = bar.addMenu("")
        self.copy_actions = _data_actions(w, self.edit_menu, files.exportable_names(),
                                          files.copy_panel_triggered, "copy_{key}")
        next(iter(self.copy_actions.values())).setShortcut(QKeySequence.StandardKey.Copy)
        self._build_view_menu(w, bar)
        self.help_menu = bar.addMenu("")
        self.how_to_read_action = _action(w, self.help_menu, files.show_how_to_read,
                                          QKeySequence("F1"), "howToReadAction")
        self.shortcuts_action = _action(w, self.help_menu, files.show_shortcuts, None,
                                        "shortcutsAction")
        self.help_menu.addSeparator()
        self.about_action = _action(w, self.help_menu, files.show_about)

    def _build_view_menu(self, w: QMainWindow, bar) -> None:
        self.view_menu = menu = bar.addMenu("")
        self.presentation_action = _checkable(w, menu, w.set_presentation, None,
                                              "presentationAction")
        self.presentation_action.setShortcuts([QKeySequence("F5"), QKeySequence("F11")])
        self.controls_action = _checkable(w, menu, w.set_controls_visible, QKeySequence("F6"),
                                          "toggleControlsAction", True)
        self.lesson_action = _checkable(w, menu, w.set_lesson_visible, QKeySequence("F7"),
                                        "toggleLessonAction", True)
        menu.addSeparator()
        self.workspace_actions = _data_actions(w, menu, WORKSPACES, self._on_workspace_action,
                                               "workspace_{key}Action")
        for number, action in enumerate(self.workspace_actions.values(), 1):
            action.setShortcut(QKeySequence(f"Ctrl+{number}"))
        menu.addSeparator()
        self.zoom_in_action = _action(w, menu, w.zoom_in, None, "zoomInAction")
        self.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.zoom_out_action = _action(w, menu, w.zoom_out, QKeySequence("Ctrl+-"),
                                       "zoomOutAction")
        self.zoom_reset_action = _action(w, menu, w.zoom_reset, QKeySequence("Ctrl+0"),
                                         "zoomResetAction")
        menu.addSeparator()
        self.theme_menu = menu.addMenu("")
        group = QActionGroup(w)
        self.light_action = _checkable(w, self.theme_menu, self._on_light, None,
                                       "lightThemeAction", True)
        self.dark_action = _checkable(w, self.theme_menu, self._on_dark, None, "darkThemeAction")
        group.addAction(self.light_action)
        group.addAction(self.dark_action)
        self.colour_safe_action = _checkable(w, menu, w.set_colour_safe, None, "colourSafeAction",
                                             True)
        self.language_menu = menu.addMenu("")
        self.language_actions = _data_actions(w, self.language_menu, LANGUAGES,
                                              self._on_language_action, "language_{key}",
                                              checkable=True)
        languages = QActionGroup(w)
        for code, action in self.language_actions.items():
            action.setText(LANGUAGES[code])
            languages.addAction(action)
        self.language_actions[current_language()].setChecked(True)

    def _build_lesson_menu(self, w: QMainWindow, lesson) -> None:
        """Lesson → Start (step 1, the strip shown) and Leave (the strip hidden: the
        student's own controls come back); before Help."""
        self.lesson_menu = QMenu(w)
        w.menuBar().insertMenu(self.help_menu.menuAction(), self.lesson_menu)
        self._lesson = lesson
        self.lesson_start_action = _action(w, self.lesson_menu, self._start_lesson, None,
                                           "lessonStartAction")
        self.lesson_leave_action = _action(w, self.lesson_menu, self._leave_lesson, None,
                                           "lessonLeaveAction")

    @Slot()
    def _start_lesson(self) -> None:
        self.lesson_action.setChecked(True)
        self._lesson.go_to(0)

    @Slot()
    def _leave_lesson(self) -> None:
        self.lesson_action.setChecked(False)

    def _build_shortcuts(self, w: QMainWindow, lesson) -> None:
        """The lesson's keys (gui/window/lesson_keys.py): PageDown/PageUp, the arrows, B and
        Esc; `lesson_shortcuts` and `lesson_slots` are what Help lists."""
        self.lesson_keys = LessonKeys(
            w, lesson, presenting=self._presenting_without_controls,
            lesson_shown=self.lesson_action.isChecked)
        self.lesson_shortcuts = self.lesson_keys.shortcuts
        self.lesson_slots = self.lesson_keys.slots
        self.escape_shortcut = self.lesson_keys.escape_shortcut
        for action in (self.lesson_action, self.controls_action, self.presentation_action):
            action.toggled.connect(self.lesson_keys.update)
        # The menu bar is hidden in presentation mode, and a hidden menu's shortcuts do
        # nothing in Qt: the window holds every action as well.
        w.addActions([a for a in w.findChildren(QAction) if not a.menu()])

    def _presenting_without_controls(self) -> bool:
        return self.presentation_action.isChecked() and not self.controls_action.isChecked()

    @Slot(bool)
    def _on_light(self, on: bool) -> None:
        if on:
            self.state.update_view(theme="light")

    @Slot(bool)
    def _on_dark(self, on: bool) -> None:
        if on:
            self.state.update_view(theme="dark")

    @Slot()
    def _on_workspace_action(self) -> None:
        self.parent().area.show_workspace(self.sender().data())

    @Slot()
    def _on_language_action(self) -> None:
        self.state.update_view(language=self.sender().data())

    def retranslate(self, titles: dict[str, str]) -> None:
        """Every menu and action text, in the current language; `titles` by panel objectName."""
        self.file_menu.setTitle(tr("&File"))
        self.open_session_action.setText(tr("&Open session…"))
        self.save_session_action.setText(tr("&Save session…"))
        self.open_model_action.setText(tr("Open &model folder…"))
        self.export_window_action.setText(tr("Export &window…"))
        self.export_panel_menu.setTitle(tr("Export &panel"))
        self.export_scale_menu.setTitle(tr("PNG export and copy &size"))
        for name, action in self.export_panel_actions.items():
            action.setText(tr("{panel}…").format(panel=titles[name]))
        self.quit_action.setText(tr("&Quit"))
        self.edit_menu.setTitle(tr("&Edit"))
        for name, action in self.copy_actions.items():
            action.setText(tr("Copy {panel} image").format(panel=titles[name]))
        self.view_menu.setTitle(tr("&View"))
        self.presentation_action.setText(tr("&Presentation mode"))
        self.controls_action.setText(tr("Show &controls"))
        self.lesson_action.setText(tr("Show &lesson"))
        for ws, text in zip(WORKSPACES, (tr("Scaling"), tr("Multi-head"), tr("Training lab"),
                                         tr("Real heads"))):
            self.workspace_actions[ws].setText(text)
        self.zoom_in_action.setText(tr("Larger text"))
        self.zoom_out_action.setText(tr("Smaller text"))
        self.zoom_reset_action.setText(tr("Normal text size"))
        self.theme_menu.setTitle(tr("&Theme"))
        self.light_action.setText(tr("High-contrast light"))
        self.dark_action.setText(tr("Dark"))
        self.colour_safe_action.setText(tr("Colour-blind-safe colours (Okabe–Ito)"))
        self.language_menu.setTitle(tr("&Language"))
        self.lesson_menu.setTitle(tr("Lesso&n"))
        self.lesson_start_action.setText(tr("&Start the lesson"))
        self.lesson_leave_action.setText(tr("&Leave the lesson"))
        self.help_menu.setTitle(tr("&Help"))
        self.about_action.setText(tr("&About Attention Lab"))
        self.how_to_read_action.setText(tr("&How to read this window"))
        self.shortcuts_action.setText(tr("&Keyboard shortcuts"))
