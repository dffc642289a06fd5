"""Small Qt helpers shared by the widgets."""
from __future__ import annotations

from contextlib import contextmanager


@contextmanager
def signals_blocked(obj):
    """No signals from `obj` inside the block (Qt's QSignalBlocker: the state it had is
    restored after). superqt has the same helper; importing superqt imports all its widgets
    and qtpy's copies of the Qt modules, a tenth of the window's start-up."""
    from PySide6.QtCore import QSignalBlocker

    with QSignalBlocker(obj):
        yield


@contextmanager
def all_signals_blocked(widgets):
    """signals_blocked for many widgets at once (one context, not one per widget: the
    controls render the state after every change)."""
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


def qt_thread_pools() -> list:
    """Qt's process-wide thread pools: the global one, and QtGui's own (image conversion and
    scaling split across cores there; it is reached through QtGui's exported accessor, and
    left out where that is missing)."""
    from PySide6.QtCore import QThreadPool

    pools = [QThreadPool.globalInstance()]
    try:
        import ctypes

        import PySide6.QtGui as qtgui
        from shiboken6 import Shiboken

        library = ctypes.CDLL(qtgui.__file__)      # the binding, linked to libQt6Gui
        accessor = library._ZN22QGuiApplicationPrivate15qtGuiThreadPoolEv
        accessor.restype = ctypes.c_void_p
        address = accessor()
    except (OSError, AttributeError, ImportError):
        return pools
    if address:
        pools.append(Shiboken.wrapInstance(address, QThreadPool))
    return pools


def end_pooled_threads(wait_ms: int) -> None:
    """Wait up to `wait_ms` for the tasks of Qt's thread pools, then end their idle threads
    (else each ends when it expires, 30 s after its last task)."""
    for pool in qt_thread_pools():
        pool.waitForDone(wait_ms)


def measuring_document(like):
    """An empty QTextDocument laid out as `like` lays out its text (default font, text
    option, margin, style sheet and width), to measure another text in it.

    Not `like.clone()`: PySide6 does not own the document clone() returns, and each one
    stayed in memory (3 800 in 600 actions of the long-use run, ~0.1 MB each)."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setDefaultFont(like.defaultFont())
    document.setDefaultTextOption(like.defaultTextOption())
    document.setDocumentMargin(like.documentMargin())
    document.setDefaultStyleSheet(like.defaultStyleSheet())
    document.setTextWidth(like.textWidth())
    return document
