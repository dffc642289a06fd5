"""The Training tab's experiment and task boxes: their whole text, wrapped, in a window; one
elided line on a projector (presentation mode keeps the tab's controls in one row)."""
from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QSizePolicy, QStyle, QStyleOptionComboBox, QStylePainter

from gui.common.guard import SUPER, guarded


class WrappingComboBox(QComboBox):
    """A combo box whose current text wraps onto more lines where it is too wide, instead
    of being elided: the experiment names at 300 % text are wider than a 1280 px window's
    Training tab. It asks for the width of its longest text and, narrower, for the height
    of its wrapped text (height for width). With set_wrapping(False) it keeps one line,
    elided where it gets less than that width."""

    WRAP = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap

    def __init__(self, parent=None, **kwargs):
        super().__init__(parent, **kwargs)
        self.wrapping = True
        self._set_policy()
        self.currentTextChanged.connect(self._on_text)

    def _set_policy(self) -> None:
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(self.wrapping)
        self.setSizePolicy(policy)

    def set_wrapping(self, wrapping: bool) -> None:
        if wrapping != self.wrapping:
            self.wrapping = wrapping
            self._set_policy()
            self.updateGeometry()
            self.update()

    @Slot(str)
    def _on_text(self, _text: str) -> None:
        self.updateGeometry()     # another text, another height

    def _option(self, width: int, height: int) -> QStyleOptionComboBox:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        option.rect = QRect(0, 0, width, height)
        return option

    def _field(self, width: int, height: int) -> QRect:
        """The text field of the box at `width` × `height` pixels."""
        return self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox,
                                           self._option(width, height),
                                           QStyle.SubControl.SC_ComboBoxEditField, self)

    def _one_line(self) -> QSize:
        """The base class's size for one line of text at this font."""
        return super().sizeHint()

    def _text_height(self, text: str, field_width: int) -> int:
        return self.fontMetrics().boundingRect(QRect(0, 0, max(1, field_width), 1 << 20),
                                               int(self.WRAP), text).height()

    @guarded(fallback=SUPER)
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        """The width of the longest text (unwrapped: where the row has it; its minimum
        size hint is the base class's, for a few characters, elided)."""
        one = self._one_line()
        chrome = one.width() - self._field(one.width(), one.height()).width()
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(i))
                      for i in range(self.count())), default=0)
        return QSize(max(one.width(), widest + chrome + 2), one.height())

    @guarded(fallback=False)
    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt naming)
        return self.wrapping

    @guarded(fallback=SUPER)
    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt naming)
        one = self._one_line()
        if not self.wrapping:
            return one.height()
        field = self._field(width, one.height())
        extra = self._text_height(self.currentText(), field.width()) - field.height()
        return one.height() + max(0, extra)

    @guarded
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if not self.wrapping:
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        option = self._option(self.width(), self.height())
        text, option.currentText = option.currentText, ""
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self._field(self.width(), self.height())
        painter.drawItemText(field, int(self.WRAP), self.palette(), self.isEnabled(), text,
                             QPalette.ColorRole.ButtonText)
