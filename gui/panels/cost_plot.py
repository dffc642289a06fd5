"""Plot 5: FLOPs of one full-width head against h heads (both with W_O, as in the paper),
by term and by head; the labelled no-W_O figure; parameters, KV cache and score memory."""
from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
import shiboken6

from engine.cost import PRECISION_BITS, TERMS

from PySide6.QtCore import QPointF, Qt, Slot
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QComboBox

from gui.common.guard import guarded, listener

from gui.common.style import brush, format_count, pen, plot_font
from gui.panels.base import Plot
from gui.panels.items import BrushedBars, PathBars, PathLine
from gui.panels.label import Label
from gui.panels.text_fit import (MinimumHeight, glue_words, layout_minimum_px, lines_px, unbreakable,
                       wrap_lines)
from gui.common.i18n import tr
from gui.common.qt_util import signals_blocked

BAR_WIDTH = 0.6



def term_names() -> dict:
    return {"projections": tr("Q/K/V projections"), "scores": tr("QKᵀ"),
            "softmax": tr("softmax"), "weighted_sum": tr("weights · V"), "w_o": tr("W_O")}


BAR_NAME_X = (0.0, 1.0, 2.0)  # single head, h heads, the per-head slices
SAME_NAME_X = 0.5             # h = 1: the two bars are one layer, named once between them
DEFAULT_KV_BITS = 16


def format_bytes(count: float) -> str:
    """Bytes in binary units: 327680 → "320 KiB", 1.5·2³⁰ → "1.5 GiB"."""
    for power, unit in ((4, "TiB"), (3, "GiB"), (2, "MiB"), (1, "KiB")):
        if count >= 1024**power:
            return f"{count / 1024**power:.3g} {unit}"
    return f"{count:g} B"
MIN_WIDTH_PX = 360            # narrower, the bar names run together


class CostPlot(Plot):
    def __init__(self, parent=None):
        super().__init__("costPlot", parent)

    def build(self) -> None:
        self.setMinimumWidth(MIN_WIDTH_PX)
        self.title = self.add_title()
        self.plot = self.addPlot(row=1, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.enableAutoRange(False)
        self.plot.setXRange(-0.6, 2.6, padding=0)
        zero = np.zeros(2)
        self.term_bars = {}
        for term in TERMS:
            bar = PathBars(x=np.array([0.0, 1.0]), height=zero, y0=zero, width=BAR_WIDTH)
            self.plot.addItem(bar)
            self.term_bars[term] = bar
        # Third bar: the same multi-head total cut into h per-head slices plus W_O.
        self.head_bar = BrushedBars(x=np.zeros(0), height=np.zeros(0), width=BAR_WIDTH)
        self.plot.addItem(self.head_bar)
        # The figure some texts compare against: one head without W_O, a dashed mark on bar 0.
        self.no_w_o_line = PathLine(x=np.array([-0.42, 0.42]), y=np.zeros(2))
        self.plot.addItem(self.no_w_o_line)
        self.info = self.overlay_text(self.plot, (0, 0))
        self.memory_text = self.add_title(row=2)
        self._cost_state = None          # AppState, once bind_state() is called
        self._kv_bits = DEFAULT_KV_BITS   # used until then (a panel built on its own)
        # A child widget of the view at its bottom left (a proxy in the scene would be a
        # top-level widget of its own); the layout keeps a margin free for it.
        self.precision_combo = QComboBox(self, objectName="kvPrecisionCombo")
        for bits in PRECISION_BITS:
            self.precision_combo.addItem("", bits)
        self.precision_combo.setCurrentIndex(PRECISION_BITS.index(DEFAULT_KV_BITS))
        self.precision_combo.activated.connect(self._on_precision)
        # The bars are named by labels under the axis instead of tick strings: "8 heads"
        # changes with h, and new tick strings make pyqtgraph lay the axis out again.
        axis = self.plot.getAxis("bottom")
        axis.setTicks([[(x, "") for x in BAR_NAME_X]])
        self.bar_names = [Label(anchor=(0.5, 0.0), parent=axis) for _ in BAR_NAME_X]
        self.plot.vb.sigResized.connect(self._place_bar_names)
        axis.geometryChanged.connect(self._place_bar_names)
        self.plot.vb.sigResized.connect(self._on_resized)
        # the plot: the notes over three lines of bars, and the short name of its axis
        self.minimum_height = MinimumHeight(
            self, lambda: layout_minimum_px(self) + max(
                self.info.rect().height() + lines_px(self.theme, 3), self._short_label_px()))
        self.plot.vb.sigResized.connect(self.minimum_height.request)
        self._top = None
        self._vb_height = None
        self._vb_size = None
        self._heads = None

    def restyle(self) -> None:
        self.minimum_height.reset()
        self._shown.pop((self.memory_text, "text"), None)   # set again in the new colour
        self.style_plot(self.plot)
        self.plot.getAxis("left").enableAutoSIPrefix(True)  # GFLOP, TFLOP
        for term, bar in self.term_bars.items():
            bar.setOpts(brush=brush(self.theme.term_colour(term), 230), pen=pen(self.theme.foreground, self.theme, 0.3))
        self.no_w_o_line.setPen(pen(self.theme.foreground, self.theme, 1.2, Qt.PenStyle.DashLine))
        # The scene's view does not follow the application's font (it stayed at 9 pt at
        # 300 % text), so its one widget child is given the font outright.
        self.precision_combo.setFont(QApplication.font())
        self._place_precision()
        font = plot_font(self.theme)
        for label in self.bar_names:
            label.setColor(self.theme.foreground)
            label.setFont(font)
        self._shown.pop("bar name scale", None)
        axis = self.plot.getAxis("bottom")
        axis.setHeight(int(QFontMetricsF(font).lineSpacing() + 2 * Label.MARGIN + 6))
        self._place_bar_names()
        self._heads = None
        self._set_title()

    def key_entries(self) -> list[tuple[str, str, str]]:
        """(colour, swatch, name) of every legend entry: the five terms and the no-W_O mark."""
        names = term_names()
        entries = [(self.theme.term_colour(term), "■", names[term]) for term in TERMS]
        return entries + [(self.theme.foreground, "╌╌", tr("1 head without W_O"))]

    def _set_title(self) -> None:
        """Title with the legend in it: inside the plot it covered the bars or the notes."""
        key = "&nbsp;&nbsp; ".join(
            f"<span style='color:{colour}'>{mark}</span>&nbsp;"
            + html.escape(unbreakable(text)).replace(" ", "&nbsp;")
            for colour, mark, text in self.key_entries())
        title = html.escape(tr("cost of one attention layer"))
        self.set_title(self.title, f"{title}<br><span style='font-size:{self.theme.font_pt * 0.85:.1f}pt'>{key}</span>")

    def retranslate(self) -> None:
        self._set_title()
        self._shown.pop((self.plot.getAxis("left"), "label"), None)
        self._fit_axis_label()
        for i, bits in enumerate(PRECISION_BITS):
            self.precision_combo.setItemText(i, tr("KV cache: {bits}-bit values").format(bits=bits))
        self.precision_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._place_precision()
        self.precision_combo.setToolTip(tr("Bits per stored key and value in the KV cache "
                                           "and the score memory"))

    def _place_precision(self) -> None:
        """The precision combo at the bottom left, the layout's bottom margin kept for it."""
        combo = self.precision_combo
        combo.adjustSize()
        height = combo.sizeHint().height()
        self.ci.setContentsMargins(1, 1, 1, height + 4)
        combo.move(4, max(0, self.height() - height - 2))

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if getattr(self, "precision_combo", None) is not None and shiboken6.isValid(
                self.ci.layout):            # Qt resizes before build() and while deleting
            self._place_precision()

    # -- the KV precision: AppState.cost ------------------------------------------
    def bind_state(self, state) -> None:
        """Render AppState.cost.kv_bits and send the combo's choice to it as an intent."""
        self._cost_state = state
        state.events.cost.connect(self._show_cost_settings)
        self._show_cost_settings(state.cost)

    @property
    def kv_bits(self) -> int:
        return self._cost_state.cost.kv_bits if self._cost_state is not None else self._kv_bits

    @listener
    def _show_cost_settings(self, cost) -> None:
        with signals_blocked(self.precision_combo):
            self.precision_combo.setCurrentIndex(self.precision_combo.findData(cost.kv_bits))
        self.redraw()

    @Slot(int)
    def _on_precision(self, index: int) -> None:
        bits = int(self.precision_combo.itemData(index))
        if self._cost_state is not None:
            self._cost_state.update_cost(kv_bits=bits)     # renders through events.cost
        else:
            self._kv_bits = bits
            self.redraw()

    def _name_positions(self) -> tuple:
        return (SAME_NAME_X, 1.0, 2.0) if self._heads == 1 else BAR_NAME_X

    def _fit_bar_name_font(self) -> None:
        """The bar names in the tick font, or smaller (down to 60 %) where the widest would
        run into its neighbour: at large text "1 head" and "8 heads" overlapped."""
        vb = self.plot.vb
        spacing = vb.mapViewToScene(QPointF(1, 0)).x() - vb.mapViewToScene(QPointF(0, 0)).x()
        positions = self._name_positions()
        gap = min(b - a for a, b in zip(positions[:-1], positions[1:])) * spacing
        font = plot_font(self.theme)
        widest = max(QFontMetricsF(font).horizontalAdvance(label.toPlainText()) + 2 * Label.MARGIN
                     for label in self.bar_names)
        scale = 1.0 if widest <= gap - 6 or gap <= 0 else max(0.6, (gap - 6) / widest)
        if self._shown.get("bar name scale") != scale:
            self._shown["bar name scale"] = scale
            font.setPointSizeF(font.pointSizeF() * scale)
            for label in self.bar_names:
                label.setFont(font)

    def _place_bar_names(self, *_args) -> None:
        """Each name under its bar: the bar's x in the view, mapped into the axis item."""
        axis, vb = self.plot.getAxis("bottom"), self.plot.vb
        self._fit_bar_name_font()
        for label, x in zip(self.bar_names, self._name_positions()):
            scene_x = vb.mapViewToScene(QPointF(x, 0)).x()
            label.setPos(axis.mapFromScene(QPointF(scene_x, 0)).x(), 4)

    def _on_resized(self, *_args) -> None:
        """A new plot size: the notes wrap again, and the headroom that keeps the bars below
        them changes."""
        size = (self.plot.vb.width(), self.plot.vb.height())
        if self._vb_height is not None and self._vb_size != size:
            self._top = None
            self.redraw()
        self._vb_size = size

    def _short_label_px(self) -> float:
        """Length of the axis name as drawn (the short one unless the long one fits)."""
        label = self.plot.getAxis("left").label
        metrics = QFontMetricsF(label.font())
        drawn = label.boundingRect().width() / max(1.0, metrics.horizontalAdvance(label.toPlainText()))
        return drawn * metrics.horizontalAdvance(tr("FLOPs") + " (GFLOP)") + 4 * metrics.height()

    def _fit_axis_label(self) -> None:
        """The long FLOP axis name where the plot is tall enough for it, else the short one."""
        axis = self.plot.getAxis("left")
        long_name = tr("FLOPs per layer")
        metrics = QFontMetricsF(axis.label.font())
        width = metrics.horizontalAdvance(long_name + " (GFLOP)") + 2 * metrics.height()
        name = long_name if width < self.plot.vb.height() else tr("FLOPs")
        if self._shown.get((axis, "label")) != name:
            self._shown[axis, "label"] = name
            self.plot.setLabel("left", name, units="FLOP")

    def show_results(self, results) -> None:
        single, multi = results.cost_single, results.cost_multi
        bottom = np.zeros(2)
        for term, bar in self.term_bars.items():
            heights = np.array([single.total[term], multi.total[term]], dtype=float)
            bar.setOpts(y0=bottom.copy(), height=heights)
            bottom += heights
        h = multi.heads
        per_head = float(sum(multi.per_head.values()))
        heights = np.append(np.full(h, per_head), float(multi.total["w_o"]))
        y0 = np.append(np.arange(h) * per_head, h * per_head)
        opts = {"y0": y0, "height": heights}
        if h != self._heads:  # new slice count: pass x, brushes and heights in one call
            self._heads = h
            shades = [brush("#7F7F7F", 230), brush("#BFBFBF", 230)]  # alternate so slices read apart
            thin = h > 24  # outlines would hide thin slices
            opts.update(x=np.full(h + 1, 2.0),
                        brushes=[shades[i % 2] for i in range(h)] + [brush(self.theme.term_colour("w_o"), 230)],
                        pen=pg.mkPen(None) if thin else pen(self.theme.foreground, self.theme, 0.3))
        self.head_bar.setOpts(**opts)
        # The notes first: their height decides the headroom above the bars.
        self.set_text(self.info, wrap_lines(self.flops_text(results), self.plot.vb.width() - 10,
                                            self.info.width_of))
        self._fit_axis_label()
        self._show_memory(results)
        self.minimum_height.request()
        top = self._headroom() * max(single.flops, multi.flops)
        if self._top is None or not 0.9 < self._top / top <= 1.0 or self._vb_height != \
                self.plot.vb.height():
            self._vb_height = self.plot.vb.height()
            self._top = top
            self.plot.setYRange(0, top, padding=0)
        no_w_o = results.cost_no_output_projection.flops
        self.no_w_o_line.setData(x=np.array([-0.42, 0.42]), y=np.full(2, float(no_w_o)))
        names = ((tr("1 head = h heads"), "", tr("per head")) if h == 1 else
                 (tr("1 head"), tr("{h} heads").format(h=h), tr("per head")))
        for label, name in zip(self.bar_names, names):
            label.setText(name)
        self._place_bar_names()

    def _headroom(self) -> float:
        """Top of the axis over the tallest bar, so that the bars stay below the notes."""
        used = self.info.rect().height() + 10
        height = self.plot.vb.height()
        if height <= 0:
            return 1.6
        return 1.05 / max(1.0 - used / height, 0.3)

    @staticmethod
    def flops_text(results) -> str:
        """The FLOP notes: shape, softmax's growth and share, W_O's share, the no-W_O figure."""
        single, multi = results.cost_single, results.cost_multi
        h = multi.heads
        return tr("n = {n} tokens: 1 × {d}  vs  {h} × {dk}\n"
                  "softmax: {sm} FLOPs, {share:.1%} of the layer\n"
                  "   (1 head: {sm1}, {share1:.1%})\n"
                  "W_O: {wo} FLOPs, {wo_share:.1%}\n"
                  "1 head without W_O: {no_wo} FLOPs").format(
            n=multi.seq_len, d=multi.d_model, h=h, dk=multi.d_model // h,
            sm=format_count(multi.total["softmax"]), share=multi.softmax_share,
            sm1=format_count(single.total["softmax"]), share1=single.softmax_share,
            wo=format_count(multi.total["w_o"]), wo_share=multi.total["w_o"] / multi.flops,
            no_wo=format_count(results.cost_no_output_projection.flops))

    def _show_memory(self, results) -> None:
        # Its lines hold no other markup; Japanese words wrap whole (glue_words).
        text = glue_words(self.memory_html(results).replace("<br>", "\n"))
        if self._shown.get((self.memory_text, "text")) != text:
            self._shown[self.memory_text, "text"] = text
            self.memory_text.set_plain_text(text, self.theme.foreground, self.theme.font_pt * 0.9)

    def memory_html(self, results) -> str:
        """Parameters (following the K/V heads), KV cache and score memory, at `kv_bits`."""
        multi, memory, bits = results.cost_multi, results.memory, self.kv_bits
        g = multi.kv_heads
        kind = (tr("MHA") if g == multi.heads else tr("MQA") if g == 1 else tr("GQA"))
        params = tr("attention params per layer: {p}<br>"
                    "({kind}, {g} K/V heads; 1 full-width head: {p1})").format(
            p=format_count(multi.params), kind=kind, g=g, p1=format_count(results.cost_single.params))
        if memory.layers == 0:
            cache = tr("KV cache: none (no decoder layer caches keys and values)")
        else:
            cache = tr("KV cache, {bits}-bit: {per_token} per token<br>"
                       "(2 × {layers} layers × {g} × {dk} values); {ctx} at n = {n}").format(
                bits=bits, per_token=format_bytes(memory.cache_per_token[bits]),
                layers=memory.layers, g=memory.kv_heads, dk=memory.dk,
                ctx=format_bytes(memory.cache_at_context[bits]), n=memory.seq_len)
        scores = tr("scores h·n² = {h} × {n}²: {size} per layer").format(
            h=memory.heads, n=memory.seq_len, size=format_bytes(memory.scores[bits]))
        return "<br>".join((params, cache, scores))
