"""Matrices drawn as native pixmaps: values → 8-bit indices into a 256-colour table, an
indexed image Qt converts to its native format, and a pixmap item stretched over a scene
rectangle (the multi-head diagram draws every matrix this way)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsPixmapItem

MAX_PIXELS = 256        # per side of a matrix image (W_O is d_model × d_model)


def rgb32_table(name: str) -> np.ndarray:
    """A colormap as 256 packed 0xFFRRGGBB words (QImage.Format_RGB32)."""
    rgb = pg.colormap.get(name).getLookupTable(nPts=256, alpha=False).astype(np.uint32)
    return 0xFF000000 | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]


DIVERGING = rgb32_table("CET-D1")
SEQUENTIAL = rgb32_table("viridis")


def colour_index(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """Values (any shape) → uint8 indices 0…255 into a colour table, round((v − low)·255 /
    (high − low)), values outside [low, high] taking the ends. float32 arithmetic in place:
    fresh float64 temporaries cost more in casts and page faults than the arithmetic."""
    scale = 255.0 / ((high - low) or 1.0)
    index = np.multiply(values, scale, dtype=np.float32)
    index += 0.5 - low * scale
    np.clip(index, 0.0, 255.0, out=index)
    return index.astype(np.uint8)


def weights_rgba(weights: np.ndarray, rgba_table: np.ndarray) -> np.ndarray:
    """Attention weights (…) in [0, 1] → (…, 4) uint8 colours through a (256, 4) RGBA table:
    weight w takes colour round(255·w). An ImageItem handed RGBA draws it as it is; given a
    colour map and levels, pyqtgraph rescaled the map and rebuilt a 256-entry colour table in
    Python for every map, on every update."""
    return rgba_table[colour_index(weights, 0.0, 1.0)]


def colour_image(values: np.ndarray, table: np.ndarray, low: float, high: float) -> np.ndarray:
    """Values (any shape) → RGB32 words of the same shape through a 256-entry table (what
    MatrixItem.show_values paints; the item leaves the lookup to Qt)."""
    return table.take(colour_index(values, low, high))


_COLOUR_TABLES: dict[int, tuple[np.ndarray, list[int]]] = {}


def qt_colour_table(table: np.ndarray) -> list[int]:
    """The table as the list of ints QImage.setColorTable takes (kept per table)."""
    known = _COLOUR_TABLES.get(id(table))
    if known is None or known[0] is not table:
        known = _COLOUR_TABLES[id(table)] = (table, [int(word) for word in table])
    return known[1]


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
        self._indexed = None    # ((rows, cols, id(table)), the Indexed8 image reused)

    def show_values(self, values: np.ndarray, table: np.ndarray, low: float, high: float,
                    rect: QRectF) -> None:
        """Colour and show `values`. A side longer than MAX_PIXELS is drawn from every k-th
        row or column, which is what nearest-neighbour scaling onto a slot a few hundred
        pixels wide shows anyway; it keeps a d_model² W_O from costing milliseconds."""
        self.show_indices(colour_index(drawn_entries(values), low, high), table, values, rect)

    def show_indices(self, index: np.ndarray, table: np.ndarray, values: np.ndarray,
                     rect: QRectF) -> None:
        """Show uint8 indices from colour_index (rows, cols) through `table`; Qt converts
        the indexed image to its native format in one pass (numpy's take costs about
        three times as much, most of it casting the indices to intp)."""
        rows, cols = index.shape
        key = (rows, cols, id(table))
        if self._indexed is None or self._indexed[0] != key:
            image = QImage(cols, rows, QImage.Format.Format_Indexed8)
            image.setColorTable(qt_colour_table(table))   # a 256-int list: converted once
            self._indexed = (key, image)
        image = self._indexed[1]
        pixels = np.frombuffer(image.bits(), dtype=np.uint8)
        pixels.reshape(rows, image.bytesPerLine())[:, :cols] = index
        self.setPixmap(QPixmap.fromImage(image))  # converts, and copies
        self.values = values
        self.place(rect)

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
        if (rect, size) == getattr(self, "_placed", None):
            return
        self._placed = (QRectF(rect), size)
        self.setTransform(QTransform.fromScale(rect.width() / size.width(),
                                               rect.height() / size.height()))
        self.setPos(rect.topLeft())

    def pixels(self) -> np.ndarray:
        """The painted colours as (rows, cols) RGB32 words (tests)."""
        image = self.pixmap().toImage().convertToFormat(QImage.Format.Format_RGB32)
        words = np.frombuffer(image.constBits(), dtype=np.uint32)
        return words.reshape(image.height(), image.bytesPerLine() // 4)[:, :image.width()].copy()
