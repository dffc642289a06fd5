#!/usr/bin/env python
"""UI latency benchmark: start-up, per-change latency, and pyqtgraph vs matplotlib render cost.

    python benchmarks/ui_latency.py              # prints one JSON object on stdout
    python benchmarks/ui_latency.py --profile    # also: cProfile of the pyqtgraph render loop
                                                 # (top 25 by cumtime and by tottime, stderr)

What is measured (Qt's offscreen platform, raster painting, no GPU):

startup_seconds  median of 3 fresh `python -c` processes: from just before the process is
                 spawned to the moment every panel's viewport has been painted *after* the
                 first Results arrived (paint events are watched with an event filter).
rss_mb           VmRSS of that child process at that moment (median of the 3 runs).
defaults /       300 changes of the dkSpin / headsSpin widgets (spin.setValue) around
dk_16384         d_k = 64, d_model = 512, or near d_k = 16384. Each change is timed from
                 setValue to "plots repainted": results_ready has fired, the window's
                 show_results has updated all panels, and Qt has painted what changed
                 (events are processed until two rounds in a row paint no panel; the rest
                 of the window, status bar included, is painted in the same passes).
                 panels_painted_per_change says how many of the five panels each change
                 repainted. compute_* is model.last_compute_seconds (worker thread),
                 render_* is update + paint on the GUI thread.
steps            one-step changes as arrow keys or the wheel make them (d_k ± 1, h to the
                 next divisor): the cost of a typical drag. Reported, not a target.
floor            the defaults' changes with every panel ignoring Results (controls, model,
                 compute, the signal, status bar and lesson text; no plot updated or
                 painted), and static_repaint: the five viewports repainted with nothing
                 changed. No work in the panels can take a change below their sum.
full_repaint     the same changes, but every panel's whole viewport is re-rendered
                 synchronously (viewport().repaint()): the worst case, as after a resize.
render_only      the same Params sequence, Results computed beforehand (compute excluded):
                 pyqtgraph qt_paint = the window's show_results + Qt's paint of what changed;
                 pyqtgraph (no prefix) = update_results on the five panels + full repaints;
                 matplotlib = in-place artist updates of a comparable figure + canvas.draw()
                 + a synchronous repaint of the FigureCanvasQTAgg. matplotlib draws only the
                 first --mpl-changes (100) Results of each sequence (~0.25 s a draw); the speed-ups
                 compare pyqtgraph on those same Results. The 20x target is checked on
                 speedup_qt_paint_p50 (the app's own update); speedup_p50 is the full-repaint one.
Other processes on the machine inflate every figure: machine.loadavg_1m_* records the load.
"""
from __future__ import annotations

import time

_SCRIPT_T0 = time.perf_counter()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# MainWindow restores/saves QSettings; keep the benchmark away from the user's configuration.
_CONFIG_DIR = tempfile.mkdtemp(prefix="ui_latency_config_")
os.environ["XDG_CONFIG_HOME"] = _CONFIG_DIR

import numpy as np  # noqa: E402
from PySide6.QtCore import QEvent, QObject  # noqa: E402

TARGETS = {"p95_defaults_ms": 8, "p95_dk16384_ms": 16, "speedup_min": 20,
           "startup_max_s": 1.0, "rss_max_mb": 200}
CHANGES = 300
MPL_DRAWS = 100
STARTUP_RUNS = 3
MAX_HEADS_DRAWN = 8

# --------------------------------------------------------------------------------------
# 1. start-up in a fresh process
# --------------------------------------------------------------------------------------
STARTUP_CHILD = r"""
import time
t_start = time.monotonic()
import json, os, sys
sys.path.insert(0, os.environ["UI_LATENCY_ROOT"])
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QEvent, QObject, QTimer
from gui.app import create_application
app = create_application([])
from gui.main_window import MainWindow
t_imports = time.monotonic()
win = MainWindow()
t_window = time.monotonic()
state = {"results": None, "painted": set(), "scheduled": False}

def rss_mb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return float("nan")

def on_results(results):
    if state["results"] is None:
        state["results"] = time.monotonic()
    win.show_results(results)  # panels may paint inside it (scene updates are delivered there)

def done():
    t_paint = time.monotonic()
    out = {"t_start": t_start, "t_imports": t_imports, "t_window": t_window,
           "t_results": state["results"], "t_paint": t_paint,
           "rss_mb": rss_mb("VmRSS"), "hwm_mb": rss_mb("VmHWM")}
    win.model.shutdown()
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    os._exit(0)

class PaintWatch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and state["results"] is not None:
            state["painted"].add(obj)
            if len(state["painted"]) == len(win.panels) and not state["scheduled"]:
                state["scheduled"] = True
                QTimer.singleShot(0, done)  # runs once this paint pass has finished
        return False

watch = PaintWatch()
for panel in win.panels.values():
    panel.viewport().installEventFilter(watch)
win.model.results_ready.disconnect(win.show_results)  # time from the results' arrival
win.model.results_ready.connect(on_results)
win.show()
QTimer.singleShot(30000, lambda: os._exit(3))
app.exec()
"""


def measure_startup(runs: int = STARTUP_RUNS) -> dict:
    env = dict(os.environ, UI_LATENCY_ROOT=ROOT)
    rows = []
    for _ in range(runs):
        t_spawn = time.monotonic()  # CLOCK_MONOTONIC: comparable with the child's clock
        proc = subprocess.run([sys.executable, "-c", STARTUP_CHILD], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not line:
            raise RuntimeError(f"start-up child failed ({proc.returncode}): {proc.stderr[-2000:]}")
        r = json.loads(line[-1])
        rows.append({
            "total_s": r["t_paint"] - t_spawn,
            "interpreter_s": r["t_start"] - t_spawn,
            "imports_s": r["t_imports"] - r["t_start"],
            "window_s": r["t_window"] - r["t_imports"],
            "first_results_s": r["t_results"] - r["t_window"],
            "first_paint_after_results_s": r["t_paint"] - r["t_results"],
            "rss_mb": r["rss_mb"], "hwm_mb": r["hwm_mb"],
        })
    med = {k: round(statistics.median(row[k] for row in rows), 4) for k in rows[0]}
    return {"startup_seconds": med["total_s"], "rss_mb": round(med["rss_mb"], 1),
            "startup_breakdown_median": med,
            "startup_runs_s": [round(r["total_s"], 4) for r in rows]}


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------
def pct(values, q) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else float("nan")


def summary_ms(values_s) -> dict:
    ms = [1000 * v for v in values_s]
    return {"p50": round(pct(ms, 50), 3), "p95": round(pct(ms, 95), 3),
            "max": round(max(ms), 3) if ms else float("nan")}


def self_rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def machine_info() -> dict:
    import matplotlib
    import pyqtgraph
    import PySide6
    from PySide6.QtCore import qVersion

    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cpus": os.cpu_count(),
            "python": platform.python_version(), "qt": qVersion(), "pyside6": PySide6.__version__,
            "pyqtgraph": pyqtgraph.__version__, "matplotlib": matplotlib.__version__,
            "numpy": np.__version__, "qpa": os.environ.get("QT_QPA_PLATFORM"),
            "loadavg_1m_at_start": round(os.getloadavg()[0], 2)}


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


def _ignore_results(_results) -> None:
    """Stands in for Panel.update_results while Harness.panels_idle() is on."""


class Harness:
    """The real MainWindow, with results_ready timed around the window's own slot."""

    def __init__(self):
        from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QTimer
        from PySide6.QtWidgets import QCheckBox, QSpinBox, QSplitter

        from gui.app import create_application

        self.app = create_application([])
        from gui.main_window import MainWindow

        self.QCoreApplication, self.QEvent, self.QTimer = QCoreApplication, QEvent, QTimer
        self.win = win = MainWindow()
        win.resize(1600, 1000)
        self.model = win.model
        self.panels = list(win.panels.values())
        self.dk_spin = win.findChild(QSpinBox, "dkSpin")
        self.heads_spin = win.findChild(QSpinBox, "headsSpin")
        self.d_model_spin = win.findChild(QSpinBox, "dModelSpin")
        self.lock = win.findChild(QCheckBox, "lockDModelCheck")
        self.panel_area = win.findChild(QSplitter, "panelSplitter")
        self.loop = QEventLoop()
        self.count = 0
        self.painted_counts: dict = {}
        self.failed = None
        self.t_recv = self.t_shown = 0.0
        # Time the window's own slot: replace the connection by a wrapper around it.
        try:
            self.model.results_ready.disconnect(win.show_results)
        except (RuntimeError, TypeError) as exc:
            raise RuntimeError("MainWindow no longer connects model.results_ready to "
                               "show_results; update the benchmark's Harness") from exc
        self.model.results_ready.connect(self._timed_show)
        self.model.compute_failed.connect(self._on_failed)
        # On the panels' viewports only: an application-wide Python filter would add a
        # Python call to every event of the app and slow what it measures.
        self.paints = PaintCounter(self.panels)
        for panel in self.panels:
            panel.viewport().installEventFilter(self.paints)
        win.show()
        self.wait(0)
        self.drain()

    def _timed_show(self, results) -> None:
        self.t_recv = time.perf_counter()
        self.win.show_results(results)
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
        self.QCoreApplication.sendPostedEvents(None, self.QEvent.Type.LayoutRequest)
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
        self.QCoreApplication.sendPostedEvents(None, self.QEvent.Type.LayoutRequest)
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
    def panels_idle(self):
        """Panels ignore Results (nothing to update, nothing repainted): what is left of a
        change is the controls, the model, compute, the signal and the rest of the window."""
        for panel in self.panels:
            panel.update_results = _ignore_results
        try:
            yield
        finally:
            for panel in self.panels:
                del panel.update_results
            self.drain()

    def static_repaint(self, rounds: int = 100) -> float:
        """Median time to repaint the five panels' viewports with nothing changed."""
        self.drain()
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            for panel in self.panels:
                panel.viewport().repaint()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def close(self) -> None:
        self.model.shutdown()
        self.win.hide()


# --------------------------------------------------------------------------------------
# 2. latency of real control changes
# --------------------------------------------------------------------------------------
DK_AROUND_DEFAULT = [128, 64, 32, 96, 64, 256, 48, 64, 16, 128, 80, 64, 32, 100, 64, 8, 72, 128,
                     64, 256, 40, 64, 512, 64]
HEADS_DIVISORS_512 = [16, 4, 8, 32, 2, 8, 64, 1, 16, 8, 4, 8, 32]
DK_NEAR_MAX = [8192, 16000, 12288, 16383, 10000, 14336, 16128, 9000, 15000, 12000]


def run_defaults(h: Harness, n: int = CHANGES, mode: str = "qt") -> list[dict]:
    h.relock_512()
    h.set_untimed(h.dk_spin, 64)
    rows, i, dk_i, heads_i, guard = [], 0, 0, 0, 0
    while len(rows) < n and guard < 10 * n:
        guard += 1
        h.relock_512()  # every step starts from the locked default width d_model = 512
        if i % 2 == 0:  # d_k: powers of two keep the lock; in-between values unlock d_model
            spin, value = h.dk_spin, DK_AROUND_DEFAULT[dk_i % len(DK_AROUND_DEFAULT)]
            dk_i += 1
        else:           # h through divisors of 512 (locked: d_k = 512 / h follows)
            spin, value = h.heads_spin, HEADS_DIVISORS_512[heads_i % len(HEADS_DIVISORS_512)]
            heads_i += 1
        i += 1
        h.record(rows, spin, value, mode)
    return rows


def run_dk_max(h: Harness, n: int = CHANGES, mode: str = "qt") -> list[dict]:
    h.set_untimed(h.dk_spin, 16384)
    rows, i, guard = [], 0, 0
    while len(rows) < n and guard < 10 * n:
        guard += 1
        p = h.model.params
        if p.dk == 8192 and p.heads == 1 and i % 4 == 1:
            spin, value = h.heads_spin, 2          # 2 × 8192 = 16384
        elif p.dk != 16384:
            spin, value = h.dk_spin, 16384
        else:
            spin, value = h.dk_spin, DK_NEAR_MAX[(i // 2) % len(DK_NEAR_MAX)]
        i += 1
        h.record(rows, spin, value, mode)
    return rows


def run_steps(h: Harness, n: int = CHANGES) -> list[dict]:
    """What arrow keys and the mouse wheel do: one step at a time. d_k steps by 1 between
    48 and 96 (unlocked; d_model follows), then h steps through the divisors of 512
    (locked). Ranges move rarely, so this is the cost of a typical drag."""
    rows, guard, direction = [], 0, 1
    while len(rows) < n and guard < 10 * n:
        guard += 1
        if (len(rows) // 40) % 2 == 0:   # 40 d_k steps, then 40 h steps
            if h.lock.isChecked():
                h.lock.setChecked(False)
                h.drain()
            dk = h.model.params.dk
            if not 48 <= dk <= 96:
                h.set_untimed(h.dk_spin, 64)
                continue
            if not 48 < dk + direction < 96:
                direction = -direction
            h.record(rows, h.dk_spin, dk + direction)
        else:
            h.relock_512()
            if not 2 <= h.model.params.heads <= 64:
                h.set_untimed(h.heads_spin, 8)
                continue
            heads = h.model.params.heads
            target = heads * 2 if direction > 0 else heads // 2
            if not 2 <= target <= 64:
                direction = -direction
                continue
            h.record(rows, h.heads_spin, target)
    return rows


def latency_summary(rows: list[dict]) -> dict:
    total = summary_ms([r["total"] for r in rows])
    out = {"changes": len(rows),
           "p50_ms": total["p50"], "p95_ms": total["p95"], "max_ms": total["max"]}
    for key in ("compute", "render", "update", "paint", "controls"):
        s = summary_ms([r[key] for r in rows])
        out[f"{key}_p50_ms"], out[f"{key}_p95_ms"] = s["p50"], s["p95"]
    params = [r["params"] for r in rows]
    out["dk_range"] = [min(p.dk for p in params), max(p.dk for p in params)]
    out["d_model_range"] = [min(p.d_model for p in params), max(p.d_model for p in params)]
    out["heads_range"] = [min(p.heads for p in params), max(p.heads for p in params)]
    out["by_control"] = {c: len([r for r in rows if r["control"] == c])
                         for c in sorted({r["control"] for r in rows})}
    return out


# --------------------------------------------------------------------------------------
# 3. matplotlib comparison figure
# --------------------------------------------------------------------------------------
# The matplotlib side is self-contained (palette, number formats and the multi-head layout are
# copied from gui/ as of this writing) so that it does not break when gui/ changes.
UNSCALED, SCALED = "#D55E00", "#0072B2"
HEAD_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442",
                "#999999"]
TERM_COLOURS = {"projections": "#56B4E9", "scores": "#E69F00", "softmax": "#F0E442",
                "weighted_sum": "#009E73", "w_o": "#CC79A7"}
from gui.panels.multihead_view import (PIPE_WIDTH, ROW_HEIGHT, W_O_SIZE, W_O_X,  # noqa: E402,F401
                                      pipeline_layout as multihead_layout)
from gui.style import format_count, format_number  # noqa: E402


class MatplotlibFigure:
    """The five panels' content in one FigureCanvasQTAgg, artists updated in place."""

    def __init__(self, width_px: int, height_px: int):
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure
        from matplotlib.ticker import EngFormatter

        from engine.cost import TERMS
        from engine.saturation import METRICS

        self.TERMS, self.METRICS = TERMS, METRICS
        dpi = 100
        self.fig = Figure(figsize=(width_px / dpi, height_px / dpi), dpi=dpi)
        self.canvas = FigureCanvasQTAgg(self.fig)
        self.canvas.resize(width_px, height_px)
        fig = self.fig
        outer = fig.add_gridspec(2, 1, left=0.05, right=0.98, top=0.96, bottom=0.05, hspace=0.25)
        top = outer[0].subgridspec(1, 3, wspace=0.3)
        bottom = outer[1].subgridspec(1, 2, width_ratios=(3, 2), wspace=0.15)
        self.ax_soft = fig.add_subplot(top[0])
        var_gs = top[1].subgridspec(2, 1, hspace=0.45)
        self.ax_var = {"raw": fig.add_subplot(var_gs[0]), "scaled": fig.add_subplot(var_gs[1])}
        sat_gs = top[2].subgridspec(3, 1, hspace=0.15)
        first = fig.add_subplot(sat_gs[0])
        self.ax_sat = {METRICS[0]: first}
        for j, metric in enumerate(METRICS[1:], start=1):
            self.ax_sat[metric] = fig.add_subplot(sat_gs[j], sharex=first)
        self.ax_mh = fig.add_subplot(bottom[0])
        self.ax_cost = fig.add_subplot(bottom[1])

        # softmax: bars are created on the first update (their count is the score count)
        self.ax_soft.set_ylim(0, 1.3)
        self.ax_soft.set_title("softmax: raw vs ÷√d_k", fontsize=10)
        self.ax_soft.set_ylabel("probability (H in nats)")
        self.soft_bars = None
        self.soft_labels = [self.ax_soft.text(0, 0, "", ha="center", va="bottom", fontsize=8,
                                              visible=False) for _ in range(32)]
        # variance: stairs histogram + theory line + ±2σ² band
        self.hist, self.theory, self.stats, self._var_ranges = {}, {}, {}, {}
        for key, colour in (("raw", UNSCALED), ("scaled", SCALED)):
            ax = self.ax_var[key]
            self.hist[key] = ax.stairs(np.zeros(61), np.linspace(-1, 1, 62), fill=True,
                                       color=colour, alpha=0.45)
            (self.theory[key],) = ax.plot([], [], "--", color="#111111", lw=1)
            self.stats[key] = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize=8)
            ax.set_ylabel("density")
            self._var_ranges[key] = None
        self.ax_var["raw"].set_title("q·k: raw and ÷√d_k", fontsize=10)
        self.ax_var["raw"].set_xlabel("q·k")
        self.ax_var["scaled"].set_xlabel("q·k / √d_k")
        self.unit_band = self.ax_var["raw"].axvspan(-2, 2, color=SCALED, alpha=0.2, lw=0)
        # saturation: median lines, quartile bands, d_k marker
        self.sat_lines, self.sat_bands, self.sat_markers = {}, {}, {}
        self._sat_keys = None
        labels = {"max_prob": "max p", "entropy": "entropy (nats)", "jacobian_norm": "‖J‖_F"}
        for metric, ax in self.ax_sat.items():
            ax.set_xscale("log")
            ax.set_xlim(0.85, 16384 * 1.18)
            ax.set_ylabel(labels[metric], fontsize=8)
            for scaled in (False, True):
                colour = SCALED if scaled else UNSCALED
                (self.sat_lines[metric, scaled],) = ax.plot([], [], "o-", ms=3, lw=1.2, color=colour)
                self.sat_bands[metric, scaled] = None
            self.sat_markers[metric] = ax.axvline(64, ls=":", color="#111111", lw=0.8)
        self.ax_sat["jacobian_norm"].set_xlabel("d_k (log scale)")
        self.sat_title = self.ax_sat["max_prob"].set_title("", fontsize=10)
        self.fill_between_mode = None
        # multi-head: one axes, images at the same scene rectangles as MultiHeadView
        ax = self.ax_mh
        ax.set_axis_off()
        self.mh_title = ax.set_title("Multi-head attention with the engine's matrices", fontsize=10)
        blank = np.zeros((2, 2))
        img = dict(interpolation="nearest", aspect="auto", origin="upper")
        self.x_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.concat_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.output_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.w_o_img = ax.imshow(blank, cmap="RdBu_r", **img)
        self.head_maps = [ax.imshow(blank, cmap="viridis", **img) for _ in range(MAX_HEADS_DRAWN)]
        self.head_outs = [ax.imshow(blank, cmap="RdBu_r", **img) for _ in range(MAX_HEADS_DRAWN)]
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Rectangle

        self.x_blocks, self.concat_blocks = [], []
        for i in range(MAX_HEADS_DRAWN):
            for blocks in (self.x_blocks, self.concat_blocks):
                r = Rectangle((0, 0), 1, 1, fill=False, ec=HEAD_COLOURS[i % len(HEAD_COLOURS)], lw=1.2)
                ax.add_patch(r)
                blocks.append(r)
        self.head_labels = [ax.text(0, 0, "", ha="center", va="bottom", fontsize=8)
                            for _ in range(MAX_HEADS_DRAWN)]
        self.links = LineCollection([], colors="#111111", linewidths=0.8)
        ax.add_collection(self.links)
        self.mh_texts = {k: ax.text(0, 0, "", fontsize=8, va="bottom")
                         for k in ("x", "concat", "output", "w_o", "more", "note")}
        self._mh_key = None
        self._rects = None
        # cost: stacked bars per term, plus per-head slices
        ax = self.ax_cost
        ax.set_title("cost of one attention layer", fontsize=10)
        ax.yaxis.set_major_formatter(EngFormatter(unit="FLOP"))
        ax.set_xlim(-0.6, 4.0)
        self.term_bars = {}
        for term in TERMS:
            self.term_bars[term] = ax.bar([0.0, 1.0], [0.0, 0.0], width=0.6,
                                          color=TERM_COLOURS[term], ec="#111111", lw=0.3, label=term)
        ax.legend(loc="upper right", fontsize=8)
        self.head_bar = None
        self._heads = None
        self._top = None
        self.cost_info = ax.text(0.02, 0.97, "", transform=ax.transAxes, va="top", fontsize=8)
        self.canvas.show()

    # -- per panel updates ------------------------------------------------------------
    def _softmax(self, r) -> None:
        sm = r.softmax
        n = sm.scores.size
        x = np.arange(n, dtype=float)
        w = 0.38
        if self.soft_bars is None or len(self.soft_bars[0]) != n:
            if self.soft_bars is not None:
                for c in self.soft_bars:
                    c.remove()
            self.soft_bars = (
                self.ax_soft.bar(x - w / 2, sm.probs_unscaled, w, color=UNSCALED, alpha=0.86),
                self.ax_soft.bar(x + w / 2, sm.probs_scaled, w, color=SCALED, alpha=0.86))
            self.soft_legend = self.ax_soft.legend(self.soft_bars, ["", ""], loc="upper right",
                                                   fontsize=8)
            self.ax_soft.set_xlim(-0.6, n - 0.4)
        else:
            for rect, height in zip(self.soft_bars[0], sm.probs_unscaled):
                rect.set_height(height)
            for rect, height in zip(self.soft_bars[1], sm.probs_scaled):
                rect.set_height(height)
        self.ax_soft.set_xticks(x, [f"k{i + 1}\n{format_number(s)}" for i, s in enumerate(sm.scores)])
        probs = np.concatenate([sm.probs_unscaled, sm.probs_scaled])
        xs = np.concatenate([x - w / 2, x + w / 2])
        show = n <= 10
        for i, label in enumerate(self.soft_labels):
            if i < xs.size and show:
                label.set_text(format_number(float(probs[i])))
                label.set_position((float(xs[i]), float(probs[i]) + 0.01))
            label.set_visible(i < xs.size and show)
        texts = self.soft_legend.get_texts()
        texts[0].set_text(f"raw: H = {format_number(sm.entropy_unscaled)}, "
                          f"max p = {format_number(sm.max_prob_unscaled)}")
        texts[1].set_text(f"÷√{r.params.dk} = ÷{format_number(sm.divisor)}: "
                          f"H = {format_number(sm.entropy_scaled)}, max p = {format_number(sm.max_prob_scaled)}")

    def _variance(self, r) -> None:
        v = r.variance
        sigma2 = r.params.sigma ** 2
        for key, hist in (("raw", v.hist_unscaled), ("scaled", v.hist_scaled)):
            self.hist[key].set_data(hist.density, hist.edges)
            self.theory[key].set_data(hist.theory_x, hist.theory_density)
            half = float(hist.edges[-1])
            top = 1.15 * max(float(np.max(hist.density)), float(np.max(hist.theory_density)))
            old = self._var_ranges[key]
            if old is None or abs(old[0] / half - 1) > 1e-9 or not 0.85 < old[1] / top < 1.15:
                self.ax_var[key].set_xlim(-half, half)
                self.ax_var[key].set_ylim(0, top)
                self._var_ranges[key] = (half, top)
        self.unit_band.set_x(-2 * sigma2)
        self.unit_band.set_width(4 * sigma2)
        self.stats["raw"].set_text(
            f"raw, d_k = {v.dk}\nVar = {format_number(v.empirical_unscaled)} ± "
            f"{format_number(v.stderr_unscaled)}\ntheory d_k·σ⁴ = {format_number(v.theory_unscaled)}")
        self.stats["scaled"].set_text(
            f"÷√d_k\nVar = {format_number(v.empirical_scaled)} ± {format_number(v.stderr_scaled)}\n"
            f"theory σ⁴ = {format_number(v.theory_scaled)}\n{v.samples} samples, {v.theory_kind}")

    def _saturation(self, r) -> None:
        import math

        sat = r.saturation
        grid = sat.dk_grid
        for (metric, scaled), line in self.sat_lines.items():
            q = sat.quartiles(metric, scaled)
            line.set_data(grid, q.median)
            band = self.sat_bands[metric, scaled]
            if band is not None and hasattr(band, "set_data"):   # matplotlib ≥ 3.10: in place
                band.set_data(grid, q.q25, q.q75)
                self.fill_between_mode = "FillBetweenPolyCollection.set_data (in place)"
            else:
                if band is not None:
                    band.remove()
                    self.fill_between_mode = "fill_between recreated every update"
                colour = SCALED if scaled else UNSCALED
                self.sat_bands[metric, scaled] = self.ax_sat[metric].fill_between(
                    grid, q.q25, q.q75, color=colour, alpha=0.24, lw=0)
        if sat.keys != self._sat_keys:
            self._sat_keys = sat.keys
            self.ax_sat["max_prob"].set_ylim(0, 1.05)
            self.ax_sat["entropy"].set_ylim(0, 1.05 * math.log(sat.keys))
            self.ax_sat["jacobian_norm"].set_ylim(0, 0.55)
        for marker in self.sat_markers.values():
            marker.set_xdata([r.params.dk, r.params.dk])
        self.sat_title.set_text(f"saturation vs d_k ({sat.keys} keys, {sat.trials} queries per d_k)")

    def _multihead(self, r) -> None:
        mh = r.multihead
        n = mh.x.shape[0]
        drawn = min(mh.computed_heads, MAX_HEADS_DRAWN)
        key = (n, mh.computed_heads, drawn)

        def extent(rect):
            return (rect.left(), rect.right(), rect.bottom(), rect.top())

        if key != self._mh_key:
            self._mh_key = key
            lay = multihead_layout(n, mh.computed_heads, drawn)  # MultiHeadView's scene rects
            self._rects = lay
            x_rect, c_rect = lay["x"], lay["concat"]
            for i in range(MAX_HEADS_DRAWN):
                visible = i < drawn
                for artist in (self.head_maps[i], self.head_outs[i], self.x_blocks[i],
                               self.concat_blocks[i], self.head_labels[i]):
                    artist.set_visible(visible)
                if not visible:
                    continue
                left, width = lay["blocks"][i]
                self.x_blocks[i].set_bounds(left, x_rect.top(), width, x_rect.height())
                self.concat_blocks[i].set_bounds(left, c_rect.top(), width, c_rect.height())
                hm = lay["heads"][i]
                self.head_labels[i].set_position((hm.center().x(), hm.top() - 2))
                self.head_maps[i].set_extent(extent(hm))
                self.head_outs[i].set_extent(extent(lay["outs"][i]))
            segs = []
            for i in range(drawn):
                left, width = lay["blocks"][i]
                hm, out = lay["heads"][i], lay["outs"][i]
                segs += [[(left + width / 2, x_rect.bottom()), (hm.center().x(), hm.top() - 16)],
                         [(hm.center().x(), hm.bottom()), (out.center().x(), out.top())],
                         [(out.center().x(), out.bottom() + 16), (left + width / 2, c_rect.top())]]
            w_o = lay["w_o"]
            segs += [[(c_rect.right(), c_rect.center().y()), (w_o.left(), c_rect.center().y())],
                     [(w_o.left(), lay["output"].center().y()),
                      (lay["output"].right(), lay["output"].center().y())]]
            self.links.set_segments(segs)
            for img, name in ((self.x_img, "x"), (self.concat_img, "concat"),
                              (self.output_img, "output"), (self.w_o_img, "w_o")):
                img.set_extent(extent(lay[name]))
                self.mh_texts[name].set_position((lay[name].left(), lay[name].top() - 2))
            self.mh_texts["more"].set_position((lay["w_o"].right(), lay["x"].top() - 2))
            self.mh_texts["note"].set_position((0, lay["output"].bottom() + 4))
            self.mh_texts["note"].set_va("top")
            self.ax_mh.set_xlim(-10, lay["w_o"].right() + 10)
            self.ax_mh.set_ylim(lay["output"].bottom() + 30, 0)   # inverted, like the ViewBox
            self.ax_mh.set_aspect("equal", adjustable="box")
        lim_c = float(np.max(np.abs(mh.concat))) or 1.0
        lim_o = float(np.max(np.abs(mh.output))) or 1.0
        lim_w = float(np.max(np.abs(mh.w_o))) or 1.0
        for img, data, lim in ((self.x_img, mh.x, 3.0), (self.concat_img, mh.concat, lim_c),
                               (self.output_img, mh.output, lim_o), (self.w_o_img, mh.w_o, lim_w)):
            img.set_data(data)
            img.set_clim(-lim, lim)
        for i in range(drawn):
            self.head_maps[i].set_data(mh.weights[i])
            self.head_maps[i].set_clim(0.0, 1.0)
            self.head_outs[i].set_data(mh.head_outputs[i])
            self.head_outs[i].set_clim(-lim_c, lim_c)
            self.head_labels[i].set_text(f"head {i + 1}")
        d, h, dk = mh.d_model, mh.heads, mh.dk
        t = self.mh_texts
        t["x"].set_text(f"X  ({n} × {d}) = {h} blocks of d_k = {dk}")
        t["concat"].set_text(f"concat of {h} head outputs of {n} × {dk}  →  {n} × {d}")
        t["output"].set_text(f"output = concat · W_O  ({n} × {d})")
        t["w_o"].set_text(f"W_O  ({d} × {d})")
        hidden = h - drawn
        t["more"].set_text(f"+{hidden} more heads not drawn" if hidden > 0 else "")
        t["more"].set_ha("right")
        notes = ["attention: softmax(QKᵀ/√d_k)" if r.params.scale else "attention: softmax(QKᵀ)"]
        if mh.reduced:
            notes.append(f"matrices drawn at reduced width {mh.computed_heads * mh.computed_dk}")
        t["note"].set_text("   ".join(notes))

    def _cost(self, r) -> None:
        single, multi = r.cost_single, r.cost_multi
        bottom = np.zeros(2)
        for term, bars in self.term_bars.items():
            heights = np.array([single.total[term], multi.total[term]], dtype=float)
            for rect, y0, hgt in zip(bars, bottom, heights):
                rect.set_y(y0)
                rect.set_height(hgt)
            bottom += heights
        h = multi.heads
        per_head = float(sum(multi.per_head.values()))
        heights = np.append(np.full(h, per_head), float(multi.total["w_o"]))
        y0 = np.append(np.arange(h) * per_head, h * per_head)
        if h != self._heads:          # slice count changed: new artists (as pyqtgraph's setOpts)
            self._heads = h
            if self.head_bar is not None:
                self.head_bar.remove()
            colours = [("#7F7F7F", "#BFBFBF")[i % 2] for i in range(h)] + [TERM_COLOURS["w_o"]]
            self.head_bar = self.ax_cost.bar(np.full(h + 1, 2.0), heights, 0.6, bottom=y0,
                                             color=colours, ec="#111111", lw=0 if h > 64 else 0.3)
        else:
            for rect, b, hgt in zip(self.head_bar, y0, heights):
                rect.set_y(b)
                rect.set_height(hgt)
        top = 1.5 * max(single.flops, multi.flops)
        if self._top is None or not 0.9 < self._top / top < 1.1:
            self._top = top
            self.ax_cost.set_ylim(0, top)
        self.ax_cost.set_xticks([0, 1, 2], ["1 head", f"{h} heads", "per head"])
        share = multi.total["w_o"] / multi.flops
        self.cost_info.set_text(
            f"n = {multi.seq_len} tokens\n1 × {multi.d_model}  vs  {h} × {multi.d_model // h}\n"
            f"W_O: {share:.1%} of FLOPs\nparams {format_count(single.params)} → "
            f"{format_count(multi.params)}")

    def update(self, r) -> None:
        self._softmax(r)
        self._variance(r)
        self._saturation(r)
        self._multihead(r)
        self._cost(r)

    def render(self, r) -> float:
        t0 = time.perf_counter()
        self.update(r)
        self.canvas.draw()      # full Agg render of the figure
        self.canvas.repaint()   # synchronous blit into the window (paintEvent)
        return time.perf_counter() - t0


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------
def results_for(params_seq, cache: dict) -> list:
    from engine import compute

    out = []
    for p in params_seq:
        if p not in cache:
            cache[p] = compute(p)
        out.append(cache[p])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the pyqtgraph render loop; top 25 by cumtime on stderr")
    parser.add_argument("--changes", type=int, default=CHANGES)
    parser.add_argument("--quick", action="store_true",
                        help="latency only (no start-up runs, no matplotlib): for iterating")
    parser.add_argument("--mpl-changes", type=int, default=MPL_DRAWS,
                        help=f"matplotlib draws per sequence (first N of the same Results; "
                             f"default {MPL_DRAWS}: one draw takes ~0.25 s)")
    args = parser.parse_args()
    report: dict = {}
    try:
        startup = None if args.quick else measure_startup()
        h = Harness()
        report["machine"] = machine_info()
        if startup is not None:
            report["startup_seconds"] = startup["startup_seconds"]
            report["rss_mb"] = startup["rss_mb"]
            report["startup_breakdown_median"] = startup["startup_breakdown_median"]
            report["startup_runs_s"] = startup["startup_runs_s"]

        # warm-up: a few untimed changes (first tick layouts, image LUTs, ...)
        for v in (128, 64, 96):
            h.set_untimed(h.dk_spin, v)
        defaults_rows = run_defaults(h, args.changes, "qt")
        dk_rows = run_dk_max(h, args.changes, "qt")
        report["defaults"] = latency_summary(defaults_rows)
        report["dk_16384"] = latency_summary(dk_rows)
        report["panels_painted_per_change"] = {str(k): v for k, v in sorted(h.painted_counts.items())}
        report["steps"] = latency_summary(run_steps(h, args.changes))
        report["steps"]["note"] = ("one-step changes (arrow keys, mouse wheel): d_k ±1 in "
                                   "48…96 unlocked, h ×2 / ÷2 locked at 512; not a target")
        with h.panels_idle():
            floor = latency_summary(run_defaults(h, args.changes, "qt"))
        report["floor"] = {
            "no_panel_work_p50_ms": floor["p50_ms"], "no_panel_work_p95_ms": floor["p95_ms"],
            "controls_p50_ms": floor["controls_p50_ms"], "compute_p50_ms": floor["compute_p50_ms"],
            "static_repaint_p50_ms": round(1000 * h.static_repaint(), 3),
            "note": "the defaults' changes with the panels ignoring Results (controls, model, "
                    "compute, signal, the rest of the window), and a repaint of the five panels "
                    "with nothing changed: together, what any change costs before the panels "
                    "do any work of their own"}
        report["full_repaint"] = {
            "defaults": latency_summary(run_defaults(h, args.changes, "full")),
            "dk_16384": latency_summary(run_dk_max(h, args.changes, "full")),
            "note": "the same changes, but every panel's whole viewport re-rendered "
                    "synchronously (viewport().repaint()): the cost after a resize or expose"}
        if args.quick:
            h.close()
            sys.stdout.write(json.dumps(report, indent=2) + "\n")
            return 0

        # render-only: same Params sequences, Results computed up front
        cache: dict = {}
        seq = {"defaults": results_for([r["params"] for r in defaults_rows], cache),
               "dk_16384": results_for([r["params"] for r in dk_rows], cache)}
        size = h.panel_area.size()
        mpl = MatplotlibFigure(size.width(), size.height())
        h.drain()
        render_only = {"figure_px": [size.width(), size.height()]}
        for name, results in seq.items():
            n_mpl = min(args.mpl_changes, len(results))
            for r in results[:3]:                     # warm both sides
                h.render_only(r)
                mpl.render(r)
            qt_times = [h.render_as_qt_does(r) for r in results]
            parts: dict = {}
            pg_times = [h.render_only(r, per_panel=parts) for r in results]
            mpl_times = []
            for r in results[:n_mpl]:
                h.drain()
                mpl_times.append(mpl.render(r))
            pg, mp = summary_ms(pg_times), summary_ms(mpl_times)
            same = summary_ms(pg_times[:n_mpl])   # the speed-up compares the same Results
            qt, qt_same = summary_ms(qt_times), summary_ms(qt_times[:n_mpl])
            block = {"pyqtgraph_qt_paint_p50_ms": qt["p50"], "pyqtgraph_qt_paint_p95_ms": qt["p95"],
                     "speedup_qt_paint_p50": round(mp["p50"] / qt_same["p50"], 2),
                     "speedup_qt_paint_p95": round(mp["p95"] / qt_same["p95"], 2),
                     "pyqtgraph_p50_ms": pg["p50"], "pyqtgraph_p95_ms": pg["p95"],
                     "pyqtgraph_same_draws_p50_ms": same["p50"],
                     "matplotlib_p50_ms": mp["p50"], "matplotlib_p95_ms": mp["p95"],
                     "speedup_p50": round(mp["p50"] / same["p50"], 2),
                     "speedup_p95": round(mp["p95"] / same["p95"], 2),
                     "draws": {"pyqtgraph": len(pg_times), "matplotlib": len(mpl_times)},
                     "pyqtgraph_parts_p50_ms": {k: round(1000 * float(np.median(v)), 3)
                                                for k, v in parts.items()}}
            if name == "defaults":
                render_only.update(block)
            else:
                render_only[name] = block
        render_only["matplotlib_fill_between"] = mpl.fill_between_mode
        render_only["note"] = ("matplotlib: artists built once, updated in place (set_height, "
                               "set_data, set_extent/set_clim); the per-head cost bars are rebuilt "
                               "when h changes, as pyqtgraph rebuilds its brushes; canvas.draw() + "
                               "repaint(). pyqtgraph qt_paint: the window's show_results + Qt's own "
                               "paint of what changed (what the app does); pyqtgraph (no prefix): "
                               "update_results on 5 panels + full synchronous viewport repaints.")
        report["render_only"] = render_only

        if args.profile:
            import cProfile
            import io
            import pstats

            for name, results in seq.items():   # only the timed part: update + repaint
                prof = cProfile.Profile()
                for r in results:
                    h.render_only(r, prof)
                for order in ("cumulative", "tottime"):
                    buf = io.StringIO()
                    pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(25)
                    sys.stderr.write(f"=== cProfile: pyqtgraph render loop ({name}), by {order} ===\n")
                    sys.stderr.write(buf.getvalue())

        report["benchmark_process_rss_mb"] = round(self_rss_mb(), 1)
        # Other processes on the machine inflate every figure; a high load average says so.
        report["machine"]["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
        h.close()
        report["targets"] = TARGETS
        ro = report["render_only"]
        report["met"] = {
            "p95_defaults_ms": report["defaults"]["p95_ms"] <= TARGETS["p95_defaults_ms"],
            "p95_dk16384_ms": report["dk_16384"]["p95_ms"] <= TARGETS["p95_dk16384_ms"],
            "speedup_min": ro["speedup_qt_paint_p50"] >= TARGETS["speedup_min"],
            "startup_max_s": report["startup_seconds"] <= TARGETS["startup_max_s"],
            "rss_max_mb": report["rss_mb"] <= TARGETS["rss_max_mb"],
        }
        report["benchmark_seconds"] = round(time.perf_counter() - _SCRIPT_T0, 1)
    finally:
        shutil.rmtree(_CONFIG_DIR, ignore_errors=True)
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    code = main()
    os._exit(code)  # skip interpreter teardown of Qt objects (no window close: no QSettings writes)
