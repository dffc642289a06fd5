"""Every head of a pretrained model at once: layers down, heads across (BertViz's model view).

Cell (layer ℓ, head h) spans x ∈ [h, h+1], y ∈ [ℓ, ℓ+1] of one view (layer 0 at the top).
Its thumbnail is the head's n×n attention map (weight 0 → 1) drawn in a ramp from the
background to the colour of the head's detected role, inside a frame of that colour; the
legend above counts the roles. A click on a cell emits head_clicked(layer, head).

show_results takes a gui.model_heads.ModelHeadsResult; the items are made when the model's
shape (layers × heads) changes and updated in place for every new sentence.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from ..i18n import tr
from ..model_heads import role_names
from ..style import ROLE_COLOURS, plot_font
from .base import Panel

MARGIN = 0.09      # of a cell, around its thumbnail
FRAME_PX = 3.0
SELECTED_PX = 3.0


def role_colormap(colour: str, background: str) -> pg.ColorMap:
    return pg.ColorMap([0.0, 1.0], [background, colour])


class HeadGrid(Panel):
    """layers × heads thumbnails tinted by role (see the module docstring)."""

    head_clicked = Signal(int, int)   # layer, head

    def __init__(self, parent=None):
        super().__init__("headGrid", parent)

    def build(self) -> None:
        self.legend = self.add_title(row=0)
        self.plot = self.addPlot(row=1, col=0)
        self.plot.setMouseEnabled(False, False)
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.invertY(True)
        self.plot.setAspectLocked(True)
        self.plot.showAxis("top")
        self.plot.hideAxis("bottom")
        self.plot.getAxis("top").setLabel("")
        self.ci.layout.setRowStretchFactor(1, 1)
        self.images: list[list[pg.ImageItem]] = []
        self.frames: list[list[QGraphicsRectItem]] = []
        self.roles: list[list[str]] = []
        self.selection = QGraphicsRectItem()
        self.selection.setZValue(10)
        self.selection.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self.plot.addItem(self.selection)
        self.selected = (0, 0)
        self._maps: dict[str, pg.ColorMap] = {}
        self._tints: dict[tuple[int, int], tuple[str, str]] = {}   # what each image is tinted
        self._shown_n: int | None = None    # tokens of the maps on screen
        self.scene().sigMouseClicked.connect(self._on_click)

    # -- items ---------------------------------------------------------------------
    def _make_cells(self, layers: int, heads: int) -> None:
        for row in self.images:
            for image in row:
                self.plot.removeItem(image)
        for row in self.frames:
            for frame in row:
                self.plot.removeItem(frame)
        self.images, self.frames = [], []
        self._tints.clear()
        self._shown_n = None
        for layer in range(layers):
            images, frames = [], []
            for head in range(heads):
                frame = QGraphicsRectItem(QRectF(head + MARGIN / 2, layer + MARGIN / 2,
                                                 1 - MARGIN, 1 - MARGIN))
                frame.setBrush(QBrush(Qt.BrushStyle.NoBrush))
                frame.setZValue(5)
                image = pg.ImageItem(axisOrder="row-major")
                self.plot.addItem(image)
                self.plot.addItem(frame)
                images.append(image)
                frames.append(frame)
            self.images.append(images)
            self.frames.append(frames)
        self.plot.getAxis("left").setTicks(
            [[(layer + 0.5, tr("L{i}").format(i=layer)) for layer in range(layers)]])
        self.plot.getAxis("top").setTicks([[(head + 0.5, str(head)) for head in range(heads)]])
        self.plot.setRange(xRange=(0, heads), yRange=(0, layers), padding=0.03)

    def _colormap(self, role: str) -> pg.ColorMap:
        key = f"{role}:{self.theme.background}"
        if key not in self._maps:
            self._maps[key] = role_colormap(ROLE_COLOURS[role], self.theme.background)
        return self._maps[key]

    # -- results -------------------------------------------------------------------
    def show_results(self, result) -> None:
        if result.forward is None:
            for row in self.images:
                for image in row:
                    image.setVisible(False)
            for row in self.frames:
                for frame in row:
                    frame.setVisible(False)
            self.selection.setVisible(False)
            self.roles = []
            self._set_legend(" ")
            return
        layers, heads = result.layers, result.heads
        if (len(self.images), len(self.images[0]) if self.images else 0) != (layers, heads):
            self._make_cells(layers, heads)
        attn = result.forward.attentions
        inner = 1 - 2 * MARGIN
        new_size = attn.shape[-1] != self._shown_n
        self._shown_n = attn.shape[-1]
        self.roles = [[result.role(layer, head).role for head in range(heads)]
                      for layer in range(layers)]
        for layer in range(layers):
            for head in range(heads):
                role = self.roles[layer][head]
                image = self.images[layer][head]
                if self._tints.get((layer, head)) != (role, self.theme.background):
                    self._tints[layer, head] = (role, self.theme.background)
                    image.setColorMap(self._colormap(role))
                if new_size:
                    image.setImage(attn[layer, head], levels=(0.0, 1.0),
                                   rect=QRectF(head + MARGIN, layer + MARGIN, inner, inner))
                else:   # same n: the item's transform to its cell still holds
                    image.setImage(attn[layer, head], levels=(0.0, 1.0))
                image.setVisible(True)
                pen = QPen(pg.mkColor(ROLE_COLOURS[role]), FRAME_PX)
                pen.setCosmetic(True)
                frame = self.frames[layer][head]
                frame.setPen(pen)
                frame.setVisible(True)
        self._update_legend()
        self.set_selected(*self.selected)

    def set_selected(self, layer: int, head: int) -> None:
        """Outline the head shown in the detail view."""
        self.selected = (layer, head)
        if not self.images or layer >= len(self.images) or head >= len(self.images[0]):
            self.selection.setVisible(False)
            return
        self.selection.setRect(QRectF(head, layer, 1, 1))
        self.selection.setVisible(True)

    def role_at(self, layer: int, head: int) -> str:
        return self.roles[layer][head]

    def frame_colour(self, layer: int, head: int) -> str:
        return self.frames[layer][head].pen().color().name().upper()

    def _update_legend(self) -> None:
        names = role_names()
        counts: dict[str, int] = {}
        for row in self.roles:
            for role in row:
                counts[role] = counts.get(role, 0) + 1
        parts = [f'<span style="color:{ROLE_COLOURS[role]}">■</span>&nbsp;'
                 f'{names[role].replace(" ", "&nbsp;")}&nbsp;{counts[role]}'
                 for role in ROLE_COLOURS if counts.get(role)]
        self._set_legend(" &nbsp; ".join(parts))

    def _set_legend(self, text: str) -> None:
        """The legend in the theme's colour and size; set only when one of them changes."""
        size = f"{self.theme.font_pt:.1f}pt"
        if self._shown.get((self.legend, "legend")) != (text, size, self.theme.foreground):
            self._shown[self.legend, "legend"] = (text, size, self.theme.foreground)
            self.legend.setText(text, color=self.theme.foreground, size=size)

    # -- clicks --------------------------------------------------------------------
    @Slot(object)
    def _on_click(self, event) -> None:
        if not self.images:
            return
        vb = self.plot.vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        point = vb.mapSceneToView(event.scenePos())
        layer, head = int(np.floor(point.y())), int(np.floor(point.x()))
        if 0 <= layer < len(self.images) and 0 <= head < len(self.images[0]):
            self.head_clicked.emit(layer, head)

    def cell_centre(self, layer: int, head: int):
        """Where cell (layer, head) is in widget pixels (tests click there)."""
        scene = self.plot.vb.mapViewToScene(pg.Point(head + 0.5, layer + 0.5))
        return self.mapFromScene(scene)

    def cache_text(self) -> None:
        """As Panel's, but legend changes with every result (or mouse move): a device cache
        would only be rebuilt each time, and after a font change it was not repainted."""
        super().cache_text()
        self.legend.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    # -- style ---------------------------------------------------------------------
    def restyle(self) -> None:
        self.style_plot(self.plot)
        top = self.plot.getAxis("top")
        top.setPen(self.theme.foreground)
        top.setTextPen(self.theme.foreground)
        top.setTickFont(plot_font(self.theme, 0.85))
        pen = QPen(pg.mkColor(self.theme.foreground), SELECTED_PX, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self.selection.setPen(pen)
        self._maps.clear()

    def retranslate(self) -> None:
        if self.images:
            layers = len(self.images)
            self.plot.getAxis("left").setTicks(
                [[(layer + 0.5, tr("L{i}").format(i=layer)) for layer in range(layers)]])
        if self.roles:
            self._update_legend()
        else:
            self._set_legend(" ")
