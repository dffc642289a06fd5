"""Memory stays flat in long use: one window driven by random actions (every control, menu
action, lesson shortcut, both languages, text sizes, themes, presentation, window sizes, tabs
and short training runs: long_use_driver.py) ends with resident memory within GROWTH_LIMIT
times its first reading (a third or a fifth of the way), raises no exception, logs no Qt
warning, and leaves no thread or child process once it is closed.

Two lengths: SHORT_ACTIONS in the suite (a leak of a view or window per action shows within
it), LONG_ACTIONS in the soak tier (`python -m pytest --soak -m soak`).

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
SHORT_ACTIONS, LONG_ACTIONS = 600, 2000
GROWTH_LIMIT = 1.3
TIME_LIMIT_S = {SHORT_ACTIONS: 300, LONG_ACTIONS: 900}


@pytest.mark.slow
@pytest.mark.parametrize("actions, points", [
    (SHORT_ACTIONS, 3), pytest.param(LONG_ACTIONS, 5, marks=pytest.mark.soak)])
def test_memory_stays_flat_in_long_use(tmp_path, actions, points):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), TMPDIR=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(actions), "7", "--tour",
                           "--points", str(points)], env=env, capture_output=True, text=True,
                          timeout=TIME_LIMIT_S[actions])
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    readings, summary = [line for line in lines if "point" in line], lines[-1]
    assert [r["actions"] for r in readings] == [actions * i // points for i in range(points + 1)]
    assert summary["exceptions"] == [], summary["exceptions"]
    assert summary["qt_warnings"] == [], summary["qt_warnings"]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    first, end = readings[1]["rss_mb"], readings[-1]["rss_mb"]
    assert end <= GROWTH_LIMIT * first, readings
    assert summary["threads_left"] == [], summary
    assert summary["children_left"] == [], summary
