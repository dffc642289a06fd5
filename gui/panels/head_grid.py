"""Every head of a pretrained model at once: layers down, heads across (BertViz's model view).

Cell (layer ℓ, head h) spans x ∈ [h, h+1], y ∈ [ℓ, ℓ+1] of one view (layer 0 at the top).
Its thumbnail is the head's n×n attention map (weight 0 → 1) drawn in a ramp from the
background to the colour of the head's detected role, inside a frame of that colour; the
legend above counts the roles. A click on a cell emits head_clicked(layer, head).

show_results takes a gui.model_heads.ModelHeadsResult; the items are made when the model's
shape (layers × heads) changes and updated in place for every new sentence.

CompareGrid, beside it, draws the same thumbnails for heads from elsewhere
(gui.model_heads.HeadSet): the training lab's learned heads (one "roles" run, layers × heads)
and the hand-built heads (one row), tinted by the same detector's role in the same colours.
A click emits compare_clicked(kind, layer, head).
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from .. import panel_names as names
from ..i18n import tr
from ..model_heads import role_names
from ..style import ROLE_COLOURS, plot_font
from .base import Panel, TitleLabel
from .label import Label
from .matrix_item import weights_rgba
from .text_fit import MinimumHeight, layout_minimum_px

MARGIN = 0.09      # of a cell, around its thumbnail
FRAME_PX = 3.0
SELECTED_PX = 3.0
GROUP_GAP = 0.6   # cells between the learned and the hand-built heads
#: The smallest thumbnail, in text lines of the tick font: the minimum height and width keep
#: cells this big (the window scrolls below it), whatever the text size.
CELL_LINES = 1.15
PANEL_MIN_WIDTH = 220   # Panel's own
KEY_SIZE = 0.85         # the compare grid's title and key, of the text size


def fit_cells_top_left(vb, columns: float, rows: float, pad: float = 0.05) -> None:
    """Square cells for a `columns` × `rows` grid in `vb` (y down), against the view's
    top-left corner and its axes; the spare room goes right and down (centred, as
    setAspectLocked puts it, the layer names stood far from their cells)."""
    rect = vb.boundingRect()
    w, h = rect.width(), rect.height()
    columns, rows = columns + 2 * pad, rows + 2 * pad
    if w <= 0 or h <= 0 or columns <= 0 or rows <= 0:
        return
    cell = min(w / columns, h / rows)
    vb.setRange(xRange=(-pad, w / cell - pad), yRange=(-pad, h / cell - pad), padding=0)


def legend_width(panel) -> float:
    """The width a legend line may take in `panel` (its label spans the panel)."""
    return max(panel.width() - 24.0, 60.0)


def cell_px(theme) -> float:
    return CELL_LINES * QFontMetricsF(plot_font(theme)).height()   # the left axis's font


def keep_cells_readable(panel, rows: float, columns: float) -> None:
    """A minimum width for `columns` cells of cell_px beside the left axis (the minimum
    height is panel.minimum_height's, for `rows` cells)."""
    panel.cell_rows = rows
    left = panel.plot.getAxis("left").width()
    width = int(left + columns * cell_px(panel.theme) + 16)
    if width > panel.minimumWidth():
        panel.setMinimumWidth(width)
    panel.minimum_height.request()


def add_minimum_height(panel) -> MinimumHeight:
    """Minimum height: the panel's texts and `panel.cell_rows` cells of cell_px."""
    panel.cell_rows = 1
    minimum = MinimumHeight(panel, lambda: layout_minimum_px(panel)
                            + panel.cell_rows * cell_px(panel.theme))
    panel.plot.vb.sigResized.connect(minimum.request)
    return minimum


def role_colormap(colour: str, background: str) -> pg.ColorMap:
    return pg.ColorMap([0.0, 1.0], [background, colour])


class ThumbnailCells:
    """The thumbnails of one grid in `plot`: cell (ℓ, h) spans x ∈ x0 + [h, h+1],
    y ∈ y0 + [ℓ, ℓ+1] ((x0, y0) = origin), its map in a ramp from the background to its
    role's colour inside a frame of that colour, and a dashed outline on the selected cell.
    Items are made per shape, updated in place. With fit, make() sets the view's range."""

    def __init__(self, plot: pg.PlotItem, origin=(0.0, 0.0), fit: bool = True):
        self.plot = plot
        self.x0, self.y0 = float(origin[0]), float(origin[1])
        self.fit = fit
        self.images: list[list[pg.ImageItem]] = []
        self.frames: list[list[QGraphicsRectItem]] = []
        self.roles: list[list[str]] = []
        self.selection = QGraphicsRectItem()
        self.selection.setZValue(10)
        self.selection.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self.selection.setVisible(False)
        plot.addItem(self.selection)
        self.selected: tuple[int, int] | None = None
        self._tables: dict[str, np.ndarray] = {}   # "role:background" → (256, 4) RGBA
        self.maps: np.ndarray | None = None   # (L, h, n, n): the weights drawn, as given
        self.background = ""
        self._shown_n: int | None = None    # tokens of the maps on screen

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.images), len(self.images[0]) if self.images else 0

    def make(self, layers: int, heads: int) -> None:
        for row in self.images + self.frames:
            for item in row:
                self.plot.removeItem(item)
        self.images, self.frames = [], []
        self._shown_n = None
        for layer in range(layers):
            images, frames = [], []
            for head in range(heads):
                frame = QGraphicsRectItem(QRectF(self.x0 + head + MARGIN / 2,
                                                 self.y0 + layer + MARGIN / 2,
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
        if self.fit:
            self.plot.setRange(xRange=(0, heads), yRange=(0, layers), padding=0.03)

    def show(self, maps: np.ndarray, roles: list[list[str]], background: str) -> None:
        """maps (L, h, n, n), roles [L][h] role ids; makes the items if the shape changed."""
        layers, heads = maps.shape[:2]
        if self.shape != (layers, heads):
            self.make(layers, heads)
        inner = 1 - 2 * MARGIN
        new_size = maps.shape[-1] != self._shown_n
        self._shown_n = maps.shape[-1]
        self.roles = roles
        self.maps, self.background = maps, background
        for layer in range(layers):
            for head in range(heads):
                role = roles[layer][head]
                image = self.images[layer][head]
                rgba = weights_rgba(maps[layer, head], self.role_table(role, background))
                if new_size:
                    image.setImage(rgba, autoLevels=False,
                                   rect=QRectF(self.x0 + head + MARGIN, self.y0 + layer + MARGIN,
                                               inner, inner))
                else:   # same n: the item's transform to its cell still holds
                    image.setImage(rgba, autoLevels=False)
                image.setVisible(True)
                pen = QPen(pg.mkColor(ROLE_COLOURS[role]), FRAME_PX)
                pen.setCosmetic(True)
                frame = self.frames[layer][head]
                frame.setPen(pen)
                frame.setVisible(True)
        self.select(self.selected)

    def hide(self) -> None:
        for row in self.images + self.frames:
            for item in row:
                item.setVisible(False)
        self.selection.setVisible(False)
        self.roles = []

    def select(self, cell: tuple[int, int] | None) -> None:
        """Outline `cell` (the head shown in the detail view); None: no outline."""
        self.selected = cell
        layers, heads = self.shape
        if cell is None or not self.roles or cell[0] >= layers or cell[1] >= heads:
            self.selection.setVisible(False)
            return
        self.selection.setRect(QRectF(self.x0 + cell[1], self.y0 + cell[0], 1, 1))
        self.selection.setVisible(True)

    def cell_at(self, scene_pos) -> tuple[int, int] | None:
        vb = self.plot.vb
        if not self.roles or not vb.sceneBoundingRect().contains(scene_pos):
            return None
        point = vb.mapSceneToView(scene_pos)
        layer, head = int(np.floor(point.y() - self.y0)), int(np.floor(point.x() - self.x0))
        layers, heads = self.shape
        return (layer, head) if 0 <= layer < layers and 0 <= head < heads else None

    def centre(self, layer: int, head: int):
        """Scene position of cell (layer, head)'s centre."""
        return self.plot.vb.mapViewToScene(pg.Point(self.x0 + head + 0.5, self.y0 + layer + 0.5))

    def frame_colour(self, layer: int, head: int) -> str:
        return self.frames[layer][head].pen().color().name().upper()

    def restyle(self, theme) -> None:
        pen = QPen(pg.mkColor(theme.foreground), SELECTED_PX, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self.selection.setPen(pen)
        self._tables.clear()

    def role_table(self, role: str, background: str) -> np.ndarray:
        """The role's colour map from the background to its colour, as 256 RGBA colours."""
        key = f"{role}:{background}"
        if key not in self._tables:
            self._tables[key] = role_colormap(ROLE_COLOURS[role], background).getLookupTable(
                0.0, 1.0, 256, alpha=True)
        return self._tables[key]


def role_legend(roles, names: dict[str, str], width: float = 0.0, font=None) -> str:
    """■ role count for each role present, in ROLE_COLOURS order (rich text). With a
    `width` in pixels and the `font`, the entries are packed into lines of that width and
    never broken inside (Qt breaks Japanese names anywhere, and ignores inline nowrap)."""
    counts: dict[str, int] = {}
    for row in roles:
        for role in row:
            counts[role] = counts.get(role, 0) + 1
    shown = [role for role in ROLE_COLOURS if counts.get(role)]
    entries = [f'<span style="color:{ROLE_COLOURS[role]}">■</span>&nbsp;'
               f'{names[role].replace(" ", "&nbsp;")}&nbsp;{counts[role]}' for role in shown]
    if not width or font is None:
        return " &nbsp; ".join(entries)
    fm = QFontMetricsF(font)
    gap = fm.horizontalAdvance("   ")
    lines, line, used = [], [], 0.0
    for role, entry in zip(shown, entries):
        size = fm.horizontalAdvance(f"■ {names[role]} {counts[role]}")
        if line and used + gap + size > width:
            lines.append(line)
            line, used = [], 0.0
        used += (gap if line else 0.0) + size
        line.append(entry)
    lines.append(line)
    return "<br>".join(" &nbsp; ".join(line) for line in lines if line)


def style_grid_plot(panel: Panel, plot: pg.PlotItem) -> None:
    """The panel's plot style, and the head numbers' top axis a little smaller."""
    panel.style_plot(plot)
    top = plot.getAxis("top")
    top.setPen(panel.theme.foreground)
    top.setTextPen(panel.theme.foreground)
    top.setTickFont(plot_font(panel.theme, 0.85))


def add_thumbnail_plot(panel) -> pg.PlotItem:
    """Row 1 of `panel`: a fixed, square-celled view read top-down, labelled along the top."""
    plot = panel.addPlot(row=1, col=0)
    plot.setMouseEnabled(False, False)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.invertY(True)
    plot.setAspectLocked(True)
    plot.showAxis("top")
    plot.hideAxis("bottom")
    return plot


class HeadGrid(Panel):
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
    def images(self) -> list[list[pg.ImageItem]]:
        return self.cells.images

    @property
    def frames(self) -> list[list[QGraphicsRectItem]]:
        return self.cells.frames

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

    def _legend_text(self) -> str:
        return role_legend(self.roles, role_names(), legend_width(self),
                           plot_font(self.theme))

    def _set_legend(self, text: str) -> None:
        """The legend in the theme's colour and size; set only when one of them changes."""
        size = f"{self.theme.font_pt:.1f}pt"
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
        """As Panel's, but legend changes with every result (or mouse move): a device cache
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


class CompareGrid(Panel):
    """The training lab's learned heads and the hand-built heads, side by side, as thumbnails
    tinted like the pretrained grid's (see the module docstring).

    show_results takes (trained, hand), each a gui.model_heads.HeadSet or None."""

    compare_clicked = Signal(str, int, int)   # "trained" | "hand", layer, head

    KINDS = ("trained", "hand")

    def __init__(self, parent=None):
        super().__init__(names.HEAD_COMPARE, parent)

    def build(self) -> None:
        # One view: the learned heads on the left (layers down), the hand-built heads on the
        # right, one row centred beside them; the title above names both, the key below.
        self.title = self.add_title(row=0)
        self.plot = add_thumbnail_plot(self)
        self.key = TitleLabel()
        self.addItem(self.key, row=2, col=0)
        self.ci.layout.setRowStretchFactor(1, 1)
        self.cells = {"trained": ThumbnailCells(self.plot, fit=False),
                      "hand": ThumbnailCells(self.plot, fit=False)}
        self.sets: dict = {"trained": None, "hand": None}
        self.scene().sigMouseClicked.connect(self._on_click)
        self.minimum_height = add_minimum_height(self)
        self.plot.vb.sigResized.connect(self._on_view_resized)

    @Slot()
    def _on_view_resized(self) -> None:
        self._fit_range()
        self._update_texts()   # the key's lines at the new width

    def _fit_range(self) -> None:
        (tl, th), (hl, hh) = self._shapes()
        fit_cells_top_left(self.plot.vb, th + GROUP_GAP + hh, max(tl, hl))

    def show_results(self, sets) -> None:
        self.sets = dict(zip(self.KINDS, sets))
        self._place()
        for kind, heads in self.sets.items():
            cells = self.cells[kind]
            if heads is None:
                cells.hide()
                continue
            if cells.shape != (heads.layers, heads.heads):
                cells.make(heads.layers, heads.heads)
            roles = [[heads.role(layer, head).role for head in range(heads.heads)]
                     for layer in range(heads.layers)]
            cells.show(heads.maps, roles, self.theme.background)
        self._set_ticks()
        self._update_texts()

    def _shapes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(layers, heads) of the learned and the hand-built heads; a roles run's default
        2 × 4 and the six rules while there are none, so the layout does not jump."""
        trained, hand = self.sets["trained"], self.sets["hand"]
        return ((trained.layers, trained.heads) if trained is not None else (2, 4),
                (hand.layers, hand.heads) if hand is not None else (1, 6))

    def _place(self) -> None:
        """The hand-built row right of the learned heads, centred on their height."""
        (tl, th), (hl, hh) = self._shapes()
        hand = self.cells["hand"]
        origin = (th + GROUP_GAP, max(0.0, (tl - hl) / 2))
        if (hand.x0, hand.y0) != origin:
            hand.x0, hand.y0 = origin
            hand.make(*hand.shape)       # the items again, at their new place
        width, height = th + GROUP_GAP + hh, max(tl, hl)
        if self._shown.get((self.plot, "range")) != (width, height):
            self._shown[self.plot, "range"] = (width, height)
            self._fit_range()
            keep_cells_readable(self, height, width)

    def _set_ticks(self) -> None:
        trained, hand = self.cells["trained"], self.cells["hand"]
        top = [(h + 0.5, str(h)) for h in range(trained.shape[1])]
        top += [(hand.x0 + h + 0.5, str(h + 1)) for h in range(hand.shape[1])]
        self.set_ticks(self.plot.getAxis("top"), top)
        self.set_ticks(self.plot.getAxis("left"), [(layer + 0.5, tr("L{i}").format(i=layer))
                                                   for layer in range(trained.shape[0])])

    def select(self, kind: str | None, layer: int = 0, head: int = 0) -> None:
        """Outline the head of `kind` shown in the detail view; None: none of these."""
        for name, cells in self.cells.items():
            cells.select((layer, head) if name == kind else None)

    @property
    def selected(self) -> tuple[str, int, int] | None:
        for kind, cells in self.cells.items():
            if cells.selected is not None:
                return (kind, *cells.selected)
        return None

    def role_at(self, kind: str, layer: int, head: int) -> str:
        return self.cells[kind].roles[layer][head]

    def frame_colour(self, kind: str, layer: int, head: int) -> str:
        return self.cells[kind].frame_colour(layer, head)

    def cell_centre(self, kind: str, layer: int, head: int):
        """Where a cell is in widget pixels (tests click there)."""
        return self.mapFromScene(self.cells[kind].centre(layer, head))

    @Slot(object)
    def _on_click(self, event) -> None:
        for kind, cells in self.cells.items():
            cell = cells.cell_at(event.scenePos())
            if cell is not None:
                self.compare_clicked.emit(kind, *cell)
                return

    # -- texts ---------------------------------------------------------------------
    def _update_texts(self) -> None:
        names = role_names()
        trained, hand = self.sets["trained"], self.sets["hand"]
        if trained is None:
            left = tr("Left: trained from scratch, no run yet (Training tab → “Heads specialise” "
                      "→ Start)")
        else:
            left = tr("Left: trained from scratch (step {step})").format(step=trained.step)
        random = hand is not None and hand.own_roles[:1] == ("random",)
        right = (tr("right: random heads (seeded, untrained)") if random else
                 tr("right: hand-built heads"))
        self.title_text = f"<b>{left}</b> · <b>{right}</b>"
        parts = []
        roles = self.cells["trained"].roles + self.cells["hand"].roles
        if roles:
            parts.append(role_legend(roles, names, legend_width(self),
                                     plot_font(self.theme, KEY_SIZE)))
        if hand is None:
            parts.append(tr("Hand-built heads: type a sentence"))
        self.key_text = "<br>".join(parts) or " "
        size = f"{self.theme.font_pt * KEY_SIZE:.1f}pt"   # small: the thumbnails need the room
        self._set_label(self.title, self.title_text, size)
        self._set_label(self.key, self.key_text, size)

    def _set_label(self, label, text: str, size: str) -> None:
        colour = self.theme.foreground
        if self._shown.get((label, "label")) != (text, colour, size):
            self._shown[label, "label"] = (text, colour, size)
            label.setText(text, color=colour, size=size)

    def cache_text(self) -> None:
        """As Panel's, but the title and the key change with every sentence."""
        super().cache_text()
        for label in (self.title, self.key):
            label.item.setCacheMode(QGraphicsItem.CacheMode.NoCache)

    def restyle(self) -> None:
        style_grid_plot(self, self.plot)
        for cells in self.cells.values():
            cells.restyle(self.theme)
        (tl, th), (hl, hh) = self._shapes()
        self.setMinimumWidth(PANEL_MIN_WIDTH)
        self.minimum_height.reset()
        keep_cells_readable(self, max(tl, hl), th + GROUP_GAP + hh)

    def retranslate(self) -> None:
        self._shown.pop((self.plot.getAxis("left"), "ticks"), None)
        self._set_ticks()
        self._update_texts()
