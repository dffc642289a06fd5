"""Every use of pyqtgraph internals, in one place, with a plain fallback.

The panels draw faster by reaching into pyqtgraph 0.13.7–0.14 (pinned <0.15):

    AxisItem.picture        the QPicture paint() plays; None makes paint() lay out the ticks
    AxisItem._tickLevels    the ticks given to setTicks (identifies a layout)
    AxisItem.textWidth      the running maximum of tick-label widths (left axes)
    AxisItem.style          the dict setStyle fills (tick font)
    generateDrawSpecs / drawPicture   the two halves of AxisItem.paint's layout step
    GraphicsScene.prepareForPaint     the signal ViewBoxes and TextItems update on

On a pyqtgraph this module does not know, FAST is False and every helper falls
back to what pyqtgraph does by itself: axes lay out their ticks when painted and
scenes settle while painting. The window is then a little slower, never wrong.
"""
from __future__ import annotations

import re

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QPainter, QPicture

KNOWN_VERSIONS = ((0, 13, 7), (0, 14, 0))   # inclusive range: 0.13.7 … 0.14.x


def version_tuple(text: str) -> tuple[int, int, int]:
    """'0.14.0' → (0, 14, 0); 'x.y.dev3' style suffixes are dropped."""
    parts = [int(p) for p in re.findall(r"\d+", text)[:3]]
    return tuple(parts + [0] * (3 - len(parts)))


def is_known(version: str) -> bool:
    v = version_tuple(version)
    low, high = KNOWN_VERSIONS
    return low <= v and v[:2] <= high[:2]


FAST = is_known(pg.__version__)


def tick_font(axis: pg.AxisItem):
    """The font setTickFont gave the axis, or None (the axis then uses its own font)."""
    return axis.style.get("tickFont") if isinstance(getattr(axis, "style", None), dict) else None


def axis_needs_layout(axis: pg.AxisItem) -> bool:
    """True when a visible axis has no laid-out tick picture (it would lay out in paint)."""
    return FAST and axis.isVisible() and getattr(axis, "picture", True) is None


def axis_layout_key(axis: pg.AxisItem) -> tuple:
    """What an axis's tick picture depends on: range, size, log mode and the ticks given to
    setTicks, by content (a panel sets equal ticks as new lists: the softmax keys' labels
    carry the scores, which return with d_k). Hashable."""
    levels = getattr(axis, "_tickLevels", None)
    ticks = None if levels is None else tuple(tuple(map(tuple, level)) for level in levels)
    return (id(axis), *axis.range, *axis.boundingRect().getRect(), axis.logMode, ticks)


def lay_out_axis(axis: pg.AxisItem) -> QPicture:
    """The tick picture AxisItem.paint would make (the same two calls it makes)."""
    picture = QPicture()
    painter = QPainter(picture)
    try:
        font = tick_font(axis)
        if font:
            painter.setFont(font)
        specs = axis.generateDrawSpecs(painter)
        if specs is not None:
            axis.drawPicture(painter, *specs)
    finally:
        painter.end()
    return picture


def show_axis_picture(axis: pg.AxisItem, picture: QPicture) -> None:
    axis.picture = picture


def shown_axis_picture(axis: pg.AxisItem) -> QPicture | None:
    return getattr(axis, "picture", None)


def forget_axis_picture(axis: pg.AxisItem) -> None:
    """Make the axis lay out its ticks again at the next paint (a subclass's labels changed)."""
    if hasattr(axis, "picture"):
        axis.picture = None
    axis.update()


def reserve_tick_label_width(axis: pg.AxisItem, pixels: float) -> None:
    """Start a left axis's running maximum of label widths at `pixels` instead of 30 px."""
    if FAST and hasattr(axis, "textWidth"):
        axis.textWidth = pixels


def settle_scenes(panels) -> None:
    """Finish the layout, view transforms and axis ticks that new data caused, before Qt
    paints, so that a change paints each panel once.

    pyqtgraph defers ViewBox matrices and TextItem transforms to the scene's
    sigPrepareForPaint, and an axis lays out its tick labels only when painted; a moved
    item or a wider label found there dirties the scene again, and the panel is painted a
    second time. Doing both here, between the posted layout passes, avoids that. Each
    scene's updates are then delivered at once: Qt paints every changed panel now.
    Without FAST nothing is forced: pyqtgraph settles while painting."""
    if not FAST:
        return
    panels = list(panels)
    for _ in range(2):  # new tick labels can change an axis's size: one more layout pass
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for panel in panels:
            panel.scene().prepareForPaint()
            panel.prepare_axes()
    for panel in panels:
        QCoreApplication.sendPostedEvents(panel.scene(), QEvent.Type.MetaCall)
