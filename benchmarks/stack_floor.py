#!/usr/bin/env python
"""What the stack alone costs on this machine: bare pyqtgraph plots, none of the app.

    python -m benchmarks.stack_floor            # prints one JSON object on stdout
    python -m benchmarks.stack_floor --changes 100

ui_latency.py times the app. This script times five plain `pg.PlotWidget`s in a
1600×1000 window on the same offscreen raster platform and the same pyqtgraph settings
as gui/app.py (antialiasing on, white background), with no Attention Lab code at all.
It gives a lower bound for what a change of the app can cost: the app's five panels
draw at least this much (curves, bars, axes, text) and more.

Each plot holds one 64-point curve (1 px pen) and one 8-bar BarGraphItem; a change
sets new data in all five and lets Qt paint, as harness.py does (events are processed
until two rounds in a row paint nothing). Scenarios:

fixed_ranges     ranges fixed: no axis moves, no text changes.
labels           as fixed_ranges plus `--labels` (10) pyqtgraph TextItems per plot, each
                 given a new number and position on every change (the app shows value
                 labels, notes and head numbers).
moving_axes      as labels, and the y range of every plot changes on every change (the
                 app's q·k axes follow d_k).
static_repaint   the five viewports repainted with nothing changed.
startup_seconds  a fresh `python -c` process: spawn → pyqtgraph imported → five plots
                 shown and painted (median of 3), timed as startup.py times the app.

Other processes on the machine inflate every figure: loadavg_1m records the load.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.stack_floor", *sys.argv[1:]])

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from .report import summary_ms  # noqa: E402
from .startup import spawn_child  # noqa: E402

PLOTS = 5
POINTS = 64
BARS = 8
WINDOW_PX = (1600, 1000)

STARTUP_CHILD = r"""
import time
t_start = time.monotonic()
import os, json
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QGridLayout, QWidget
app = QApplication([])
pg.setConfigOptions(antialias=True, background="w", foreground="k")
t_imports = time.monotonic()
win = QWidget(); grid = QGridLayout(win); win.resize(1600, 1000)
plots = [pg.PlotWidget() for _ in range(5)]
for i, w in enumerate(plots):
    grid.addWidget(w, i // 3, i % 3)
    w.plot(list(range(64)), [0.0] * 64)
painted, times = set(), {}
class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            painted.add(obj)
            if len(painted) == len(plots) and not times:
                times["t_paint"] = time.monotonic()
                QTimer.singleShot(0, app.quit)
        return False
watch = Watch()
for w in plots:
    w.viewport().installEventFilter(watch)
win.show()
app.exec()
print(json.dumps({"t_start": t_start, "t_imports": t_imports, **times}))
"""


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stack_floor",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300, help="timed changes per scenario")
    parser.add_argument("--labels", type=int, default=10, help="text items per plot")
    return parser.parse_args(argv)


class BarePlots:
    """Five PlotWidgets with a curve, bars and `labels` TextItems each."""

    def __init__(self, app, labels: int):
        import numpy as np
        import pyqtgraph as pg
        from PySide6.QtWidgets import QGridLayout, QWidget

        self.app, self.np = app, np
        self.rng = np.random.default_rng(0)
        self.window = QWidget()
        grid = QGridLayout(self.window)
        self.window.resize(*WINDOW_PX)
        self.plots, self.curves, self.bars, self.texts = [], [], [], []
        self.x = np.arange(POINTS, dtype=float)
        for i in range(PLOTS):
            plot = pg.PlotWidget()
            grid.addWidget(plot, i // 3, i % 3)
            plot.setXRange(0, POINTS, padding=0)
            plot.setYRange(-10, 10, padding=0)
            plot.disableAutoRange()
            self.plots.append(plot)
            self.curves.append(plot.plot(self.x, np.zeros(POINTS), pen=pg.mkPen("b", width=1)))
            bars = pg.BarGraphItem(x=np.arange(BARS), height=np.ones(BARS), width=0.6, brush="r")
            plot.addItem(bars)
            self.bars.append(bars)
            items = []
            for _ in range(labels):
                item = pg.TextItem("0")
                plot.addItem(item)
                items.append(item)
            self.texts.append(items)
        self.window.show()
        self.settle()

    def settle(self) -> None:
        for _ in range(2):
            self.app.processEvents()

    def change(self, k: int, with_text: bool, move_axes: bool) -> None:
        rng = self.rng
        for plot, curve, bars, texts in zip(self.plots, self.curves, self.bars, self.texts):
            scale = 1.0 + k % 7
            y = rng.normal(size=POINTS) * scale
            curve.setData(self.x, y)
            bars.setOpts(height=rng.random(BARS) * scale)
            if with_text:
                for j, item in enumerate(texts):
                    item.setText(f"{y[j]:.3f}")
                    item.setPos(float(j), float(y[j]))
            if move_axes:
                plot.setYRange(-4.0 * scale, 4.0 * scale, padding=0)
        self.settle()

    def change_times(self, changes: int, with_text: bool, move_axes: bool,
                     start: int = 0) -> list[float]:
        """Seconds each of changes start … start + changes − 1 took."""
        times = []
        for k in range(start, start + changes):
            t0 = time.perf_counter()
            self.change(k, with_text, move_axes)
            times.append(time.perf_counter() - t0)
        return times

    def timed(self, changes: int, with_text: bool, move_axes: bool) -> dict:
        return summary_ms(self.change_times(changes, with_text, move_axes))

    def static_repaint(self, rounds: int = 100) -> float:
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            for plot in self.plots:
                plot.viewport().repaint()
            times.append(time.perf_counter() - t0)
        return round(1000 * statistics.median(times), 3)


def measure_startup(runs: int = 3) -> dict:
    """Spawn → five bare plots painted, timed as startup.py times the app (median)."""
    rows = []
    for _ in range(runs):
        t_spawn, r = spawn_child(STARTUP_CHILD)
        rows.append({"total": r["t_paint"] - t_spawn, "imports": r["t_imports"] - r["t_start"]})
    return {"startup_seconds": round(statistics.median(r["total"] for r in rows), 3),
            "imports_seconds": round(statistics.median(r["imports"] for r in rows), 3)}


def bare_application():
    """The offscreen QApplication with gui/app.py's pyqtgraph options, none of its code."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    pg.setConfigOptions(antialias=True, background="w", foreground="k")
    return app


def main(argv=None) -> int:
    args = parse_args(argv)
    load_start = os.getloadavg()[0]
    app = bare_application()
    bare = BarePlots(app, args.labels)
    bare.timed(20, True, True)   # warm-up
    report = {
        "window_px": list(WINDOW_PX), "plots": PLOTS, "labels_per_plot": args.labels,
        "fixed_ranges": bare.timed(args.changes, False, False),
        "labels": bare.timed(args.changes, True, False),
        "moving_axes": bare.timed(args.changes, True, True),
        "static_repaint_p50_ms": bare.static_repaint(),
    }
    bare.window.close()
    report.update(measure_startup())
    report["loadavg_1m"] = [round(load_start, 2), round(os.getloadavg()[0], 2)]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
