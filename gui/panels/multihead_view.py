"""Panel 4: the multi-head pipeline drawn with the engine's real matrices.

X (n × d_model), split into h coloured column blocks of width d_k
  → per-head n×n attention weights → head outputs (n × d_k)
  → concat (n × d_model) → · W_O (d_model × d_model) → output (n × d_model).
At most MAX_HEADS_DRAWN heads are drawn; the rest are counted in a label.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsRectItem

from ..style import brush, pen, plot_font
from .base import Panel
from .label import Label
from ..i18n import tr

MAX_HEADS_DRAWN = 8
MAX_PIXELS = 256        # per side of a matrix image (W_O is d_model × d_model)
PIPE_WIDTH = 560.0      # width of X, concat and output in scene units
ROW_HEIGHT = 8.0        # scene units per token row
W_O_SIZE = 210.0
W_O_X = 620.0



def rgb32_table(name: str) -> np.ndarray:
    """A colormap as 256 packed 0xFFRRGGBB words (QImage.Format_RGB32)."""
    rgb = pg.colormap.get(name).getLookupTable(nPts=256, alpha=False).astype(np.uint32)
    return 0xFF000000 | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]


DIVERGING = rgb32_table("CET-D1")
SEQUENTIAL = rgb32_table("viridis")


def colour_image(values: np.ndarray, table: np.ndarray, low: float, high: float) -> np.ndarray:
    """Values (any shape) → RGB32 words of the same shape through a 256-entry table; values
    outside [low, high] take the end colours."""
    span = (high - low) or 1.0
    # In place, and the float array freed before the lookup allocates: fresh temporaries
    # of this size cost more in page faults than their arithmetic (4× faster in all).
    index = np.subtract(values, low, dtype=np.float64)
    index *= 255.0 / span
    index += 0.5
    np.clip(index, 0, 255, out=index)
    index = index.astype(np.uint8)
    return table.take(index)


def drawn_entries(values: np.ndarray) -> np.ndarray:
    """Every k-th row and column, so that no side is longer than MAX_PIXELS (a view)."""
    step_r = -(-values.shape[0] // MAX_PIXELS)
    step_c = -(-values.shape[1] // MAX_PIXELS)
    return values[::step_r, ::step_c]


class MatrixItem(QGraphicsPixmapItem):
    """A matrix as a nearest-neighbour pixmap stretched over a scene rectangle.

    Painting is Qt's own (no Python per frame) and the pixmap is already in the raster
    engine's native format. `values` keeps the numbers shown (tests read them back)."""

    def __init__(self):
        super().__init__()
        self.setTransformationMode(Qt.TransformationMode.FastTransformation)
        self.values: np.ndarray | None = None

    def show_values(self, values: np.ndarray, table: np.ndarray, low: float, high: float,
                    rect: QRectF) -> None:
        """Colour and show `values`. A side longer than MAX_PIXELS is drawn from every k-th
        row or column, which is what nearest-neighbour scaling onto a slot a few hundred
        pixels wide shows anyway; it keeps a d_model² W_O from costing milliseconds."""
        self.show_words(colour_image(drawn_entries(values), table, low, high), values, rect)

    def show_words(self, words: np.ndarray, values: np.ndarray, rect: QRectF) -> None:
        """Show colours already looked up by colour_image (several matrices can be coloured
        in one call); `values` are the numbers they stand for."""
        words = np.ascontiguousarray(words)
        rows, cols = words.shape
        image = QImage(words.data, cols, rows, 4 * cols, QImage.Format.Format_RGB32)
        self.setPixmap(QPixmap.fromImage(image))  # copies the words
        self.values = values
        self.place(rect)

    def place(self, rect: QRectF) -> None:
        """Stretch the current pixmap over `rect` (scene units)."""
        size = self.pixmap().size()
        self.setTransform(QTransform.fromScale(rect.width() / size.width(),
                                               rect.height() / size.height()))
        self.setPos(rect.topLeft())

    def pixels(self) -> np.ndarray:
        """The painted colours as (rows, cols) RGB32 words (tests)."""
        image = self.pixmap().toImage().convertToFormat(QImage.Format.Format_RGB32)
        words = np.frombuffer(image.constBits(), dtype=np.uint32)
        return words.reshape(image.height(), image.bytesPerLine() // 4)[:, :image.width()].copy()


def pipeline_layout(n: int, heads: int, drawn: int) -> dict:
    """Scene rectangles of every item for n tokens, `heads` column blocks and `drawn` heads."""
    h_rows = n * ROW_HEIGHT
    top = 30.0
    slot = PIPE_WIDTH / drawn
    size = min(slot - 16, 70.0)
    heads_y = top + h_rows + 40
    out_y = heads_y + size + 26
    concat_y = out_y + h_rows + 44
    output_y = concat_y + h_rows + 44
    block = PIPE_WIDTH / heads
    return {
        "x": QRectF(0, top, PIPE_WIDTH, h_rows),
        "blocks": [(i * block, block) for i in range(drawn)],
        "heads": [QRectF(slot * (i + 0.5) - size / 2, heads_y, size, size) for i in range(drawn)],
        "outs": [QRectF(slot * (i + 0.5) - (slot - 16) / 2, out_y, slot - 16, h_rows)
                 for i in range(drawn)],
        "concat": QRectF(0, concat_y, PIPE_WIDTH, h_rows),
        "output": QRectF(0, output_y, PIPE_WIDTH, h_rows),
        "w_o": QRectF(W_O_X, concat_y, W_O_SIZE, W_O_SIZE),
    }


class MultiHeadView(Panel):
    def __init__(self, parent=None):
        super().__init__("multiheadView", parent)

    def _image(self) -> MatrixItem:
        item = MatrixItem()
        self.view.addItem(item)
        return item

    def _text(self, anchor=(0, 1)) -> Label:
        item = Label(anchor=anchor)
        self.view.addItem(item, ignoreBounds=True)
        return item

    def _outline(self) -> QGraphicsRectItem:
        item = QGraphicsRectItem()
        self.view.addItem(item)
        return item

    def build(self) -> None:
        self.title = self.addLabel(row=0, col=0)
        self.view = self.addViewBox(row=1, col=0)
        self.view.invertY(True)
        self.view.setAspectLocked(True)
        self.view.setMouseEnabled(False, False)
        self.view.setMenuEnabled(False)
        self.x_image = self._image()
        self.concat_image = self._image()
        self.output_image = self._image()
        self.w_o_image = self._image()
        self.head_maps = [self._image() for _ in range(MAX_HEADS_DRAWN)]
        self.head_outputs = [self._image() for _ in range(MAX_HEADS_DRAWN)]
        self.x_blocks = [self._outline() for _ in range(MAX_HEADS_DRAWN)]
        self.concat_blocks = [self._outline() for _ in range(MAX_HEADS_DRAWN)]
        self.head_labels = [self._text((0.5, 1)) for _ in range(MAX_HEADS_DRAWN)]
        self.links = pg.PlotCurveItem(connect="pairs")
        self.view.addItem(self.links)
        self.x_label, self.concat_label = self._text(), self._text()
        self.output_label, self.w_o_label = self._text(), self._text()
        self.more_label = self._text((1, 1))
        self.note_label = self._text((0, 0))
        self._layout_key = None
        self._rects: dict = {}

    def restyle(self) -> None:
        font = plot_font(self.theme)
        backing = brush(self.theme.background, 220)  # labels stay readable over the link lines
        for item in (self.head_labels +
                     [self.x_label, self.concat_label, self.output_label, self.w_o_label,
                      self.more_label, self.note_label]):
            item.setColor(self.theme.foreground)
            item.setFont(font)
            item.setFill(backing)
            item.setZValue(10)
        self.links.setPen(pen(self.theme.foreground, self.theme, 0.4))
        for i, (a, b) in enumerate(zip(self.x_blocks, self.concat_blocks)):
            for block in (a, b):
                block.setPen(pen(self.theme.head_colour(i), self.theme, 1.2))

    def retranslate(self) -> None:
        self.set_title(self.title, tr("Multi-head attention with the engine's matrices"))

    # -- layout --------------------------------------------------------------
    def _apply_layout(self, lay: dict, drawn: int) -> None:
        self._rects = lay
        x_rect, c_rect = lay["x"], lay["concat"]
        for i in range(MAX_HEADS_DRAWN):
            visible = i < drawn
            for item in (self.head_maps[i], self.head_outputs[i], self.x_blocks[i],
                         self.concat_blocks[i], self.head_labels[i]):
                item.setVisible(visible)
            if not visible:
                continue
            left, width = lay["blocks"][i]
            self.x_blocks[i].setRect(QRectF(left, x_rect.top(), width, x_rect.height()))
            self.concat_blocks[i].setRect(QRectF(left, c_rect.top(), width, c_rect.height()))
            self.head_labels[i].setPos(lay["heads"][i].center().x(), lay["heads"][i].top() - 2)
        links = []
        for i in range(drawn):
            left, width = lay["blocks"][i]
            hm, out = lay["heads"][i], lay["outs"][i]
            links += [(left + width / 2, x_rect.bottom()), (hm.center().x(), hm.top() - 16),
                      (hm.center().x(), hm.bottom()), (out.center().x(), out.top()),
                      (out.center().x(), out.bottom() + 16), (left + width / 2, c_rect.top())]
        w_o = lay["w_o"]
        links += [(c_rect.right(), c_rect.center().y()), (w_o.left(), c_rect.center().y()),
                  (w_o.left(), lay["output"].center().y()), (lay["output"].right(), lay["output"].center().y())]
        pts = np.array(links, dtype=float)
        self.links.setData(pts[:, 0], pts[:, 1])
        self.x_label.setPos(0, x_rect.top() - 4)
        self.concat_label.setPos(0, c_rect.top() - 4)
        self.output_label.setPos(0, lay["output"].top() - 4)
        self.w_o_label.setPos(w_o.left(), w_o.top() - 4)
        self.more_label.setPos(PIPE_WIDTH, lay["heads"][0].top() - 16)
        bottom = max(lay["output"].bottom(), w_o.bottom())
        self.note_label.setPos(0, bottom + 8)  # under W_O too: a long note would run into it
        self.view.setRange(QRectF(-10, -10, W_O_X + W_O_SIZE + 20, bottom + 70), padding=0)

    # -- data ----------------------------------------------------------------
    @staticmethod
    def _show(item: MatrixItem, array: np.ndarray, limit: float | None, rect: QRectF) -> None:
        """The engine hands back the very same X and W_O arrays while only h moves, and
        colouring W_O (d_model² pixels) is the costliest image: an array already shown is
        only moved to its new slot."""
        if item.values is array:
            item.place(rect)
            return
        if limit is None:   # the colour range of the entries drawn (W_O: d_model² in all)
            limit = float(np.max(np.abs(drawn_entries(array)))) or 1.0
        item.show_values(array, DIVERGING, -limit, limit, rect)

    def show_results(self, results) -> None:
        mh = results.multihead
        n = mh.x.shape[0]
        drawn = min(mh.computed_heads, MAX_HEADS_DRAWN)
        key = (n, mh.computed_heads, drawn)
        if key != self._layout_key:
            self._layout_key = key
            self._apply_layout(pipeline_layout(n, mh.computed_heads, drawn), drawn)
        lim_x = 3.0
        lim_c = float(np.max(np.abs(mh.concat))) or 1.0
        lim_o = float(np.max(np.abs(mh.output))) or 1.0
        lay = self._rects
        self._show(self.x_image, mh.x, lim_x, lay["x"])
        self._show(self.concat_image, mh.concat, lim_c, lay["concat"])
        self._show(self.output_image, mh.output, lim_o, lay["output"])
        self._show(self.w_o_image, mh.w_o, None, lay["w_o"])
        maps = colour_image(mh.weights[:drawn], SEQUENTIAL, 0.0, 1.0)
        outs = colour_image(mh.head_outputs[:drawn], DIVERGING, -lim_c, lim_c)
        for i in range(drawn):
            self.head_maps[i].show_words(maps[i], mh.weights[i], lay["heads"][i])
            self.head_outputs[i].show_words(outs[i], mh.head_outputs[i], lay["outs"][i])
            # Beyond four heads the slots are too narrow for "head 5"; the number alone fits.
            self.set_text(self.head_labels[i], tr("head {i}").format(i=i + 1) if drawn <= 4 else str(i + 1))
        d, h, dk = mh.d_model, mh.heads, mh.dk
        self.set_text(self.x_label, tr("X  ({n} × {d}) = {h} blocks of d_k = {dk}").format(n=n, d=d, h=h, dk=dk))
        self.set_text(self.concat_label, tr("concat of {h} head outputs of {n} × {dk}  →  {n} × {d}")
                                  .format(h=h, n=n, dk=dk, d=d))
        self.set_text(self.output_label, tr("output = concat · W_O  ({n} × {d})").format(n=n, d=d))
        self.set_text(self.w_o_label, tr("W_O  ({d} × {d})").format(d=d))
        hidden = h - drawn
        self.set_text(self.more_label, tr("+{k} more heads not drawn").format(k=hidden) if hidden > 0 else "")
        scale = results.params.scale
        notes = [tr("attention: softmax(QKᵀ/√d_k)") if scale else tr("attention: softmax(QKᵀ), not scaled")]
        if results.params.causal:
            notes.append(tr("causal mask"))
        if mh.reduced:
            notes.append(tr("matrices drawn at reduced width {w} ({hc} × {dc}); shapes and costs are exact")
                         .format(w=mh.computed_heads * mh.computed_dk, hc=mh.computed_heads,
                                 dc=mh.computed_dk))
        self.set_text(self.note_label, "\n".join(notes))
