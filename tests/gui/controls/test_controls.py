"""Every control changes what the right panel shows, read back from the plot items."""
import math

import numpy as np
import pytest
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QLabel, QLineEdit, QPushButton,
                               QSlider, QSpinBox, QWidget)

from engine import random_scores
from engine.softmax import softmax
from engine.params import divisors
from engine.scores import format_scores
from gui.controls.scores import shown_scores
from gui.controls.sidebar import dk_to_slider

from gui_helpers import settle, view_in_front


@pytest.fixture
def window(shared_window):
    """The tests of this module share one synchronous window, put back after each
    (conftest.shared_window); a test that needs a window of its own asks for sync_window."""
    return shared_window


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
             QSpinBox: ["dkSpin", "headsSpin", "kvHeadsSpin", "dModelSpin", "seedSpin", "keysSpin", "samplesSpin"],
             QCheckBox: ["lockDModelCheck", "scaleCheck", "causalCheck", "liveScoresCheck",
                         "scaleByDModelCheck"],
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
    edges = v.hist["raw"].edges
    assert edges.max() == pytest.approx(4.5 * 64, rel=0.05)       # ±4.5·√d_k
    assert edges.min() == pytest.approx(-4.5 * 64, rel=0.05)
    outline = v.hist["raw"].path().boundingRect()                  # what is drawn
    assert outline.right() == pytest.approx(edges.max())
    assert outline.bottom() == pytest.approx(v.hist["raw"].density.max())
    assert "d_k = 4096" in v.stats_raw.toPlainText()
    marker = window.panels["saturationPlot"].markers["max_prob"].value()
    assert marker == pytest.approx(math.log10(4096))
    scores = np.asarray(window.model.results.softmax.scores)   # live at first run
    np.testing.assert_allclose(bar_heights(window, True), softmax(scores / 64))
    # Locked at d_model = 512 cannot hold d_k = 4096: the lock opens and says so.
    assert not find(window, QCheckBox, "lockDModelCheck").isChecked()
    p = window.model.params
    assert p.d_model == p.heads * p.dk <= 16384
    assert "unlocked" in window.statusBar().currentMessage()


def test_dk_slider_moves_in_log_steps(window):
    find(window, QCheckBox, "lockDModelCheck").setChecked(False)
    slider = find(window, QSlider, "dkSlider")
    assert slider.maximum() == dk_to_slider(16384)
    slider.setValue(dk_to_slider(256))
    settle(window)
    assert window.model.params.dk == 256
    assert find(window, QSpinBox, "dkSpin").value() == 256
    slider.setValue(dk_to_slider(76))
    settle(window)
    assert window.model.params.dk == 76 and window.model.params.d_model == 8 * 76


def drag(slider, positions):
    """What a mouse drag does: press, move through the positions (tracking on), release."""
    slider.setSliderDown(True)
    for position in positions:
        slider.setSliderPosition(position)
    slider.setSliderDown(False)


def test_locked_dk_drag_offers_only_divisors_and_keeps_the_lock(window):
    """Issue 10: locked, 64 → 1 used to untick the lock and set d_model = 8; 64 → 16 384
    dropped h to 1 and back left h = 1, d_model = 70."""
    slider, lock = find(window, QSlider, "dkSlider"), find(window, QCheckBox, "lockDModelCheck")
    seen = []
    window.state.events.params.connect(seen.append)
    values = divisors(512)
    assert (slider.minimum(), slider.maximum()) == (0, len(values) - 1)
    assert values[slider.value()] == 64
    drag(slider, range(slider.value(), -1, -1))                 # down to the left end
    p = window.model.params
    assert (p.dk, p.heads, p.d_model) == (1, 512, 512)
    drag(slider, range(0, slider.maximum() + 1))                # up to the right end
    p = window.model.params
    assert (p.dk, p.heads, p.d_model) == (512, 1, 512)
    drag(slider, range(slider.maximum(), values.index(64) - 1, -1))   # and back to 64
    p = window.model.params
    assert (p.dk, p.heads, p.d_model) == (64, 8, 512)
    assert [q.dk for q in seen] == [32, 16, 8, 4, 2, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
                                    256, 128, 64]
    assert all(q.d_model == 512 and q.heads * q.dk == 512 for q in seen)
    assert lock.isChecked() and window.state.lock_d_model
    assert "unlocked" not in window.statusBar().currentMessage()
    settle(window)
    assert find(window, QSpinBox, "dkSpin").value() == 64


def test_locked_dk_arrows_step_through_divisors(window):
    spin = find(window, QSpinBox, "dkSpin")
    spin.stepBy(1)
    assert (window.model.params.dk, window.model.params.heads) == (128, 4)
    spin.stepBy(-2)
    assert (window.model.params.dk, window.model.params.heads) == (32, 16)
    find(window, QSpinBox, "dModelSpin").setValue(768)          # the divisors follow d_model
    spin.setValue(64)
    spin.stepBy(1)
    assert window.model.params.dk == 96 and window.model.params.d_model == 768
    assert window.state.lock_d_model
    spin.setValue(100)           # a typed non-divisor is a request: unlocked, and said so
    assert not window.state.lock_d_model and window.model.params.dk == 100
    assert "unlocked" in window.statusBar().currentMessage()
    spin.stepBy(1)               # unlocked: steps of 1
    assert window.model.params.dk == 101


def test_unlocked_dk_drag_gives_back_h_within_the_drag(window):
    find(window, QCheckBox, "lockDModelCheck").setChecked(False)
    find(window, QSpinBox, "kvHeadsSpin").setValue(2)
    slider = find(window, QSlider, "dkSlider")
    start = slider.value()
    drag(slider, list(range(start, slider.maximum() + 1)) + list(range(slider.maximum(),
                                                                        start - 1, -1)))
    p = window.model.params
    assert (p.dk, p.heads, p.d_model, p.kv_heads_used) == (64, 8, 512, 2)
    drag(slider, range(start, slider.maximum() + 1))
    p = window.model.params
    assert (p.dk, p.heads, p.d_model) == (16384, 1, 16384)
    assert "h lowered to 1" in window.statusBar().currentMessage()
    slider.setValue(start)                     # a new change, not the same drag: h stays 1
    assert (window.model.params.dk, window.model.params.heads) == (64, 1)


def test_heads_locked_changes_dk_and_multihead_view(window):
    heads = find(window, QSpinBox, "headsSpin")
    heads.setValue(4)
    settle(window)
    p = window.model.params
    assert (p.heads, p.dk, p.d_model) == (4, 128, 512)
    view = view_in_front(window, "multiheadView", idle=True)
    assert sum(m.isVisible() for m in view.head_maps) == 4
    assert view.head_outputs[0].values.shape == (p.tokens, 128)
    cost = view_in_front(window, "costPlot", idle=True)
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
    np.testing.assert_allclose(bar_heights(window, False),
                               softmax(window.model.results.softmax.scores, 4.0))


def test_scale_check_switches_multihead_scaling(window):
    view = view_in_front(window, "multiheadView", idle=True)
    scaled = np.array(view.head_maps[0].values)
    find(window, QCheckBox, "scaleCheck").setChecked(False)
    settle(window)
    assert "not scaled" in view.note_label.toPlainText()
    assert not np.allclose(view.head_maps[0].values, scaled)


def test_keys_samples_distribution_seed(window):
    v = window.panels["variancePlot"]
    find(window, QSpinBox, "samplesSpin").setValue(5000)
    settle(window)
    assert "5000 samples" in v.stats_scaled.toPlainText()
    before = np.array(v.hist["raw"].density)
    find(window, QSpinBox, "seedSpin").setValue(7)
    settle(window)
    assert not np.array_equal(before, v.hist["raw"].density)
    combo = find(window, QComboBox, "distributionCombo")
    combo.setCurrentIndex(combo.findData("rademacher"))
    combo.activated.emit(combo.currentIndex())
    settle(window)
    assert window.model.params.distribution == "rademacher"
    assert "exact pmf" in v.stats_scaled.toPlainText()         # ±1 at d_k = 64: a lattice
    find(window, QSpinBox, "dkSpin").setValue(256)
    settle(window)
    assert "normal approx." in v.stats_scaled.toPlainText()
    find(window, QSpinBox, "keysSpin").setValue(32)
    settle(window)
    entropy_axis = window.panels["saturationPlot"].plots["entropy"].viewRange()[1]
    assert entropy_axis[1] == pytest.approx(1.05 * math.log(32))


def test_tokens_and_causal_mask(window):
    from gui.panels.multihead_view import SEQUENTIAL

    find(window, QSpinBox, "tokensSpin").setValue(9)
    find(window, QCheckBox, "causalCheck").setChecked(True)
    settle(window)
    head_map = view_in_front(window, "multiheadView", idle=True).head_maps[0]
    weights = np.asarray(head_map.values)
    assert weights.shape == (9, 9)
    assert np.all(np.triu(weights, 1) == 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0)
    pixels = head_map.pixels()  # the masked cells are painted in the colour of 0
    assert pixels.shape == (9, 9)
    assert np.all(pixels[np.triu_indices(9, 1)] == pixels[0, 1])
    assert pixels[0, 0] == SEQUENTIAL[255]  # the first token attends only to itself


def test_seq_len_changes_cost(window):
    cost = view_in_front(window, "costPlot", idle=True)
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
    assert "theory σ⁴ = 2⁴ = 16.00" in window.panels["variancePlot"].stats_scaled.toPlainText()
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
    view = view_in_front(window, "multiheadView", idle=True)
    assert view.x_image.values.shape[1] == 768
    # the shape is in the label when the diagram has room for it, else in the readout
    assert "768" in view.x_label.toPlainText() or view._variant_shown == 2


def test_colour_image_maps_the_value_range_onto_the_lookup_table():
    from gui.panels.multihead_view import DIVERGING, SEQUENTIAL, colour_image

    values = np.array([[-5.0, -1.0, 0.0], [1.0, 5.0, 0.5]])
    words = colour_image(values, DIVERGING, -1.0, 1.0)
    assert words.shape == (2, 3) and words.dtype == np.uint32
    assert words[0, 0] == DIVERGING[0]      # clipped below
    assert words[0, 1] == DIVERGING[0]
    assert words[1, 1] == DIVERGING[255]    # clipped above
    assert words[0, 2] == DIVERGING[128]    # the middle of [-1, 1]
    assert colour_image(np.array([[0.25]]), SEQUENTIAL, 0, 1)[0, 0] == SEQUENTIAL[64]
    assert np.all(DIVERGING >> 24 == 0xFF)  # opaque


def test_matrix_item_stretches_its_pixmap_over_the_rect(qtbot):
    from PySide6.QtCore import QRectF

    from gui.panels.multihead_view import SEQUENTIAL, MatrixItem

    item = MatrixItem()
    values = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])
    item.show_values(values, SEQUENTIAL, 0.0, 1.0, QRectF(10, 20, 60, 40))
    assert item.sceneBoundingRect() == QRectF(10, 20, 60, 40)
    np.testing.assert_array_equal(item.pixels(), colour_image_ref(values))


def colour_image_ref(values):
    from gui.panels.multihead_view import SEQUENTIAL

    return SEQUENTIAL[np.round(values * 255).astype(int)]


def test_density_axis_steps_with_the_x_ladder():
    from gui.panels.variance_plot import density_top, nice_ceiling, nice_step_below

    assert [nice_step_below(v) for v in (1, 2, 5, 10, 0.2, 500)] == pytest.approx(
        [0.5, 1, 2, 5, 0.1, 200])
    # Normal q·k: peak · edge is the same for every d_k, so every d_k whose edge rounds up
    # to the same half gets the same top, and the peak always fits under it.
    tops = {}
    for dk in range(20, 200):
        std = math.sqrt(dk)
        edge, peak = 4.5 * std, 1 / math.sqrt(2 * math.pi * dk)
        half = nice_ceiling(edge)
        top = density_top(edge, half, peak)
        tops.setdefault(half, set()).add(round(top, 12))
        assert 1.25 * peak <= top * (1 + 1e-12) and peak >= top / 3.2
    assert all(len(t) == 1 for t in tops.values())


def test_variance_axes_hold_still_within_a_step_and_fit_the_histogram(window):
    v = window.panels["variancePlot"]
    spin = find(window, QSpinBox, "dkSpin")
    ranges = []
    for dk in (50, 60, 70, 80, 90):  # edges 4.5·√d_k = 32 … 43: all round up to 50
        spin.setValue(dk)
        settle(window)
        (x0, x1), (y0, y1) = v.plot_raw.viewRange()
        assert x1 == pytest.approx(50)
        assert max(np.max(v.hist["raw"].density), np.max(v.theory["raw"].yData)) < y1
        ranges.append(round(y1, 12))
    assert len(set(ranges)) == 1
    spin.setValue(200)      # edge 63.6 → x to 100, y rescaled with it
    settle(window)
    assert v.plot_raw.viewRange()[0][1] == pytest.approx(100)
    assert v.plot_raw.viewRange()[1][1] < ranges[0]


def test_cached_bar_bounds_follow_data_and_view(qtbot):
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from gui.panels.items import Bars

    widget = pg.PlotWidget()
    qtbot.addWidget(widget)
    bars = Bars(x=np.array([0.0, 1.0]), height=np.array([1.0, 2.0]), width=0.5)
    widget.addItem(bars)
    widget.resize(300, 200)
    widget.show()
    qtbot.waitExposed(widget)

    def uncached():
        return pg.BarGraphItem.boundingRect(bars)

    assert bars.boundingRect() == uncached()
    bars.setOpts(height=np.array([3.0, 5.0]))
    assert bars.boundingRect() == uncached() and bars.boundingRect().bottom() >= 5.0
    widget.setXRange(-10, 10, padding=0)   # the pen padding is a pixel in data units
    QApplication.processEvents()
    assert bars.boundingRect() == uncached()


def test_w_o_is_drawn_from_every_other_entry_at_d_model_512(window):
    from gui.panels.multihead_view import DIVERGING, MAX_PIXELS, colour_image

    view = view_in_front(window, "multiheadView", idle=True)
    w_o = window.model.results.multihead.w_o
    assert w_o.shape == (512, 512) and view.w_o_image.values is w_o
    limit = float(np.max(np.abs(w_o)))
    expected = colour_image(w_o[::2, ::2], DIVERGING, -limit, limit)
    assert expected.shape == (MAX_PIXELS, MAX_PIXELS)
    np.testing.assert_array_equal(view.w_o_image.pixels(), expected)
    item = view.w_o_image
    assert item.mapRectToParent(item.boundingRect()) == view.rects["w_o"]  # view coordinates


def test_cost_bar_names_follow_h_and_sit_under_their_bars(window):
    from PySide6.QtCore import QPointF

    cost = view_in_front(window, "costPlot", idle=True)
    find(window, QSpinBox, "headsSpin").setValue(16)
    settle(window)
    names = [label.toPlainText() for label in cost.bar_names]
    assert names == ["1 head", "16 heads", "per head"]
    find(window, QSpinBox, "headsSpin").setValue(1)
    settle(window)
    # h = 1 is the same layer as one full-width head: identical bars, named once
    assert [label.toPlainText() for label in cost.bar_names] == ["1 head = h heads", "",
                                                                 "per head"]
    find(window, QSpinBox, "headsSpin").setValue(16)
    settle(window)
    for label, x in zip(cost.bar_names, (0.0, 1.0, 2.0)):
        bar_x = cost.plot.vb.mapViewToScene(QPointF(x, 0)).x()
        assert label.scenePos().x() == pytest.approx(bar_x, abs=1.0)


def type_into(spin, text):
    """Type `text` into a spin box and press Enter, as a user does."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin, text)
    QTest.keyClick(spin, Qt.Key.Key_Return)


def test_typed_values_that_are_changed_or_refused_say_why(window):
    """Issue 10: h = 7 snapped to 8 and temperature 0 went back to 1, both without a word."""
    status = window.statusBar()
    heads = find(window, QSpinBox, "headsSpin")
    type_into(heads, "7")
    assert heads.value() == 8 == window.model.params.heads
    assert status.currentMessage() == "h = 7 does not divide d_model = 512; using h = 8"
    type_into(find(window, QSpinBox, "kvHeadsSpin"), "3")
    assert window.model.params.kv_heads_used in (2, 4)
    assert status.currentMessage().startswith("K/V heads g = 3 must divide h = 8; using g = ")
    temperature = window.controls.temperature_spin
    type_into(temperature, "0")
    assert temperature.value() == 1.0 == window.model.params.temperature
    message = status.currentMessage()
    assert "T = 0 not applied" in message and "> 0" in message and "kept T = 1.00" in message
    type_into(find(window, QSpinBox, "keysSpin"), "1")
    assert status.currentMessage() == "keys n = 1 not applied: it must be from 2 to 64; kept 8"
    type_into(find(window, QSpinBox, "dkSpin"), "0")
    assert "d_k = 0 not applied: it must be from 1 to 16384" in status.currentMessage()
    assert window.model.params.dk == 64
    status.clearMessage()
    type_into(temperature, "2")                  # a good value: no message
    assert window.model.params.temperature == 2.0 and status.currentMessage() == ""


class SlowCompute:
    def __init__(self, delay):
        self.delay = delay

    def __call__(self, params):
        import time

        from engine import compute

        time.sleep(self.delay)
        return compute(params)


def test_plots_catching_up_is_marked_until_their_result_arrives(qtbot):
    """Issue 10: the spin box showed 128 while the plots still showed d_k = 76."""
    from PySide6.QtWidgets import QApplication

    from gui.controls.marker import CATCH_UP_DELAY_MS
    from gui.controls.sidebar import Sidebar
    from gui.studies.simulation import SimulationModel
    from gui.state import AppState

    slow = SlowCompute(delay=0.6)
    model = SimulationModel(AppState(), slow)
    panel = Sidebar(model.state, model)
    qtbot.addWidget(panel)
    try:
        panel.show()
        marker = panel.findChild(QLabel, "plotsCatchingUp")
        model.request()
        qtbot.waitUntil(lambda: not marker.isHidden(), timeout=2000)   # the first result
        assert marker.text() == "plots catching up…"
        assert model.wait_idle(5000)
        QApplication.processEvents()
        assert marker.isHidden() and not panel.catching_up_marker.plots_behind()
        height = panel.sizeHint().height()
        panel.dk_spin.setValue(128)
        assert marker.isHidden()            # a short lag is not marked
        qtbot.wait(CATCH_UP_DELAY_MS + 100)
        assert not marker.isHidden() and model.busy
        assert marker.text() == "plots catching up: they still show d_k = 64, h = 8"
        assert panel.dk_spin.value() == 128 and model.results.params.dk == 64
        assert panel.sizeHint().height() == height    # its space was kept: nothing moved
        assert model.wait_idle(5000)
        QApplication.processEvents()
        assert model.results.params.dk == 128 and marker.isHidden()
    finally:
        panel.close()
        model.shutdown()


def test_plots_catching_up_stays_hidden_when_they_keep_up(window):
    marker = window.findChild(QLabel, "plotsCatchingUp")
    shown = []
    window.model.results_ready.connect(lambda _r: shown.append(not marker.isHidden()))
    for dk in (128, 256, 32):
        find(window, QSpinBox, "dkSpin").setValue(dk)
        settle(window)
    assert marker.isHidden() and shown and not any(shown)


def test_preset_boxes_follow_the_values_not_the_last_choice(window):
    """Issue 10: the preset and model boxes kept showing a choice after the values left it."""
    from engine.presets import MODEL_PRESETS

    model, scores = find(window, QComboBox, "modelPresetCombo"), find(window, QComboBox, "scoresPreset")
    assert model.currentIndex() == 0 and model.currentText() == "custom shape"  # 1 cached layer
    gpt2 = 1 + [m.slug for m in MODEL_PRESETS].index("gpt-2-small")
    model.setCurrentIndex(gpt2)
    model.activated.emit(gpt2)
    assert model.currentIndex() == gpt2 and "GPT-2 small" in model.currentText()
    find(window, QSpinBox, "headsSpin").setValue(6)               # left the preset
    assert model.currentIndex() == 0 and model.currentText() == "custom shape"
    assert "GPT-2" not in model.toolTip()
    find(window, QSpinBox, "headsSpin").setValue(12)              # back on it
    assert model.currentIndex() == gpt2 and "GPT-2 small" in model.toolTip()
    find(window, QSpinBox, "kvHeadsSpin").setValue(4)             # GQA is not GPT-2's shape
    assert model.currentIndex() == 0

    assert window.model.params.live_scores and scores.currentIndex() == 0
    assert scores.currentText() == "preset…"
    ten = scores.findData("ten")
    scores.setCurrentIndex(ten)
    scores.activated.emit(ten)
    assert scores.currentData() == "ten" and window.model.params.scores == (10.0, 1.0, 1.0, 1.0)
    find(window, QSlider, "scoreSlider0").setValue(55)            # 5.5: left the preset
    assert window.model.params.scores[0] == 5.5
    assert scores.currentIndex() == 0 and scores.currentText() == "custom scores"
    edit = find(window, QLineEdit, "scoresEdit")
    edit.setText("1, 1, 1, 1")                                    # typed: equals "uniform"
    edit.editingFinished.emit()
    assert scores.currentData() == "uniform"
    find(window, QCheckBox, "liveScoresCheck").setChecked(True)
    assert scores.currentIndex() == 0 and scores.currentText() == "preset…"


def test_the_preset_boxes_keep_their_choice_across_a_language_switch(window):
    from engine.presets import MODEL_PRESETS

    model = find(window, QComboBox, "modelPresetCombo")
    index = 1 + [m.slug for m in MODEL_PRESETS].index("llama-2-70b")
    model.setCurrentIndex(index)
    model.activated.emit(index)
    english = model.itemText(index)
    try:
        window.switch_language("ja")
        assert model.currentIndex() == index and model.count() == 1 + len(MODEL_PRESETS)
        assert model.itemText(index) != english                   # refilled, translated
    finally:
        window.switch_language("en")
    assert model.currentIndex() == index


def test_scores_error_follows_the_scores_shown_or_hidden(window):
    """Issue 10: scoresError kept a stale message after the scores changed while the controls
    were hidden. The message lasts as long as the field holds the refused text."""
    edit, error = find(window, QLineEdit, "scoresEdit"), find(window, QLabel, "scoresError")
    controls = window.controls

    def refuse(text):
        edit.setText(text)
        edit.editingFinished.emit()
        assert "Not applied" in controls.scores_box.scores_error_text and not error.isHidden()

    find(window, QCheckBox, "liveScoresCheck").setChecked(False)
    refuse("1, x")
    find(window, QDoubleSpinBox, "temperatureSpin").setValue(2.0)   # scores unchanged: kept
    assert "'x'" in controls.scores_box.scores_error_text and edit.text() == "1, x"
    window.set_controls_visible(False)
    window.state.update_params(scores=(3.0, 1.0))                   # a lesson step, a session
    assert controls.scores_box.scores_error_text == "" and error.isHidden()
    window.set_controls_visible(True)
    assert error.isHidden() and edit.text() == "3, 1"
    # live scores: a new d_k gives new scores, so the message about the old text goes
    find(window, QCheckBox, "liveScoresCheck").setChecked(True)
    refuse("nan, 1")
    window.set_controls_visible(False)
    find(window, QSpinBox, "dkSpin").setValue(128)
    window.set_controls_visible(True)
    assert controls.scores_box.scores_error_text == "" and error.isHidden()
    assert edit.text() == format_scores(shown_scores(window.model.params))
    refuse("1,,2")                                  # and a good text clears it at once
    edit.setText("2, 1")
    edit.editingFinished.emit()
    assert controls.scores_box.scores_error_text == "" and error.isHidden()


def test_every_control_and_its_label_has_a_tooltip(controls):
    """Issue 10: keys n, samples, tokens, sequence length, σ, seed, causal mask, h and the
    model box had no tooltip, and the four lengths were never told apart."""
    from PySide6.QtWidgets import QAbstractSpinBox, QFormLayout

    widgets = [w for cls in (QAbstractSpinBox, QSlider, QCheckBox, QComboBox, QLineEdit,
                             QPushButton) for w in controls.findChildren(cls)
               if not isinstance(w.parent(), QAbstractSpinBox)   # a spin box's own line edit
               and w.isVisibleTo(controls)]
    missing = [w.objectName() or type(w).__name__ for w in widgets if not w.toolTip()]
    assert not missing, missing
    for form in controls.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            label = item.widget() if item is not None else None
            if isinstance(label, QLabel) and label.text():
                assert label.toolTip(), label.text()
    for name in ("keysSpin", "tokensSpin", "seqLenSpin", "scoresEdit"):
        tip = controls.findChild(QWidget, name).toolTip()
        for length in ("2 to 16 scores", "keys n", "tokens", "sequence length"):
            assert length in tip, (name, length)
    assert controls.field_labels["keys"].toolTip() == controls.keys_spin.toolTip()
    assert "divisors of d_model" in controls.dk_slider.toolTip()
    assert controls.model_preset_label.toolTip() == controls.model_preset.toolTip()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_controls_fit_their_capped_column_at_300_percent_on_1280x720(window, lang):
    """At 300 % on 1280×720 the controls' column is capped at 40 % of the window, and the
    "÷√d_model (the mistake)" check box once made it scroll sideways. A check box's text goes
    onto two lines where one does not fit, and back onto one at 100 %."""
    from PySide6.QtWidgets import QApplication

    def show(width, height, scale):
        window.set_ui_scale(scale)
        window.resize(width, height)
        for _ in range(4):
            QApplication.processEvents()
        assert window.model.wait_idle()
        QApplication.processEvents()

    check = window.controls.scale_by_check
    window.switch_language(lang)
    try:
        whole = check.text()
        assert "\n" not in whole
        show(1280, 720, 3.0)
        scroll = window.area.control_scroll
        assert scroll.width() <= int(window.width() * window.CONTROLS_MAX_SHARE) + 1
        assert scroll.horizontalScrollBar().maximum() == 0
        assert window.controls.minimumSizeHint().width() <= scroll.viewport().width()
        # Wrapped or not (Japanese may fit on one line, depending on the column's width),
        # the check box fits its column and says the whole text.
        assert check.sizeHint().width() <= scroll.viewport().width()
        assert check.text().replace("\n", "").replace(" ", "") == whole.replace(" ", "")
        show(1600, 1000, 1.0)
        assert check.text() == whole
    finally:
        window.set_ui_scale(1.0)
        window.switch_language("en")


def test_the_controls_follow_the_state_itself(controls):
    """The sidebar listens to AppState's events.params, not to the simulation study: a change
    the study does not hear (disconnected here) still reaches the controls."""
    state, model = controls.state, controls.model
    state.events.params.disconnect(model._on_params)
    state.update_params(dk=32, heads=16)
    assert controls.dk_spin.value() == 32 and controls.heads_spin.value() == 16


def test_a_failing_control_breaks_no_intent(controls, monkeypatch, guard_reports):
    """AppState's events call the controls synchronously inside the intent: a control that
    raises is reported (gui.common.guard.listener), and the intent, the listeners after it
    and the simulation's request go through."""
    from gui.common.guard import errors

    def broken(_params):
        raise ValueError("the scores box broke on seed 9")

    reported = []
    errors.reported.connect(reported.append)
    monkeypatch.setattr(controls.scores_box, "sync_from", broken)
    heard = []
    controls.state.events.params.connect(heard.append)      # a listener after the sidebar
    try:
        controls.state.update_params(seed=9)
    finally:
        errors.reported.disconnect(reported.append)
    assert [p.seed for p in heard] == [9]
    assert any("Sidebar.sync_from" in m and "seed 9" in m for m in reported)
    assert controls.model.wait_idle()
    assert controls.model.results.params.seed == 9
    assert all("seed 9" in m for m in guard_reports.expect(1))
    errors.seen.clear()


def test_a_change_of_h_asks_the_control_panel_for_no_new_layout(window):
    """The K/V heads box allows the divisors of h, but its range stays put: a new range
    asked the whole control panel to be laid out again on every change of h."""
    from PySide6.QtCore import QEvent, QObject

    class LayoutRequests(QObject):
        count = 0

        def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
            if event.type() == QEvent.Type.LayoutRequest:
                self.count += 1
            return False

    settle(window)
    panel = window.findChild(QWidget, "controlPanel")
    heads = window.findChild(QSpinBox, "headsSpin")
    kv_heads = window.findChild(QSpinBox, "kvHeadsSpin")
    requests = LayoutRequests()
    panel.installEventFilter(requests)
    try:
        for h in (16, 4, 8):
            heads.setValue(h)
            settle(window)
            assert kv_heads.allowed == divisors(h) and kv_heads.value() in divisors(h)
        assert requests.count == 0
    finally:
        panel.removeEventFilter(requests)


def test_typed_scores_are_applied_once_when_the_keys_pause(window, qtbot):
    """Typing in the scores field applies the scores TYPING_PAUSE_MS after the last key, once
    (every key restarts the wait), not on each key."""
    from gui.controls.scores import TYPING_PAUSE_MS

    settle(window)
    edit = window.findChild(QLineEdit, "scoresEdit")
    applied = []
    window.state.events.params.connect(applied.append)
    try:
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClicks(edit, "3, 1, 2")
        assert applied == []
        qtbot.waitUntil(lambda: window.state.params.scores == (3.0, 1.0, 2.0),
                        timeout=TYPING_PAUSE_MS + 5000)
        assert len(applied) == 1 and not window.state.params.live_scores
    finally:
        window.state.events.params.disconnect(applied.append)
