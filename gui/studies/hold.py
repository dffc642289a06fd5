"""Results of background studies wait while the simulation works.

While a d_k/h change is asked, computed, shown and painted, nothing from the background is
drawn: results of the head-roles and Real heads studies wait in a ResultHold until the
simulation has been quiet for HOLD_S, then the newest one is drawn (the training run's
snapshots wait the same way, gui/training/runner.py TrainingRunner.hold_snapshots).

    ResultHold(parent)
        hold()                 a slot: no result is delivered before hold_s from now
        hold_while_busy(study) ... nor while that StudyCycle computes or has a request waiting
        hold_results(study)    a StudyCycle's results go through the hold
        discard()              drop what waits (the window's close: its studies stop)

A held result is a result the study has not delivered yet: the study stays busy (wait_idle
waits for it, a newer request waits as the pending one), and a result already stale when it
arrives, or once a newer request is made, is handed on at once (the study drops it without
drawing anything).
"""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Slot

from gui.common.guard import listener

#: Quiet time after the simulation's last change before a held result is drawn (s).
HOLD_S = 0.1
#: How often a held result looks again while the simulation's study is busy (ms).
BUSY_RECHECK_MS = 50


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
    @listener
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
