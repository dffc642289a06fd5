"""The background work's holds and early start (BackgroundWork, owned by the LabController).

    BackgroundWork(model, heads_study, runner, real_heads_study, state, parent)
        hold                 the ResultHold of the head-roles and Real heads studies
        view_shown(name)     a tab became current: the Real heads forward process may start
        closing()            the window closes: drop held results, stop the forward processes
"""
from __future__ import annotations

from PySide6.QtCore import QObject

from gui.common import names
from gui.studies.hold import ResultHold


class BackgroundWork(QObject):
    """Background results wait while the simulation works, and the Real heads forward process
    starts before its first request:

    - the head-roles and the Real heads studies' results go through a ResultHold; the
      training runner holds its snapshots (hold_snapshots, hold_while_busy) for the same
      changes: AppState's events.params and the simulation's results_ready (connected after
      the plots are offered the results, so a hold starts once a result has been shown);
    - when the Real heads tab becomes the current tab for the first time (view_shown), its
      forward process is started (gui.realheads.forward_process.start_early, off the GUI
      thread: the process starts and loads the chosen model while the tab is built), so its
      first request does not wait for Python, numpy and the model to load; the start of the
      lab starts nothing;
    - closing() stops a process started early that no request has used, and the Real heads
      study's forward process at once.

    It refers to no window: the studies and AppState are given.
    """

    def __init__(self, model, heads_study, runner, real_heads_study, state, parent=None):
        super().__init__(parent)
        self.setObjectName("backgroundWork")
        self.model, self.state = model, state
        self.hold = ResultHold(self)
        self.hold.hold_while_busy(model.cycle)
        state.events.params.connect(self.hold.hold)
        model.results_ready.connect(self.hold.hold)
        self.hold.hold_results(heads_study)
        self.real_heads_study = real_heads_study
        self.hold.hold_results(real_heads_study)
        runner.hold_while_busy(model.cycle)
        state.events.params.connect(runner.hold_snapshots)
        model.results_ready.connect(runner.hold_snapshots)
        self.started_early = False

    def view_shown(self, name: str) -> None:
        """The tab `name` became current: the first time it is the Real heads tab, and its
        study has asked nothing yet, the forward process is started early."""
        if self.started_early or name != names.MODEL_HEADS:
            return
        self.started_early = True
        if self.real_heads_study.generation:
            return       # already asked: its process exists
        from gui.realheads.forward_process import start_early
        from gui.realheads.study import folder_of_model_view

        start_early(folder_of_model_view(self.state.model_view))

    def closing(self) -> None:
        """The window closes: drop held results, stop a process started early that no request
        used, and end the Real heads forward process at once (before the studies stop)."""
        from gui.realheads.forward_process import abort_thread, stop_early

        self.hold.discard()
        stop_early()
        abort_thread(self.real_heads_study.thread)
