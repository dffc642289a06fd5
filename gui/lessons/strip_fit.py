"""How the lesson strip fits its window: the compact strip of a short window, and the step
text's height (whole lines, a share of the window).

StripFit is a plain object that LessonStrip (gui/lessons/strip.py) builds with the widgets
it lays out; it shows the step's text, moves the widgets for the compact strip and asks
the window for a new dock height through the `height_wanted` callable. The panel keeps
the Qt event handlers (size hint, resize, show, hide, the window's resizes) and calls
`fit_text` from them.
"""
from __future__ import annotations

import html
import math

from typing import Callable

from PySide6.QtWidgets import (QDockWidget, QGridLayout, QHBoxLayout, QLabel, QSlider,
                               QVBoxLayout, QWidget)

QWIDGETSIZE_MAX = (1 << 24) - 1
#: The step text asks for at most this share of the window's height; the rest scrolls.
TEXT_MAX_SHARE = 0.26
#: A window fewer text lines tall than this (1366×768 and 1280×720 at 250–300 % text) gets
#: the compact strip: the step's title moves into the scrolling text (its first words), out of the
#: button row, and the whole strip (its dock's title bar counted) asks for at most
#: COMPACT_STRIP_SHARE of the window, so that the plots keep more than half of it.
COMPACT_BELOW_LINES = 22
COMPACT_STRIP_SHARE = 0.30
#: The window's margin around the strip (MainWindow.fit_lesson_dock adds it to the hint).
DOCK_MARGIN_PX = 8


class StripFit:
    """The text and layout half of the lesson strip `strip`.

    strip            the LessonStrip: its window, font, width, layout and size hint
    top_row          the row of step_label, title_label and `buttons` (Back, Play, Train, Next)
    body             the row of text_view (a LessonText) and layers_grid
    offset_gap       the widget of offset_gap_grid, which holds offset_label,
                     offset_slider, gap_label and gap_slider
    height_wanted    called when the text asks for another height

    `title` is the step's title (the compact strip puts it at the head of the text) and
    `strip_max_share` the strip's largest share of the window's height (None: no cap).
    """

    def __init__(self, strip: QWidget, *, top_row: QHBoxLayout, step_label: QLabel,
                 title_label: QLabel, buttons: tuple[QWidget, ...], body: QHBoxLayout,
                 text_view, layers_grid: QWidget, offset_gap: QWidget,
                 offset_gap_grid: QGridLayout, offset_label: QLabel, offset_slider: QSlider,
                 gap_label: QLabel, gap_slider: QSlider, height_wanted: Callable[[], None]):
        self.strip = strip
        self.top_row, self.step_label, self.title_label = top_row, step_label, title_label
        self.buttons = buttons
        self.body, self.text_view, self.layers_grid = body, text_view, layers_grid
        self.offset_gap, self.offset_gap_grid = offset_gap, offset_gap_grid
        self.offset_label, self.offset_slider = offset_label, offset_slider
        self.gap_label, self.gap_slider = gap_label, gap_slider
        self.height_wanted = height_wanted
        layout: QVBoxLayout = strip.layout()
        self._margins = layout.contentsMargins()   # of the strip that is not compact
        self._spacing = layout.spacing()
        self.title = ""
        self.strip_max_share: float | None = None
        #: The strip in a window too short for its text size (see COMPACT_BELOW_LINES).
        self.compact = False
        #: … and too narrow for the step number beside the buttons: it heads the text too.
        self.number_in_text = False
        self._body_html = self._shown_prefix = ""
        self._body_key = None
        self._shown_text = None
        self._shown_key = None

    def set_text(self, text: str, key) -> None:
        """Show `text`, the body of step `key`: a new step from its top, new numbers of the
        same step where the reader was (setHtml alone moved a text that had not been
        scrolled by a few pixels, so its first line was cut off)."""
        self._body_html, self._body_key = text, key
        prefix = ""
        if self.compact:            # the title, out of the button row, heads the text
            prefix = f"{self.title} — "
            if self.number_in_text:
                prefix = f"{self.step_label.text()} · {prefix}"
            text = f"<b>{html.escape(prefix)}</b>{text}"
        self._shown_prefix = prefix
        if text == self._shown_text:
            return
        bar = self.text_view.verticalScrollBar()
        keep = bar.value() if self._shown_key == key else 0
        self._shown_text, self._shown_key = text, key
        # The document's own setHtml: the view's also moves its (hidden, read-only) cursor
        # and scrolls to it, work a text that changes with every result does not need.
        self.text_view.document().setHtml(text)
        bar.setValue(min(keep, bar.maximum()))
        self.fit_text()

    def text(self) -> str:
        """The step's text as shown, without markup (and without the title the compact
        strip puts above it)."""
        text = self.text_view.toPlainText()
        return text[len(self._shown_prefix):] if text.startswith(self._shown_prefix) else text

    def update_compact(self) -> None:
        """The compact strip in a window less than COMPACT_BELOW_LINES lines of text tall:
        the title joins the text (in bold, its first words: it scrolls with it), the
        button row keeps the step number, the margins shrink."""
        strip = self.strip
        window = strip.window()
        line = strip.fontMetrics().lineSpacing()
        compact = window is not strip and window.height() < COMPACT_BELOW_LINES * line
        number_in_text = compact and self._row_width() > self._strip_width()
        if (compact, number_in_text) == (self.compact, self.number_in_text):
            return
        self.compact, self.number_in_text = compact, number_in_text
        self.title_label.setVisible(not compact)
        self.step_label.setVisible(not number_in_text)
        self.top_row.setStretchFactor(self.step_label, int(compact))  # the buttons keep their size
        layout = strip.layout()
        if compact:
            layout.setContentsMargins(4, 2, 4, 2)
            layout.setSpacing(2)
        else:
            layout.setContentsMargins(self._margins)
            layout.setSpacing(self._spacing)
        self.place_offset_gap()
        if self._body_html:
            self._shown_key = None           # the new text starts at its top (the title)
            self.set_text(self._body_html, self._body_key)

    def _row_width(self) -> int:
        """The width the compact button row needs with the step number in it."""
        row = self.top_row
        shown = [w for w in self.buttons if not w.isHidden()]
        margins = self.strip.layout().contentsMargins()
        return (sum(w.sizeHint().width() for w in shown) + self.step_label.sizeHint().width()
                + row.spacing() * len(shown) + margins.left() + margins.right())

    def _strip_width(self) -> int:
        """The width the strip is shown at (its scroll area's, when it is in one)."""
        parent = self.strip.parentWidget()
        return parent.width() if parent is not None else self.strip.width()

    def place_offset_gap(self) -> None:
        """The offset and gap sliders in a row below the text, or (compact) beside it,
        one above the other: a row of its own made the strip a line taller."""
        grid = self.offset_gap_grid
        pairs = ((self.offset_label, self.offset_slider), (self.gap_label, self.gap_slider))
        for i, (label, slider) in enumerate(pairs):
            row, column = (i, 0) if self.compact else (0, 2 * i)
            grid.addWidget(label, row, column)
            grid.addWidget(slider, row, column + 1)
        for column in range(4):
            grid.setColumnStretch(column, int(column % 2 == 1 and column < (2 if self.compact else 4)))
        layout = self.strip.layout()
        layout.removeWidget(self.offset_gap)
        self.body.removeWidget(self.offset_gap)
        if self.compact:
            self.body.addWidget(self.offset_gap, 2)
        else:
            layout.addWidget(self.offset_gap)

    def _chrome_height(self) -> int:
        """The strip's dock title bar and margin: what the dock adds to the strip's hint."""
        dock, viewport = self.strip.parentWidget(), self.strip.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is None or viewport is None:
            return DOCK_MARGIN_PX
        return max(0, dock.height() - viewport.height()) + DOCK_MARGIN_PX

    def fit_text(self) -> None:
        """Ask for the height the wrapped text needs, so a larger font never clips it
        (only a change of that height re-lays out the dock). A text taller than its share
        of the window scrolls, in a view a whole number of lines high, and small enough
        that the strip (title row included) needs no second scroll bar."""
        self.update_compact()
        strip = self.strip
        document = self.text_view.document()
        frame = 2 * self.text_view.frameWidth()
        height = math.ceil(document.size().height()) + frame
        window = strip.window()
        if window is not strip:   # a long text at 300 % scrolls rather than crush the plots
            line = self.text_view.fontMetrics().lineSpacing()
            margins = math.ceil(2 * document.documentMargin())
            cap, lines = int(window.height() * TEXT_MAX_SHARE), 3
            # beside the layers picture the text takes the picture's height instead
            alone = not self.layers_grid.isVisibleTo(strip)
            rest = strip.minimumSizeHint().height() - self.text_view.minimumHeight()
            if self.compact:
                cap = int(window.height() * COMPACT_STRIP_SHARE) - rest - self._chrome_height()
                lines = 2
            elif self.strip_max_share is not None and alone:
                cap = min(cap, int(window.height() * self.strip_max_share) - rest - 8)
            if height > cap:
                least = self.text_view.whole_lines_height(lines * line + margins)  # whole lines
                height = max(least, self.text_view.whole_lines_height(cap - frame)) + frame
        else:
            alone = False
        # a scrolling text no taller than its whole lines: no half line at the bottom
        scrolls = height < math.ceil(document.size().height()) + frame
        tallest = height if alone and scrolls else QWIDGETSIZE_MAX
        view = self.text_view
        if view.viewport().width() > 50 and (height, tallest) != (view.minimumHeight(),
                                                                   view.maximumHeight()):
            view.setMaximumHeight(tallest)
            view.setMinimumHeight(height)
            self.height_wanted()
