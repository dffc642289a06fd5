"""A window meets the faults a user's machine can throw at it, one after another, as the user
would meet them: its children killed (SIGKILL) or stopped (SIGSTOP), a full disk, a read-only
folder, a damaged model cache and a hostile model file.

For each fault the test asserts what the user must see: a clear message where they are
looking (the tab's message or status line, or the message box of the command they gave),
the next request working again, nothing saved before lost and no partial file left, no
exception reaching Qt, the status bar or the terminal, every wait bounded, and the window's
close taking under CLOSE_LIMIT_S with no child process or thread left.

Shared checks: pytest-qt fails a test on an exception in a Qt callback and on a Qt warning
(qt_log_level_fail), conftest's no_leaks on a thread, window, timer or child left; here
`quiet` adds the exceptions the window's guard caught (gui.common.guard.errors), Python warnings and
tracebacks printed to stderr (by this process or a child).
"""
import os
import resource
import signal
import time
from pathlib import Path

import psutil
import pytest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from engine.models import verify
from engine.models.loader import clear_cache
import gui.realheads.forward_process as fp
from gui.common.guard import errors
from gui.studies.cycle import StudyCycle
from gui.state import read_session
from gui_helpers import STARTED_THREADS, running_threads, view_in_front
from tab_fixtures import dispose, resource_tracker_first  # noqa: F401
from tests.disks import fill, make_read_only, small_disk
from model_faults import declare, flip_a_bit, install_as_minilm  # noqa: E402
from tiny_models import write_bert  # noqa: E402

#: The window's close, whatever its children do.
CLOSE_LIMIT_S = 2.0
#: What one Stop of a stalled training run may cost the GUI thread (the stop event, a look at
#: the process, the curves drawn as far as the run got).
STOP_BLOCK_S = 0.05
#: The longest any wait here takes (a new process's imports on a loaded machine).
WAIT_MS = 30000
#: A forward child's peak resident memory after a hostile header: numpy, tokenizers and a
#: tiny model; the header's 4 TB tensor must never be allocated.
CHILD_PEAK_MB = 600
#: This process's peak resident memory may grow this much while the tab shows the header.
OWN_PEAK_GROWTH_MB = 200
#: A training run long enough not to end by itself during the test.
LONG_RUN = {"steps": 5000}


# -- helpers ------------------------------------------------------------------------------

@pytest.fixture
def quiet(capfd, recwarn):
    """Nothing reaches the user as an error they did not cause: no exception caught by the
    window's guard, no Python warning, no traceback or error on stderr (children's too)."""
    seen = list(errors.seen)
    yield
    assert errors.seen == seen, errors.seen[len(seen):]
    assert [f"{w.category.__name__}: {w.message}" for w in recwarn] == []
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Error:" not in err, err


def open_window(monkeypatch, synchronous: bool):
    """A shown MainWindow (1400×900); its studies, and those of tabs built later, on worker
    threads unless `synchronous`."""
    from gui.window.main_window import MainWindow

    monkeypatch.setattr(StudyCycle, "synchronous", synchronous)
    win = MainWindow()
    win.resize(1400, 900)
    win.show()
    assert win.model.wait_idle()
    QApplication.processEvents()
    return win


def close_in_time(win, pids, mark: int) -> None:
    """Close `win` as the user does: under CLOSE_LIMIT_S, every process of `pids` ended (and
    reaped), and no thread started since `mark` (len(STARTED_THREADS) before the window was
    made) still running."""
    t0 = time.perf_counter()
    win.close()
    took = time.perf_counter() - t0
    assert took < CLOSE_LIMIT_S, f"the close took {took:.2f} s"
    left = [pid for pid in pids if psutil.pid_exists(pid)]
    assert not left, f"children left after the close: {left}"
    threads = running_threads(mark)
    assert not threads, [t.objectName() for t in threads]


def gone(pid: int) -> bool:
    """Exited and reaped (a zombie still has its pid)."""
    return not psutil.pid_exists(pid)


def peak_rss_mb(pid: int) -> float:
    """The peak resident memory of process `pid` (Linux's VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmHWM for {pid}")


# -- the Real heads tab: its forward child and its models --------------------------------

def the_process() -> fp.ForwardProcess:
    (process,) = fp.forward_processes()
    return process


def ask(qtbot, tab, sentence: str) -> None:
    """Type `sentence` as the user does and wait (bounded) until the tab shows its result or
    a message."""
    tab.sentence_edit.setText(sentence)
    qtbot.waitUntil(lambda: not tab._debounce.isActive() and tab.study.idle, timeout=WAIT_MS)
    QApplication.processEvents()


def shows(tab, sentence: str) -> None:
    assert tab.message == "", tab.message
    assert tab.result is not None and tab.result.error == ""
    assert tab.result.request.sentence == sentence


def choose(qtbot, tab, label_part: str) -> None:
    """Pick the chooser's entry whose text contains `label_part` (the user's click)."""
    combo = tab.model_combo
    rows = [i for i in range(combo.count()) if label_part in combo.itemText(i)]
    assert rows, [combo.itemText(i) for i in range(combo.count())]
    combo.setCurrentIndex(rows[0])
    combo.activated.emit(rows[0])
    qtbot.waitUntil(lambda: not tab._debounce.isActive() and tab.study.idle, timeout=WAIT_MS)
    QApplication.processEvents()


def offers_fetch_because(tab, folder: Path, reason: str) -> None:
    assert tab.message == ("This model could not be shown: the cached "
                           f"sentence-transformers/all-MiniLM-L6-v2 in {folder} cannot be "
                           f"used: {reason}")
    assert tab.message_label.isVisible()
    assert tab.fetch_button.isVisible() and tab.fetch_button.isEnabled()
    assert tab.model_combo.currentText() == "MiniLM-L6 (cannot be read)"
    assert tab.sentence_edit.isEnabled()


@pytest.mark.slow      # real forward processes
def test_the_real_heads_tab_meets_its_child_and_model_faults(qtbot, tmp_path, monkeypatch,
                                                            quiet):
    good = write_bert(tmp_path / "tiny-bert")
    minilm = install_as_minilm(good, tmp_path / "cache", monkeypatch)   # never the user's cache
    weights = minilm / "model.safetensors"
    flip_a_bit(weights)
    verify.forget()
    clear_cache()
    monkeypatch.setattr(fp, "REPLY_S", 1.0)        # a stalled child is given up after 1 s
    monkeypatch.setattr(fp, "STOP_WAIT_S", 0.3)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *args, **kwargs: str(folder)))
    mark = len(STARTED_THREADS)
    win = open_window(monkeypatch, synchronous=False)
    pids = set()
    try:
        tab = win.model_heads
        view_in_front(win, tab)
        QApplication.processEvents()

        # A damaged cache (one flipped bit): Fetch is offered and the tab says why.
        offers_fetch_because(tab, minilm, "model.safetensors does not match its pinned "
                                          "sha256 (damaged or changed)")

        # The user opens a model folder instead: a child process shows it.
        folder = good
        win.menus.open_model_action.trigger()
        qtbot.waitUntil(lambda: tab.result is not None or tab.message != "", timeout=WAIT_MS)
        assert tab.wait_idle(WAIT_MS)
        shows(tab, tab.state.heads_input.sentence)
        process = the_process()
        started = process.processes_started
        pids.add(process.pid)

        # The child killed while it works on a sentence: a new child shows that sentence,
        # without an error (the request is asked again once).
        killed = process.pid
        os.kill(killed, signal.SIGSTOP)               # holds the reply until the kill
        tab.sentence_edit.setText("the dog sat on the rug.")
        qtbot.waitUntil(lambda: tab.study.busy, timeout=WAIT_MS)
        os.kill(killed, signal.SIGKILL)
        ask(qtbot, tab, "the dog sat on the rug.")
        shows(tab, "the dog sat on the rug.")
        assert gone(killed)
        assert process.processes_started == started + 1
        pids.add(process.pid)

        # The child stopped: the request gives up after REPLY_S, the tab says so, the child
        # is killed, and the next sentence starts a new one.
        stalled = process.pid
        os.kill(stalled, signal.SIGSTOP)
        t0 = time.perf_counter()
        ask(qtbot, tab, "a bird sang in the tree.")
        assert time.perf_counter() - t0 < fp.REPLY_S + 3 * fp.STOP_WAIT_S + 2.0
        assert "did not answer within 1 s" in tab.message, tab.message
        assert "next sentence starts a new one" in tab.message
        assert tab.message_label.isVisible() and "\n" not in tab.message
        assert gone(stalled)
        ask(qtbot, tab, "the sun was warm.")
        shows(tab, "the sun was warm.")
        assert process.processes_started == started + 2
        pids.add(process.pid)

        # A hostile header (a 4 TB tensor of the wrong shape): one line, nothing allocated,
        # the child kept (the model's error is not the child's fault).
        folder = declare(write_bert(tmp_path / "hostile"), "embeddings.word_embeddings.weight",
                         "F32", (10**12,))
        own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        win.menus.open_model_action.trigger()
        qtbot.waitUntil(lambda: tab.message != "", timeout=WAIT_MS)
        assert tab.wait_idle(WAIT_MS)
        assert tab.message == ("This model could not be shown: tensor "
                               f"'embeddings.word_embeddings.weight' in {folder} has shape "
                               "(1000000000000,), config.json implies (25, 64)")
        assert tab.message_label.isVisible() and tab.result is None
        assert process.processes_started == started + 2
        assert peak_rss_mb(process.pid) < CHILD_PEAK_MB
        assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - own_peak \
            < OWN_PEAK_GROWTH_MB

        # The cached MiniLM cut short (a truncated download): chosen, it offers Fetch again.
        data = weights.read_bytes()
        weights.write_bytes(data[:len(data) // 2])
        choose(qtbot, tab, "MiniLM")
        offers_fetch_because(tab, minilm, f"model.safetensors has {len(data) // 2} bytes, "
                                          f"not {len(data)} (truncated or changed)")

        # Back to the good model, its child stopped while it works: the close does not wait.
        choose(qtbot, tab, "tiny-bert")
        shows(tab, "the sun was warm.")
        os.kill(process.pid, signal.SIGSTOP)
        tab.sentence_edit.setText("the window closes now.")
        qtbot.waitUntil(lambda: tab.study.busy, timeout=WAIT_MS)
        close_in_time(win, pids | {process.pid}, mark)
    finally:
        dispose(win)
        verify.forget()
        clear_cache()


# -- the Training tab: its training child --------------------------------------------------

def running(qtbot, panel, start) -> int:
    """Start a run with `start()` and wait (bounded) for its first snapshot; its pid."""
    with qtbot.waitSignal(panel.runner.snapshot_ready, timeout=WAIT_MS):
        start()
    assert panel.runner.is_running()
    assert not panel.start_button.isEnabled() and panel.stop_button.isEnabled()
    return panel.runner.pid


@pytest.mark.slow      # real training processes
def test_the_training_tab_meets_a_killed_and_a_stopped_child(qtbot, monkeypatch, quiet,
                                                            resource_tracker_first):
    mark = len(STARTED_THREADS)
    win = open_window(monkeypatch, synchronous=True)
    pids = set()
    try:
        panel = win.training_tab
        view_in_front(win, panel)
        QApplication.processEvents()

        # The child killed mid-run: the tab says the run ended, and Start works again.
        pid = running(qtbot, panel, lambda: panel.start("scaling", LONG_RUN))
        pids.add(pid)
        with qtbot.waitSignal(panel.runner.crashed, timeout=WAIT_MS):
            os.kill(pid, signal.SIGKILL)
        assert panel.status.text() == ("The training process ended unexpectedly (exit code -9). "
                                       "The window is fine; press Start to try again.")
        assert panel.status.isVisible()
        assert panel.start_button.isEnabled() and not panel.stop_button.isEnabled()
        pid = running(qtbot, panel, panel.start_button.click)
        pids.add(pid)

        # The child stopped: Stop returns at once, says where the run stopped, and the
        # stopped child is ended in the background.
        os.kill(pid, signal.SIGSTOP)
        t0 = time.perf_counter()
        panel.stop_button.click()
        took = time.perf_counter() - t0
        assert took < STOP_BLOCK_S, f"Stop blocked the GUI thread for {took:.2f} s"
        assert panel.status.text().startswith("Stopped at step ")
        assert panel.start_button.isEnabled() and not panel.stop_button.isEnabled()
        qtbot.waitUntil(lambda: gone(pid), timeout=WAIT_MS)

        # Stopped again, and the window closed: the close does not wait for it.
        pid = running(qtbot, panel, panel.start_button.click)
        pids.add(pid)
        os.kill(pid, signal.SIGSTOP)
        close_in_time(win, pids, mark)
    finally:
        dispose(win)


# -- the disk: full, or a read-only folder --------------------------------------------------

class Dialogs:
    """File dialogs answer `path`; message boxes are recorded in `warnings` (title, text)."""

    def __init__(self, monkeypatch):
        self.path = None
        self.warnings = []

        def warn(parent, title, text, *args, **kwargs):
            self.warnings.append((title, text))
            return QMessageBox.StandardButton.Ok

        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *args, **kwargs: (str(self.path), "")))
        monkeypatch.setattr(QMessageBox, "warning", staticmethod(warn))

    def give(self, action, path: Path) -> list:
        """Trigger `action` (a File command that asks where to save) answering `path`; the
        warnings it showed."""
        self.path, self.warnings = path, []
        action.trigger()
        return self.warnings


REASONS = {"full disk": "No space left on device", "read-only folder": "Read-only file system"}


@pytest.mark.parametrize("fault", list(REASONS))
def test_a_bad_disk_keeps_what_was_saved_and_says_why(shared_window, tmp_path, monkeypatch,
                                                      quiet, fault):
    win = shared_window
    dialogs = Dialogs(monkeypatch)
    panel = win.menus.export_panel_actions[next(iter(win.panels))]
    with small_disk(tmp_path / "disk", size_kb=8192) as disk:   # room for the window's image
        commands = {disk / "session.json": (win.menus.save_session_action, "Cannot save session"),
                    disk / "window.png": (win.menus.export_window_action, "Export failed"),
                    disk / "panel.png": (panel, "Export failed")}
        for path, (action, _title) in commands.items():        # saved while the disk was fine
            assert dialogs.give(action, path) == []
        saved = {path: path.read_bytes() for path in commands}
        seed = win.state.params.seed
        win.state.update_params(seed=seed + 1)                 # a change the user would save
        win.statusBar().clearMessage()
        fill(disk) if fault == "full disk" else make_read_only(disk)
        for path, (action, title) in commands.items():
            for target in (path, path.with_stem(path.stem + "-new")):
                (shown,) = dialogs.give(action, target)
                assert shown[0] == title and str(target) in shown[1], shown
                assert REASONS[fault] in shown[1], shown
                assert win.statusBar().currentMessage() == ""
        assert {path: path.read_bytes() for path in commands} == saved
        assert read_session(disk / "session.json").params.seed == seed
        assert sorted(p.name for p in disk.iterdir() if not p.name.startswith("filler")) == \
            sorted(path.name for path in commands)             # no partial or temporary file
