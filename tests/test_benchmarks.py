"""benchmarks/: the scripts the performance targets are measured with keep working."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_turns_times_the_app_and_the_stack_in_alternating_blocks():
    """Two servers per workspace run stopped and continued in turns; every scenario gets
    the changes asked for from both, in the blocks asked for."""
    done = subprocess.run([sys.executable, "-m", "benchmarks.turns", "--changes", "5",
                           "--block", "2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    for workspace in ("scaling", "multihead"):
        for scenario in ("defaults", "dk_16384"):
            figure = report[f"{workspace}.{scenario}"]
            assert figure["blocks"] == 3 and figure["block"] == 2
            for side in ("app", "stack"):
                assert 0 < figure[side]["p50"] <= figure[side]["p95"] <= figure[side]["max"]
            assert figure["p95_over_stack"] == pytest.approx(
                figure["app"]["p95"] / figure["stack"]["p95"], abs=1e-3)
