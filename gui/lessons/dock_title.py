"""A compact title bar for the lesson dock: its name and a float button, one small line.

Qt's own dock title bar is as tall as the dock's font although it paints its title small,
which at 300 % text costs a small window a line of height for one word.
This bar's text is half the window's text size (never below the 100 % size, never above the
window's), and it ignores the mouse, so dragging or double-clicking it moves, docks and
undocks the strip as Qt's bar does.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Slot
from PySide6.QtWidgets import QDockWidget, QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

from gui.common.guard import guarded
from gui.common.i18n import tr

#: The title's share of the window's text size, and its smallest point size.
TITLE_SHARE = 0.5
SMALLEST_PT = 9.0


def title_point_size(window_pt: float) -> float:
    """The title's point size for the window's text size `window_pt`."""
    return min(window_pt, max(SMALLEST_PT, window_pt * TITLE_SHARE))


class LessonDockTitle(QWidget):
    """The lesson dock's title bar (QDockWidget.setTitleBarWidget)."""

    def __init__(self, dock: QDockWidget):
        super().__init__(dock)
        self.setObjectName("lessonDockTitle")
        self.dock = dock
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 1, 2, 1)
        layout.setSpacing(4)
        self.label = QLabel(dock.windowTitle(), objectName="lessonDockTitleText")
        self.float_button = QToolButton(objectName="lessonDockFloat")
        self.float_button.setAutoRaise(True)
        self.float_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.float_button.setIcon(self.style().standardIcon(
            QStyle.StandardPixmap.SP_TitleBarNormalButton))
        self.float_button.clicked.connect(self._toggle_floating)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.float_button)
        dock.windowTitleChanged.connect(self.label.setText)
        self._fit_font()
        self.retranslate()

    def retranslate(self) -> None:
        self.float_button.setToolTip(tr("Detach or re-attach the lesson strip"))

    def _fit_font(self) -> None:
        font = self.font()
        font.setPointSizeF(title_point_size(self.font().pointSizeF()))
        self.label.setFont(font)
        side = self.label.fontMetrics().height()
        self.float_button.setIconSize(QSize(side, side))
        self.float_button.setFixedSize(side + 4, side + 2)

    @Slot()
    def _toggle_floating(self) -> None:
        self.dock.setFloating(not self.dock.isFloating())

    @guarded
    def changeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.FontChange:
            self._fit_font()
        elif event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
