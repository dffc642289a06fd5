"""A word-wrapped QLabel that measures each text once (the Real heads tab's texts).

A QLabel lays its text out again for every size question: sizeHint, minimumSizeHint and
heightForWidth each set the text's width, lay it out and measure it, and the next paint lays
it out again at the label's own width. The layout of the tab's texts asks every label again
whenever one of them changes (a layout invalidates all its items), so a new sentence would
lay out the variance table (rich text) some ten times. This label keeps its answers per text,
font and width; a new text or font is measured once.

A shown label's size hint is its own width and its height there: the height its layout asks
for anyway (QLabel's own hint lays the text out at a "golden ratio" width, and the layout
then asks the height at that width too: two more layouts of every new text).

QLabel's own minimum size of wrapped rich text lays the text out at width 0, which for a
table is slow (every cell broken at every character). A label given `minimum_width` (the
variance table's: its owner knows the table's natural width) answers with that width and one
line instead.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel

from gui.common.guard import SUPER, guarded

WIDTHS_KEPT = 8   # heightForWidth answers kept per text


class MeasuredLabel(QLabel):
    """A selectable, word-wrapped QLabel whose size answers are kept (module docstring)."""

    def __init__(self, name: str):
        super().__init__(objectName=name)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._key = None
        self._answers: dict = {}
        self.minimum_width: float | None = None   # see the module docstring

    def set_minimum_width(self, width: float | None) -> None:
        if width != self.minimum_width:
            self.minimum_width = width
            self._key = None
            self.updateGeometry()

    def _answers_now(self) -> dict:
        key = (self.text(), self.font().key(), self.textFormat(), self.wordWrap())
        if key != self._key:
            self._key, self._answers = key, {}
        return self._answers

    @guarded(fallback=SUPER)
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        answers = self._answers_now()
        if "size" not in answers:
            if not self.isVisible():
                answers["size"] = QLabel.sizeHint(self)
            else:   # see the module docstring
                width = max(self.minimumSizeHint().width(), self.width())
                answers["size"] = QSize(width, self.heightForWidth(width))
        return QSize(answers["size"])

    @guarded(fallback=SUPER)
    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        answers = self._answers_now()
        if "minimum" not in answers:
            if self.minimum_width is None:
                answers["minimum"] = QLabel.minimumSizeHint(self)
            else:
                margins = self.contentsMargins()
                answers["minimum"] = QSize(
                    math.ceil(self.minimum_width) + margins.left() + margins.right(),
                    self.fontMetrics().height() + margins.top() + margins.bottom())
        return QSize(answers["minimum"])

    @guarded(fallback=SUPER)
    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt naming)
        answers = self._answers_now()
        heights = answers.setdefault("heights", {})
        if width not in heights:
            if len(heights) >= WIDTHS_KEPT:
                heights.pop(next(iter(heights)))
            heights[width] = QLabel.heightForWidth(self, width)
        return heights[width]
