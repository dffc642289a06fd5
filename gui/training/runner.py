"""A training run in a separate process, its snapshots read onto the GUI thread.

Training is a numpy loop of small arrays: it holds the GIL, so in a thread it would make
the window stutter. TrainingRunner starts engine.training.worker.pipe_worker in a "spawn"
process, at a lower priority (os.nice and Linux's SCHED_IDLE in the child), sending a snapshot every
SNAPSHOT_PERIOD_S of wall clock. The items come over a one-way pipe; a QSocketNotifier
on its reading end wakes the GUI thread only when a message has arrived (no polling
timer). Of the messages one wake-up finds, only the newest snapshot is unpickled and
shown; older ones are dropped, as the request cycle drops stale generations. The end of
the pipe (the process exited, or was killed) is noticed the same way.

TrainingRunner is a Study (gui/studies/protocol.py) the LabController owns from the start and
hands to the Training tab: its request is start(experiment, config_dict), its result_ready
the run's engine Result, and between the two it streams snapshot_ready(TrainingSnapshot) of
the run in progress (the newest only, see above); is_running() is whether a run's process
exists, shutdown() ends it.

While the simulation works, snapshots are held: the messages are still read off the pipe
(the training process never blocks on it), but only the newest one is kept, undecoded, and
it is decoded and shown once the simulation has been quiet for HOLD_S. The window calls
hold_snapshots() when a d_k/h change is asked and after its result has been shown, and
hold_while_busy(its study): no snapshot is shown while that study computes or has a request
waiting, however long the change takes. Drawing a snapshot (maps, curves, progress bar)
competes with a change for the GUI thread (benchmarks/training_ui.py measures it). While it
holds, the training process pauses too, off the CPU (its run flag at 0; see
engine.training.worker.stop_check; `pause_while_holding`, True by default), so that even a
low-priority process does not keep a core the GUI thread needs.

    start(name, config_dict)   the request: stops a run in progress, starts a new process
    stop()                     sets the stop event and hands the process to a ProcessReaper
                               (gui/common/process_reaper.py): terminated after STOP_JOIN_S, killed
                               after that; the GUI thread never waits for it
    shutdown()                 stop(), then ends every process within SHUTDOWN_LIMIT_S
                               (the window calls it on close)
    hold_snapshots()           no snapshot is shown before hold_s (HOLD_S) from now
    hold_while_busy(study)     …nor while `study` (a StudyCycle) is not idle

Signals (GUI thread): snapshot_ready(TrainingSnapshot), result_ready(Result), failed(str),
crashed(int), stopped(). A process that dies without a result (a crash, a kill) is reported by
crashed(exit code).

The options of AppState.training are JSON scalars: options_from_config writes a tuple
field of a config (d_ks, heads, tasks, scales) as a comma-separated string and
config_from_options reads it back, so a session keeps them.
"""
from __future__ import annotations

import multiprocessing
import os
import time

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal, Slot

from gui.common.guard import listener
from gui.common.process_reaper import ProcessReaper
from gui.studies.hold import BUSY_RECHECK_MS, HOLD_S

# engine.training (its experiments) is imported when first needed: not at the window's start.


def decode_kind(message: bytes) -> str:
    """The kind of a message from the training process (engine.training.worker)."""
    from engine.training.worker import decode_kind as decode

    return decode(message)


def decode_payload(message: bytes):
    """The payload of a message from the training process (engine.training.worker)."""
    from engine.training.worker import decode_payload as decode

    return decode(message)


#: Wall-clock period of the snapshots the process sends (~16 Hz): above the 10 Hz on
#: screen the window aims at, with room for the ones it drops while it is busy.
SNAPSHOT_PERIOD_S = 0.06
STOP_JOIN_S = 0.3       # after the stop event, before terminate()
RESULT_EXIT_S = 1.0     # after a result or error, for the process to exit by itself
SHUTDOWN_LIMIT_S = 1.5  # shutdown(): every training process ended within this
MESSAGES_PER_WAKE = 64  # bounded work per wake-up; the rest wakes the notifier again
#: POSIX pipes can be watched by a QSocketNotifier; elsewhere a timer looks at the pipe.
PIPE_IS_WATCHABLE = os.name == "posix"
WINDOWS_PIPE_POLL_MS = 30
#: Snapshots wait until the simulation has been quiet for HOLD_S (hold_snapshots): longer
#: than the gap between two changes of a drag or of held arrow keys, short enough that the
#: run's display resumes at once to the eye when the user stops.


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
    from engine.training import CONFIGS, config_from_dict

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
    """One training process at a time; a Study (gui.studies.protocol) whose request is
    start(experiment, config_dict) (see the module docstring)."""

    snapshot_ready = Signal(object)
    result_ready = Signal(object)
    failed = Signal(str)      # the run raised: "Type: message\ntraceback"
    crashed = Signal(int)     # the process ended without a result: its exit code
    stopped = Signal()

    def __init__(self, parent=None, target=None,
                 snapshot_period_s: float | None = SNAPSHOT_PERIOD_S,
                 niceness: int | None = None, idle_class: bool = True):
        """target: the child's function (None: engine.training.worker.pipe_worker);
        niceness: its os.nice increment (None: engine.training.worker.TRAINING_NICENESS)."""
        super().__init__(parent)
        self.setObjectName("trainingRunner")
        self._target = target
        # Public (benchmarks compare): None = a snapshot every config.snapshot_every steps;
        # 0 = the process keeps its parent's priority. Read at the next start().
        self.snapshot_period_s = snapshot_period_s
        self.niceness = niceness
        self.idle_class = idle_class      # Linux SCHED_IDLE for the training process
        self.hold_s = HOLD_S              # hold_snapshots' quiet time; 0: no holding
        self.pause_while_holding = True   # the training process waits while snapshots do
        # True: snapshots are shown even during a hold and the process never pauses; the
        # Training tab then draws their maps and progress and only the curves wait (its
        # dearest part). A knob for benchmarks/training_ui.py ("maps" condition).
        self.show_while_holding = False
        self._context = multiprocessing.get_context("spawn")
        self._process = None
        self._reader = None
        self._notifier = None
        self._stop_event = None
        self._run_flag = None        # a shared byte: 1 the process trains, 0 it waits (a hold)
        self._paused = False
        self.snapshots_received = 0
        self.snapshots_shown = 0
        self.snapshots_held = 0      # wake-ups whose newest snapshot had to wait (a hold)
        self.started_at = 0.0
        self._held = None            # the newest snapshot's message, waiting for the hold
        self._hold_until = float("-inf")
        self._busy_study = None      # hold_while_busy's StudyCycle
        self._release_timer = QTimer(self, singleShot=True, objectName="trainingHoldTimer")
        self._release_timer.timeout.connect(self._release)
        self.reaper = ProcessReaper(self)

    # -- control -----------------------------------------------------------------
    def is_running(self) -> bool:
        return self._process is not None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self, experiment: str, config_dict: dict) -> None:
        """A new run of `experiment` with `config_dict` (config.to_dict()) in a new process."""
        from engine.training.worker import TRAINING_NICENESS, pipe_worker

        self.stop(announce=False)
        target = pipe_worker if self._target is None else self._target
        niceness = TRAINING_NICENESS if self.niceness is None else self.niceness
        reader, writer = self._context.Pipe(duplex=False)
        self._stop_event = self._context.Event()
        self._run_flag = self._context.RawValue("b", 1)
        self._paused = False
        self.snapshots_received = self.snapshots_shown = self.snapshots_held = 0
        self._process = self._context.Process(
            target=target, args=(experiment, dict(config_dict), writer, self._stop_event,
                                 self.snapshot_period_s, niceness,
                                 self.idle_class, self._run_flag),
            name=f"attention-lab-train-{experiment}", daemon=True)
        self.started_at = time.perf_counter()
        self._reader = reader
        try:
            self._process.start()
        except Exception as exc:     # no process (out of memory, no fork, …): say so
            writer.close()
            self._end_process()
            self.failed.emit(f"{type(exc).__name__}: the training process could not start: {exc}")
            return
        writer.close()     # the child's copy is the only writer left: its exit ends the pipe
        if PIPE_IS_WATCHABLE:
            self._notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, self)
            self._wake = self._notifier.activated
        else:   # a Windows pipe handle is not a socket: look at the pipe every 30 ms instead
            self._notifier = QTimer(self, interval=WINDOWS_PIPE_POLL_MS)
            self._wake = self._notifier.timeout
            self._notifier.start()
        self._notifier.setObjectName("trainingPipeNotifier")
        self._wake.connect(self._on_readable)

    def stop(self, announce: bool = True) -> None:
        """End the run at once: the stop event, and the process to the reaper (never waits)."""
        if self._process is None:
            return
        self._quiet()
        self._stop_event.set()
        self._end_process(STOP_JOIN_S)
        if announce:
            self.stopped.emit()

    def shutdown(self) -> None:
        """stop(), then every process this runner started is ended, within SHUTDOWN_LIMIT_S."""
        self.stop(announce=False)
        self.reaper.finish(SHUTDOWN_LIMIT_S)

    @Slot()
    @Slot(object)
    @listener
    def hold_snapshots(self, *_ignored) -> None:
        """No snapshot is decoded or shown before hold_s from now (the simulation is working;
        see the module docstring). A held one is shown when the hold ends; the end of a run
        shows the newest snapshot and the result at once."""
        self._hold_until = max(self._hold_until, time.perf_counter() + self.hold_s)
        if self.hold_s > 0 and self.pause_while_holding and not self.show_while_holding \
                and self._process is not None:
            self._pause(True)
        if self._held is not None or self._paused:
            self._arm_release()

    def _pause(self, paused: bool) -> None:
        if paused != self._paused and self._run_flag is not None:
            self._paused = paused
            self._run_flag.value = 0 if paused else 1

    def hold_while_busy(self, study) -> None:
        """Hold snapshots also while `study` (a StudyCycle: its `idle`) computes or has a
        request waiting; None: no such study."""
        self._busy_study = study

    def _study_busy(self) -> bool:
        study = self._busy_study
        return study is not None and self.hold_s > 0 and not study.idle

    def is_holding(self) -> bool:
        return time.perf_counter() < self._hold_until or self._study_busy()

    def _arm_release(self) -> None:
        wait_ms = int(1000 * (self._hold_until - time.perf_counter())) + 1
        if self._study_busy():
            wait_ms = max(wait_ms, BUSY_RECHECK_MS)
        self._release_timer.start(max(1, wait_ms))

    @Slot()
    def _release(self) -> None:
        if self._held is None and not self._paused:
            return
        if self.is_holding():        # held again meanwhile
            self._arm_release()
            return
        self._pause(False)
        if self._held is not None:
            message, self._held = self._held, None
            self._show(message)

    def _quiet(self) -> None:
        self._release_timer.stop()
        self._held = None
        self._pause(False)
        if self._notifier is not None:
            if isinstance(self._notifier, QTimer):
                self._notifier.stop()
            else:
                self._notifier.setEnabled(False)
            self._wake.disconnect(self._on_readable)
            self._notifier.deleteLater()
            self._notifier = None

    def _end_process(self, grace_s: float = RESULT_EXIT_S) -> None:
        """Let go of the process and the pipe: the reaper joins it, or terminates it after
        grace_s and kills it after that, and then closes both."""
        self._quiet()
        if self._process is not None:
            self.reaper.reap(self._process, self._reader, grace_s,
                             keep=(self._stop_event, self._run_flag))
        elif self._reader is not None:
            self._reader.close()
        self._process = self._reader = self._stop_event = self._run_flag = None

    def _read_available(self) -> tuple[list, bool]:
        """The messages waiting in the pipe (at most MESSAGES_PER_WAKE) and whether the
        pipe has ended (the process closed it or died)."""
        messages = []
        try:
            while self._reader is not None and len(messages) < MESSAGES_PER_WAKE \
                    and self._reader.poll():
                messages.append(self._reader.recv_bytes())
        except (EOFError, OSError):
            return messages, True
        return messages, False

    # -- the pipe (GUI thread) ---------------------------------------------------
    @Slot()
    def _on_readable(self) -> None:
        if self._process is None:
            return
        messages, ended = self._read_available()
        newest, self._held = self._held, None
        for message in messages:
            kind = decode_kind(message)
            if kind == "snapshot":
                self.snapshots_received += 1
                newest = message
                continue
            if newest is not None:   # the end of the run: its last snapshot, hold or not
                self._show(newest)
                newest = None
            self._end_process()
            if kind == "result":
                self.result_ready.emit(decode_payload(message))
            else:
                self.failed.emit(str(decode_payload(message)))
            return
        if newest is not None and not ended and self.is_holding() and \
                not self.show_while_holding:
            self._held = newest
            self.snapshots_held += 1
            self._arm_release()
        elif newest is not None:
            self._show(newest)
        if ended:   # the pipe ended with no result: the process died
            process = self._process
            process.join(0.2)        # its pipe ended: it has exited or is about to
            code = process.exitcode
            self._end_process()
            self.crashed.emit(-1 if code is None else int(code))

    def _show(self, message: bytes) -> None:
        self.snapshots_shown += 1
        self.snapshot_ready.emit(decode_payload(message))
