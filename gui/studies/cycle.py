"""One request cycle for every study (after ndv's futures and generations).

A study is a pure function `compute(request) -> result` on immutable values: the
simulation (Params → Results), the head roles (HeadsInput → HeadsResult), and
later training and model attention. Each study gets a StudyCycle with a worker
thread of its own, so a slow study never holds another back:

    request(req): bump the generation; an idle worker gets the request at once,
                  a busy one keeps it as the single pending request (a newer
                  request replaces it: only the newest waits).
    worker:       compute(req) → computed(generation, result, seconds), queued
    deliver:      (GUI thread) drop stale generations, emit result_ready(result),
                  then send the pending request if there is one.
    set_result_gate(gate): a computed result goes to gate.offer(cycle, generation,
                  result, seconds) instead, and waits there until the gate calls
                  cycle.deliver(...); meanwhile the study counts as busy (a newer request
                  waits as the pending one) and `is_stale(generation)` says whether a
                  newer request has been made.

Everything but `compute` runs on the GUI thread; the worker sees only the
immutable request it is handed.

Synchronous mode (tests that only need results, after ndv's synchronously resolved
futures): `StudyCycle(..., synchronous=True)`, or `StudyCycle.synchronous = True` before the
cycle is made, starts no thread. The worker stays on the GUI thread and gets each request
through a queued call, so `compute` runs on the GUI thread when its event loop next turns
(wait_idle, qtbot.wait, processEvents) and its result is delivered at once: the same
generations, the single pending request and the gate's offer() as the threaded mode, in the
same order (a request made while the window is built is answered after it is built).
"""
from __future__ import annotations

import time
import traceback
from typing import Callable

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QObject, Qt, QThread, Signal, Slot


#: How long shutdown() waits for a worker inside a compute (the window's close).
SHUTDOWN_WAIT_MS = 1500
#: (thread, worker) of cycles shut down while their compute still ran; each is dropped at a
#: later shutdown once its thread has finished.
_ABANDONED: list = []


def _forget_abandoned() -> None:
    _ABANDONED[:] = [(thread, worker) for thread, worker in _ABANDONED if thread.isRunning()]


class StudyError(RuntimeError):
    """A failure a study expects and describes fully in its message (a child process that
    stalled or died): `failed` carries the message alone, and no traceback is printed."""


class StudyWorker(QObject):
    """Lives on the study's thread; runs one compute per request."""

    computed = Signal(int, object, float)  # generation, result, seconds
    failed = Signal(int, str)

    def __init__(self, compute: Callable):
        super().__init__()
        self._compute = compute

    @Slot(int, object)
    def run(self, generation: int, request) -> None:
        start = time.perf_counter()
        try:
            result = self._compute(request)
        except StudyError as exc:
            self.failed.emit(generation, str(exc))
            return
        except Exception as exc:  # report, never kill the worker thread
            traceback.print_exc()
            self.failed.emit(generation, f"{type(exc).__name__}: {exc}")
            return
        self.computed.emit(generation, result, time.perf_counter() - start)


class StudyCycle(QObject):
    """Requests in, the newest result out (see the module docstring)."""

    result_ready = Signal(object)   # the newest generation's result only
    failed = Signal(str)
    _work_requested = Signal(int, object)

    #: The mode of cycles made without `synchronous=` (see the module docstring).
    synchronous = False

    def __init__(self, name: str, compute: Callable, parent=None,
                 synchronous: bool | None = None):
        super().__init__(parent)
        if synchronous is not None:
            self.synchronous = synchronous
        self.setObjectName(f"{name}Study")
        self.name = name
        self._generation = 0
        self._busy = False
        self._pending: tuple[int, object] | None = None
        self.request_shown = None        # the request whose result is `result`
        self.result = None
        self.last_seconds = 0.0
        self.dropped_generations = 0
        self._worker = StudyWorker(compute)
        self._gate = None
        self._worker.computed.connect(self._on_computed)
        self._worker.failed.connect(self._on_failed)
        self._requests: dict[int, object] = {}
        self._open = True              # until shutdown()
        self._thread = None
        if self.synchronous:
            self._worker.setParent(self)
            self._work_requested.connect(self._run_here, Qt.ConnectionType.QueuedConnection)
        else:
            self._thread = QThread()
            self._thread.setObjectName(f"{name}Thread")
            self._worker.moveToThread(self._thread)
            self._work_requested.connect(self._worker.run)
            self._thread.finished.connect(self._worker.deleteLater)
            self._thread.start()

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def thread(self) -> QThread:
        """The worker thread that runs `compute`."""
        return self._thread

    @property
    def busy(self) -> bool:
        return self._busy

    @property
    def idle(self) -> bool:
        return not self._busy and self._pending is None

    def request(self, request) -> int:
        """Ask for the result of `request`; returns its generation."""
        self._generation += 1
        if self._pending is not None:
            self.dropped_generations += 1
        self._pending = (self._generation, request)
        if not self._busy:
            self._dispatch()
        return self._generation

    def _dispatch(self) -> None:
        generation, request = self._pending
        self._pending = None
        self._busy = True
        self._requests = {generation: request}
        self._work_requested.emit(generation, request)

    def set_result_gate(self, gate) -> None:
        """Route computed results through `gate` (see the module docstring); None: none."""
        self._gate = gate

    def is_stale(self, generation: int) -> bool:
        return generation != self._generation

    @Slot(int, object, float)
    def _on_computed(self, generation: int, result, seconds: float) -> None:
        if self._gate is not None:
            self._gate.offer(self, generation, result, seconds)
        else:
            self.deliver(generation, result, seconds)

    def deliver(self, generation: int, result, seconds: float) -> None:
        """A computed result reaches the GUI: the newest generation's is shown."""
        if not self._busy:    # a gate handing on a result after shutdown() or twice
            return
        self._busy = False
        if generation == self._generation:
            self.result = result
            self.request_shown = self._requests.get(generation)
            self.last_seconds = seconds
            self.result_ready.emit(result)
        else:
            self.dropped_generations += 1
        if self._pending is not None:
            self._dispatch()

    @Slot(int, str)
    def _on_failed(self, generation: int, message: str) -> None:
        self._busy = False
        if generation == self._generation:
            self.failed.emit(message)
        if self._pending is not None:
            self._dispatch()

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        """Process events until no work is running or pending (tests, export). Sleeps
        between looks, so the worker is not starved of the GIL."""
        deadline = QDeadlineTimer(timeout_ms)
        while not self.idle and not deadline.hasExpired():
            QCoreApplication.processEvents()
            QThread.msleep(1)
        QCoreApplication.processEvents()
        return self.idle

    @Slot(int, object)
    def _run_here(self, generation: int, request) -> None:
        """Synchronous mode: the worker's run, on the GUI thread, unless shut down since."""
        if self._open:
            self._worker.run(generation, request)

    def is_running(self) -> bool:
        try:
            if self._thread is None:
                return self._open
            return self._thread.isRunning()
        except RuntimeError:   # the C++ side is already gone
            return False

    def shutdown(self, wait_ms: int | None = None) -> bool:
        """Stop the worker thread and wait for it, at most `wait_ms` (SHUTDOWN_WAIT_MS);
        safe to call twice. True when it has stopped. A thread still inside `compute` after
        that is let go: kept alive in _ABANDONED until its compute returns and it ends (a
        QThread destroyed while running aborts the process), and its result is dropped."""
        if not self.is_running():
            return True
        self._open = False
        if self._thread is None:
            self._work_requested.disconnect(self._run_here)
            return True
        self._work_requested.disconnect(self._worker.run)
        self._thread.quit()
        limit = SHUTDOWN_WAIT_MS if wait_ms is None else wait_ms
        if self._thread.wait(QDeadlineTimer(limit)):
            return True
        self._worker.computed.disconnect(self._on_computed)
        self._worker.failed.disconnect(self._on_failed)
        _forget_abandoned()
        _ABANDONED.append((self._thread, self._worker))
        return False
