"""The main window: controls on the left, the five live panels on the right."""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtCore import QEvent, QSettings, Qt, QTimer, Slot
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QScrollArea, QWidget

from engine import Params, compute

from gui.common.guard import errors, guard_call, guarded, listener
from gui.common import names
from gui.controls.sidebar import Sidebar
from gui.common.i18n import LANGUAGES, current_language, set_language, tr
from gui.lessons.strip import LessonStrip
from gui.lessons.strip_fit import PRESENTING_STRIP_SHARE
from gui.common.qt_lifetime import delete_qt_side, prepare as prepare_qt_lifetime, weak_method
from gui.common.process_reaper import end_resource_tracker
from gui.common.qt_util import end_pooled_threads, forget_combo_size_hints, signals_blocked
from gui.panels import create_panels
from gui.headroles.tab import HeadRolesTab, follow_language

from gui.training.titles import training_titles

if TYPE_CHECKING:
    from gui.training.tab import TrainingTab
from gui.state import AppState, StateSnapshot
from gui.state.app_state import snap_text_scale
from gui.common.style import make_theme
from gui.window.controller import LabController
from gui.window.files import FileCommands
from gui.window.help import shortcut_rows
# The layout's names stay importable from here (tests and helpers use them).
from gui.window.layout import (GRID, SHARED_VIEWS, SINGLE, WORKSPACES,  # noqa: F401
                               WorkspaceArea, choose_layout)
from gui.window.menus import WindowMenus
from gui.window.screen_fit import fill_screen, first_geometry, kept_on_screen


def _default_view(language: str):
    from gui.state import ViewSettings

    return ViewSettings(language=language if language in LANGUAGES else "en")


#: The application's font size before any window scaled it (a QApplication property, so it
#: is read once per process however many windows open and close).
BASE_FONT_PROPERTY = "attentionLabBaseFontPt"
#: How long a closing window waits for the tasks of Qt's thread pools to end.
CLOSE_POOL_WAIT_MS = 2000


def base_font_pt() -> float:
    """The application's unscaled font size; every window scales from this, never from the
    font a previous window left."""
    app = QApplication.instance()
    value = app.property(BASE_FONT_PROPERTY)
    if value is None:
        value = QApplication.font().pointSizeF()
        app.setProperty(BASE_FONT_PROPERTY, value)
    return float(value)


def restore_base_font() -> None:
    font = QApplication.font()
    font.setPointSizeF(base_font_pt())
    QApplication.setFont(font)


class MainWindow(QMainWindow):
    """The window lays out the views of one AppState and renders its view part. Menus,
    shortcuts and widgets send intents to the state; its LabController (gui/window/controller.py,
    `controller`) owns the studies and wires their results to the views."""

    def __init__(self, params: Params | None = None, compute_fn=compute, parent=None,
                 state: AppState | None = None):
        super().__init__(parent)
        prepare_qt_lifetime()
        self.setObjectName("mainWindow")
        self.closed = False          # closeEvent ran: the studies are shut down
        if state is None:
            # First run: live scores on, so dragging d_k moves the softmax bars.
            state = AppState(StateSnapshot(params=params or Params(live_scores=True),
                                           view=_default_view(current_language())))
        self.state = state
        # The studies and their wiring to the views (gui/window/controller.py).
        self.controller = LabController(state, compute_fn, parent=self)
        self.controls = Sidebar(state, self.model)
        self.panels = {p.objectName(): p for p in create_panels()}
        self.panels[names.COST].bind_state(state)   # the KV precision lives in AppState.cost
        self.lesson = LessonStrip(state, self.model)
        self._controls_before = True           # controls shown before presentation mode
        self._shown_view = None
        self._base_font_pt = base_font_pt()
        # The lazy views' factories weakly: the tab widget's LazyViews must not keep the window
        # alive (gui/common/qt_lifetime.py).
        self.area = WorkspaceArea(self, state, self.controls, self.panels,
                              {names.HEADS_PANEL: weak_method(self._make_head_roles_tab),
                               names.MODEL_HEADS: weak_method(self._make_model_heads),
                               names.TRAINING_PANEL: weak_method(self._make_training_tab)},
                              weak_method(self.current_theme))
        self.area.relaid_out.connect(self.fit_lesson_dock)     # its share of the new height
        self.setCentralWidget(self.area.main_splitter)
        self.files = FileCommands(self, state, self.lesson, self.panels, self.lazy_views.widget,
                                  self.panel_titles, weak_method(self.show_status),
                                  weak_method(self.shortcut_rows))
        self.menus = WindowMenus(self, state, self.files, self.lesson)
        self._build_lesson_dock()
        self.compute_label = QLabel(objectName="computeLabel")
        self.statusBar().addPermanentWidget(self.compute_label)
        # The compute time is shown at most 4 times a second: redrawing the status bar
        # after every result of a drag costs more than the number is worth.
        self._compute_label_timer = QTimer(self, singleShot=True, interval=250)
        self._compute_label_timer.timeout.connect(self._show_compute_time)
        self.controller.results_shown.connect(self._on_results_shown)
        self.controller.attach_views(self.panels, self.controls, self.lesson,
                                     weak_method(self.show_status), weak_method(self.bring_forward))
        self.lazy_views.built.connect(self.controller.view_built)
        self.workspace_tabs.currentChanged.connect(self._on_workspace)
        errors.reported.connect(self.show_error)
        self.retranslate()
        self._normal_geometry = first_geometry(self.screen().availableGeometry())
        self.setGeometry(self._normal_geometry)
        self._restore_settings()
        state.events.view.connect(self._on_view)
        self._on_view(state.view)
        # No control has the focus until the user picks one: Qt would give it to the first
        # one (a slider), which would then take the lesson's arrow keys (lesson_keys.py).
        self.setFocus(Qt.FocusReason.OtherFocusReason)

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

    # -- the workspaces (gui/window/layout.py, gui/window/lazy_views.py) ------------------
    @property
    def workspace_tabs(self):
        """The tab widget of the workspaces (gui/window/layout.py)."""
        return self.area.workspace_tabs

    @property
    def lazy_views(self):
        """The views built when first shown (gui.window.lazy_views.LazyViews)."""
        return self.area.lazy_views

    @property
    def head_roles_tab(self) -> HeadRolesTab:
        return self.lazy_views.widget(names.HEADS_PANEL)

    @property
    def model_heads(self):
        """The Real heads tab (gui.realheads.tab.ModelHeadsTab)."""
        return self.lazy_views.widget(names.MODEL_HEADS)

    @property
    def training_tab(self) -> TrainingTab:
        return self.lazy_views.widget(names.TRAINING_PANEL)

    def built_tab(self, name: str):
        """The tab's widget if it has been built, else None (never builds it)."""
        return self.lazy_views.widget(name) if self.lazy_views.is_built(name) else None

    # -- the studies: the controller's (gui/window/controller.py) ----------------------------
    @property
    def model(self):
        """The simulation study (gui.studies.simulation.SimulationModel)."""
        return self.controller.model

    @property
    def heads_study(self):
        """The head-roles study (a StudyCycle) the Head roles tab shows."""
        return self.controller.heads_study

    @property
    def background_work(self):
        """The holds of background results (gui.window.background.BackgroundWork)."""
        return self.controller.background_work

    @property
    def studies(self) -> tuple:
        """Every study the window runs (shut down on close), whichever tabs are built."""
        return self.controller.studies

    def _make_head_roles_tab(self) -> HeadRolesTab:
        panel = HeadRolesTab(self.state, self.heads_study)
        guard_call("head roles theme", panel.view.apply_theme, self.current_theme())
        return panel

    def _make_model_heads(self):
        from gui.realheads.tab import ModelHeadsTab

        self.head_roles_tab            # the head-roles study it drives gives the hand-built heads
        return ModelHeadsTab(self.state, study=self.controller.real_heads_study,
                             fetcher=self.controller.model_fetcher,
                             pruning_study=self.controller.pruning_study)

    def _make_training_tab(self) -> TrainingTab:
        from gui.training.tab import TrainingTab   # the training lab's modules: when first shown

        return TrainingTab(self.state, self.controller.training_runner, self)

    # -- construction ------------------------------------------------------------
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
        from gui.lessons.dock_title import LessonDockTitle   # a one-line bar, not Qt's 43 px at 300 %
        self.lesson_dock.setTitleBarWidget(LessonDockTitle(self.lesson_dock))
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.lesson_dock)
        self.resizeDocks([self.lesson_dock], [140], Qt.Orientation.Vertical)
        self.lesson.highlight.connect(self.area.highlight_panel)
        self.lesson.lock_requested.connect(self.set_lock)
        self.blank = QWidget(self, objectName="blankScreen")
        self.blank.setStyleSheet("background: black;")
        self.blank.hide()
        self._connect_lesson()

    # -- the lesson: leaving, Reset ----------------------------------------------------------
    def _connect_lesson(self) -> None:
        """The lesson's highlighted tab gets a frame, and the user's controls are put back
        when the strip is closed (F7) or on Edit → Reset (Ctrl+R); its context and Train
        requests are the controller's."""
        lesson = self.lesson
        # The window's own slots, never closures over it: a function connected to a signal
        # of the window's child is held by that connection, and that cycle runs through C++
        # where Python's garbage collector cannot see it, so a closed window was never freed.
        self.menus.lesson_action.toggled.connect(lesson.on_strip_shown)
        # after the text's layout pass, never inside it (see LessonStrip._fit_text)
        lesson.height_wanted.connect(self.fit_lesson_dock, Qt.ConnectionType.QueuedConnection)
        lesson.strip_max_share = self.LESSON_MAX_SHARE
        self.menus.edit_menu.addSeparator()
        self.menus.edit_menu.addAction(lesson.reset_action)
        self.addAction(lesson.reset_action)      # works with the menu bar hidden too

    def bring_forward(self, name: str) -> None:
        """Show the view `name` (a gui.common.names key) in its workspace; a view built when
        first shown is built when this returns."""
        self.area.bring_forward(name)
        if name in (names.HEADS_PANEL, names.MODEL_HEADS, names.TRAINING_PANEL):
            self.lazy_views.widget(name)

    @Slot(int)
    def _on_workspace(self, _index: int) -> None:
        self.controls.show_for(self.area.workspace())
        self.set_controls_visible(self.menus.controls_action.isChecked())
        current = self.workspace_tabs.currentWidget()
        for name in (names.HEADS_PANEL, names.MODEL_HEADS, names.TRAINING_PANEL):
            if self.lazy_views.page(name) is current:
                self.controller.view_shown(name)

    @staticmethod
    def panel_titles() -> dict[str, str]:
        """Every panel's and tab's title by objectName, in the current language."""
        return {names.SOFTMAX: tr("Softmax"), names.VARIANCE: tr("Variance of q·k"),
                names.SATURATION: tr("Saturation vs d_k"), names.MULTIHEAD: tr("Multi-head"),
                names.COST: tr("Cost"), names.HEADS_PANEL: tr("Head roles"),
                names.HEADS_VIEW: tr("Head roles"), names.MODEL_HEADS: tr("Real heads"),
                names.HEAD_GRID: tr("Real heads: grid"), names.HEAD_DETAIL: tr("Real heads: head"),
                names.HEAD_COMPARE: tr("Real heads: learned and hand-built"),
                names.MODEL_PRUNE: tr("Real heads: pruning"),
                **training_titles()}

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Attention Lab"))
        self.statusBar().clearMessage()       # a message in the old language would stay
        if self.model.results is not None:
            self._show_compute_time()
        titles = self.panel_titles()
        self.menus.retranslate(titles)
        area = self.area
        workspaces = {"scaling": (tr("Scaling"), tr("Softmax · q·k · saturation")),
                      "multihead": (tr("Multi-head"), tr("The diagram, head roles and cost")),
                      "training": (tr("Training lab"), tr("Tiny models trained live")),
                      "realheads": (tr("Real heads"), titles[names.MODEL_HEADS])}
        for i, ws in enumerate(WORKSPACES):
            text, tip = workspaces[ws]
            area.workspace_tabs.setTabText(i, text)
            area.workspace_tabs.setTabToolTip(i, tip)
        view_titles = dict(titles, **{names.VARIANCE: tr("q·k variance")})
        for ws, views in SHARED_VIEWS.items():
            bar = area.view_tabs[ws]
            for i, name in enumerate(views):
                bar.setTabText(i, view_titles[name])
            bar.setToolTip(tr("At this text size one panel is shown at a time"))
        self.lesson_dock.setWindowTitle(tr("Lesson"))
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
        scrollbar = self.area.control_scroll.verticalScrollBar().sizeHint().width()
        cap = int(self.width() * self.CONTROLS_MAX_SHARE)
        self.controls.set_narrow(False)
        needed = self.controls.minimumSizeHint().width() + scrollbar + 4
        if needed > cap:     # the check boxes' texts on two lines, then measure again
            self.controls.set_narrow(True)
            needed = self.controls.minimumSizeHint().width() + scrollbar + 4
        # Still wider than CONTROLS_MAX_SHARE of the window (a narrow window at 300 % text):
        # the controls scroll sideways rather than leave the panels no room.
        self.area.control_scroll.setMinimumWidth(min(needed, cap))
        self.area.update_compact()

    # -- results -----------------------------------------------------------------
    def show_results(self, results) -> None:
        """Offer `results` to every plot (the controller's show_results)."""
        self.controller.show_results(results)

    @Slot()
    def _on_results_shown(self) -> None:
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
    def show_error(self, message: str) -> None:
        """A caught exception (gui.common.guard), once, in the status bar; the traceback is logged."""
        self.statusBar().showMessage(tr("Something went wrong (logged): {m}").format(m=message),
                                     15000)

    def show_status(self, message: str, timeout_ms: int) -> None:
        """`message` in the status bar for `timeout_ms` milliseconds."""
        self.statusBar().showMessage(message, timeout_ms)

    # -- sessions and the shortcut list (File and Help) --------------------------------
    def save_session(self, path) -> None:
        """Write all of AppState to `path` (an OSError names the path that failed)."""
        self.files.save_session(path)

    def load_session(self, path) -> None:
        """Apply a session file; raises SessionError and changes nothing if it is unusable."""
        self.files.load_session(path)

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) for every action and shortcut the window has, read from them."""
        return shortcut_rows(self.findChildren(QAction), self.menus.lesson_shortcuts,
                             self.menus.lesson_slots)

    # -- lesson, highlight, blank -------------------------------------------------
    @Slot(bool)
    def set_lock(self, locked: bool) -> None:
        self.state.set_lock_d_model(locked)

    @Slot()
    def toggle_blank(self) -> None:
        self.blank.setGeometry(self.rect())
        self.blank.setVisible(not self.blank.isVisible())
        self.blank.raise_()

    @Slot()
    def on_escape(self) -> None:
        """Escape: the blank screen goes, else presentation mode ends."""
        if self.blank.isVisible():
            self.blank.hide()
        elif self.presentation:
            self.menus.presentation_action.setChecked(False)

    @guarded
    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.blank.setGeometry(self.rect())
        if event.size().width() != event.oldSize().width():
            self._fit_controls_width()

    def __del__(self) -> None:
        """However the window goes (its last reference dropped, or a garbage collection on
        any thread), its widgets are destroyed on the GUI thread while its Python side is
        whole (gui/common/qt_lifetime.py)."""
        delete_qt_side(self)

    # -- view: presentation, scale, theme, language ---------------------------------
    def current_theme(self):
        return make_theme(self.dark, self.presentation, self.ui_scale, self.colour_safe)

    def apply_view(self) -> None:
        """Push scale, theme and palette to the widgets and every plot."""
        theme = self.current_theme()
        app = QApplication.instance()
        font = app.font()
        font.setPointSizeF(self._base_font_pt * self.state.view.shown_scale)
        app.setFont(font)
        heads = self.built_tab(names.HEADS_PANEL)
        for panel in list(self.panels.values()) + ([heads.view] if heads is not None else []):
            guard_call(f"{panel.objectName()} theme", panel.apply_theme, theme)
        from gui.common.palette import apply_widget_palette

        apply_widget_palette(app, self.dark)
        # Measure once the font change has reached the widgets (it arrives as events); a
        # nested processEvents() here could re-enter slots in the middle of this one.
        QTimer.singleShot(0, self._fit_controls_width)
        self.area.relayout_soon()
        if self.area.highlighted:
            self.area.highlight_panel(self.area.highlighted)

    @listener
    def _on_view(self, view) -> None:
        """Render AppState.view: language, presentation, then fonts and colours."""
        shown, self._shown_view = self._shown_view, view
        if view.language != current_language():
            set_language(view.language)
            follow_language(self.state, view.language)
        menus = self.menus
        action = menus.language_actions.get(view.language)
        if action is not None and not action.isChecked():
            action.setChecked(True)
        menus.export_scale_actions[view.export_scale].setChecked(True)
        for action, on in ((menus.presentation_action, view.presentation),
                           (menus.dark_action, view.dark), (menus.light_action, not view.dark),
                           (menus.colour_safe_action, view.colour_safe)):
            if action.isChecked() != on:
                with signals_blocked(action):
                    action.setChecked(on)
        if shown is None or shown.presentation != view.presentation:
            self._show_presentation(view.presentation, first=shown is None)
        if shown is None or (shown.theme, shown.text_scale, shown.presentation,
                             shown.colour_safe) != (view.theme, view.text_scale,
                                                    view.presentation, view.colour_safe):
            self.apply_view()
            self.area.update_compact()
            self.area.apply_focus()

    def _show_presentation(self, on: bool, first: bool = False) -> None:
        """Presentation mode: the screen filled (fill_screen), no menu or status bar (their
        shortcuts still work: the window holds every action), the controls hidden."""
        self.menuBar().setVisible(not on)
        self.statusBar().setVisible(not on)
        self.workspace_tabs.tabBar().setVisible(not on)   # the step's view has the room
        if on:
            self._controls_before = self.menus.controls_action.isChecked()
            self.menus.controls_action.setChecked(False)
            if not self.isFullScreen():
                self._normal_geometry = self.geometry()
            fill_screen(self)
        elif not first:
            self.menus.controls_action.setChecked(self._controls_before)
            self.showNormal()
            self.setGeometry(self._normal_geometry)   # no window manager: nothing else would

    @Slot(bool)
    def set_presentation(self, on: bool) -> None:
        self.state.update_view(presentation=bool(on))

    @Slot(bool)
    def set_controls_visible(self, on: bool) -> None:
        """Show the sidebar (View → Show controls) where its controls act on the workspace in
        front; the Training lab and Real heads have their own and use the whole width."""
        self.area.control_scroll.setVisible(on and self.area.workspace() in SHARED_VIEWS)
        self.area.update_compact()

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
    def set_colour_safe(self, on: bool) -> None:
        self.state.update_view(colour_safe=bool(on))

    def switch_language(self, lang: str) -> None:
        self.state.update_view(language=lang)

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange and self.closed:
            # A closed window still gets the application's LanguageChange, while Qt may
            # already be deleting its menus: there is nothing left to translate.
            return
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if current_language() != self.state.view.language:   # set_language called directly
                self.state.update_view(language=current_language())
        super().changeEvent(event)

    # -- settings and shutdown ---------------------------------------------------
    def _restore_settings(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        if geometry is not None and self.restoreGeometry(geometry):
            # saved on a larger screen, or a screen no longer there
            self.setGeometry(kept_on_screen(self.geometry(), self.screen().availableGeometry()))
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
        share = PRESENTING_STRIP_SHARE if self.presentation else self.LESSON_MAX_SHARE
        limit = int(self.height() * share)
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
        self.closed = True
        try:
            if self.files.help_dialog is not None:
                self.files.help_dialog.close()
            self.lesson.stop()
            if self.presentation:   # else the next start would open full screen
                self.set_presentation(False)
            settings = QSettings()
            settings.setValue("window/geometry", self.saveGeometry())
            settings.setValue("window/state", self.saveState())
        finally:                    # the workers stop whatever failed above
            self.menus.lesson_keys.disconnect_focus()
            self.lazy_views.close()
            self.controller.shutdown()
            end_pooled_threads(CLOSE_POOL_WAIT_MS)     # no idle thread outlives the window
            guard_call("resource tracker", end_resource_tracker)   # nor a helper process
            errors.reported.disconnect(self.show_error)
            restore_base_font()      # a later window starts from 100 % text again
        super().closeEvent(event)
