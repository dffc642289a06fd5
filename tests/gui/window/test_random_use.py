"""Random use of the whole window (stress_driver.py), in a subprocess so that a segfault
fails the test: a tour of every view, then 2 × 200 random actions (the same ones twice from
the same state): no exception (raised or caught by the guard), no traceback on stderr (the
children's included), no Qt warning, no thread or child process left. Memory in
long use is test_long_use_memory.py's: 200 actions are still inside the warm-up of some
seeds (the workspaces' views fill their caches then), so a margin on them measured warm-up,
not what actions keep."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).parents[1] / "stress_driver.py"
ACTIONS = 400
SEED = 2026


@pytest.mark.slow
def test_random_use_never_crashes_or_warns(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(ACTIONS), str(SEED)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]     # children's included
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["actions"] == ACTIONS
    assert report["exceptions"] == []
    assert report["qt_warnings"] == []
    assert report["python_threads"] == [] and report["running_studies"] == []
    assert report["children"] == []
