"""Every control changes what the right panel shows, read back from the plot items."""
import math

import numpy as np
import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPushButton, QSlider, QSpinBox

from engine import random_scores
from engine.softmax import softmax
from gui.controls import dk_to_slider

from gui_helpers import settle


def find(win, cls, name):
    widget = win.findChild(cls, name)
    assert widget is not None, f"no {cls.__name__} named {name}"
    return widget


def bar_heights(win, scaled):
    panel = win.panels["softmaxPlot"]
    bars = panel.bars_scaled if scaled else panel.bars_unscaled
    return np.asarray(bars.opts["height"], dtype=float)


def test_every_named_control_exists(window):
    names = {QSlider: ["dkSlider", "headsSlider", "scoreSlider0", "scoreSlider1"],
             QSpinBox: ["dkSpin", "headsSpin", "dModelSpin", "seedSpin", "keysSpin", "samplesSpin"],
             QCheckBox: ["lockDModelCheck", "scaleCheck", "causalCheck"],
             QLineEdit: ["scoresEdit"], QLabel: ["scoresError"],
             QComboBox: ["scoresPreset", "distributionCombo"], QPushButton: ["sampleScoresButton"]}
    for cls, objs in names.items():
        for name in objs:
            find(window, cls, name)
    assert window.findChild(QSpinBox, "temperatureSpin") is None  # it is a QDoubleSpinBox
    for name in ("softmaxPlot", "variancePlot", "saturationPlot", "multiheadView", "costPlot"):
        assert window.panels[name].objectName() == name


def test_dk_spin_moves_variance_saturation_and_softmax(window):
    find(window, QSpinBox, "dkSpin").setValue(4096)
    settle(window)
    v = window.panels["variancePlot"]
    edges = v.hist["raw"].xData
    assert edges.max() == pytest.approx(4.5 * 64, rel=0.05)       # ±4.5·√d_k
    assert "d_k = 4096" in v.stats_raw.toPlainText()
    marker = window.panels["saturationPlot"].markers["max_prob"].value()
    assert marker == pytest.approx(math.log10(4096))
    scores = np.array(window.model.params.scores)
    np.testing.assert_allclose(bar_heights(window, True), softmax(scores / 64))
    # Locked at d_model = 512 cannot hold d_k = 4096: the lock opens and says so.
    assert not find(window, QCheckBox, "lockDModelCheck").isChecked()
    p = window.model.params
    assert p.d_model == p.heads * p.dk <= 16384
    assert "unlocked" in window.statusBar().currentMessage()


def test_dk_slider_moves_in_log_steps(window):
    slider = find(window, QSlider, "dkSlider")
    slider.setValue(dk_to_slider(256))
    settle(window)
    assert window.model.params.dk == 256
    assert find(window, QSpinBox, "dkSpin").value() == 256


def test_heads_locked_changes_dk_and_multihead_view(window):
    heads = find(window, QSpinBox, "headsSpin")
    heads.setValue(4)
    settle(window)
    p = window.model.params
    assert (p.heads, p.dk, p.d_model) == (4, 128, 512)
    view = window.panels["multiheadView"]
    assert sum(m.isVisible() for m in view.head_maps) == 4
    assert view.head_outputs[0].image.shape == (p.tokens, 128)
    cost = window.panels["costPlot"]
    assert len(cost.head_bar.opts["height"]) == 4 + 1   # four heads and W_O


def test_heads_spin_offers_only_divisors_when_locked(window):
    heads = find(window, QSpinBox, "headsSpin")
    heads.setValue(8)
    heads.stepBy(1)
    assert heads.value() == 16
    heads.lineEdit().setText("7")
    heads.interpretText()
    assert heads.value() in (4, 8)  # snapped to a divisor of 512, never 7
    settle(window)
    assert 512 % window.model.params.heads == 0


def test_unlocked_heads_keep_dk(window):
    find(window, QCheckBox, "lockDModelCheck").setChecked(False)
    find(window, QSpinBox, "headsSpin").setValue(12)
    settle(window)
    p = window.model.params
    assert (p.heads, p.dk, p.d_model) == (12, 64, 768)
    assert find(window, QSpinBox, "dModelSpin").value() == 768


def test_scores_edit_updates_bars(window, qtbot):
    edit = find(window, QLineEdit, "scoresEdit")
    edit.setText("3, 2 1 0 -1")
    edit.editingFinished.emit()
    settle(window)
    np.testing.assert_allclose(bar_heights(window, False), softmax([3, 2, 1, 0, -1]))
    assert sum(find(window, QSlider, f"scoreSlider{i}").isVisible() for i in range(16)) == 5


def test_score_slider_changes_one_score(window):
    find(window, QSlider, "scoreSlider0").setValue(25)   # 2.5 in slider units of 0.1
    settle(window)
    assert window.model.params.scores[0] == 2.5
    assert find(window, QLineEdit, "scoresEdit").text().startswith("2.5")
    np.testing.assert_allclose(bar_heights(window, False), softmax(window.model.params.scores))


def test_preset_offset_does_not_change_softmax(window):
    combo = find(window, QComboBox, "scoresPreset")
    combo.activated.emit(combo.findData("ten"))
    settle(window)
    ten = bar_heights(window, False)
    combo.activated.emit(combo.findData("hundred"))
    settle(window)
    assert window.model.params.scores == (100.0, 91.0, 91.0, 91.0)
    np.testing.assert_allclose(bar_heights(window, False), ten)   # softmax is shift-invariant


def test_sample_button_fills_sampled_scores(window):
    p = window.model.params
    find(window, QPushButton, "sampleScoresButton").click()
    settle(window)
    expected = random_scores(p.dk, len(p.scores), p.seed + 1, p.distribution, p.sigma)
    assert window.model.params.scores == expected


def test_temperature_flattens_softmax(window):
    window.findChild(object, "temperatureSpin").setValue(4.0)
    settle(window)
    np.testing.assert_allclose(bar_heights(window, False), softmax(window.model.params.scores, 4.0))


def test_scale_check_switches_multihead_scaling(window):
    view = window.panels["multiheadView"]
    scaled = np.array(view.head_maps[0].image)
    find(window, QCheckBox, "scaleCheck").setChecked(False)
    settle(window)
    assert "not scaled" in view.note_label.toPlainText()
    assert not np.allclose(view.head_maps[0].image, scaled)


def test_keys_samples_distribution_seed(window):
    v = window.panels["variancePlot"]
    find(window, QSpinBox, "samplesSpin").setValue(5000)
    settle(window)
    assert "5000 samples" in v.stats_scaled.toPlainText()
    before = np.array(v.hist["raw"].yData)
    find(window, QSpinBox, "seedSpin").setValue(7)
    settle(window)
    assert not np.array_equal(before, v.hist["raw"].yData)
    combo = find(window, QComboBox, "distributionCombo")
    combo.setCurrentIndex(combo.findData("rademacher"))
    combo.activated.emit(combo.currentIndex())
    settle(window)
    assert window.model.params.distribution == "rademacher"
    assert "normal approx." in v.stats_scaled.toPlainText()
    find(window, QSpinBox, "keysSpin").setValue(32)
    settle(window)
    entropy_axis = window.panels["saturationPlot"].plots["entropy"].viewRange()[1]
    assert entropy_axis[1] == pytest.approx(1.05 * math.log(32))


def test_tokens_and_causal_mask(window):
    find(window, QSpinBox, "tokensSpin").setValue(9)
    find(window, QCheckBox, "causalCheck").setChecked(True)
    settle(window)
    weights = np.asarray(window.panels["multiheadView"].head_maps[0].image)
    assert weights.shape == (9, 9)
    assert np.all(np.triu(weights, 1) == 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)


def test_seq_len_changes_cost(window):
    cost = window.panels["costPlot"]
    find(window, QSpinBox, "seqLenSpin").setValue(2048)
    settle(window)
    assert "n = 2048" in cost.info.toPlainText()
    r = window.model.results
    heights = np.asarray(cost.term_bars["scores"].opts["height"])
    assert heights[1] == r.cost_multi.total["scores"] == 2 * 2048**2 * 512


def test_sigma_scales_the_theory(window):
    window.findChild(object, "sigmaSpin").setValue(2.0)
    settle(window)
    v = window.model.results.variance
    assert v.theory_unscaled == pytest.approx(64 * 2.0**4)
    assert "theory σ⁴ = 16.00" in window.panels["variancePlot"].stats_scaled.toPlainText()
    assert v.empirical_scaled == pytest.approx(16.0, rel=0.05)


def test_d_model_spin_and_model_presets(window):
    find(window, QSpinBox, "dModelSpin").setValue(768)
    settle(window)
    p = window.model.params
    assert p.d_model == 768 and 768 % p.heads == 0 and p.dk * p.heads == 768
    combo = find(window, QComboBox, "modelPresetCombo")
    from engine.presets import MODEL_PRESETS
    index = 1 + [m.name for m in MODEL_PRESETS].index("GPT-2 small")
    combo.activated.emit(index)
    settle(window)
    p = window.model.params
    assert (p.d_model, p.heads, p.dk) == (768, 12, 64)
    assert "768" in window.panels["multiheadView"].x_label.toPlainText()
