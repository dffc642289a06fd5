"""The workspaces beside the sidebar: Scaling, Multi-head, Training lab and Real heads.

A top-level tab widget switches between four workspaces, each using the whole area beside
the sidebar (the controls column):

    Scaling       softmax, q·k variance, saturation       three plots side by side
    Multi-head    the diagram over head roles and cost     the diagram gets the width
    Training lab  the training tab                         built when first shown
    Real heads    the Real heads tab                       built when first shown

A workspace of several views shows them all (GRID) while each stays readable for its size
and the text size (choose_layout), else one at a time (SINGLE), picked by the workspace's
own tab bar. In presentation mode only the lesson step's view is shown, in its workspace.
Every workspace scrolls rather than squeezing its views below the size their texts need.

`WorkspaceArea` is a QObject child of the window: its `main_splitter` (the sidebar and the
workspaces) is the window's central widget.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer, Qt, Signal, Slot
from PySide6.QtWidgets import (QScrollArea, QSplitter, QTabBar, QTabWidget, QVBoxLayout,
                               QWidget)

from gui.common import names
from gui.common.guard import guard_call, guarded
from gui.state import AppState
from gui.window.lazy_views import LazyViews
from gui.common.qt_util import signals_blocked

SCALING, MULTIHEAD, TRAINING, REAL_HEADS = "scaling", "multihead", "training", "realheads"
#: The workspaces in tab order.
WORKSPACES = (SCALING, MULTIHEAD, TRAINING, REAL_HEADS)
#: The views of the workspaces that hold several, in their tab order.
SHARED_VIEWS = {SCALING: (names.SOFTMAX, names.VARIANCE, names.SATURATION),
                MULTIHEAD: (names.MULTIHEAD, names.HEADS_PANEL, names.COST)}
#: The workspace of every view (objectName).
WORKSPACE_OF = {**{view: ws for ws, views in SHARED_VIEWS.items() for view in views},
                names.TRAINING_PANEL: TRAINING, names.MODEL_HEADS: REAL_HEADS}
#: The smallest plot (width, height) whose texts fit at 100 % text; it grows with the text.
READABLE_PANEL_PX = (285, 290)
GRID, SINGLE = "grid", "single"


def choose_layout(width: float, height: float, text_scale: float,
                  workspace: str = SCALING) -> str:
    """GRID when every view of `workspace` stays readable in a `width` × `height` area at
    `text_scale` (Scaling: three across; Multi-head: the diagram over two across), else
    SINGLE: one view at a time (what a projector at 200–300 % text gets)."""
    need_w, need_h = (px * text_scale for px in READABLE_PANEL_PX)
    if workspace == SCALING:
        return GRID if width >= 3 * need_w else SINGLE
    return GRID if width >= 2 * need_w and height >= 2 * need_h else SINGLE


class WorkspaceArea(QObject):
    """The sidebar and the workspaces in the window `parent` (see the module docstring):

    - `state`: its view's text size and presentation mode choose the layout;
    - `controls`: the sidebar, put in the scrolling column on the left;
    - `panels`: the always-built plots by objectName;
    - `views`: the views built when first shown, key → factory (HEADS_PANEL,
      TRAINING_PANEL, MODEL_HEADS);
    - `theme()`: the current Theme (its colour frames the lesson step's view).

    None of these may refer to the window strongly (it owns this object). `relaid_out` is
    emitted after a resize of the area has re-picked the layout.
    """

    relaid_out = Signal()

    def __init__(self, parent: QWidget, state: AppState, controls: QWidget, panels: dict,
                 views: dict[str, Callable[[], QWidget]], theme: Callable):
        super().__init__(parent)
        self.setObjectName("workspaceAreaLayout")
        self.state = state
        self.controls = controls
        self.panels = panels
        self.theme = theme
        self.modes = {ws: GRID for ws in SHARED_VIEWS}
        self.highlighted: str | None = None     # the view the lesson step frames
        self._build(views)

    @property
    def window(self) -> QWidget:
        """The window: its Qt parent (an attribute would keep it alive in a reference cycle)."""
        return self.parent()

    # -- construction --------------------------------------------------------------
    def _scroll(self, name: str) -> QScrollArea:
        scroll = QScrollArea(objectName=name)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        return scroll

    def _shared_page(self, ws: str, body: QWidget) -> QScrollArea:
        """A workspace page of several views: its one-at-a-time tab bar over `body`."""
        bar = self.view_tabs[ws] = QTabBar(objectName=f"{ws}ViewTabs")
        for _ in SHARED_VIEWS[ws]:
            bar.addTab("")
        bar.setVisible(False)
        bar.setUsesScrollButtons(True)       # three tabs at 300 % may outgrow the area
        bar.currentChanged.connect(self._on_view_tab)
        inner = self.inners[ws] = QWidget(objectName=f"{ws}Views")
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(bar)
        column.addWidget(body, 1)
        page = self.pages[ws] = self._scroll(f"{ws}Workspace")
        page.setWidget(inner)
        return page

    def _build(self, views: dict[str, Callable[[], QWidget]]) -> None:
        scroll = self.control_scroll = QScrollArea(objectName="controlScroll")
        scroll.setWidget(self.controls)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(300)
        p = self.panels
        self.view_tabs: dict[str, QTabBar] = {}
        self.inners: dict[str, QWidget] = {}
        self.pages: dict[str, QScrollArea] = {}
        tabs = self.workspace_tabs = QTabWidget(objectName="workspaceTabs")
        tabs.setDocumentMode(True)
        # Scaling: three plots side by side.
        top = self.scaling_splitter = QSplitter(Qt.Orientation.Horizontal, objectName="scalingSplitter")
        for name in SHARED_VIEWS[SCALING]:
            top.addWidget(p[name])
        tabs.addTab(self._shared_page(SCALING, top), "")
        # Multi-head: the diagram over head roles and cost.
        self.heads_holder = QWidget(objectName="headRolesHolder")
        holder_layout = QVBoxLayout(self.heads_holder)
        holder_layout.setContentsMargins(0, 0, 0, 0)
        below = self.multihead_row = QSplitter(Qt.Orientation.Horizontal, objectName="multiheadRow")
        below.addWidget(self.heads_holder)
        below.addWidget(p[names.COST])
        below.setStretchFactor(0, 3)
        below.setStretchFactor(1, 2)
        column = self.multihead_splitter = QSplitter(Qt.Orientation.Vertical,
                                                     objectName="multiheadSplitter")
        column.addWidget(p[names.MULTIHEAD])
        column.addWidget(below)
        column.setStretchFactor(0, 1)      # the diagram and the row below share the height
        column.setStretchFactor(1, 1)
        tabs.addTab(self._shared_page(MULTIHEAD, column), "")
        # Training lab and Real heads: one tab each, built when first shown.
        for ws, key in ((TRAINING, names.TRAINING_PANEL), (REAL_HEADS, names.MODEL_HEADS)):
            page = self.pages[ws] = self._scroll(f"{key}Scroll")
            page.setWidget(QWidget(objectName=f"{key}Placeholder"))
            tabs.addTab(page, "")
        self.lazy_views = LazyViews(tabs)
        self.lazy_views.add(names.HEADS_PANEL, views[names.HEADS_PANEL], self.heads_holder,
                            self.pages[MULTIHEAD])
        for ws, key in ((TRAINING, names.TRAINING_PANEL), (REAL_HEADS, names.MODEL_HEADS)):
            self.lazy_views.add(key, views[key], self.pages[ws], self.pages[ws])
        tabs.currentChanged.connect(self._on_workspace)
        self.main_splitter = QSplitter(Qt.Orientation.Horizontal, objectName="mainSplitter")
        self.main_splitter.addWidget(scroll)
        self.main_splitter.addWidget(tabs)
        # A resize re-picks the layout and refits the lesson strip after the resize has been
        # handled, not inside it: hiding views and changing minimum sizes while Qt's
        # main-window layout is placing its docks is not safe.
        self._relayout_timer = QTimer(self, singleShot=True, interval=0)
        self._relayout_timer.timeout.connect(self._relayout)
        self.main_splitter.installEventFilter(self)
        self.main_splitter.setStretchFactor(1, 1)

    # -- which workspace, which view -------------------------------------------------
    def workspace(self) -> str:
        """The workspace in front."""
        return WORKSPACES[max(0, self.workspace_tabs.currentIndex())]

    def show_workspace(self, ws: str) -> None:
        self.workspace_tabs.setCurrentWidget(self.pages[ws])

    @property
    def layout_mode(self) -> str:
        """GRID or SINGLE for the workspace in front (GRID for a workspace of one view)."""
        return self.modes.get(self.workspace(), GRID)

    @property
    def panel_scroll(self) -> QScrollArea:
        """The scroll area of the workspace in front."""
        return self.pages[self.workspace()]

    def bring_forward(self, name: str) -> None:
        """Show the workspace of the view `name` (an objectName) and, where its workspace
        shows one view at a time, that view."""
        ws = WORKSPACE_OF.get(name)
        if ws is None:
            return
        if ws in SHARED_VIEWS:
            bar = self.view_tabs[ws]
            with signals_blocked(bar):
                bar.setCurrentIndex(SHARED_VIEWS[ws].index(name))
        self.show_workspace(ws)
        self.apply_focus()

    @Slot(str)
    def highlight_panel(self, name: str) -> None:
        """Frame the view a lesson step is about and bring it to the front."""
        colour = self.theme().scaled
        for key, widget in self.panels.items():
            widget.setStyleSheet("" if key != name else f"#{key} {{ border: 5px solid {colour}; }}")
        if self.lazy_views.is_built(names.HEADS_PANEL) or name == names.HEADS_PANEL:
            heads = self.lazy_views.widget(names.HEADS_PANEL)
            heads.setStyleSheet("" if name != names.HEADS_PANEL else
                                f"#{names.HEADS_PANEL} {{ border: 5px solid {colour}; }}")
        for ws, key in ((TRAINING, names.TRAINING_PANEL), (REAL_HEADS, names.MODEL_HEADS)):
            page = self.pages[ws]
            page.setStyleSheet("" if name != key else
                               f"QScrollArea#{page.objectName()} {{ border: 5px solid {colour}; }}")
        self.highlighted = name
        self.bring_forward(name)

    def apply_focus(self) -> None:
        """Which views of the shared workspaces are shown: in presentation mode only the
        lesson step's view; in a SINGLE workspace the one its tab bar picks; else all."""
        presenting = self.highlighted if self.state.view.presentation else None
        shown_below = False
        for ws, views in SHARED_VIEWS.items():
            single = self.modes[ws] == SINGLE
            if presenting in views:
                shown = {presenting}
            elif single:
                shown = {views[max(0, self.view_tabs[ws].currentIndex())]}
            else:
                shown = set(views)
            self.view_tabs[ws].setVisible(single and presenting not in views)
            for name in views:
                self._view_widget(name).setVisible(name in shown)
            if ws == MULTIHEAD:
                shown_below = bool({names.HEADS_PANEL, names.COST} & shown)
        self.multihead_row.setVisible(shown_below)

    def _view_widget(self, name: str) -> QWidget:
        return self.heads_holder if name == names.HEADS_PANEL else self.panels[name]

    def update_compact(self, height: int | None = None) -> None:
        """The layout of each shared workspace (choose_layout) for the area's size and the
        text size; a workspace shown one view at a time keeps a readable width and scrolls."""
        size = self.workspace_tabs.size()
        width = size.width()
        height = size.height() - self.workspace_tabs.tabBar().sizeHint().height() \
            if height is None else height
        view = self.state.view
        scale = view.shown_scale
        need_w = READABLE_PANEL_PX[0] * scale
        changed = False
        for ws in SHARED_VIEWS:
            mode = choose_layout(width, height, scale, ws)
            self.inners[ws].setMinimumSize(int(need_w * 0.85) if mode == SINGLE else 0, 0)
            if mode != self.modes[ws]:
                self.modes[ws], changed = mode, True
                if ws == SCALING:
                    self.scaling_splitter.setSizes([1000] * 3)      # equal columns again
                else:
                    self.multihead_splitter.setSizes([1000, 1000])
                    self.multihead_row.setSizes([3000, 2000])
        if changed:
            self.apply_focus()
        for panel in self.panels.values():   # the room each plot is offered may be new
            guard_call(f"{panel.objectName()} arrangement", panel.fit_room)

    @property
    def compact(self) -> bool:
        """The workspace in front shows one view at a time."""
        return self.layout_mode == SINGLE

    # -- events ------------------------------------------------------------------------
    @guarded(fallback=False)
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt naming)
        if watched is self.main_splitter and event.type() == QEvent.Type.Resize:
            self._relayout_timer.start()
        return super().eventFilter(watched, event)

    def relayout_soon(self) -> None:
        """Re-pick the layout (and emit relaid_out) once the events queued now are handled."""
        self._relayout_timer.start()

    @Slot()
    def _relayout(self) -> None:
        self.update_compact()
        self.relaid_out.emit()

    @Slot(int)
    def _on_workspace(self, _index: int) -> None:
        self.update_compact()
        self.apply_focus()

    @Slot(int)
    def _on_view_tab(self, _index: int) -> None:
        self.apply_focus()
