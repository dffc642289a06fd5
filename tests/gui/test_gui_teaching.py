"""Issue 11 (teaching truth), window side: each test fails on the old behaviour."""
import numpy as np
import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from engine import Params, compute
from engine.presets import MODEL_PRESETS, preset_by_slug
from gui.shape_rules import kv_heads_for

from gui_helpers import settle


def find(win, cls, name):
    widget = win.findChild(cls, name)
    assert widget is not None, f"no {cls.__name__} named {name}"
    return widget


def choose_preset(win, slug):
    combo = find(win, QComboBox, "modelPresetCombo")
    index = 1 + [p.slug for p in MODEL_PRESETS].index(slug)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    settle(win)


# -- controls --------------------------------------------------------------------------
def test_kv_heads_for_keeps_a_valid_g_and_resets_an_invalid_one():
    assert kv_heads_for(8, 2) == 2
    assert kv_heads_for(12, 8) is None       # 8 does not divide 12: back to MHA
    assert kv_heads_for(4, 8) is None        # g > h
    assert kv_heads_for(16, None) is None


def test_kv_heads_spin_offers_divisors_of_h_and_survives_h_changes(window):
    kv = find(window, QSpinBox, "kvHeadsSpin")
    assert kv.value() == 8 and kv._allowed == [1, 2, 4, 8]     # MHA at the defaults
    kv.setValue(2)
    settle(window)
    assert window.model.params.kv_heads_used == 2
    assert window.model.results.cost_multi.kv_heads == 2
    find(window, QSpinBox, "headsSpin").setValue(4)             # 2 still divides 4: kept
    settle(window)
    assert window.model.params.kv_heads_used == 2
    find(window, QSpinBox, "headsSpin").setValue(1)             # h = 1: g must be 1
    settle(window)
    assert window.model.params.kv_heads_used == 1
    assert kv._allowed == [1]
    assert "error" not in window.statusBar().currentMessage().lower()


def test_model_preset_sets_kv_heads_cached_layers_and_names_its_source(window):
    choose_preset(window, "llama-2-70b")
    p = window.model.params
    preset = preset_by_slug("llama-2-70b")
    assert (p.d_model, p.heads, p.kv_heads_used, p.cached_layers) == (8192, 64, 8, 80)
    assert find(window, QSpinBox, "kvHeadsSpin").value() == 8
    combo = find(window, QComboBox, "modelPresetCombo")
    assert preset.source in combo.toolTip()
    assert preset.source in combo.itemData(combo.currentIndex(), 3)   # Qt.ToolTipRole


def test_live_scores_are_on_at_first_run_and_follow_dk(window):
    from gui.controls import score_to_slider

    assert Params().live_scores is False                      # the engine's default
    check = find(window, QCheckBox, "liveScoresCheck")
    assert check.isChecked() and window.model.params.live_scores
    panel = window.panels["softmaxPlot"]
    for dk in (4, 4096):
        find(window, QSpinBox, "dkSpin").setValue(dk)
        settle(window)
        sm = window.model.results.softmax
        assert sm.source == "live"
        # the field and the sliders show the scores in use, not the typed ones
        shown = [float(x) for x in find(window, type(window.controls.scores_edit),
                                        "scoresEdit").text().split(",")]
        np.testing.assert_allclose(shown, sm.scores, rtol=1e-5)
        assert [s.value() for s in window.controls.score_sliders[:sm.scores.size]] == \
            [score_to_slider(s) for s in sm.scores]
        np.testing.assert_allclose(panel.bars_unscaled.opts["height"], sm.probs_unscaled)
        if dk == 4:
            scaled_at_4 = np.asarray(sm.probs_scaled)
            assert sm.max_prob_unscaled < 0.9
    assert sm.max_prob_unscaled > 0.99                        # raw: one-hot at d_k = 4096
    # ÷√d_k: the same shape (the ranking and no collapse)
    assert sm.max_prob_scaled < 0.9
    assert np.argmax(sm.probs_scaled) == np.argmax(scaled_at_4)


def test_typing_scores_switches_live_off(window, qtbot):
    edit = window.controls.scores_edit
    edit.setText("3, 1, 0")
    edit.editingFinished.emit()
    settle(window)
    p = window.model.params
    assert not p.live_scores and p.scores == (3.0, 1.0, 0.0)
    assert window.model.results.softmax.source == "typed"
    assert not find(window, QCheckBox, "liveScoresCheck").isChecked()


def test_live_field_losing_focus_keeps_live_on(window):
    window.controls.scores_edit.editingFinished.emit()        # no edit, just focus out
    settle(window)
    assert window.model.params.live_scores


def test_scale_by_d_model_check(window):
    check = find(window, QCheckBox, "scaleByDModelCheck")
    assert not check.isChecked()
    check.setChecked(True)
    settle(window)
    mh = window.model.results.multihead
    assert window.model.params.scale_by == "d_model"
    assert mh.divisor == pytest.approx(np.sqrt(512))
    check.setChecked(False)
    settle(window)
    assert window.model.results.multihead.divisor == pytest.approx(8.0)


def test_tooltips_explain_each_length(window):
    tips = {name: window.findChild(QSpinBox, name).toolTip()
            for name in ("keysSpin", "samplesSpin", "tokensSpin", "seqLenSpin", "seedSpin",
                         "headsSpin", "kvHeadsSpin")}
    assert "saturation" in tips["keysSpin"]
    assert "diagram" in tips["tokensSpin"] and "n × n" in tips["tokensSpin"]
    assert "cost" in tips["seqLenSpin"] and "KV cache" in tips["seqLenSpin"]
    assert "MQA" in tips["kvHeadsSpin"] and "GQA" in tips["kvHeadsSpin"]
    assert "σ⁴" in window.controls.sigma_spin.toolTip()
    assert "decoder" in window.controls.causal_check.toolTip()
    box = window.controls.scores_box.toolTip()
    for word in ("scores", "keys n", "tokens", "sequence length"):
        assert word in box
    assert find(window, QComboBox, "modelPresetCombo").toolTip()


# -- cost panel ------------------------------------------------------------------------
def bar_totals(cost):
    return sum(np.asarray(bar.opts["height"], dtype=float) for bar in cost.term_bars.values())


def test_h1_bars_are_identical_and_named_once(window):
    window.model.update(heads=1, dk=512, d_model=512)
    settle(window)
    cost = window.panels["costPlot"]
    totals = bar_totals(cost)
    assert totals[0] == totals[1] == window.model.results.cost_multi.flops
    for bar in cost.term_bars.values():
        heights = np.asarray(bar.opts["height"])
        assert heights[0] == heights[1]          # W_O too: the single head has it
    assert [label.toPlainText() for label in cost.bar_names].count("") == 1
    r = window.model.results
    assert "1.05M" in cost.memory_text.text and r.cost_single.params == r.cost_multi.params


def test_cost_shows_softmax_share_and_the_labelled_no_w_o_figure(window):
    from gui.style import format_count

    window.model.update(heads=512, dk=1, d_model=512)
    settle(window)
    cost, r = window.panels["costPlot"], window.model.results
    assert f"{r.cost_multi.softmax_share:.1%}" == "29.4%"
    assert "29.4% of the layer" in cost.info.toPlainText()
    no_w_o = r.cost_no_output_projection.flops
    assert np.all(cost.no_w_o_line.yData == no_w_o) and no_w_o < r.cost_single.flops
    assert f"without W_O: {format_count(no_w_o)}" in cost.info.toPlainText()
    assert "1 head without W_O" in [label.text for _s, label in cost.legend.items]


def test_llama_2_70b_params_and_kv_cache_on_screen(window):
    choose_preset(window, "llama-2-70b")
    cost, r = window.panels["costPlot"], window.model.results
    assert r.cost_multi.params == 2 * 8192**2 + 2 * 8192 * 8 * 128
    text = cost.memory_text.text
    assert "attention params per layer: 151M" in text
    assert "320 KiB per token" in text and "GQA" in text
    assert "160 MiB at n = 512" in text                         # 320 KiB × 512
    assert "32 MiB per layer" in text                           # 64 · 512² · 2 bytes
    combo = find(window, QComboBox, "kvPrecisionCombo")
    combo.setCurrentIndex(combo.findData(4))
    combo.activated.emit(combo.currentIndex())
    assert "80 KiB per token" in cost.memory_text.text
    find(window, QSpinBox, "kvHeadsSpin").setValue(64)           # MHA: 4d²
    settle(window)
    assert "attention params per layer: 268M" in cost.memory_text.text


def test_format_bytes_uses_binary_units():
    from gui.panels.cost_panel import format_bytes

    assert format_bytes(327680) == "320 KiB"
    assert format_bytes(2**20) == "1 MiB"
    assert format_bytes(1.5 * 2**30) == "1.5 GiB"
    assert format_bytes(512) == "512 B"
