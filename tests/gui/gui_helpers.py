"""Helpers shared by the GUI tests."""
from PySide6.QtWidgets import QApplication


def settle(win):
    """Wait until the newest request has been computed and shown."""
    assert win.model.wait_idle()
    QApplication.processEvents()
    assert win.model.results is not None
    assert win.model.results.params == win.model.params
