"""Memory stays flat in long use: one window driven by thousands of random actions (every
control, menu action, lesson shortcut, both languages, text sizes, themes, presentation,
window sizes, tabs and short training runs: long_use_driver.py) ends with resident memory
within GROWTH_LIMIT times the reading after the first fifth of the actions, raises no
exception, logs no Qt warning, and leaves no thread or child process once it is closed.

The driver runs in a subprocess of its own (offscreen, its settings and caches in tmp_path):
a fresh process measures only this window, and a crash fails the test instead of ending the
session.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).parents[1] / "long_use_driver.py"
ACTIONS = 2000
POINTS = 5                  # readings: after every fifth of the actions
GROWTH_LIMIT = 1.3
TIME_LIMIT_S = 400


@pytest.mark.slow
def test_memory_stays_flat_in_long_use(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), TMPDIR=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(ACTIONS), "7", "--tour",
                           "--points", str(POINTS)], env=env, capture_output=True, text=True,
                          timeout=TIME_LIMIT_S)
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    points, summary = [line for line in lines if "point" in line], lines[-1]
    assert [p["actions"] for p in points] == [ACTIONS * i // POINTS for i in range(POINTS + 1)]
    assert summary["exceptions"] == [], summary["exceptions"]
    assert summary["qt_warnings"] == [], summary["qt_warnings"]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    first_fifth, end = points[1]["rss_mb"], points[-1]["rss_mb"]
    assert end <= GROWTH_LIMIT * first_fifth, points
    assert summary["threads_left"] == [], summary
    assert summary["children_left"] == [], summary
