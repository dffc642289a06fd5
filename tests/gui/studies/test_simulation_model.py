"""The simulation's request cycle (SimulationModel on a StudyCycle): stale results are dropped,
only the newest request waits, a failure is reported, a close stops the worker; a result gate
holds results while the study stays busy."""
import threading
import time

import numpy as np
from PySide6.QtWidgets import QApplication, QSpinBox

from engine import Params, compute
from gui.window.main_window import MainWindow
from gui.studies.simulation import SimulationModel


class SlowCompute:
    """engine.compute with a delay; records which Params were computed and on which thread."""

    def __init__(self, delay=0.05):
        self.delay = delay
        self.calls = []
        self.threads = set()

    def __call__(self, params):
        self.threads.add(threading.get_ident())
        self.calls.append(params)
        time.sleep(self.delay)
        return compute(params)


def test_stale_results_are_dropped_and_final_picture_matches_last(qtbot):
    slow = SlowCompute()
    win = MainWindow(compute_fn=slow)
    qtbot.addWidget(win)
    win.show()
    assert win.model.wait_idle()
    shown = []
    win.model.results_ready.connect(shown.append)
    dk = win.findChild(QSpinBox, "dkSpin")
    for value in (8, 16, 32):
        dk.setValue(value)   # three changes while the first is still computing
    assert win.model.wait_idle()
    QApplication.processEvents()
    assert [r.params.dk for r in shown] == [32]          # stale generations never reached the screen
    assert [p.dk for p in slow.calls[-2:]] == [8, 32]    # 16 was replaced while it waited
    assert win.model.dropped_generations >= 1
    assert threading.get_ident() not in slow.threads     # computed off the GUI thread
    for panel in win.panels.values():   # a panel the layout hides shows the newest on show
        panel.catch_up()
    softmax_bars = win.panels["softmaxPlot"].bars_scaled.opts["height"]
    expected = compute(win.model.params).softmax.probs_scaled
    np.testing.assert_allclose(softmax_bars, expected)
    assert "d_k = 32" in win.panels["variancePlot"].stats_raw.toPlainText()
    win.close()


def test_closing_during_a_computation_stops_the_worker(qtbot):
    slow = SlowCompute(delay=0.3)
    win = MainWindow(compute_fn=slow)
    qtbot.addWidget(win)
    win.show()
    win.findChild(QSpinBox, "dkSpin").setValue(128)
    assert win.model.busy
    win.close()                       # waits for the running compute, then stops the thread
    assert not win.model.is_running()
    assert not any(study.is_running() for study in win.studies)


def test_compute_failure_is_reported_not_raised(qtbot):
    def broken(params):
        raise RuntimeError("boom")

    model = SimulationModel(Params(), compute_fn=broken)
    messages = []
    model.compute_failed.connect(messages.append)
    model.request()
    assert model.wait_idle()
    QApplication.processEvents()
    assert messages and "boom" in messages[0]
    model.shutdown()


def test_a_result_gate_holds_results_and_the_study_stays_busy(qtbot):
    """StudyCycle.set_result_gate: a computed result waits at the gate; meanwhile the study
    is busy and a newer request waits as the pending one; the held result is stale then, and
    delivering it shows nothing; only the newest reaches result_ready."""
    from gui.studies.cycle import StudyCycle

    class Gate:
        def __init__(self):
            self.offers = []

        def offer(self, study, generation, result, seconds):
            self.offers.append((generation, result, seconds))

    cycle = StudyCycle("gated", lambda x: x * 10)
    gate = Gate()
    cycle.set_result_gate(gate)
    shown = []
    cycle.result_ready.connect(shown.append)
    first = cycle.request(1)
    qtbot.waitUntil(lambda: len(gate.offers) == 1, timeout=3000)
    assert cycle.busy and not cycle.idle and shown == []
    second = cycle.request(2)                 # waits: the first is held, not delivered
    assert cycle.is_stale(first) and not cycle.is_stale(second)
    cycle.deliver(*gate.offers[0])            # stale: dropped, and the pending one goes out
    assert shown == []
    qtbot.waitUntil(lambda: len(gate.offers) == 2, timeout=3000)
    cycle.deliver(*gate.offers[1])
    cycle.deliver(*gate.offers[1])            # a second hand-on is ignored
    assert shown == [20] and cycle.idle
    cycle.set_result_gate(None)
    cycle.request(3)
    assert cycle.wait_idle()
    assert shown == [20, 30]
    cycle.shutdown()


def test_the_study_asks_for_the_first_results_when_it_is_made(sync_studies):
    """Results of the current Params exist or are on their way from the start: a lesson step
    or a session whose Params equal the current ones changes nothing and asks nothing, and
    the plots still get Results of them."""
    from gui.state import AppState, StateSnapshot

    state = AppState(StateSnapshot(params=Params(seed=4, samples=2000)))
    model = SimulationModel(state)
    assert not state.set_params(Params(seed=4, samples=2000))     # unchanged: no event
    assert model.wait_idle()
    assert model.results is not None and model.results.params == state.params
    model.shutdown()


def test_the_study_writes_no_state(sync_studies):
    """State is written one way, through AppState's intents: the study has no setters."""
    assert not any(hasattr(SimulationModel, name) for name in ("set_params", "update"))
