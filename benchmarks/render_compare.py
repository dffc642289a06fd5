"""Render cost alone, pyqtgraph vs matplotlib, on the Results of the latency runs.

The same Params sequences as the timed changes, with Results computed up front
(compute excluded):
  pyqtgraph qt_paint   the window's show_results + Qt's paint of what changed;
  pyqtgraph            update_results on the workspace's plots + full synchronous repaints;
  matplotlib           mpl_reference.MatplotlibFigure.render (in-place updates, draw,
                       repaint) on the first `mpl_changes` Results of each sequence.
The speed-ups compare pyqtgraph on those same Results; for speedup_qt_paint_* (the target)
the app and matplotlib take turns, MPL_BLOCK Results each.
"""
from __future__ import annotations

import sys

import numpy as np

from .harness import Harness
from .report import summary_ms

MPL_DRAWS = 100
MPL_BLOCK = 10     # Results per turn when the app and matplotlib take turns

NOTE = ("matplotlib: artists built once, updated in place (set_height, "
        "set_data, set_extent/set_clim); the per-head cost bars are rebuilt "
        "when h changes, as pyqtgraph rebuilds its brushes; canvas.draw() + "
        "repaint(). pyqtgraph qt_paint: the window's show_results + Qt's own "
        "paint of what changed (what the app does); pyqtgraph (no prefix): "
        "update_results on the workspace's plots + full synchronous viewport "
        "repaints; matplotlib draws the same plots in the same area.")


def results_for(params_seq, cache: dict) -> list:
    from engine import compute

    out = []
    for p in params_seq:
        if p not in cache:
            cache[p] = compute(p)
        out.append(cache[p])
    return out


def compare_block(h: Harness, mpl, results: list, mpl_changes: int) -> dict:
    """One sequence's figures (milliseconds and ratios)."""
    n_mpl = min(mpl_changes, len(results))
    for r in results[:3]:                     # warm both sides
        h.render_only(r)
        mpl.render(r)
    qt_times = [h.render_as_qt_does(r) for r in results]
    parts: dict = {}
    pg_times = [h.render_only(r, per_panel=parts) for r in results]
    # The speed-up: the same Results drawn by the app and by matplotlib taking turns in
    # blocks of MPL_BLOCK, so that a machine slowing down for a while slows both (one
    # sequence after the other compared seconds of the app with a minute of matplotlib).
    # Not one change each: after a matplotlib draw the app's next change starts with cold
    # caches, which the app running on its own never has.
    qt_turns, mpl_times = [], []
    for start in range(0, n_mpl, MPL_BLOCK):
        block = results[start:min(start + MPL_BLOCK, n_mpl)]
        qt_turns += [h.render_as_qt_does(r) for r in block]
        for r in block:
            h.drain()
            mpl_times.append(mpl.render(r))
    pg, mp = summary_ms(pg_times), summary_ms(mpl_times)
    same = summary_ms(pg_times[:n_mpl])   # the speed-up compares the same Results
    qt, qt_same = summary_ms(qt_times), summary_ms(qt_turns)
    return {"pyqtgraph_qt_paint_p50_ms": qt["p50"], "pyqtgraph_qt_paint_p95_ms": qt["p95"],
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


def render_only(h: Harness, sequences: dict, mpl_changes: int = MPL_DRAWS) -> dict:
    """`sequences`: name → list of Results ("defaults" first: its figures are top-level)."""
    from .mpl_reference import MatplotlibFigure

    size = h.panel_area.size()
    mpl = MatplotlibFigure(size.width(), size.height(), h.workspace)
    h.drain()
    out: dict = {"figure_px": [size.width(), size.height()], "workspace": h.workspace}
    for name, results in sequences.items():
        block = compare_block(h, mpl, results, mpl_changes)
        if name == "defaults":
            out.update(block)
        else:
            out[name] = block
    out["matplotlib_fill_between"] = mpl.fill_between_mode
    out["note"] = NOTE
    return out


def profile_render_loop(h: Harness, sequences: dict) -> None:
    """cProfile of the pyqtgraph render loop (update + repaint only), top 25 on stderr."""
    import cProfile
    import io
    import pstats

    for name, results in sequences.items():
        prof = cProfile.Profile()
        for r in results:
            h.render_only(r, prof)
        for order in ("cumulative", "tottime"):
            buf = io.StringIO()
            pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(25)
            sys.stderr.write(f"=== cProfile: pyqtgraph render loop ({name}), by {order} ===\n")
            sys.stderr.write(buf.getvalue())
