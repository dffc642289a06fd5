"""StudyCycle.shutdown waits for a busy worker at most its limit: a compute that runs on is
let go (its result dropped) and its thread ends by itself, without aborting the process."""
import threading
import time

from gui.studies.cycle import StudyCycle


def test_shutdown_does_not_wait_for_a_long_compute(qtbot):
    release = threading.Event()
    delivered = []

    def slow(request):
        release.wait(10)          # waits without the GIL, as a forward or a big compute
        return request

    cycle = StudyCycle("slow", slow, synchronous=False)
    cycle.result_ready.connect(delivered.append)
    cycle.request(1)
    qtbot.wait(50)                # the worker is inside compute now
    t0 = time.perf_counter()
    assert cycle.shutdown(wait_ms=300) is False
    assert time.perf_counter() - t0 < 1.0
    thread = cycle.thread
    release.set()
    qtbot.waitUntil(lambda: not thread.isRunning(), timeout=5000)
    qtbot.wait(50)
    assert delivered == []
    assert cycle.shutdown() is True


def test_shutdown_of_an_idle_cycle_is_immediate(qtbot):
    cycle = StudyCycle("idle", lambda r: r, synchronous=False)
    t0 = time.perf_counter()
    assert cycle.shutdown() is True and time.perf_counter() - t0 < 0.5
