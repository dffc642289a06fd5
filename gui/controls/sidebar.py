"""The control panel: every widget sends an intent to AppState; AppState's events re-render.

Flow: a widget changes → its handler builds the new field values →
state.update_params(...) → events.params → sync_from(params) sets every widget
with its signals blocked. Widgets never talk to each other, and nothing reads a
setting back out of a widget: the d_model lock is AppState.lock_d_model.

The plain controls (one Params field, one widget) are rows of FIELD_CONTROLS and
share one slot (gui/controls/fields.py); the shape (d_k, h, d_model, lock, preset)
has rules of its own, and the scores are a widget of their own (ScoresBox,
gui/controls/scores.py) that sends its intents through the panel's `_update` and that
sync_from re-renders. Locked, the d_k slider and arrows offer only the divisors of
d_model, so a drag never breaks the lock. A typed value that is snapped or refused says
why in the status bar (gui/controls/spins.py). The preset boxes show the preset the
Params match, or "custom" (gui/controls/presets.py).
"""
from __future__ import annotations

import dataclasses

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QLabel, QSlider, QVBoxLayout, QWidget)

from engine import Params, ParamsError
from engine.params import D_MODEL_MAX, DK_MAX, divisors
from engine.presets import MODEL_PRESETS

from gui.common.i18n import tr
from gui.common.qt_util import all_signals_blocked, signals_blocked
from gui.controls.shape_rules import (Shape, allowed_heads, change_d_model, change_dk, change_heads,
                          kv_heads_for, nearest)
from gui.controls.fields import FIELD_CONTROLS, FieldControl, dk_to_slider, slider_to_dk
from gui.controls.marker import CatchingUpMarker
from gui.controls.presets import model_preset_index
from gui.controls.spins import (ExplainedDoubleSpinBox, ExplainedSpinBox, HeadsSpinBox, StepSpinBox,
                            set_spin)
from gui.controls.scores import ScoresBox
from gui.controls.texts import preset_tooltip, retranslate_controls, two_lines
from gui.common.guard import guarded, listener


#: Characters a combo box of the controls asks room for (longer entries are elided).
COMBO_MIN_CHARS = 8
OUTER_MARGIN_PX = 3


class Sidebar(QWidget):
    """Left-hand controls. `note` carries short messages for the status bar; `scores_box`
    is the ScoresBox (the scores' widgets and their error line)."""

    note = Signal(str)

    def __init__(self, state, model, parent=None):
        super().__init__(parent)
        self.setObjectName("controlPanel")
        self.state = state          # written through its intents
        self.model = model          # the simulation study: the catching-up marker reads it
        self._check_texts: dict[QCheckBox, str] = {}
        self._narrow = False
        self._build()
        self.retranslate()
        self.sync_from(state.params)
        self.state.events.params.connect(self.sync_from)
        self.state.events.lock_d_model.connect(self._on_lock_state)

    # -- construction ----------------------------------------------------------
    def _spin(self, name, low, high, cls=ExplainedSpinBox):
        spin = cls()
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setKeyboardTracking(False)
        return spin

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(*(OUTER_MARGIN_PX,) * 4)   # the group boxes have their own
        self.shape_box = QGroupBox()
        form = QFormLayout(self.shape_box)
        self.dk_slider = QSlider(Qt.Orientation.Horizontal, objectName="dkSlider")
        self.dk_slider.setRange(0, dk_to_slider(DK_MAX))
        self.dk_spin = self._spin("dkSpin", 1, DK_MAX, StepSpinBox)
        self._dk_slider_values: list[int] | None = None   # locked: the divisors of d_model
        self._drag_start: tuple | None = None             # (h, K/V heads) when a drag began
        self.heads_slider = QSlider(Qt.Orientation.Horizontal, objectName="headsSlider")
        self.heads_spin = HeadsSpinBox()
        self.heads_spin.setObjectName("headsSpin")
        self.heads_spin.setKeyboardTracking(False)
        # g divides h: its allowed values change with h, its range does not (HeadsSpinBox)
        self.kv_heads_spin = HeadsSpinBox(span=(1, D_MODEL_MAX))
        self.kv_heads_spin.setObjectName("kvHeadsSpin")
        self.kv_heads_spin.setKeyboardTracking(False)
        self.kv_heads_label = QLabel()
        self.d_model_spin = self._spin("dModelSpin", 1, D_MODEL_MAX)
        self.lock_check = QCheckBox(objectName="lockDModelCheck")
        self.model_preset = QComboBox(objectName="modelPresetCombo")
        self.dk_label, self.heads_label, self.d_model_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.dk_label, self._pair(self.dk_slider, self.dk_spin))
        form.addRow(self.heads_label, self._pair(self.heads_slider, self.heads_spin))
        form.addRow(self.kv_heads_label, self.kv_heads_spin)
        form.addRow(self.d_model_label, self._pair(self.d_model_spin, self.lock_check))
        self.model_preset_label = QLabel()
        form.addRow(self.model_preset_label, self.model_preset)
        # "plots catching up" while the plots still show older Params (gui/controls/marker.py)
        self.catching_up_marker = CatchingUpMarker(self.model)
        self.catching_up = self.catching_up_marker.label
        form.addRow(self.catching_up_marker)
        layout.addWidget(self.shape_box)

        self.scores_box = ScoresBox(self.state, self._update)
        layout.addWidget(self.scores_box)

        self.other_box = QGroupBox()
        other = QFormLayout(self.other_box)
        self.field_widgets: dict[str, QWidget] = {}
        self.field_labels: dict[str, QLabel] = {}
        self._field_of: dict[str, FieldControl] = {}
        for spec in FIELD_CONTROLS:
            widget = self._field_widget(spec)
            label = self.field_labels[spec.field] = QLabel()
            other.addRow(label, widget)
            self.field_widgets[spec.field] = widget
            self._field_of[spec.object_name] = spec
        self.other_labels = [self.field_labels[spec.field] for spec in FIELD_CONTROLS]
        # scale_by is a choice of two strings shown as one check box, under ÷√d_k.
        self.scale_by_check = QCheckBox(objectName="scaleByDModelCheck")
        other.insertRow(1, "", self.scale_by_check)
        w = self.field_widgets
        self.scale_check, self.temperature_spin = w["scale"], w["temperature"]
        self.keys_spin, self.samples_spin = w["keys"], w["samples"]
        self.distribution_combo, self.sigma_spin = w["distribution"], w["sigma"]
        self.seed_spin, self.tokens_spin = w["seed"], w["tokens"]
        self.seq_len_spin, self.causal_check = w["seq_len"], w["causal"]
        layout.addWidget(self.other_box)
        layout.addStretch(1)
        self._fit_narrow(form, other)

        self.dk_slider.valueChanged.connect(self._on_dk_slider)
        self.dk_slider.sliderPressed.connect(self._on_dk_drag_start)
        self.dk_slider.sliderReleased.connect(self._on_dk_drag_end)
        self.dk_spin.valueChanged.connect(self._on_dk)
        self.heads_slider.valueChanged.connect(self._on_heads_slider)
        self.heads_spin.valueChanged.connect(self._on_heads)
        self.kv_heads_spin.valueChanged.connect(self._on_kv_heads)
        self.scale_by_check.toggled.connect(self._on_scale_by)
        self.d_model_spin.valueChanged.connect(self._on_d_model)
        self.lock_check.toggled.connect(self._on_lock)
        self.model_preset.activated.connect(self._on_model_preset)
        # Say why a typed value was not taken as typed.
        self.heads_spin.snapped.connect(self._on_heads_snapped)
        self.kv_heads_spin.snapped.connect(self._on_kv_heads_snapped)
        for spin in (self.dk_spin, self.d_model_spin, *(
                self.field_widgets[spec.field] for spec in FIELD_CONTROLS
                if spec.kind in ("int", "float"))):
            spin.refused.connect(self._on_refused)

    def _fit_narrow(self, *forms: QFormLayout) -> None:
        """A narrow column never needs a horizontal scroll bar (300 % text): a
        row too wide for the column puts its label above its field, and the combo boxes
        do not ask for their longest entry's width (they elide it; the tooltip and the
        open list show it whole)."""
        for form in forms:
            form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for combo in self.findChildren(QComboBox):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(COMBO_MIN_CHARS)
        # the scores' preset box sits beside a button
        self.scores_box.scores_preset.setMinimumContentsLength(COMBO_MIN_CHARS - 3)

    def _field_widget(self, spec: FieldControl) -> QWidget:
        """The widget of one table row, wired to the shared slot."""
        if spec.kind == "check":
            widget = QCheckBox(objectName=spec.object_name)
            widget.toggled.connect(self._on_field_check)
        elif spec.kind == "choice":
            widget = QComboBox(objectName=spec.object_name)
            for value, _text in spec.choices:
                widget.addItem("", value)
            widget.activated.connect(self._on_field_choice)
        else:
            widget = self._spin(spec.object_name, spec.low, spec.high,
                                ExplainedDoubleSpinBox if spec.kind == "float" else ExplainedSpinBox)
            widget.setSingleStep(spec.step)
            if spec.kind == "float":
                widget.setDecimals(spec.decimals)
            widget.valueChanged.connect(self._on_field_value)
        return widget

    @staticmethod
    def _pair(a: QWidget, b: QWidget) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(a, 1)
        row.addWidget(b)
        return box

    def retranslate(self) -> None:
        retranslate_controls(self)

    def set_check_text(self, check: QCheckBox, text: str) -> None:
        """A check box's text, kept whole for set_narrow()."""
        self._check_texts[check] = text
        check.setText(two_lines(text) if self._narrow else text)

    def show_for(self, workspace: str) -> None:
        """Show the groups that act on `workspace`: the scores only on Scaling (the softmax
        plot reads them); the shape and the sampling and softmax settings on both Scaling
        and Multi-head."""
        self.scores_box.setVisible(workspace == "scaling")

    def set_narrow(self, narrow: bool) -> None:
        """Check boxes on two lines (True) or one: a column capped below the controls' width
        (300 % text on a 1280-px screen) then needs no sideways scroll bar."""
        if narrow == self._narrow:
            return
        self._narrow = narrow
        for check, text in self._check_texts.items():
            check.setText(two_lines(text) if narrow else text)
        self.scores_box.set_narrow(narrow)

    @guarded
    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    # -- state → widgets ---------------------------------------------------------
    def shape(self) -> Shape:
        p = self.state.params
        return Shape(p.dk, p.heads, p.d_model, self.state.lock_d_model)

    @listener
    def sync_from(self, params: Params) -> None:
        widgets = [self.dk_slider, self.dk_spin, self.heads_slider, self.heads_spin,
                   self.kv_heads_spin, self.scale_by_check, self.d_model_spin,
                   self.lock_check, *self.field_widgets.values()]
        with all_signals_blocked(widgets):
            self._show_dk(params)
            self.lock_check.setChecked(self.state.lock_d_model)
            allowed = allowed_heads(Shape(params.dk, params.heads, params.d_model,
                                          self.state.lock_d_model))
            self.heads_spin.set_allowed(allowed)
            set_spin(self.heads_spin, params.heads)
            self.heads_slider.setRange(0, len(allowed) - 1)
            self.heads_slider.setValue(allowed.index(nearest(allowed, params.heads)))
            self.kv_heads_spin.set_allowed(divisors(params.heads))
            set_spin(self.kv_heads_spin, params.kv_heads_used)
            set_spin(self.d_model_spin, params.d_model)
            self.scale_by_check.setChecked(params.scale_by == "d_model")
            for spec in FIELD_CONTROLS:
                self._show_field(spec, getattr(params, spec.field))
        self.scores_box.sync_from(params)
        self._show_model_preset(params)

    def _show_dk(self, params: Params) -> None:
        """Locked, the d_k slider and the spin's arrows go through the divisors of d_model
        only (d_k = d_model / h), so a drag never breaks the lock; unlocked, the slider
        moves in steps of 2^(1/8)."""
        if self.state.lock_d_model:
            values = divisors(params.d_model)
            position = values.index(nearest(values, params.dk))
        else:
            values, position = None, dk_to_slider(params.dk)
        self._dk_slider_values = values
        self.dk_spin.set_steps(values)
        top = len(values) - 1 if values is not None else dk_to_slider(DK_MAX)
        if self.dk_slider.maximum() != top:
            self.dk_slider.setRange(0, top)
        self.dk_slider.setValue(position)
        set_spin(self.dk_spin, params.dk)

    def _show_model_preset(self, params: Params) -> None:
        """The model preset box shows the preset the shape matches now, or "custom shape"
        (the scores box shows its own preset)."""
        index = model_preset_index(params)
        if self.model_preset.currentIndex() != index:
            with signals_blocked(self.model_preset):
                self.model_preset.setCurrentIndex(index)
        tip = preset_tooltip(MODEL_PRESETS[index - 1]) if index > 0 else tr(
            "Published model shapes: d_model, h, d_k, K/V heads and cached layers of a "
            "real model, with the paper they come from. \"custom shape\": the values are "
            "none of them.")
        if self.model_preset.toolTip() != tip:
            self.model_preset.setToolTip(tip)
            self.model_preset_label.setToolTip(tip)

    def _show_field(self, spec: FieldControl, value) -> None:
        widget = self.field_widgets[spec.field]
        if spec.kind == "check":
            widget.setChecked(bool(value))
        elif spec.kind == "choice":
            widget.setCurrentIndex(widget.findData(value))
        else:
            set_spin(widget, min(value, spec.high))

    # -- widgets → state ---------------------------------------------------------
    def _update(self, **changes) -> bool:
        try:
            self.state.update_params(**changes)
        except ParamsError as exc:
            self.note.emit(str(exc))
            self.sync_from(self.state.params)
            return False
        return True

    def _apply_shape(self, result, kv_heads: int | None = None) -> None:
        shape, note = result
        self.state.set_lock_d_model(shape.locked)
        if note is not None:
            self.note.emit(self.describe_note(note))
        if kv_heads is None:
            kv_heads = self.state.params.kv_heads
        self._update(dk=shape.dk, heads=shape.heads, d_model=shape.d_model,
                     kv_heads=kv_heads_for(shape.heads, kv_heads))

    @staticmethod
    def describe_note(note: tuple) -> str:
        kind, *v = note
        if kind == "unlocked":
            return tr("d_model unlocked: {d} is not a multiple of d_k = {dk}").format(d=v[0], dk=v[1])
        if kind == "heads_lowered":
            return tr("h lowered to {h} so that d_model stays ≤ {m}").format(h=v[0], m=v[1])
        return tr("h = {h} does not divide d_model = {d}; using h = {s}").format(h=v[0], d=v[1], s=v[2])

    # -- typed values that were not taken as typed --------------------------------------
    @Slot(int, int)
    def _on_heads_snapped(self, typed: int, used: int) -> None:
        p = self.state.params
        if self.state.lock_d_model and 1 <= typed <= p.d_model:
            self.note.emit(self.describe_note(("not_divisor", typed, p.d_model, used)))
        else:
            self.note.emit(tr("h = {h} is out of range: h goes from 1 to {top}; using h = {s}")
                           .format(h=typed, top=self.heads_spin.maximum(), s=used))

    @Slot(int, int)
    def _on_kv_heads_snapped(self, typed: int, used: int) -> None:
        self.note.emit(tr("K/V heads g = {g} must divide h = {h}; using g = {s}").format(
            g=typed, h=self.state.params.heads, s=used))

    @Slot(str)
    def _on_refused(self, text: str) -> None:
        self.note.emit(self.refusal_text(self.sender(), text.strip()))

    def refusal_text(self, spin, typed: str) -> str:
        """Why `typed` was thrown away and the last value kept: the spin box's range."""
        kept = spin.textFromValue(spin.value())
        if spin is self.temperature_spin:
            return tr("T = {typed} not applied: the temperature must be > 0, as softmax(s / T) "
                      "divides by T (from {low} to {high}); kept T = {kept}").format(
                typed=typed, low=spin.textFromValue(spin.minimum()),
                high=spin.textFromValue(spin.maximum()), kept=kept)
        names = {self.dk_spin: "d_k", self.d_model_spin: "d_model"}
        spec = self._field_of.get(spin.objectName())
        name = names.get(spin) or (tr(spec.label) if spec is not None else spin.objectName())
        return tr("{name} = {typed} not applied: it must be from {low} to {high}; kept {kept}"
                  ).format(name=name, typed=typed, low=spin.textFromValue(spin.minimum()),
                           high=spin.textFromValue(spin.maximum()), kept=kept)

    @Slot(int)
    def _on_dk_slider(self, position: int) -> None:
        values = self._dk_slider_values
        if values is not None:       # locked: a divisor of d_model, the lock holds
            self._on_dk(values[max(0, min(position, len(values) - 1))])
            return
        shape, kv_heads = self.shape(), None
        if self._drag_start is not None:
            # Unlocked, a drag to a wide d_k lowers h (d_model ≤ D_MODEL_MAX); dragging
            # back within the same drag gives the h and K/V heads it started with.
            heads, kv_heads = self._drag_start
            shape = dataclasses.replace(shape, heads=heads)
        self._apply_shape(change_dk(shape, slider_to_dk(position)), kv_heads)

    @Slot()
    def _on_dk_drag_start(self) -> None:
        p = self.state.params
        self._drag_start = (p.heads, p.kv_heads_used)

    @Slot()
    def _on_dk_drag_end(self) -> None:
        self._drag_start = None

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
        self.state.set_lock_d_model(locked)

    @listener
    def _on_lock_state(self, _locked: bool) -> None:
        self.sync_from(self.state.params)

    @Slot(int)
    def _on_model_preset(self, index: int) -> None:
        if index <= 0:
            return
        preset = MODEL_PRESETS[index - 1]
        self.state.set_lock_d_model(True)
        self._update(dk=preset.dk, heads=preset.heads, d_model=preset.d_model,
                     kv_heads=preset.kv_heads, cached_layers=preset.cached_layers)

    @Slot(int)
    def _on_kv_heads(self, kv_heads: int) -> None:
        self._update(kv_heads=kv_heads_for(self.state.params.heads, kv_heads))

    @Slot(bool)
    def _on_scale_by(self, on: bool) -> None:
        self._update(scale_by="d_model" if on else "d_k")

    @Slot(bool)
    def _on_field_check(self, on: bool) -> None:
        self._update(**{self._field_of[self.sender().objectName()].field: on})

    @Slot(int)
    def _on_field_choice(self, index: int) -> None:
        widget = self.sender()
        self._update(**{self._field_of[widget.objectName()].field: widget.itemData(index)})

    @Slot(int)
    @Slot(float)
    def _on_field_value(self, value) -> None:
        self._update(**{self._field_of[self.sender().objectName()].field: value})
