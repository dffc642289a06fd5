"""What to do, written in a plot that has nothing to show yet ("Press Start to train…").

Before a run the training lab's plots are frames with their names and no data: an
EmptyNote centres a short message in such a view instead of pyqtgraph's bare 0–1 axes. An
empty view has no data for it to cover; the note goes as soon as the plot shows a run.
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QGraphicsTextItem

from gui.common.style import Theme, plot_font


class EmptyNote:
    """A message centred in `plot`'s view (below its top `free_top` pixels: set_free_top),
    word-wrapped to its width, in pixels whatever the view's range (a child of the ViewBox,
    not of its data). Shown while `set_shown(True)`: the message where the view holds it
    whole with MARGIN_PX to spare, else its short form (set_text), else nothing."""

    MARGIN_PX = 8.0
    #: Narrower than this, the view holds no readable message.
    MIN_WIDTH_PX = 40.0

    def __init__(self, plot: pg.PlotItem):
        self.view = plot.vb
        self.free_top = 0.0
        self.item = QGraphicsTextItem(self.view)
        option = QTextOption(Qt.AlignmentFlag.AlignHCenter)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        self.item.document().setDefaultTextOption(option)
        self.item.setZValue(30)
        self.item.hide()
        self.wanted = False
        self.texts = ("", "")      # the message and its short form
        self.view.sigResized.connect(self.place)

    @property
    def text(self) -> str:
        """The text on screen (the message or its short form)."""
        return self.item.toPlainText()

    def is_shown(self) -> bool:
        return self.item.isVisible()

    def set_style(self, theme: Theme) -> None:
        """The theme's text colour and plot font."""
        self.item.setDefaultTextColor(pg.mkColor(theme.foreground))
        self.item.setFont(plot_font(theme))
        self.place()

    def set_text(self, text: str, short: str | None = None) -> None:
        """The message, and the short form a view too small for it shows (none: none)."""
        texts = (text, short if short is not None else text)
        if texts != self.texts:
            self.texts = texts
            self.place()

    def set_free_top(self, pixels: float) -> None:
        """Keep the top `pixels` of the view free (labels of the plot's own stand there)."""
        if pixels != self.free_top:
            self.free_top = pixels
            self.place()

    def set_shown(self, shown: bool) -> None:
        if shown != self.wanted:
            self.wanted = shown
            self.place()

    def place(self, *_args) -> None:
        """Centre the message in the view at its current size (on every resize)."""
        rect = self.view.boundingRect().adjusted(0, self.free_top, 0, 0)
        width = rect.width() - 2 * self.MARGIN_PX
        if not self.wanted or not self.texts[0] or width < self.MIN_WIDTH_PX:
            self.item.hide()
            return
        if abs(self.item.textWidth() - width) > 0.5:
            self.item.setTextWidth(width)
        for text in self.texts:
            if text != self.item.toPlainText():
                self.item.setPlainText(text)
            height = self.item.boundingRect().height()
            if height <= rect.height() - 2 * self.MARGIN_PX:
                self.item.setPos(rect.left() + self.MARGIN_PX,
                                 rect.top() + (rect.height() - height) / 2)
                self.item.show()
                return
        self.item.hide()
