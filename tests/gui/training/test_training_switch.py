"""Choosing another experiment after a run has ended clears that run's curves, heads and
message: nothing of the old run stands under the new experiment's name."""
import multiprocessing.resource_tracker

import pytest

from gui.state import AppState
from gui.training.runner import TrainingRunner
from gui.training.tab import TrainingTab

pytestmark = pytest.mark.slow     # a real (short) training run in a child process


@pytest.fixture(scope="module", autouse=True)
def resource_tracker_first():
    multiprocessing.resource_tracker.ensure_running()


@pytest.fixture
def tab(qtbot):
    tab = TrainingTab(AppState(), TrainingRunner())
    qtbot.addWidget(tab)
    tab.resize(1200, 700)
    tab.show()
    yield tab
    tab.runner.shutdown()
    tab.close()


def test_a_new_experiment_clears_the_last_run(qtbot, tab):
    with qtbot.waitSignal(tab.runner.result_ready, timeout=30000):
        tab.start("roles", {"steps": 20})
    qtbot.waitUntil(lambda: tab.message[0] == "done", timeout=5000)
    tab.right.setCurrentWidget(tab.heads_view)       # a roles run opens on its ICL plot
    assert tab.heads_view.maps and tab.curves.items
    tab.combo.setCurrentIndex(tab.combo.findData("heads"))
    assert tab.state.training.experiment == "heads"
    assert tab.last_snapshot is None and tab.result is None
    assert tab.message[0] == "idle"
    assert tab.curves.items == {} and tab.heads_view.maps == []
