"""Ending child processes without blocking the GUI thread.

A child that was asked to stop (its stop event set, its connection closed) usually exits
within milliseconds, but one that is stalled, stopped (SIGSTOP) or stuck in a long step
does not. Joining it on the GUI thread froze the window. ProcessReaper takes such a process
and looks at it every POLL_MS from a QTimer:

    t < grace_s                       wait (its pipe is drained, so a child blocked writing
                                      to a full pipe can exit)
    grace_s ≤ t < grace_s + KILL_S    terminate() (SIGTERM)
    t ≥ grace_s + KILL_S              kill() (SIGKILL: also ends a stopped process)

and once it has exited, joins it (no zombie) and closes it and its pipe. finish(limit_s) does
the same at once, blocking for at most limit_s: for the window's close, which must end every
child in bounded time whatever the children do.

Processes are multiprocessing.Process objects; one that never started is simply dropped.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Slot

POLL_MS = 50
KILL_S = 0.5          # after terminate(), before kill()


@dataclass
class _Dying:
    process: object
    reader: object
    terminate_at: float
    kill_at: float
    kept: tuple = ()     # shared objects the child may still unpickle (see reap)


def _started(process) -> bool:
    return process is not None and process.pid is not None


def _close(process, reader) -> None:
    if reader is not None:
        try:
            reader.close()
        except OSError:
            pass
    try:
        process.close()
    except ValueError:    # still running: cannot happen after a successful join
        pass


def _drain(reader) -> None:
    try:
        while reader is not None and reader.poll():
            reader.recv_bytes()
    except (EOFError, OSError):
        pass


class ProcessReaper(QObject):
    """Ends processes in the background (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("processReaper")
        self._dying: list[_Dying] = []
        self._timer = QTimer(self, interval=POLL_MS, objectName="processReaperTimer")
        self._timer.timeout.connect(self._tick)

    def __len__(self) -> int:
        return len(self._dying)

    def reap(self, process, reader=None, grace_s: float = 0.3, keep: tuple = ()) -> None:
        """Take `process` (already asked to stop) and `reader` (its pipe's reading end, or
        None); they are closed once the process has exited. `keep`: the multiprocessing
        objects given to the child (an Event, a RawValue), held until it has exited: a
        "spawn" child still starting unpickles them by name, and the parent's last
        reference gone unlinks them (FileNotFoundError in SemLock._rebuild, on the child's
        stderr). Never blocks."""
        if not _started(process):
            if reader is not None:
                reader.close()
            return
        now = time.monotonic()
        self._dying.append(_Dying(process, reader, now + grace_s, now + grace_s + KILL_S,
                                  tuple(keep)))
        self._tick()
        if self._dying and not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _tick(self) -> None:
        now = time.monotonic()
        for dying in list(self._dying):
            process = dying.process
            if not process.is_alive():
                process.join(0)
                _close(process, dying.reader)
                self._dying.remove(dying)
                continue
            _drain(dying.reader)
            if now >= dying.kill_at:
                process.kill()
            elif now >= dying.terminate_at:
                process.terminate()
        if not self._dying:
            self._timer.stop()

    def finish(self, limit_s: float = 1.5) -> None:
        """End every process now, blocking for at most about `limit_s`: a share of it to exit
        by itself, then terminate(), then kill()."""
        self._timer.stop()
        deadline = time.monotonic() + limit_s
        steps = ((0.4, None), (0.3, "terminate"), (0.3, "kill"))
        for share, end in steps:
            alive = [d for d in self._dying if d.process.is_alive()]
            if not alive:
                break
            for dying in alive:
                if end is not None:
                    getattr(dying.process, end)()
            until = min(deadline, time.monotonic() + share * limit_s)
            for dying in alive:
                _drain(dying.reader)
                dying.process.join(max(0.0, until - time.monotonic()))
        for dying in list(self._dying):
            if not dying.process.is_alive():
                dying.process.join(0)
                _close(dying.process, dying.reader)
                self._dying.remove(dying)


def end_resource_tracker() -> None:
    """End multiprocessing's resource tracker (the helper process that "spawn" children
    start, which otherwise lives as long as this process) once no multiprocessing child is
    left; the next spawned child starts a new one."""
    import multiprocessing
    from multiprocessing import resource_tracker

    if multiprocessing.active_children():
        return
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)
    if stop is not None:
        stop()
