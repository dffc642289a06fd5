"""The simulation study: AppState's Params in, immutable engine Results out.

    intent (a control, a lesson step, a session load: AppState.update_params / set_params /
    restore) → AppState → events.params(Params) → request(params)
    → StudyCycle worker: engine.compute(params) → results_ready(Results) → the views

State is written one way, through AppState's intents, and read from one event source,
AppState's events.params: the controls and the lesson strip listen there themselves, and
this study listens there to make its requests. SimulationModel writes no state and owns none
of its own: `params` is AppState's, and the request cycle (generations, one pending request,
a worker thread) is the generic StudyCycle of gui/studies/cycle.py.

The first request is made when the study is made, so Results of the current Params exist or
are on their way from the start; after that every change of the Params is a request. An
intent that changes nothing (a lesson step whose Params equal the current ones) emits
nothing and needs no request.
"""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from engine import Params, Results, compute

from gui.common.guard import listener
from gui.studies.cycle import StudyCycle
from gui.state import AppState


class SimulationModel(QObject):
    """The simulation study of an AppState (see the module docstring)."""

    results_ready = Signal(object)    # Results, newest generation only
    compute_failed = Signal(str)

    def __init__(self, state: AppState | Params | None = None,
                 compute_fn: Callable[[Params], Results] = compute, parent=None):
        super().__init__(parent)
        if not isinstance(state, AppState):
            state = AppState() if state is None else _state_with(state)
        self.state = state
        self.cycle = StudyCycle("compute", compute_fn, self)
        self.cycle.result_ready.connect(self.results_ready)
        self.cycle.failed.connect(self.compute_failed)
        state.events.params.connect(self._on_params)
        self.request()      # the first Results (module docstring)

    @listener
    def _on_params(self, _params: Params) -> None:
        self.request()

    # -- state (AppState's) --------------------------------------------------------
    @property
    def params(self) -> Params:
        return self.state.params

    # -- the request cycle -----------------------------------------------------------
    @property
    def results(self) -> Results | None:
        return self.cycle.result

    @property
    def last_compute_seconds(self) -> float:
        return self.cycle.last_seconds

    @property
    def generation(self) -> int:
        return self.cycle.generation

    @property
    def busy(self) -> bool:
        return self.cycle.busy

    @property
    def dropped_generations(self) -> int:
        return self.cycle.dropped_generations

    def request(self) -> int:
        """Ask for Results of the current Params; returns the new generation."""
        return self.cycle.request(self.state.params)

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        return self.cycle.wait_idle(timeout_ms)

    def is_running(self) -> bool:
        return self.cycle.is_running()

    def shutdown(self) -> None:
        self.cycle.shutdown()


def _state_with(params: Params) -> AppState:
    from gui.state import StateSnapshot

    return AppState(StateSnapshot(params=params))
