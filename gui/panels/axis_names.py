"""Room for an axis's name beside its tick labels, measured from the name as it is drawn.

pyqtgraph makes a bottom axis as tall as its tick labels plus 0.8 of its name's box and puts
the name at the bottom edge (a left axis: as wide, the name at the left edge), so the name's
text runs 0.2 × its box − 9 px into the tick labels: with a line of 55 px (300 % text) 2 px,
with a CJK font of taller lines (Noto Sans CJK: 1.45 em) 4–5 px, over the 3 px the readability
tests allow ('除去したヘッドの割合' on '0.4', 'ステップ' on '0.2'). These functions fix the
axis's size instead: tick labels, a gap, and the whole box of the name in the font that
draws it (a Japanese name's fallback font, not the tick font's metrics). Call them again
after a change of font, name or tick labels.
"""
from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

#: Pixels between the tick labels' boxes and the name's line box.
NAME_GAP_PX = 3.0
#: pyqtgraph moves an axis name this far past the axis's outer edge (AxisItem.resizeEvent).
NAME_NUDGE_PX = 5.0
#: A QGraphicsTextItem's document margin: the name's line box lies this far inside its item.
TEXT_MARGIN_PX = 4.0
#: pyqtgraph lays a tick label out in a box this share of its font's height (AxisItem.
#: generateDrawSpecs: "boundingRect is usually just a bit too large"); a digit's ink ends
#: above its bottom (the baseline; digits have no descenders).
TICK_BOX_SHARE = 0.8


def _name_box(axis: pg.AxisItem) -> float:
    """The height of the name's item (its line box and margins), 0 without a shown name."""
    if not axis.label.isVisible() or not axis.labelText:
        return 0.0
    return axis.label.boundingRect().height()


def _tick_block(axis: pg.AxisItem, across: float) -> float:
    """Pixels from the axis line to the outer edge of its tick labels, `across` being the
    labels' extent away from the line (0 when it shows no values)."""
    if not axis.style["showValues"]:
        return 0.0
    offset = axis.style["tickTextOffset"][1 if axis.orientation in ("top", "bottom") else 0]
    return max(0.0, axis.style["tickLength"]) + offset + across


def name_room(axis: pg.AxisItem, across: float) -> int:
    """The axis's size across its line for tick labels `across` pixels deep and its name."""
    box = _name_box(axis)
    ticks = _tick_block(axis, across)
    if box == 0.0:
        return math.ceil(ticks + NAME_GAP_PX)
    # The name's line box starts NAME_NUDGE_PX - TEXT_MARGIN_PX inside the item's far edge
    # and ends TEXT_MARGIN_PX before its near edge: its near edge lies at
    # size - box + NAME_NUDGE_PX + TEXT_MARGIN_PX from the axis line (+1: pyqtgraph rounds
    # the name's position down).
    return math.ceil(ticks + NAME_GAP_PX + box - NAME_NUDGE_PX - TEXT_MARGIN_PX + 1)


def fit_bottom_name(axis: pg.AxisItem, tick_font: QFont) -> None:
    """A bottom axis tall enough for one line of `tick_font` tick labels (as pyqtgraph lays
    them out) and, below them, its whole name."""
    axis.setHeight(name_room(axis, TICK_BOX_SHARE * QFontMetricsF(tick_font).height()))


def fit_left_name(axis: pg.AxisItem, tick_font: QFont, labels) -> None:
    """A left axis wide enough for the widest of the tick `labels` in `tick_font` and, left
    of them, its whole (rotated) name."""
    metrics = QFontMetricsF(tick_font)
    widest = max((metrics.horizontalAdvance(text) for text in labels), default=0.0)
    axis.setWidth(name_room(axis, widest + 2.0))
