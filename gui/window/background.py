"""The window's background work, wired once at its start (BackgroundWork).

    BackgroundWork(window)   the ResultHold of the head-roles and Real heads studies, the
                             training runner's snapshot hold, and the Real heads forward
                             process started early (see the class)
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from gui.common import names
from gui.studies.hold import ResultHold


class BackgroundWork(QObject):
    """The window's background work, wired once at its start:

    - the head-roles study's results, and the Real heads study's once its tab is built, go
      through a ResultHold; the Training tab's runner holds its snapshots (hold_snapshots,
      hold_while_busy) for the same changes: the simulation's params_changed and its
      results_ready (connected after the window's show_results, so a hold starts once a
      result has been shown);
    - when the Real heads tab becomes the current tab for the first time, its forward process
      is started (gui.realheads.forward_process.start_early, off the GUI thread: the process starts
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
        from gui.realheads.forward_process import start_early
        from gui.realheads.study import folder_of_model_view

        start_early(folder_of_model_view(self.window.state.model_view))

    def window_closing(self) -> None:
        """The window closes (MainWindow.closeEvent): drop held results, and stop a process
        started early that no request used. A method the window calls, not an event filter
        on it: a Python filter on the main window runs for every event it gets."""
        from gui.realheads.forward_process import stop_early

        self.hold.discard()
        stop_early()
        lazy = self.window.lazy_tabs
        if lazy.is_built(names.MODEL_HEADS):
            lazy.page(names.MODEL_HEADS).abort_forward()
