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
import re

from typing import Callable

from PySide6.QtGui import QTextCursor, QTextDocumentFragment
from PySide6.QtWidgets import (QDockWidget, QGridLayout, QHBoxLayout, QLabel, QSlider,
                               QVBoxLayout, QWidget)
from gui.common.qt_util import measuring_document

QWIDGETSIZE_MAX = (1 << 24) - 1
#: The step text asks for at most this share of the window's height; the rest scrolls.
TEXT_MAX_SHARE = 0.26
#: A window fewer text lines tall than this (1366×768 and 1280×720 at 250–300 % text) gets
#: the compact strip: the step's title moves into the scrolling text (its first words), out of the
#: button row, and the whole strip (its dock's title bar counted) asks for at most
#: COMPACT_STRIP_SHARE of the window, so that the plots keep more than half of it.
COMPACT_BELOW_LINES = 22
COMPACT_STRIP_SHARE = 0.30
#: In presentation mode the whole strip (its dock's title bar counted) asks for at most
#: this share of the screen: the step's figure keeps the rest.
PRESENTING_STRIP_SHARE = 0.38
#: The window's margin around the strip (MainWindow.fit_lesson_dock adds it to the hint).
DOCK_MARGIN_PX = 8
#: Where a page of a long text may end: after a sentence's end, or at a line break.
SENTENCE_END = re.compile(r"(?<!\.\w)[.!?](?=\s)|[。！？]|(?=[\n\u2028\u2029])")


class StripFit:
    """The text and layout half of the lesson strip `strip`.

    strip            the LessonStrip: its window, font, width, layout and size hint
    top_row          the row of step_label, title_label and `buttons` (Back, Play, Train, Next)
    body             the row of text_view (a LessonText) and layers_grid
    offset_gap       the widget of offset_gap_grid, which holds offset_label,
                     offset_slider, gap_label and gap_slider
    height_wanted    called when the text asks for another height
    pages_changed    called when the pages or the page shown may have changed

    `title` is the step's title (the compact strip puts it at the head of the text) and
    `strip_max_share` the strip's largest share of the window's height (None: no cap).
    """

    def __init__(self, strip: QWidget, *, top_row: QHBoxLayout, step_label: QLabel,
                 title_label: QLabel, buttons: tuple[QWidget, ...], body: QHBoxLayout,
                 text_view, layers_grid: QWidget, offset_gap: QWidget,
                 offset_gap_grid: QGridLayout, offset_label: QLabel, offset_slider: QSlider,
                 gap_label: QLabel, gap_slider: QSlider, height_wanted: Callable[[], None],
                 pages_changed: Callable[[], None] = lambda: None):
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
        #: Presentation mode: the strip may take PRESENTING_STRIP_SHARE of the screen.
        self.presenting = False
        #: The step's text cut into pages (HTML) that fit the strip, and the page shown.
        self.pages: list[str] = []
        self.page = 0
        self.pages_changed = pages_changed
        #: The strip in a window too short for its text size (see COMPACT_BELOW_LINES).
        self.compact = False
        #: … and too narrow for the step number beside the buttons: it heads the text too.
        self.number_in_text = False
        self._body_html = self._shown_prefix = ""
        self._body_key = None
        self._shown_text = None
        self._shown_key = None

    def set_text(self, text: str, key) -> None:
        """Show `text`, the body of step `key`: a new step from its first page, new numbers
        of the same step on the page the reader was on. A text taller than the strip's room
        is cut into pages at sentence ends (fit_text); the lesson's Next and Back turn them."""
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
        if self._shown_key != key:
            self.page = 0
        self._shown_text, self._shown_key = text, key
        self.fit_text()

    def text(self) -> str:
        """The step's whole text, on every page, without markup (and without the title the
        compact strip puts above it)."""
        text = QTextDocumentFragment.fromHtml(self._shown_text or "").toPlainText()
        return text[len(self._shown_prefix):] if text.startswith(self._shown_prefix) else text

    def page_text(self) -> str:
        """The page on screen, without markup."""
        return self.text_view.toPlainText()

    @property
    def page_count(self) -> int:
        return max(1, len(self.pages))

    def show_page(self, page: int) -> None:
        """Turn to `page` (0-based, clamped) of the step's text."""
        page = max(0, min(self.page_count - 1, page))
        if page != self.page:
            self.page = page
            self.text_view.document().setHtml(self.pages[page])
            self.pages_changed()

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

    def _text_room(self) -> tuple[int, int] | None:
        """(the most height the step text may take, the least), in pixels: a share of the
        window (see the constants), or None for a strip without a window."""
        strip = self.strip
        window = strip.window()
        if window is strip:
            return None
        view = self.text_view
        line = view.fontMetrics().lineSpacing()
        margins = math.ceil(2 * view.document().documentMargin())
        cap, lines = int(window.height() * TEXT_MAX_SHARE), 3
        # beside the layers picture the text takes the picture's height instead
        alone = not self.layers_grid.isVisibleTo(strip)
        body = view.minimumHeight() if alone else max(
            view.minimumHeight(), self.layers_grid.minimumSizeHint().height())
        rest = strip.minimumSizeHint().height() - body     # the button row, sliders, margins
        if self.presenting:
            cap = int(window.height() * PRESENTING_STRIP_SHARE) - rest - self._chrome_height()
            lines = 2
        elif self.compact:
            cap = int(window.height() * COMPACT_STRIP_SHARE) - rest - self._chrome_height()
            lines = 2
        elif self.strip_max_share is not None and alone:
            cap = min(cap, int(window.height() * self.strip_max_share) - rest - 8)
        return cap, lines * line + margins

    def fit_text(self) -> None:
        """Lay the step's text out for the strip's room, and ask for the height it needs
        (only a change of that height re-lays out the dock). A text taller than its share
        of the window (_text_room) is cut into pages that fit, each ending at a sentence's
        end where one falls in its second half; the view is as tall as the tallest page."""
        self.update_compact()
        view = self.text_view
        document = view.document()
        frame = 2 * view.frameWidth()
        room = self._text_room()
        document.setHtml(self._shown_text or "")
        height = math.ceil(document.size().height())
        pages = [self._shown_text or ""]
        if room is not None and height + frame > max(room):
            limit = max(room) - frame
            pages = self._cut_pages(limit)
            height = 0
            for page in pages:
                document.setHtml(page)
                height = max(height, math.ceil(document.size().height()))
        paged = len(pages) > 1 or pages[0] is not self._shown_text
        self.pages = pages
        self.page = min(self.page, len(pages) - 1)
        if paged:           # the document holds the last page laid out, or the whole text
            document.setHtml(pages[self.page])
        height += frame
        if view.viewport().width() > 50 and (height, height) != (view.minimumHeight(),
                                                                 view.maximumHeight()):
            view.setMaximumHeight(height)
            view.setMinimumHeight(height)
            self.height_wanted()
        self.pages_changed()

    def _cut_pages(self, limit: float) -> list[str]:
        """The shown text as pages (HTML) no taller than `limit` pixels: each page is as
        many whole lines as fit, cut after the last sentence end (SENTENCE_END) in its
        second half, else after its last whole line. Lays the text out in the view's
        document once per page."""
        document = self.text_view.document()
        pages, rest = [], self._shown_text or ""
        for _ in range(64):                       # a page holds a line at least
            document.setHtml(rest)
            if document.size().height() <= limit:
                pages.append(rest)
                break
            ends = _line_ends(document, limit)
            half = ends[(len(ends) - 1) // 2] if len(ends) > 1 else 0
            plain = document.toPlainText()
            cuts = [ends[-1]] + [m.end() for m in SENTENCE_END.finditer(plain, half, ends[-1])]
            cursor = QTextCursor(document)
            page = None
            for cut in sorted(set(c for c in cuts if c > 0), reverse=True):
                cursor.setPosition(0)
                cursor.setPosition(cut, QTextCursor.MoveMode.KeepAnchor)
                page = cursor.selection()
                if _height_of(page, document) <= limit:
                    break
            cursor.setPosition(cut, QTextCursor.MoveMode.MoveAnchor)
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            following = cursor.selection()
            if following.toPlainText().strip() == "":
                pages.append(rest)
                break
            pages.append(page.toHtml())
            # the next page starts at its first word, not at the space after a full stop
            text = following.toPlainText()
            skip = len(text) - len(text.lstrip())
            if skip:
                cursor.setPosition(cut + skip)
                cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
                following = cursor.selection()
            rest = following.toHtml()
        return pages


def _height_of(fragment: QTextDocumentFragment, like) -> float:
    """The height `fragment` takes laid out as the document `like` lays out its text."""
    document = measuring_document(like)
    document.setHtml(fragment.toHtml())
    return document.size().height()


def _line_ends(document, limit: float) -> list[int]:
    """The document positions where each laid-out line that ends within `limit` pixels
    (the document's margins counted) ends, in order; the first line always."""
    margin = document.documentMargin()
    ends = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        top = layout.position().y()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if top + line.y() + line.height() + margin > limit and ends:
                return ends
            ends.append(block.position() + line.textStart() + line.textLength())
        block = block.next()
    return ends
