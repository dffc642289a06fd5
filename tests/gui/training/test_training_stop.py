"""Stopping a training process never blocks the GUI thread, closing ends it in bounded time
whatever it does (here: stopped with SIGSTOP), and a process that cannot start is reported."""
import multiprocessing.resource_tracker
import os
import signal
import time

import psutil
import pytest

from engine.training import config_from_dict
from gui.training.runner import SHUTDOWN_LIMIT_S, TrainingRunner

LONG_RUN = config_from_dict("scaling", {"steps": 5000}).to_dict()
#: What one Stop may cost the GUI thread: the stop event and a look at the process.
STOP_BLOCK_S = 0.05

pytestmark = pytest.mark.slow    # each test starts a real training process


@pytest.fixture(scope="module", autouse=True)
def resource_tracker_first():
    """multiprocessing's resource tracker lives as long as the session; start it before the
    leak check of the first test counts this process's children."""
    multiprocessing.resource_tracker.ensure_running()


@pytest.fixture
def runner(qtbot):
    runner = TrainingRunner()
    yield runner
    runner.shutdown()
    runner.deleteLater()


def stalled_child(qtbot, runner) -> psutil.Process:
    with qtbot.waitSignal(runner.snapshot_ready, timeout=20000):
        runner.start("scaling", LONG_RUN)
    child = psutil.Process(runner.pid)
    os.kill(child.pid, signal.SIGSTOP)
    return child


def gone(child: psutil.Process) -> bool:
    """Exited and joined (a zombie still has its pid)."""
    return not psutil.pid_exists(child.pid)


def test_stop_returns_at_once_and_the_stalled_process_is_ended_later(qtbot, runner):
    child = stalled_child(qtbot, runner)
    t0 = time.perf_counter()
    runner.stop()
    assert time.perf_counter() - t0 < STOP_BLOCK_S
    assert not runner.is_running()
    qtbot.waitUntil(lambda: gone(child), timeout=5000)
    qtbot.waitUntil(lambda: len(runner.reaper) == 0, timeout=2000)


def test_shutdown_ends_a_stalled_process_within_its_limit(qtbot, runner):
    child = stalled_child(qtbot, runner)
    t0 = time.perf_counter()
    runner.shutdown()
    assert time.perf_counter() - t0 < SHUTDOWN_LIMIT_S + 0.3
    assert gone(child) and len(runner.reaper) == 0


def test_a_process_that_cannot_start_is_reported(qtbot, runner, monkeypatch):
    import multiprocessing.process as mp_process

    def refuse(self):
        raise OSError(12, "Cannot allocate memory")
    monkeypatch.setattr(mp_process.BaseProcess, "start", refuse)
    with qtbot.waitSignal(runner.failed, timeout=1000) as failed:
        runner.start("scaling", LONG_RUN)
    assert "could not start" in failed.args[0] and "Cannot allocate memory" in failed.args[0]
    assert not runner.is_running()
    runner.stop()
    runner.shutdown()
