"""An axis that names the token of each cell of an n×n attention map (shared by the maps).

Every token is labelled while the cells allow: when a cell is narrower than a label's line
(LABEL_LINE_SHARE of the font's height), the labels shrink, down to a floor
(min_label_point_size); only when even the floor does not fit is every k-th token labelled,
and the map's owner says so (thinning_note).
"""
from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

from gui.common.guard import guarded
from gui.panels import pg_compat

#: Longest token label drawn, in pixels (or 4.5 text heights, at large text); longer ones are
#: elided.
LABEL_MAX_PX = 70.0


def label_max_px(fm: QFontMetricsF) -> float:
    return max(LABEL_MAX_PX, 4.5 * fm.height())


#: A label needs this share of its font's line height along the axis (the line's leading and
#: the space under the descenders may overlap the next label's).
LABEL_LINE_SHARE = 0.85
#: The labels shrink to no less than MIN_LABEL_PT points, and no less than MIN_LABEL_SHARE of
#: the axis's own font (at 300 % text a 7 pt label would be unreadable beside the rest).
MIN_LABEL_PT = 7.0
MIN_LABEL_SHARE = 0.6
SHRINK_STEP_PT = 0.25
#: A compact axis's labels are elided to this many text heights.
COMPACT_LABEL_LINES = 3.5


def min_label_point_size(font: QFont) -> float:
    return min(font.pointSizeF(), max(MIN_LABEL_PT, MIN_LABEL_SHARE * font.pointSizeF()))


def label_fit(font: QFont, cell_px: float) -> tuple[QFont, int]:
    """(font, step) for labels of cells `cell_px` apart: `font` while its line fits a cell,
    else the largest size (in SHRINK_STEP_PT steps) down to min_label_point_size whose line
    fits; step 1 (every token) when one fits, else the smallest k whose every k-th label
    fits at the floor size."""
    if cell_px <= 0 or font.pointSizeF() <= 0:
        return font, 1
    need = LABEL_LINE_SHARE * QFontMetricsF(font).height()
    if need <= cell_px:
        return font, 1
    floor = min_label_point_size(font)
    size = font.pointSizeF()
    small = QFont(font)
    while size > floor:
        size = max(floor, size - SHRINK_STEP_PT)
        small.setPointSizeF(size)
        need = LABEL_LINE_SHARE * QFontMetricsF(small).height()
        if need <= cell_px:
            return small, 1
    return small, max(1, math.ceil(need / cell_px - 1e-9))


def thinning_note(step: int) -> str:
    """What a map says when only every `step`-th token is labelled ("" for every token)."""
    from gui.common.i18n import tr

    return "" if step <= 1 else tr("labels: 1 token in {k} (no room for all)").format(k=step)


class TokenAxis(pg.AxisItem):
    """An axis that writes one token under (or beside) each cell of an n×n map.

    Cell i spans [i, i+1] in view coordinates. Bottom labels are drawn rotated
    by 90° so long words never overlap; when the cells are smaller than the
    text height, only every k-th label is drawn. The axis size is fixed to the
    longest label (at most label_max_px).
    """

    def __init__(self, orientation: str, compact: bool = False):
        #: compact (a small map): the labels are always at min_label_point_size, and the axis
        #: is sized for that font, elided to COMPACT_LABEL_LINES text heights.
        self.compact = compact
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

    def _elided(self, fm: QFontMetricsF, font: QFont | None = None) -> list[str]:
        """The labels elided to label_max_px, kept while the labels and the font stay."""
        key = (tuple(self.labels), (font or pg_compat.tick_font(self) or self.font()).key())
        if getattr(self, "_elided_key", None) != key:
            self._elided_key = key
            self._elided_labels = [fm.elidedText(t, Qt.TextElideMode.ElideRight,
                                                 self._max_px(fm)) for t in self.labels]
        return self._elided_labels

    def label_font(self) -> QFont:
        """The font labels start from: the tick font, or its floor size when compact."""
        font = QFont(pg_compat.tick_font(self) or self.font())
        if getattr(self, "compact", False):
            font.setPointSizeF(min_label_point_size(font))
        return font

    def _metrics(self) -> QFontMetricsF:
        return QFontMetricsF(self.label_font())

    def _max_px(self, fm: QFontMetricsF) -> float:
        return COMPACT_LABEL_LINES * fm.height() if getattr(self, "compact", False) \
            else label_max_px(fm)

    def cell_px(self) -> float:
        """Pixels per cell along this axis, from the linked view's range and size (what the
        next paint will use; 0 before the view has a size)."""
        view = self.linkedView()
        if view is None:
            return 0.0
        (x0, x1), (y0, y1) = view.viewRange()
        vertical = self.orientation in ("left", "right")
        span = abs(y1 - y0) if vertical else abs(x1 - x0)
        size = view.height() if vertical else view.width()
        return size / span if span > 0 else 0.0

    def label_fit(self, cell_px: float | None = None) -> tuple[QFont, int]:
        """label_fit of the axis's font at its cells' spacing (or `cell_px`)."""
        return label_fit(self.label_font(), self.cell_px() if cell_px is None else cell_px)

    @property
    def step(self) -> int:
        """Every step-th token is labelled at the view's present size (1: every token)."""
        return self.label_fit()[1] if self.labels else 1

    def _fit(self) -> None:
        fm = self._metrics()
        labels = getattr(self, "labels", [])    # setTickFont may run inside AxisItem.__init__
        widest = max((fm.horizontalAdvance(s) for s in labels), default=0.0)
        size = int(math.ceil(min(widest, self._max_px(fm)))) + 10
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
        vertical = self.orientation in ("left", "right")
        # The view maps x (or y) to the axis linearly: two points give every label's place.
        p0, p1 = (self.mapFromScene(view.mapViewToScene(QPointF(v, v))) for v in (0.0, 1.0))
        origin, unit = (p0.y(), p1.y() - p0.y()) if vertical else (p0.x(), p1.x() - p0.x())

        def pos(v: float) -> float:
            return origin + v * unit

        font, step = self.label_fit(abs(unit))
        fm = QFontMetricsF(font)
        self.drawn_font = font
        p.setPen(self.textPen())
        p.setFont(font)
        h = fm.height()
        gap = 4 + 3  # tick length + padding
        # A label's line is h tall across the axis: at the axis's ends it is moved inwards
        # (by less than half a line), else the end cells' names were cut off at 300 %; its
        # neighbours make way (spread_centres), else the moved name overlapped the next one.
        length = self.height() if vertical else self.width()
        elided = self._elided(fm, font)
        flags = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        across = self.height()
        if not vertical:
            # Text reads upwards and ends at the map. Rotated by −90°, the axis's point
            # (x, y) is (−y, x): a label's box at c spans x ∈ [−height, −gap].
            p.save()
            p.rotate(-90)
        shown = range(0, len(self.labels), step)
        centres = spread_centres([pos(i + 0.5) for i in shown], LABEL_LINE_SHARE * h, h / 2,
                                 max(h / 2, length - h / 2))
        for i, c in zip(shown, centres):
            text = elided[i]
            if vertical:
                box = QRectF(0, c - h / 2, self.width() - gap, h)
                p.drawText(box, flags, text)
            else:
                p.drawText(QRectF(-across, c - h / 2, across - gap, h), flags, text)
                box = QRectF(c - h / 2, gap, h, across - gap)
            self.drawn.append((text, box))
        if not vertical:
            p.restore()


def spread_centres(centres: list[float], need: float, low: float, high: float) -> list[float]:
    """The label centres (in drawing order) kept inside [low, high] and at least `need`
    apart: an end label pulled inwards pushes its neighbours on by as much as it must (then
    back from the far end), so no two names overlap while the room allows; each moves by
    less than the pull at the ends (under half a line)."""
    if not centres:
        return []
    order = sorted(range(len(centres)), key=centres.__getitem__)
    c = [min(max(centres[i], low), high) for i in order]
    for k in range(1, len(c)):
        c[k] = max(c[k], c[k - 1] + need)
    c[-1] = min(c[-1], high)
    for k in range(len(c) - 2, -1, -1):
        c[k] = min(c[k], c[k + 1] - need)
    c[0] = max(c[0], low)
    out = [0.0] * len(c)
    for k, i in enumerate(order):
        out[i] = c[k]
    return out


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
