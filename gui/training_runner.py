"""A training run in a separate process, its snapshots polled onto the GUI thread.

Training is a numpy loop of small arrays: it holds the GIL, so in a thread it would make
the window stutter. TrainingRunner starts engine.training.worker.train_worker in a
"spawn" process and polls its queue with a QTimer at ~30 Hz (get_nowait, never a blocking
get on the GUI thread). Of the items one poll finds, only the newest snapshot is shown;
older ones are dropped, as the request cycle drops stale generations.

    start(name, config_dict)   stops a run in progress, starts a new process
    stop()                     sets the stop event, joins briefly, then terminates
    shutdown()                 stop() and the timer off (the window calls it on close)

Signals (GUI thread): snapshot_ready(Snapshot), result_ready(Result), failed(str),
crashed(int), stopped(). A process that dies without a result (a crash, a kill) is reported by
crashed(exit code).

The options of AppState.training are JSON scalars: options_from_config writes a tuple
field of a config (d_ks, heads, tasks, scales) as a comma-separated string and
config_from_options reads it back, so a session keeps them.
"""
from __future__ import annotations

import multiprocessing
import queue as queue_module
import time

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from engine.training import CONFIGS, config_from_dict
from engine.training.worker import train_worker

POLL_MS = 33            # ~30 Hz
STOP_JOIN_S = 0.3       # after the stop event, before terminate()
ITEMS_PER_POLL = 200    # bounded work per tick; the rest waits for the next one


def _parse_item(text: str, example):
    text = text.strip()
    if isinstance(example, bool):
        if text.lower() not in ("true", "false"):
            raise ValueError(f"{text!r} is not true or false")
        return text.lower() == "true"
    return type(example)(text)


def options_from_config(config) -> dict:
    """A config as JSON scalars: tuple fields become comma-separated strings."""
    out = {}
    for key, value in config.to_dict().items():
        if isinstance(value, list):
            value = ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in value)
        out[key] = value
    return out


def config_from_options(experiment: str, options) -> object:
    """The engine config of `experiment` from AppState.training options (see the module
    docstring); missing keys keep their defaults, bad ones raise TrainingConfigError."""
    defaults = CONFIGS[experiment]().to_dict() if experiment in CONFIGS else {}
    data = {}
    for key, value in dict(options).items():
        default = defaults.get(key)
        if isinstance(default, list) and isinstance(value, str):
            example = default[0] if default else 0
            try:
                value = [_parse_item(v, example) for v in value.split(",") if v.strip()]
            except ValueError as exc:
                from engine.training import TrainingConfigError

                raise TrainingConfigError(f"{key}: {exc}") from None
        data[key] = value
    return config_from_dict(experiment, data)


class TrainingRunner(QObject):
    """One training process at a time (see the module docstring)."""

    snapshot_ready = Signal(object)
    result_ready = Signal(object)
    failed = Signal(str)      # the run raised: "Type: message\ntraceback"
    crashed = Signal(int)     # the process ended without a result: its exit code
    stopped = Signal()

    def __init__(self, parent=None, target=train_worker):
        super().__init__(parent)
        self.setObjectName("trainingRunner")
        self._target = target
        self._context = multiprocessing.get_context("spawn")
        self._process = None
        self._queue = None
        self._stop_event = None
        self._done = False
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.setObjectName("trainingPollTimer")
        self._timer.timeout.connect(self._poll)
        self.snapshots_received = 0
        self.snapshots_shown = 0
        self.started_at = 0.0

    # -- control -----------------------------------------------------------------
    def is_running(self) -> bool:
        return self._process is not None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self, experiment: str, config_dict: dict) -> None:
        """A new run of `experiment` with `config_dict` (config.to_dict()) in a new process."""
        self.stop(announce=False)
        self._queue = self._context.Queue()
        self._stop_event = self._context.Event()
        self._done = False
        self.snapshots_received = self.snapshots_shown = 0
        self._process = self._context.Process(
            target=self._target, args=(experiment, dict(config_dict), self._queue,
                                       self._stop_event),
            name=f"attention-lab-train-{experiment}", daemon=True)
        self.started_at = time.perf_counter()
        self._process.start()
        self._timer.start()

    def stop(self, announce: bool = True) -> None:
        """End the run at once: the stop event, a short join, then terminate()."""
        process = self._process
        if process is None:
            return
        self._timer.stop()
        self._stop_event.set()
        deadline = time.perf_counter() + STOP_JOIN_S
        while process.is_alive() and time.perf_counter() < deadline:
            self._drain()           # a worker blocked on a full pipe could not exit
            process.join(0.02)
        if process.is_alive():
            process.terminate()
            process.join(1.0)
        if process.is_alive():
            process.kill()
            process.join(1.0)
        self._release()
        if announce:
            self.stopped.emit()

    def shutdown(self) -> None:
        self.stop(announce=False)
        self._timer.stop()

    def _release(self) -> None:
        if self._process is not None and not self._process.is_alive():
            self._process.close()
        if self._queue is not None:
            self._queue.close()
            self._queue.cancel_join_thread()
        self._process = self._queue = self._stop_event = None

    def _drain(self) -> list:
        items = []
        while self._queue is not None and len(items) < ITEMS_PER_POLL:
            try:
                items.append(self._queue.get_nowait())
            except queue_module.Empty:
                break
            except (EOFError, OSError, ValueError):
                break
        return items

    # -- polling (GUI thread) ----------------------------------------------------
    @Slot()
    def _poll(self) -> None:
        if self._process is None:
            self._timer.stop()
            return
        exited = not self._process.is_alive()
        items = self._drain()
        newest = None
        for kind, payload in items:
            if kind == "snapshot":
                self.snapshots_received += 1
                newest = payload
            elif kind == "result":
                self._done = True
                if newest is not None:
                    self._show(newest)
                    newest = None
                self._finish()
                self.result_ready.emit(payload)
                return
            elif kind == "error":
                self._done = True
                self._finish()
                self.failed.emit(str(payload))
                return
        if newest is not None:
            self._show(newest)
        if exited and not items:   # the queue is empty and the process is gone: no result
            code = self._process.exitcode
            self._finish()
            self.crashed.emit(-1 if code is None else int(code))

    def _show(self, snapshot) -> None:
        self.snapshots_shown += 1
        self.snapshot_ready.emit(snapshot)

    def _finish(self) -> None:
        self._timer.stop()
        process = self._process
        if process is not None:
            process.join(1.0)
            if process.is_alive():
                process.terminate()
                process.join(1.0)
        self._release()
