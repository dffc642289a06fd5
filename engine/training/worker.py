"""Entry points for running an experiment in a separate process (multiprocessing, spawn).

    ctx = multiprocessing.get_context("spawn")
    queue, stop = ctx.Queue(), ctx.Event()
    proc = ctx.Process(target=train_worker, args=("roles", config.to_dict(), queue, stop))

The worker puts tuples on `queue` (anything with a `put`):
    ("snapshot", TrainingSnapshot)   every few steps (or every `snapshot_period_s` seconds)
    ("result", Result)               once, at the end (also after a stop)
    ("error", message)               instead of a result when the run raised; message is one
                                     line followed by the traceback
Setting `stop` ends the run at the next step. With a `run_flag` (a shared
multiprocessing RawValue: no lock, so a process stopped or killed in the middle of reading
it can never block the window), the run pauses before its next step while the flag is 0,
sleeping in PAUSE_POLL_S steps, and goes on when it is 1 again; a stop or the end of the
parent process ends a pause too. The window clears it while it works, so that the second core is really idle for
its threads: a busy SCHED_IDLE process kept the scheduler from moving a GUI thread waiting
behind another program's task onto that core (benchmarks/training_ui.py).

pipe_worker does the same over the sending end of `multiprocessing.Pipe(duplex=False)`,
each item as one message of bytes: a kind byte (KINDS) and the pickled payload. The
reader can then skip unpickling snapshots that a newer one has made stale
(`decode_kind`, `decode_payload`). It also lowers its own scheduling priority
(os.nice), so that on a machine with few cores the window's thread wins the CPU.
"""
from __future__ import annotations

import os
import pickle
import time
import traceback

#: kind → its byte at the start of a pipe message
KINDS = {"snapshot": b"S", "result": b"R", "error": b"E"}
_KIND_OF = {v[0]: k for k, v in KINDS.items()}
#: os.nice increment of pipe_worker's process: the training yields to the window.
TRAINING_NICENESS = 10


#: A paused run looks this often whether it may go on (its resume latency), was stopped or
#: lost its parent.
PAUSE_POLL_S = 0.01


def stop_check(stop_event=None, run_flag=None):
    """The `should_stop` of a run: stop_event.is_set, waiting first while run_flag.value is 0
    (see the module docstring); None when there is neither."""
    if run_flag is None:
        return stop_event.is_set if stop_event is not None else None
    parent = os.getppid()

    def should_stop() -> bool:
        while not run_flag.value:
            stopped = stop_event is not None and stop_event.is_set()
            if stopped or os.getppid() != parent:
                return True
            time.sleep(PAUSE_POLL_S)
        return stop_event is not None and stop_event.is_set()

    return should_stop


def train_worker(name: str, config_dict: dict, queue, stop_event=None,
                 snapshot_period_s: float | None = None, run_flag=None) -> None:
    try:
        from . import config_from_dict, run_experiment

        config = config_from_dict(name, config_dict)
        should_stop = stop_check(stop_event, run_flag)
        result = run_experiment(name, config, on_snapshot=lambda s: queue.put(("snapshot", s)),
                                should_stop=should_stop, snapshot_period_s=snapshot_period_s)
        queue.put(("result", result))
    except BaseException as exc:  # the window must hear about every failure
        queue.put(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))


class PipeSender:
    """`put((kind, payload))` as one bytes message on a Connection (see the module doc)."""

    def __init__(self, connection):
        self.connection = connection

    def put(self, item) -> None:
        kind, payload = item
        self.connection.send_bytes(KINDS[kind] + pickle.dumps(payload, pickle.HIGHEST_PROTOCOL))


def decode_kind(message: bytes) -> str:
    return _KIND_OF[message[0]]


def decode_payload(message: bytes):
    return pickle.loads(memoryview(message)[1:])


def lower_priority(niceness: int, idle_class: bool = False) -> None:
    """os.nice(niceness) for this process, and with `idle_class` Linux's SCHED_IDLE (it runs
    only when no other thread of its group wants the CPU). Where either is missing or not
    allowed, the process runs as it is."""
    if niceness:
        try:
            os.nice(niceness)
        except (AttributeError, OSError):
            pass
    if idle_class:
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except (AttributeError, OSError):
            pass


def pipe_worker(name: str, config_dict: dict, connection, stop_event=None,
                snapshot_period_s: float | None = None,
                niceness: int = TRAINING_NICENESS, idle_class: bool = False,
                run_flag=None) -> None:
    """train_worker over a pipe, at a lower priority (see the module doc)."""
    lower_priority(niceness, idle_class)
    try:
        train_worker(name, config_dict, PipeSender(connection), stop_event, snapshot_period_s,
                     run_flag)
    except (BrokenPipeError, EOFError, OSError):   # the window went away first: nothing to tell
        pass
    finally:
        connection.close()
