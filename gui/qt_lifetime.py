"""The Qt side of a Python-owned window is destroyed on the GUI thread, with its Python side whole.

A closed main window that nothing refers to any more is part of reference cycles (its widgets
and their slots refer to each other), so Python's cyclic garbage collector frees it, and
PySide then deletes the C++ widgets in the thread that ran the collection. That can be any
thread that allocates Python objects: a study's worker thread deleting a window aborted the
process ("pure virtual method called"). And by the time the collector deallocates the
wrapper it has already cleared the attributes of the objects in the cycle, so the event
filters and slots Qt calls while it destroys the widgets find them gone.

delete_qt_side(widget), called from the widget's __del__ (which the collector calls before it
clears anything), deletes the C++ widget at once on the GUI thread, or hands the widget to the
GUI thread to do so there (which keeps it alive until then).
"""
from __future__ import annotations

import threading

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, Signal, Slot


class _GuiThreadDeleter(QObject):
    """Lives on the GUI thread; deletes the widgets handed to it from other threads."""

    _handed = Signal()

    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()
        self._pending: list = []
        self._handed.connect(self._delete_pending, Qt.ConnectionType.QueuedConnection)

    def hand(self, widget) -> None:
        with self._lock:
            self._pending.append(widget)
        self._handed.emit()

    @Slot()
    def _delete_pending(self) -> None:
        with self._lock:
            pending, self._pending = self._pending, []
        for widget in pending:
            if shiboken6.isValid(widget):
                shiboken6.delete(widget)


_deleter: _GuiThreadDeleter | None = None


def prepare() -> None:
    """Make the GUI thread's deleter (call on the GUI thread, before any delete_qt_side)."""
    global _deleter
    if _deleter is None:
        _deleter = _GuiThreadDeleter()


def delete_qt_side(widget) -> None:
    """Delete `widget`'s C++ object now if this is the GUI thread, else soon on the GUI thread;
    nothing for a widget Qt owns (it has a parent) or one already deleted, or without an
    application (PySide's own clean-up at exit deletes what is left)."""
    app = QCoreApplication.instance()
    if app is None or not shiboken6.isValid(widget) or not shiboken6.ownedByPython(widget):
        return
    if QThread.currentThread() is app.thread():
        shiboken6.delete(widget)
    elif _deleter is not None:
        _deleter.hand(widget)
