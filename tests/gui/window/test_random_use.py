"""Random use of the whole window (stress_driver.py), in a subprocess so that a segfault
fails the test: a tour of every view, then ACTIONS random actions (two halves, the same
actions twice from the same state; text pasted into every field, window sizes down to
320×240): no exception (raised or caught by the guard), no traceback on stderr (the
children's included), no Qt warning, resting RSS at the end within GROWTH_LIMIT times its
reading after the first fifth, no thread or child process left.

Three seeds × 1 000 actions in the suite; three × 10 000 in the soak tier
(`python -m pytest --soak -m soak`).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).parents[1] / "stress_driver.py"
SEEDS = (2026, 7, 31)
SUITE_ACTIONS, SOAK_ACTIONS = 1000, 10000
GROWTH_LIMIT = 1.3
TIME_LIMIT_S = {SUITE_ACTIONS: 600, SOAK_ACTIONS: 5400}


@pytest.mark.slow
@pytest.mark.parametrize("actions", [
    SUITE_ACTIONS, pytest.param(SOAK_ACTIONS, marks=pytest.mark.soak)])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_use_never_crashes_or_warns(tmp_path, seed, actions):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(actions), str(seed)], env=env,
                          capture_output=True, text=True, timeout=TIME_LIMIT_S[actions])
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]     # children's included
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["actions"] == actions
    assert report["exceptions"] == []
    assert report["qt_warnings"] == []
    points = report["rss_points_mb"]
    print(json.dumps({"seed": seed, "actions": actions, "rss_points_mb": points}))  # -rP
    assert len(points) == 5 and points[-1] <= GROWTH_LIMIT * points[0], points
    assert report["python_threads"] == [] and report["running_studies"] == []
    assert report["children"] == []
