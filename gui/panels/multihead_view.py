"""Plot 4: the multi-head pipeline drawn with the engine's real matrices.

X (n × d_model) whole · W_Q (d_model × d_model), W_K, W_V (d_model × g·d_k) = Q, K, V.
Head i owns columns [i·d_k, (i+1)·d_k) of W_Q and Q (a coloured strip marks them); with
g < h K/V heads, K/V block j serves query heads j·h/g … (j+1)·h/g − 1, and its strip
carries their colours. Per head: softmax(Qⁱ·Kⁱᵀ / divisor) (n × n) → Aⁱ·Vⁱ (n × d_k)
→ concat (n × d_model) · W_O (d_model × d_model) = output (n × d_model).
At most MAX_HEADS_DRAWN heads get a map; the rest are counted in a label. Matrices of
one shape are drawn at one size (multihead_layout). Hovering a matrix reads out the entry
under the cursor and highlights the head it belongs to; clicking pins that head
(select_head; multihead_pointer).
"""
from __future__ import annotations

import itertools
import math
from collections import OrderedDict

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, QTimer, Slot
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QGraphicsRectItem

from engine.multihead import concat_heads

from gui.common.guard import guarded
from gui.common.style import brush, pen, plot_font
from gui.panels.base import Plot
from gui.panels.label import Label
from gui.panels.matrix_item import (DIVERGING, MAX_PIXELS, SEQUENTIAL, MatrixItem,  # noqa: F401 (tests)
                          colour_image, colour_index, drawn_entries)
from gui.panels.multihead_layout import needed_height, with_not_drawn_note
from gui.panels.multihead_pointer import HeadPointer
from gui.panels.multihead_texts import (MATRICES, diagram_texts, not_drawn_text,  # noqa: F401 (tests)
                              text_variant, wrap_lines)
from gui.panels.text_fit import MinimumHeight, layout_minimum_px
from gui.common.i18n import tr

MAX_HEADS_DRAWN = 8
LAYOUTS_KEPT = 32      # a drag goes back and forth over a few shapes
#: The view asks for at most this many text lines of height (the window scrolls below it):
#: enough for readable maps at 300 % text, bounded whatever the texts and the width.
MINIMUM_VIEW_LINES = 12
#: In a window fewer than this many label lines high (300 % text on a 720-px screen) the
#: title gives its height to the maps: the lesson strip or the workspace's tab names the view.
TITLE_WINDOW_LINES = 15
SEEDED = ("x", "w_q", "w_k", "w_v", "w_o")   # the matrices MultiHeadResult.seeded_from names
#: Seeded matrices whose colours are kept: X and the four W of eight widths (64 kB each at
#: most, the images being MAX_PIXELS a side).
COLOURED_KEPT = 40
STRIPS = ("w_q", "w_k", "w_v", "q", "k", "v", "concat")     # head-colour strip above the box
HIGHLIGHTS = ("w_q", "w_k", "w_v", "q", "k", "v", "map", "out", "concat", "w_o")
LABEL_ORDER = ("x", "w_q", "w_k", "w_v", "q", "k", "v", "dot", "eq", "maps", "outs",
               "concat", "dot2", "w_o", "eq2", "output", "more", "note", "readout")


def head_words(colours: list) -> np.ndarray:
    """Head colours ('#RRGGBB') as a (1, h) row of RGB32 words."""
    return np.array([[0xFF000000 | QColor(c).rgb() for c in colours]], dtype=np.uint32)


class MultiHeadView(HeadPointer, Plot):
    def __init__(self, parent=None):
        super().__init__("multiheadView", parent)

    def _image(self) -> MatrixItem:
        item = MatrixItem()
        self.view.addItem(item)
        return item

    def _text(self, anchor=(0, 0)) -> Label:
        item = Label(anchor=anchor)
        self.view.addItem(item, ignoreBounds=True)
        return item

    def build(self) -> None:
        self.title = self.add_title()
        self._title_shown = True
        self.view = self.addViewBox(row=1, col=0)
        self.view.invertY(True)
        self.view.setMouseEnabled(False, False)
        self.view.setMenuEnabled(False)
        self.images = {name: self._image() for name in MATRICES}
        self.x_image, self.w_o_image = self.images["x"], self.images["w_o"]
        self.strips = {name: self._image() for name in STRIPS}
        self.w_o_strip = self._image()                  # W_O's rows: the head each one reads
        self.head_maps = [self._image() for _ in range(MAX_HEADS_DRAWN)]
        self.head_outputs = [self._image() for _ in range(MAX_HEADS_DRAWN)]
        self.boundaries = pg.PlotCurveItem(connect="pairs", antialias=False)  # axis-aligned lines
        self.view.addItem(self.boundaries)
        self.highlights = {}
        for name in HIGHLIGHTS:
            rect = QGraphicsRectItem()
            rect.setZValue(5)
            rect.setVisible(False)
            self.view.addItem(rect)
            self.highlights[name] = rect
        self.labels = {name: self._text() for name in LABEL_ORDER}
        self.head_labels = [self._text((0.5, 0)) for _ in range(MAX_HEADS_DRAWN)]
        self.x_label, self.note_label = self.labels["x"], self.labels["note"]
        self.readout_label = self.labels["readout"]
        self.rects: dict = {}          # matrix name → QRectF (view pixels)
        self._rects = self.rects
        self.blocks: dict = {}         # matrix name → [(first column, end column, heads)]
        self.selected: int | None = None
        self._hover: int | None = None
        self._layout_key = None
        self._laid_for = None
        self._lay = None
        self._variant_shown = 0
        self._wrapped: dict = {}
        self._layouts: dict = {}      # layout signature → (variant, Layout)
        self._collision_key = None
        self._words_key = None
        self._needs = None            # what the view's minimum height is measured from
        self._heights: dict = {}      # what needed_height gave, by what it depends on
        self._coloured: OrderedDict = OrderedDict()   # seeded matrices' colour indices, by key
        self.minimum_height = MinimumHeight(self, self._needed_height)
        self.view.sigResized.connect(self._on_resized)
        self.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.scene().sigMouseClicked.connect(self._on_mouse_clicked)

    def restyle(self) -> None:
        font = plot_font(self.theme)
        for item in list(self.labels.values()) + self.head_labels:
            item.setColor(self.theme.foreground)
            item.setFont(font)
            item.setFill(brush(self.theme.background, 220))
            item.setZValue(10)
        for i, item in enumerate(self.head_labels):
            item.setColor(self.theme.head_colour(i))
        self.boundaries.setPen(pen(self.theme.background, self.theme, 0.8))
        self._words_key = None
        self._layout_key = None
        self.minimum_height.reset()

    def retranslate(self) -> None:
        self._fit_title()
        self.setToolTip(tr("hover a matrix to read its entries; click a head to follow it"))
        self._layout_key = None

    def _fit_title(self) -> None:
        """The full title where it fits on one line, else the short one: at 300 % text a
        second title line took a line of the view's height from the maps. None in a window
        under TITLE_WINDOW_LINES label lines (it depends on the window, not on the view's
        own height, which the title's going changes)."""
        window = self.window()
        line = self.labels["x"]._metrics.height() + 2 * Label.MARGIN
        shown = window is self or window.height() >= TITLE_WINDOW_LINES * line
        if shown != self._title_shown:
            self._title_shown = shown
            if shown:
                self.addItem(self.title, row=0, col=0)
            else:
                self.removeItem(self.title)
            self.minimum_height.request()
        full = tr("Multi-head attention with the engine's matrices")
        font = plot_font(self.theme, 1.2)
        room = self.width() - 2 * self.title.item.document().documentMargin() - 12
        fits = QFontMetricsF(font).horizontalAdvance(full) <= room
        self.set_title(self.title, full if fits else tr("Multi-head attention"))

    # -- texts ---------------------------------------------------------------
    def _texts(self, results) -> dict:
        return diagram_texts(results, MAX_HEADS_DRAWN)

    def _wrap(self, text: str) -> str:
        """Break `text` at spaces into lines no wider than the view (memoised: the note
        is the same on most results)."""
        width, label = self.view.size().width() * self._scale()[0], self.labels["note"]
        key = (text, width, label._text_item.font().key())
        if key not in self._wrapped:
            if len(self._wrapped) > 64:
                self._wrapped.clear()
            self._wrapped[key] = self._wrap_lines(text, width, label)
        return self._wrapped[key]

    @staticmethod
    def _wrap_lines(text: str, width: float, label: Label) -> str:
        return wrap_lines(text, width, label.width_of)

    # -- layout --------------------------------------------------------------
    @Slot()
    def _on_resized(self) -> None:
        self._fit_title()
        if self.results is not None:
            self._layout_key = None
            self.redraw()

    @guarded
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        """A view laid out while hidden (its workspace behind another) was laid out for the
        scale it had then: once painted at another scale, it is laid out again, after this
        paint (never inside it)."""
        super().paintEvent(event)
        if self.results is not None and self._laid_for is not None and \
                self._laid_for != (self._line_height(), self._scale()):
            self._laid_for = None
            QTimer.singleShot(0, self._relayout)

    @Slot()
    def _relayout(self) -> None:
        self._layout_key = None
        self.redraw()

    def _scale(self) -> tuple:
        """Screen pixels per view unit, (x, y). Labels are drawn in screen pixels, and
        pyqtgraph fits the scene (the widget's size) into the viewport: a panel framed by
        the lesson's 5-px border shows its view at about 0.99, and a note as wide as the
        view ran past its right edge."""
        transform = self.transform()
        return (transform.m11() if transform.m11() > 0 else 1.0,
                transform.m22() if transform.m22() > 0 else 1.0)

    def _measurer(self):
        """text → a label's width in view units, at the view's scale now (one lookup of
        the scale for a whole layout, not one a text)."""
        width_of, unit = self.labels["x"].width_of, self._scale()[0]
        return lambda text: width_of(text) / unit

    def _line_height(self) -> float:
        label = self.labels["x"]
        # whole pixels: a label's rectangle is rounded up, and rows a line apart must not touch
        return math.ceil(label._metrics.height() + 2 * Label.MARGIN) / self._scale()[1]

    _variant = staticmethod(text_variant)

    def _layout_signature(self, texts: dict, mh) -> tuple:
        """What the layout depends on: the view, the line height, every text line's width
        and the heads. Shapes change on every d_k step, their widths rarely (digits share
        one advance), so most results keep the layout they had."""
        size = self.view.size()
        advance = self.labels["x"].advance
        widths = tuple((k, tuple(round(advance(part), 1) for part in t.split("\n")) if t else ())
                       for k, t in texts.items())
        return (size.width(), size.height(), self._line_height(), self._scale(), widths,
                mh.x.shape[0], mh.computed_heads, mh.computed_kv_heads)

    def _apply_layout(self, texts: dict, mh) -> int:
        """Place every item for `texts`; returns the variant shown (shapes dropped from the
        matrix labels when the view is too short for two lines each)."""
        size = self.view.size()
        w, h = max(50.0, size.width()), max(50.0, size.height())
        line = self._line_height()
        self._laid_for = (line, self._scale())

        measure = self._measurer()

        def lay_out(texts, notes_may_go):
            # with room for "+k heads not drawn" where fewer maps fit than the texts assumed
            return with_not_drawn_note(w, h, line, measure, texts, mh.x.shape[0],
                                       mh.computed_heads, mh.computed_kv_heads,
                                       MAX_HEADS_DRAWN, notes_may_go, not_drawn_text)

        shortest = self._variant(texts, 2)
        needs = (w, line, shortest, mh.x.shape[0], mh.computed_heads, mh.computed_kv_heads)
        if needs != self._needs:
            self._needs = needs
            self.minimum_height.request()
        known = self._layouts.get(self._layout_key)
        if known is None:
            # Shorter labels first; only then the notes give their lines to the boxes.
            for notes_may_go, which in itertools.product((False, True), range(3)):
                lay = lay_out(self._variant(texts, which), notes_may_go)
                if lay.boxes >= 3 * line and not lay.squeezed:
                    break
            if len(self._layouts) >= LAYOUTS_KEPT:
                self._layouts.pop(next(iter(self._layouts)))
            known = self._layouts[self._layout_key] = (which, lay)
        which, lay = known
        self._lay = lay
        self.rects.clear()
        self.rects.update({k: QRectF(*r) for k, r in lay.rects.items()})
        for name, (x, y) in lay.labels.items():
            self.labels[name].setPos(x, y)
        for i, label in enumerate(self.head_labels):
            if i < lay.drawn:
                label.setPos(*lay.head_labels[i])
        self.view.setRange(QRectF(0, 0, w, h), padding=0)
        self._place_lines(mh)
        return which

    @property
    def diagram(self):
        """The diagram's current layout (multihead_layout.Layout, view pixels): its boxes,
        labels, head maps and outputs."""
        return self._lay

    def _needed_height(self) -> float:
        """The panel's height for readable maps (multihead_layout.needed_height): its
        title and margins, and the view's need, at most MINIMUM_VIEW_LINES lines and never
        more than the window's height (the window scrolls at most one screen for it)."""
        if self._needs is None:
            return 0.0
        width, line, texts, n, heads, kv = self._needs
        # What the height depends on: the texts' widths (the note's line count only), not
        # the digits a d_k step changes; a drag goes back and forth over a few of these.
        measure = self._measurer()
        widths = tuple((k, round(measure(t), 1)) for k, t in texts.items() if k != "note")
        key = (width, line, self._scale(), widths, texts["note"].count("\n"), n, heads, kv)
        view = self._heights.get(key)
        if view is None:
            view = needed_height(width, line, measure, texts, n, heads, kv,
                                 MAX_HEADS_DRAWN, MINIMUM_VIEW_LINES * line, not_drawn_text)
            if len(self._heights) >= LAYOUTS_KEPT:
                self._heights.pop(next(iter(self._heights)))
            self._heights[key] = view
        total = layout_minimum_px(self) - self.view.minimumHeight() + view
        window = self.window()
        return min(total, window.height()) if window is not self and window.height() > 0 else total

    def _place_lines(self, mh) -> None:
        """Block boundaries, where a block is at least 4 px wide (the colour strips and the
        highlight tie the blocks of a head together; links would cross one another)."""
        lay, rects = self._lay, self.rects
        h, g = mh.computed_heads, mh.computed_kv_heads
        s = lay.strip
        lines = []
        for name, count in (("w_q", h), ("q", h), ("concat", h), ("w_k", g), ("w_v", g),
                            ("k", g), ("v", g)):
            r = rects[name]
            if r.width() / count >= 4:
                for j in range(1, count):
                    x = r.left() + r.width() * j / count
                    lines += [(x, r.top() - s), (x, r.bottom())]
        r = rects["w_o"]
        if r.height() / h >= 4:
            for j in range(1, h):
                y = r.top() + r.height() * j / h
                lines += [(r.left() - s, y), (r.right(), y)]
        pts = np.array(lines or [(0, 0), (0, 0)], dtype=float)
        self.boundaries.setData(pts[:, 0], pts[:, 1])

    def _hide_collisions(self) -> None:
        """Hide every label that is empty, leaves the view or would cover one kept before it
        (LABEL_ORDER and the head numbers first): text never overlaps, even at 300 %."""
        bounds = QRectF(0, 0, *self._lay.size)
        kept: list = []
        # "+k heads not drawn" right after the head numbers: without it, a cramped view
        # would show fewer maps than heads and not say so.
        order = [self.labels[k] for k in LABEL_ORDER[:9]] + self.head_labels + \
            [self.labels["more"]] + [self.labels[k] for k in LABEL_ORDER[9:] if k != "more"]
        # While the mouse reads an entry, the readout stands where the note was.
        reading = self.readout_label.toPlainText() != ""
        order.remove(self.note_label if reading else self.readout_label)
        (self.note_label if reading else self.readout_label).setVisible(False)
        for i, label in enumerate(self.head_labels):
            label.setVisible(i < self._lay.drawn)
        for label in order:
            if not label.isVisible() and label in self.head_labels:
                continue
            box = label.rect().translated(label.pos())
            ok = bool(label.toPlainText()) and bounds.contains(box) and \
                not any(box.intersects(other) for other in kept)
            label.setVisible(ok)
            if ok:
                kept.append(box)

    # -- data ----------------------------------------------------------------
    def _show(self, item: MatrixItem, array: np.ndarray, limit: float | None, rect: QRectF,
              key: tuple | None = None) -> None:
        """The engine hands back the very same X and W arrays while only h moves, and
        colouring W_O (d_model² pixels) is the costliest image: an array already shown is
        only moved to its new slot. `key` names the numbers of a seeded matrix
        (MultiHeadResult.seeded_from with its name and shape): their colours are kept for
        the COLOURED_KEPT newest keys, so a width seen again (a drag going back, an
        unlocked d_k and back to 512) is not coloured again."""
        if item.values is array:
            item.place(rect)
            return
        index = self._coloured.get(key) if key is not None else None
        if index is None:
            if limit is None:   # the colour range of the entries drawn
                limit = float(np.max(np.abs(drawn_entries(array)))) or 1.0
            index = colour_index(drawn_entries(array), -limit, limit)
            if key is not None:
                self._coloured[key] = index
                if len(self._coloured) > COLOURED_KEPT:
                    self._coloured.popitem(last=False)
        else:
            self._coloured.move_to_end(key)
        item.show_indices(index, DIVERGING, array, rect)

    def _show_strips(self, mh) -> None:
        h, g, dk = mh.computed_heads, mh.computed_kv_heads, mh.computed_dk
        key = (h, g, self.theme)
        if key != self._words_key:
            self._words_key = key
            words = head_words([self.theme.head_colour(i) for i in range(h)])
            # K/V block j carries the colours of the h/g query heads that share it.
            for name in STRIPS:
                item = self.strips[name]
                item.show_words(words, np.arange(h)[None, :], QRectF(0, 0, 1, 1))
            self.w_o_strip.show_words(words.T.copy(), np.arange(h)[:, None], QRectF(0, 0, 1, 1))
            group = h // g
            self.blocks = {name: [(i * dk, (i + 1) * dk, (i,)) for i in range(h)]
                           for name in ("w_q", "q", "concat")}
            for name in ("w_k", "w_v", "k", "v"):
                self.blocks[name] = [(j * dk, (j + 1) * dk, tuple(range(j * group, (j + 1) * group)))
                                     for j in range(g)]
            self.blocks["w_o_rows"] = [(i * dk, (i + 1) * dk, (i,)) for i in range(h)]
        s = self._lay.strip
        for name in STRIPS:
            r = self.rects[name]
            self.strips[name].place(QRectF(r.left(), r.top() - s, r.width(), s - 1))
        r = self.rects["w_o"]
        self.w_o_strip.place(QRectF(r.left() - s, r.top(), s - 1, r.height()))

    def show_results(self, results) -> None:
        mh = results.multihead
        texts = self._texts(results)
        texts["note"] = "\n".join(self._wrap(line) for line in texts["note"])
        key = self._layout_signature(texts, mh)
        if key != self._layout_key:
            self._layout_key = key
            self._variant_shown = self._apply_layout(texts, mh)
        for name, text in self._variant(texts, self._variant_shown).items():
            self.set_text(self.labels[name], text)
        lay, rects = self._lay, self.rects
        drawn = lay.drawn
        hidden = mh.heads - drawn          # the layout may have room for fewer than 8 maps
        self.set_text(self.labels["more"], not_drawn_text(hidden) if hidden > 0 else "")
        group = mh.computed_heads // mh.computed_kv_heads
        q = concat_heads(mh.q)
        k, v = concat_heads(mh.k[::group]), concat_heads(mh.v[::group])
        lim_c = float(np.max(np.abs(mh.concat))) or 1.0
        arrays = {"x": (mh.x, 3.0), "w_q": (mh.w_q, None), "w_k": (mh.w_k, None),
                  "w_v": (mh.w_v, None), "w_o": (mh.w_o, None), "concat": (mh.concat, lim_c),
                  "output": (mh.output, float(np.max(np.abs(mh.output))) or 1.0)}
        for name, m in (("q", q), ("k", k), ("v", v)):
            arrays[name] = (m, float(np.max(np.abs(m))) or 1.0)
        seeded = mh.seeded_from
        for name, (array, limit) in arrays.items():
            key = (name, seeded, array.shape) if seeded is not None and name in SEEDED else None
            self._show(self.images[name], array, limit, rects[name], key)
        self._show_strips(mh)
        maps = colour_index(mh.weights[:drawn], 0.0, 1.0)
        outs = colour_index(mh.head_outputs[:drawn], -lim_c, lim_c)
        for i in range(MAX_HEADS_DRAWN):
            visible = i < drawn
            self.head_maps[i].setVisible(visible)
            self.head_outputs[i].setVisible(visible)
            if visible:
                self.head_maps[i].show_indices(maps[i], SEQUENTIAL, mh.weights[i],
                                               QRectF(*lay.maps[i]))
                self.head_outputs[i].show_indices(outs[i], DIVERGING, mh.head_outputs[i],
                                                  QRectF(*lay.outs[i]))
                self.set_text(self.head_labels[i], str(i + 1))
        if self.selected is not None and self.selected >= mh.computed_heads:
            self.selected = None
        key = (self._layout_key, drawn, tuple(lab.toPlainText() for lab in self.head_labels[:drawn]),
               self.labels["more"].toPlainText())
        if key != self._collision_key:
            self._collision_key = key
            self._hide_collisions()
        self._show_highlight()
