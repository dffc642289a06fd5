"""The Training tab's runs in a spawned process (gui/training/runner.py): a run's snapshots on
screen, Stop, close, crashes, and how snapshots wait while the simulation works. Every test
starts a training process."""
import os
import signal
import threading
import time

import numpy as np
import psutil
import pytest
from PySide6.QtCore import QObject, QTimer

from tab_fixtures import resource_tracker_first, training_tab  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("resource_tracker_first")]

SHORT_ROLES = {"steps": 40, "snapshot_every": 5, "log_every": 5}
LONG_SCALING = {"steps": 5000}
RUN_S = 20          # a short run, or the first snapshot, on a loaded 2-core machine


def window_training_tab(window):
    panel = window.training_tab
    window.area.bring_forward(panel.objectName())
    return panel


def wait_first_snapshot(qtbot, panel):
    qtbot.waitUntil(lambda: panel.last_snapshot is not None, timeout=1000 * RUN_S)


def wait_result(qtbot, panel):
    qtbot.waitUntil(lambda: panel.result is not None, timeout=1000 * RUN_S)


def notifier(runner):
    """The runner's watch on the pipe (a QSocketNotifier, or a QTimer where pipes cannot be
    watched)."""
    return runner.findChild(QObject, "trainingPipeNotifier")


def test_a_short_run_updates_curves_progress_and_heads(training_tab, qtbot):
    from gui.panels.training_plots import SEQUENTIAL_RGBA, heads_rgba

    panel = training_tab
    assert panel.start("roles", SHORT_ROLES)
    assert panel.state.training.experiment == "roles"
    assert panel.state.training.option("steps") == 40
    wait_result(qtbot, panel)
    runner = panel.runner
    assert runner.snapshots_received >= 2 and 1 <= runner.snapshots_shown <= runner.snapshots_received
    assert not runner.is_running()
    assert set(panel.curves.items) == {(2,), (1,)}   # the model and its 1-layer control
    x, y = panel.curves.items[(2,)]["loss"][0].getData()
    assert x[-1] == 40 and np.allclose(y, panel.result.run.curve.loss)
    assert panel.progress.value() == panel.progress.maximum() == 40
    assert "40 / 40" in panel.progress.format()
    panel.right.setCurrentWidget(panel.heads_view)   # a roles run opens on its ICL plot
    assert len(panel.heads_view.maps) == 8          # 2 layers × 4 heads
    shown = panel.heads_view.maps[0][2].image
    weights = panel.last_snapshot.heads[0].weights
    assert np.array_equal(shown, heads_rgba(weights))
    peak = np.unravel_index(np.argmax(weights), weights.shape)   # the colour of its weight
    assert np.array_equal(shown[peak], SEQUENTIAL_RGBA[int(round(255 * float(weights[peak])))])
    assert panel.message[0] == "done" and panel.start_button.isEnabled()


def test_where_a_pipe_cannot_be_watched_a_timer_reads_it(training_tab, qtbot, monkeypatch):
    """Windows: a pipe handle is no socket, so the runner looks at the pipe on a timer."""
    import gui.training.runner as training_runner

    monkeypatch.setattr(training_runner, "PIPE_IS_WATCHABLE", False)
    panel = training_tab
    assert panel.start("roles", SHORT_ROLES)
    assert isinstance(notifier(panel.runner), QTimer)
    wait_result(qtbot, panel)
    assert panel.progress.value() == 40 and not panel.runner.is_running()


def test_runs_are_reproducible(training_tab, qtbot):
    panel = training_tab
    losses = []
    for _ in range(2):
        panel.start("roles", {"steps": 15, "snapshot_every": 5, "log_every": 5})
        wait_result(qtbot, panel)
        losses.append(np.array(panel.result.run.curve.loss))
    assert np.array_equal(losses[0], losses[1])


def test_stop_ends_the_process_at_once(training_tab, qtbot):
    panel = training_tab
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    pid = panel.runner.pid
    t0 = time.perf_counter()
    panel.stop_button.click()
    assert time.perf_counter() - t0 < 0.05      # the GUI thread never waits for it
    qtbot.waitUntil(lambda: not psutil.pid_exists(pid), timeout=2000)   # joined: no zombie
    assert panel.message[0] == "stopped" and not panel.stop_button.isEnabled()


def test_a_run_stopped_while_its_process_starts_prints_nothing(training_tab, qtbot, capfd,
                                                               monkeypatch):
    """A spawned child still starting unpickles the stop event and run flag by name: the
    parent keeps them until it has exited (else FileNotFoundError in SemLock._rebuild on
    the child's stderr, which capfd reads: children write to this process's fd 2). The
    grace before terminate() is long here: under pytest a child imports pytest before it
    unpickles, and would be terminated first."""
    import gc

    import gui.training.runner as runner_module

    monkeypatch.setattr(runner_module, "STOP_JOIN_S", 10.0)
    panel = training_tab
    pids = []
    for _ in range(4):
        panel.start("scaling", LONG_SCALING)
        pids.append(panel.runner.pid)
        panel.stop()
        gc.collect()                      # the parent's last reference, if it had let go
    for pid in pids:       # the grace, then terminate(): a loaded machine's slow start too
        qtbot.waitUntil(lambda: not psutil.pid_exists(pid), timeout=30000)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error" not in err, err


def test_closing_mid_run_leaves_no_process(window, qtbot):
    panel = window_training_tab(window)
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    pid = panel.runner.pid
    window.close()
    assert not psutil.pid_exists(pid)
    assert not panel.runner.is_running()


def test_a_run_that_raises_shows_the_message(training_tab, qtbot):
    panel = training_tab
    panel.runner.start("roles", {"steps": -1})      # the worker's config check raises
    qtbot.waitUntil(lambda: panel.message[0] == "failed", timeout=1000 * RUN_S)
    assert "steps" in panel.status.text() and panel.status.isVisible()
    assert panel.isVisible() and not panel.runner.is_running()


def test_a_killed_process_shows_the_message(training_tab, qtbot):
    panel = training_tab
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    os.kill(panel.runner.pid, signal.SIGKILL)
    qtbot.waitUntil(lambda: panel.message[0] == "crashed", timeout=10000)
    assert "-9" in panel.status.text()
    assert panel.isVisible() and panel.start_button.isEnabled()
    assert panel.start("roles", {"steps": 5, "snapshot_every": 5})   # and it trains again
    wait_result(qtbot, panel)


# -- the GUI thread while a run trains (changes stay as fast as idle) --------------------------
class DecodeRecorder:
    """gui.training.runner.decode_payload that notes each message it decodes and whether it
    was the newest snapshot read off the pipe so far; the runner's _read_available (no
    public handle reads the pipe) notes the last snapshot message of each wake-up."""

    def __init__(self, monkeypatch, runner):
        import gui.training.runner as training_runner

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


def test_of_several_waiting_snapshots_only_the_newest_is_decoded(training_tab, qtbot,
                                                                 monkeypatch):
    panel = training_tab
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    recorder = DecodeRecorder(monkeypatch, runner)
    received = runner.snapshots_received
    # The GUI thread busy: at ~16 Hz about 10 snapshots wait in the pipe after 0.6 s; a
    # loaded machine slows the (niced) child down, so it is busy longer each time until a
    # wake-up found more than one waiting.
    busy_s, deadline = 0.6, time.perf_counter() + RUN_S
    while True:
        before = runner.snapshots_received
        time.sleep(busy_s)
        qtbot.waitUntil(lambda: runner.snapshots_received > before, timeout=1000 * RUN_S)
        if len(recorder.decoded) < runner.snapshots_received - received \
                or time.perf_counter() > deadline:
            break
        busy_s = min(2 * busy_s, 5.0)
    assert len(recorder.decoded) < runner.snapshots_received - received
    assert recorder.decoded and all(recorder.newest)   # never an older one
    panel.stop()


def test_while_the_simulation_changes_snapshots_wait_and_only_the_newest_is_shown(
        training_tab, qtbot, monkeypatch):
    from gui.training.runner import HOLD_S

    panel = training_tab
    panel.start("scaling", LONG_SCALING)
    wait_first_snapshot(qtbot, panel)
    runner = panel.runner
    runner.pause_while_holding = False     # the run goes on: snapshots arrive while held
    recorder = DecodeRecorder(monkeypatch, runner)
    received, shown, held = runner.snapshots_received, runner.snapshots_shown, runner.snapshots_held
    deadline = time.perf_counter() + RUN_S     # a loaded machine slows the child down
    while runner.snapshots_received < received + 3 and time.perf_counter() < deadline:
        hold_for(qtbot, runner, 0.1)
    assert runner.snapshots_received >= received + 3     # read off the pipe all along …
    assert runner.snapshots_shown == shown and recorder.decoded == []   # … none decoded
    assert runner.snapshots_held > held                  # … the newest kept for the hold's end
    qtbot.waitUntil(lambda: runner.snapshots_shown > shown, timeout=2000)
    assert recorder.decoded and all(recorder.newest)     # the newest, once the hold ended
    held, deadline = runner.snapshots_held, time.perf_counter() + 5
    while runner.snapshots_held == held and time.perf_counter() < deadline:
        hold_for(qtbot, runner, 0.05)
    assert runner.snapshots_held > held                  # a snapshot waits again …
    panel.stop()                                         # … and goes with the run:
    shown = runner.snapshots_shown
    assert not runner.findChild(QTimer, "trainingHoldTimer").isActive()
    runner.hold_snapshots()                              # a later hold finds nothing to show
    qtbot.wait(int(3000 * HOLD_S))
    assert runner.snapshots_shown == shown


def test_a_dk_change_holds_the_snapshots_and_they_resume_after_it(window, qtbot):
    from PySide6.QtWidgets import QSpinBox

    from gui.training.runner import HOLD_S

    dk_spin = window.findChild(QSpinBox, "dkSpin")
    panel = window_training_tab(window)
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


def test_a_run_that_ends_during_a_hold_shows_its_last_snapshot_and_result(training_tab,
                                                                          qtbot):
    panel = training_tab
    runner = panel.runner
    runner.pause_while_holding = False     # else a hold that never ends pauses the run
    assert panel.start("roles", SHORT_ROLES)
    deadline = time.perf_counter() + RUN_S
    while panel.result is None and time.perf_counter() < deadline:
        hold_for(qtbot, runner, 0.05)
    assert panel.result is not None and panel.last_snapshot.done
    assert panel.progress.value() == 40


def test_no_snapshot_is_shown_while_a_slow_change_computes(qtbot):
    """On a loaded machine a change can outlast the quiet time: the study's `idle` holds too."""
    from PySide6.QtWidgets import QApplication, QSpinBox

    from engine import compute
    from gui.window.main_window import MainWindow

    armed, release = threading.Event(), threading.Event()

    def slow(params):                 # once armed, computes until three snapshots have come
        if armed.is_set():
            assert release.wait(30)
        return compute(params)

    font = QApplication.font()
    win = MainWindow(compute_fn=slow)
    qtbot.addWidget(win)
    win.show()
    try:
        assert win.model.wait_idle(10000)
        panel = window_training_tab(win)
        runner = panel.runner
        runner.hold_s = 0.01              # the quiet time alone lapses long before the result
        runner.pause_while_holding = False
        panel.start("scaling", LONG_SCALING)
        wait_first_snapshot(qtbot, panel)
        received, shown = runner.snapshots_received, runner.snapshots_shown
        armed.set()
        win.findChild(QSpinBox, "dkSpin").setValue(48)
        deadline = time.monotonic() + 30
        while not win.model.cycle.idle:
            assert runner.snapshots_shown == shown
            if runner.snapshots_received >= received + 3 or time.monotonic() > deadline:
                release.set()
            qtbot.wait(20)
        assert runner.snapshots_received >= received + 3
        qtbot.waitUntil(lambda: runner.snapshots_shown > shown, timeout=3000)
        panel.stop()
    finally:
        release.set()
        win.close()
        QApplication.setFont(font)


def test_the_training_process_waits_off_the_cpu_while_snapshots_are_held(training_tab, qtbot):
    panel = training_tab
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


def test_shown_while_holding_the_maps_follow_and_only_the_curves_wait(training_tab, qtbot):
    panel = training_tab
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
