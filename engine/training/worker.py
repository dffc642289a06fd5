"""Entry point for running an experiment in a separate process (multiprocessing, spawn).

    ctx = multiprocessing.get_context("spawn")
    queue, stop = ctx.Queue(), ctx.Event()
    proc = ctx.Process(target=train_worker, args=("roles", config.to_dict(), queue, stop))

The worker puts tuples on `queue`:
    ("snapshot", Snapshot)   every few steps
    ("result", Result)       once, at the end (also after a stop)
    ("error", message)       instead of a result when the run raised; message is one line
                             followed by the traceback
Setting `stop` ends the run at the next step.
"""
from __future__ import annotations

import traceback


def train_worker(name: str, config_dict: dict, queue, stop_event=None) -> None:
    try:
        from . import config_from_dict, run_experiment

        config = config_from_dict(name, config_dict)
        should_stop = stop_event.is_set if stop_event is not None else None
        result = run_experiment(name, config, on_snapshot=lambda s: queue.put(("snapshot", s)),
                                should_stop=should_stop)
        queue.put(("result", result))
    except BaseException as exc:  # the window must hear about every failure
        queue.put(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
