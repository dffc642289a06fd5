"""SentenceEdit: a pasted text longer than SENTENCE_MAX_CHARS is cut there and the cut is
said under the field; the tabs' state takes the cut sentence (the autouse guard fixture
fails a test whose state refused a sentence)."""
from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget

from gui.common.sentence_edit import SentenceEdit
from gui.state.app_state import SENTENCE_MAX_CHARS
from tab_fixtures import dispose

LONG = "word " * 5000             # 25 000 characters


def test_a_long_paste_is_cut_and_the_cut_is_said(qtbot):
    box = QWidget()
    edit = SentenceEdit(objectName="sentenceEdit")
    row = QHBoxLayout(box)
    row.addWidget(edit)
    row.addWidget(edit.note)
    qtbot.addWidget(box)
    box.show()
    seen = []
    edit.textChanged.connect(seen.append)
    edit.insert(LONG)                           # what a paste does
    assert edit.text() == LONG[:SENTENCE_MAX_CHARS]
    assert [len(text) for text in seen] == [SENTENCE_MAX_CHARS]
    assert edit.cut_note == f"Cut to the first {SENTENCE_MAX_CHARS} of {len(LONG)} characters"
    assert edit.note.isVisible() and edit.note.text() == edit.cut_note
    edit.selectAll()
    edit.insert("A cat.")
    assert edit.text() == "A cat." and edit.cut_note == "" and not edit.note.isVisible()


def test_the_head_roles_tab_takes_the_cut_sentence(qtbot):
    from gui.headroles.tab import HeadRolesTab

    tab = HeadRolesTab()
    qtbot.addWidget(tab)
    tab.show()
    try:
        tab.sentence_edit.selectAll()
        tab.sentence_edit.insert(LONG)
        assert tab.wait_idle()
        QApplication.processEvents()
        assert tab.state.heads_input.sentence == LONG[:SENTENCE_MAX_CHARS]
        assert tab.sentence_edit.note.isVisible()
        assert tab.sentence_edit.note.text().startswith("Cut to the first")
    finally:
        dispose(tab)
