"""The thread-safe simulation model: current Params in, immutable Results out.

Request cycle (after ndv):
    update(**changes) → validated Params → params_changed → request()
    request(): bump the generation; if the worker is idle, send it the work,
               else keep the request as the single pending one (older pending
               requests are replaced: only the newest waits).
    worker thread: engine.compute(params) → computed(generation, results), queued
    _on_computed (GUI thread): drop stale generations, emit results_ready,
               then start the pending request if there is one.
All model state is touched only on the GUI thread; the worker sees only the
immutable Params it is handed and returns immutable Results.
"""
from __future__ import annotations

import dataclasses
import time
import weakref
import traceback
from typing import Callable

from PySide6.QtCore import QObject, QThread, Signal, Slot

from engine import Params, Results, compute


class ComputeWorker(QObject):
    """Lives on the worker thread; runs one compute per request."""

    computed = Signal(int, object, float)  # generation, Results, seconds
    failed = Signal(int, str)

    def __init__(self, compute_fn: Callable[[Params], Results]):
        super().__init__()
        self._compute = compute_fn

    @Slot(int, object)
    def run(self, generation: int, params: Params) -> None:
        start = time.perf_counter()
        try:
            results = self._compute(params)
        except Exception as exc:  # report, never kill the worker thread
            traceback.print_exc()
            self.failed.emit(generation, f"{type(exc).__name__}: {exc}")
            return
        self.computed.emit(generation, results, time.perf_counter() - start)


class SimulationModel(QObject):
    """Holds the current Params and turns every change into fresh Results."""

    _instances: "weakref.WeakSet[SimulationModel]" = weakref.WeakSet()

    params_changed = Signal(object)   # Params
    results_ready = Signal(object)    # Results, newest generation only
    compute_failed = Signal(str)
    _work_requested = Signal(int, object)

    def __init__(self, params: Params | None = None,
                 compute_fn: Callable[[Params], Results] = compute, parent=None):
        super().__init__(parent)
        self._params = params or Params()
        self._generation = 0
        self._busy = False
        self._pending: tuple[int, Params] | None = None
        self.results: Results | None = None
        self.last_compute_seconds = 0.0
        self.dropped_generations = 0

        self._thread = QThread()
        self._thread.setObjectName("computeThread")
        self._worker = ComputeWorker(compute_fn)
        self._worker.moveToThread(self._thread)
        self._work_requested.connect(self._worker.run)
        self._worker.computed.connect(self._on_computed)
        self._worker.failed.connect(self._on_failed)
        self._thread.finished.connect(self._worker.deleteLater)
        self._thread.start()
        SimulationModel._instances.add(self)

    @classmethod
    def running_threads(cls) -> list[QThread]:
        """Worker threads still running (tests use this to catch a missing shutdown)."""
        alive = []
        for model in list(cls._instances):
            try:
                if model._thread.isRunning():
                    alive.append(model._thread)
            except RuntimeError:  # the C++ side is already gone
                pass
        return alive

    # -- state -------------------------------------------------------------
    @property
    def params(self) -> Params:
        return self._params

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def busy(self) -> bool:
        return self._busy

    def set_params(self, params: Params) -> None:
        """Replace the Params wholesale (session load, lesson step)."""
        if params == self._params and self.results is not None:
            return
        self._params = params
        self.params_changed.emit(params)
        self.request()

    def update(self, **changes) -> Params:
        """Apply field changes; raises ParamsError (nothing changes) if invalid."""
        params = dataclasses.replace(self._params, **changes)
        self.set_params(params)
        return params

    # -- request cycle -----------------------------------------------------
    def request(self) -> int:
        """Ask for Results of the current Params; returns the new generation."""
        self._generation += 1
        if self._pending is not None:
            self.dropped_generations += 1
        self._pending = (self._generation, self._params)
        if not self._busy:
            self._dispatch()
        return self._generation

    def _dispatch(self) -> None:
        generation, params = self._pending
        self._pending = None
        self._busy = True
        self._work_requested.emit(generation, params)

    @Slot(int, object, float)
    def _on_computed(self, generation: int, results: Results, seconds: float) -> None:
        self._busy = False
        if generation == self._generation:
            self.results = results
            self.last_compute_seconds = seconds
            self.results_ready.emit(results)
        else:
            self.dropped_generations += 1
        if self._pending is not None:
            self._dispatch()

    @Slot(int, str)
    def _on_failed(self, generation: int, message: str) -> None:
        self._busy = False
        if generation == self._generation:
            self.compute_failed.emit(message)
        if self._pending is not None:
            self._dispatch()

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        """Process events until no work is running or pending (tests, export)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer

        deadline = QDeadlineTimer(timeout_ms)
        while (self._busy or self._pending is not None) and not deadline.hasExpired():
            QCoreApplication.processEvents()
            QThread.msleep(1)
        return not (self._busy or self._pending is not None)

    def shutdown(self) -> None:
        """Stop the worker thread and wait for it; safe to call twice."""
        if self._thread.isRunning():
            self._work_requested.disconnect(self._worker.run)
            self._thread.quit()
            self._thread.wait()
