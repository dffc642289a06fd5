"""The main window: controls on the left, the five live panels on the right."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings, Qt, Slot
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QFileDialog, QLabel, QMainWindow, QMessageBox, QScrollArea,
                               QSplitter)

from engine import Params, compute

from .controls import ControlPanel
from .export import export_panel, export_window, panel_image
from .model import SimulationModel
from .panels import create_panels


def tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


class MainWindow(QMainWindow):
    def __init__(self, params: Params | None = None, compute_fn=compute, parent=None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.model = SimulationModel(params, compute_fn, parent=self)
        self.controls = ControlPanel(self.model)
        self.panels = {p.objectName(): p for p in create_panels()}
        self._build_layout()
        self._build_menus()
        self.compute_label = QLabel(objectName="computeLabel")
        self.statusBar().addPermanentWidget(self.compute_label)
        self.model.results_ready.connect(self.show_results)
        self.model.compute_failed.connect(self.show_failure)
        self.controls.note.connect(self.show_note)
        self.retranslate()
        self.resize(1600, 1000)
        self._restore_settings()
        self.model.request()

    # -- construction ------------------------------------------------------------
    def _build_layout(self) -> None:
        scroll = QScrollArea(objectName="controlScroll")
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(300)
        p = self.panels
        top = QSplitter(Qt.Orientation.Horizontal)
        for name in ("softmaxPlot", "variancePlot", "saturationPlot"):
            top.addWidget(p[name])
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(p["multiheadView"])
        bottom.addWidget(p["costPlot"])
        bottom.setStretchFactor(0, 3)
        bottom.setStretchFactor(1, 2)
        right = QSplitter(Qt.Orientation.Vertical, objectName="panelSplitter")
        right.addWidget(top)
        right.addWidget(bottom)
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.main_splitter.addWidget(scroll)
        self.main_splitter.addWidget(right)
        self.main_splitter.setStretchFactor(1, 1)
        self.setCentralWidget(self.main_splitter)

    def _action(self, menu, slot, shortcut=None, name=None) -> QAction:
        action = QAction(self)
        if name:
            action.setObjectName(name)
        if shortcut:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.export_window_action = self._action(self.file_menu, self.export_window_dialog,
                                                 QKeySequence("Ctrl+E"), "exportWindowAction")
        self.export_panel_menu = self.file_menu.addMenu("")
        self.export_panel_actions = {}
        for name in self.panels:
            action = QAction(self, objectName=f"export_{name}")
            action.setData(name)
            action.triggered.connect(self._export_panel_triggered)
            self.export_panel_menu.addAction(action)
            self.export_panel_actions[name] = action
        self.file_menu.addSeparator()
        self.quit_action = self._action(self.file_menu, self.close, QKeySequence.StandardKey.Quit)
        self.edit_menu = bar.addMenu("")
        self.copy_actions = {}
        for i, name in enumerate(self.panels):
            action = QAction(self, objectName=f"copy_{name}")
            action.setData(name)
            if i == 0:
                action.setShortcut(QKeySequence.StandardKey.Copy)
            action.triggered.connect(self._copy_panel_triggered)
            self.edit_menu.addAction(action)
            self.copy_actions[name] = action
        self.help_menu = bar.addMenu("")
        self.about_action = self._action(self.help_menu, self.show_about)

    def panel_titles(self) -> dict[str, str]:
        return {"softmaxPlot": tr("Softmax"), "variancePlot": tr("Variance of q·k"),
                "saturationPlot": tr("Saturation vs d_k"), "multiheadView": tr("Multi-head"),
                "costPlot": tr("Cost")}

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Attention Lab"))
        self.file_menu.setTitle(tr("&File"))
        self.export_window_action.setText(tr("Export &window…"))
        self.export_panel_menu.setTitle(tr("Export &panel"))
        titles = self.panel_titles()
        for name, action in self.export_panel_actions.items():
            action.setText(tr("{panel}…").format(panel=titles[name]))
        self.quit_action.setText(tr("&Quit"))
        self.edit_menu.setTitle(tr("&Edit"))
        for name, action in self.copy_actions.items():
            action.setText(tr("Copy {panel} image").format(panel=titles[name]))
        self.help_menu.setTitle(tr("&Help"))
        self.about_action.setText(tr("&About Attention Lab"))
        for name, panel in self.panels.items():
            panel.setToolTip(titles[name])

    # -- results -----------------------------------------------------------------
    @Slot(object)
    def show_results(self, results) -> None:
        for panel in self.panels.values():
            panel.update_results(results)
        self.compute_label.setText(tr("computed in {ms:.1f} ms").format(
            ms=1000 * self.model.last_compute_seconds))

    @Slot(str)
    def show_failure(self, message: str) -> None:
        self.statusBar().showMessage(tr("Computation failed: {m}").format(m=message), 10000)

    @Slot(str)
    def show_note(self, message: str) -> None:
        self.statusBar().showMessage(message, 8000)

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
            self._report_export(lambda p: export_panel(self.panels[name], p), path)

    @Slot()
    def _copy_panel_triggered(self) -> None:
        self.copy_panel(self.sender().data())

    def copy_panel(self, name: str) -> None:
        QGuiApplication.clipboard().setImage(panel_image(self.panels[name]))
        self.statusBar().showMessage(tr("Copied {panel} to the clipboard")
                                     .format(panel=self.panel_titles()[name]), 4000)

    @Slot()
    def show_about(self) -> None:
        QMessageBox.about(self, tr("About Attention Lab"), tr(
            "Attention Lab shows why attention divides scores by √d_k and how multi-head "
            "attention splits d_model into h heads. Every number is computed live."))

    # -- settings and shutdown ---------------------------------------------------
    def _restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = settings.value("window/state")
        if state is not None:
            self.restoreState(state)

    def closeEvent(self, event) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        self.model.shutdown()
        super().closeEvent(event)
