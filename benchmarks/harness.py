"""The real MainWindow at 1600×1000 offscreen, driven through its controls and timed.

Everything goes through the window's public surface: the spin boxes and the lock
checkbox (setValue / setChecked), `MainWindow.show_results`, `Plot.update_results`,
`Plot.paused`, and Qt event filters that only watch:

- a filter on the panels' viewports counts their Paint events;
- a filter on the simulation study (`model.cycle`) notes when the worker's result
  arrives on the GUI thread (a queued call, a MetaCall event; see gui/studies/cycle.py),
  which is when the window's `show_results` starts;
- a slot on `model.results_ready`, connected after the window's own, runs when
  `show_results` has returned (Qt calls a signal's slots in connection order).
"""
from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import tempfile
import time

from PySide6.QtCore import QEvent, QObject

WINDOW_PX = (1600, 1000)


@contextlib.contextmanager
def app_environment():
    """Qt's offscreen platform unless one is set, and a throw-away XDG_CONFIG_HOME:
    MainWindow restores and saves QSettings, which must not touch the user's own."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    config = tempfile.mkdtemp(prefix="benchmarks_config_")
    old = os.environ.get("XDG_CONFIG_HOME")
    os.environ["XDG_CONFIG_HOME"] = config
    try:
        yield config
    finally:
        if old is None:
            os.environ.pop("XDG_CONFIG_HOME", None)
        else:
            os.environ["XDG_CONFIG_HOME"] = old
        shutil.rmtree(config, ignore_errors=True)


class PaintCounter(QObject):
    """Counts Paint events of the panels' viewports and notes which panels were painted.
    (Qt paints the rest of the window, status bar included, in the same backing-store pass
    as the panels, or within the same processEvents() call when no panel changed.)"""

    def __init__(self, panels):
        super().__init__()
        self.viewports = {p.viewport(): p.objectName() for p in panels}
        self.reset()

    def reset(self) -> None:
        self.count = 0
        self.panels: set = set()

    def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Paint:
            self.count += 1
            name = self.viewports.get(obj)
            if name is not None:
                self.panels.add(name)
        return False


class ArrivalClock(QObject):
    """perf_counter() of the last queued call delivered to the watched object."""

    def __init__(self):
        super().__init__()
        self.t = 0.0

    def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.MetaCall:
            self.t = time.perf_counter()
        return False


class Harness:
    """The real MainWindow; each change is timed from setValue to 'plots repainted'."""

    def __init__(self, workspace: str = "scaling"):
        """The window at WINDOW_PX with `workspace` (gui.window.layout.WORKSPACES: "scaling"
        or "multihead") in front; `panels` are that workspace's plots, the ones a change
        repaints (a hidden workspace's plots catch up when it is shown)."""
        from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
        from PySide6.QtWidgets import QCheckBox, QSpinBox

        from gui.app import create_application

        self.app = create_application([])
        from gui.window.main_window import MainWindow

        self.QCoreApplication, self.QTimer = QCoreApplication, QTimer
        self.win = win = MainWindow()
        win.resize(*WINDOW_PX)
        self.model = win.model
        self.workspace = workspace
        win.area.show_workspace(workspace)
        self.dk_spin = win.findChild(QSpinBox, "dkSpin")
        self.heads_spin = win.findChild(QSpinBox, "headsSpin")
        self.d_model_spin = win.findChild(QSpinBox, "dModelSpin")
        self.lock = win.findChild(QCheckBox, "lockDModelCheck")
        self.panel_area = win.area.pages[workspace]     # the workspace's page
        self.loop = QEventLoop()
        self.count = 0
        self.painted_counts: dict = {}
        self.failed = None
        self.t_shown = 0.0
        self.arrival = ArrivalClock()
        self.model.cycle.installEventFilter(self.arrival)
        self.model.results_ready.connect(self._after_show)   # after the window's show_results
        self.model.compute_failed.connect(self._on_failed)
        win.show()
        self.wait(0)
        self.drain()
        self.panels = [p for p in win.panels.values() if p.isVisible()]
        # On the panels' viewports only: an application-wide Python filter would add a
        # Python call to every event of the app and slow what it measures.
        self.paints = PaintCounter(self.panels)
        for panel in self.panels:
            panel.viewport().installEventFilter(self.paints)
        if any(panel.results is not self.model.results for panel in self.panels):
            raise RuntimeError("the window did not show its first Results: update the Harness")

    @property
    def t_recv(self) -> float:
        return self.arrival.t

    def _after_show(self, _results) -> None:
        self.t_shown = time.perf_counter()
        self.count += 1
        if self.loop.isRunning():
            self.loop.quit()

    def _on_failed(self, message) -> None:
        self.failed = message
        if self.loop.isRunning():
            self.loop.quit()

    def wait(self, count_before: int, timeout_ms: int = 20000) -> None:
        timer = self.QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(self.loop.quit)
        timer.start(timeout_ms)
        while self.count <= count_before and self.failed is None and timer.isActive():
            self.loop.exec()
        timer.stop()
        if self.failed is not None:
            raise RuntimeError(f"compute failed: {self.failed}")
        if self.count <= count_before:
            raise RuntimeError("timed out waiting for results_ready")

    def drain(self, rounds: int = 3) -> None:
        """Untimed: let Qt finish everything queued (deferred layouts, pending paints)."""
        for _ in range(rounds):
            self.app.processEvents()

    def record(self, rows: list, spin, value, mode: str = "qt") -> None:
        """timed_change, appended to `rows` with the control's name (if anything changed)."""
        row = self.timed_change(spin, value, mode)
        if row is not None:
            row["control"] = spin.objectName()
            rows.append(row)

    def paint_as_qt_does(self) -> set:
        """Let Qt paint what the change dirtied: process events until a round paints nothing.
        Returns the names of the panels that were painted."""
        self.paints.reset()
        quiet = 0
        for _ in range(20):
            before = self.paints.count
            self.app.processEvents()
            quiet = quiet + 1 if self.paints.count == before else 0
            if quiet == 2:
                break
        return set(self.paints.panels)

    def repaint_panels(self) -> None:
        """Flush posted layout requests, then render every panel's scene synchronously."""
        self.QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for panel in self.panels:
            panel.viewport().repaint()

    def set_untimed(self, spin, value) -> None:
        if spin.value() == value:
            return
        gen, count = self.model.generation, self.count
        spin.setValue(value)
        if self.model.generation != gen:
            self.wait(count)
        self.drain()

    def relock_512(self) -> None:
        """Untimed: back to the default locked shape d_model = 512."""
        if not self.lock.isChecked():
            self.lock.setChecked(True)
        if self.model.params.d_model != 512:
            self.set_untimed(self.d_model_spin, 512)

    def timed_change(self, spin, value, mode: str = "qt"):
        """One change: setValue → results shown → plots repainted. None if nothing changed.

        mode "qt": Qt's own paint of what changed (what a user sees); "full": every panel's
        whole viewport re-rendered synchronously (the cost after a resize or an expose)."""
        self.drain()
        gen, count = self.model.generation, self.count
        self.paints.reset()
        t0 = time.perf_counter()
        spin.setValue(value)
        t_set = time.perf_counter()
        if self.model.generation == gen:
            return None
        self.wait(count)
        if not t0 <= self.t_recv <= self.t_shown:
            raise RuntimeError("the Results' arrival was not seen: update the Harness")
        if mode == "qt":
            painted = self.paints.panels | self.paint_as_qt_does()
        else:
            self.repaint_panels()
            painted = {p.objectName() for p in self.panels}
        t_end = time.perf_counter()
        self.painted_counts[len(painted)] = self.painted_counts.get(len(painted), 0) + 1
        return {"total": t_end - t0, "controls": t_set - t0,
                "compute": self.model.last_compute_seconds,
                "render": t_end - self.t_recv, "update": self.t_shown - self.t_recv,
                "paint": t_end - self.t_shown, "params": self.model.params}

    def render_only(self, results, profiler=None, per_panel: dict | None = None) -> float:
        """update_results on every panel + repaint_panels; per_panel collects each part."""
        self.drain()
        if profiler is not None:
            profiler.enable()
        clock = time.perf_counter
        t0 = clock()
        marks = [t0]
        for panel in self.panels:
            panel.update_results(results)
            marks.append(clock())
        self.QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        marks.append(clock())
        for panel in self.panels:
            panel.viewport().repaint()
            marks.append(clock())
        t = clock() - t0
        if profiler is not None:
            profiler.disable()
        if per_panel is not None:
            n = len(self.panels)
            for i, panel in enumerate(self.panels):
                name = panel.objectName()
                per_panel.setdefault(f"{name}.update", []).append(marks[i + 1] - marks[i])
                per_panel.setdefault(f"{name}.repaint", []).append(marks[n + 2 + i] - marks[n + 1 + i])
            per_panel.setdefault("layout_flush", []).append(marks[n + 1] - marks[n])
        return t

    def render_as_qt_does(self, results) -> float:
        """The window's own show_results + Qt's paint of what changed (compute excluded)."""
        self.drain()
        t0 = time.perf_counter()
        self.win.show_results(results)
        self.paint_as_qt_does()
        return time.perf_counter() - t0

    @contextlib.contextmanager
    def panels_paused(self):
        """Panels keep Results aside (Plot.paused: nothing updated, nothing repainted): what
        is left of a change is the controls, the model, compute, the signal and the rest of
        the window. On exit the panels catch up with the newest Results, untimed."""
        for panel in self.panels:
            panel.paused = True
        try:
            yield
        finally:
            for panel in self.panels:
                panel.paused = False
                panel.catch_up()
            self.drain()

    def repaint_viewports(self) -> None:
        """Every panel's viewport repainted, nothing flushed first."""
        for panel in self.panels:
            panel.viewport().repaint()

    def static_repaint(self, rounds: int = 100) -> float:
        """Median time to repaint the workspace's panels' viewports with nothing changed."""
        self.drain()
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            self.repaint_viewports()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def close(self) -> None:
        """Stop every study's worker thread (simulation, head roles) and hide the window."""
        for study in self.win.studies:
            study.shutdown()
        self.win.hide()
