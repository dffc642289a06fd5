"""The lesson's step text: a text browser sized to the height the lesson asks for.

    LessonText.sizeHint / minimumSizeHint   the height set as its minimum (see the class)
    LessonText.whole_lines_height(limit)    the height of the first lines that fit in `limit`
"""
from __future__ import annotations

import math

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QTextBrowser

from gui.common.guard import SUPER, guarded


class LessonText(QTextBrowser):
    """The step's text. Its preferred and minimum size hints are the height it asked for
    (its minimum height): with the wrapping title the strip is laid out height-for-width
    from preferred sizes, and QTextBrowser's default 192 px made the strip taller than
    its dock."""

    @guarded(fallback=SUPER)
    def sizeHint(self):  # noqa: N802 (Qt naming)
        hint = super().sizeHint()
        return QSize(hint.width(), self.minimumHeight())

    @guarded(fallback=SUPER)
    def minimumSizeHint(self):  # noqa: N802 (Qt naming)
        """The layout grows a preferred size to this; the scroll area's 68 px would do
        for a two-line text what the 192 px did."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), self.minimumHeight())

    def whole_lines_height(self, limit: float) -> int:
        """The height of the text's first lines that fit in `limit` pixels, margins counted."""
        document = self.document()
        margin = document.documentMargin()
        best = margin
        block = document.begin()
        while block.isValid():
            layout = block.layout()
            top = layout.position().y()
            for i in range(layout.lineCount()):
                bottom = top + layout.lineAt(i).y() + layout.lineAt(i).height()
                if bottom + margin > limit:
                    return math.ceil(best + margin)
                best = bottom
            block = block.next()
        return math.ceil(best + margin)
