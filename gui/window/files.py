"""The main window's File, Edit and Help commands: sessions, export, copy, help pages.

`WindowFiles` is a mixin of MainWindow (listed before QMainWindow): its methods use the
window's state, panels, lazy tabs and status bar, and are the slots of the menus built
in gui/window/menus.py.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from gui.common import names
from gui.window.export import export_panel, export_window, panel_image
from gui.window.help import HelpDialog, how_to_read_html, shortcut_rows, shortcuts_html
from gui.common.i18n import tr
from gui.state import SessionError, read_session, write_session


class WindowFiles:
    """Sessions, export, copy and help for MainWindow (see the module docstring)."""

    @Slot()
    def open_model_folder_dialog(self) -> None:
        self.model_heads.open_model_folder_dialog()

    #: Plots in the tabs built when first shown, by the objectName File → Export uses.
    TAB_PLOTS = {names.HEADS_VIEW: names.HEADS_PANEL, names.HEAD_GRID: names.MODEL_HEADS,
                 names.HEAD_DETAIL: names.MODEL_HEADS, names.HEAD_COMPARE: names.MODEL_HEADS,
                 names.TRAIN_LOSS: names.TRAINING_PANEL, names.TRAIN_HEADS: names.TRAINING_PANEL,
                 names.TRAIN_VS_H: names.TRAINING_PANEL}

    def exportable_names(self) -> list[str]:
        """Every panel File → Export and Edit → Copy offer, by objectName (builds nothing)."""
        return [*self.panels, *self.TAB_PLOTS]

    def exportable_panel(self, name: str):
        """The plot File → Export takes for `name`; its tab is built if it was not yet."""
        if name in self.panels:
            return self.panels[name]
        if self.TAB_PLOTS[name] == names.TRAINING_PANEL:
            return self.training_panel.exportable()[name]
        if name == names.HEADS_VIEW:
            return self.heads_panel.view
        tab = self.model_heads
        return {names.HEAD_GRID: tab.grid, names.HEAD_DETAIL: tab.detail,
                names.HEAD_COMPARE: tab.compare}[name]

    def exportable_panels(self) -> dict:
        """Every exportable plot by objectName (builds every tab: the export command)."""
        return {name: self.exportable_panel(name) for name in self.exportable_names()}

    # -- export ------------------------------------------------------------------
    def _ask_path(self, title: str, stem: str) -> Path | None:
        path, _ = QFileDialog.getSaveFileName(self, title, f"{stem}.png",
                                              tr("PNG image (*.png);;SVG drawing (*.svg)"))
        if not path:
            return None
        path = Path(path)
        return path if path.suffix.lower() in (".png", ".svg") else path.with_suffix(".png")

    def _report_export(self, write, path: Path) -> None:
        try:
            write(path)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, tr("Export failed"), str(exc))
            return
        self.statusBar().showMessage(tr("Saved {path}").format(path=path), 6000)

    @Slot()
    def export_window_dialog(self) -> None:
        path = self._ask_path(tr("Export window"), "attention-lab")
        if path:
            self._report_export(lambda p: export_window(self, p), path)

    @Slot()
    def _export_panel_triggered(self) -> None:
        name = self.sender().data()
        path = self._ask_path(tr("Export panel"), name)
        if path:
            self._report_export(lambda p: export_panel(self.exportable_panel(name), p,
                                                       self.state.view.export_scale), path)

    @Slot()
    def _on_export_scale(self) -> None:
        self.state.update_view(export_scale=self.sender().data())

    @Slot()
    def _copy_panel_triggered(self) -> None:
        self.copy_panel(self.sender().data())

    def copy_panel(self, name: str) -> None:
        QGuiApplication.clipboard().setImage(panel_image(self.exportable_panel(name),
                                                         self.state.view.export_scale))
        self.statusBar().showMessage(tr("Copied {panel} to the clipboard")
                                     .format(panel=self.panel_titles()[name]), 4000)

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) for every action and shortcut the window has, read from them."""
        return shortcut_rows(self.findChildren(QAction), self.lesson_shortcuts,
                             self._lesson_slots)

    def _show_help(self, title: str, html_text: str) -> None:
        if self.help_dialog is None:
            self.help_dialog = HelpDialog(self)
        self.help_dialog.show_page(title, html_text)

    @Slot()
    def show_shortcuts(self) -> None:
        self._show_help(tr("Keyboard shortcuts"), shortcuts_html(self.shortcut_rows()))

    @Slot()
    def show_how_to_read(self) -> None:
        self._show_help(tr("How to read this window"), how_to_read_html())

    @Slot()
    def show_about(self) -> None:
        QMessageBox.about(self, tr("About Attention Lab"), tr(
            "Attention Lab shows why attention divides scores by √d_k and how multi-head "
            "attention splits d_model into h heads. Every number is computed live."))

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
        path, _ = QFileDialog.getOpenFileName(self, tr("Open session"), "",
                                              tr("Attention Lab session (*.json)"))
        if not path:
            return
        try:
            self.load_session(path)
        except SessionError as exc:
            QMessageBox.warning(self, tr("Cannot open session"),
                                tr("{file} was not opened: {reason}").format(file=Path(path).name,
                                                                            reason=exc))
            return
        self.statusBar().showMessage(tr("Opened {path}").format(path=path), 6000)

    @Slot()
    def save_session_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Save session"), "session.json",
                                              tr("Attention Lab session (*.json)"))
        if not path:
            return
        try:
            self.save_session(path)
        except OSError as exc:
            QMessageBox.warning(self, tr("Cannot save session"), str(exc))
            return
        self.statusBar().showMessage(tr("Saved {path}").format(path=path), 6000)
