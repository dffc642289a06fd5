"""An axis that names the token of each cell of an n×n attention map (shared by the maps)."""
from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF

from gui.common.guard import guarded
from gui.panels import pg_compat

#: Longest token label drawn, in pixels (or 4.5 text heights, at large text); longer ones are
#: elided.
LABEL_MAX_PX = 70.0


def label_max_px(fm: QFontMetricsF) -> float:
    return max(LABEL_MAX_PX, 4.5 * fm.height())


class TokenAxis(pg.AxisItem):
    """An axis that writes one token under (or beside) each cell of an n×n map.

    Cell i spans [i, i+1] in view coordinates. Bottom labels are drawn rotated
    by 90° so long words never overlap; when the cells are smaller than the
    text height, only every k-th label is drawn. The axis size is fixed to the
    longest label (at most label_max_px).
    """

    def __init__(self, orientation: str):
        super().__init__(orientation)
        self.labels: list[str] = []
        #: (text, rectangle in the axis's coordinates) of the labels the last paint drew.
        self.drawn: list[tuple[str, QRectF]] = []
        self.setStyle(showValues=False, tickLength=4)

    def set_labels(self, labels: list[str]) -> None:
        self.labels = list(labels)
        self.setTicks([[(i + 0.5, "") for i in range(len(self.labels))]])
        self._fit()

    @guarded
    def setTickFont(self, font) -> None:  # noqa: N802 (Qt naming)
        super().setTickFont(font)
        self._fit()

    def _elided(self, fm: QFontMetricsF) -> list[str]:
        """The labels elided to label_max_px, kept while the labels and the font stay."""
        key = (tuple(self.labels), (pg_compat.tick_font(self) or self.font()).key())
        if getattr(self, "_elided_key", None) != key:
            self._elided_key = key
            self._elided_labels = [fm.elidedText(t, Qt.TextElideMode.ElideRight,
                                                 label_max_px(fm)) for t in self.labels]
        return self._elided_labels

    def _metrics(self) -> QFontMetricsF:
        return QFontMetricsF(pg_compat.tick_font(self) or self.font())

    def _fit(self) -> None:
        fm = self._metrics()
        labels = getattr(self, "labels", [])    # setTickFont may run inside AxisItem.__init__
        widest = max((fm.horizontalAdvance(s) for s in labels), default=0.0)
        size = int(math.ceil(min(widest, label_max_px(fm)))) + 10
        if self.orientation in ("left", "right"):
            self.setWidth(size)
        else:
            self.setHeight(size)
        pg_compat.forget_axis_picture(self)

    @guarded
    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs) -> None:  # noqa: N802
        # No axis line: the view is wider (or taller) than the map, and a line along the
        # empty part would suggest cells that are not there. Ticks mark the cells.
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setRenderHint(p.RenderHint.TextAntialiasing, True)
        for tick_pen, p1, p2 in tickSpecs:
            p.setPen(tick_pen)
            p.drawLine(p1, p2)
        view = self.linkedView()
        self.drawn = []
        if view is None or not self.labels:
            return
        fm = self._metrics()
        vertical = self.orientation in ("left", "right")
        # The view maps x (or y) to the axis linearly: two points give every label's place.
        p0, p1 = (self.mapFromScene(view.mapViewToScene(QPointF(v, v))) for v in (0.0, 1.0))
        origin, unit = (p0.y(), p1.y() - p0.y()) if vertical else (p0.x(), p1.x() - p0.x())

        def pos(v: float) -> float:
            return origin + v * unit

        spacing = abs(unit) or 1.0
        step = max(1, math.ceil(fm.height() * 0.9 / spacing))
        p.setPen(self.textPen())
        p.setFont(pg_compat.tick_font(self) or self.font())
        h = fm.height()
        gap = 4 + 3  # tick length + padding
        # A label's line is h tall across the axis: at the axis's ends it is moved inwards
        # (by less than half a line), else the end cells' names were cut off at 300 %.
        length = self.height() if vertical else self.width()
        elided = self._elided(fm)
        flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        across = self.height()
        if not vertical:
            # Text reads upwards and ends at the map. Rotated by −90°, the axis's point
            # (x, y) is (−y, x): a label's box at c spans x ∈ [−height, −gap].
            p.save()
            p.rotate(-90)
        for i in range(0, len(self.labels), step):
            text = elided[i]
            c = min(max(pos(i + 0.5), h / 2), max(h / 2, length - h / 2))
            if vertical:
                box = QRectF(0, c - h / 2, self.width() - gap, h)
                p.drawText(box, flags, text)
            else:
                p.drawText(QRectF(-across, c - h / 2, across - gap, h), flags, text)
                box = QRectF(c - h / 2, gap, h, across - gap)
            self.drawn.append((text, box))
        if not vertical:
            p.restore()


def fit_square_cells(vb, n: int) -> None:
    """Square cells for an n×n map in `vb`, the map in the view's bottom-left corner against
    its token axes. Like setAspectLocked(True), one data unit is as many pixels across as
    down; the spare room goes to the right and the top instead of both sides, so the labels
    stay next to the cells they name."""
    n = n or 1
    rect = vb.boundingRect()
    w, h = rect.width(), rect.height()
    if w <= 0 or h <= 0:
        return
    span_x, span_y = (n * w / h, n) if w >= h else (n, n * h / w)
    vb.setRange(xRange=(0, span_x), yRange=(n - span_y, n), padding=0)
