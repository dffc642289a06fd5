"""How a Python-owned window goes: with its last reference, its Qt side destroyed on the GUI thread.

A window's children must not refer back to it strongly through Python (weak_method for the
callables it hands them): then the window is freed as soon as nothing refers to it, on the
thread that dropped it. A window that is in a reference cycle anyway is freed by Python's
cyclic garbage collector, and PySide then deletes the C++ widgets in the thread that ran the
collection, which can be any thread that allocates Python objects: a study's worker thread
deleting a window aborted the process ("pure virtual method called"). And by then the
collector has cleared the attributes of the objects in the cycle, so the event filters and
slots Qt calls while it destroys the widgets find them gone.

delete_qt_side(widget), called from the widget's __del__ (which the collector calls before it
clears anything), deletes the C++ widget at once on the GUI thread, or hands the widget to the
GUI thread to do so there (which keeps it alive until then).

That covers the window; any other widget in a cycle (a dialog, a tab, a plot) is just as
exposed, and a C++ widget destroyed on a worker thread while the GUI thread walks the
application's widget list crashes it. GuiThreadCollector closes that door for every object:
Python's automatic collection is switched off, and a timer on the GUI thread collects each
generation once its count passes the threshold the automatic collection would have used
(as pyqtgraph's GarbageCollector does). Worker threads then never run the collector.
"""
from __future__ import annotations

import gc
import threading
import weakref

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal, Slot


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


def weak_method(method):
    """`method` (a bound method) as a callable that does not keep its object alive: None once
    the object is gone. For callables a window hands its own children (a lazy tab's factory,
    the lesson's context): held there, a bound method of the window closes a reference cycle,
    and the window then waits for the cyclic collector instead of going with its last
    reference."""
    ref = weakref.WeakMethod(method)

    def call(*args, **kwargs):
        bound = ref()
        return None if bound is None else bound(*args, **kwargs)

    call.__name__ = call.__qualname__ = method.__name__
    return call


class GuiThreadCollector(QObject):
    """Python's cyclic garbage collection, run only on the GUI thread (module docstring).

    install() switches automatic collection off and checks gc.get_count() every
    `interval_ms`: generation g is collected when its count exceeds gc.get_threshold()[g]
    (younger generations first, as the automatic collection does). uninstall() stops the
    timer and switches automatic collection back on (if install() switched it off)."""

    INTERVAL_MS = 100

    def __init__(self, parent=None, interval_ms: int = INTERVAL_MS):
        super().__init__(parent)
        self.setObjectName("guiThreadCollector")
        self._timer = QTimer(self, interval=interval_ms, objectName="guiThreadCollectorTimer")
        self._timer.timeout.connect(self.collect_due)
        self._was_enabled = False

    def install(self) -> None:
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer.start()

    def uninstall(self) -> None:
        self._timer.stop()
        if self._was_enabled:
            gc.enable()

    @Slot()
    def collect_due(self) -> None:
        """Collect the generations whose counts passed their thresholds (GUI thread)."""
        thresholds, counts = gc.get_threshold(), gc.get_count()
        for generation in range(3):
            if counts[generation] <= thresholds[generation]:
                break
            gc.collect(generation)


_collector: GuiThreadCollector | None = None


def collect_on_gui_thread(app) -> GuiThreadCollector:
    """The application's GuiThreadCollector, installed (once; call on the GUI thread)."""
    global _collector
    if _collector is None:
        _collector = GuiThreadCollector(app)
        _collector.install()
    return _collector
