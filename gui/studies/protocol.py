"""What every study the LabController owns offers (gui/window/controller.py).

A study turns requests into results off the GUI thread (a worker thread, a child process)
and reports on the GUI thread:

    result_ready(result)   the newest request's result
    failed(message)        the newest request failed; `message` says why in one line or more
    is_running() -> bool   it still has a worker of its own alive (a thread, a process)
    shutdown()             stop the worker and end it within a bounded time (the window's
                           close); safe to call twice, is_running() is False after it

How a request is made is the study's own: StudyCycle.request(request) (the simulation's
Params, the head roles' HeadsInput, the Real heads' ModelHeadsRequest), TrainingRunner.start
(experiment, config) (gui/training/runner.py), which also streams snapshot_ready(snapshot)
while a run trains and ends a run without a result with crashed(exit code) or stopped().
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Study(Protocol):
    """A study the controller owns and shuts down (see the module docstring). `result_ready`
    and `failed` are Qt signals (result_ready(object), failed(str))."""

    result_ready: object
    failed: object

    def is_running(self) -> bool: ...

    def shutdown(self) -> None: ...
