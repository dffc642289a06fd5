"""The Real heads study's numpy work in a process of its own, one per worker thread.

    forward_process() -> ForwardProcess | None     the calling worker thread's
    forward_processes() -> tuple[ForwardProcess, ...]   those of every worker thread (and
                                                        one started early, not yet taken)
    ForwardProcess.ask(folder, sentence) -> ("ok", SentenceAnalysis) | ("error", message)
    start_early(folder=None) -> bool     start one now, off the calling thread
    stop_early()                         stop it if no worker thread has taken it

A forward of MiniLM is numpy on arrays small enough that it holds the GIL most of the time:
run on the study's thread, it would starve the GUI thread (benchmarks/model_forward.py --ui
measures it). Here the study's thread sends
the request over a socket pair to engine.models.worker.serve in a child process (os.nice 10,
one BLAS thread) and waits on the reply, which releases the GIL. The process is started by the
thread's first request, keeps its loaded models, and is stopped when the thread finishes
(QThread.finished, emitted on that thread, connected directly): StudyCycle.shutdown, i.e. the
window's close, leaves no child process.

A new process takes about 0.6 s to import numpy and the engine, and 0.3 s more to load
MiniLM, before its first forward: start_early() pays that ahead, on a thread of its own (the
window calls it when the Real heads tab is first opened, while the tab is built). The next
worker thread to ask for a process takes that one; stop_early() (the window's close) stops it
if none did.
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

from gui.studies.cycle import StudyError

STOP_WAIT_S = 1.0   # for the process to end after its connection closed (then terminate, kill)
#: The longest a reply may take: a new process's imports and model load (about 1 s quiet),
#: and a forward (under 0.1 s), many times over on a loaded machine. A child that has not
#: answered by then is stalled: it is killed, and the next request starts a new one.
FIRST_REPLY_S = 30.0
REPLY_S = 10.0


class ForwardProcessError(StudyError):
    """The forward process died twice in a row, did not answer in time, was aborted, or
    raised something unexpected (its traceback then goes to stderr); the message is one line
    for the user."""


#: POSIX: a plain subprocess on one end of a socketpair (no multiprocessing resource tracker
#: process, no re-import of the window's __main__); elsewhere a multiprocessing "spawn"
#: process on a duplex Pipe. Both run engine.models.worker.serve.
USE_SUBPROCESS = os.name == "posix"
#: False: forward_process() gives None and the study computes on its own thread, as it did
#: before (benchmarks/model_forward.py --ui compares the two).
ENABLED = True
#: The child lowers its priority before it imports numpy and the engine (CPU that would
#: otherwise compete with the window building the tab), then serves at that priority.
_BOOTSTRAP = ("import os, sys\n"
              "try:\n    os.nice({niceness})\nexcept OSError:\n    pass\n"
              "sys.path[:0] = {paths!r}\n"
              "from engine.models.worker import serve_fd; serve_fd({fd}, 0)")


class ForwardProcess:
    """engine.models.worker.serve in a process of its own, asked one request at a time over a
    duplex connection (the reply protocol is in that module's docstring). The process starts
    with start() or the first ask() and keeps its loaded models; one that died is started
    again once. Used by one thread at a time (a lock makes a start on another thread, as
    start_early's, finish before the owner's first ask)."""

    def __init__(self, niceness: int = FORWARD_NICENESS):
        self.niceness = niceness
        self._process = None       # a subprocess.Popen or a multiprocessing Process
        self._connection = None
        self._warmups = 0          # warm-up requests sent whose replies are still unread
        self._lock = threading.RLock()
        self.processes_started = 0
        self._replies = 0          # replies read from the current process
        self._aborted = False

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
        self._warmups = 0
        self._replies = 0
        self.processes_started += 1
        return self._connection

    def start(self, warm_folder: str | None = None) -> None:
        """Start the process now if it is not running; with `warm_folder`, also have it load
        that model and run it once (a warm-up request whose reply the next ask() skips)."""
        with self._lock:
            connection = self._connection or self._start()
            if warm_folder:
                try:
                    connection.send_bytes(pickle.dumps((str(warm_folder), None),
                                                       pickle.HIGHEST_PROTOCOL))
                except OSError:
                    self.stop()
                    return
                self._warmups += 1

    def ask(self, folder: str, sentence: str) -> tuple[str, object]:
        """("ok", SentenceAnalysis) or ("error", the engine's one-line message) for
        `sentence` on the model in `folder`; ForwardProcessError if the process raised
        something else or died twice."""
        with self._lock:
            return self._ask(pickle.dumps((folder, sentence), pickle.HIGHEST_PROTOCOL))

    def _ask(self, message: bytes) -> tuple[str, object]:
        for attempt in range(2):
            if self._aborted:
                raise ForwardProcessError("the model's forward process was stopped")
            connection = self._connection or self._start()
            try:
                connection.send_bytes(message)
                while self._warmups:                 # a warm-up's reply: nothing to show
                    self._receive(connection)
                    self._warmups -= 1
                reply = self._receive(connection)    # waits without the GIL
            except TimeoutError as exc:
                self.stop()
                raise ForwardProcessError(str(exc)) from None
            except (EOFError, OSError):
                code = self.stop()
                if self._aborted:
                    raise ForwardProcessError("the model's forward process was stopped") from None
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

    def _receive(self, connection) -> bytes:
        """The next reply, waited for at most FIRST_REPLY_S (a new process) or REPLY_S;
        TimeoutError when the child has not answered by then."""
        limit = FIRST_REPLY_S if self._replies == 0 else REPLY_S
        if not connection.poll(limit):
            raise TimeoutError(f"the model's forward process did not answer within "
                               f"{limit:.0f} s; it was stopped, and the next sentence starts "
                               f"a new one")
        reply = connection.recv_bytes()
        self._replies += 1
        return reply

    def abort(self) -> None:
        """From any thread, without the lock (its owner may be waiting for a reply): kill the
        process, so a wait for its reply ends at once, and refuse further requests. For the
        window's close, which must not wait for a stalled child."""
        self._aborted = True
        process = self._process
        if process is None:
            return
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass

    def stop(self) -> int | None:
        """End the process (closing the connection ends its loop; terminate, then kill, if it
        must) and wait for it; its exit code. Safe to call twice."""
        with self._lock:
            return self._stop()

    def _stop(self) -> int | None:
        self._warmups = 0
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
#: The C++ address of a worker QThread → its ForwardProcess (abort_thread).
_by_thread: dict[int, ForwardProcess] = {}
_early: ForwardProcess | None = None            # start_early's, until a worker thread takes it
_early_starter: threading.Thread | None = None


def forward_processes() -> tuple[ForwardProcess, ...]:
    """Every worker thread's ForwardProcess that has not been stopped at its thread's end,
    and start_early's while no thread has taken it."""
    with _processes_lock:
        return tuple(_processes.values()) + ((_early,) if _early is not None else ())


def start_early(folder: str | None = None) -> bool:
    """Start a ForwardProcess now on a short-lived thread of its own (the process start and,
    with `folder`, its model's load and a first forward run while the caller goes on), for
    the next worker thread's forward_process() to take. False (nothing started) when one
    started early is still waiting or ENABLED is off."""
    global _early, _early_starter
    if not ENABLED:
        return False
    with _processes_lock:
        if _early is not None:
            return False
        process = _early = ForwardProcess()
        starter = _early_starter = threading.Thread(
            target=process.start, args=(folder,), name="forwardProcessStart", daemon=True)
        starter.start()
    return True


def stop_early() -> None:
    """Stop start_early's process if no worker thread took it (the window's close)."""
    global _early, _early_starter
    with _processes_lock:
        process, starter, _early, _early_starter = _early, _early_starter, None, None
    if starter is not None:
        starter.join(STOP_WAIT_S)     # a start only spawns and sends: it never waits long
        if starter.is_alive() and process is not None:
            process.abort()
    if process is not None:
        process.stop()


def _thread_key(thread) -> int:
    import shiboken6

    return shiboken6.getCppPointer(thread)[0]


def abort_thread(thread) -> None:
    """Kill the forward process of the worker QThread `thread`, if it has one, so that a
    wait of that thread for a stalled child ends at once (the window's close)."""
    if thread is None:       # a synchronous study: no worker thread, no process
        return
    with _processes_lock:
        process = _by_thread.get(_thread_key(thread))
    if process is not None:
        process.abort()


def _stop_at_thread_end(ident: int, key: int) -> None:
    with _processes_lock:
        process = _processes.pop(ident, None)
        _by_thread.pop(key, None)
    if process is not None:
        process.stop()


def forward_process() -> ForwardProcess | None:
    """The calling Qt worker thread's ForwardProcess, made on its first call and stopped when
    the thread finishes; None on the GUI thread and on threads Qt did not start (their QThread
    never reports `finished`, so a process of theirs could outlive them)."""
    if not ENABLED or QCoreApplication.instance() is None or \
            not isinstance(threading.current_thread(), threading._DummyThread):
        return None     # the GUI (main) thread, or a thread Python started
    global _early, _early_starter
    ident = threading.get_ident()
    with _processes_lock:
        process = _processes.get(ident)
        if process is not None:
            return process
        # start_early's, if there is one (its lock holds ask() until its start has finished)
        process = _processes[ident] = _early or ForwardProcess()
        key = _thread_key(QThread.currentThread())
        _by_thread[key] = process
        _early = _early_starter = None
    # Emitted on this thread as its event loop ends (StudyCycle.shutdown): a direct call.
    QThread.currentThread().finished.connect(functools.partial(_stop_at_thread_end, ident, key),
                                             Qt.ConnectionType.DirectConnection)
    return process
