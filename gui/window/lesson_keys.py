"""The lesson's keys, and who gets a key when a control has focus.

    PageDown, PageUp   next and previous step, whatever has focus (a clicker sends these)
    →, ←               next and previous step when the focused widget does not use the
                       arrow keys itself (see `uses_arrows`); else the control gets them
    B, .               blank the screen (B or Esc brings it back)
    Esc                the blank screen goes, else presentation mode ends

While the lesson strip is hidden the lesson is not on screen: its step keys do nothing,
and every key goes to the focused control.

Qt gives a key to a shortcut before the focused widget sees it, so a window-wide arrow
shortcut took → away from a focused slider. `LessonKeys` switches the arrow shortcuts off
while a control that uses the arrows has focus (QApplication.focusChanged: nothing runs on
a key press). In presentation mode with the controls hidden the arrows step the lesson
unless the focus is in a text field (a typed sentence keeps its cursor keys).
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QAbstractSlider, QAbstractSpinBox,
                               QApplication, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit,
                               QWidget)

#: Widgets whose own keys include the arrows (a focused one keeps them).
ARROW_CONTROLS = (QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QTextEdit,
                  QPlainTextEdit, QAbstractItemView)


def uses_arrows(widget: QWidget | None) -> bool:
    """Does the focused `widget` use the arrow keys itself (a slider, spin box, combo box,
    text field, list)? A read-only text or a button does not."""
    if widget is None or not isinstance(widget, ARROW_CONTROLS):
        return False
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return True


def types_text(widget: QWidget | None) -> bool:
    """Is `widget` a field the user types into (its arrows move the text cursor)?"""
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, (QTextEdit, QPlainTextEdit)):
        return not widget.isReadOnly()
    return isinstance(widget, (QLineEdit, QAbstractSpinBox))


class LessonKeys(QObject):
    """The lesson's QShortcuts on `window` (see the module docstring).

    `lesson` gives next and back, `window` toggle_blank and on_escape; `presenting()` and
    `lesson_shown()` say whether presentation mode is on with the controls hidden, and
    whether the lesson strip is shown. `shortcuts` and `slots` (what each does, in order:
    "next", "back", "next_arrow", "back_arrow", "toggle_blank") are what Help → Keyboard
    shortcuts lists."""

    def __init__(self, window: QWidget, lesson, presenting, lesson_shown):
        super().__init__(window)
        self.setObjectName("lessonKeys")
        self._presenting = presenting
        self._lesson_shown = lesson_shown
        steps = ((Qt.Key.Key_PageDown, lesson.next), (Qt.Key.Key_PageUp, lesson.back))
        arrows = ((Qt.Key.Key_Right, lesson.next), (Qt.Key.Key_Left, lesson.back))
        blank = ((Qt.Key.Key_B, window.toggle_blank), (Qt.Key.Key_Period, window.toggle_blank))
        self.shortcuts, self.slots = [], []
        self.step_shortcuts, self.arrow_shortcuts = [], []
        for group, pairs, suffix in ((self.step_shortcuts, steps, ""),
                                     (self.arrow_shortcuts, arrows, "_arrow"), (None, blank, "")):
            for key, slot in pairs:
                shortcut = QShortcut(QKeySequence(key), window)
                shortcut.activated.connect(slot)
                self.shortcuts.append(shortcut)
                self.slots.append(slot.__name__ + suffix)
                if group is not None:
                    group.append(shortcut)
        self.escape_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self.escape_shortcut.activated.connect(window.on_escape)
        QApplication.instance().focusChanged.connect(self._on_focus)
        self.update()

    @Slot("QWidget*", "QWidget*")
    def _on_focus(self, _old, _new) -> None:
        self.update()

    def arrows_step(self, focus: QWidget | None) -> bool:
        """Do → and ← step the lesson while `focus` has the keyboard focus?"""
        if self._presenting():
            return not types_text(focus)
        return not uses_arrows(focus)

    @Slot()
    def update(self) -> None:
        """Switch the step and arrow shortcuts on or off for the lesson strip and the focus."""
        shown = bool(self._lesson_shown())
        arrows = shown and self.arrows_step(QApplication.focusWidget())
        for shortcut in self.step_shortcuts:
            if shortcut.isEnabled() != shown:
                shortcut.setEnabled(shown)
        for shortcut in self.arrow_shortcuts:
            if shortcut.isEnabled() != arrows:
                shortcut.setEnabled(arrows)

    def disconnect_focus(self) -> None:
        """Stop following the application's focus (the window is closing)."""
        try:
            QApplication.instance().focusChanged.disconnect(self._on_focus)
        except (RuntimeError, TypeError):
            pass
