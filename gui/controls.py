"""The control panel: every widget writes to the model; the model writes back.

Flow: a widget changes → the matching handler builds the new field values →
model.update(...) → model.params_changed → sync_from(params) sets every widget
with its signals blocked. Widgets never talk to each other directly.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QSlider, QSpinBox,
                               QVBoxLayout, QWidget)
from superqt.utils import qdebounced, signals_blocked

from engine import Params, ParamsError, random_scores
from engine.params import (D_MODEL_MAX, DK_MAX, KEYS_MAX, KEYS_MIN, SAMPLES_MAX, SAMPLES_MIN,
                           SCORES_MAX, SEED_MAX, SEQ_LEN_MAX, SIGMA_MAX, SIGMA_MIN, TEMPERATURE_MAX,
                           TEMPERATURE_MIN, TOKENS_MAX, TOKENS_MIN)
from engine.presets import MODEL_PRESETS
from engine.scores import format_scores, parse_scores

from .shape_rules import Shape, allowed_heads, change_d_model, change_dk, change_heads, nearest
from .i18n import tr

DK_SLIDER_STEPS_PER_OCTAVE = 8
SCORE_SLIDER_SCALE = 10        # slider units per score unit (0.1 steps)
SCORE_SLIDER_RANGE = 100       # ± score range the sliders cover
SEED_MAX_WIDGET = SEED_MAX     # 2³¹ − 1, the engine's own range: QSpinBox holds a signed 32-bit int


@contextmanager
def all_signals_blocked(widgets):
    """signals_blocked for many widgets at once (one context, not one per widget: sync_from
    runs on every change)."""
    previous = [widget.blockSignals(True) for widget in widgets]
    try:
        yield
    finally:
        for widget, was_blocked in zip(widgets, previous):
            widget.blockSignals(was_blocked)


def dk_to_slider(dk: int) -> int:
    return round(math.log2(dk) * DK_SLIDER_STEPS_PER_OCTAVE)


def slider_to_dk(position: int) -> int:
    return max(1, min(DK_MAX, round(2 ** (position / DK_SLIDER_STEPS_PER_OCTAVE))))


def score_to_slider(score: float) -> int:
    """Slider position of a score, pinned to the slider's ends for scores beyond ±100."""
    limit = SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE
    return int(max(-limit, min(limit, round(score * SCORE_SLIDER_SCALE))))


def set_spin(spin, value) -> None:
    """setValue only on a change: Qt repaints a spin box on every setValue, even to the
    value it shows, and sync_from runs after every change of any control."""
    if spin.value() != value:
        spin.setValue(value)


class HeadsSpinBox(QSpinBox):
    """A spin box that steps through, and snaps typed values to, the allowed h."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._allowed = [1]

    def set_allowed(self, values: list[int]) -> None:
        self._allowed = values
        self.setRange(values[0], values[-1])

    def stepBy(self, steps: int) -> None:
        values = self._allowed
        i = values.index(nearest(values, self.value()))
        self.setValue(values[max(0, min(len(values) - 1, i + steps))])

    def validate(self, text: str, pos: int):
        from PySide6.QtGui import QValidator

        state, text, pos = super().validate(text, pos)
        if state == QValidator.State.Acceptable and int(text) not in self._allowed:
            state = QValidator.State.Intermediate
        return state, text, pos

    def fixup(self, text: str) -> str:
        try:
            return str(nearest(self._allowed, int(text)))
        except ValueError:
            return str(self.value())


class ControlPanel(QWidget):
    """Left-hand controls. `note` carries short messages for the status bar."""

    note = Signal(str)

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self.setObjectName("controlPanel")
        self.model = model
        self._sample_presses = 0
        self._build()
        self.retranslate()
        self.sync_from(model.params)
        model.params_changed.connect(self.sync_from)

    # -- construction ----------------------------------------------------------
    def _spin(self, name, low, high, cls=QSpinBox):
        spin = cls()
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setKeyboardTracking(False)
        return spin

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.shape_box = QGroupBox()
        form = QFormLayout(self.shape_box)
        self.dk_slider = QSlider(Qt.Orientation.Horizontal, objectName="dkSlider")
        self.dk_slider.setRange(0, dk_to_slider(DK_MAX))
        self.dk_spin = self._spin("dkSpin", 1, DK_MAX)
        self.heads_slider = QSlider(Qt.Orientation.Horizontal, objectName="headsSlider")
        self.heads_spin = HeadsSpinBox()
        self.heads_spin.setObjectName("headsSpin")
        self.heads_spin.setKeyboardTracking(False)
        self.d_model_spin = self._spin("dModelSpin", 1, D_MODEL_MAX)
        self.lock_check = QCheckBox(objectName="lockDModelCheck")
        self.lock_check.setChecked(True)
        self.model_preset = QComboBox(objectName="modelPresetCombo")
        self.dk_label, self.heads_label, self.d_model_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.dk_label, self._pair(self.dk_slider, self.dk_spin))
        form.addRow(self.heads_label, self._pair(self.heads_slider, self.heads_spin))
        form.addRow(self.d_model_label, self._pair(self.d_model_spin, self.lock_check))
        self.model_preset_label = QLabel()
        form.addRow(self.model_preset_label, self.model_preset)
        layout.addWidget(self.shape_box)

        self.scores_box = QGroupBox()
        scores_layout = QVBoxLayout(self.scores_box)
        self.scores_edit = QLineEdit(objectName="scoresEdit")
        self.scores_error = QLabel(objectName="scoresError")
        self.scores_error.setWordWrap(True)
        self.scores_error.setStyleSheet("color: #C0392B; font-weight: bold;")
        self.scores_error.setVisible(False)
        self.scores_preset = QComboBox(objectName="scoresPreset")
        self.sample_button = QPushButton(objectName="sampleScoresButton")
        slider_row = QHBoxLayout()
        self.score_sliders = []
        for i in range(SCORES_MAX):
            slider = QSlider(Qt.Orientation.Vertical, objectName=f"scoreSlider{i}")
            slider.setRange(-SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE, SCORE_SLIDER_RANGE * SCORE_SLIDER_SCALE)
            slider.setMinimumHeight(70)
            slider.valueChanged.connect(self._on_score_slider)
            slider_row.addWidget(slider)
            self.score_sliders.append(slider)
        scores_layout.addWidget(self.scores_edit)
        scores_layout.addWidget(self.scores_error)
        scores_layout.addLayout(slider_row)
        scores_layout.addWidget(self._pair(self.scores_preset, self.sample_button))
        layout.addWidget(self.scores_box)

        self.other_box = QGroupBox()
        other = QFormLayout(self.other_box)
        self.scale_check = QCheckBox(objectName="scaleCheck")
        self.temperature_spin = self._spin("temperatureSpin", TEMPERATURE_MIN, TEMPERATURE_MAX,
                                           QDoubleSpinBox)
        self.temperature_spin.setDecimals(2)
        self.temperature_spin.setSingleStep(0.1)
        self.keys_spin = self._spin("keysSpin", KEYS_MIN, KEYS_MAX)
        self.samples_spin = self._spin("samplesSpin", SAMPLES_MIN, SAMPLES_MAX)
        self.samples_spin.setSingleStep(1000)
        self.distribution_combo = QComboBox(objectName="distributionCombo")
        self.sigma_spin = self._spin("sigmaSpin", SIGMA_MIN, SIGMA_MAX, QDoubleSpinBox)
        self.sigma_spin.setSingleStep(0.1)
        self.seed_spin = self._spin("seedSpin", 0, SEED_MAX_WIDGET)
        self.tokens_spin = self._spin("tokensSpin", TOKENS_MIN, TOKENS_MAX)
        self.seq_len_spin = self._spin("seqLenSpin", 1, SEQ_LEN_MAX)
        self.causal_check = QCheckBox(objectName="causalCheck")
        self.other_labels = [QLabel() for _ in range(9)]
        for label, widget in zip(self.other_labels, (
                self.scale_check, self.temperature_spin, self.keys_spin, self.samples_spin,
                self.distribution_combo, self.sigma_spin, self.seed_spin, self.tokens_spin,
                self.seq_len_spin)):
            other.addRow(label, widget)
        other.addRow(QLabel(), self.causal_check)
        layout.addWidget(self.other_box)
        layout.addStretch(1)

        self.dk_slider.valueChanged.connect(self._on_dk_slider)
        self.dk_spin.valueChanged.connect(self._on_dk)
        self.heads_slider.valueChanged.connect(self._on_heads_slider)
        self.heads_spin.valueChanged.connect(self._on_heads)
        self.d_model_spin.valueChanged.connect(self._on_d_model)
        self.lock_check.toggled.connect(self._on_lock)
        self.model_preset.activated.connect(self._on_model_preset)
        self.scores_edit.editingFinished.connect(self._apply_scores_text)
        self.scores_edit.textEdited.connect(self._apply_scores_text_later)
        self.scores_preset.activated.connect(self._on_scores_preset)
        self.sample_button.clicked.connect(self._on_sample_scores)
        self.scale_check.toggled.connect(self._on_scale)
        self.temperature_spin.valueChanged.connect(self._on_temperature)
        self.keys_spin.valueChanged.connect(self._on_keys)
        self.samples_spin.valueChanged.connect(self._on_samples)
        self.distribution_combo.activated.connect(self._on_distribution)
        self.sigma_spin.valueChanged.connect(self._on_sigma)
        self.seed_spin.valueChanged.connect(self._on_seed)
        self.tokens_spin.valueChanged.connect(self._on_tokens)
        self.seq_len_spin.valueChanged.connect(self._on_seq_len)
        self.causal_check.toggled.connect(self._on_causal)

    @staticmethod
    def _pair(a: QWidget, b: QWidget) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(a, 1)
        row.addWidget(b)
        return box

    def retranslate(self) -> None:
        self.shape_box.setTitle(tr("Shape"))
        self.dk_label.setText(tr("d_k"))
        self.heads_label.setText(tr("heads h"))
        self.d_model_label.setText(tr("d_model"))
        self.lock_check.setText(tr("lock"))
        self.lock_check.setToolTip(tr("Keep d_model fixed: changing h changes d_k = d_model / h"))
        self.dk_slider.setToolTip(tr("Width of q and k; the slider moves in powers of 2^(1/8)"))
        self.heads_spin.setToolTip(tr("Number of heads; d_model = h · d_k"))
        self.model_preset_label.setText(tr("model"))
        current = self.model_preset.currentIndex()
        with signals_blocked(self.model_preset):
            self.model_preset.clear()
            self.model_preset.addItem(tr("published shapes…"))
            for p in MODEL_PRESETS:
                self.model_preset.addItem(
                    tr("{name}: {d} = {h} × {dk}, {layers} layers").format(
                        name=p.name, d=p.d_model, h=p.heads, dk=p.dk, layers=p.layers))
            self.model_preset.setCurrentIndex(max(current, 0))
        self.scores_box.setTitle(tr("Scores"))
        self.scores_edit.setPlaceholderText(tr("2 to 16 numbers, e.g. 10, 1, 1, 1"))
        self.scores_edit.setToolTip(tr("Scores separated by commas or spaces"))
        current = self.scores_preset.currentIndex()
        with signals_blocked(self.scores_preset):
            self.scores_preset.clear()
            for text, key in ((tr("preset…"), None), ("(10, 1, 1, 1)", "ten"),
                              ("(100, 91, 91, 91)", "hundred"), (tr("uniform"), "uniform"),
                              (tr("one large gap"), "gap"), (tr("random at current d_k"), "random")):
                self.scores_preset.addItem(text, key)
            self.scores_preset.setCurrentIndex(max(current, 0))
        self.sample_button.setText(tr("Sample q·k"))
        self.sample_button.setToolTip(tr("Fill the scores with q·k_j sampled at the current d_k"))
        self.other_box.setTitle(tr("Sampling and softmax"))
        for label, text in zip(self.other_labels, (
                tr("÷√d_k"), tr("temperature T"), tr("keys n"), tr("samples"),
                tr("components"), tr("σ"), tr("seed"), tr("tokens"), tr("sequence (cost)"))):
            label.setText(text)
        self.scale_check.setText(tr("scale scores"))
        self.causal_check.setText(tr("causal mask"))
        current = self.distribution_combo.currentIndex()
        with signals_blocked(self.distribution_combo):
            self.distribution_combo.clear()
            for text, key in ((tr("normal"), "normal"), (tr("uniform"), "uniform"),
                              (tr("±1 (Rademacher)"), "rademacher")):
                self.distribution_combo.addItem(text, key)
            self.distribution_combo.setCurrentIndex(max(current, 0))

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- model → widgets ---------------------------------------------------------
    def shape(self) -> Shape:
        p = self.model.params
        return Shape(p.dk, p.heads, p.d_model, self.lock_check.isChecked())

    @Slot(object)
    def sync_from(self, params: Params) -> None:
        widgets = [self.dk_slider, self.dk_spin, self.heads_slider, self.heads_spin,
                   self.d_model_spin, self.scores_edit, self.scale_check, self.temperature_spin,
                   self.keys_spin, self.samples_spin, self.distribution_combo, self.sigma_spin,
                   self.seed_spin, self.tokens_spin, self.seq_len_spin, self.causal_check,
                   *self.score_sliders]
        with all_signals_blocked(widgets):
            self.dk_slider.setValue(dk_to_slider(params.dk))
            set_spin(self.dk_spin, params.dk)
            allowed = allowed_heads(Shape(params.dk, params.heads, params.d_model,
                                          self.lock_check.isChecked()))
            self.heads_spin.set_allowed(allowed)
            set_spin(self.heads_spin, params.heads)
            self.heads_slider.setRange(0, len(allowed) - 1)
            self.heads_slider.setValue(allowed.index(nearest(allowed, params.heads)))
            set_spin(self.d_model_spin, params.d_model)
            text = format_scores(params.scores)
            if not self.scores_error.isVisible() and self.scores_edit.text() != text:
                self.scores_edit.setText(text)
            for i, slider in enumerate(self.score_sliders):
                slider.setVisible(i < len(params.scores))
                if i < len(params.scores):
                    slider.setValue(score_to_slider(params.scores[i]))
                    tip = f"k{i + 1} = {params.scores[i]:g}"
                    if slider.toolTip() != tip:
                        slider.setToolTip(tip)
            self.scale_check.setChecked(params.scale)
            set_spin(self.temperature_spin, params.temperature)
            set_spin(self.keys_spin, params.keys)
            set_spin(self.samples_spin, params.samples)
            self.distribution_combo.setCurrentIndex(self.distribution_combo.findData(params.distribution))
            set_spin(self.sigma_spin, params.sigma)
            set_spin(self.seed_spin, min(params.seed, SEED_MAX_WIDGET))
            set_spin(self.tokens_spin, params.tokens)
            set_spin(self.seq_len_spin, params.seq_len)
            self.causal_check.setChecked(params.causal)

    # -- widgets → model ---------------------------------------------------------
    def _update(self, **changes) -> bool:
        try:
            self.model.update(**changes)
        except ParamsError as exc:
            self.note.emit(str(exc))
            self.sync_from(self.model.params)
            return False
        return True

    def _apply_shape(self, result) -> None:
        shape, note = result
        if shape.locked != self.lock_check.isChecked():
            with signals_blocked(self.lock_check):
                self.lock_check.setChecked(shape.locked)
        if note is not None:
            self.note.emit(self.describe_note(note))
        self._update(dk=shape.dk, heads=shape.heads, d_model=shape.d_model)

    @staticmethod
    def describe_note(note: tuple) -> str:
        kind, *v = note
        if kind == "unlocked":
            return tr("d_model unlocked: {d} is not a multiple of d_k = {dk}").format(d=v[0], dk=v[1])
        if kind == "heads_lowered":
            return tr("h lowered to {h} so that d_model stays ≤ {m}").format(h=v[0], m=v[1])
        return tr("h = {h} does not divide d_model = {d}; using h = {s}").format(h=v[0], d=v[1], s=v[2])

    @Slot(int)
    def _on_dk_slider(self, position: int) -> None:
        self._on_dk(slider_to_dk(position))

    @Slot(int)
    def _on_dk(self, dk: int) -> None:
        self._apply_shape(change_dk(self.shape(), dk))

    @Slot(int)
    def _on_heads_slider(self, index: int) -> None:
        allowed = allowed_heads(self.shape())
        self._on_heads(allowed[max(0, min(index, len(allowed) - 1))])

    @Slot(int)
    def _on_heads(self, heads: int) -> None:
        self._apply_shape(change_heads(self.shape(), heads))

    @Slot(int)
    def _on_d_model(self, d_model: int) -> None:
        self._apply_shape(change_d_model(self.shape(), d_model))

    @Slot(bool)
    def _on_lock(self, locked: bool) -> None:
        self.sync_from(self.model.params)

    @Slot(int)
    def _on_model_preset(self, index: int) -> None:
        if index <= 0:
            return
        preset = MODEL_PRESETS[index - 1]
        with signals_blocked(self.lock_check):
            self.lock_check.setChecked(True)
        self._update(dk=preset.dk, heads=preset.heads, d_model=preset.d_model)

    @Slot()
    def _apply_scores_text(self) -> None:
        text = self.scores_edit.text()
        try:
            scores = parse_scores(text)
        except ParamsError as exc:
            self.scores_error.setText(tr("Not applied: {reason}. Showing the last valid scores.")
                                      .format(reason=exc))
            self.scores_error.setVisible(True)
            return
        self.scores_error.setVisible(False)
        if scores != self.model.params.scores:
            self._update(scores=scores)

    @qdebounced(timeout=300)
    def _apply_scores_text_later(self, _text: str = "") -> None:
        self._apply_scores_text()

    @Slot(int)
    def _on_score_slider(self, _value: int) -> None:
        n = len(self.model.params.scores)
        scores = list(self.model.params.scores)
        for i in range(n):
            slider_value = self.score_sliders[i].value() / SCORE_SLIDER_SCALE
            if score_to_slider(scores[i]) != self.score_sliders[i].value():
                scores[i] = slider_value
        self.scores_error.setVisible(False)
        self._update(scores=tuple(scores))

    def preset_scores(self, key: str) -> tuple[float, ...]:
        p = self.model.params
        n = len(p.scores)
        if key == "ten":
            return (10.0, 1.0, 1.0, 1.0)
        if key == "hundred":
            return (100.0, 91.0, 91.0, 91.0)
        if key == "uniform":
            return (1.0,) * n
        if key == "gap":
            return (30.0,) + (0.0,) * (n - 1)
        return random_scores(p.dk, n, p.seed, p.distribution, p.sigma)

    @Slot(int)
    def _on_scores_preset(self, index: int) -> None:
        key = self.scores_preset.itemData(index)
        if key is None:
            return
        self.scores_error.setVisible(False)
        self._update(scores=self.preset_scores(key))

    @Slot()
    def _on_sample_scores(self) -> None:
        p = self.model.params
        self._sample_presses += 1
        self.scores_error.setVisible(False)
        self._update(scores=random_scores(p.dk, len(p.scores), p.seed + self._sample_presses,
                                          p.distribution, p.sigma))

    @Slot(bool)
    def _on_scale(self, on: bool) -> None:
        self._update(scale=on)

    @Slot(float)
    def _on_temperature(self, value: float) -> None:
        self._update(temperature=value)

    @Slot(int)
    def _on_keys(self, value: int) -> None:
        self._update(keys=value)

    @Slot(int)
    def _on_samples(self, value: int) -> None:
        self._update(samples=value)

    @Slot(int)
    def _on_distribution(self, index: int) -> None:
        self._update(distribution=self.distribution_combo.itemData(index))

    @Slot(float)
    def _on_sigma(self, value: float) -> None:
        self._update(sigma=value)

    @Slot(int)
    def _on_seed(self, value: int) -> None:
        self._update(seed=value)

    @Slot(int)
    def _on_tokens(self, value: int) -> None:
        self._update(tokens=value)

    @Slot(int)
    def _on_seq_len(self, value: int) -> None:
        self._update(seq_len=value)

    @Slot(bool)
    def _on_causal(self, on: bool) -> None:
        self._update(causal=on)
