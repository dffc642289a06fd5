"""3 000 random actions over the whole window, in a subprocess so that a segfault fails the
test: no exception, no Qt warning, no thread or child process left, and flat memory."""
import json
import os
import subprocess
import sys
from pathlib import Path

DRIVER = Path(__file__).with_name("stress_driver.py")
ACTIONS = 3000
#: Resident memory, read in the same resting state, may grow this much between a third of the
#: run and its end (font and glyph caches fill).
MEMORY_GROWTH_MB = 60


def test_random_use_never_crashes_or_warns(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path),
               HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, str(DRIVER), str(ACTIONS), "2026"], env=env,
                          capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, f"exit {proc.returncode} (negative: killed by a signal)\n" \
                                 f"{proc.stderr[-3000:]}"
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["actions"] == ACTIONS
    assert report["exceptions"] == []
    assert report["qt_warnings"] == []
    assert report["python_threads"] == [] and report["running_studies"] == []
    assert report["children"] == []
    assert report["rss_end_mb"] - report["rss_warm_mb"] < MEMORY_GROWTH_MB, report
