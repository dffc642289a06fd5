"""Bad input gets a clear message where the user looks; random use never crashes."""
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QSlider, QSpinBox

from engine.softmax import softmax
from gui_helpers import settle, view_in_front

@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


ROOT = Path(__file__).resolve().parents[3]


def test_bad_score_text_keeps_last_good_values(window):
    edit = window.findChild(QLineEdit, "scoresEdit")
    error = window.findChild(QLabel, "scoresError")
    good = window.model.params.scores
    shown = np.asarray(window.model.results.softmax.scores)   # live scores at first run
    for bad, needle in (("1,,x", "empty"), ("1, x", "'x'"), ("5", "2 to 16"), ("nan, 1", "finite"),
                        (",".join(["1"] * 17), "2 to 16"), ("", "2 to 16")):
        edit.setText(bad)
        edit.editingFinished.emit()
        settle(window)
        assert error.isVisible() and needle in error.text(), (bad, error.text())
        assert window.model.params.scores == good
        np.testing.assert_allclose(window.panels["softmaxPlot"].bars_unscaled.opts["height"],
                                   softmax(shown))
        assert edit.text() == bad          # what the user typed is not thrown away
    edit.setText("2, 1")
    edit.editingFinished.emit()
    settle(window)
    assert not error.isVisible()
    assert window.model.params.scores == (2.0, 1.0)


def test_extreme_dk_is_drawn_at_reduced_width(window):
    window.findChild(QSpinBox, "dkSpin").setValue(16384)
    settle(window)
    p = window.model.params
    assert (p.dk, p.heads, p.d_model) == (16384, 1, 16384)
    note = view_in_front(window, "multiheadView", idle=True).note_label.toPlainText()
    assert "reduced width" in note
    window.findChild(QSpinBox, "dkSpin").setValue(1)
    settle(window)
    assert window.model.params.dk == 1


def test_heads_that_do_not_divide_are_refused_with_a_message(window):
    heads = window.findChild(QSpinBox, "headsSpin")
    window.controls._on_heads(7)        # what a typed 7 reaches if the spin box let it through
    settle(window)
    assert window.model.params.heads in (4, 8)
    assert "does not divide" in window.statusBar().currentMessage()
    assert heads.value() == window.model.params.heads


def test_500_random_control_changes(window):
    rng = random.Random(1234)
    w = window
    spins = {name: w.findChild(QSpinBox, name) for name in
             ("dkSpin", "headsSpin", "dModelSpin", "keysSpin", "samplesSpin", "seedSpin",
              "tokensSpin", "seqLenSpin")}
    sliders = [w.findChild(QSlider, n) for n in ("dkSlider", "headsSlider", "scoreSlider0",
                                                 "scoreSlider1")]
    checks = [w.findChild(QCheckBox, n) for n in ("lockDModelCheck", "scaleCheck", "causalCheck")]
    edit = w.findChild(QLineEdit, "scoresEdit")
    combos = [w.findChild(QComboBox, n) for n in ("scoresPreset", "distributionCombo",
                                                  "modelPresetCombo")]
    temperature = w.findChild(object, "temperatureSpin")
    for step in range(500):
        kind = rng.randrange(6)
        if kind == 0:
            spin = rng.choice(list(spins.values()))
            spin.setValue(rng.randint(spin.minimum(), min(spin.maximum(), 20000)))
        elif kind == 1:
            slider = rng.choice(sliders)
            slider.setValue(rng.randint(slider.minimum(), slider.maximum()))
        elif kind == 2:
            rng.choice(checks).toggle()
        elif kind == 3:
            edit.setText(rng.choice(["1,2,3", "10 1 1 1", "x", "1,,2", "-5, 5, 0.5", "1e300, 0"]))
            edit.editingFinished.emit()
        elif kind == 4:
            combo = rng.choice(combos)
            combo.activated.emit(rng.randrange(combo.count()))
        else:
            temperature.setValue(rng.uniform(0.01, 10))
        p = w.model.params
        assert p.d_model == p.heads * p.dk <= 16384
        if step % 50 == 0:
            settle(w)
    settle(w)
    p = w.model.params
    assert spins["dkSpin"].value() == p.dk and spins["headsSpin"].value() == p.heads
    assert spins["dModelSpin"].value() == p.d_model


@pytest.mark.slow
def test_app_starts_and_quits_offscreen():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_LAB_QUIT_AFTER_MS="800")
    proc = subprocess.run([sys.executable, str(ROOT / "main.py")], env=env, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "QThread: Destroyed" not in proc.stderr
