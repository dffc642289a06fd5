"""README.md's opening says what the engine shows: the spread of the scores saturates
softmax, not their size (softmax sees only differences)."""
from pathlib import Path

import numpy as np

from engine.softmax import softmax

ROOT = Path(__file__).resolve().parents[2]


def test_readme_opening_says_the_spread_of_the_scores_saturates_softmax():
    opening = " ".join(ROOT.joinpath("README.md").read_text(encoding="utf-8")
                       .split("2. **How multi-head")[0].split())
    assert "Large scores push softmax" not in opening
    assert "spread of the scores" in opening and "pushes softmax towards one-hot" in opening
    # What the sentence rests on: shifting every score leaves softmax unchanged.
    scores = np.array([10.0, 1.0, 1.0, 1.0])
    assert np.allclose(softmax(scores, 1.0), softmax(scores + 90.0, 1.0))
