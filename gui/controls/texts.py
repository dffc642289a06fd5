"""The control panel's labels and tooltips, in the current language."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from engine.presets import MODEL_PRESETS

from gui.controls.fields import FIELD_CONTROLS, LENGTH_FIELDS
from gui.common.i18n import tr
from gui.common.qt_util import signals_blocked


def two_lines(text: str) -> str:
    """`text` broken once, at the space (or the bracket) nearest its middle: a check box's
    text on two lines (Qt draws a newline in a button's text as a line break)."""
    middle = len(text) / 2
    breaks = [i for i, ch in enumerate(text) if ch == " " or ch in "(（"]
    if not breaks:
        return text
    i = min(breaks, key=lambda b: abs(b - middle))
    return text[:i].rstrip() + "\n" + text[i:].lstrip()


def fill_combo(combo: QComboBox, entries) -> None:
    """Replace a combo's entries by (text, data, tooltip or None) triples, signals blocked;
    the caller selects the entry the state asks for."""
    with signals_blocked(combo):
        combo.clear()
        for i, (text, data, tooltip) in enumerate(entries):
            combo.addItem(text, data)
            if tooltip:
                combo.setItemData(i, tooltip, Qt.ItemDataRole.ToolTipRole)


def lengths_note() -> str:
    """The four lengths of the window, told apart."""
    return tr("Four lengths in this window: the 2 to 16 scores of the softmax panel, the "
              "keys n per query of the saturation study, the tokens of the multi-head "
              "diagram and the sequence length of the cost panel.")


def preset_tooltip(preset) -> str:
    return tr("{name}: {layers} attention layers × {h} heads = {total} patterns; "
              "{kv} K/V heads; source: {source}").format(
        name=preset.name, layers=preset.attention_layers, h=preset.heads,
        total=f"{preset.attention_heads_total:,}", kv=preset.kv_heads, source=preset.source)


def retranslate_controls(panel) -> None:
    """Every label, tooltip and combo entry of the Sidebar `panel` but its scores box's
    (ScoresBox.retranslate)."""
    panel.shape_box.setTitle(tr("Shape"))
    panel.dk_label.setText(tr("d_k"))
    panel.heads_label.setText(tr("heads h"))
    panel.d_model_label.setText(tr("d_model"))
    panel.lock_check.setText(tr("lock"))
    panel.lock_check.setToolTip(tr("Keep d_model fixed: changing h changes d_k = d_model / h"))
    panel.dk_slider.setToolTip(tr(
        "Width d_k of each head's q and k. Locked, the slider offers only the divisors of "
        "d_model (d_k = d_model / h), so the lock holds; unlocked, it moves in steps of "
        "2^(1/8) and d_model = h · d_k follows."))
    panel.dk_spin.setToolTip(tr(
        "Width d_k of each head's q and k, 1 to 16384. Locked, the arrows go through the "
        "divisors of d_model; typing another width unlocks d_model and says so."))
    panel.heads_spin.setToolTip(tr(
        "Number of query heads h; d_model = h · d_k. Every head reads all of X through its "
        "own W_Q, W_K, W_V columns; what is split is the projected Q, K, V."))
    panel.heads_slider.setToolTip(panel.heads_spin.toolTip())
    panel.d_model_spin.setToolTip(tr(
        "Model width d_model = h · d_k: the columns of X and the size of W_Q, W_K, W_V and "
        "W_O. A new d_model keeps h if h divides it, else takes the nearest divisor."))
    panel.kv_heads_label.setText(tr("K/V heads"))
    panel.kv_heads_spin.setToolTip(tr(
        "Key/value heads g, a divisor of h: g = h is multi-head attention (MHA), g = 1 "
        "multi-query (MQA), between them grouped-query (GQA): h / g query heads share one "
        "K and V. Fewer K/V heads: fewer parameters and a smaller KV cache."))
    panel.model_preset_label.setText(tr("model"))
    fill_combo(panel.model_preset, [(tr("custom shape"), None, tr(
        "The shape is none of the published ones; choose one to set d_model, h, d_k, "
        "K/V heads and cached layers"))] + [
        (tr("{name}: {d} = {h} × {dk}, {layers} layers").format(
            name=p.name, d=p.d_model, h=p.heads, dk=p.dk, layers=p.layers), p.slug,
         preset_tooltip(p)) for p in MODEL_PRESETS])
    panel.other_box.setTitle(tr("Sampling and softmax"))
    panel.set_check_text(panel.scale_by_check, tr("÷√d_model (the mistake)"))
    panel.scale_by_check.setToolTip(tr(
        "The multi-head diagram divides its scores by √d_model instead of √d_k: each "
        "head's scores then have variance d_k / d_model and its attention goes flat"))
    for spec in FIELD_CONTROLS:
        widget = panel.field_widgets[spec.field]
        panel.field_labels[spec.field].setText(tr(spec.label) if spec.label else "")
        tip = tr(spec.tooltip)
        if spec.field in LENGTH_FIELDS:
            tip += "\n\n" + lengths_note()
        widget.setToolTip(tip)
        panel.field_labels[spec.field].setToolTip(tip)
        if spec.kind == "check":
            panel.set_check_text(widget, tr(spec.text))
        elif spec.kind == "choice":
            for i, (_value, text) in enumerate(spec.choices):
                widget.setItemText(i, tr(text))
    for label, widget in ((panel.dk_label, panel.dk_slider), (panel.heads_label, panel.heads_spin),
                          (panel.kv_heads_label, panel.kv_heads_spin),
                          (panel.d_model_label, panel.d_model_spin)):
        label.setToolTip(widget.toolTip())
    panel._show_model_preset(panel.model.params)
