"""measuring_document: a document laid out like another, to measure a text, and freed
when dropped (issue 32: QTextDocument.clone() returns a document PySide6 does not own; the
lesson's pages, the cost notes and the head-roles texts measured with clones kept some
3 800 of them in 600 actions of the long-use run)."""
import gc

from PySide6.QtGui import QFont, QTextDocument, QTextOption

from gui.common.qt_util import measuring_document


def live_documents() -> int:
    gc.collect()
    return sum(isinstance(o, QTextDocument) for o in gc.get_objects())


def test_it_lays_a_text_out_as_the_original_does(qapp):
    original = QTextDocument()
    font = QFont()
    font.setPointSizeF(27.0)
    original.setDefaultFont(font)
    original.setDocumentMargin(2)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    original.setDefaultTextOption(option)
    original.setTextWidth(300)
    text = "<b>Dot products grow</b> with d_k: " + "q and k have d_k components. " * 6
    original.setHtml(text)
    measured = measuring_document(original)
    measured.setHtml(text)
    assert measured.size() == original.size()


def test_it_is_freed_when_dropped(qapp):
    original = QTextDocument()
    before = live_documents()
    for _ in range(50):
        measuring_document(original).setHtml("a text")
    assert live_documents() <= before + 1
