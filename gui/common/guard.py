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
status bar. The last SEEN_KEPT distinct messages are remembered for that: a
message can hold a value that differs on every call, and a list of all of them
grew for as long as the application ran.
"""
from __future__ import annotations

import functools
import logging

from PySide6.QtCore import QObject, Signal

log = logging.getLogger("attention_lab")
SUPER = object()   # fallback: call the overridden base-class method
#: Distinct messages remembered as reported; beyond this the oldest is forgotten (and is
#: reported again should it recur).
SEEN_KEPT = 256


class ErrorReporter(QObject):
    """Carries one-line messages of caught exceptions to whoever shows them."""

    reported = Signal(str)

    def __init__(self):
        super().__init__()
        self.seen: list[str] = []

    def report(self, where: str, exc: BaseException) -> None:
        log.error("error in %s", where, exc_info=exc)
        message = f"{where}: {type(exc).__name__}: {exc}"
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
