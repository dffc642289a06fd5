#!/usr/bin/env python
"""The app against the bare stack, matplotlib and itself, measured in one run as ratios.

    python -m benchmarks.ratios                  # every target; exit 1 if one is missed
    python -m benchmarks.ratios --changes 100    # fewer changes per scenario
    python -m benchmarks.ratios --json out.json  # also write the whole report

Absolute times on these machines move 1.5× from one day to the next and 3× under load, so
every target is a ratio of two figures taken in the same run, each in a fresh process,
and the run refuses to start (exit 2) unless the 1-minute load average is below
QUIET_LOAD (--allow-load runs anyway and says so in the report).

The parts, in this order (each a module of benchmarks/ run as `python -m`):
  stack_floor          the bare stack: five pg.PlotWidgets in a 1600×1000 window with a
                       64-point curve, 8 bars and ten changing TextItems each, fixed
                       ranges, the app's pyqtgraph options; its start-up
  ui_latency scaling   the app, the Scaling workspace in front: start-up, d_k / h changes
                       at the defaults and around d_k = 16 384, one-step changes, memory
                       after them, and matplotlib drawing the same three plots
  ui_latency multihead the app, the Multi-head workspace in front (diagram and cost)
  stack_floor          the bare stack again (the two runs that bracket the app's, reported:
                       their spread shows how far the machine drifted)
  turns                the app (each workspace) and the bare stack taking turns in blocks
                       of 25 changes, the other process stopped: the per-change target's
                       figures (ui_latency's series, minutes from the stack's, are reported
                       beside them as separate_series)
  startup              start-up, the app's and the bare stack's taking turns (five fresh
                       processes each): the ratio of their medians is the target's figure
                       (the series ui_latency and stack_floor take minutes apart are
                       reported beside it)
  training_ui          a roles run training in its process while the Scaling workspace
                       takes changes (blocks taking turns with the process stopped), and
                       then the Training workspace watched with nothing changing
  engine_compute       the engine's compute on the worker thread (reported, no target)

Targets (TARGETS): each change's p95 ≤ 1.3 × the bare stack's p95 taking turns with it
(both workspaces, at the defaults and around 16 384); matplotlib ≥ 25× slower than the
app's own update and paint of the same Results; start-up ≤ 2 × the bare stack's; RSS ≤
200 MB after start-up and after ≥ 1 000 changes; while training, a change's p95 ≤ 1.3 × its
p95 in the blocks where the process is stopped; ≥ 10 distinct training snapshots painted a
second while watching. Each missed target is printed with its figures on stderr, and the exit code is 1.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.ratios", *sys.argv[1:]])

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUIET_LOAD = 0.5
TARGETS = {"change_p95_over_stack_max": 1.3, "matplotlib_speedup_min": 25.0,
           "startup_over_stack_max": 2.0, "rss_max_mb": 200.0, "rss_changes_min": 1000,
           "training_p95_over_idle_max": 1.3, "snapshots_painted_hz_min": 10.0}
PART_TIMEOUT_S = 1800


class PartFailed(RuntimeError):
    """A benchmark process failed: its command, exit code and the tail of its stderr."""


def run_part(module: str, *args: str) -> dict:
    """`python -m benchmarks.<module> args` in a fresh process; its stdout's JSON."""
    command = [sys.executable, "-m", f"benchmarks.{module}", *args]
    sys.stderr.write(f"[ratios] {' '.join(command[1:])}\n")
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                              timeout=PART_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise PartFailed(f"{module} {' '.join(args)}: no answer in {PART_TIMEOUT_S} s") from None
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise PartFailed(f"{module} {' '.join(args)} exited {done.returncode}:\n{tail}")
    start = done.stdout.find("{")
    return json.loads(done.stdout[start:])


def ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else float("inf")


def check(report: dict) -> list[str]:
    """The missed targets, one sentence each with its figures."""
    t, missed = TARGETS, []
    for key, figure in report["changes"].items():
        if figure["p95_over_stack"] > t["change_p95_over_stack_max"]:
            missed.append(f"{key}: p95 {figure['p95_ms']} ms is {figure['p95_over_stack']}× "
                          f"the bare stack's {figure['stack_p95_ms']} ms, taking turns "
                          f"(target ≤ {t['change_p95_over_stack_max']}×)")
    mpl = report["matplotlib"]["speedup"]
    if mpl < t["matplotlib_speedup_min"]:
        missed.append(f"matplotlib: {mpl}× slower than the app, target ≥ {t['matplotlib_speedup_min']}×")
    s = report["startup"]
    if s["over_stack"] > t["startup_over_stack_max"]:
        missed.append(f"start-up: {s['app_s']} s is {s['over_stack']}× the bare stack's "
                      f"{s['stack_s']} s (target ≤ {t['startup_over_stack_max']}×)")
    m = report["memory"]
    for key in ("after_startup_mb", "after_changes_mb"):
        if m[key] > t["rss_max_mb"]:
            missed.append(f"memory {key}: {m[key]} MB > {t['rss_max_mb']} MB")
    if m["changes"] < t["rss_changes_min"]:
        missed.append(f"memory: only {m['changes']} changes before it was read")
    tr = report.get("training")
    if tr is not None:
        if tr["p95_over_idle"] > t["training_p95_over_idle_max"]:
            missed.append(f"while training: p95 {tr['p95_ms']} ms is {tr['p95_over_idle']}× "
                          f"the idle {tr['idle_p95_ms']} ms (target ≤ "
                          f"{t['training_p95_over_idle_max']}×)")
        if tr["painted_hz_watching"] < t["snapshots_painted_hz_min"]:
            missed.append(f"training snapshots painted: {tr['painted_hz_watching']} a second "
                          f"(target ≥ {t['snapshots_painted_hz_min']})")
    return missed


def measure(args) -> dict:
    n = str(args.changes)
    floor_before = run_part("stack_floor", "--changes", n)
    scaling = run_part("ui_latency", "--workspace", "scaling", "--changes", n,
                       "--mpl-changes", str(args.mpl_changes))
    multihead = run_part("ui_latency", "--workspace", "multihead", "--quick", "--changes", n)
    floor_after = run_part("stack_floor", "--changes", n)
    turns = run_part("turns", "--changes", n)
    floors = [floor_before["labels"]["p95"], floor_after["labels"]["p95"]]
    floor_p95 = round(sum(floors) / 2, 3)
    changes = {}
    for ws, rep in (("scaling", scaling), ("multihead", multihead)):
        for scenario in ("defaults", "dk_16384"):
            fig, turn = rep[scenario], turns[f"{ws}.{scenario}"]
            changes[f"{ws}.{scenario}"] = {
                "p50_ms": turn["app"]["p50"], "p95_ms": turn["app"]["p95"],
                "stack_p95_ms": turn["stack"]["p95"], "p95_over_stack": turn["p95_over_stack"],
                "separate_series": {"p50_ms": fig["p50_ms"], "p95_ms": fig["p95_ms"],
                                    "p95_over_stack": ratio(fig["p95_ms"], floor_p95)}}
    steps = {ws: {"p50_ms": rep["steps"]["p50_ms"], "p95_ms": rep["steps"]["p95_ms"],
                  "p95_over_stack": ratio(rep["steps"]["p95_ms"], floor_p95)}
             for ws, rep in (("scaling", scaling), ("multihead", multihead))}
    startup = run_part("startup", "--runs", "5")
    ro = scaling["render_only"]
    report = {
        "stack": {"separate_series": {"p95_ms": floor_p95, "p95_ms_before_after": floors,
                                      "p50_ms_before_after": [floor_before["labels"]["p50"],
                                                              floor_after["labels"]["p50"]]},
                  "note": "taking turns: each figure of changes carries its stack_p95_ms"},
        "changes": changes,
        "one_step_changes": steps,
        "matplotlib": {"speedup": ro["speedup_qt_paint_p50"],
                       "speedup_p95": ro["speedup_qt_paint_p95"],
                       "matplotlib_p50_ms": ro["matplotlib_p50_ms"],
                       "app_p50_ms": ro["pyqtgraph_qt_paint_p50_ms"],
                       "figure_px": ro["figure_px"], "plots": scaling["plots"]},
        "startup": {**startup,
                    "separate_series_s": {"app": scaling["startup_seconds"],
                                          "stack_before_after": [floor_before["startup_seconds"],
                                                                 floor_after["startup_seconds"]]}},
        "memory": {"after_startup_mb": scaling["rss_mb"],
                   "after_changes_mb": scaling["rss_after_changes_mb"],
                   "changes": scaling["changes_before_rss"]},
        "parts": {"stack_floor": [floor_before, floor_after], "ui_latency_scaling": scaling,
                  "ui_latency_multihead": multihead, "turns": turns},
    }
    if not args.skip_training:
        busy = run_part("training_ui", "--hidden", "--experiments", "roles",
                        "--changes", str(max(20, args.changes // 3)), "--watch", "1")
        watched = run_part("training_ui", "--experiments", "roles", "--changes", "10",
                           "--watch", "5")
        roles = busy["roles"]
        report["training"] = {
            "p95_ms": roles["training"]["p95_ms"], "idle_p95_ms": roles["paused"]["p95_ms"],
            "p95_over_idle": ratio(roles["training"]["p95_ms"], roles["paused"]["p95_ms"]),
            "p95_over_idle_series_before": ratio(roles["training"]["p95_ms"],
                                                 roles["idle"]["p95_ms"]),
            "painted_hz_watching": watched["roles"]["watching"]["snapshots_painted_hz"],
            "note": "idle: the blocks of changes taking turns with the training blocks, the "
                    "training process stopped (SIGSTOP); the Scaling workspace in front"}
        report["parts"]["training_ui"] = [busy, watched]
    report["engine"] = run_part("engine_compute")
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ratios",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300, help="timed changes per scenario")
    parser.add_argument("--mpl-changes", type=int, default=100,
                        help="matplotlib draws per sequence (default 100)")
    parser.add_argument("--skip-training", action="store_true",
                        help="leave out the training run (its targets are then not checked)")
    parser.add_argument("--allow-load", action="store_true",
                        help=f"run even if the load average is {QUIET_LOAD} or more")
    parser.add_argument("--json", metavar="FILE", help="also write the whole report here")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    if load >= QUIET_LOAD and not args.allow_load:
        sys.stderr.write(f"[ratios] the machine is not quiet: load {load:.2f} ≥ {QUIET_LOAD}; "
                         "stop other jobs and wait, or pass --allow-load\n")
        return 2
    t0 = time.perf_counter()
    try:
        report = measure(args)
    except PartFailed as exc:
        sys.stderr.write(f"[ratios] FAILED: {exc}\n")
        return 1
    report["targets"] = TARGETS
    report["load_1m"] = {"start": round(load, 2), "end": round(os.getloadavg()[0], 2),
                         "quiet": load < QUIET_LOAD}
    report["seconds"] = round(time.perf_counter() - t0, 1)
    missed = report["missed"] = check(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    summary = {k: v for k, v in report.items() if k != "parts"}
    sys.stdout.write(json.dumps(summary, indent=1) + "\n")
    for line in missed:
        sys.stderr.write(f"[ratios] MISSED {line}\n")
    if missed:
        return 1
    sys.stderr.write("[ratios] every target met\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
