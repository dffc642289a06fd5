"""Issue 11 (teaching truth), window side: each test fails on the old behaviour."""
import numpy as np
import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from engine import Params
from engine.presets import MODEL_PRESETS, preset_by_slug
from gui.common import names
from gui.controls.shape_rules import kv_heads_for

from gui_helpers import settle, view_in_front


@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


@pytest.fixture
def english():
    from gui.common.i18n import set_language

    set_language("en")
    yield
    set_language("en")


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
    assert kv.value() == 8 and kv.allowed == [1, 2, 4, 8]     # MHA at the defaults
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
    assert kv.allowed == [1]
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
    from gui.controls.fields import score_to_slider

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
        shown = [float(x) for x in find(window, type(window.controls.scores_box.scores_edit),
                                        "scoresEdit").text().split(",")]
        np.testing.assert_allclose(shown, sm.scores, rtol=1e-5)
        sliders = window.controls.scores_box.score_sliders
        assert [s.value() for s in sliders[:sm.scores.size]] == \
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
    edit = window.controls.scores_box.scores_edit
    edit.setText("3, 1, 0")
    edit.editingFinished.emit()
    settle(window)
    p = window.model.params
    assert not p.live_scores and p.scores == (3.0, 1.0, 0.0)
    assert window.model.results.softmax.source == "typed"
    assert not find(window, QCheckBox, "liveScoresCheck").isChecked()


def test_live_field_losing_focus_keeps_live_on(window):
    window.controls.scores_box.scores_edit.editingFinished.emit()  # no edit, just focus out
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


def test_tooltips_explain_each_length(controls):
    tips = {name: controls.findChild(QSpinBox, name).toolTip()
            for name in ("keysSpin", "samplesSpin", "tokensSpin", "seqLenSpin", "seedSpin",
                         "headsSpin", "kvHeadsSpin")}
    assert "saturation" in tips["keysSpin"]
    assert "diagram" in tips["tokensSpin"] and "n × n" in tips["tokensSpin"]
    assert "cost" in tips["seqLenSpin"] and "KV cache" in tips["seqLenSpin"]
    assert "MQA" in tips["kvHeadsSpin"] and "GQA" in tips["kvHeadsSpin"]
    assert "σ⁴" in controls.sigma_spin.toolTip()
    assert "decoder" in controls.causal_check.toolTip()
    box = controls.scores_box.toolTip()
    for word in ("scores", "keys n", "tokens", "sequence length"):
        assert word in box
    assert find(controls, QComboBox, "modelPresetCombo").toolTip()


# -- cost panel ------------------------------------------------------------------------
def bar_totals(cost):
    return sum(np.asarray(bar.opts["height"], dtype=float) for bar in cost.term_bars.values())


def test_h1_bars_are_identical_and_named_once(window):
    window.state.update_params(heads=1, dk=512, d_model=512)
    settle(window)
    cost = view_in_front(window, "costPlot", idle=True)
    totals = bar_totals(cost)
    assert totals[0] == totals[1] == window.model.results.cost_multi.flops
    for bar in cost.term_bars.values():
        heights = np.asarray(bar.opts["height"])
        assert heights[0] == heights[1]          # W_O too: the single head has it
    assert [label.toPlainText() for label in cost.bar_names].count("") == 1
    r = window.model.results
    assert "1.05M" in cost.memory_text.text and r.cost_single.params == r.cost_multi.params


def test_cost_shows_softmax_share_and_the_labelled_no_w_o_figure(window):
    from gui.common.style import format_count

    window.state.update_params(heads=512, dk=1, d_model=512)
    settle(window)
    cost, r = view_in_front(window, "costPlot", idle=True), window.model.results
    assert f"{r.cost_multi.softmax_share:.1%}" == "29.4%"
    assert "29.4% of the layer" in cost.info.toPlainText()
    no_w_o = r.cost_no_output_projection.flops
    assert np.all(cost.no_w_o_line.yData == no_w_o) and no_w_o < r.cost_single.flops
    assert f"without W_O: {format_count(no_w_o)}" in cost.info.toPlainText()
    assert "1&nbsp;head&nbsp;without&nbsp;W_O" in cost.title.text   # the legend is in the title


def test_llama_2_70b_params_and_kv_cache_on_screen(window):
    choose_preset(window, "llama-2-70b")
    cost, r = view_in_front(window, "costPlot", idle=True), window.model.results
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
    from gui.panels.cost_plot import format_bytes

    assert format_bytes(327680) == "320 KiB"
    assert format_bytes(2**20) == "1 MiB"
    assert format_bytes(1.5 * 2**30) == "1.5 GiB"
    assert format_bytes(512) == "512 B"


# -- variance, softmax and saturation panels --------------------------------------------
def test_rademacher_small_dk_draws_exact_pmf_stems_not_a_normal_curve(window):
    window.state.update_params(distribution="rademacher", dk=4, heads=128)
    settle(window)
    v, r = window.panels["variancePlot"], window.model.results.variance
    assert r.theory_kind == "exact pmf"
    assert not v.theory["raw"].isVisible() and v.stems["raw"].isVisible()
    xs, ys = v.stems["raw"].getData()
    np.testing.assert_allclose(xs[1::2], [-4, -2, 0, 2, 4])
    width = r.hist_unscaled.edges[1] - r.hist_unscaled.edges[0]
    np.testing.assert_allclose(ys[1::2], np.array([1, 4, 6, 4, 1]) / 16 / width)
    assert np.all(ys[0::2] == 0)
    # each stem top is what its histogram bin holds in expectation (within sampling error)
    centres = (r.hist_unscaled.edges[:-1] + r.hist_unscaled.edges[1:]) / 2
    for x, top in zip(xs[1::2], ys[1::2]):
        assert r.hist_unscaled.density[np.argmin(abs(centres - x))] == pytest.approx(top, rel=0.05)
    assert "exact pmf" in v.stats_scaled.toPlainText()
    window.state.update_params(distribution="normal")
    settle(window)
    assert v.theory["raw"].isVisible() and v.stems["raw"].getData()[0].size == 0
    assert not v.stems["raw"].isVisible() and not v.stem_tops["raw"].isVisible()


def test_dk_1_normal_prints_no_finite_peak_and_fits_the_histogram(window):
    window.state.update_params(dk=1, heads=512)
    settle(window)
    v, r = window.panels["variancePlot"], window.model.results.variance
    assert not r.theory_bounded
    assert "∞" in v.stats_raw.toPlainText()
    from gui.panels.variance_plot import RAW_HEADROOM, density_top, nice_ceiling, text_headroom

    h = r.hist_unscaled
    half, top, text_px = v._ranges["raw"]
    headroom = text_headroom(text_px, v.plot_raw.vb.height(), RAW_HEADROOM)
    edge = float(h.edges[-1])
    assert half == nice_ceiling(edge)
    # fitted to the histogram, not to the finite grid value of a diverging density
    assert top == pytest.approx(density_top(edge, half, float(h.density.max()), headroom))
    assert h.theory_density.max() > h.density.max()
    window.state.update_params(dk=2, heads=256)
    settle(window)
    assert "∞" not in v.stats_raw.toPlainText()


def test_variance_band_has_a_legend_and_texts_follow_sigma(make_panel):
    v = make_panel(names.VARIANCE, Params(live_scores=True, sigma=2.0))
    assert "±2σ²&nbsp;band" in v.title.text and v.theme.scaled in v.title.text
    assert "d_k·σ⁴ = 64·2⁴ = 1\u2009024" in v.stats_raw.toPlainText()
    assert "σ⁴ = 2⁴ = 16.00" in v.stats_scaled.toPlainText()


def test_softmax_axis_is_a_probability_and_entropy_carries_its_unit(make_panel):
    panel = make_panel(names.SOFTMAX)
    left = panel.plot.getAxis("left")
    assert left.labelText == "probability"
    assert max(v for v, _ in left._tickLevels[0]) == 1.0
    assert panel.plot.viewRange()[1][1] <= 1.6 + 1e-9     # was 1.75
    assert all("nats" in label.text for _s, label in panel.legend.items)
    saturation = make_panel(names.SATURATION)
    assert "(nats)" in saturation.names["entropy"].text    # each plot is named above it


def test_saturation_title_gives_the_real_trial_count(window):
    window.state.update_params(distribution="uniform")
    settle(window)
    sat = window.model.results.saturation
    title = window.panels["saturationPlot"].title.text
    assert int(sat.trials_per_dk[-1]) == 16
    assert "then fewer: 16 at d_k = 16384" in title
    assert "128 queries per d_k up to d_k = 128" in title
    window.state.update_params(distribution="normal")
    settle(window)
    assert "128 queries per d_k)" in window.panels["saturationPlot"].title.text


# -- lessons ---------------------------------------------------------------------------
def lesson_text(window, step):
    """The text of lesson step `step` (an index or a step key)."""
    if isinstance(step, str):
        from gui.lessons.steps import STEPS

        step = [s.key for s in STEPS].index(step)
    window.lesson.go_to(step)
    settle(window)
    window.lesson.refresh_text()
    return window.lesson.text()


def test_lesson_step_2_turns_live_scores_on(window, english):
    text = lesson_text(window, 1)
    p, sm = window.model.params, window.model.results.softmax
    assert p.live_scores and sm.source == "live"
    assert f"live q·k at d_k = {p.dk}" in text


def test_lesson_step_3_quotes_intervals_and_the_q_k_path(window, english):
    from gui.common.style import format_number

    text = lesson_text(window, 2)
    sat = window.model.results.saturation
    q = sat.quartiles("jacobian_norm", False)
    i = list(sat.dk_grid).index(1024)
    assert f"{format_number(q.median[i])} (95 %: {format_number(q.median_lo[i])} … " \
           f"{format_number(q.median_hi[i])})" in text
    assert "Q/K path" in text and "V still gets gradient" in text
    assert f"over {int(sat.trials_per_dk[i])} random queries" in text


def test_lesson_gradients_step_divides_by_t_alone_for_its_unscaled_run(window, english):
    """The step runs unscaled: w.r.t. the raw q·k the norm is ‖J‖/T, not ‖J‖/(T·√d_k), and
    the value shown is the engine's (at d_k = 1024 the old divisor was 32 times too big)."""
    from gui.common.style import format_number

    text = lesson_text(window, "gradients")
    r = window.model.results
    assert not r.params.scale and r.params.dk == 1024
    sat = r.saturation
    i = list(sat.dk_grid).index(1024)
    wrt_qk = float(sat.jacobian_wrt_raw_scores(False).median[i])
    assert wrt_qk == pytest.approx(float(sat.quartiles("jacobian_norm", False).median[i])
                                   / r.params.temperature)
    assert f"‖J‖/T = {format_number(wrt_qk)} at d_k = 1024" in text
    assert "T·√d_k" not in text
    window.switch_language("ja")
    try:
        window.lesson.refresh_text()
        text = window.lesson.text()
        assert f"‖J‖/T = {format_number(wrt_qk)}(d_k = 1024" in text and "T·√d_k" not in text
    finally:
        window.switch_language("en")
    # The engine's one-query report agrees: unscaled, the raw-score norm is ‖J‖/T.
    s = r.softmax
    assert s.jacobian_norm_raw_unscaled == pytest.approx(s.jacobian_norm_unscaled
                                                         / r.params.temperature)


def test_lesson_texts_follow_sigma_and_the_footnote(window, english):
    window.lesson.go_to(0)
    window.state.update_params(sigma=2.0)
    settle(window)
    window.lesson.refresh_text()
    text = window.lesson.text()
    assert "σ² = 4.00" in text and "σ⁴ = 16.00" in text and "variance 1." not in text
    assert "assumption at initialisation" in lesson_text(window, 3)
    assert "itself included" in lesson_text(window, 4)


def test_lesson_cost_step_is_written_from_the_numbers(window, english):
    text = lesson_text(window, "cost")
    assert "The cost stays the same" not in window.lesson.title_label.text()
    r = window.model.results
    assert f"{r.cost_multi.softmax_share:.1%} of the layer at h = 8" in text
    window.state.update_params(heads=512, dk=1, d_model=512)
    settle(window)
    window.lesson.refresh_text()
    assert "29.4% of the layer at h = 512" in window.lesson.text()


def test_lesson_layers_step_counts_encoder_decoder_and_cross(window, english):
    text = lesson_text(window, "layers")
    assert "Transformer base: 6 encoder + 6 decoder + 6 cross = 18 attention layers × 8 heads = 144" in text
    assert "× 16 heads = 288" in text
    assert window.area.highlighted != "costPlot"


def test_lesson_mistake_step_shows_the_flat_maps_and_explains_the_variance(window, english):
    from gui.common.style import format_number

    text = lesson_text(window, "mistake")
    r = window.model.results
    assert r.params.scale_by == "d_model"
    assert r.multihead.divisor == pytest.approx(np.sqrt(512))
    assert window.findChild(QCheckBox, "scaleByDModelCheck").isChecked()
    from engine.multihead import divisor_comparison

    mh = r.multihead
    c = divisor_comparison(mh.q, mh.k, 512, 1.0, x=mh.x)
    assert format_number(c["score_variance_dk"]) in text
    assert f"expected values are {format_number(c['score_variance_expected_d_model'])} and " \
           f"{format_number(c['score_variance_expected_dk'])}" in text


# -- head roles: script and language ------------------------------------------------------
def test_typed_japanese_is_tokenised_as_japanese(window, qtbot):
    from PySide6.QtWidgets import QLineEdit

    panel = window.head_roles_tab
    edit = panel.findChild(QLineEdit, "sentenceEdit")
    edit.setText("本を読んだ。本は重い。")
    assert window.state.heads_input.token_mode == "ja_words"
    assert panel.wait_idle()
    qtbot.waitUntil(lambda: [t.text for t in panel.view.tokens][:2] == ["本", "を"])
    edit.setText("The book is heavy.")
    assert window.state.heads_input.token_mode == "en"
    # a sentence set elsewhere (the Real heads tab shares it): the mode follows after the event
    window.state.update_heads_input(sentence="猫が寝た。")
    qtbot.waitUntil(lambda: window.state.heads_input.token_mode == "ja_words")
    combo = panel.findChild(QComboBox, "tokenModeCombo")
    assert combo.currentData() == "ja_words"
    # a mode chosen for the same text is the user's choice and stays
    combo.setCurrentIndex(combo.findData("ja_chars"))
    qtbot.wait(20)
    assert window.state.heads_input.token_mode == "ja_chars"


def test_default_sentence_follows_the_language_and_an_edited_one_stays(window, english):
    from gui.state.app_state import DEFAULT_SENTENCES

    heads = window.state
    assert heads.heads_input.sentence == DEFAULT_SENTENCES["en"]
    try:
        window.switch_language("ja")
        assert heads.heads_input.sentence == DEFAULT_SENTENCES["ja"]
        assert heads.heads_input.token_mode == "ja_words"
        window.switch_language("en")
        assert heads.heads_input.sentence == DEFAULT_SENTENCES["en"]
        assert heads.heads_input.token_mode == "en"
        heads.update_heads_input(sentence="Mary gave John a book.")
        window.switch_language("ja")
        assert heads.heads_input.sentence == "Mary gave John a book."
        assert heads.heads_input.token_mode == "en"
    finally:
        window.switch_language("en")


def test_the_entropy_line_is_painted_after_each_new_sentence(window, qtbot):
    """A device cache kept painting an old (empty) text of the wrapped entropy line, which
    was set while the tab was hidden."""
    panel = window.head_roles_tab
    view = panel.view

    def dark_pixels_of(label) -> int:
        image = view.grab().toImage()
        rect = view.mapFromScene(label.sceneBoundingRect()).boundingRect()
        return sum(image.pixelColor(x, y).lightness() < 100
                   for y in range(max(0, rect.top()), min(image.height(), rect.bottom()))
                   for x in range(max(0, rect.left()), min(image.width(), rect.right())))

    for sentence in ("Mary gave John a book.", "The book was red, and she liked it."):
        window.area.bring_forward(names.SOFTMAX)                # the head roles hidden
        window.state.update_heads_input(sentence=sentence)
        assert panel.wait_idle()
        qtbot.wait(20)
        window.area.bring_forward(names.HEADS_PANEL)
        n = len(sentence.split()) + 1 + sentence.count(",")
        qtbot.waitUntil(lambda: len(view.tokens) == n)
        qtbot.wait(20)
        assert "entropy of the average" in view.entropy_text
        assert dark_pixels_of(view.info_label) > 200


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lesson_texts_are_computed_from_results_in_both_languages(window, lang):
    """Every number a step quotes is read from the Results on screen, in either language:
    each placeholder of the step's template is filled, and the key numbers are the engine's."""
    import string

    from engine.multihead import divisor_comparison
    from gui.lessons.steps import STEPS, step_text
    from gui.common.style import format_number

    def expected(key, r):
        v, s, sat, p = r.variance, r.softmax, r.saturation, r.params
        if key == "grow":
            return [format_number(v.empirical_unscaled), format_number(v.theory_unscaled),
                    format_number(v.stderr_unscaled), format_number(v.sigma ** 4)]
        if key == "saturate":
            return [format_number(s.max_prob_unscaled), format_number(s.max_prob_scaled)]
        if key == "gradients":
            i = list(sat.dk_grid).index(p.dk)
            q = sat.quartiles("jacobian_norm", False)
            return [format_number(float(q.median[i])), str(int(sat.trials_per_dk[i]))]
        if key == "fix":
            q = sat.quartiles("jacobian_norm", False)
            return [format_number(float(q.median[-1])),
                    format_number(float(sat.quartiles("jacobian_norm", True).median.max()))]
        if key == "split":
            return [str(p.d_model), str(p.heads), str(p.dk)]
        if key == "cost":
            return [f"{r.cost_multi.softmax_share:.1%}", f"{r.cost_single.softmax_share:.1%}"]
        if key == "layers":
            return ["144", "288", "5,120"]
        if key == "mistake":
            mh = r.multihead
            c = divisor_comparison(mh.q, mh.k, p.d_model, p.temperature, x=mh.x)
            return [format_number(c["score_variance_dk"]), format_number(c["score_variance_d_model"])]
        return []

    import json
    from pathlib import Path

    english = {step.key: step_text(step.key)[1] for step in STEPS}
    pending = {}       # translations waiting for the lead's merge into the .ts
    for path in sorted((Path(__file__).parents[3] / "resources" / "i18n").glob("pending_*.json")):
        pending.update(json.loads(path.read_text(encoding="utf-8")))
    window.switch_language(lang)
    try:
        for i, step in enumerate(STEPS):
            window.lesson.go_to(i)
            settle(window)
            window.lesson.refresh_text()
            text = window.lesson.text()
            title, body = step_text(step.key)
            assert "{" not in text and "}" not in text, step.key
            fields = {f for _, f, _, _ in string.Formatter().parse(body) if f}
            assert fields, step.key
            for number in expected(step.key, window.model.results):
                assert number in text, (lang, step.key, number)
            if lang == "ja" and not any("\u3040" <= ch <= "\u30ff" for ch in text):   # no kana
                assert english[step.key] in pending, f"{step.key} is not translated"
    finally:
        window.switch_language("en")


def test_lesson_mistake_step_says_what_the_view_divides_by_now(window, english):
    text = lesson_text(window, "mistake")
    assert "toggle is on: the multi-head view divides by √d_model = 22.63" in text
    window.findChild(QCheckBox, "scaleByDModelCheck").setChecked(False)
    settle(window)
    window.lesson.refresh_text()
    text = window.lesson.text()
    assert window.model.results.multihead.divisor == pytest.approx(8.0)
    assert "toggle is off: the multi-head view divides by √d_k = 8.00, as it should" in text
    assert "instead of √d_k" not in text
    window.state.update_params(scale=False)
    settle(window)
    window.lesson.refresh_text()
    assert "does not scale its scores at all" in window.lesson.text()


def test_lesson_split_step_follows_kv_heads(window, english):
    text = lesson_text(window, "split")
    assert "its own 512 × 64 blocks of W_Q, W_K and W_V into its own Q, K and V (6 × 64)" in text
    for kv, words in ((2, "K and V come from 2 K/V heads, each shared by 4 query heads"),
                      (1, "all 8 heads share one K and one V (multi-query attention)")):
        window.findChild(QSpinBox, "kvHeadsSpin").setValue(kv)
        settle(window)
        window.lesson.refresh_text()
        text = window.lesson.text()
        assert words in text and "its own Q, K and V" not in text
        assert "its own 512 × 64 block of W_Q" in text


def test_split_step_and_about_box_say_every_head_reads_all_of_x(window):
    """Multi-head attention does not split d_model (or X) into pieces: every head projects all
    of X with its own d_model × d_k blocks; only the width budget d_model = h·d_k is divided."""
    from gui.window.help import about_text

    for lang, whole_x, budget in (
            ("en", "every head reads all of X (6 × 512)", "d_model = h·d_k = 8 × 64 = 512"),
            ("ja", "どのヘッドも X 全体 (6 × 512) を読みます", "d_model = h·d_k = 8 × 64 = 512")):
        window.switch_language(lang)
        try:
            text = lesson_text(window, "split")
            p = window.model.params
            assert (p.d_model, p.heads, p.dk, p.tokens) == (512, 8, 64, 6)
            assert whole_x in text and budget in text, lang
            assert "is split into h" not in text and "ヘッドに分割します" not in text
            about = about_text()
            assert "d_model = h·d_k" in about and "W_Q" in about, lang
            assert "splits d_model" not in about and "d_model を h 個のヘッドに分割" not in about
        finally:
            window.switch_language("en")
