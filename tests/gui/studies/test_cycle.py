"""StudyCycle (gui/studies/cycle.py) in both modes: on a worker thread, and synchronous (on the
GUI thread, for tests): the same generations, pending request and gate."""
import threading

import pytest
from PySide6.QtCore import QCoreApplication

from gui.studies.cycle import StudyCycle, StudyError
from gui_helpers import STARTED_THREADS, running_threads


class Recorder:
    """compute(x) = 10·x; records the requests it computed and on which threads."""

    def __init__(self):
        self.calls, self.threads = [], set()

    def __call__(self, x):
        self.calls.append(x)
        self.threads.add(threading.get_ident())
        return 10 * x


class Gate:
    def __init__(self):
        self.offers = []

    def offer(self, study, generation, result, seconds):
        self.offers.append((generation, result, seconds))


@pytest.fixture(params=[False, True], ids=["threaded", "synchronous"])
def make_cycle(request):
    made = []

    def make(compute):
        cycle = StudyCycle("tested", compute, synchronous=request.param)
        made.append(cycle)
        return cycle

    yield make
    for cycle in made:
        cycle.shutdown()


def test_a_synchronous_cycle_computes_on_the_gui_thread_and_starts_no_thread(qtbot):
    mark = len(STARTED_THREADS)
    compute = Recorder()
    cycle = StudyCycle("sync", compute, synchronous=True)
    shown = []
    cycle.result_ready.connect(shown.append)
    assert cycle.is_running()
    cycle.request(4)
    assert cycle.busy and shown == [] and compute.calls == []   # queued, as a thread's would be
    assert cycle.wait_idle(1000)
    assert shown == [40] and cycle.result == 40 and cycle.request_shown == 4
    assert compute.threads == {threading.get_ident()}
    assert len(STARTED_THREADS) == mark and not running_threads(mark)
    cycle.shutdown()
    assert not cycle.is_running()


def test_the_class_switch_makes_later_cycles_synchronous(qtbot, sync_studies):
    compute = Recorder()
    cycle = StudyCycle("switched", compute)
    threaded = StudyCycle("explicit", compute, synchronous=False)
    assert cycle.synchronous and not threaded.synchronous and threaded.is_running()
    threaded.shutdown()
    cycle.request(1)
    assert cycle.wait_idle(1000) and compute.threads == {threading.get_ident()}
    cycle.shutdown()


def test_only_the_newest_of_quick_requests_is_shown(qtbot, make_cycle):
    compute = Recorder()
    cycle = make_cycle(compute)
    shown = []
    cycle.result_ready.connect(shown.append)
    cycle.request(1)          # busy until its result reaches the GUI thread's event loop
    cycle.request(2)          # pending
    cycle.request(3)          # replaces it
    assert cycle.wait_idle(3000)
    assert shown == [30] and compute.calls == [1, 3]
    assert cycle.dropped_generations == 2     # 2 replaced while waiting, 1 stale on arrival


def test_a_gate_holds_results_in_either_mode(qtbot, make_cycle):
    """As test_gui_model's gate test: held results keep the study busy, a newer request
    waits, a stale held result shows nothing, a second hand-on is ignored."""
    cycle = make_cycle(lambda x: x * 10)
    gate = Gate()
    cycle.set_result_gate(gate)
    shown = []
    cycle.result_ready.connect(shown.append)
    first = cycle.request(1)
    qtbot.waitUntil(lambda: len(gate.offers) == 1, timeout=3000)
    assert cycle.busy and not cycle.idle and shown == []
    second = cycle.request(2)
    assert cycle.is_stale(first) and not cycle.is_stale(second)
    cycle.deliver(*gate.offers[0])
    assert shown == []
    qtbot.waitUntil(lambda: len(gate.offers) == 2, timeout=3000)
    cycle.deliver(*gate.offers[1])
    cycle.deliver(*gate.offers[1])
    assert shown == [20] and cycle.idle
    cycle.set_result_gate(None)
    cycle.request(3)
    assert cycle.wait_idle()
    assert shown == [20, 30]


def test_a_failure_is_reported_in_either_mode(qtbot, make_cycle, capsys):
    def broken(_x):
        raise RuntimeError("boom")

    cycle = make_cycle(broken)
    messages = []
    cycle.failed.connect(messages.append)
    cycle.request(1)
    assert cycle.wait_idle()
    assert messages == ["RuntimeError: boom"] and cycle.idle
    assert "boom" in capsys.readouterr().err


def test_a_study_error_is_reported_by_its_message_alone(qtbot, make_cycle, capfd):
    def stalled(_x):
        raise StudyError("the child did not answer within 1 s")

    cycle = make_cycle(stalled)
    messages = []
    cycle.failed.connect(messages.append)
    cycle.request(1)
    assert cycle.wait_idle()
    assert messages == ["the child did not answer within 1 s"] and cycle.idle
    assert capfd.readouterr().err == ""


def test_a_request_queued_before_shutdown_is_never_computed(qtbot):
    compute = Recorder()
    cycle = StudyCycle("stopped", compute, synchronous=True)
    cycle.request(1)
    cycle.shutdown()
    cycle.shutdown()                          # safe twice
    for _ in range(3):
        QCoreApplication.processEvents()
    assert compute.calls == [] and cycle.result is None and not cycle.is_running()
