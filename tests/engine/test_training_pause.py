"""engine.training.worker.stop_check: a run pauses while its run flag is 0."""
import threading
import time
from types import SimpleNamespace

from engine.training.worker import PAUSE_POLL_S, stop_check


def test_without_events_nothing_is_checked_and_a_stop_event_alone_is_its_is_set():
    assert stop_check() is None
    stop = threading.Event()
    assert stop_check(stop)() is False
    stop.set()
    assert stop_check(stop)() is True


def test_a_run_flag_at_0_waits_until_it_is_1():
    stop, run = threading.Event(), SimpleNamespace(value=1)
    should_stop = stop_check(stop, run)
    assert should_stop() is False
    run.value = 0
    threading.Timer(0.3, lambda: setattr(run, "value", 1)).start()
    t0 = time.perf_counter()
    assert should_stop() is False
    assert time.perf_counter() - t0 >= 0.29


def test_a_stop_ends_a_pause():
    stop, run = threading.Event(), SimpleNamespace(value=0)
    should_stop = stop_check(stop, run)
    threading.Timer(0.1, stop.set).start()
    t0 = time.perf_counter()
    assert should_stop() is True
    assert time.perf_counter() - t0 < 0.1 + PAUSE_POLL_S + 0.2
