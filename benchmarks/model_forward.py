#!/usr/bin/env python
"""Pretrained-model benchmark: MiniLM's forward pass against token count; prints one JSON object.

    python benchmarks/model_forward.py [--model-dir DIR] [--repeats N]

The model is the fetched all-MiniLM-L6-v2 (`python main.py fetch-model minilm`) unless
--model-dir is given. For n = 8, 16, 32, 64, 128 tokens ([CLS], n − 2 tokens of the lesson
sentence repeated, [SEP]) it reports the median and p95 milliseconds of
  forward_ms  engine.models.attentions (every layer's and head's attention and score variance)
  roles_ms    engine.models.head_roles on that result (an encoder runs no extra pass)
over --repeats runs after 3 warm-up runs, and the cold load time (safetensors + tokenizer).
BLAS runs on one thread, as in the Real heads tab's study (gui/realheads/study.py); --blas-threads
changes that.

    python benchmarks/model_forward.py --ui [--changes N]

adds "ui": the GUI thread while the Real heads tab re-runs a sentence (the real MainWindow,
offscreen, driven by benchmarks/harness.py at 1600×1000, the tab shown on MiniLM). Four
series of N d_k changes (dkSpin.setValue → results shown → plots repainted) take turns,
change by change, so that the shared machine's load drifts alike over all of them:
  dk_idle           no real-heads forward running
  dk_busy_process   each change made right after a new sentence was asked of both studies
                    that share it (head roles, Real heads; the Real heads forward of
                    UI_TOKENS tokens runs in its child process, gui/realheads/forward_process.py),
                    their results held while the change is asked, computed and painted
                    (gui/studies/hold.py): the app's way;
  dk_busy_unheld    the same with the hold off (ResultHold.hold_s = 0): the head-roles
                    result, and a forward that ends in time, are drawn inside the change
  dk_busy_thread    held, with gui.realheads.forward_process.ENABLED = False: the forward on the
                    study's thread, in the window's process (before issue 13's fix).
Each series has the GUI thread's CPU per change (time.thread_time from setValue to
painted: the pre-change drain is not counted, and other programs' load inflates it less
than wall time) and the rest, waiting_median_ms (for the GIL, a core); ratios of its
medians and p95 to the idle medians; head_roles_inside / real_heads_inside: in how many
changes such a result was delivered between setValue and the end of the paint;
busy_overlap: in how many the forward was still running when the change was shown; the
forward's time as the study saw it;
  keystroke       (process and thread) one key typed into the sentence field
                  (QTest.keyClick; the state update, the head-roles request and the
                  debounce restart all run on the GUI thread)
  typing_stall    the longest single pass of the event loop while typing UI_KEYS keys at
                  one per TYPE_INTERVAL_MS: the longest the GUI thread is ever busy at once,
                  result shows of both studies included
against the frame budget (FRAME_BUDGET_MS). Timings on a shared 2-core machine are noisy:
compare medians, not single runs; the load averages are in "machine".

    python benchmarks/model_forward.py --show-cost [--shows N]

adds "show_cost": what showing one Real heads result costs the GUI thread (the real
MainWindow at 1600×1000, the tab shown on MiniLM, results computed beforehand): from the
tab's result slot (ModelHeadsTab._on_result, what the study's result_ready calls) until Qt
has painted what it changed, GUI-thread CPU (time.thread_time) and wall time, medians
over N shows of each series (the series take turns, SHOW_BLOCK shows at a time):
  new_words    the lesson sentence with one word swapped back and forth: the same token
               count, new tokens and maps
  new_length   the lesson sentence and a longer one, in turns: new n
  same_tokens  two sentences that the tokenizer splits into the same tokens (a case
               change): new maps, the same labels
plus the graphics items in the Real heads panels' scenes before and after the timed shows
(they must not grow per result). --forward-off skips the forward-time table.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from engine.models import attentions, head_roles, load_model  # noqa: E402
from engine.models.fetch import cached_model  # noqa: E402
from engine.models.loader import clear_cache  # noqa: E402

from .model_show_cost import SENTENCE, show_cost_report  # noqa: E402

TOKEN_COUNTS = (8, 16, 32, 64, 128)
WARMUP = 3


def ids_of_length(model, n: int) -> list[int]:
    _, ids = model.encode(SENTENCE)
    body = list(ids[1:-1])
    words = (body * (n // len(body) + 1))[: n - 2]
    return [ids[0], *words, ids[-1]]


def timed(fn, repeats: int) -> tuple[float, float, object]:
    for _ in range(WARMUP):
        out = fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(1e3 * (time.perf_counter() - start))
    return float(np.median(times)), float(np.percentile(times, 95)), out


FRAME_BUDGET_MS = 1000.0 / 60.0
UI_TOKENS = 128
UI_KEYS = 40
TYPE_INTERVAL_MS = 60.0
DK_VALUES = (48, 64, 80, 96, 112, 96, 80, 64)


def ms_summary(values_ms) -> dict:
    values = np.asarray(values_ms, dtype=float)
    return {"median_ms": round(float(np.median(values)), 3),
            "p95_ms": round(float(np.percentile(values, 95)), 3),
            "max_ms": round(float(values.max()), 3), "count": int(values.size),
            "within_budget": round(float((values <= FRAME_BUDGET_MS).mean()), 3)}


def ui_sentence(model, n: int, variant: int) -> str:
    """About n tokens of the lesson sentence; `variant` changes the last word so each request
    is new (the study would not re-run an unchanged one)."""
    _, ids = model.encode(SENTENCE)
    words = SENTENCE.split()
    per_word = (len(ids) - 2) / len(words)
    text = " ".join((words * (n // len(words) + 2))[: int((n - 2) / per_word)])
    return f"{text} {'ab'[variant % 2]}"


MODES = ("process", "thread")   # where the Real heads forward runs (gui/realheads/forward_process.py)
SERIES = ("idle", "process", "unheld", "thread")


def set_mode(mode: str) -> None:
    import gui.realheads.forward_process as forward_process

    forward_process.ENABLED = mode != "thread"


def timed_change(h, value, at_set=None) -> tuple[float, float] | None:
    """h.timed_change(dkSpin, value): (wall ms, GUI-thread CPU ms), both from setValue;
    at_set() is called just before setValue (after the harness's pre-change drain)."""
    spin, cpu = h.dk_spin, [0.0]
    set_value = spin.setValue

    def set_and_clock(v):
        if at_set is not None:
            at_set()
        cpu[0] = time.thread_time()
        set_value(v)

    spin.setValue = set_and_clock          # this instance only, for this one change
    try:
        row = h.timed_change(spin, value)
    finally:
        del spin.setValue
    if row is None:
        return None
    return 1e3 * row["total"], 1e3 * (time.thread_time() - cpu[0])


def series_summary(rows: list, idle: dict | None) -> dict:
    walls = [r["wall"] for r in rows]
    cpus = [r["cpu"] for r in rows]
    out = {**ms_summary(walls),
           "gui_cpu_median_ms": round(float(np.median(cpus)), 3),
           "gui_cpu_p95_ms": round(float(np.percentile(cpus, 95)), 3),
           "waiting_median_ms": round(float(np.median(np.subtract(walls, cpus))), 3)}
    if idle is not None:
        out.update({
            "p50_ratio_to_idle": round(out["median_ms"] / idle["median_ms"], 3),
            "p95_over_idle_p50": round(out["p95_ms"] / idle["median_ms"], 3),
            "gui_cpu_ratio_to_idle": round(out["gui_cpu_median_ms"] / idle["gui_cpu_median_ms"], 3),
            "head_roles_inside": f"{sum(r['hand'] for r in rows)} of {len(rows)}",
            "real_heads_inside": f"{sum(r['real'] for r in rows)} of {len(rows)}",
            "busy_overlap": f"{sum(r['overlap'] for r in rows)} of {len(rows)}",
            "forward_as_the_study_saw_it_median_ms": round(
                float(np.median([r["forward"] for r in rows])), 3)})
    return out


def ui_report(folder: str, changes: int) -> dict:
    """The GUI thread while the Real heads tab re-runs a sentence (see the module docstring)."""
    from benchmarks.harness import Harness, app_environment

    with app_environment():
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        h = Harness()
        try:
            win, app = h.win, h.app
            tab = win.model_heads
            hold = win.background_work.hold
            win.state.update_model_view(model="minilm", model_dir="")
            from gui.common import names
            win.area.bring_forward(names.MODEL_HEADS)
            model = load_model(folder)
            sentences = [ui_sentence(model, UI_TOKENS, k) for k in range(2)]
            win.state.update_heads_input(sentence=sentences[0])
            if not tab.wait_idle(120000) or tab.result is None or tab.result.forward is None:
                raise RuntimeError(f"the Real heads tab showed no result: {tab.message}")
            tokens = len(tab.result.forward.tokens)
            for mode in MODES:          # warm-up, untimed: the process loads its model once
                set_mode(mode)
                for sentence in reversed(sentences):
                    win.state.update_heads_input(sentence=sentence)
                    tab.request()
                    tab.wait_idle(120000)
            h.drain()
            rows = {name: [] for name in SERIES}
            hold_s = hold.hold_s
            k = 0
            for i in range(changes):
                for name in (SERIES if i % 2 == 0 else SERIES[::-1]):
                    value = DK_VALUES[k % len(DK_VALUES)]
                    k += 1
                    set_mode(name)
                    hold.hold_s = 0.0 if name == "unheld" else hold_s
                    tab.wait_idle(60000)
                    win.heads_study.wait_idle(60000)
                    h.drain()
                    if name != "idle":
                        # both studies get the new sentence; the debounce skipped: it starts now
                        win.state.update_heads_input(sentence=sentences[k % 2])
                        tab.request()
                    before = {}

                    def note_results():
                        before.update(real=tab.result, hand=tab.hand_heads)

                    timed = timed_change(h, value, note_results)
                    if timed is None:
                        continue
                    rows[name].append({"wall": timed[0], "cpu": timed[1],
                                       "real": tab.result is not before["real"],
                                       "hand": tab.hand_heads is not before["hand"],
                                       "overlap": bool(tab.study.busy)})
                    tab.wait_idle(60000)
                    rows[name][-1]["forward"] = 1e3 * tab.study.last_seconds
            hold.hold_s = hold_s
            h.drain()
            typing = {}
            for mode in MODES:
                set_mode(mode)
                keys, stalls = [], []
                tab.sentence_edit.setFocus()
                tab.sentence_edit.end(False)
                for i in range(UI_KEYS):
                    start = time.perf_counter()
                    QTest.keyClick(tab.sentence_edit, "x" if i % 5 else Qt.Key.Key_Backspace)
                    keys.append(1e3 * (time.perf_counter() - start))
                    until = start + TYPE_INTERVAL_MS / 1e3
                    while time.perf_counter() < until:
                        t = time.perf_counter()
                        app.processEvents()
                        stalls.append(1e3 * (time.perf_counter() - t))
                        time.sleep(0.001)
                tab.wait_idle(60000)
                typing[mode] = {"keystroke": ms_summary(keys),
                                "typing_stall": {"max_ms": round(max(stalls), 3),
                                                 "p99_ms": round(float(np.percentile(stalls, 99)), 3),
                                                 "passes": len(stalls)}}
            set_mode("process")
            idle = series_summary(rows["idle"], None)
            out = {"tokens": tokens, "frame_budget_ms": round(FRAME_BUDGET_MS, 3),
                   "dk_idle": idle}
            for name in SERIES[1:]:
                out[f"dk_busy_{name}"] = series_summary(rows[name], idle)
                if name in typing:
                    out[f"dk_busy_{name}"].update(typing[name])
            from gui.realheads.forward_process import forward_processes

            out["forward_processes"] = len(forward_processes())
            out["real_heads_forwards"] = tab.study.generation
            out["results_held"] = hold.held
            return out
        finally:
            set_mode("process")
            h.close()
            from gui.realheads.forward_process import forward_processes

            for process in forward_processes():   # h.close() ended the study thread already
                process.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir")
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--ui", action="store_true",
                        help="also time the GUI thread while the Real heads tab re-runs")
    parser.add_argument("--changes", type=int, default=40, help="d_k changes per --ui series")
    parser.add_argument("--show-cost", action="store_true",
                        help="also time the GUI thread showing one Real heads result")
    parser.add_argument("--shows", type=int, default=30, help="shows per --show-cost series")
    parser.add_argument("--forward-off", action="store_true",
                        help="skip the forward-time table (with --ui or --show-cost)")
    parser.add_argument("--blas-threads", type=int, default=1,
                        help="BLAS threads of the forward series (the app's study uses 1)")
    args = parser.parse_args()
    folder = args.model_dir or cached_model("minilm")
    if folder is None:
        print("model_forward: MiniLM is not fetched; run `python main.py fetch-model minilm`",
              file=sys.stderr)
        return 2
    clear_cache()
    start = time.perf_counter()
    model = load_model(folder)
    load_s = time.perf_counter() - start
    rows = []
    limits = threadpool_limits(limits=args.blas_threads, user_api="blas")
    for n in () if args.forward_off else TOKEN_COUNTS:
        ids = ids_of_length(model, n)
        fwd_med, fwd_p95, result = timed(lambda: attentions(model, ids), args.repeats)
        roles_med, roles_p95, _ = timed(lambda: head_roles(result, model), args.repeats)
        rows.append({"tokens": n, "forward_median_ms": fwd_med, "forward_p95_ms": fwd_p95,
                     "roles_median_ms": roles_med, "roles_p95_ms": roles_p95})
    limits.restore_original_limits()
    cfg = model.config
    report = {
        "model": {"name": model.name, "layers": cfg.layers, "heads": cfg.heads,
                  "d_model": cfg.d_model, "d_k": cfg.d_k},
        "cold_load_s": load_s, "repeats": args.repeats, "blas_threads": args.blas_threads,
        "forward": rows,
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "cpu_count": os.cpu_count(), "platform": platform.platform(),
                    "loadavg_1m_before": round(os.getloadavg()[0], 2),
                    "loadavg_1_5_15m_before": [round(v, 2) for v in os.getloadavg()]},
    }
    if args.ui:
        report["ui"] = ui_report(str(folder), args.changes)
    if args.show_cost:
        report["show_cost"] = show_cost_report(str(folder), args.shows)
    if args.ui or args.show_cost:
        report["machine"]["loadavg_1m_after"] = round(os.getloadavg()[0], 2)
        report["machine"]["loadavg_1_5_15m_after"] = [round(v, 2) for v in os.getloadavg()]
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
