"""Training-lab speed; prints one JSON object to stdout.

    python benchmarks/training_speed.py [--repeats N]

For each experiment's default config (engine.training): wall and CPU seconds of the whole
run (median, min and max over N runs, default 3) and training steps per second, where a
step is one optimizer step of one run (scaling trains 48 runs, heads 15, roles 1). The
machine is shared: the load average before and after is printed beside the figures, and
only medians should be quoted.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.training import EXPERIMENTS, default_config, run_experiment  # noqa: E402


def _total_steps(name: str, config) -> int:
    runs = getattr(config, "run_count", 1)
    return runs * config.steps


def bench(name: str, repeats: int) -> dict:
    config = default_config(name)
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        run_experiment(name, config)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    steps = _total_steps(name, config)
    wall = statistics.median(walls)
    return {"experiment": name, "runs": getattr(config, "run_count", 1), "steps": steps,
            "median_wall_s": round(wall, 3), "min_wall_s": round(min(walls), 3),
            "max_wall_s": round(max(walls), 3), "median_cpu_s": round(statistics.median(cpus), 3),
            "steps_per_second": round(steps / wall, 1), "repeats": repeats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load_before = os.getloadavg()
    rows = [bench(name, args.repeats) for name in EXPERIMENTS]
    json.dump({"training": rows, "machine": {
        "cpus": os.cpu_count(), "python": platform.python_version(),
        "platform": platform.platform(), "load_average_before": [round(v, 2) for v in load_before],
        "load_average_after": [round(v, 2) for v in os.getloadavg()]}}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
