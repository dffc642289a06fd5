"""The Training tab: a run in a spawned process, its snapshots on screen, Stop, close, crashes."""
import multiprocessing.resource_tracker
import os
import signal
import time

import numpy as np
import psutil
import pytest
from PySide6.QtCore import QPointF

from engine.training import EXPERIMENTS, default_config
from gui.panels.training_panel import HeadsVsH
from gui.state.app_state import TrainingSettings
from gui.training_runner import config_from_options, options_from_config

SHORT_ROLES = {"steps": 40, "snapshot_every": 5, "log_every": 5}
LONG_SCALING = {"steps": 5000}


@pytest.fixture(scope="module", autouse=True)
def resource_tracker_first():
    """multiprocessing's resource tracker is a process that lives as long as the test
    session; it starts with the first spawn-context queue. Start it before the leak
    check of the first test counts this process's children."""
    multiprocessing.resource_tracker.ensure_running()


def training_tab(window):
    panel = window.training_panel
    window.bottom_tabs.setCurrentWidget(panel)
    return panel


def wait_first_snapshot(qtbot, panel):
    qtbot.waitUntil(lambda: panel.last_snapshot is not None, timeout=30000)


def test_options_round_trip_every_experiment():
    for name in EXPERIMENTS:
        config = default_config(name)
        options = options_from_config(config)
        assert all(v is None or isinstance(v, (bool, int, float, str)) for v in options.values())
        assert config_from_options(name, options) == config
    assert options_from_config(default_config("scaling"))["d_ks"] == "16,64,256,1024"
    assert config_from_options("scaling", {"scales": "false", "d_ks": "256"}).scales == (False,)


def test_a_short_run_updates_curves_progress_and_heads(window, qtbot):
    panel = training_tab(window)
    assert panel.start("roles", SHORT_ROLES)
    assert window.state.training.experiment == "roles"
    assert window.state.training.option("steps") == 40
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    runner = panel.runner
    assert runner.snapshots_received >= 2 and 1 <= runner.snapshots_shown <= runner.snapshots_received
    assert not runner.is_running()
    (key, parts), = panel.curves.items.items()
    x, y = parts["loss"][0].getData()
    assert x[-1] == 40 and np.allclose(y, panel.result.run.curve.loss)
    assert panel.progress.value() == panel.progress.maximum() == 40
    assert "40 / 40" in panel.progress.format()
    assert len(panel.heads_view.maps) == 8          # 2 layers × 4 heads
    from gui.panels.training_panel import SEQUENTIAL_RGBA, heads_rgba

    shown = panel.heads_view.maps[0][2].image
    weights = panel.last_snapshot.heads[0].weights
    assert np.array_equal(shown, heads_rgba(weights))
    peak = np.unravel_index(np.argmax(weights), weights.shape)   # the colour of its weight
    assert np.array_equal(shown[peak], SEQUENTIAL_RGBA[int(round(255 * float(weights[peak])))])
    assert panel.message[0] == "done" and panel.start_button.isEnabled()


def test_where_a_pipe_cannot_be_watched_a_timer_reads_it(window, qtbot, monkeypatch):
    """Windows: a pipe handle is no socket, so the runner looks at the pipe on a timer."""
    from PySide6.QtCore import QTimer

    import gui.training_runner as training_runner

    monkeypatch.setattr(training_runner, "PIPE_IS_WATCHABLE", False)
    panel = training_tab(window)
    assert panel.start("roles", SHORT_ROLES)
    assert isinstance(panel.runner._notifier, QTimer)
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
    assert panel.progress.value() == 40 and not panel.runner.is_running()


def test_runs_are_reproducible(window, qtbot):
    panel = training_tab(window)
    losses = []
    for _ in range(2):
        panel.start("roles", {"steps": 15, "snapshot_every": 5, "log_every": 5})
        qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)
        losses.append(np.array(panel.result.run.curve.loss))
    assert np.array_equal(losses[0], losses[1])


def test_stop_ends_the_process_at_once(window, qtbot):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    pid = panel.runner.pid
    t0 = time.perf_counter()
    panel.stop_button.click()
    assert time.perf_counter() - t0 < 0.05      # the GUI thread never waits for it
    qtbot.waitUntil(lambda: not psutil.pid_exists(pid), timeout=2000)   # joined: no zombie
    assert panel.message[0] == "stopped" and not panel.stop_button.isEnabled()


def test_closing_mid_run_leaves_no_process(window, qtbot):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    pid = panel.runner.pid
    window.close()
    assert not psutil.pid_exists(pid)
    assert not panel.runner.is_running()


def test_a_run_that_raises_shows_the_message(window, qtbot):
    panel = training_tab(window)
    panel.runner.start("roles", {"steps": -1})      # the worker's config check raises
    qtbot.waitUntil(lambda: panel.message[0] == "failed", timeout=30000)
    assert "steps" in panel.status.text() and panel.status.isVisible()
    assert window.isVisible() and not panel.runner.is_running()


def test_a_killed_process_shows_the_message(window, qtbot):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    os.kill(panel.runner.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: panel.message[0] == "crashed", timeout=10000)
    assert "-9" in panel.status.text()
    assert window.isVisible() and panel.start_button.isEnabled()
    assert panel.start("roles", {"steps": 5, "snapshot_every": 5})   # and it trains again
    qtbot.waitUntil(lambda: panel.result is not None, timeout=60000)


def test_invalid_options_are_said_and_start_nothing(window):
    panel = training_tab(window)
    assert not panel.start("heads", {"heads": "3", "d_model": 32})
    assert panel.message[0] == "invalid" and "divide" in panel.status.text()
    assert not panel.runner.is_running()


def test_session_keeps_experiment_and_options(window, tmp_path):
    panel = training_tab(window)
    options = options_from_config(config_from_options("heads", {"heads": "1,4", "steps": 20}))
    window.state.set_training(TrainingSettings("heads", options))
    assert panel.combo.currentData() == "heads"
    path = tmp_path / "session.json"
    window.save_session(path)
    panel.combo.setCurrentIndex(panel.combo.findData("scaling"))
    assert window.state.training.experiment == "scaling"
    window.load_session(path)
    assert window.state.training.experiment == "heads"
    assert window.state.training.option("heads") == "1,4"
    assert window.state.training.option("steps") == 20
    assert panel.combo.currentData() == "heads"


def test_the_verdict_comes_from_the_numbers():
    hurt = [(1, 0.2, 0.2, 0.2, 2.0, 32), (4, 0.9, 0.9, 0.9, 0.3, 8), (16, 0.5, 0.5, 0.5, 1.0, 2)]
    assert "Too many heads hurt" in HeadsVsH.verdict_text(hurt)
    fine = [(1, 0.2, 0.2, 0.2, 2.0, 32), (4, 0.9, 0.9, 0.9, 0.3, 8), (16, 0.9, 0.9, 0.9, 0.3, 2)]
    assert "did not hurt" in HeadsVsH.verdict_text(fine)


def test_curves_are_redrawn_at_most_every_period_maps_every_snapshot(window, qtbot):
    from engine.training import RolesConfig, run_experiment
    from gui.training_tab import CURVES_PERIOD_S

    panel = training_tab(window)
    snaps = []
    run_experiment("roles", RolesConfig(steps=20, log_every=5, snapshot_every=5, eval_size=16),
                   on_snapshot=snaps.append)
    first, second, third = snaps[0], snaps[1], snaps[2]
    panel._on_snapshot(first)
    assert panel.curves.newest_results is first and panel.heads_view.newest_results is first
    panel._on_snapshot(second)
    panel._on_snapshot(third)                 # within the period: only the newest waits
    assert panel.curves.newest_results is first and panel.heads_view.newest_results is third
    qtbot.waitUntil(lambda: panel.curves.newest_results is third,
                    timeout=int(5000 * CURVES_PERIOD_S) + 1000)
    panel._on_snapshot(snaps[-1])             # the last snapshot of a run: drawn at once
    assert snaps[-1].done and panel.curves.newest_results is snaps[-1]


# -- the GUI thread while a run trains (issue 12: changes stay as fast as idle) -------------
class DecodeRecorder:
    """gui.training_runner.decode_payload that notes each message it decodes and whether it
    was the newest snapshot read off the pipe so far; the runner's _read_available notes the
    last snapshot message of each wake-up."""

    def __init__(self, monkeypatch, runner):
        import gui.training_runner as training_runner

        self.decoded, self.newest, self.newest_read = [], [], None
        decode, read = training_runner.decode_payload, runner._read_available

        def recording_decode(message):
            self.decoded.append(message)
            self.newest.append(message is self.newest_read)
            return decode(message)

        def recording_read():
            messages, ended = read()
            snapshots = [m for m in messages if m[:1] == b"S"]
            if snapshots:
                self.newest_read = snapshots[-1]
            return messages, ended

        monkeypatch.setattr(training_runner, "decode_payload", recording_decode)
        monkeypatch.setattr(runner, "_read_available", recording_read)


def hold_for(qtbot, runner, seconds: float) -> None:
    """What a drag does: hold_snapshots() every 20 ms for `seconds`."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        runner.hold_snapshots()
        qtbot.wait(20)


def test_of_several_waiting_snapshots_only_the_newest_is_decoded(window, qtbot, monkeypatch):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    recorder = DecodeRecorder(monkeypatch, runner)
    runner._notifier.setEnabled(False)           # the GUI thread busy: messages queue up
    received = runner.snapshots_received
    time.sleep(0.6)                              # ~16 Hz: about 10 snapshots wait in the pipe
    runner._notifier.setEnabled(True)
    qtbot.waitUntil(lambda: runner.snapshots_received >= received + 3, timeout=5000)
    assert len(recorder.decoded) < runner.snapshots_received - received
    assert recorder.decoded and all(recorder.newest)   # never an older one
    panel.stop()


def test_while_the_simulation_changes_snapshots_wait_and_only_the_newest_is_shown(
        window, qtbot, monkeypatch):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    runner.pause_while_holding = False     # the run goes on: snapshots arrive while held
    recorder = DecodeRecorder(monkeypatch, runner)
    received, shown = runner.snapshots_received, runner.snapshots_shown
    hold_for(qtbot, runner, 0.8)
    assert runner.snapshots_received >= received + 3     # read off the pipe all along …
    assert runner.snapshots_shown == shown and recorder.decoded == []   # … none decoded
    held = runner._held
    assert held is not None and held is recorder.newest_read
    qtbot.waitUntil(lambda: runner.snapshots_shown > shown, timeout=2000)
    assert recorder.decoded and all(recorder.newest)     # the newest, once the hold ended
    panel.stop()
    assert runner._held is None and not runner._release_timer.isActive()


def test_a_dk_change_holds_the_snapshots_and_they_resume_after_it(window, qtbot):
    from PySide6.QtWidgets import QSpinBox

    from gui.training_runner import HOLD_S

    dk_spin = window.findChild(QSpinBox, "dkSpin")
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    shown = runner.snapshots_shown
    dks = [48, 64, 80, 96] * 3
    for dk in dks:                                   # a drag: a change every 30 ms
        dk_spin.setValue(dk)
        assert runner.is_holding()
        qtbot.wait(30)
    assert window.model.wait_idle()
    during = runner.snapshots_shown - shown
    assert during <= 1                               # at most one landed before the first change
    qtbot.waitUntil(lambda: runner.snapshots_shown > shown + during,
                    timeout=int(1000 * HOLD_S) + 3000)
    panel.stop()


def test_a_run_that_ends_during_a_hold_shows_its_last_snapshot_and_result(window, qtbot):
    panel = training_tab(window)
    runner = panel.runner
    runner.pause_while_holding = False     # else a hold that never ends pauses the run
    assert panel.start("roles", SHORT_ROLES)
    deadline = time.perf_counter() + 60
    while panel.result is None and time.perf_counter() < deadline:
        hold_for(qtbot, runner, 0.05)
    assert panel.result is not None and panel.last_snapshot.done
    assert panel.progress.value() == 40


def test_no_snapshot_is_shown_while_a_slow_change_computes(qtbot):
    """On a loaded machine a change can outlast the quiet time: the study's `idle` holds too."""
    from PySide6.QtWidgets import QApplication, QSpinBox

    from engine import compute
    from gui.main_window import MainWindow

    def slow(params):
        time.sleep(0.5)
        return compute(params)

    font = QApplication.font()
    win = MainWindow(compute_fn=slow)
    qtbot.addWidget(win)
    win.show()
    try:
        assert win.model.wait_idle(10000)
        panel = training_tab(win)
        runner = panel.runner
        runner.hold_s = 0.01              # the quiet time alone lapses long before the result
        runner.pause_while_holding = False
        panel.start("scaling", LONG_SCALING)
        wait_first_snapshot(qtbot, panel)
        received, shown = runner.snapshots_received, runner.snapshots_shown
        win.findChild(QSpinBox, "dkSpin").setValue(48)
        while not win.model.cycle.idle:
            assert runner.snapshots_shown == shown
            qtbot.wait(20)
        assert runner.snapshots_received >= received + 3
        qtbot.waitUntil(lambda: runner.snapshots_shown > shown, timeout=3000)
        panel.stop()
    finally:
        win.close()
        QApplication.setFont(font)


def test_the_training_process_waits_off_the_cpu_while_snapshots_are_held(window, qtbot):
    panel = training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    child = psutil.Process(runner.pid)
    hold_for(qtbot, runner, 0.3)              # the current step ends, then the run waits
    cpu = sum(child.cpu_times()[:2])
    received = runner.snapshots_received
    hold_for(qtbot, runner, 0.8)
    assert sum(child.cpu_times()[:2]) - cpu < 0.1      # of 0.8 s: it did not train
    assert runner.snapshots_received <= received + 1
    qtbot.waitUntil(lambda: runner.snapshots_received >= received + 3, timeout=5000)
    hold_for(qtbot, runner, 0.3)
    t0 = time.perf_counter()
    panel.stop()                              # a paused run stops at once too
    assert time.perf_counter() - t0 < 0.05
    qtbot.waitUntil(lambda: not psutil.pid_exists(child.pid), timeout=2000)


# -- what a snapshot costs the GUI thread (issue 12: draw only what changed) ---------------
def test_the_curves_period_redraw_waits_while_the_simulation_works(window, qtbot):
    """The curves' deferred redraw (the dearest part of a snapshot) never lands inside a
    change: it waits while the runner holds, and follows once the hold ends."""
    from engine.training import RolesConfig, run_experiment
    from gui.training_tab import CURVES_PERIOD_S

    panel = training_tab(window)
    runner = panel.runner
    runner.hold_s = 0.5                       # outlasts a slow first paint of the tab
    snaps = []
    run_experiment("roles", RolesConfig(steps=20, log_every=5, snapshot_every=5, eval_size=16),
                   on_snapshot=snaps.append)
    panel._on_snapshot(snaps[0])
    panel._on_snapshot(snaps[1])              # within the period: the redraw is deferred
    assert panel.curves.newest_results is snaps[0]
    deadline = time.perf_counter() + 3 * CURVES_PERIOD_S
    while time.perf_counter() < deadline:     # a drag: the runner holds all along
        runner.hold_snapshots()
        qtbot.wait(20)
        assert panel.curves.newest_results is snaps[0]
    qtbot.waitUntil(lambda: panel.curves.newest_results is snaps[1],
                    timeout=int(1000 * runner.hold_s) + 2000)


def test_the_quality_chart_is_redrawn_only_when_a_run_finishes(window):
    from engine.training import HeadsConfig, run_experiment

    panel = training_tab(window)
    snaps = []
    run_experiment("heads", HeadsConfig(heads=(1, 2), seeds=1, steps=20, log_every=5,
                                        snapshot_every=5, eval_size=32),
                   on_snapshot=snaps.append)
    chart = panel.chart
    drawn = []
    original = chart.acc.setData
    chart.acc.setData = lambda *a, **k: (drawn.append(a), original(*a, **k))
    for snapshot in snaps:
        chart.update_results(snapshot)
    finished = [sum(int(r.curve.steps[-1]) >= 20 for r in s.runs) for s in snaps]
    # one draw per distinct count of finished runs, however many snapshots came between
    assert len(drawn) == len(set(finished)) < len(snaps)
    x, y = chart.acc.getData()
    assert len(x) == 2 and np.allclose(2 ** x, [1, 2])
    chart.retranslate()                       # a new language: the verdict again
    chart.update_results(snaps[-1])
    assert len(drawn) == len(set(finished)) + 1


def test_a_band_is_one_closed_path_between_its_edges():
    from gui.panels.training_panel import band_path

    x = np.array([0.0, 1.0, 2.0])
    path = band_path(x, np.array([0.0, 0.5, 1.0]), np.array([1.0, 2.0, 3.0]))
    rect = path.boundingRect()
    assert (rect.left(), rect.right(), rect.top(), rect.bottom()) == (0.0, 2.0, 0.0, 3.0)
    assert path.contains(QPointF(1.0, 1.0)) and not path.contains(QPointF(1.0, 0.2))
    assert band_path(x[:1], x[:1], x[:1]).isEmpty()


def test_shown_while_holding_the_maps_follow_and_only_the_curves_wait(window, qtbot):
    panel = training_tab(window)
    runner = panel.runner
    runner.show_while_holding = True
    panel.start("roles", {"steps": 20000})
    wait_first_snapshot(qtbot, panel)
    hold_for(qtbot, runner, 0.05)
    curves, shown = panel.curves.newest_results, runner.snapshots_shown
    deadline = time.perf_counter() + 10            # SCHED_IDLE: slow on a loaded machine
    while runner.snapshots_shown < shown + 2 and time.perf_counter() < deadline:
        hold_for(qtbot, runner, 0.05)
    assert runner.snapshots_shown >= shown + 2       # the run goes on, not paused …
    assert panel.heads_view.newest_results is panel.last_snapshot   # … its maps follow …
    assert panel.curves.newest_results is curves     # … the curves wait for the hold's end
    qtbot.waitUntil(lambda: panel.curves.newest_results is not curves, timeout=3000)
    panel.stop()
