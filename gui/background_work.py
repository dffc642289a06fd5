"""The window's background work yields to the simulation (issues 12 and 13).

While a d_k/h change is asked, computed, shown and painted, nothing from the background is
drawn: the training run's snapshots (gui/training_runner.py, TrainingRunner.hold_snapshots)
and the results of the head-roles and Real heads studies (ResultHold below) wait until the
simulation has been quiet for HOLD_S, then the newest one is drawn. Measured here (GUI-thread
CPU, medians): a Real heads result of MiniLM costs about 95 ms to show and paint (72
thumbnails, the detail, the texts), three times a whole d_k change; with a short sentence
re-run during each change, the p95 of the changes was 151 ms with such results drawn as they
came and 83 ms held (load 2.7). A head-roles result (the sentence is shared, and the Real
heads tab re-scores and redraws the hand-built heads beside its grid) costs about 1–3 ms.

    ResultHold(parent)
        hold()                 a slot: no result is delivered before hold_s from now
        hold_while_busy(study) ... nor while that StudyCycle computes or has a request waiting
        hold_results(study)    a StudyCycle's results go through the hold
        discard()              drop what waits (the window's close: its studies stop)
    BackgroundWork(window)     the window's wiring of both holds and of the Real heads
                               forward process started early (see its docstring)

A held result is a result the study has not delivered yet: the study stays busy (wait_idle
waits for it, a newer request waits as the pending one), and a result already stale when it
arrives, or once a newer request is made, is handed on at once (the study drops it without
drawing anything).
"""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Slot

from . import panel_names as names
from .training_runner import BUSY_RECHECK_MS, HOLD_S


class _Relay(QObject):
    """A StudyCycle's result gate (StudyCycle.set_result_gate): what the study computed
    waits here until the hold lets it through."""

    def __init__(self, hold: "ResultHold", study):
        super().__init__(hold)
        self.hold, self.study = hold, study
        self.waiting: tuple | None = None
        study.set_result_gate(self)

    def offer(self, _study, generation: int, result, seconds: float) -> None:
        self.waiting = (generation, result, seconds)
        self.hold._offer(self)

    def stale(self) -> bool:
        return self.waiting is not None and self.study.is_stale(self.waiting[0])

    def deliver(self) -> None:
        waiting, self.waiting = self.waiting, None
        if waiting is not None and self.study.is_running():
            self.study.deliver(*waiting)


class ResultHold(QObject):
    """Results of background studies wait while the simulation works (module docstring)."""

    def __init__(self, parent=None, hold_s: float = HOLD_S):
        super().__init__(parent)
        self.setObjectName("backgroundResultHold")
        self.hold_s = hold_s
        self.held = 0                    # results that had to wait (tests, benchmarks)
        self._relays: list[_Relay] = []
        self._hold_until = float("-inf")
        self._busy_study = None
        self._timer = QTimer(self, singleShot=True, objectName="backgroundHoldTimer")
        self._timer.timeout.connect(self._release)

    def hold_results(self, study) -> None:
        """Route `study`'s results (a StudyCycle) through this hold."""
        if not any(relay.study is study for relay in self._relays):
            self._relays.append(_Relay(self, study))

    def hold_while_busy(self, study) -> None:
        """Hold also while `study` (the simulation's StudyCycle) is not idle; None: no such
        study."""
        self._busy_study = study

    @Slot()
    @Slot(object)
    def hold(self, *_ignored) -> None:
        self._hold_until = max(self._hold_until, time.perf_counter() + self.hold_s)

    def is_holding(self) -> bool:
        busy = self._busy_study is not None and not self._busy_study.idle
        return self.hold_s > 0 and (busy or time.perf_counter() < self._hold_until)

    def waiting(self) -> int:
        return sum(relay.waiting is not None for relay in self._relays)

    def _offer(self, relay: _Relay) -> None:
        if relay.stale() or not self.is_holding():
            relay.deliver()
            return
        self.held += 1
        self._arm()

    def _arm(self) -> None:
        wait_ms = int(1000 * (self._hold_until - time.perf_counter())) + 1
        if self._busy_study is not None and not self._busy_study.idle:
            wait_ms = max(wait_ms, BUSY_RECHECK_MS)
        self._timer.start(max(1, min(wait_ms, BUSY_RECHECK_MS)))

    @Slot()
    def _release(self) -> None:
        holding = self.is_holding()
        for relay in self._relays:
            if relay.waiting is not None and (relay.stale() or not holding):
                relay.deliver()
        if self.waiting():
            self._arm()

    def discard(self) -> None:
        self._timer.stop()
        for relay in self._relays:
            relay.waiting = None


class BackgroundWork(QObject):
    """The window's background work, wired once at its start:

    - the head-roles study's results, and the Real heads study's once its tab is built, go
      through a ResultHold; the Training tab's runner holds its snapshots (hold_snapshots,
      hold_while_busy) for the same changes: the simulation's params_changed and its
      results_ready (connected after the window's show_results, so a hold starts once a
      result has been shown);
    - when the Real heads tab becomes the current tab for the first time, its forward process
      is started (gui.forward_process.start_early, off the GUI thread: the process starts
      and loads the chosen model while the tab is built), so its first request does not wait
      for Python, numpy and the model to load; the window's start starts nothing;
    - the window's close stops a process started early that no request has used.
    """

    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("backgroundWork")
        model = window.model
        self.hold = ResultHold(self)
        self.hold.hold_while_busy(model.cycle)
        model.params_changed.connect(self.hold.hold)
        model.results_ready.connect(self.hold.hold)
        self.hold.hold_results(window.heads_study)
        self.started_early = False
        window.lazy_tabs.built.connect(self._on_tab_built)
        window.bottom_tabs.currentChanged.connect(self._on_current_tab)

    @property
    def window(self):
        """The window: its Qt parent (an attribute would keep it alive in a reference cycle)."""
        return self.parent()

    @Slot(str, object)
    def _on_tab_built(self, key: str, widget) -> None:
        if key == names.TRAINING_PANEL:
            runner, model = widget.runner, self.window.model
            runner.hold_while_busy(model.cycle)
            model.params_changed.connect(runner.hold_snapshots)
            model.results_ready.connect(runner.hold_snapshots)
        elif key == names.MODEL_HEADS:
            self.hold.hold_results(widget.study)

    @Slot(int)
    def _on_current_tab(self, _index: int) -> None:
        lazy = self.window.lazy_tabs
        if self.started_early or self.window.bottom_tabs.currentWidget() is not \
                lazy.page(names.MODEL_HEADS):
            return
        self.started_early = True
        if lazy.is_built(names.MODEL_HEADS) and lazy.page(names.MODEL_HEADS).study.generation:
            return       # built earlier and already asked: its process exists
        from .forward_process import start_early
        from .model_heads import folder_of_model_view

        start_early(folder_of_model_view(self.window.state.model_view))

    def window_closing(self) -> None:
        """The window closes (MainWindow.closeEvent): drop held results, and stop a process
        started early that no request used. A method the window calls, not an event filter
        on it: a Python filter on the main window runs for every event it gets."""
        from .forward_process import stop_early

        self.hold.discard()
        stop_early()
        lazy = self.window.lazy_tabs
        if lazy.is_built(names.MODEL_HEADS):
            lazy.page(names.MODEL_HEADS).abort_forward()
