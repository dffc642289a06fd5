"""Small Qt helpers shared by the widgets."""
from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def all_signals_blocked(widgets):
    """superqt's signals_blocked for many widgets at once (one context, not one per widget:
    the controls render the state after every change)."""
    previous = [widget.blockSignals(True) for widget in widgets]
    try:
        yield
    finally:
        for widget, was_blocked in zip(widgets, previous):
            widget.blockSignals(was_blocked)


def forget_combo_size_hints(root) -> None:
    """Make every QComboBox under `root` measure itself again. After 300 % → 100 % text a
    combo kept the minimum width it had at 300 % (the style's cached measure of its
    contents); polishing it again with a changed style sheet, then its own, renews it."""
    from PySide6.QtWidgets import QComboBox

    for combo in root.findChildren(QComboBox):
        sheet = combo.styleSheet()
        combo.setStyleSheet(sheet + " QComboBox {}")
        combo.setStyleSheet(sheet)
