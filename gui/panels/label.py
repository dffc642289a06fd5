"""Plain-text labels drawn by Qt itself, for text that changes on every result."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsSimpleTextItem


class Label(QGraphicsRectItem):
    """Text at a point of its parent's coordinates, in screen pixels whatever the view's scale.

    `anchor` = (ax, ay) picks the point of the text box that sits at pos(): (0, 0) top left,
    (0.5, 1) bottom centre. The box itself is the optional backing fill. Unlike
    pyqtgraph's TextItem (a QGraphicsTextItem with a transform recomputed before every
    paint), setting the text lays out one line per row and painting runs no Python."""

    MARGIN = 3.0  # around the text, inside the anchored box (as QGraphicsTextItem's margin)

    def __init__(self, anchor=(0.0, 0.0), parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self._text_item = QGraphicsSimpleTextItem(self)
        self._metrics = QFontMetricsF(self._text_item.font())
        self._advances: dict[str, float] = {}   # line → width in this font
        self._anchor = (float(anchor[0]), float(anchor[1]))
        self._text = ""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt naming)
        if text == self._text:
            return
        self._text = text
        self._text_item.setText(text)
        self._place()

    def width_of(self, text: str) -> float:
        """Width the box would take for `text` (its widest line), in pixels."""
        return max(self.advance(line) for line in text.split("\n")) + 2 * self.MARGIN

    def advance(self, line: str) -> float:
        """The width of one line of text in this label's font, in pixels (remembered: a
        layout measures the same few labels on every result)."""
        width = self._advances.get(line)
        if width is None:
            if len(self._advances) > 1024:
                self._advances.clear()
            width = self._advances[line] = self._metrics.horizontalAdvance(line)
        return width

    def toPlainText(self) -> str:  # noqa: N802 (same name as QGraphicsTextItem, tests read it)
        return self._text

    def setColor(self, colour) -> None:  # noqa: N802
        self._text_item.setBrush(QColor(colour))

    def setFont(self, font: QFont) -> None:  # noqa: N802
        self._text_item.setFont(font)
        self._metrics = QFontMetricsF(font)
        self._advances.clear()
        self._place()

    def setFill(self, brush: QBrush) -> None:  # noqa: N802
        """A box behind the text (keeps it readable over lines); NoBrush for none."""
        self.setBrush(brush)

    def dataBounds(self, *_args, **_kwargs):  # noqa: N802 (pyqtgraph: never auto-range on text)
        return [None, None]

    def _place(self) -> None:
        text = self._text_item.boundingRect()
        m = self.MARGIN
        box = QRectF(0, 0, text.width() + 2 * m, text.height() + 2 * m)
        ax, ay = self._anchor
        box.moveTo(-ax * box.width(), -ay * box.height())
        self._text_item.setPos(box.topLeft() + QPointF(m, m))
        self.setRect(box)
