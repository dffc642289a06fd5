"""Engine benchmarks; prints one JSON object to stdout.

    python -m benchmarks.engine_compute      (or: python benchmarks/engine_compute.py)

(a) exact (χ·z) vs explicit (q, k vectors) sampling of q·k for normal components,
    100 000 samples at d_k = 64, 512, 4096: median seconds and the explicit/exact ratio;
(b) compute(Params()) at the defaults and at d_k = 16 384: median and p95 milliseconds
    over 200 fresh seeds after a warm-up;
(c) machine information.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__" and not __package__:  # run as a file: run this checkout's module
    os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.execv(sys.executable, [sys.executable, "-m", "benchmarks.engine_compute", *sys.argv[1:]])

import json  # noqa: E402
import platform  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from engine import Params, compute  # noqa: E402
from engine.dot_product import sample_dot_products_exact, sample_dot_products_explicit  # noqa: E402

SAMPLES = 100_000
SAMPLER_DKS = (64, 512, 4096)
COMPUTE_SEEDS = 200
WARMUP = 5


def _median_seconds(fn, repeats: int) -> float:
    times = []
    for seed in range(repeats):
        rng = np.random.default_rng(seed)
        start = time.perf_counter()
        fn(rng)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def bench_samplers() -> list[dict]:
    rows = []
    for dk in SAMPLER_DKS:
        exact = _median_seconds(lambda rng: sample_dot_products_exact(dk, SAMPLES, rng), 15)
        # Explicit work grows as n·d_k (4·10⁸ products at d_k = 4096): fewer repeats there.
        explicit = _median_seconds(lambda rng: sample_dot_products_explicit(dk, SAMPLES, rng),
                                   3 if dk >= 4096 else 5)
        rows.append({"dk": dk, "samples": SAMPLES, "exact_s": exact, "explicit_s": explicit,
                     "explicit_over_exact": explicit / exact})
    return rows


def bench_compute(params: Params) -> dict:
    for seed in range(WARMUP):
        compute(Params(**{**params.to_dict(), "seed": 10_000 + seed}))
    times_ms = []
    for seed in range(COMPUTE_SEEDS):
        p = Params(**{**params.to_dict(), "seed": seed})
        start = time.perf_counter()
        compute(p)
        times_ms.append(1e3 * (time.perf_counter() - start))
    return {"dk": params.dk, "heads": params.heads, "d_model": params.d_model,
            "runs": COMPUTE_SEEDS, "median_ms": float(np.median(times_ms)),
            "p95_ms": float(np.percentile(times_ms, 95))}


def main() -> int:
    result = {
        "sampler_normal": bench_samplers(),
        "compute": {
            "defaults": bench_compute(Params()),
            "dk_16384": bench_compute(Params(dk=16384, heads=1, d_model=16384)),
        },
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "numpy": np.__version__,
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "machine": platform.machine(),
        },
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
