#!/usr/bin/env python
"""Pretrained-model benchmark: MiniLM's forward pass against token count; prints one JSON object.

    python benchmarks/model_forward.py [--model-dir DIR] [--repeats N]

The model is the fetched all-MiniLM-L6-v2 (`python main.py fetch-model minilm`) unless
--model-dir is given. For n = 8, 16, 32, 64, 128 tokens ([CLS], n − 2 tokens of the lesson
sentence repeated, [SEP]) it reports the median and p95 milliseconds of
  forward_ms  engine.models.attentions (every layer's and head's attention and score variance)
  roles_ms    engine.models.head_roles on that result (an encoder runs no extra pass)
over --repeats runs after 3 warm-up runs, and the cold load time (safetensors + tokenizer).
Timings on a shared 2-core machine are noisy: compare medians, not single runs.
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

from engine.models import attentions, head_roles, load_model  # noqa: E402
from engine.models.fetch import cached_model  # noqa: E402
from engine.models.loader import clear_cache  # noqa: E402

SENTENCE = "The cat sat on the mat because the cat was tired, and then the cat slept."
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir")
    parser.add_argument("--repeats", type=int, default=30)
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
    for n in TOKEN_COUNTS:
        ids = ids_of_length(model, n)
        fwd_med, fwd_p95, result = timed(lambda: attentions(model, ids), args.repeats)
        roles_med, roles_p95, _ = timed(lambda: head_roles(result, model), args.repeats)
        rows.append({"tokens": n, "forward_median_ms": fwd_med, "forward_p95_ms": fwd_p95,
                     "roles_median_ms": roles_med, "roles_p95_ms": roles_p95})
    cfg = model.config
    json.dump({
        "model": {"name": model.name, "layers": cfg.layers, "heads": cfg.heads,
                  "d_model": cfg.d_model, "d_k": cfg.d_k},
        "cold_load_s": load_s, "repeats": args.repeats, "forward": rows,
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "cpu_count": os.cpu_count(), "platform": platform.platform()},
    }, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
