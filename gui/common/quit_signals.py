"""Ctrl-C (SIGINT) and SIGTERM in the terminal close the window as File → Quit does.

Python runs a signal handler only when the interpreter next runs, and Qt's event loop runs
no Python while it waits: Ctrl-C did nothing until some timer ran Python, and then raised
KeyboardInterrupt in the middle of whatever that was (a traceback, the window still open).
Here the C-level handler writes the signal's number to a socket (signal.set_wakeup_fd),
a QSocketNotifier wakes the event loop, and the slot asks the window to close. A second
signal while the window is closing quits the event loop at once.

    guard = QuitOnSignals(window.close)     # after the window is built
    ...
    guard.uninstall()                       # the handlers as they were
"""
from __future__ import annotations

import signal
import socket
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, QSocketNotifier, Slot

#: The signals that close the window.
QUIT_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class QuitOnSignals(QObject):
    """Calls `close()` on the first of QUIT_SIGNALS, quits the event loop on the next."""

    def __init__(self, close: Callable[[], object], signals=QUIT_SIGNALS, parent=None):
        super().__init__(parent)
        self._close = close
        self.received: list[int] = []
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno())
        self._previous = {number: signal.signal(number, self._on_signal) for number in signals}
        self.notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._wake)

    def _on_signal(self, _signum, _frame) -> None:
        """Python's handler does nothing: it replaces the default one, which raised
        KeyboardInterrupt; the C-level handler has written the signal to the socket."""

    @Slot()
    def _wake(self) -> None:
        """The socket holds one byte, the signal's number, per signal received."""
        try:
            while data := self._reader.recv(64):
                self.received += [number for number in data if number in self._previous]
        except (BlockingIOError, InterruptedError):
            pass
        if not self.received:
            return
        if len(self.received) == 1:
            self._close()
        else:                      # Ctrl-C again while closing: no more waiting
            QCoreApplication.quit()

    def uninstall(self) -> None:
        """Put back the handlers and the wakeup fd that were there before."""
        self.notifier.setEnabled(False)
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        signal.set_wakeup_fd(self._previous_fd)
        self._reader.close()
        self._writer.close()


class DeferredInterrupt:
    """Ctrl-C during a batch that runs Qt (export, screenshots): the interrupt is kept and
    raised by check(), which the batch calls between its steps, in plain Python. Raised
    where it arrives it would land in a Qt callback (a timer's slot), where PySide6 prints
    the traceback and carries on.

        with DeferredInterrupt() as interrupt:
            for panel in panels:
                ...
                interrupt.check()       # KeyboardInterrupt here, if Ctrl-C was pressed
    """

    def __init__(self, signals=(signal.SIGINT,)):
        self._signals = signals
        self._previous: dict = {}
        self.received = False

    def _on_signal(self, _signum, _frame) -> None:
        self.received = True

    def check(self) -> None:
        if self.received:
            raise KeyboardInterrupt

    def __enter__(self) -> "DeferredInterrupt":
        self._previous = {number: signal.signal(number, self._on_signal)
                          for number in self._signals}
        return self

    def __exit__(self, *_exc) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        self.check()
