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
