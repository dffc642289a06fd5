"""Every head of a pretrained model at once: layers down, heads across (BertViz's model view).

Cell (layer ℓ, head h) spans x ∈ [h, h+1], y ∈ [ℓ, ℓ+1] of one view (layer 0 at the top).
Its thumbnail is the head's n×n attention map (weight 0 → 1) drawn in a ramp from the
background to the colour of the head's detected role, inside a frame of that colour
(thumbnail_cells.ThumbnailCells: one item for all of them); the legend above counts the
roles. A click on a cell emits head_clicked(layer, head).

show_results takes a gui.realheads.study.ModelHeadsResult: a new sentence is one new mosaic
image; the layer and head labels are set again only when the shape or the view changes.

The heads from elsewhere (the training lab's, the hand-built ones) are compare_grid.py's.
"""
from __future__ import annotations

import math

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QGraphicsItem

from gui.common import names
from gui.common.i18n import tr
from gui.common.names import role_names
from gui.common.style import plot_font
from gui.panels.base import Plot
from gui.panels.grid_common import (PANEL_MIN_WIDTH, add_minimum_height, add_thumbnail_plot,
                                   fit_cells_top_left, keep_cells_readable, legend_width,
                                   role_legend, set_fit_room, style_grid_plot)
from gui.panels.thumbnail_cells import ThumbnailCells

ROOM_LEGEND_SIZE = 0.85   # the legend's text when fitting the room (presentation)


class HeadGrid(Plot):
    """layers × heads thumbnails tinted by role (see the module docstring)."""

    head_clicked = Signal(int, int)   # layer, head

    def __init__(self, parent=None):
        super().__init__(names.HEAD_GRID, parent)

    def build(self) -> None:
        self.legend = self.add_title(row=0)
        self.plot = add_thumbnail_plot(self)
        self.plot.getAxis("top").setLabel("")
        self.ci.layout.setRowStretchFactor(1, 1)
        self.cells = ThumbnailCells(self.plot)
        self.cells.selected = (0, 0)
        self.scene().sigMouseClicked.connect(self._on_click)
        self.plot.vb.sigResized.connect(self._on_view_resized)
        self.minimum_height = add_minimum_height(self)

    @property
    def roles(self) -> list[list[str]]:
        return self.cells.roles

    @property
    def selected(self) -> tuple[int, int] | None:
        return self.cells.selected

    # -- results -------------------------------------------------------------------
    def show_results(self, result) -> None:
        if result.forward is None:
            self.cells.hide()
            self._set_legend(" ")
            self._no_ticks()
            return
        layers, heads = result.layers, result.heads
        if self.cells.shape != (layers, heads):
            self.cells.make(layers, heads)
            self._fit_range()
            keep_cells_readable(self, layers, heads)
        roles = [[result.role(layer, head).role for head in range(heads)]
                 for layer in range(layers)]
        self.cells.show(result.forward.attentions, roles, self.theme.background)
        self._thin_ticks()
        self._set_legend(self._legend_text())

    def set_fit_room(self, on: bool) -> None:
        """Cells as small as the room needs and a smaller legend (presentation), or
        readable cells (windowed)."""
        set_fit_room(self, on)
        if self.roles:
            self._set_legend(self._legend_text())

    def set_selected(self, layer: int, head: int) -> None:
        """Outline the head shown in the detail view."""
        self.cells.select((layer, head))

    def clear_selection(self) -> None:
        """No outline: the detail view shows a head from elsewhere (CompareGrid)."""
        self.cells.select(None)

    def role_at(self, layer: int, head: int) -> str:
        return self.roles[layer][head]

    def frame_colour(self, layer: int, head: int) -> str:
        return self.cells.frame_colour(layer, head)

    def _legend_size(self) -> float:
        """The legend's text, of the text size: smaller when fitting the room (at 300 %
        on 1280 × 720 its three lines took a third of the page)."""
        return ROOM_LEGEND_SIZE if self.fitting_room else 1.0

    def _legend_text(self) -> str:
        return role_legend(self.roles, role_names(), legend_width(self, self.legend),
                           plot_font(self.theme, self._legend_size()))

    def _set_legend(self, text: str) -> None:
        """The legend in the theme's colour and size; set only when one of them changes."""
        size = f"{self.theme.font_pt * self._legend_size():.1f}pt"
        if self._shown.get((self.legend, "legend")) != (text, size, self.theme.foreground):
            self._shown[self.legend, "legend"] = (text, size, self.theme.foreground)
            self.legend.setText(text, color=self.theme.foreground, size=size)

    # -- clicks --------------------------------------------------------------------
    @Slot(object)
    def _on_click(self, event) -> None:
        cell = self.cells.cell_at(event.scenePos())
        if cell is not None:
            self.head_clicked.emit(*cell)

    def cell_centre(self, layer: int, head: int):
        """Where cell (layer, head) is in widget pixels (tests click there)."""
        return self.mapFromScene(self.cells.centre(layer, head))

    def cache_text(self) -> None:
        """As Plot's, but legend changes with every result (or mouse move): a device cache
        would only be rebuilt each time, and after a font change it was not repainted."""
        super().cache_text()
        self.legend.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    # -- style ---------------------------------------------------------------------
    def restyle(self) -> None:
        style_grid_plot(self, self.plot)
        self.cells.restyle(self.theme)
        self._thin_ticks()
        self.setMinimumWidth(PANEL_MIN_WIDTH)
        self.minimum_height.reset()
        keep_cells_readable(self, *(self.cells.shape if self.cells.shape[0] else (1, 1)))

    def retranslate(self) -> None:
        self._thin_ticks()
        self._set_legend(self._legend_text() if self.roles else " ")

    def _fit_range(self) -> None:
        layers, heads = self.cells.shape
        if layers:
            fit_cells_top_left(self.plot.vb, heads, layers)

    def _no_ticks(self) -> None:
        """No model shown: no layer or head numbers (nor pyqtgraph's 0 … 1)."""
        for name in ("top", "left"):
            self.set_ticks(self.plot.getAxis(name), [])

    @Slot()
    def _on_view_resized(self) -> None:
        self._fit_range()
        self._thin_ticks()
        if self.roles:
            self._set_legend(self._legend_text())   # lines of the new width

    @Slot()
    def _thin_ticks(self) -> None:
        """Label every k-th layer and head, k chosen so that labels never overlap: at 300 %
        text on a small tab a cell is narrower than "10" and shorter than a line."""
        layers, heads = self.cells.shape
        if not layers or not self.roles:
            self._no_ticks()
            return
        rect = self.plot.vb.boundingRect()
        cell = max(1.0, min(rect.width() / heads, rect.height() / layers))
        metrics = QFontMetricsF(self.plot.getAxis("top").style.get("tickFont") or plot_font(self.theme))
        left_text = QFontMetricsF(self.plot.getAxis("left").style.get("tickFont") or plot_font(self.theme))
        across = math.ceil((metrics.horizontalAdvance(str(heads - 1)) + 6) / cell)
        down = math.ceil((left_text.height() + 2) / cell)
        self.set_ticks(self.plot.getAxis("top"),
                       [(h + 0.5, str(h)) for h in range(0, heads, max(1, across))])
        self.set_ticks(self.plot.getAxis("left"),
                       [(layer + 0.5, tr("L{i}").format(i=layer))
                        for layer in range(0, layers, max(1, down))])
