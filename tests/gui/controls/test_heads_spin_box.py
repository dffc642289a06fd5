"""The heads box (HeadsSpinBox) without a window: pasted text is refused or snapped, never
an error (the autouse guard fixture fails a test whose box reported one)."""
import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QValidator

from gui.controls.spins import HeadsSpinBox


@pytest.fixture(params=[QLocale.Language.English, QLocale.Language.Japanese])
def box(request, qtbot):
    """The app's own locales: both read "," as a group separator."""
    box = HeadsSpinBox(span=(1, 4096))
    box.setLocale(QLocale(request.param))
    box.set_allowed([1, 2, 4, 8, 16])
    box.setValue(8)
    qtbot.addWidget(box)
    return box


@pytest.mark.parametrize("text", ["10,1,1,1", "1,6", "1,000"])
def test_a_pasted_list_or_grouped_number_is_refused(box, text):
    assert box.validate(text, 0)[0] == QValidator.State.Invalid
    box.lineEdit().selectAll()
    box.lineEdit().insert(text)                 # a paste: the validator refuses it
    assert box.value() == 8


@pytest.mark.parametrize("text, state", [("16", QValidator.State.Acceptable),
                                         ("3", QValidator.State.Intermediate),
                                         ("99999999999999999999", QValidator.State.Invalid),
                                         ("1e400", QValidator.State.Invalid)])
def test_typed_numbers_are_allowed_snapped_or_refused(box, text, state):
    assert box.validate(text, 0)[0] == state
