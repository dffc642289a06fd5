#!/usr/bin/env python
"""Does a training run make the window stutter? d_k/h latency while training vs idle.

    python -m benchmarks.training_ui                       # prints one JSON object
    python -m benchmarks.training_ui --changes 60 --experiments roles

The real MainWindow (benchmarks/harness.py, offscreen, 1600×1000) with its Training tab in
front. For each experiment:

idle        the defaults' d_k / h changes of benchmarks/scenarios.py (dkSpin / headsSpin,
            setValue → results shown → plots repainted), nothing training;
training    the same changes while the experiment trains in its spawned process (its
            steps raised so that it outlasts the changes), the Training tab drawing every
            snapshot it is shown;
--hidden    the same with the Training tab behind another tab: what the training process
            alone costs the window (CPU shared with it), without drawing the snapshots;
snapshots   received = snapshots taken off the queue, shown = snapshots drawn (the newest
            of each 30 Hz poll), both per second of the run, and the training speed in
            steps per second (steps done / seconds from the first snapshot to the last).

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

from .harness import Harness, app_environment  # noqa: E402
from .report import latency_summary  # noqa: E402
from .scenarios import run_defaults  # noqa: E402

TARGETS = {"p95_ms": 16.7, "p50_ratio_max": 1.3, "snapshots_on_screen_hz_min": 10.0}
#: Long enough that every run outlasts the timed changes; the run is stopped after them.
TRAINING_OPTIONS = {"scaling": {"steps": 3000}, "roles": {"steps": 6000},
                    "heads": {"steps": 3000}}


class SnapshotClock:
    """Times of the snapshots the Training tab drew (connected after the panel's slot)."""

    def __init__(self, runner):
        self.times: list[float] = []
        self.steps: list[int] = []
        runner.snapshot_ready.connect(self.on_snapshot)

    def on_snapshot(self, snapshot) -> None:
        self.times.append(time.perf_counter())
        self.steps.append(snapshot.step)


def rate(count: int, seconds: float) -> float:
    return round(count / seconds, 1) if seconds > 0 else float("nan")


def measure(h: Harness, experiment: str, changes: int) -> dict:
    panel = h.win.training_panel
    idle = latency_summary(run_defaults(h, changes, "qt"))
    clock = SnapshotClock(panel.runner)
    panel.start(experiment, TRAINING_OPTIONS[experiment])
    deadline = time.perf_counter() + 60
    while not clock.times and time.perf_counter() < deadline:   # the process starts up
        h.app.processEvents()
        time.sleep(0.005)
    if not clock.times:
        raise RuntimeError(f"{experiment}: no snapshot within 60 s ({panel.status.text()})")
    t0, received0 = time.perf_counter(), panel.runner.snapshots_received
    shown0 = len(clock.times)
    busy = latency_summary(run_defaults(h, changes, "qt"))
    seconds = time.perf_counter() - t0
    received = panel.runner.snapshots_received - received0
    shown = len(clock.times) - shown0
    finished = not panel.runner.is_running()
    panel.stop()
    steps_per_s = ((clock.steps[-1] - clock.steps[0]) / (clock.times[-1] - clock.times[0])
                   if len(clock.times) > 1 else float("nan"))
    return {
        "idle": idle, "training": busy,
        "p50_ratio": round(busy["p50_ms"] / idle["p50_ms"], 2) if idle["p50_ms"] else None,
        "snapshots_received_hz": rate(received, seconds),
        "snapshots_on_screen_hz": rate(shown, seconds),
        "training_steps_per_s": round(steps_per_s, 1),
        "run_finished_before_the_changes": finished,
        "seconds_measured": round(seconds, 2),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.training_ui",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=150, help="timed changes per phase")
    parser.add_argument("--hidden", action="store_true",
                        help="keep the Training tab behind the multi-head tab: the run trains, "
                             "its snapshots are kept, not drawn (the process's own cost)")
    parser.add_argument("--experiments", default="scaling,roles,heads",
                        help="comma-separated: scaling, roles, heads")
    args = parser.parse_args(argv)
    experiments = [e.strip() for e in args.experiments.split(",") if e.strip()]
    if args.changes < 1 or not experiments or any(e not in TRAINING_OPTIONS for e in experiments):
        parser.error("--changes must be ≥ 1 and --experiments a list of scaling, roles, heads")
    with app_environment():
        h = Harness()
        if not args.hidden:
            h.win.bottom_tabs.setCurrentWidget(h.win.training_panel)
        h.drain()
        for v in (128, 64, 96):   # warm-up, untimed
            h.set_untimed(h.dk_spin, v)
        report = {"loadavg_1m_at_start": round(os.getloadavg()[0], 2), "targets": TARGETS,
                  "changes": args.changes, "training_tab_shown": not args.hidden}
        try:
            for experiment in experiments:
                report[experiment] = m = measure(h, experiment, args.changes)
                m["met"] = {"p95_ms": m["training"]["p95_ms"] <= TARGETS["p95_ms"],
                            "p50_ratio": (m["p50_ratio"] or 0) <= TARGETS["p50_ratio_max"],
                            "snapshots_on_screen_hz": m["snapshots_on_screen_hz"]
                            >= TARGETS["snapshots_on_screen_hz_min"]}
        finally:
            h.close()
        report["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
