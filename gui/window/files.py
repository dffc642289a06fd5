"""The main window's File, Edit and Help commands: sessions, export, copy, help pages.

`FileCommands` is a QObject whose Qt parent is the window: its slots are the File, Edit and
Help menus' (gui/window/menus.py), the window is the parent of its dialogs and the image
File → Export window takes, and everything else it uses is given to its constructor.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from gui.common import names
from gui.window.export import export_panel, export_window, panel_image
from gui.window.help import HelpDialog, about_text, how_to_read_html, shortcuts_html
from gui.common.i18n import tr
from gui.state import AppState, SessionError, read_session, write_session


class FileCommands(QObject):
    """Sessions, export, copy and help for the window `parent`:

    - `state`: the AppState sessions are written from and restored into (its view's
      export_scale sizes panel images);
    - `lesson`: the LessonStrip a loaded session stops and refreshes;
    - `panels`: the always-built panels by objectName;
    - `tab(key)`: the lazy tab `key`'s widget, built if it was not yet;
    - `titles()`: the panels' titles by objectName, in the current language;
    - `notify(text, ms)`: shows a status message for `ms` milliseconds;
    - `shortcut_rows()`: (keys, what they do) for Help → Keyboard shortcuts.

    None of these may refer to the window strongly (it owns this object).
    """

    def __init__(self, parent: QWidget, state: AppState, lesson, panels: dict,
                 tab: Callable[[str], QWidget], titles: Callable[[], dict[str, str]],
                 notify: Callable[[str, int], None],
                 shortcut_rows: Callable[[], list[tuple[str, str]]]):
        super().__init__(parent)
        self.setObjectName("fileCommands")
        self.state = state
        self.lesson = lesson
        self.panels = panels
        self.tab = tab
        self.titles = titles
        self.notify = notify
        self.shortcut_rows = shortcut_rows
        self.help_dialog: HelpDialog | None = None    # made when first asked for

    @property
    def window(self) -> QWidget:
        """The window: its Qt parent (an attribute would keep it alive in a reference cycle)."""
        return self.parent()

    @Slot()
    def open_model_folder_dialog(self) -> None:
        self.tab(names.MODEL_HEADS).open_model_folder_dialog()

    #: Plots in the tabs built when first shown, by the objectName File → Export uses.
    TAB_PLOTS = {names.HEADS_VIEW: names.HEADS_PANEL, names.HEAD_GRID: names.MODEL_HEADS,
                 names.HEAD_DETAIL: names.MODEL_HEADS, names.HEAD_COMPARE: names.MODEL_HEADS,
                 names.MODEL_PRUNE: names.MODEL_HEADS,
                 names.TRAIN_LOSS: names.TRAINING_PANEL, names.TRAIN_HEADS: names.TRAINING_PANEL,
                 names.TRAIN_VS_H: names.TRAINING_PANEL, names.TRAIN_ICL: names.TRAINING_PANEL,
                 names.TRAIN_PRUNE: names.TRAINING_PANEL}

    def exportable_names(self) -> list[str]:
        """Every panel File → Export and Edit → Copy offer, by objectName (builds nothing)."""
        return [*self.panels, *self.TAB_PLOTS]

    def exportable_panel(self, name: str):
        """The plot File → Export takes for `name`; its tab is built if it was not yet."""
        if name in self.panels:
            return self.panels[name]
        if self.TAB_PLOTS[name] == names.TRAINING_PANEL:
            return self.tab(names.TRAINING_PANEL).exportable()[name]
        if name == names.HEADS_VIEW:
            return self.tab(names.HEADS_PANEL).view
        tab = self.tab(names.MODEL_HEADS)
        return {names.HEAD_GRID: tab.grid, names.HEAD_DETAIL: tab.detail,
                names.HEAD_COMPARE: tab.compare, names.MODEL_PRUNE: tab.pruning_plot}[name]

    def exportable_panels(self) -> dict:
        """Every exportable plot by objectName (builds every tab: the export command)."""
        return {name: self.exportable_panel(name) for name in self.exportable_names()}

    # -- export ------------------------------------------------------------------
    def _ask_path(self, title: str, stem: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self.window, title, f"{stem}.png",
                                              tr("PNG image (*.png);;SVG drawing (*.svg)"))
        if not path:
            return None
        path = Path(path)
        return path if path.suffix.lower() in (".png", ".svg") else path.with_suffix(".png")

    def _report_export(self, write, path: Path) -> None:
        try:
            write(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self.window, tr("Export failed"), str(exc))
            return
        self.notify(tr("Saved {path}").format(path=path), 6000)

    @Slot()
    def export_window_dialog(self) -> None:
        path = self._ask_path(tr("Export window"), "attention-lab")
        if path:
            self._report_export(lambda p: export_window(self.window, p), path)

    @Slot()
    def export_panel_triggered(self) -> None:
        name = self.sender().data()
        path = self._ask_path(tr("Export panel"), name)
        if path:
            self._report_export(lambda p: export_panel(self.exportable_panel(name), p,
                                                       self.state.view.export_scale), path)

    @Slot()
    def on_export_scale(self) -> None:
        self.state.update_view(export_scale=self.sender().data())

    @Slot()
    def copy_panel_triggered(self) -> None:
        self.copy_panel(self.sender().data())

    def copy_panel(self, name: str) -> None:
        QGuiApplication.clipboard().setImage(panel_image(self.exportable_panel(name),
                                                         self.state.view.export_scale))
        self.notify(tr("Copied {panel} to the clipboard").format(panel=self.titles()[name]),
                    4000)

    def _show_help(self, title: str, html_text: str) -> None:
        if self.help_dialog is None:
            self.help_dialog = HelpDialog(self.window)
        self.help_dialog.show_page(title, html_text)

    @Slot()
    def show_shortcuts(self) -> None:
        self._show_help(tr("Keyboard shortcuts"), shortcuts_html(self.shortcut_rows()))

    @Slot()
    def show_how_to_read(self) -> None:
        self._show_help(tr("How to read this window"), how_to_read_html())

    @Slot()
    def show_about(self) -> None:
        QMessageBox.about(self.window, tr("About Attention Lab"), about_text())

    # -- sessions ----------------------------------------------------------------
    def save_session(self, path) -> None:
        """Write all of AppState to `path` (an OSError names the path that failed)."""
        write_session(self.state.snapshot(), path)

    def load_session(self, path) -> None:
        """Apply a session file; raises SessionError and changes nothing if it is unusable."""
        snapshot = read_session(path)
        self.lesson.stop()
        self.lesson.user_controls = None     # Reset and leaving the lesson keep the session's
        self.state.restore(snapshot)
        self.lesson.refresh_text()

    @Slot()
    def open_session_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, tr("Open session"), "",
                                              tr("Attention Lab session (*.json)"))
        if not path:
            return
        try:
            self.load_session(path)
        except SessionError as exc:
            QMessageBox.warning(self.window, tr("Cannot open session"),
                                tr("{file} was not opened: {reason}").format(file=Path(path).name,
                                                                            reason=exc))
            return
        self.notify(tr("Opened {path}").format(path=path), 6000)

    @Slot()
    def save_session_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, tr("Save session"), "session.json",
                                              tr("Attention Lab session (*.json)"))
        if not path:
            return
        try:
            self.save_session(path)
        except OSError as exc:
            QMessageBox.warning(self.window, tr("Cannot save session"), str(exc))
            return
        self.notify(tr("Saved {path}").format(path=path), 6000)
