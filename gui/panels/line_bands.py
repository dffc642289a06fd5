"""The line view's lines (the Real heads detail, after BertViz's head view): a line joins
query i (x = LEFT_X) to key j (x = RIGHT_X) with opacity and width growing with A[i, j];
weights below LINE_MIN are not drawn. The lines are grouped into a few weight bands
(BANDS), each one QPainterPath in one path item, so new weights set len(BANDS) paths."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem

LINE_MIN = 0.02
#: Upper edges of the weight bands of the line view; each band is one item.
BANDS = (0.05, 0.1, 0.2, 0.4, 0.7, 1.0)
LEFT_X, RIGHT_X = 0.0, 1.0


def line_path(queries: np.ndarray, keys: np.ndarray) -> QPainterPath:
    """One path of lines from (LEFT_X, queries[k]) to (RIGHT_X, keys[k]), in view units."""
    xs = np.empty(2 * len(queries))
    ys = np.empty(2 * len(queries))
    xs[0::2], xs[1::2] = LEFT_X, RIGHT_X
    ys[0::2], ys[1::2] = queries, keys
    return pg.arrayToQPath(xs, ys, connect="pairs")


class LineBands:
    """One path item per weight band on `plot` (see the module docstring)."""

    def __init__(self, plot: pg.PlotItem):
        self.items = [QGraphicsPathItem() for _ in BANDS]
        for item in self.items:
            item.setBrush(QBrush())
            plot.addItem(item)
        self._style = None   # (colour, line width) the pens were made for

    def draw(self, weights: np.ndarray, rows: np.ndarray, colour: str, line_width: float) -> None:
        """The lines of `rows` of `weights` (n, n) in `colour`, pens `line_width` wide."""
        if (colour, line_width) != self._style:
            self._style = (colour, line_width)
            for item, high in zip(self.items, BANDS):
                c = QColor(colour)
                c.setAlphaF(min(1.0, 0.15 + 0.85 * high))
                item.setPen(pg.mkPen(c, width=max(1.0, 3.0 * high * line_width / 2)))
        block = weights[rows]
        qi, kj = np.nonzero(block > LINE_MIN)
        band = np.searchsorted(BANDS, block[qi, kj])   # (low, high] → the band of high
        for index, item in enumerate(self.items):
            mine = band == index
            item.setPath(line_path(rows[qi[mine]], kj[mine]))

    def clear(self) -> None:
        """No lines (no head shown)."""
        for item in self.items:
            item.setPath(QPainterPath())

    def drawn(self) -> list[list[tuple[float, float]]]:
        """Per band (BANDS), the (query, key) of every line its path draws, read back from
        the path (tests)."""
        out = []
        for item in self.items:
            path = item.path()
            out.append([(path.elementAt(k).y, path.elementAt(k + 1).y)
                        for k in range(0, path.elementCount() - 1, 2)])
        return out
