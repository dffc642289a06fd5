"""Where the panels go: the grid, one row at a time, or one panel at a time.

`PanelArea` is a QObject child of the window that owns the splitters and tabs holding the
controls and the panels (its `main_splitter` is the window's central widget), picks the
layout for the area's size and the text size (choose_layout), and shows only the lesson
step's panel in presentation mode.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer, Qt, Signal, Slot
from PySide6.QtWidgets import QScrollArea, QSplitter, QTabBar, QTabWidget, QVBoxLayout, QWidget
from superqt.utils import signals_blocked

from gui.common import names
from gui.common.guard import guarded
from gui.state import AppState
from gui.window.lazy_tabs import LazyTabs
from gui.common.names import TOP_ROW

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



class PanelArea(QObject):
    """The controls and the panels in the window `parent` (see the module docstring):

    - `state`: its view's text size and presentation mode choose the layout;
    - `controls`: the widget put in the scrolling column on the left;
    - `panels`: the always-built panels by objectName;
    - `tabs`: the bottom tabs built when first shown, key → factory, in tab order;
    - `theme()`: the current Theme (its colour frames the lesson step's panel).

    None of these may refer to the window strongly (it owns this object). `relaid_out` is
    emitted after a resize of the area has re-picked the layout.
    """

    relaid_out = Signal()

    def __init__(self, parent: QWidget, state: AppState, controls: QWidget, panels: dict,
                 tabs: dict[str, Callable[[], QWidget]], theme: Callable):
        super().__init__(parent)
        self.setObjectName("panelAreaLayout")
        self.state = state
        self.controls = controls
        self.panels = panels
        self.theme = theme
        self.compact = False                   # one row or one panel at a time
        self.layout_mode = GRID
        self.highlighted: str | None = None     # the panel the lesson step frames
        self._build(tabs)

    @property
    def window(self) -> QWidget:
        """The window: its Qt parent (an attribute would keep it alive in a reference cycle)."""
        return self.parent()

    def _build(self, tabs: dict[str, Callable[[], QWidget]]) -> None:
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
        for key, factory in tabs.items():
            self.lazy_tabs.add(key, factory)
        bottom.addWidget(self.bottom_tabs)
        bottom.addWidget(p[names.COST])
        bottom.setStretchFactor(0, 3)
        bottom.setStretchFactor(1, 2)
        right = self.panel_splitter = QSplitter(Qt.Orientation.Vertical, objectName="panelSplitter")
        right.addWidget(top)
        right.addWidget(bottom)
        right.setStretchFactor(0, 1)      # a taller window: both rows grow (the head maps too)
        right.setStretchFactor(1, 1)
        # In a short window the two rows become tabs (see update_compact).
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

    @Slot(str)
    def highlight_panel(self, name: str) -> None:
        """Frame the panel a lesson step is about (and bring its tab to the front)."""
        targets = dict(self.panels)
        if name == names.HEADS_PANEL or self.lazy_tabs.is_built(names.HEADS_PANEL):
            targets[names.HEADS_PANEL] = self.lazy_tabs.widget(names.HEADS_PANEL)
        for key, widget in targets.items():
            widget.setStyleSheet("" if key != name else
                                 f"#{key} {{ border: 5px solid {self.theme().scaled}; }}")
        if name in (names.MULTIHEAD, names.HEADS_PANEL):
            self.bottom_tabs.setCurrentWidget(targets[name])
        self.highlighted = name
        if name in targets:
            page = name if name in SINGLE_PAGES else names.MULTIHEAD
            with signals_blocked(self.panel_tabs):
                self.panel_tabs.setCurrentIndex(SINGLE_PAGES.index(page))
            self.row_tabs.setCurrentIndex(0 if name in TOP_ROW else 1)  # shown if compact
        self.apply_focus()

    def apply_focus(self) -> None:
        """In presentation mode only the lesson step's panel is shown, as large as the screen
        allows; five panels at once are unreadable from the back of a room at 1280×720.
        In a compact window one row of panels is shown, picked by the row tabs; at large
        text in a small window one panel, picked by the panel tabs."""
        name = self.highlighted if self.state.view.presentation else None
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

    def update_compact(self, height: int | None = None) -> None:
        """The layout (choose_layout) for the central area's size and the text size."""
        size = self.main_splitter.size()
        height = size.height() if height is None else height
        controls = self.control_scroll.minimumWidth() \
            if self.control_scroll.isVisibleTo(self.window) else 0
        view = self.state.view
        boost = 1.25 if view.presentation else 1.0
        mode = choose_layout(size.width() - controls, height, view.text_scale * boost)
        need_w, need_h = (px * view.text_scale * boost for px in READABLE_PANEL_PX)
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
            self.apply_focus()

    @Slot(int)
    def _on_row_tab(self, index: int) -> None:
        page = SINGLE_PAGES[self.panel_tabs.currentIndex()]
        if self.layout_mode == SINGLE and (page in TOP_ROW) != (index == 0):   # another row:
            with signals_blocked(self.panel_tabs):                             # its first panel
                self.panel_tabs.setCurrentIndex(0 if index == 0 else len(TOP_ROW))
        self.apply_focus()

    @Slot(int)
    def _on_panel_tab(self, index: int) -> None:
        with signals_blocked(self.row_tabs):
            self.row_tabs.setCurrentIndex(0 if SINGLE_PAGES[index] in TOP_ROW else 1)
        self.apply_focus()
