"""One guard for every Qt override: an exception never reaches Qt.

With PySide6 6.10 a Python exception that escapes an overridden event handler
(showEvent, changeEvent, resizeEvent, paintEvent, stepBy, …) kills the process.
Every override in gui/ is decorated:

    class Spin(QSpinBox):
        @guarded
        def stepBy(self, steps): ...

        @guarded(fallback=False)
        def eventFilter(self, watched, event): ...

        @guarded(fallback=SUPER)
        def sizeHint(self, *args): ...      # on error: the base class's answer

A caught exception is logged with its traceback, and reported once (per place
and message) through `errors.reported`, which the main window shows in its
status bar.

AppState's events (psygnal) call their listeners synchronously inside the intent that
changed the state. A QObject's method connected to one is decorated too:

    class Sidebar(QWidget):
        @listener
        def sync_from(self, params): ...

    state.events.params.connect(self.sync_from)

psygnal holds a bound method weakly (the connection goes with its object) but knows nothing
of Qt: the decorated method does nothing once its object's C++ side is deleted (a closed
window's widgets, deleteLater) while Python still holds it, and an exception it raises is
reported here and goes no further. Raised, it would end psygnal's emit loop, so the later
listeners (the simulation's request among them) would miss the change, and reach the
intent's caller as an EmitLoopError.

The last SEEN_KEPT distinct messages are remembered for that: a
message can hold a value that differs on every call, and a list of all of them
grew for as long as the application ran.
"""
from __future__ import annotations

import collections
import functools
import logging

import shiboken6
from PySide6.QtCore import QObject, Signal

log = logging.getLogger("attention_lab")
SUPER = object()   # fallback: call the overridden base-class method
#: Distinct messages remembered as reported; beyond this the oldest is forgotten (and is
#: reported again should it recur).
SEEN_KEPT = 256
#: Messages kept in ErrorReporter.recent.
RECENT_KEPT = 64


class ErrorReporter(QObject):
    """Carries one-line messages of caught exceptions to whoever shows them."""

    reported = Signal(str)

    def __init__(self):
        super().__init__()
        self.seen: list[str] = []
        #: Every exception caught, repeats included (the tests fail on a new one), and
        #: the messages of the newest RECENT_KEPT.
        self.count = 0
        self.recent: collections.deque = collections.deque(maxlen=RECENT_KEPT)

    def report(self, where: str, exc: BaseException) -> None:
        log.error("error in %s", where, exc_info=exc)
        message = f"{where}: {type(exc).__name__}: {exc}"
        self.count += 1
        self.recent.append(message)
        if message not in self.seen:
            self.seen.append(message)
            del self.seen[:-SEEN_KEPT]
            self.reported.emit(message)


errors = ErrorReporter()


def _defining_class(instance, function):
    for cls in type(instance).__mro__:
        if cls.__dict__.get(function.__name__) is function:
            return cls
    return type(instance)


def guarded(method=None, *, fallback=None):
    """Decorator for Qt overrides (see the module docstring). The result is a plain
    function, so PySide still sees the override."""
    if method is None:
        return functools.partial(guarded, fallback=fallback)

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            where = f"{type(self).__name__}.{method.__name__}"
            errors.report(where, exc)
            if fallback is not SUPER:
                return fallback
            try:
                base = super(_defining_class(self, call), self)
                return getattr(base, method.__name__)(*args, **kwargs)
            except Exception as again:
                errors.report(where + " (base)", again)
                return None

    call.guarded = True
    return call


def guard_call(where: str, fn, *args, **kwargs):
    """Run fn(*args, **kwargs); on an exception report it and return None (one failing
    panel or step must not stop the others)."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        errors.report(where, exc)
        return None


def listener(method):
    """Decorator for a QObject's method connected to an AppState event (see the module
    docstring): not called once the object's C++ side is deleted; an exception is reported,
    never raised into the emitting intent. Returns None then."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        if not shiboken6.isValid(self):
            return None
        try:
            return method(self, *args, **kwargs)
        except Exception as exc:
            errors.report(f"{type(self).__name__}.{method.__name__}", exc)
            return None

    call.listener = True
    return call
