"""Where the Training tab puts its controls and plots, windowed and in presentation mode.

Windowed: the experiment (and task) boxes and Start / Stop in `top_row`, one above the other
where their texts do not fit side by side; the progress bar and the status under them, the
status under the bar on a narrow tab; the curves beside the tabs of the other plots, above
them on a narrow tab (the tab then scrolls rather than squeezing its texts).

Presentation (a projector, the lesson strip below): the plots take the room. The boxes,
Start / Stop and the progress bar in one row (`present_row`; the boxes one elided line each),
the status only when something failed, every plot compact (no panel titles or sentences: the
lesson text says them). Where the curves and the other plots fit side by side they stand
so, else one at a time: the curves, or a page of the plots' tabs, picked in the view box
(`trainViewCombo`) of the row. The layout changes with the window's size, the text size and
the mode, never with a result.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QBoxLayout, QTabWidget

from gui.common.guard import SUPER, guarded
from gui.common.i18n import tr

#: The status beside the progress bar while the row is this many progress bars wide.
STATUS_BESIDE_BARS = 3
#: The curves and the other plots side by side while the tab is this many characters wide.
PLOTS_BESIDE_CHARS = 80
#: The boxes' text at the least, in characters: in a window (they wrap there), and in
#: presentation mode's one row of controls (elided there).
WINDOWED_COMBO_CHARS, PRESENTED_COMBO_CHARS = 10, 7
#: The view box's key of the curves' page (the other pages are the plots' tabs).
CURVES_PAGE = "curves"


class PlotTabs(QTabWidget):
    """The tabs of the plots beside the curves. Where one view at a time is shown the
    view box picks the page and the tab bar is hidden: the tabs then ask for no room for
    it (a QTabWidget counts its tab bar, hidden or not, unless it hides itself with one
    tab)."""

    @guarded(fallback=SUPER)
    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        size = super().minimumSizeHint()
        if self.tabBar().isHidden():
            size.setHeight(max(0, size.height() - self.tabBar().minimumSizeHint().height()))
        return size


class TabArrangement:
    """The arrangement of `tab` (a TrainingTab; see the module docstring)."""

    def __init__(self, tab):
        self.tab = tab
        self.presenting = False
        self.pages = False             # presentation, one view at a time
        self.page = None               # the page picked in the view box (None: the default)
        self._top_places = None        # where the boxes and buttons are in the top row

    # -- the mode ---------------------------------------------------------------------
    def set_presenting(self, presenting: bool) -> None:
        """Presentation mode on or off: the controls move, the plots go compact."""
        if presenting == self.presenting:
            return
        self.presenting = presenting
        tab = self.tab
        for combo in (tab.combo, tab.task_combo):
            combo.set_wrapping(not presenting)
        for combo in (tab.combo, tab.task_combo, tab.view_combo):   # room for the row
            combo.setMinimumContentsLength(PRESENTED_COMBO_CHARS if presenting
                                           else WINDOWED_COMBO_CHARS)
        for plot in tab.plots:
            plot.set_compact(presenting)
        movable = (tab.combo, tab.task_combo, tab.view_combo, tab.start_button,
                   tab.stop_button, tab.progress)
        for widget in movable:
            for layout in (tab.top_row, tab.present_row, tab.status_row):
                layout.removeWidget(widget)
        self._top_places = None
        if presenting:
            for widget in movable:
                tab.present_row.addWidget(widget, 1 if widget is tab.progress else 0)
        else:
            tab.status_row.insertWidget(0, tab.progress, 2)
        self.arrange(tab.width())
        self.show_status()

    def show_status(self) -> None:
        """The status text: always windowed; in presentation only a failure (the plots'
        notes say what to press, the progress bar how far a run is)."""
        tab = self.tab
        tab.status.setVisible(not self.presenting or tab.status.property("error") is True)

    # -- the layout at a width --------------------------------------------------------
    def arrange(self, width: int) -> None:
        """Lay the tab out for `width` pixels (on a resize, a new font, language or mode)."""
        chars = QFontMetrics(QApplication.font(self.tab)).averageCharWidth()
        beside = width >= PLOTS_BESIDE_CHARS * chars
        if not self.presenting:
            self._arrange_windowed(width, beside)
        self.pages = self.presenting and not beside
        orientation = (Qt.Orientation.Horizontal if beside or self.presenting
                       else Qt.Orientation.Vertical)
        splitter = self.tab.splitter
        if splitter.orientation() != orientation:   # the other plots under the curves
            splitter.setOrientation(orientation)
            splitter.setSizes([1000, 1000])
        self.show_plots()

    def _arrange_windowed(self, width: int, beside: bool) -> None:
        """The combo boxes one above the other when their whole texts do not fit side by
        side (each then has the row's width, and wraps what still does not fit); Start and
        Stop under them when the row is too narrow for all four; the status text under the
        progress bar when beside it, it would be a narrow column many lines tall."""
        tab = self.tab
        row = tab.top_row
        spacing = max(row.horizontalSpacing(), 0)
        combos = [w for w in (tab.combo, tab.task_combo) if not w.isHidden()]
        wanted = sum(w.sizeHint().width() for w in combos) + spacing * len(combos) + 8
        buttons = sum(w.sizeHint().width() for w in (tab.start_button, tab.stop_button))
        if width < wanted:
            places = ((0, 0, 1, 5), (1, 0, 1, 5), (2, 0), (2, 1))
        elif width < wanted + buttons + 2 * spacing:
            places = ((0, 0), (0, 1), (1, 0), (1, 1))
        else:
            places = ((0, 0), (0, 1), (0, 2), (0, 3))
        if places != self._top_places:
            self._top_places = places
            widgets = (tab.combo, tab.task_combo, tab.start_button, tab.stop_button)
            for widget in widgets:
                row.removeWidget(widget)
            for widget, place in zip(widgets, places):
                row.addWidget(widget, *place)
        status_beside = width >= STATUS_BESIDE_BARS * tab.progress.minimumWidth()
        direction = (QBoxLayout.Direction.LeftToRight if status_beside else
                     QBoxLayout.Direction.TopToBottom)
        if tab.status_row.direction() != direction:
            tab.status_row.setDirection(direction)

    # -- which plots are shown --------------------------------------------------------
    def page_list(self) -> list:
        """(key, title) of the views one can show: the curves, then the plots' tabs that
        the experiment has."""
        right = self.tab.right
        pages = [(CURVES_PAGE, tr("Training curves"))]
        if self.tab.state.training.experiment != "scaling":
            pages += [(right.widget(i).objectName(), right.tabText(i))
                      for i in range(right.count()) if right.isTabVisible(i)]
        return pages

    def default_page(self) -> str:
        """The curves for the scaling experiment, else the plots' page the tab opens, if the
        experiment has it (its tab may be hidden: a roles run has no heads chart), else its
        first."""
        if self.tab.state.training.experiment == "scaling":
            return CURVES_PAGE
        keys = [key for key, _title in self.page_list()]
        current = self.tab.right.currentWidget().objectName()
        return current if current in keys else keys[min(1, len(keys) - 1)]

    def pick_page(self, key: str | None) -> None:
        """Show the view `key` (a page_list key; None: the default) where one view at a
        time is shown."""
        self.page = key
        self.show_plots()

    def show_plots(self) -> None:
        """Show the curves and the plots' tabs as the mode, the width and the experiment
        allow; fill the view box with the views one can pick."""
        tab = self.tab
        right, curves, view_combo = tab.right, tab.curves, tab.view_combo
        has_right = tab.state.training.experiment != "scaling"   # no heads to show
        right.setDocumentMode(self.pages)      # one view at a time: no frame around it
        if not self.pages:
            curves.setVisible(True)
            right.setVisible(has_right)
            right.tabBar().setVisible(True)
            view_combo.setVisible(False)
            return
        pages = self.page_list()
        keys = [key for key, _title in pages]
        shown = self.page if self.page in keys else self.default_page()
        if shown != CURVES_PAGE:
            right.setCurrentWidget(self._right_page(shown))
        curves.setVisible(shown == CURVES_PAGE)
        right.setVisible(shown != CURVES_PAGE)
        right.tabBar().setVisible(False)
        view_combo.blockSignals(True)
        try:
            if [view_combo.itemData(i) for i in range(view_combo.count())] != keys or \
                    [view_combo.itemText(i) for i in range(view_combo.count())] != \
                    [title for _key, title in pages]:
                view_combo.clear()
                for key, title in pages:
                    view_combo.addItem(title, key)
            view_combo.setCurrentIndex(keys.index(shown))
        finally:
            view_combo.blockSignals(False)
        view_combo.setVisible(len(pages) > 1)

    def _right_page(self, key: str):
        right = self.tab.right
        for i in range(right.count()):
            if right.widget(i).objectName() == key:
                return right.widget(i)
        return right.currentWidget()
