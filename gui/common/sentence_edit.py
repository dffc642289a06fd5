"""SentenceEdit: the sentence field of the Head roles and Real heads tabs.

A sentence holds at most SENTENCE_MAX_CHARS characters (AppState refuses more). Longer text
(a pasted page) is cut there by the field's validator, and the cut is said beside the field,
where the user is looking, by its `note` label (placed by the tab, hidden while there is
nothing to say): "Cut to the first 2000 of 25 000 characters". QLineEdit's own maxLength
cut it without a word.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QLabel, QLineEdit

from gui.common.guard import SUPER, guarded
from gui.common.i18n import tr
from gui.state.app_state import SENTENCE_MAX_CHARS


class SentenceLengthValidator(QValidator):
    """Acceptable for any text, cut to `limit` characters; `cut(typed_length)` is emitted
    when it cut one (validate() may change the text: QLineEdit takes the changed text)."""

    cut = Signal(int)

    def __init__(self, limit: int, parent=None):
        super().__init__(parent)
        self.limit = limit

    @guarded(fallback=SUPER)
    def validate(self, text: str, pos: int):
        if len(text) <= self.limit:
            return QValidator.State.Acceptable, text, pos
        self.cut.emit(len(text))
        return QValidator.State.Acceptable, text[:self.limit], min(pos, self.limit)


class SentenceEdit(QLineEdit):
    """A QLineEdit whose text is cut to SENTENCE_MAX_CHARS, saying so in `note` (a QLabel
    the owner lays out beside the field; shown only while a cut text is in the field).
    `cut_note` is that message ("" until a text is cut; cleared by a shorter edit)."""

    def __init__(self, parent=None, objectName: str = ""):   # noqa: N803 (Qt's keyword)
        super().__init__(parent)
        if objectName:
            self.setObjectName(objectName)
        self.cut_note = ""
        self.note = QLabel(objectName=f"{objectName or 'sentence'}CutNote")
        self.note.setWordWrap(True)
        self.note.hide()
        self._validator = SentenceLengthValidator(SENTENCE_MAX_CHARS, self)
        self._validator.cut.connect(self._say_cut)
        self.setValidator(self._validator)
        self.textEdited.connect(self._forget_cut)

    def _say_cut(self, typed: int) -> None:
        self.cut_note = tr("Cut to the first {kept} of {typed} characters").format(
            kept=SENTENCE_MAX_CHARS, typed=typed)
        self.note.setText(self.cut_note)
        self.note.show()

    def _forget_cut(self, text: str) -> None:
        if len(text) < SENTENCE_MAX_CHARS and self.cut_note:
            self.cut_note = ""
            self.note.hide()
            self.note.clear()
