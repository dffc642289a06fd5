"""Random use of the whole window (stress_driver.py), in a subprocess so that a segfault
fails the test: a tour of every view, then 2 × 200 random actions (the same ones twice from
the same state): no exception, no Qt warning, no thread or child process left, and the
second half adds no memory beyond a margin."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).parents[1] / "stress_driver.py"
ACTIONS = 400
SEED = 2026
#: Resident memory, read in the same resting state after each half, may grow this much: the
#: second half only revisits states the first one made, so its growth is what actions keep
#: (about 100 KB an action), not caches filling.
MEMORY_GROWTH_MB = 20


@pytest.mark.slow
def test_random_use_never_crashes_or_warns(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(ACTIONS), str(SEED)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["actions"] == ACTIONS
    assert report["exceptions"] == []
    assert report["qt_warnings"] == []
    assert report["python_threads"] == [] and report["running_studies"] == []
    assert report["children"] == []
    assert report["rss_end_mb"] - report["rss_warm_mb"] < MEMORY_GROWTH_MB, report
