"""The thumbnails of a layers × heads grid, drawn by one item (the grids of head_grid.py and
compare_grid.py).

Cell (layer ℓ, head h) spans x ∈ x0 + [h, h+1], y ∈ y0 + [ℓ, ℓ+1] of a view read top-down.
Its thumbnail is the head's n×n map (weight w in [0, 1]) coloured by a 256-step ramp from
the background to the colour of the head's role (colour round(255·w)), inside a frame of
that colour.

All L·h maps are coloured at once into one mosaic image, (L·n) × (h·n) RGB, cell (ℓ, h) at
rows ℓ·n … ℓ·n + n − 1 and columns h·n … h·n + n − 1. ThumbnailMosaic is one item for the
whole grid, whatever its size (72 image items and 72 frames for MiniLM before), and a new
sentence is one new image, not an update of every item. It paints the mosaic stretched over
the grid in one call, the margins between thumbnails as lines of the background colour
along the cell borders, and the frames as one rectangle list per role.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from gui.common.guard import guarded
from gui.common.style import ROLE_COLOURS
from gui.panels.matrix_item import colour_index

MARGIN = 0.09      # of a cell, around its thumbnail
FRAME_PX = 3.0
SELECTED_PX = 3.0
#: Room around the cells in the bounding rectangle, in cells: the frames' cosmetic pens
#: reach FRAME_PX / 2 beyond their rectangles, and a cell is at least ~17 px tall.
BOUNDS_PAD = 0.25


def role_colormap(colour: str, background: str) -> pg.ColorMap:
    return pg.ColorMap([0.0, 1.0], [background, colour])


def mosaic_of(maps: np.ndarray, role_index: np.ndarray, tables: np.ndarray) -> np.ndarray:
    """maps (L, h, n, n) in [0, 1], role_index (L, h) into tables (R, 256, 4) RGBA →
    the mosaic (L·n, h·n, 4) uint8 described in the module docstring. Each colour is looked
    up as one 32-bit word (the 4 bytes in place), not as a table row per pixel."""
    layers, heads, n = maps.shape[0], maps.shape[1], maps.shape[-1]
    words = np.ascontiguousarray(tables, dtype=np.uint8).view(np.uint32).reshape(-1)
    index = colour_index(maps, 0.0, 1.0).astype(np.intp)
    index += 256 * role_index[:, :, None, None]
    rgba = words.take(index.transpose(0, 2, 1, 3))            # (L, n, h, n) words
    return rgba.reshape(layers * n, heads * n).view(np.uint8).reshape(layers * n, heads * n, 4)


class ThumbnailMosaic(QGraphicsItem):
    """Paints the mosaic's cells into their rectangles and the role frames (see the module
    docstring). Lives in a ViewBox: its coordinates are the view's."""

    def __init__(self):
        super().__init__()
        self.setZValue(5)
        self.origin = (0.0, 0.0)
        self.grid_shape = (0, 0)   # (layers, heads); not `shape`, QGraphicsItem.shape()
        self.n = 0
        self.image: QImage | None = None
        self.frames: list[tuple[QPen, list[QRectF]]] = []   # (pen, rectangles) per role
        self._frames_of = None   # the (colour, cells) list the frames were made from
        self.gaps: list[QLineF] = []
        self.gaps_pen = QPen(Qt.PenStyle.NoPen)
        self._bounds = QRectF()

    def place(self, origin: tuple[float, float], shape: tuple[int, int]) -> None:
        """Cells of a `shape` = (layers, heads) grid from `origin` = (x0, y0)."""
        if (origin, shape) == (self.origin, self.grid_shape):
            return
        self.prepareGeometryChange()
        self.origin, self.grid_shape = origin, shape
        x0, y0 = origin
        layers, heads = shape
        self._bounds = QRectF(x0 - BOUNDS_PAD, y0 - BOUNDS_PAD,
                              heads + 2 * BOUNDS_PAD, layers + 2 * BOUNDS_PAD)
        self.frames, self._frames_of = [], None
        self.image = None
        # The margins between thumbnails: a line 2·MARGIN wide along every cell border.
        right, bottom = x0 + heads, y0 + layers
        self.gaps = ([QLineF(x0 + head, y0, x0 + head, bottom) for head in range(heads + 1)]
                     + [QLineF(x0, y0 + layer, right, y0 + layer) for layer in range(layers + 1)])

    def cell_rect(self, layer: int, head: int, inset: float) -> QRectF:
        x0, y0 = self.origin
        return QRectF(x0 + head + inset, y0 + layer + inset, 1 - 2 * inset, 1 - 2 * inset)

    def set_mosaic(self, mosaic: np.ndarray, n: int, frames, background: str) -> None:
        """The mosaic (L·n, h·n, 4) uint8, [(colour, [(layer, head), …]), …] and the
        background (the margins' colour)."""
        rows, columns = mosaic.shape[:2]
        self.n = n
        if self.gaps_pen.color().name() != QColor(background).name():
            self.gaps_pen = QPen(QColor(background), 2 * MARGIN)   # in cells, not pixels
            self.gaps_pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        self.image = QImage(mosaic.data, columns, rows, mosaic.strides[0],
                            QImage.Format.Format_RGBA8888).convertToFormat(
            QImage.Format.Format_RGB32)   # a copy Qt paints without converting it again
        if frames != self._frames_of:   # the same roles: the same frames
            self._frames_of = frames
            self.frames = []
            for colour, cells in frames:
                pen = QPen(QColor(colour), FRAME_PX)
                pen.setCosmetic(True)
                self.frames.append((pen, [self.cell_rect(layer, head, MARGIN / 2)
                                          for layer, head in cells]))
        self.update()

    @guarded(fallback=QRectF())
    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt naming)
        return self._bounds

    @guarded
    def paint(self, painter: QPainter, option, widget=None) -> None:
        image, n = self.image, self.n
        if image is None or not n:
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        x0, y0 = self.origin
        layers, heads = self.grid_shape
        painter.drawImage(QRectF(x0, y0, heads, layers), image)
        painter.setPen(self.gaps_pen)
        painter.drawLines(self.gaps)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen, rects in self.frames:
            painter.setPen(pen)
            painter.drawRects(rects)


class ThumbnailCells:
    """The thumbnails of one grid in `plot` (see the module docstring), from
    origin = (x0, y0), and a dashed outline on the selected cell: two items, updated in
    place. With fit, make() sets the view's range."""

    def __init__(self, plot: pg.PlotItem, origin=(0.0, 0.0), fit: bool = True):
        self.plot = plot
        self.x0, self.y0 = float(origin[0]), float(origin[1])
        self.fit = fit
        self.item = ThumbnailMosaic()
        self.item.setVisible(False)
        plot.addItem(self.item)
        self.roles: list[list[str]] = []
        self.selection = QGraphicsRectItem()
        self.selection.setZValue(10)
        self.selection.setBrush(QBrush(Qt.BrushStyle.NoBrush))
        self.selection.setVisible(False)
        plot.addItem(self.selection)
        self.selected: tuple[int, int] | None = None
        self._tables: dict[str, np.ndarray] = {}   # "role:background" → (256, 4) RGBA
        self.maps: np.ndarray | None = None   # (L, h, n, n): the weights drawn, as given
        self.mosaic: np.ndarray | None = None   # (L·n, h·n, 4): their colours
        self.background = ""

    @property
    def shape(self) -> tuple[int, int]:
        return self.item.grid_shape

    @property
    def visible(self) -> bool:
        return self.item.isVisible()

    def make(self, layers: int, heads: int) -> None:
        """Cells for a layers × heads grid at (x0, y0) (nothing drawn until show)."""
        self.item.place((self.x0, self.y0), (layers, heads))
        self.mosaic = None
        if self.fit:
            self.plot.setRange(xRange=(0, heads), yRange=(0, layers), padding=0.03)

    def show(self, maps: np.ndarray, roles: list[list[str]], background: str) -> None:
        """maps (L, h, n, n), roles [L][h] role ids; new cells if the shape changed."""
        layers, heads = maps.shape[:2]
        if self.shape != (layers, heads) or self.item.origin != (self.x0, self.y0):
            self.make(layers, heads)
        names = list(dict.fromkeys(role for row in roles for role in row))
        tables = np.stack([self.role_table(role, background) for role in names])
        index = np.array([[names.index(role) for role in row] for row in roles], dtype=np.intp)
        self.mosaic = mosaic_of(maps, index, tables)
        frames = [(ROLE_COLOURS[role], [(layer, head) for layer in range(layers)
                                        for head in range(heads) if roles[layer][head] == role])
                  for role in names]
        self.item.set_mosaic(self.mosaic, maps.shape[-1], frames, background)
        self.roles, self.maps, self.background = roles, maps, background
        self.item.setVisible(True)
        self.select(self.selected)

    def thumbnail(self, layer: int, head: int) -> np.ndarray:
        """The colours drawn in cell (layer, head): (n, n, 4) uint8, a view of the mosaic."""
        n = self.item.n
        return self.mosaic[layer * n:(layer + 1) * n, head * n:(head + 1) * n]

    def hide(self) -> None:
        self.item.setVisible(False)
        self.selection.setVisible(False)
        self.roles = []

    def select(self, cell: tuple[int, int] | None) -> None:
        """Outline `cell` (the head shown in the detail view); None: no outline."""
        self.selected = cell
        layers, heads = self.shape
        if cell is None or not self.roles or cell[0] >= layers or cell[1] >= heads:
            self.selection.setVisible(False)
            return
        rect = QRectF(self.x0 + cell[1], self.y0 + cell[0], 1, 1)
        if self.selection.rect() != rect:
            self.selection.setRect(rect)
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
        """The colour of the frame the mosaic item paints around cell (layer, head)."""
        rect = self.item.cell_rect(layer, head, MARGIN / 2)
        for pen, rects in self.item.frames:
            if rect in rects:
                return pen.color().name().upper()
        return ""

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
