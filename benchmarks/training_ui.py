#!/usr/bin/env python
"""Does a training run make the window stutter? d_k/h latency while training vs idle.

    python -m benchmarks.training_ui                       # prints one JSON object
    python -m benchmarks.training_ui --changes 60 --experiments roles
    python -m benchmarks.training_ui --niceness 0 --no-idle-class --steps-snapshots  # old

The real MainWindow (benchmarks/harness.py, offscreen, 1600×1000) with its Training tab in
front. For each experiment:

idle        the defaults' d_k / h changes of benchmarks/scenarios.py (dkSpin / headsSpin,
            setValue → results shown → plots repainted), nothing training;
training    the same changes while the experiment trains in its spawned process (its
            steps raised so that it outlasts the changes), the Training tab drawing the
            snapshots it is shown; p50_ratio / p95_ratio = training / idle;
watching    then --watch seconds with the window idle while the run trains (what a user
            watching the run sees);
snapshots   painted_hz = distinct snapshots painted per second: a snapshot counts once a
            Paint event of a Training tab widget (its plots' viewports, its progress bar)
            follows it, and only if its step differs from the last one painted; received_hz
            = snapshots read off the pipe (runner.snapshots_received), shown_hz = snapshots
            handed to the tab (the newest of each wake-up); steps_per_s = steps done /
            seconds between the first and the last snapshot of the phase;
            window_cpu_share / training_cpu_share = CPU seconds per second of the window's
            process (all its threads) and of the training process: less noisy than the
            times on a shared machine.
--hidden    the Training tab behind another tab: what the training process alone costs
            the window (CPU shared with it), nothing drawn.
--niceness / --no-idle-class / --steps-snapshots   the runner's public knobs
            (TrainingRunner.niceness, .idle_class, .snapshot_period_s), to measure what each
            of them does; --niceness 0 --no-idle-class --steps-snapshots is the old runner.

Targets (issue 12): while training, p95 ≤ 16.7 ms and p50 ≤ 1.3 × the idle p50; snapshots
on screen ≥ 10 Hz. The machine is shared; the load average is recorded.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.training_ui", *sys.argv[1:]])

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

import psutil  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer  # noqa: E402

from .harness import Harness, app_environment  # noqa: E402
from .report import latency_summary  # noqa: E402
from .scenarios import run_defaults  # noqa: E402

TARGETS = {"p95_ms": 16.7, "p50_ratio_max": 1.3, "snapshots_painted_hz_min": 10.0}
#: Long enough that every run outlasts the timed changes; the run is stopped after them.
TRAINING_OPTIONS = {"scaling": {"steps": 5000}, "roles": {"steps": 20000},
                    "heads": {"steps": 5000}}


class SnapshotClock(QObject):
    """Snapshots the Training tab was shown (a slot connected after the tab's own) and the
    distinct ones that were then painted (an event filter on its widgets)."""

    def __init__(self, panel):
        super().__init__()
        self.runner = panel.runner
        self.shown: list[tuple[float, int]] = []
        self.painted: list[tuple[float, int]] = []
        self._waiting = None
        self.runner.snapshot_ready.connect(self.on_snapshot)
        self.widgets = [plot.viewport() for plot in panel.plots] + [panel.progress]
        for widget in self.widgets:
            widget.installEventFilter(self)

    def on_snapshot(self, snapshot) -> None:
        self.shown.append((time.perf_counter(), snapshot.step))
        self._waiting = snapshot.step

    def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Paint and self._waiting is not None:
            if not self.painted or self.painted[-1][1] != self._waiting:
                self.painted.append((time.perf_counter(), self._waiting))
            self._waiting = None
        return False

    def close(self) -> None:
        self.runner.snapshot_ready.disconnect(self.on_snapshot)
        for widget in self.widgets:
            widget.removeEventFilter(self)

    def child_cpu_s(self) -> float:
        try:
            times = psutil.Process(self.runner.pid).cpu_times()
            return times.user + times.system
        except (psutil.Error, TypeError, ValueError):
            return float("nan")

    def mark(self) -> tuple:
        return (time.perf_counter(), len(self.shown), len(self.painted),
                self.runner.snapshots_received, time.process_time(), self.child_cpu_s())

    def rates(self, start: tuple) -> dict:
        t0, shown0, painted0, received0, cpu0, child0 = start
        seconds = time.perf_counter() - t0
        window_cpu = time.process_time() - cpu0
        child_cpu = self.child_cpu_s() - child0
        shown = self.shown[shown0:]
        steps_per_s = ((shown[-1][1] - shown[0][1]) / (shown[-1][0] - shown[0][0])
                       if len(shown) > 1 and shown[-1][0] > shown[0][0] else float("nan"))
        return {"seconds": round(seconds, 2),
                "snapshots_painted_hz": rate(len(self.painted) - painted0, seconds),
                "snapshots_shown_hz": rate(len(shown), seconds),
                "snapshots_received_hz": rate(self.runner.snapshots_received - received0,
                                              seconds),
                "steps_per_s": round(steps_per_s, 1),
                "window_cpu_share": round(window_cpu / seconds, 3) if seconds > 0 else None,
                "training_cpu_share": round(child_cpu / seconds, 3) if seconds > 0 else None}


def rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("nan")


def ratio(a: float, b: float):
    return round(a / b, 2) if b else None


def spin(h: Harness, seconds: float) -> None:
    """Run the event loop for `seconds` with nothing else to do (no busy polling)."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def measure(h: Harness, experiment: str, changes: int, watch_s: float) -> dict:
    panel = h.win.training_panel
    idle = latency_summary(run_defaults(h, changes, "qt"))
    clock = SnapshotClock(panel)
    try:
        panel.start(experiment, TRAINING_OPTIONS[experiment])
        deadline = time.perf_counter() + 60
        while not clock.shown and time.perf_counter() < deadline:   # the process starts up
            spin(h, 0.05)
        if not clock.shown:
            raise RuntimeError(f"{experiment}: no snapshot within 60 s ({panel.status.text()})")
        start = clock.mark()
        busy = latency_summary(run_defaults(h, changes, "qt"))
        during = clock.rates(start)
        start = clock.mark()
        spin(h, watch_s)
        watching = clock.rates(start)
        finished = not panel.runner.is_running()
        panel.stop()
    finally:
        clock.close()
    return {
        "idle": idle, "training": busy,
        "p50_ratio": ratio(busy["p50_ms"], idle["p50_ms"]),
        "p95_ratio": ratio(busy["p95_ms"], idle["p95_ms"]),
        "during_changes": during, "watching": watching,
        "run_finished_before_the_end": finished,
    }


def summary(report: dict, experiments) -> dict:
    """The headline figures of each experiment, one line each."""
    out = {}
    for name in experiments:
        m = report[name]
        out[name] = {
            "idle_p50_p95_ms": [m["idle"]["p50_ms"], m["idle"]["p95_ms"]],
            "training_p50_p95_ms": [m["training"]["p50_ms"], m["training"]["p95_ms"]],
            "p50_ratio": m["p50_ratio"], "p95_ratio": m["p95_ratio"],
            "painted_hz_during_changes": m["during_changes"]["snapshots_painted_hz"],
            "painted_hz_watching": m["watching"]["snapshots_painted_hz"],
            "steps_per_s_during_changes": m["during_changes"]["steps_per_s"],
            "steps_per_s_watching": m["watching"]["steps_per_s"],
            "window_cpu_share_watching": m["watching"]["window_cpu_share"],
            "training_cpu_share_watching": m["watching"]["training_cpu_share"]}
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training_ui",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=150, help="timed changes per phase")
    parser.add_argument("--watch", type=float, default=4.0,
                        help="seconds of the run watched with the window idle")
    parser.add_argument("--hidden", action="store_true",
                        help="keep the Training tab behind the multi-head tab: the run trains, "
                             "its snapshots are kept, not drawn (the process's own cost)")
    parser.add_argument("--experiments", default="scaling,roles,heads",
                        help="comma-separated: scaling, roles, heads")
    parser.add_argument("--niceness", type=int, default=None,
                        help="os.nice increment of the training process (default: the "
                             "runner's)")
    parser.add_argument("--no-idle-class", action="store_true",
                        help="the training process not in Linux's SCHED_IDLE class (only niced)")
    parser.add_argument("--steps-snapshots", action="store_true",
                        help="snapshots every config.snapshot_every steps, not by wall clock")
    args = parser.parse_args(argv)
    experiments = [e.strip() for e in args.experiments.split(",") if e.strip()]
    if args.changes < 1 or args.watch <= 0 or not experiments or any(
            e not in TRAINING_OPTIONS for e in experiments):
        parser.error("--changes must be ≥ 1, --watch > 0 and --experiments a list of "
                     "scaling, roles, heads")
    with app_environment():
        h = Harness()
        runner = h.win.training_panel.runner
        if args.niceness is not None:
            runner.niceness = args.niceness
        if args.no_idle_class:
            runner.idle_class = False
        if args.steps_snapshots:
            runner.snapshot_period_s = None
        if not args.hidden:
            h.win.bottom_tabs.setCurrentWidget(h.win.training_panel)
        h.drain()
        for v in (128, 64, 96):   # warm-up, untimed
            h.set_untimed(h.dk_spin, v)
        report = {"loadavg_1m_at_start": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
                  "targets": TARGETS, "changes": args.changes,
                  "training_tab_shown": not args.hidden,
                  "runner": {"niceness": runner.niceness, "idle_class": runner.idle_class,
                             "snapshot_period_s": runner.snapshot_period_s}}
        try:
            for experiment in experiments:
                report[experiment] = m = measure(h, experiment, args.changes, args.watch)
                m["met"] = {"p95_ms": m["training"]["p95_ms"] <= TARGETS["p95_ms"],
                            "p50_ratio": (m["p50_ratio"] or 0) <= TARGETS["p50_ratio_max"],
                            "snapshots_painted_hz": min(
                                m["during_changes"]["snapshots_painted_hz"],
                                m["watching"]["snapshots_painted_hz"])
                            >= TARGETS["snapshots_painted_hz_min"]}
                report["loadavg_1m_now"] = round(os.getloadavg()[0], 2)
        finally:
            h.close()
        report["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
        report.pop("loadavg_1m_now", None)
        report["summary"] = summary(report, experiments)
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    code = main()
    os._exit(code)  # skip interpreter teardown of Qt objects (no window close: no QSettings writes)
