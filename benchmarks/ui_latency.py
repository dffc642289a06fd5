#!/usr/bin/env python
"""UI latency benchmark: start-up, per-change latency, and pyqtgraph vs matplotlib render cost.

    python -m benchmarks.ui_latency              # prints one JSON object on stdout
    python -m benchmarks.ui_latency --profile    # also: cProfile of the pyqtgraph render loop
                                                 # (top 25 by cumtime and by tottime, stderr)
    python -m benchmarks.ui_latency --quick --changes 20   # latency only, a few changes
    (python benchmarks/ui_latency.py runs the same module)

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
floor            the defaults' changes with every panel paused (Plot.paused: controls, model,
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

The parts: harness.py (the window, driven and timed), scenarios.py (the changes),
startup.py, render_compare.py with mpl_reference.py (the matplotlib figure), report.py.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.ui_latency", *sys.argv[1:]])

import argparse  # noqa: E402
import time  # noqa: E402

from .harness import Harness, app_environment  # noqa: E402
from .render_compare import MPL_DRAWS, profile_render_loop, render_only, results_for  # noqa: E402
from .report import (TARGETS, latency_summary, machine_info, self_rss_mb,  # noqa: E402
                     targets_met, write_report)
from .scenarios import CHANGES, run_defaults, run_dk_max, run_steps  # noqa: E402
from .startup import measure_startup  # noqa: E402

_SCRIPT_T0 = time.perf_counter()


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ui_latency",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true",
                        help="cProfile the pyqtgraph render loop; top 25 by cumtime on stderr")
    parser.add_argument("--changes", type=int, default=CHANGES,
                        help=f"timed changes per scenario (default {CHANGES})")
    parser.add_argument("--quick", action="store_true",
                        help="latency only (no start-up runs, no matplotlib): for iterating")
    parser.add_argument("--workspace", default="scaling", choices=("scaling", "multihead"),
                        help="the workspace in front, whose plots a change repaints "
                             "(default scaling)")
    parser.add_argument("--mpl-changes", type=int, default=MPL_DRAWS,
                        help=f"matplotlib draws per sequence (first N of the same Results; "
                             f"default {MPL_DRAWS}: one draw takes ~0.25 s)")
    args = parser.parse_args(argv)
    if args.changes < 1 or args.mpl_changes < 1:
        parser.error("--changes and --mpl-changes must be at least 1")
    return args


def latency_report(h: Harness, changes: int) -> tuple[dict, list, list]:
    """The timed changes: defaults, dk_16384, steps, floor, full_repaint."""
    report: dict = {}
    for v in (128, 64, 96):   # warm-up: untimed changes (first tick layouts, image LUTs, ...)
        h.set_untimed(h.dk_spin, v)
    defaults_rows = run_defaults(h, changes, "qt")
    dk_rows = run_dk_max(h, changes, "qt")
    report["defaults"] = latency_summary(defaults_rows)
    report["dk_16384"] = latency_summary(dk_rows)
    report["panels_painted_per_change"] = {str(k): v for k, v in sorted(h.painted_counts.items())}
    report["steps"] = latency_summary(run_steps(h, changes))
    report["steps"]["note"] = ("one-step changes (arrow keys, mouse wheel): d_k ±1 in "
                               "48…96 unlocked, h ×2 / ÷2 locked at 512; not a target")
    with h.panels_paused():
        floor = latency_summary(run_defaults(h, changes, "qt"))
    report["floor"] = {
        "no_panel_work_p50_ms": floor["p50_ms"], "no_panel_work_p95_ms": floor["p95_ms"],
        "controls_p50_ms": floor["controls_p50_ms"], "compute_p50_ms": floor["compute_p50_ms"],
        "static_repaint_p50_ms": round(1000 * h.static_repaint(), 3),
        "note": "the defaults' changes with the panels paused (controls, model, "
                "compute, signal, the rest of the window), and a repaint of the five panels "
                "with nothing changed: together, what any change costs before the panels "
                "do any work of their own"}
    report["full_repaint"] = {
        "defaults": latency_summary(run_defaults(h, changes, "full")),
        "dk_16384": latency_summary(run_dk_max(h, changes, "full")),
        "note": "the same changes, but every panel's whole viewport re-rendered "
                "synchronously (viewport().repaint()): the cost after a resize or expose"}
    return report, defaults_rows, dk_rows


def run(args: argparse.Namespace) -> dict:
    startup = None if args.quick else measure_startup()
    h = Harness(args.workspace)
    report: dict = {"machine": machine_info(), "workspace": args.workspace,
                    "plots": [p.objectName() for p in h.panels]}
    if startup is not None:
        report.update(startup)
    latency, defaults_rows, dk_rows = latency_report(h, args.changes)
    report.update(latency)
    # Before matplotlib is imported: the window's own memory after every change so far.
    report["rss_after_changes_mb"] = round(self_rss_mb(), 1)
    report["changes_before_rss"] = h.count
    if args.quick:
        h.close()
        return report
    cache: dict = {}
    sequences = {"defaults": results_for([r["params"] for r in defaults_rows], cache),
                 "dk_16384": results_for([r["params"] for r in dk_rows], cache)}
    report["render_only"] = render_only(h, sequences, args.mpl_changes)
    if args.profile:
        profile_render_loop(h, sequences)
    report["benchmark_process_rss_mb"] = round(self_rss_mb(), 1)
    # Other processes on the machine inflate every figure; a high load average says so.
    report["machine"]["loadavg_1m_at_end"] = round(os.getloadavg()[0], 2)
    h.close()
    report["targets"] = TARGETS
    report["met"] = targets_met(report)
    report["benchmark_seconds"] = round(time.perf_counter() - _SCRIPT_T0, 1)
    return report


def main(argv=None) -> int:
    args = parse_args(argv)
    with app_environment():
        report = run(args)
    write_report(report)
    return 0


if __name__ == "__main__":
    code = main()
    os._exit(code)  # skip interpreter teardown of Qt objects (no window close: no QSettings writes)
