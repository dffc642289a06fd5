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
            snapshots it is shown; p50_ratio / p95_ratio = training / idle, and
            p95_over_idle_p50 = training p95 / idle p50 (issue 12's 1.3× target);
            made in blocks of BLOCK changes, interleaved with three controls on the same run
            so that the load of the shared machine drifts alike over all three:
              paused    the training process SIGSTOPped (no CPU, no snapshots)
              unheld    TrainingRunner.hold_s = 0: snapshots drawn as they come, even
                        inside a change (the runner before hold_snapshots)
              maps      TrainingRunner.show_while_holding: snapshots' maps and progress
                        drawn as they come, only the curves held (the process not paused)
            Against "paused", which takes turns with it under the same load (the idle
            series ran before, possibly under another load): p50_over_paused_p50,
            p95_over_paused_p50; snapshots_painted_hz_in_its_blocks: distinct snapshots
            painted per second of that condition's own blocks of changes.
            Each change also records the GUI thread's CPU time (time.thread_time, which
            the other agents' load does not inflate the way it does wall time) and
            whether a snapshot was shown during it (snapshot_inside_share, and the median
            GUI CPU of the changes with and without one);
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
            times on a shared machine; gui_thread_cpu_per_shown_snapshot_ms = the GUI
            thread's CPU seconds while watching / snapshots shown (the window otherwise
            idle: what one snapshot costs it, curves, maps, progress bar and paint).
--hidden    the Training tab behind another tab: what the training process alone costs
            the window (CPU shared with it), nothing drawn.
--niceness / --no-idle-class / --steps-snapshots   the runner's public knobs
            (TrainingRunner.niceness, .idle_class, .snapshot_period_s), to measure what each
            of them does; --niceness 0 --no-idle-class --steps-snapshots is the old runner.

Targets (issue 12): while training, p95 ≤ 16.7 ms and ≤ 1.3 × the idle p50; snapshots on
screen ≥ 10 Hz. The machine is shared; the load average is recorded.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.training_ui", *sys.argv[1:]])

import argparse  # noqa: E402
import json  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import psutil  # noqa: E402
from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer  # noqa: E402

from .harness import Harness, app_environment  # noqa: E402
from .report import latency_summary  # noqa: E402
from .scenarios import run_defaults  # noqa: E402

TARGETS = {"p95_ms": 16.7, "p95_over_idle_p50_max": 1.3, "snapshots_painted_hz_min": 10.0}
BLOCK = 10     # changes per block; the three conditions take turns block by block
CONDITIONS = ("training", "paused", "unheld", "maps")
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
                self.runner.snapshots_received, time.process_time(), self.child_cpu_s(),
                time.thread_time())

    def rates(self, start: tuple) -> dict:
        t0, shown0, painted0, received0, cpu0, child0, gui0 = start
        seconds = time.perf_counter() - t0
        window_cpu = time.process_time() - cpu0
        child_cpu = self.child_cpu_s() - child0
        gui_cpu = time.thread_time() - gui0
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
                "training_cpu_share": round(child_cpu / seconds, 3) if seconds > 0 else None,
                # the window otherwise idle (watching): the GUI thread's CPU per snapshot
                "gui_thread_cpu_per_shown_snapshot_ms": (
                    round(1000 * gui_cpu / len(shown), 2) if shown else None)}


def rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("nan")


def ratio(a: float, b: float):
    return round(a / b, 2) if b else None


def spin(h: Harness, seconds: float) -> None:
    """Run the event loop for `seconds` with nothing else to do (no busy polling)."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def timed_rows(h: Harness, runner, n: int) -> list[dict]:
    """n defaults changes; each row also has `gui_cpu` (the GUI thread's CPU seconds) and
    `snapshots` (how many the runner showed during the change)."""
    plain = h.timed_change

    def timed(spin_box, value, mode="qt"):
        h.drain()     # what waited before the change is not counted (timed_change drains too)
        cpu, shown = time.thread_time(), runner.snapshots_shown
        row = plain(spin_box, value, mode)
        if row is not None:
            row["gui_cpu"] = time.thread_time() - cpu
            row["snapshots"] = runner.snapshots_shown - shown
            row["training_messages"] = runner.snapshots_received
        return row

    h.timed_change = timed
    try:
        return run_defaults(h, n, "qt")
    finally:
        h.timed_change = plain


def ms_median(values) -> float | None:
    return round(1000 * statistics.median(values), 2) if values else None


def condition_summary(rows: list[dict]) -> dict:
    out = latency_summary(rows)
    inside = [r for r in rows if r["snapshots"]]
    out.update({
        "gui_cpu_p50_ms": ms_median([r["gui_cpu"] for r in rows]),
        "gui_cpu_p95_ms": round(1000 * pct([r["gui_cpu"] for r in rows], 95), 2),
        "snapshot_inside_share": round(len(inside) / len(rows), 3) if rows else None,
        "gui_cpu_p50_ms_with_snapshot": ms_median([r["gui_cpu"] for r in inside]),
        "gui_cpu_p50_ms_without_snapshot": ms_median(
            [r["gui_cpu"] for r in rows if not r["snapshots"]])})
    return out


def pct(values, q) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def measure(h: Harness, experiment: str, changes: int, watch_s: float) -> dict:
    panel = h.win.training_tab
    runner = panel.runner
    idle_rows = timed_rows(h, runner, changes)
    idle = condition_summary(idle_rows)
    clock = SnapshotClock(panel)
    rows = {name: [] for name in CONDITIONS}
    hold_s = runner.hold_s
    try:
        panel.start(experiment, TRAINING_OPTIONS[experiment])
        deadline = time.perf_counter() + 60
        while not clock.shown and time.perf_counter() < deadline:   # the process starts up
            spin(h, 0.05)
        if not clock.shown:
            raise RuntimeError(f"{experiment}: no snapshot within 60 s ({panel.status.text()})")
        start = clock.mark()
        pid = runner.pid
        painted = {name: [0, 0.0] for name in CONDITIONS}   # painted snapshots, seconds
        for _ in range(-(-changes // BLOCK)):
            for name in CONDITIONS:
                runner.hold_s = 0.0 if name == "unheld" else hold_s
                runner.show_while_holding = name == "maps"
                os.kill(pid, signal.SIGSTOP if name == "paused" else signal.SIGCONT)
                spin(h, 0.1)
                t0, painted0 = time.perf_counter(), len(clock.painted)
                rows[name] += timed_rows(h, runner, BLOCK)
                painted[name][0] += len(clock.painted) - painted0
                painted[name][1] += time.perf_counter() - t0
        os.kill(pid, signal.SIGCONT)
        runner.hold_s, runner.show_while_holding = hold_s, False
        during = clock.rates(start)
        start = clock.mark()
        spin(h, watch_s)
        watching = clock.rates(start)
        finished = not runner.is_running()
        panel.stop()
    finally:
        runner.hold_s, runner.show_while_holding = hold_s, False
        clock.close()
    out = {"idle": idle}
    paused = condition_summary(rows["paused"])
    for name in CONDITIONS:
        m = out[name] = condition_summary(rows[name])
        m["p50_ratio"] = ratio(m["p50_ms"], idle["p50_ms"])
        m["p95_ratio"] = ratio(m["p95_ms"], idle["p95_ms"])
        m["p95_over_idle_p50"] = ratio(m["p95_ms"], idle["p50_ms"])
        # "paused" blocks take turns with these: the same load, no training, no snapshots
        m["p50_over_paused_p50"] = ratio(m["p50_ms"], paused["p50_ms"])
        m["p95_over_paused_p50"] = ratio(m["p95_ms"], paused["p50_ms"])
        m["snapshots_painted_hz_in_its_blocks"] = rate(*painted[name])
    out.update({"during_changes": during, "watching": watching,
                "run_finished_before_the_end": finished})
    return out


def summary(report: dict, experiments) -> dict:
    """The headline figures of each experiment, one line each."""
    out = {}
    for name in experiments:
        m = report[name]
        line = {"idle_p50_p95_ms": [m["idle"]["p50_ms"], m["idle"]["p95_ms"]],
                "idle_gui_cpu_p50_ms": m["idle"]["gui_cpu_p50_ms"]}
        for condition in CONDITIONS:
            c = m[condition]
            line[condition] = {"p50_p95_ms": [c["p50_ms"], c["p95_ms"]],
                               "p95_over_idle_p50": c["p95_over_idle_p50"],
                               "p95_over_paused_p50": c["p95_over_paused_p50"],
                               "painted_hz": c["snapshots_painted_hz_in_its_blocks"],
                               "gui_cpu_p50_p95_ms": [c["gui_cpu_p50_ms"], c["gui_cpu_p95_ms"]],
                               "snapshot_inside_share": c["snapshot_inside_share"]}
        line.update({
            "painted_hz_during_changes": m["during_changes"]["snapshots_painted_hz"],
            "painted_hz_watching": m["watching"]["snapshots_painted_hz"],
            "steps_per_s_watching": m["watching"]["steps_per_s"],
            "window_cpu_share_watching": m["watching"]["window_cpu_share"],
            "gui_cpu_per_snapshot_ms_watching":
                m["watching"]["gui_thread_cpu_per_shown_snapshot_ms"],
            "training_cpu_share_watching": m["watching"]["training_cpu_share"]})
        out[name] = line
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
        runner = h.win.training_tab.runner
        if args.niceness is not None:
            runner.niceness = args.niceness
        if args.no_idle_class:
            runner.idle_class = False
        if args.steps_snapshots:
            runner.snapshot_period_s = None
        if not args.hidden:
            from gui.common import names
            h.win.area.bring_forward(names.TRAINING_PANEL)
        h.drain()
        for v in (128, 64, 96):   # warm-up, untimed
            h.set_untimed(h.dk_spin, v)
        report = {"loadavg_1m_at_start": round(os.getloadavg()[0], 2),
                  "loadavg_1_5_15m_at_start": [round(v, 2) for v in os.getloadavg()],
                  "cpus": os.cpu_count(),
                  "targets": TARGETS, "changes": args.changes,
                  "training_tab_shown": not args.hidden,
                  "runner": {"niceness": runner.niceness, "idle_class": runner.idle_class,
                             "snapshot_period_s": runner.snapshot_period_s,
                             "hold_s": runner.hold_s}}
        try:
            for experiment in experiments:
                report[experiment] = m = measure(h, experiment, args.changes, args.watch)
                m["met"] = {"p95_ms": m["training"]["p95_ms"] <= TARGETS["p95_ms"],
                            "p95_over_idle_p50": (m["training"]["p95_over_idle_p50"] or 0)
                            <= TARGETS["p95_over_idle_p50_max"],
                            "snapshots_painted_hz": min(
                                m["during_changes"]["snapshots_painted_hz"],
                                m["watching"]["snapshots_painted_hz"])
                            >= TARGETS["snapshots_painted_hz_min"]}
                report["loadavg_1m_now"] = round(os.getloadavg()[0], 2)
        finally:
            h.close()
        report["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
        report["loadavg_1_5_15m_at_end"] = [round(v, 2) for v in os.getloadavg()]
        report.pop("loadavg_1m_now", None)
        report["summary"] = summary(report, experiments)
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    code = main()
    os._exit(code)  # skip interpreter teardown of Qt objects (no window close: no QSettings writes)
