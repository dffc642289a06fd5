"""Plot 5: FLOPs of one full-width head against h heads (both with W_O, as in the paper),
by term and by head; the labelled no-W_O figure; parameters, KV cache and score memory.

The notes (FLOPs, memory) and the KV precision box stand beside the plot or under it, never
on the bars (cost_layout.plan_notes): the bars take the plot's whole height."""
from __future__ import annotations

import html
import re

import numpy as np
import pyqtgraph as pg
import shiboken6

from engine.cost import PRECISION_BITS, TERMS

from PySide6.QtCore import QPointF, Qt, Slot
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QComboBox

from gui.common.guard import guarded, listener

from gui.common.style import brush, format_count, pen, plot_font
from gui.panels import pg_compat
from gui.panels.base import Plot
from gui.panels.cost_layout import PAD, SIDE, Room, least_height, plan_notes, wrap_note
from gui.panels.items import BrushedBars, PathBars, PathLine
from gui.panels.label import Label
from gui.panels.text_fit import MinimumHeight, lines_px, unbreakable
from gui.common.i18n import tr
from gui.common.qt_util import signals_blocked
from gui.common.qt_util import measuring_document

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
#: Headroom over the tallest bar: the notes stand beside the plot, not over the bars.
TOP_MARGIN = 1.05
PLANS_KEPT = 32               # note arrangements, by what they depend on
#: The bars keep at least this many lines of plot text of height.
BAR_LINES = 3
#: The legend under the title, × the plot text (or the notes' size where that is smaller).
KEY_FACTOR = 0.85


class NoteLabel(Label):
    """A note beside or under the plot: drawn wrapped to its room (drawn_text); `text` and
    toPlainText() are the note as written (lines, unwrapped)."""

    def __init__(self, parent):
        super().__init__(anchor=(0.0, 0.0), parent=parent)
        self.text = ""

    def toPlainText(self) -> str:  # noqa: N802 (as Label's)
        return self.text

    @property
    def drawn_text(self) -> str:
        return self._text


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
        self.info = NoteLabel(self.ci)          # the FLOP notes
        self.memory_text = NoteLabel(self.ci)   # parameters, KV cache, score memory
        self._plan = None                       # cost_layout.NotesPlan shown
        self._plans: dict = {}                  # what it depends on → NotesPlan
        self._note_factor = None
        self._note_metrics: dict = {}           # factor → QFontMetricsF
        self._title_heights: dict = {}          # (width, factor, …) → the title's height
        self._margins = None
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
        self.minimum_height = MinimumHeight(self, self._needed_height)
        self.plot.vb.sigResized.connect(self.minimum_height.request)
        self._top = None
        self._heads = None

    def restyle(self) -> None:
        self.minimum_height.reset()
        for note in (self.info, self.memory_text):
            note.setColor(self.theme.foreground)
        self._note_factor = None
        self._note_metrics.clear()
        self._plans.clear()
        self.style_plot(self.plot)
        self.plot.getAxis("left").enableAutoSIPrefix(True)  # GFLOP, TFLOP
        # its ticks have a digit or two (0.5, 1.0, 200 with the SI prefix): the room kept
        # for the notes beside the plot, not for "0.000"; a wider label widens the axis
        pg_compat.reserve_tick_label_width(self.plot.getAxis("left"),
                                           QFontMetricsF(plot_font(self.theme)).horizontalAdvance("0.0"))
        for term, bar in self.term_bars.items():
            bar.setOpts(brush=brush(self.theme.term_colour(term), 230), pen=pen(self.theme.foreground, self.theme, 0.3))
        self.no_w_o_line.setPen(pen(self.theme.foreground, self.theme, 1.2, Qt.PenStyle.DashLine))
        # The scene's view does not follow the application's font (it stayed at 9 pt at
        # 300 % text), so its one widget child is given the font outright.
        self.precision_combo.setFont(QApplication.font())
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

    def _title_html(self, factor: float | None) -> str:
        """The title with the legend under it, the legend at KEY_FACTOR × the plot text or
        at the notes' size `factor` if smaller."""
        key = "&nbsp;&nbsp; ".join(
            f"<span style='color:{colour}'>{mark}</span>&nbsp;"
            + html.escape(unbreakable(text)).replace(" ", "&nbsp;")
            for colour, mark, text in self.key_entries())
        title = html.escape(tr("cost of one attention layer"))
        size = self.theme.font_pt * min(KEY_FACTOR, factor or KEY_FACTOR)
        return f"{title}<br><span style='font-size:{size:.1f}pt'>{key}</span>"

    def _set_title(self) -> None:
        """Title with the legend in it: inside the plot it covered the bars or the notes."""
        self.set_title(self.title, self._title_html(self._note_factor))

    def retranslate(self) -> None:
        self._set_title()
        self._shown.pop((self.plot.getAxis("left"), "label"), None)
        self._fit_axis_label()
        for i, bits in enumerate(PRECISION_BITS):
            self.precision_combo.setItemText(i, tr("KV cache: {bits}-bit values").format(bits=bits))
        self.precision_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.precision_combo.adjustSize()
        self._plans.clear()
        self._fit_notes()
        self.precision_combo.setToolTip(tr("Bits per stored key and value in the KV cache "
                                           "and the score memory"))

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if getattr(self, "_plans", None) is not None and shiboken6.isValid(
                self.ci.layout):            # Qt resizes before build() and while deleting
            self._fit_notes()

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
        """A new plot size: the axis may take its long name, the notes another place."""
        self._fit_axis_label()
        self._fit_notes()

    def _axis_name_px(self, name: str) -> float:
        """Length of the FLOP axis name `name` with its unit, and half a line at each end."""
        metrics = QFontMetricsF(self.plot.getAxis("left").label.font())
        return metrics.horizontalAdvance(f"{name} (GFLOP)".strip()) + metrics.height() + 8

    def _fit_axis_label(self) -> None:
        """The long FLOP axis name where the plot is tall enough for it, else the short one,
        else the unit alone (a projector's plot at 300 % text: "FLOPs (GFLOP)" ran past it)."""
        axis = self.plot.getAxis("left")
        names = (tr("FLOPs per layer"), tr("FLOPs"))
        name = next((n for n in names if self._axis_name_px(n) < self.plot.vb.height()), "")
        if self._shown.get((axis, "label")) != name:
            self._shown[axis, "label"] = name
            self.plot.setLabel("left", name, units="FLOP")

    # -- the notes beside or under the plot (cost_layout) -------------------------
    def _metrics(self, factor: float) -> QFontMetricsF:
        """The notes' font metrics at `factor` × the plot text (kept until a new theme)."""
        metrics = self._note_metrics.get(factor)
        if metrics is None:
            metrics = self._note_metrics[factor] = QFontMetricsF(plot_font(self.theme, factor))
        return metrics

    def _notes(self) -> tuple:
        return self.info.text, self.memory_text.text

    def _note_lines(self, index: int, factor: float, width: float) -> int:
        text = self._notes()[index]
        return wrap_note(text, width, self._metrics(factor).horizontalAdvance).count("\n") + 1

    def _widest_line(self, index: int, factor: float) -> float:
        advance = self._metrics(factor).horizontalAdvance
        return max(advance(line) for line in self._notes()[index].split("\n"))

    def _title_px(self, width: float, factor: float) -> float:
        """The title's height at `width`, its legend at the notes' size `factor`."""
        key = (width, factor, self.theme, self.title.text)
        height = self._title_heights.get(key)
        if height is None:
            document = measuring_document(self.title.item.document())
            style = f"color: {self.theme.foreground}; font-size: {self.theme.font_pt * 1.2:.1f}pt"
            document.setHtml(f"<span style='{style}'>{self._title_html(factor)}</span>")
            document.setTextWidth(max(1.0, width - 2))
            if len(self._title_heights) > PLANS_KEPT:
                self._title_heights.clear()
            height = self._title_heights[key] = document.size().height()
        return height

    def _hidden_px(self) -> tuple:
        """(right, bottom) pixels of the scene that a frame hides: pyqtgraph lays the scene
        out at the widget's size, the frame (the lesson step's 5-px border) shows the
        viewport, twice the frame's width smaller, from the scene's top left."""
        viewport = self.viewport().size()
        return max(0, self.width() - viewport.width()), max(0, self.height() - viewport.height())

    def _room(self) -> Room:
        combo = self.precision_combo.sizeHint()
        viewport = self.viewport().size()
        return Room(width=float(viewport.width()), height=float(viewport.height()),
                    line=QFontMetricsF(plot_font(self.theme)).lineSpacing(),
                    font_pt=self.theme.font_pt,
                    left_axis=self.plot.getAxis("left").width(),
                    bottom_axis=self.plot.getAxis("bottom").height(),
                    plot_min=max(self._axis_name_px(""), lines_px(self.theme, BAR_LINES)),
                    combo=(combo.width(), combo.height()))

    def _plan_key(self, room: Room) -> tuple:
        # digits share one advance: most results keep the plan they had
        shapes = tuple(re.sub(r"\d", "0", text) for text in self._notes())
        return room, shapes, self.title.text

    def _fit_notes(self) -> None:
        """Plan where the notes go (kept by what the plan depends on), and put them there."""
        if not self.info.text:
            return
        room = self._room()
        key = self._plan_key(room)
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) >= PLANS_KEPT:
                self._plans.pop(next(iter(self._plans)))
            plan = self._plans[key] = plan_notes(room, self._note_lines, self._widest_line,
                                                 self._title_px)
        self._show_notes(plan, room)

    def _show_notes(self, plan, room: Room) -> None:
        """The notes at the plan's size and place, the layout's margin kept for them, the
        precision box under them."""
        self._plan = plan
        factor = plan.factor
        if factor != self._note_factor:
            self._note_factor = factor
            for note in (self.info, self.memory_text):
                note.setFont(plot_font(self.theme, factor))
            self._set_title()                  # its legend at the notes' size
        side = plan.where == SIDE
        text_width = plan.width - (2 * PAD if side else PAD)
        advance = self._metrics(factor).horizontalAdvance
        for note in (self.info, self.memory_text):
            note.setText(wrap_note(note.text, text_width, advance))
        combo = self.precision_combo
        w, h = room.width, room.height
        right, bottom = self._hidden_px()
        # no wider than the notes' room (a combo box elides its text)
        combo.resize(int(min(room.combo[0], text_width + (0 if side else PAD))), int(room.combo[1]))
        frame = self.viewport().pos()          # the combo is placed in the widget's pixels
        if side:
            margins = (1, 1, int(plan.width) + right, 1 + bottom)
            x = w - plan.width + PAD
            self.info.setPos(x, PAD)
            self.memory_text.setPos(x, PAD + self.info.rect().height() + room.line * factor / 2)
            combo.move(int(x) + frame.x(), int(max(0, h - combo.height() - PAD)) + frame.y())
        else:
            margins = (1, 1, 1 + right, int(plan.height) + bottom)
            top = h - plan.height + PAD
            self.info.setPos(PAD, top)
            self.memory_text.setPos(w / 2 + PAD / 2, top)
            combo.move(int(PAD) + frame.x(), int(max(0, h - combo.height() - PAD)) + frame.y())
        if margins != self._margins:
            self._margins = margins
            self.ci.setContentsMargins(*margins)

    @property
    def notes_plan(self):
        """Where the notes stand now (cost_layout.NotesPlan), None before any result."""
        return self._plan

    def _needed_height(self) -> float:
        """The least height at which the notes leave the plot its share (cost_layout)."""
        if not self.info.text:
            return 0.0
        room = self._room()
        return least_height(room, self._note_lines, self._widest_line,
                            self._title_px) + self._hidden_px()[1]

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
        self.info.text = self.flops_text(results)
        self.memory_text.text = self.memory_html(results).replace("<br>", "\n")
        self._fit_notes()
        self._fit_axis_label()
        self.minimum_height.request()
        top = TOP_MARGIN * max(single.flops, multi.flops)
        if self._top is None or not 0.9 < self._top / top <= 1.0:
            self._top = top          # kept while the bars stay within 10 % of it
            self.plot.setYRange(0, top, padding=0)
        no_w_o = results.cost_no_output_projection.flops
        self.no_w_o_line.setData(x=np.array([-0.42, 0.42]), y=np.full(2, float(no_w_o)))
        names = ((tr("1 head = h heads"), "", tr("per head")) if h == 1 else
                 (tr("1 head"), tr("{h} heads").format(h=h), tr("per head")))
        for label, name in zip(self.bar_names, names):
            label.setText(name)
        self._place_bar_names()

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
