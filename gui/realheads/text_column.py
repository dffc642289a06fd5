"""The Real heads tab's texts, in a scroll area of their own (modelHeadsTextScroll): the
Japanese note (a Japanese sentence: MiniLM is English-only), the role summary, the score
variance table per layer, the scores of the head in focus, and what the compared heads are.

The texts scroll: at 300 % text they would otherwise squeeze the maps to nothing. The
variance table has a column per layer, or a row per layer when those columns are wider
than the column (fit_variance); the chosen table's natural width is its label's minimum
(MeasuredLabel). The texts come from gui.realheads.texts; this column only places them.
"""
from __future__ import annotations

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget

from gui.common.i18n import tr
from gui.realheads.label import MeasuredLabel
from gui.realheads.texts import japanese_note, summary_html, variance_html, variance_table

TABLE_WIDTHS_KEPT = 4    # natural widths of variance tables kept (per table and font)


class TextColumn(QScrollArea):
    """The tab's texts (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent, objectName="modelHeadsTextScroll")
        self.japanese_note = MeasuredLabel("modelJapaneseNote")
        self.summary_label = MeasuredLabel("modelRoleSummary")
        self.variance_label = MeasuredLabel("scoreVarianceTable")
        self.variance_label.setTextFormat(self.variance_label.textFormat().RichText)
        self.scores_label = MeasuredLabel("headScoresLabel")
        self.compare_label = MeasuredLabel("modelCompareNote")
        self._table_widths: dict = {}   # (table, font) → natural width, the last few
        texts = QWidget(objectName="modelHeadsTexts")
        column = QVBoxLayout(texts)
        column.setContentsMargins(2, 2, 2, 2)
        # The Japanese note heads the texts: above the maps it took their room at 300 % text.
        for label in self.labels:
            column.addWidget(label)
        column.addStretch(1)
        self.setWidget(texts)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)

    @property
    def labels(self) -> tuple:
        return (self.japanese_note, self.summary_label, self.variance_label, self.scores_label,
                self.compare_label)

    def show_result(self, r) -> None:
        """The summary, the variance table and the Japanese note of a ModelHeadsResult (or
        the note alone while there is none)."""
        if r is None or r.forward is None:
            self.japanese_note.setText(japanese_note(None))
            return
        self.summary_label.setText(summary_html(r))
        self.fit_variance(r)
        self.japanese_note.setText(japanese_note(r))

    def clear(self) -> None:
        for label in (self.summary_label, self.scores_label, self.variance_label):
            label.clear()

    def fit_variance(self, r, fallback_width: int = 0) -> None:
        """The variance table with a column per layer, or a row per layer when those
        columns are wider than the texts' area (twelve layers at 300 %: about 1000 px)."""
        if r is None or r.forward is None:
            return
        room = self.viewport().width() or fallback_width
        margins = self.widget().layout().contentsMargins()
        by_rows = self._table_width(r, False) > room - margins.left() - margins.right() - 2
        self.variance_label.set_minimum_width(self._table_width(r, by_rows))
        text = variance_html(r, by_rows=by_rows)
        if text != self.variance_label.text():
            self.variance_label.setText(text)

    def _table_width(self, r, by_rows: bool) -> float:
        """The natural width of the variance table in the label's font (kept per table)."""
        key = (variance_table(r, by_rows), self.variance_label.font().key())
        if key not in self._table_widths:
            if len(self._table_widths) >= TABLE_WIDTHS_KEPT:
                self._table_widths.clear()
            document = QTextDocument()
            document.setDefaultFont(self.variance_label.font())
            document.setHtml(key[0])
            self._table_widths[key] = document.idealWidth()
        return self._table_widths[key]

    def retranslate(self) -> None:
        self.compare_label.setText(tr(
            "Beside the pretrained grid: the heads trained from scratch in the Training tab "
            "(“Heads specialise”) and the hand-built heads of the “Head roles” tab, scored by "
            "the same role detector and tinted in the same colours. Click one to see it up "
            "close."))
