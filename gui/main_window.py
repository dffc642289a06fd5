"""The main window: controls on the left, the five live panels on the right."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Slot
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence, QShortcut
from superqt.utils import signals_blocked
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QLabel, QMainWindow,
                               QMessageBox, QScrollArea, QSplitter, QTabBar, QTabWidget,
                               QVBoxLayout, QWidget)

from engine import Params, compute

from .guard import errors, guard_call, guarded
from .help_window import HelpDialog, how_to_read_html, shortcut_rows, shortcuts_html
from . import panel_names as names
from .controls import ControlPanel
from .export import export_panel, export_window, panel_image
from .i18n import LANGUAGES, current_language, set_language, tr
from .lazy_tabs import LazyTabs
from .lesson_panel import LessonPanel
from .lessons import STEPS
from .model import SimulationModel
from .panel_names import TOP_ROW
from .qt_util import forget_combo_size_hints
from .panels import create_panels
from .panels.base import settle_scenes
from .panels.heads_view import HeadsPanel, compute_heads, follow_language
from .training_tab import TrainingPanel
from .requests import StudyCycle
from .state import AppState, SessionError, Snapshot, read_session, write_session
from .state.app_state import EXPORT_SCALES, snap_text_scale
from .style import make_theme

#: The panels that live in the bottom tabs (presentation mode shows the tab widget for them).
TAB_PANELS = (names.MULTIHEAD, names.HEADS_PANEL, names.TRAINING_PANEL, names.MODEL_HEADS)

# Below this height of the window's central area (1366×768 and 1280×720 with the lesson
# shown), two rows of panels leave each plot too short to read: one row is shown at a time.
COMPACT_BELOW_PX = 620
#: The smallest panel (width, height) whose texts fit at 100 % text; it grows with the text.
READABLE_PANEL_PX = (285, 290)
#: The pages of the one-panel-at-a-time layout, in tab order (the bottom tabs are one page).
SINGLE_PAGES = (*TOP_ROW, names.MULTIHEAD, names.COST)
GRID, ROWS, SINGLE = "grid", "rows", "single"


def choose_layout(width: float, height: float, text_scale: float) -> str:
    """The richest panel layout whose panels stay readable in a `width` × `height` panel
    area at `text_scale`: both rows of three (GRID), one row at a time (ROWS), or one
    panel at a time (SINGLE, what a projector at 200–300 % text gets)."""
    need_w, need_h = (px * text_scale for px in READABLE_PANEL_PX)
    if width < 3 * need_w:
        return SINGLE
    if height < max(COMPACT_BELOW_PX, 2 * need_h):
        return ROWS
    return GRID


def _default_view(language: str):
    from .state import ViewSettings

    return ViewSettings(language=language if language in LANGUAGES else "en")


class MainWindow(QMainWindow):
    """The window renders one AppState. Menus, shortcuts and widgets send intents to it;
    its events re-render the widgets and request the studies (simulation, head roles)."""

    def __init__(self, params: Params | None = None, compute_fn=compute, parent=None,
                 state: AppState | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        if state is None:
            # First run: live scores on, so dragging d_k moves the softmax bars (issue 11).
            state = AppState(Snapshot(params=params or Params(live_scores=True),
                                      view=_default_view(current_language())))
        self.state = state
        self.model = SimulationModel(state, compute_fn, parent=self)
        # The first Results are computed on the worker while the window is built (a change
        # of the state on the way sends a newer request, and this one is dropped).
        self.model.request()
        self.heads_study = StudyCycle("heads", compute_heads, self)
        # The newest hand-built heads and "roles" run, for a Real heads tab built later.
        self._hand_heads = self._roles_run = None
        self.heads_study.result_ready.connect(self._keep_hand_heads)
        self.controls = ControlPanel(self.model)
        self.panels = {p.objectName(): p for p in create_panels()}
        self.panels[names.COST].bind_state(state)   # the KV precision lives in AppState.cost
        self.lesson = LessonPanel(self.model)
        self.compact = False                   # one row or one panel at a time
        self.layout_mode = GRID
        self.highlighted: str | None = None     # the panel the lesson step frames
        self._controls_before = True           # controls shown before presentation mode
        self._shown_view = None
        self._base_font_pt = QApplication.font().pointSizeF()
        self._build_layout()
        self._build_menus()
        self._build_lesson_dock()
        self._build_shortcuts()
        self.compute_label = QLabel(objectName="computeLabel")
        self.statusBar().addPermanentWidget(self.compute_label)
        # The compute time is shown at most 4 times a second: redrawing the status bar
        # after every result of a drag costs more than the number is worth.
        self._compute_label_timer = QTimer(self, singleShot=True, interval=250)
        self._compute_label_timer.timeout.connect(self._show_compute_time)
        self.model.results_ready.connect(self.show_results)
        self._connect_background_work()
        self.model.compute_failed.connect(self.show_failure)
        self.controls.note.connect(self.show_note)
        errors.reported.connect(self.show_error)
        self.retranslate()
        self.resize(1600, 1000)
        self._restore_settings()
        state.events.view.connect(self._on_view)
        self._on_view(state.view)

    # -- the view part of the state ------------------------------------------------
    @property
    def ui_scale(self) -> float:
        return self.state.view.text_scale

    @property
    def presentation(self) -> bool:
        return self.state.view.presentation

    @property
    def dark(self) -> bool:
        return self.state.view.dark

    @property
    def colour_safe(self) -> bool:
        return self.state.view.colour_safe

    # -- the tabs built when first shown (gui/lazy_tabs.py) ------------------------------
    @property
    def heads_panel(self) -> HeadsPanel:
        return self.lazy_tabs.widget(names.HEADS_PANEL)

    @property
    def model_heads(self):
        """The Real heads tab (gui.model_heads_tab.ModelHeadsTab)."""
        return self.lazy_tabs.widget(names.MODEL_HEADS)

    @property
    def training_panel(self) -> TrainingPanel:
        return self.lazy_tabs.widget(names.TRAINING_PANEL)

    def built_tab(self, name: str):
        """The tab's widget if it has been built, else None (never builds it)."""
        return self.lazy_tabs.page(name) if self.lazy_tabs.is_built(name) else None

    @property
    def studies(self) -> tuple:
        """Every worker the window runs (shut down on close): the simulation, the head
        roles, and those of the Real heads and Training tabs once they are built."""
        studies = (self.model.cycle, self.heads_study)
        model_heads, training = self.built_tab(names.MODEL_HEADS), self.built_tab(names.TRAINING_PANEL)
        if model_heads is not None:
            studies += (model_heads.study, model_heads.fetcher)
        if training is not None:
            studies += (training.runner,)
        return studies

    def _make_heads_panel(self) -> HeadsPanel:
        panel = HeadsPanel(self.state, self.heads_study)
        self.lesson.heads_view = panel.view
        panel.view.changed.connect(self.lesson.refresh_text)
        guard_call("head roles theme", panel.view.apply_theme, self.current_theme())
        return panel

    def _make_model_heads(self):
        from .model_heads_tab import ModelHeadsTab

        self.heads_panel            # the head-roles study it drives gives the hand-built heads
        tab = ModelHeadsTab(self.state)
        tab.set_hand_heads(self._hand_heads)
        if self._roles_run is not None:
            tab.set_trained_heads(self._roles_run)
        # A finished training run's learned heads and the head-roles study's hand-built
        # heads go beside the pretrained grid.
        self.heads_study.result_ready.connect(tab.set_hand_heads)
        training = self.built_tab(names.TRAINING_PANEL)
        if training is not None:
            training.runner.result_ready.connect(tab.set_trained_heads)
        tab.study.result_ready.connect(self.lesson.refresh_text)
        tab.fetcher.finished.connect(self.lesson.refresh_text)
        return tab

    def _make_training_panel(self) -> TrainingPanel:
        panel = TrainingPanel(self.state, self)
        runner, lesson = panel.runner, self.lesson
        runner.result_ready.connect(self._keep_roles_run)
        model_heads = self.built_tab(names.MODEL_HEADS)
        if model_heads is not None:
            runner.result_ready.connect(model_heads.set_trained_heads)
        runner.result_ready.connect(lesson.on_training_result)
        for ended in (runner.failed, runner.crashed, runner.stopped):
            ended.connect(lesson.training_ended)
        return panel

    @Slot(object)
    def _keep_hand_heads(self, result) -> None:
        self._hand_heads = result

    @Slot(object)
    def _keep_roles_run(self, result) -> None:
        if getattr(result, "experiment", "") == "roles":
            self._roles_run = result

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

    # -- construction ------------------------------------------------------------
    def _build_layout(self) -> None:
        scroll = self.control_scroll = QScrollArea(objectName="controlScroll")
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(300)
        p = self.panels
        top = self.top_splitter = QSplitter(Qt.Orientation.Horizontal)
        for name in TOP_ROW:
            top.addWidget(p[name])
        bottom = self.bottom_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.bottom_tabs = QTabWidget(objectName="bottomTabs")
        self.bottom_tabs.addTab(p[names.MULTIHEAD], "")
        self.lazy_tabs = LazyTabs(self.bottom_tabs)
        self.lazy_tabs.add(names.HEADS_PANEL, self._make_heads_panel)
        self.lazy_tabs.add(names.MODEL_HEADS, self._make_model_heads)
        self.lazy_tabs.add(names.TRAINING_PANEL, self._make_training_panel)
        bottom.addWidget(self.bottom_tabs)
        bottom.addWidget(p[names.COST])
        bottom.setStretchFactor(0, 3)
        bottom.setStretchFactor(1, 2)
        right = self.panel_splitter = QSplitter(Qt.Orientation.Vertical, objectName="panelSplitter")
        right.addWidget(top)
        right.addWidget(bottom)
        right.setStretchFactor(0, 1)      # a taller window: both rows grow (the head maps too)
        right.setStretchFactor(1, 1)
        # In a short window the two rows become tabs (see _update_compact).
        self.row_tabs = QTabBar(objectName="panelRowTabs")
        self.row_tabs.addTab("")
        self.row_tabs.addTab("")
        self.row_tabs.setVisible(False)
        self.row_tabs.currentChanged.connect(self._on_row_tab)
        # At large text in a small window, one panel at a time (see choose_layout).
        self.panel_tabs = QTabBar(objectName="panelTabs")
        for _ in SINGLE_PAGES:
            self.panel_tabs.addTab("")
        self.panel_tabs.setVisible(False)
        self.panel_tabs.setUsesScrollButtons(True)    # five tabs at 300 % outgrow 1280 px
        self.panel_tabs.currentChanged.connect(self._on_panel_tab)
        area = self.panel_area = QWidget(objectName="panelArea")
        column = QVBoxLayout(area)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.row_tabs)
        column.addWidget(self.panel_tabs)
        # Below the size whose texts fit (one panel at large text in a small window), the
        # panels scroll instead of being squeezed.
        self.panel_scroll = QScrollArea(objectName="panelScroll")
        self.panel_scroll.setWidget(right)
        self.panel_scroll.setWidgetResizable(True)
        self.panel_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        column.addWidget(self.panel_scroll, 1)
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.main_splitter.addWidget(scroll)
        self.main_splitter.addWidget(area)
        # A resize re-picks the layout and refits the lesson strip after the resize has been
        # handled, not inside it: hiding panels and changing minimum sizes while Qt's
        # main-window layout is placing its docks crashed it (random-use stress run).
        self._relayout_timer = QTimer(self, singleShot=True, interval=0)
        self._relayout_timer.timeout.connect(self._relayout)
        self.main_splitter.installEventFilter(self)
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
        self.open_session_action = self._action(self.file_menu, self.open_session_dialog,
                                                QKeySequence.StandardKey.Open, "openSessionAction")
        self.save_session_action = self._action(self.file_menu, self.save_session_dialog,
                                                QKeySequence.StandardKey.Save, "saveSessionAction")
        self.open_model_action = self._action(self.file_menu,
                                              self.open_model_folder_dialog, None,
                                              "openModelFolderAction")
        self.file_menu.addSeparator()
        self.export_window_action = self._action(self.file_menu, self.export_window_dialog,
                                                 QKeySequence("Ctrl+E"), "exportWindowAction")
        self.export_panel_menu = self.file_menu.addMenu("")
        self.export_panel_actions = {}
        for name in self.exportable_names():
            action = QAction(self, objectName=f"export_{name}")
            action.setData(name)
            action.triggered.connect(self._export_panel_triggered)
            self.export_panel_menu.addAction(action)
            self.export_panel_actions[name] = action
        self.export_scale_menu = self.file_menu.addMenu("")
        self.export_scale_menu.setObjectName("exportScaleMenu")
        group = QActionGroup(self)
        self.export_scale_actions = {}
        for scale in EXPORT_SCALES:
            action = QAction(f"{scale}×", self, objectName=f"exportScale{scale}", checkable=True)
            action.setData(scale)
            action.triggered.connect(self._on_export_scale)
            group.addAction(action)
            self.export_scale_menu.addAction(action)
            self.export_scale_actions[scale] = action
        self.file_menu.addSeparator()
        self.quit_action = self._action(self.file_menu, self.close, QKeySequence.StandardKey.Quit)
        self.edit_menu = bar.addMenu("")
        self.copy_actions = {}
        for i, name in enumerate(self.exportable_names()):
            action = QAction(self, objectName=f"copy_{name}")
            action.setData(name)
            if i == 0:
                action.setShortcut(QKeySequence.StandardKey.Copy)
            action.triggered.connect(self._copy_panel_triggered)
            self.edit_menu.addAction(action)
            self.copy_actions[name] = action
        self._build_view_menu(bar)
        self.help_menu = bar.addMenu("")
        self.how_to_read_action = self._action(self.help_menu, self.show_how_to_read,
                                               QKeySequence("F1"), "howToReadAction")
        self.shortcuts_action = self._action(self.help_menu, self.show_shortcuts, None,
                                             "shortcutsAction")
        self.help_menu.addSeparator()
        self.about_action = self._action(self.help_menu, self.show_about)
        self.help_dialog = None

    def _checkable(self, menu, slot, shortcut=None, name=None, checked=False) -> QAction:
        action = QAction(self, objectName=name, checkable=True, checked=checked)
        if shortcut:
            action.setShortcut(shortcut)
        action.toggled.connect(slot)
        menu.addAction(action)
        return action

    def _build_view_menu(self, bar) -> None:
        self.view_menu = bar.addMenu("")
        self.presentation_action = self._checkable(self.view_menu, self.set_presentation,
                                                   QKeySequence("F5"), "presentationAction")
        self.controls_action = self._checkable(self.view_menu, self.set_controls_visible,
                                               QKeySequence("F6"), "toggleControlsAction", True)
        self.lesson_action = self._checkable(self.view_menu, self.set_lesson_visible,
                                             QKeySequence("F7"), "toggleLessonAction", True)
        self.view_menu.addSeparator()
        self.zoom_in_action = self._action(self.view_menu, self.zoom_in, None, "zoomInAction")
        self.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.zoom_out_action = self._action(self.view_menu, self.zoom_out, QKeySequence("Ctrl+-"),
                                            "zoomOutAction")
        self.zoom_reset_action = self._action(self.view_menu, self.zoom_reset, QKeySequence("Ctrl+0"),
                                              "zoomResetAction")
        self.view_menu.addSeparator()
        self.theme_menu = self.view_menu.addMenu("")
        group = QActionGroup(self)
        self.light_action = self._checkable(self.theme_menu, self._on_light, None, "lightThemeAction", True)
        self.dark_action = self._checkable(self.theme_menu, self._on_dark, None, "darkThemeAction")
        group.addAction(self.light_action)
        group.addAction(self.dark_action)
        self.colour_safe_action = self._checkable(self.view_menu, self.set_colour_safe, None,
                                                  "colourSafeAction", True)
        self.language_menu = self.view_menu.addMenu("")
        languages = QActionGroup(self)
        self.language_actions = {}
        for code, name in LANGUAGES.items():
            action = QAction(name, self, objectName=f"language_{code}", checkable=True)
            action.setData(code)
            action.triggered.connect(self._on_language_action)
            languages.addAction(action)
            self.language_menu.addAction(action)
            self.language_actions[code] = action
        self.language_actions[current_language()].setChecked(True)

    def _build_lesson_dock(self) -> None:
        self.lesson_dock = QDockWidget(objectName="lessonDock")
        # In a scroll area: at 300 % text the step's title and buttons are wider than a
        # 1280-px screen, and the window must still fit it.
        lesson_scroll = self.lesson_scroll = QScrollArea(objectName="lessonScroll")
        lesson_scroll.setWidget(self.lesson)
        lesson_scroll.setWidgetResizable(True)
        lesson_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.lesson_dock.setWidget(lesson_scroll)
        self.lesson_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable |
                                     QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        from .lesson_dock_title import LessonDockTitle   # a one-line bar, not Qt's 43 px at 300 %
        self.lesson_dock.setTitleBarWidget(LessonDockTitle(self.lesson_dock))
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.lesson_dock)
        self.resizeDocks([self.lesson_dock], [140], Qt.Orientation.Vertical)
        self.lesson.highlight.connect(self.highlight_panel)
        self.lesson.lock_requested.connect(self.set_lock)
        self.blank = QWidget(self, objectName="blankScreen")
        self.blank.setStyleSheet("background: black;")
        self.blank.hide()
        self._connect_lesson()

    # -- the background work's hook (branch background): it yields to the simulation ----------
    def _connect_background_work(self) -> None:
        """Training snapshots and the head-roles and Real heads results wait while a d_k/h
        change is asked, computed, shown and painted; the Real heads forward process starts
        when that tab is first opened (gui/background_work.py). Called after show_results is
        connected, so a hold starts once a result is shown."""
        from .background_work import BackgroundWork

        self.background_work = BackgroundWork(self)

    # -- the lesson's hook (branch lessons): its context, Train, tabs, leaving, Reset --------
    def _connect_lesson(self) -> None:
        """The lesson reads a LessonContext built here, starts its runs in the Training tab,
        frames the Training / Real heads tabs, and puts the user's controls back when the
        strip is closed (F7) or on Edit → Reset (Ctrl+R)."""
        from engine.models.fetch import cached_model

        from .lesson_context import LessonContext

        lesson = self.lesson
        tabs = (names.TRAINING_PANEL, names.MODEL_HEADS)

        def context() -> LessonContext:
            training, real = self.built_tab(names.TRAINING_PANEL), self.built_tab(names.MODEL_HEADS)
            running = training is not None and training.runner.is_running()
            return LessonContext(
                results=self.model.results,
                head_roles=lesson.heads_view.newest_results if lesson.heads_view else None,
                training=lesson.training_results,
                running=self.state.training.experiment if running else None,
                real_heads=real.result if real is not None else None,
                minilm_ready=cached_model() is not None)

        def frame_tab(name: str) -> None:
            self.bottom_tabs.setStyleSheet("" if name not in tabs else
                                           f"QTabWidget#bottomTabs::pane {{ border: 5px solid "
                                           f"{self.current_theme().scaled}; }}")
            if name not in tabs:
                return
            self.bottom_tabs.setCurrentWidget(self.lazy_tabs.page(name))
            self.row_tabs.setCurrentIndex(1)
            self._apply_focus()

        def train(experiment: str, options) -> None:
            training = self.training_panel
            if training.start(experiment, options):
                lesson.training_started(experiment)
            self.bottom_tabs.setCurrentWidget(training)
            self.row_tabs.setCurrentIndex(1)

        lesson.context_source = context
        lesson.train_requested.connect(train)
        lesson.highlight.connect(frame_tab)
        self.lesson_action.toggled.connect(lesson.on_strip_shown)
        # after the text's layout pass, never inside it (see LessonPanel._fit_text)
        lesson.height_wanted.connect(self.fit_lesson_dock, Qt.ConnectionType.QueuedConnection)
        lesson.strip_max_share = self.LESSON_MAX_SHARE
        self.edit_menu.addSeparator()
        self.edit_menu.addAction(lesson.reset_action)

    def _build_shortcuts(self) -> None:
        """Presentation clickers send PageDown/PageUp, arrows and B."""
        pairs = ((Qt.Key.Key_PageDown, self.lesson.next), (Qt.Key.Key_Right, self.lesson.next),
                 (Qt.Key.Key_PageUp, self.lesson.back), (Qt.Key.Key_Left, self.lesson.back),
                 (Qt.Key.Key_B, self.toggle_blank), (Qt.Key.Key_Period, self.toggle_blank))
        self.lesson_shortcuts, self._lesson_slots = [], []
        for key, slot in pairs:
            self._lesson_slots.append(slot.__name__)
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.activated.connect(slot)
            self.lesson_shortcuts.append(shortcut)
        self.escape_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self.escape_shortcut.activated.connect(self._on_escape)

    def panel_titles(self) -> dict[str, str]:
        return {names.SOFTMAX: tr("Softmax"), names.VARIANCE: tr("Variance of q·k"),
                names.SATURATION: tr("Saturation vs d_k"), names.MULTIHEAD: tr("Multi-head"),
                names.COST: tr("Cost"), names.HEADS_PANEL: tr("Head roles"),
                names.HEADS_VIEW: tr("Head roles"), names.MODEL_HEADS: tr("Real heads"),
                names.HEAD_GRID: tr("Real heads: grid"), names.HEAD_DETAIL: tr("Real heads: head"),
                names.HEAD_COMPARE: tr("Real heads: learned and hand-built"),
                **TrainingPanel.titles()}

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Attention Lab"))
        self.statusBar().clearMessage()       # a message in the old language would stay
        if self.model.results is not None:
            self._show_compute_time()
        self.file_menu.setTitle(tr("&File"))
        self.export_window_action.setText(tr("Export &window…"))
        self.export_panel_menu.setTitle(tr("Export &panel"))
        self.export_scale_menu.setTitle(tr("PNG export and copy &size"))
        titles = self.panel_titles()
        for name, action in self.export_panel_actions.items():
            action.setText(tr("{panel}…").format(panel=titles[name]))
        self.quit_action.setText(tr("&Quit"))
        self.edit_menu.setTitle(tr("&Edit"))
        for name, action in self.copy_actions.items():
            action.setText(tr("Copy {panel} image").format(panel=titles[name]))
        self.open_session_action.setText(tr("&Open session…"))
        self.save_session_action.setText(tr("&Save session…"))
        self.view_menu.setTitle(tr("&View"))
        self.presentation_action.setText(tr("&Presentation mode"))
        self.controls_action.setText(tr("Show &controls"))
        self.lesson_action.setText(tr("Show &lesson"))
        self.zoom_in_action.setText(tr("Larger text"))
        self.zoom_out_action.setText(tr("Smaller text"))
        self.zoom_reset_action.setText(tr("Normal text size"))
        self.theme_menu.setTitle(tr("&Theme"))
        self.light_action.setText(tr("High-contrast light"))
        self.dark_action.setText(tr("Dark"))
        self.colour_safe_action.setText(tr("Colour-blind-safe colours (Okabe–Ito)"))
        self.language_menu.setTitle(tr("&Language"))
        self.row_tabs.setTabText(0, tr("Softmax · q·k · saturation"))
        self.row_tabs.setTabText(1, tr("Multi-head · cost"))
        self.row_tabs.setToolTip(tr("A small window shows one row of panels at a time"))
        page_titles = dict(titles, **{names.VARIANCE: tr("q·k variance")})
        for i, name in enumerate(SINGLE_PAGES):
            self.panel_tabs.setTabText(i, page_titles[name])
        self.panel_tabs.setToolTip(tr("At this text size one panel is shown at a time"))
        self.bottom_tabs.setTabText(0, titles[names.MULTIHEAD])
        for name, text in ((names.HEADS_PANEL, titles[names.HEADS_PANEL]),
                           (names.MODEL_HEADS, titles[names.MODEL_HEADS]),
                           (names.TRAINING_PANEL, tr("Training"))):
            self.bottom_tabs.setTabText(self.bottom_tabs.indexOf(self.lazy_tabs.page(name)), text)
        self.open_model_action.setText(tr("Open &model folder…"))
        self.lesson_dock.setWindowTitle(tr("Lesson"))
        self.help_menu.setTitle(tr("&Help"))
        self.about_action.setText(tr("&About Attention Lab"))
        self.how_to_read_action.setText(tr("&How to read this window"))
        self.shortcuts_action.setText(tr("&Keyboard shortcuts"))
        for name, panel in self.panels.items():
            panel.setToolTip(titles[name])
        self._fit_controls_width()

    #: The controls never take more than this share of the window's width.
    CONTROLS_MAX_SHARE = 0.4

    @Slot()
    def _fit_controls_width(self) -> None:
        """Labels differ in length between languages and text sizes; never hide a control
        behind a horizontal scroll bar."""
        forget_combo_size_hints(self.controls)
        scrollbar = self.control_scroll.verticalScrollBar().sizeHint().width()
        needed = self.controls.minimumSizeHint().width() + scrollbar + 4
        # ... unless that would leave the panels less than CONTROLS_MAX_SHARE of the window
        # (300 % text on a 1280-px screen): then the controls scroll sideways.
        self.control_scroll.setMinimumWidth(min(needed, int(self.width() * self.CONTROLS_MAX_SHARE)))
        self._update_compact()

    # -- results -----------------------------------------------------------------
    @Slot(object)
    def show_results(self, results) -> None:
        shown = [panel for panel in self.panels.values() if panel.offer_results(results)]
        settle_scenes(shown)
        if not self._compute_label_timer.isActive():
            self._compute_label_timer.start()

    @Slot()
    def _show_compute_time(self) -> None:
        label = self.compute_label
        label.setText(tr("computed in {ms:.1f} ms").format(ms=1000 * self.model.last_compute_seconds))
        width = label.sizeHint().width()  # grow, never shrink: no re-layout for a shorter number
        if width > label.minimumWidth():
            label.setMinimumWidth(width)

    @Slot(str)
    def show_failure(self, message: str) -> None:
        self.statusBar().showMessage(tr("Computation failed: {m}").format(m=message), 10000)

    @Slot(str)
    def show_error(self, message: str) -> None:
        """A caught exception (gui.guard), once, in the status bar; the traceback is logged."""
        self.statusBar().showMessage(tr("Something went wrong (logged): {m}").format(m=message),
                                     15000)

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

    # -- lesson, highlight, blank -------------------------------------------------
    @Slot(str)
    def highlight_panel(self, name: str) -> None:
        """Frame the panel a lesson step is about (and bring its tab to the front)."""
        targets = dict(self.panels)
        if name == names.HEADS_PANEL or self.lazy_tabs.is_built(names.HEADS_PANEL):
            targets[names.HEADS_PANEL] = self.heads_panel
        for key, widget in targets.items():
            widget.setStyleSheet("" if key != name else
                                 f"#{key} {{ border: 5px solid {self.current_theme().scaled}; }}")
        if name in (names.MULTIHEAD, names.HEADS_PANEL):
            self.bottom_tabs.setCurrentWidget(targets[name])
        self.highlighted = name
        if name in targets:
            page = name if name in SINGLE_PAGES else names.MULTIHEAD
            with signals_blocked(self.panel_tabs):
                self.panel_tabs.setCurrentIndex(SINGLE_PAGES.index(page))
            self.row_tabs.setCurrentIndex(0 if name in TOP_ROW else 1)  # shown if compact
        self._apply_focus()

    def _apply_focus(self) -> None:
        """In presentation mode only the lesson step's panel is shown, as large as the screen
        allows; five panels at once are unreadable from the back of a room at 1280×720.
        In a compact window one row of panels is shown, picked by the row tabs; at large
        text in a small window one panel, picked by the panel tabs."""
        name = self.highlighted if self.presentation else None
        single = name is None and self.layout_mode == SINGLE
        if single:
            name = SINGLE_PAGES[self.panel_tabs.currentIndex()]
        self.panel_tabs.setVisible(single)
        row = self.row_tabs.currentIndex() if self.compact and name is None else None
        self.row_tabs.setVisible(row is not None)
        if name is not None:
            show_top, show_bottom = name in TOP_ROW, name not in TOP_ROW
        else:
            show_top, show_bottom = row in (None, 0), row in (None, 1)
        self.top_splitter.setVisible(show_top)
        self.bottom_splitter.setVisible(show_bottom)
        for key in TOP_ROW:
            self.panels[key].setVisible(name is None or key == name)
        self.bottom_tabs.setVisible(name is None or name in TAB_PANELS)
        self.panels[names.COST].setVisible(name is None or name == names.COST)

    @Slot(bool)
    def set_lock(self, locked: bool) -> None:
        self.state.set_lock_d_model(locked)

    @Slot()
    def toggle_blank(self) -> None:
        self.blank.setGeometry(self.rect())
        self.blank.setVisible(not self.blank.isVisible())
        self.blank.raise_()

    @Slot()
    def _on_escape(self) -> None:
        if self.blank.isVisible():
            self.blank.hide()
        elif self.presentation:
            self.presentation_action.setChecked(False)

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.blank.setGeometry(self.rect())
        if event.size().width() != event.oldSize().width():
            self._fit_controls_width()

    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt naming)
        if watched is self.main_splitter and event.type() == QEvent.Type.Resize:
            self._relayout_timer.start()
        return super().eventFilter(watched, event)

    @Slot()
    def _relayout(self) -> None:
        self._update_compact()
        self.fit_lesson_dock()          # its share of the new height

    def _update_compact(self, height: int | None = None) -> None:
        """The layout (choose_layout) for the central area's size and the text size."""
        size = self.main_splitter.size()
        height = size.height() if height is None else height
        controls = self.control_scroll.minimumWidth() if self.control_scroll.isVisibleTo(self) else 0
        boost = 1.25 if self.presentation else 1.0
        mode = choose_layout(size.width() - controls, height, self.ui_scale * boost)
        need_w, need_h = (px * self.ui_scale * boost for px in READABLE_PANEL_PX)
        # The panels' own minimum heights (their texts) decide how far the area scrolls.
        minimum = (int(need_w * 0.85), 0) if mode == SINGLE else (0, 0)
        self.panel_scroll.widget().setMinimumSize(*minimum)
        if mode != self.layout_mode:
            self.layout_mode = mode
            self.compact = mode != GRID
            self.top_splitter.setSizes([1000] * len(TOP_ROW))   # equal columns again
            page = SINGLE_PAGES[self.panel_tabs.currentIndex()]
            if mode == SINGLE and (page in TOP_ROW) != (self.row_tabs.currentIndex() == 0):
                with signals_blocked(self.panel_tabs):    # the row shown stays in front
                    self.panel_tabs.setCurrentIndex(0 if self.row_tabs.currentIndex() == 0
                                                    else len(TOP_ROW))
            self.panel_splitter.setSizes([1000, 1000])          # and equal rows
            self._apply_focus()

    @Slot(int)
    def _on_row_tab(self, index: int) -> None:
        page = SINGLE_PAGES[self.panel_tabs.currentIndex()]
        if self.layout_mode == SINGLE and (page in TOP_ROW) != (index == 0):   # another row:
            with signals_blocked(self.panel_tabs):                             # its first panel
                self.panel_tabs.setCurrentIndex(0 if index == 0 else len(TOP_ROW))
        self._apply_focus()

    @Slot(int)
    def _on_panel_tab(self, index: int) -> None:
        with signals_blocked(self.row_tabs):
            self.row_tabs.setCurrentIndex(0 if SINGLE_PAGES[index] in TOP_ROW else 1)
        self._apply_focus()

    # -- view: presentation, scale, theme, language ---------------------------------
    def current_theme(self):
        return make_theme(self.dark, self.presentation, self.ui_scale, self.colour_safe)

    def apply_view(self) -> None:
        """Push scale, theme and palette to the widgets and every plot."""
        theme = self.current_theme()
        app = QApplication.instance()
        font = app.font()
        boost = 1.25 if self.presentation else 1.0
        font.setPointSizeF(self._base_font_pt * self.ui_scale * boost)
        app.setFont(font)
        heads = self.built_tab(names.HEADS_PANEL)
        for panel in list(self.panels.values()) + ([heads.view] if heads is not None else []):
            guard_call(f"{panel.objectName()} theme", panel.apply_theme, theme)
        from .theme_palette import apply_widget_palette

        apply_widget_palette(app, self.dark)
        # Measure once the font change has reached the widgets (it arrives as events); a
        # nested processEvents() here could re-enter slots in the middle of this one.
        QTimer.singleShot(0, self._fit_controls_width)
        self._relayout_timer.start()
        if self.highlighted:
            self.highlight_panel(self.highlighted)

    def _on_view(self, view) -> None:
        """Render AppState.view: language, presentation, then fonts and colours."""
        shown, self._shown_view = self._shown_view, view
        if view.language != current_language():
            set_language(view.language)
            follow_language(self.state, view.language)
        action = self.language_actions.get(view.language)
        if action is not None and not action.isChecked():
            action.setChecked(True)
        self.export_scale_actions[view.export_scale].setChecked(True)
        for action, on in ((self.presentation_action, view.presentation),
                           (self.dark_action, view.dark), (self.light_action, not view.dark),
                           (self.colour_safe_action, view.colour_safe)):
            if action.isChecked() != on:
                with signals_blocked(action):
                    action.setChecked(on)
        if shown is None or shown.presentation != view.presentation:
            self._show_presentation(view.presentation, first=shown is None)
        if shown is None or (shown.theme, shown.text_scale, shown.presentation,
                             shown.colour_safe) != (view.theme, view.text_scale,
                                                    view.presentation, view.colour_safe):
            self.apply_view()
            self._update_compact()
            self._apply_focus()

    def _show_presentation(self, on: bool, first: bool = False) -> None:
        if on:
            self._controls_before = self.controls_action.isChecked()
            self.controls_action.setChecked(False)
            self.showFullScreen()
        elif not first:
            self.controls_action.setChecked(self._controls_before)
            self.showNormal()

    @Slot(bool)
    def set_presentation(self, on: bool) -> None:
        self.state.update_view(presentation=bool(on))

    @Slot(bool)
    def set_controls_visible(self, on: bool) -> None:
        self.control_scroll.setVisible(on)
        self._update_compact()

    @Slot(bool)
    def set_lesson_visible(self, on: bool) -> None:
        self.lesson_dock.setVisible(on)

    def set_ui_scale(self, scale: float) -> None:
        self.state.update_view(text_scale=snap_text_scale(scale))
        self.statusBar().showMessage(tr("Text size {p} %").format(p=round(self.ui_scale * 100)), 3000)

    @Slot()
    def zoom_in(self) -> None:
        self.set_ui_scale(self.ui_scale + 0.25)

    @Slot()
    def zoom_out(self) -> None:
        self.set_ui_scale(self.ui_scale - 0.25)

    @Slot()
    def zoom_reset(self) -> None:
        self.set_ui_scale(1.0)

    @Slot(bool)
    def _on_light(self, on: bool) -> None:
        if on:
            self.state.update_view(theme="light")

    @Slot(bool)
    def _on_dark(self, on: bool) -> None:
        if on:
            self.state.update_view(theme="dark")

    @Slot(bool)
    def set_colour_safe(self, on: bool) -> None:
        self.state.update_view(colour_safe=bool(on))

    @Slot()
    def _on_language_action(self) -> None:
        self.switch_language(self.sender().data())

    def switch_language(self, lang: str) -> None:
        self.state.update_view(language=lang)

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if current_language() != self.state.view.language:   # set_language called directly
                self.state.update_view(language=current_language())
        super().changeEvent(event)

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

    # -- settings and shutdown ---------------------------------------------------
    def _restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        self.fit_lesson_dock()
        QTimer.singleShot(0, self.fit_lesson_dock)    # again once shown: the dock's real height

    #: The lesson strip never takes more than this share of the window's height.
    LESSON_MAX_SHARE = 0.35

    @Slot()
    def fit_lesson_dock(self) -> None:
        """Give the lesson strip the height its text needs at the current text size, and
        never more than LESSON_MAX_SHARE of the window: a strip grown at 300 % shrinks
        back after Ctrl+0, and a saved layout never brings back crushed plots."""
        if self.lesson_dock.isFloating() or not self.lesson_dock.isVisible() and self.isVisible():
            return
        needed = self.lesson.minimumSizeHint().height() + 8
        limit = int(self.height() * self.LESSON_MAX_SHARE)
        height = max(60, min(needed, limit))
        dock = self.lesson_dock
        # The height is given by resizeDocks alone, and beyond it the strip scrolls. A
        # minimum height on the strip reaches the window's own minimum size, and changing
        # it while the window went full screen crashed Qt (random-use stress run); so did
        # resizing a dock that was not on screen.
        if not (self.isVisible() and dock.isVisible()) or \
                self.dockWidgetArea(dock) == Qt.DockWidgetArea.NoDockWidgetArea:
            return
        title = max(0, dock.height() - self.lesson_scroll.height())
        if abs(self.lesson_scroll.height() - height) > 4:  # grown past its text, or short of it
            self.resizeDocks([dock], [height + title], Qt.Orientation.Vertical)

    @guarded
    def closeEvent(self, event) -> None:
        try:
            if self.help_dialog is not None:
                self.help_dialog.close()
            self.lesson.stop()
            if self.presentation:   # else the next start would open full screen
                self.set_presentation(False)
            settings = QSettings()
            settings.setValue("window/geometry", self.saveGeometry())
            settings.setValue("window/state", self.saveState())
        finally:                    # the workers stop whatever failed above
            guard_call("background work", self.background_work.window_closing)
            for study in self.studies:
                study.shutdown()
            errors.reported.disconnect(self.show_error)
        super().closeEvent(event)
