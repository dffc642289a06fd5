"""engine.training.worker.stop_check: a run pauses while its run event is clear."""
import threading
import time

from engine.training.worker import PAUSE_POLL_S, stop_check


def test_without_events_nothing_is_checked_and_a_stop_event_alone_is_its_is_set():
    assert stop_check() is None
    stop = threading.Event()
    assert stop_check(stop)() is False
    stop.set()
    assert stop_check(stop)() is True


def test_a_clear_run_event_waits_until_it_is_set():
    stop, run = threading.Event(), threading.Event()
    should_stop = stop_check(stop, run)
    run.set()
    assert should_stop() is False
    run.clear()
    threading.Timer(0.3, run.set).start()
    t0 = time.perf_counter()
    assert should_stop() is False
    assert time.perf_counter() - t0 >= 0.29


def test_a_stop_ends_a_pause():
    stop, run = threading.Event(), threading.Event()
    should_stop = stop_check(stop, run)
    threading.Timer(0.1, stop.set).start()
    t0 = time.perf_counter()
    assert should_stop() is True
    assert time.perf_counter() - t0 < 0.1 + PAUSE_POLL_S + 0.2
