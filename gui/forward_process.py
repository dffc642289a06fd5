"""The Real heads study's numpy work in a process of its own, one per worker thread.

    forward_process() -> ForwardProcess | None     the calling worker thread's
    forward_processes() -> tuple[ForwardProcess, ...]   those of every worker thread
    ForwardProcess.ask(folder, sentence) -> ("ok", SentenceAnalysis) | ("error", message)

A 128-token forward of MiniLM is ~80 ms of numpy on arrays small enough that it holds the GIL
most of the time: run on the study's thread, it starved the GUI thread, and a d_k change made
meanwhile missed its frame (benchmarks/model_forward.py --ui). Here the study's thread sends
the request over a socket pair to engine.models.worker.serve in a child process (os.nice 10,
one BLAS thread) and waits on the reply, which releases the GIL. The process is started by the
thread's first request, keeps its loaded models, and is stopped when the thread finishes
(QThread.finished, emitted on that thread, connected directly): StudyCycle.shutdown, i.e. the
window's close, leaves no child process.
"""
from __future__ import annotations

import functools
import multiprocessing
import os
import pickle
import socket
import subprocess
import sys
import threading
from multiprocessing.connection import Connection

from PySide6.QtCore import QCoreApplication, QThread, Qt

from engine.models.worker import FORWARD_NICENESS, serve

STOP_WAIT_S = 1.0   # for the process to end after its connection closed (then terminate, kill)


class ForwardProcessError(RuntimeError):
    """The forward process died twice in a row, or raised something unexpected."""


#: POSIX: a plain subprocess on one end of a socketpair (no multiprocessing resource tracker
#: process, no re-import of the window's __main__); elsewhere a multiprocessing "spawn"
#: process on a duplex Pipe. Both run engine.models.worker.serve.
USE_SUBPROCESS = os.name == "posix"
#: False: forward_process() gives None and the study computes on its own thread, as it did
#: before (benchmarks/model_forward.py --ui compares the two).
ENABLED = True
_BOOTSTRAP = ("import sys; sys.path[:0] = {paths!r}\n"
              "from engine.models.worker import serve_fd; serve_fd({fd}, {niceness})")


class ForwardProcess:
    """engine.models.worker.serve in a process of its own, asked one request at a time over a
    duplex connection (the reply protocol is in that module's docstring). The process starts
    with the first ask() and keeps its loaded models; one that died is started again once.
    Owned by one thread: ask() and stop() are called on it only."""

    def __init__(self, niceness: int = FORWARD_NICENESS):
        self.niceness = niceness
        self._process = None       # a subprocess.Popen or a multiprocessing Process
        self._connection = None
        self.processes_started = 0

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _start(self):
        if USE_SUBPROCESS:
            mine, theirs = socket.socketpair()
            with theirs:
                code = _BOOTSTRAP.format(paths=[p for p in sys.path if p], fd=theirs.fileno(),
                                         niceness=int(self.niceness))
                self._process = subprocess.Popen([sys.executable, "-c", code],
                                                 pass_fds=(theirs.fileno(),),
                                                 stdin=subprocess.DEVNULL)
            self._connection = Connection(mine.detach())
        else:
            context = multiprocessing.get_context("spawn")
            mine, theirs = context.Pipe(duplex=True)
            self._process = context.Process(target=serve, args=(theirs, self.niceness),
                                            name="attention-lab-forward", daemon=True)
            self._process.start()
            theirs.close()
            self._connection = mine
        self.processes_started += 1
        return self._connection

    def ask(self, folder: str, sentence: str) -> tuple[str, object]:
        """("ok", SentenceAnalysis) or ("error", the engine's one-line message) for
        `sentence` on the model in `folder`; ForwardProcessError if the process raised
        something else or died twice."""
        message = pickle.dumps((folder, sentence), pickle.HIGHEST_PROTOCOL)
        for attempt in range(2):
            connection = self._connection or self._start()
            try:
                connection.send_bytes(message)
                reply = connection.recv_bytes()      # waits without the GIL
            except (EOFError, OSError):
                code = self.stop()
                if attempt:
                    raise ForwardProcessError(
                        f"the model's forward process ended unexpectedly (exit code {code})")
                continue
            kind, payload = pickle.loads(reply)
            if kind in ("ok", "error"):
                return kind, payload
            sys.stderr.write(payload + "\n")
            raise ForwardProcessError(payload.splitlines()[0])
        raise AssertionError("unreachable")

    def stop(self) -> int | None:
        """End the process (closing the connection ends its loop; terminate, then kill, if it
        must) and wait for it; its exit code. Safe to call twice."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        process, self._process = self._process, None
        if process is None:
            return None
        if isinstance(process, subprocess.Popen):
            for end in (None, process.terminate, process.kill):
                if end is not None:
                    end()
                try:
                    return process.wait(STOP_WAIT_S)
                except subprocess.TimeoutExpired:
                    continue
            return None
        for end in (None, process.terminate, process.kill):
            if end is not None and process.is_alive():
                end()
            process.join(STOP_WAIT_S)
        code = process.exitcode
        if not process.is_alive():
            process.close()
        return code


#: threading.get_ident() of a worker thread → its ForwardProcess. (Not a threading.local:
#: PySide deletes a Qt thread's Python thread state, and its locals, after every slot call.)
_processes: dict[int, ForwardProcess] = {}
_processes_lock = threading.Lock()


def forward_processes() -> tuple[ForwardProcess, ...]:
    """Every worker thread's ForwardProcess that has not been stopped at its thread's end."""
    with _processes_lock:
        return tuple(_processes.values())


def _stop_at_thread_end(ident: int) -> None:
    with _processes_lock:
        process = _processes.pop(ident, None)
    if process is not None:
        process.stop()


def forward_process() -> ForwardProcess | None:
    """The calling Qt worker thread's ForwardProcess, made on its first call and stopped when
    the thread finishes; None on the GUI thread and on threads Qt did not start (their QThread
    never reports `finished`, so a process of theirs could outlive them)."""
    if not ENABLED or QCoreApplication.instance() is None or \
            not isinstance(threading.current_thread(), threading._DummyThread):
        return None     # the GUI (main) thread, or a thread Python started
    ident = threading.get_ident()
    with _processes_lock:
        process = _processes.get(ident)
        if process is not None:
            return process
        process = _processes[ident] = ForwardProcess()
    # Emitted on this thread as its event loop ends (StudyCycle.shutdown): a direct call.
    QThread.currentThread().finished.connect(functools.partial(_stop_at_thread_end, ident),
                                             Qt.ConnectionType.DirectConnection)
    return process
