"""The GUI thread showing one Real heads result of MiniLM (`model_forward --show-cost`).

Three series of shows take turns on the Real heads tab at 1600×1000: a sentence with new
words of the same length, one of a new length, and one with the same tokens (MiniLM is
uncased). Each show is timed from the tab receiving the result until Qt has painted it,
in GUI-thread CPU and in wall time; the scenes' item counts before and after show that
nothing grows per result.
"""
from __future__ import annotations

import time

import numpy as np

SENTENCE = "The cat sat on the mat because the cat was tired, and then the cat slept."

SHOW_BLOCK = 4   # timed shows of one series in a row (--show-cost)
SHOW_SENTENCES = {
    "new_words": (SENTENCE, SENTENCE.replace("cat", "dog")),
    "new_length": (SENTENCE, SENTENCE.replace("tired,", "very tired and hungry,")),
    "same_tokens": (SENTENCE, SENTENCE.upper()),   # MiniLM is uncased: the same tokens
}


def show_cost_report(folder: str, shows: int) -> dict:
    """The GUI thread showing one Real heads result (see the module docstring)."""
    from benchmarks.harness import Harness, app_environment

    with app_environment():
        h = Harness()
        try:
            win = h.win
            tab = win.model_heads
            win.state.update_model_view(model="minilm", model_dir="")
            from gui.common import names
            win.area.bring_forward(names.MODEL_HEADS)
            if not tab.wait_idle(120000) or tab.result is None or tab.result.forward is None:
                raise RuntimeError(f"the Real heads tab showed no result: {tab.message}")
            from gui.realheads.study import ModelHeadsRequest, compute_in_process

            def items() -> dict:
                return {p.objectName(): len(p.scene().items()) for p in tab.panels}

            results = {}
            for name, pair in SHOW_SENTENCES.items():
                results[name] = [compute_in_process(ModelHeadsRequest(folder, s)) for s in pair]
                if any(r.error for r in results[name]):
                    raise RuntimeError(results[name][0].error or results[name][1].error)
                for r in results[name] * 2:            # warm-up, untimed
                    tab._on_result(r)
                    h.paint_as_qt_does()
            before = items()
            rows = {name: ([], []) for name in results}
            # The series take turns, SHOW_BLOCK shows at a time (the first untimed: it
            # changes from the other series' result), so that the machine's load drifts
            # alike over all of them.
            k = 0
            while min(len(walls) for walls, _ in rows.values()) < shows:
                for name, pair in results.items():
                    walls, cpus = rows[name]
                    for j in range(SHOW_BLOCK + 1):
                        h.drain()
                        r = pair[(k + j) % 2]
                        t0, c0 = time.perf_counter(), time.thread_time()
                        tab._on_result(r)
                        h.paint_as_qt_does()
                        if j:
                            cpus.append(1e3 * (time.thread_time() - c0))
                            walls.append(1e3 * (time.perf_counter() - t0))
                k += 1
            out: dict = {"scene_items_before": before, "scene_items_after": items()}
            for name, (walls, cpus) in rows.items():
                out[name] = {"tokens": [len(r.forward.tokens) for r in results[name]],
                             "gui_cpu_median_ms": round(float(np.median(cpus)), 2),
                             "gui_cpu_p95_ms": round(float(np.percentile(cpus, 95)), 2),
                             "wall_median_ms": round(float(np.median(walls)), 2),
                             "wall_p95_ms": round(float(np.percentile(walls, 95)), 2),
                             "shows": len(walls)}
            return out
        finally:
            h.close()
            from gui.realheads.forward_process import forward_processes

            for process in forward_processes():
                process.stop()
