"""The lesson's layers × heads picture: one cell per attention head of a published model.

    preset_for(params) -> ModelPreset   the preset the controls' shape is (exactly, then by
                                        shape alone), else Transformer base
    grid_sections(preset) -> [(kind, layers)]  encoder self, decoder self, cross (non-empty)
    LayersHeadsGrid                     `lessonLayersGrid`: rows = attention layers split by
                                        kind, columns = heads, every cell one pattern

The cells are drawn with QPainter in the widget's own font, so the picture follows the
text size; a section label that does not fit beside its cells goes on a line above them.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine import Params
from engine.presets import MODEL_PRESETS, ModelPreset, preset_by_slug

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import OKABE_ITO

FALLBACK = "transformer-base"
KIND_COLOURS = {"encoder": OKABE_ITO["sky"], "decoder": OKABE_ITO["orange"],
                "cross": OKABE_ITO["green"]}


def preset_for(params: Params) -> ModelPreset:
    """The published model whose shape the controls hold (with its cached layers when two
    share a shape, e.g. BERT base and GPT-2 small), else Transformer base."""
    shape = (params.d_model, params.heads, params.dk, params.kv_heads_used)
    same = [p for p in MODEL_PRESETS if (p.d_model, p.heads, p.dk, p.kv_heads) == shape]
    exact = [p for p in same if p.cached_layers == params.cached_layers]
    return (exact or same or [preset_by_slug(FALLBACK)])[0]


def grid_sections(preset: ModelPreset) -> list[tuple[str, int]]:
    """(kind, attention layers of that kind), in the order a token meets them."""
    return [(kind, n) for kind, n in (("encoder", preset.encoder_layers),
                                      ("decoder", preset.decoder_layers),
                                      ("cross", preset.cross_layers)) if n]


def kind_names() -> dict[str, str]:
    return {"encoder": tr("encoder self"), "decoder": tr("decoder self"),
            "cross": tr("cross")}


def section_heights(layers: list[int], total: float, least: float) -> list[float]:
    """Heights proportional to the layer counts, each at least `least` (room for its label)
    while the total allows it."""
    fixed: set[int] = set()
    while True:
        free = total - least * len(fixed)
        rows = sum(n for i, n in enumerate(layers) if i not in fixed)
        heights = [least if i in fixed else free * n / rows for i, n in enumerate(layers)]
        short = {i for i, h in enumerate(heights) if h < least and i not in fixed}
        if not short or len(fixed | short) == len(layers) or free <= 0:
            return [max(h, 1.0) for h in heights]
        fixed |= short


class LayersHeadsGrid(QWidget):
    """`lessonLayersGrid` (see the module docstring)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("lessonLayersGrid")
        self.preset = preset_by_slug(FALLBACK)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.cells: list[tuple[str, QRectF]] = []   # the last paint's cell rectangles
        self.labels: list[tuple[str, QRectF]] = []  # … and its text rectangles

    def set_preset(self, preset: ModelPreset) -> None:
        if preset != self.preset:
            self.preset = preset
            self.update()

    def caption(self) -> str:
        p = self.preset
        return tr("{name}: {layers} attention layers × {heads} heads = {total}").format(
            name=p.name, layers=p.attention_layers, heads=p.heads,
            total=f"{p.attention_heads_total:,}")

    @guarded(fallback=QSize(240, 60))
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        """As wide as 18 lines are tall; as tall as its minimum (it grows to the text beside
        it: an 8-line hint made the strip taller than a projector's share for it)."""
        line = QFontMetrics(self.font()).height()
        return QSize(18 * line, 4 * line)

    @guarded(fallback=QSize(120, 60))
    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt naming)
        """Four lines: the caption and three thin bands of cells fit the compact strip of a
        projector at 300 % (layout_cells puts long names on a line of their own)."""
        line = QFontMetrics(self.font()).height()
        return QSize(10 * line, 4 * line)

    #: Sizes of the widget's font tried in turn, largest first: at 300 % text in a
    #: projector's strip the labels alone filled the picture and left its cells no room.
    FONT_FACTORS = (1.0, 0.8, 0.65, 0.5)

    def fitted_layout(self, width: float, height: float):
        """(font, labels, cells) in the largest FONT_FACTORS size whose layout leaves every
        block of cells at least half a line tall and ends within `height`."""
        for factor in self.FONT_FACTORS:
            font = QFont(self.font())
            font.setPointSizeF(self.font().pointSizeF() * factor)
            labels, cells = self.layout_cells(width, height, font)
            line = QFontMetrics(font).height()
            bottom = max((r.bottom() for _, r in labels + cells), default=0.0)
            thinnest = min((r.height() * n for (kind, r), n in self._block_rows(cells)),
                           default=line)
            if bottom <= height + 0.5 and thinnest >= line / 2:
                break
        return font, labels, cells

    def _block_rows(self, cells):
        """(a cell of each block, the block's layer count)."""
        counts = dict(grid_sections(self.preset))
        firsts = {}
        for kind, rect in cells:
            firsts.setdefault(kind, (kind, rect))
        return [(first, counts[kind]) for kind, first in firsts.items()]

    def layout_cells(self, width: float, height: float, font: QFont | None = None):
        """Caption, section labels and cells for a width × height area (pixels), in `font`
        (the widget's by default)."""
        metrics = QFontMetrics(font or self.font())
        line = metrics.height()
        caption = self.caption()
        if metrics.horizontalAdvance(caption) <= width:
            labels = [(caption, QRectF(0, 0, width, line))]
        else:                             # the name, then the count on a line of its own
            p = self.preset
            count = f"{p.attention_layers} × {p.heads} = {p.attention_heads_total:,}"
            labels = [(metrics.elidedText(p.name, Qt.TextElideMode.ElideRight, int(width)),
                       QRectF(0, 0, width, line)), (count, QRectF(0, line, width, line))]
        caption_lines = len(labels)
        sections = grid_sections(self.preset)
        names = kind_names()
        texts = [f"{names[kind]} ×{n}" for kind, n in sections]
        label_w = max(metrics.horizontalAdvance(t) for t in texts) + line // 2
        above = label_w > width * 0.6     # too narrow beside the cells: each label above its block
        if above:
            label_w = 0
        top, gap = line * (caption_lines + 0.25), max(2.0, line * 0.25)
        area_h = max(1.0, height - top - gap * (len(sections) - 1)
                     - (line * len(sections) if above else 0))
        cell_w = max(1.0, width - label_w) / self.preset.heads
        heights = section_heights([n for _, n in sections], area_h, 0.0 if above else line)
        cells = []
        y = top
        for index, ((kind, n), block_h) in enumerate(zip(sections, heights)):
            if above:
                labels.append((metrics.elidedText(texts[index], Qt.TextElideMode.ElideRight,
                                                  int(width)), QRectF(0, y, width, line)))
                y += line
            else:
                labels.append((texts[index], QRectF(0, y, label_w, block_h)))
            for layer in range(n):
                for head in range(self.preset.heads):
                    cells.append((kind, QRectF(label_w + head * cell_w, y + layer * block_h / n,
                                               cell_w, block_h / n)))
            y += block_h + gap
        return labels, cells

    @guarded
    def paintEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        painter = QPainter(self)
        try:
            font, self.labels, self.cells = self.fitted_layout(float(self.width()),
                                                               float(self.height()))
            painter.setFont(font)
            text = self.palette().color(QPalette.ColorRole.WindowText)
            painter.setPen(text)
            for label, rect in self.labels:
                painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                                 label)
            painter.setPen(Qt.PenStyle.NoPen)
            for kind, rect in self.cells:
                inset = 0.5 if min(rect.width(), rect.height()) >= 4 else 0.0
                painter.fillRect(rect.adjusted(inset, inset, -inset, -inset),
                                 QColor(KIND_COLOURS[kind]))
        finally:
            painter.end()
