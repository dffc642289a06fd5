"""Start-up in a fresh process: spawn to the first painted window with Results, and its RSS.

The child runs from the repository root (`python -c` puts the working directory first
on sys.path, so it imports this checkout's gui/ and engine/). It notes when the first
Results arrive from the worker (an event filter on the simulation study, as in
harness.py) and when every panel's viewport has been painted after that.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARTUP_RUNS = 3

STARTUP_CHILD = r"""
import time
t_start = time.monotonic()
import json, os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QEvent, QObject, QTimer
from gui.app import create_application
app = create_application([])
from gui.window.main_window import MainWindow
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

def done():
    t_paint = time.monotonic()
    out = {"t_start": t_start, "t_imports": t_imports, "t_window": t_window,
           "t_results": state["results"], "t_paint": t_paint,
           "rss_mb": rss_mb("VmRSS"), "hwm_mb": rss_mb("VmHWM")}
    win.model.shutdown()
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
    os._exit(0)

class ArrivalWatch(QObject):
    # the worker's Results reach the GUI thread as a queued call to the study
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.MetaCall and state["results"] is None:
            state["results"] = time.monotonic()
        return False

class PaintWatch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and state["results"] is not None:
            state["painted"].add(obj)
            # every panel the layout shows (a small screen shows one row or one panel)
            shown = [p for p in win.panels.values() if p.isVisible()]
            if shown and all(p.viewport() in state["painted"] for p in shown) \
                    and not state["scheduled"]:
                state["scheduled"] = True
                QTimer.singleShot(0, done)  # runs once this paint pass has finished
        return False

arrival, watch = ArrivalWatch(), PaintWatch()
win.model.cycle.installEventFilter(arrival)
for panel in win.panels.values():
    panel.viewport().installEventFilter(watch)
win.resize(1600, 1000)
win.show()
QTimer.singleShot(30000, lambda: os._exit(3))
app.exec()
"""


def spawn_child(code: str, timeout: float = 60) -> tuple[float, dict]:
    """Run `code` in a fresh `python -c` from the repository root (offscreen unless a
    platform is set); returns the spawn time on CLOCK_MONOTONIC, comparable with the
    child's time.monotonic(), and the last JSON line the child printed."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    t_spawn = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not line:
        raise RuntimeError(f"start-up child failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return t_spawn, json.loads(line[-1])


def measure_startup(runs: int = STARTUP_RUNS) -> dict:
    """Median over `runs` fresh processes; seconds, and the child's VmRSS in MB."""
    rows = []
    for _ in range(runs):
        t_spawn, r = spawn_child(STARTUP_CHILD)
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


def against_stack(runs: int = 5) -> dict:
    """The app's start-up and the bare stack's (benchmarks.stack_floor), `runs` fresh
    processes each, taking turns: app, stack, app, stack, … A drift of the machine then
    reaches both medians alike, where two series taken minutes apart each got their own."""
    from .stack_floor import STARTUP_CHILD as STACK_CHILD

    app, stack = [], []
    for _ in range(runs):
        t_spawn, r = spawn_child(STARTUP_CHILD)
        app.append(r["t_paint"] - t_spawn)
        t_spawn, r = spawn_child(STACK_CHILD)
        stack.append(r["t_paint"] - t_spawn)
    app_s, stack_s = statistics.median(app), statistics.median(stack)
    return {"app_s": round(app_s, 4), "stack_s": round(stack_s, 4),
            "over_stack": round(app_s / stack_s, 3),
            "app_runs_s": [round(t, 4) for t in app], "stack_runs_s": [round(t, 4) for t in stack]}


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup",
                                     description="Start-up of the app against the bare stack, "
                                                 "taking turns in fresh processes.")
    parser.add_argument("--runs", type=int, default=5, help="processes of each (default 5)")
    args = parser.parse_args(argv)
    sys.stdout.write(json.dumps(against_stack(args.runs), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
