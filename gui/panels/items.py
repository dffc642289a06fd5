"""pyqtgraph items whose bounding rect is computed once per data or view change.

pyqtgraph recomputes a bar or scatter item's bounding rect (data bounds plus the pen or
symbol size converted from pixels through the view transform) on every call, and the scene
asks several times per paint; these subclasses keep the answer until it can change.
"""
from __future__ import annotations

import functools

import pyqtgraph as pg
from PySide6.QtCore import QLineF
from PySide6.QtWidgets import QGraphicsLineItem

from gui.common.guard import SUPER, guarded


class CachedBoundingRect:
    """Mixin: cache boundingRect(); the methods named in INVALIDATED_BY, and a change of
    the view transform, drop the cache before and after they run (the scene may ask
    while the data are half updated)."""

    INVALIDATED_BY: tuple[str, ...] = ()
    _rect = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in cls.INVALIDATED_BY:
            setattr(cls, name, cls._invalidating(getattr(cls, name)))

    @staticmethod
    def _invalidating(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            self._rect = None
            try:
                return method(self, *args, **kwargs)
            finally:
                self._rect = None
        return wrapper

    def viewTransformChanged(self) -> None:  # noqa: N802 (a slot: keep the bare signature)
        self._rect = None
        super().viewTransformChanged()
        self._rect = None

    @guarded(fallback=SUPER)
    def boundingRect(self):  # noqa: N802 (Qt naming)
        if self._rect is None:
            self._rect = super().boundingRect()
        return self._rect


class Bars(CachedBoundingRect, pg.BarGraphItem):
    INVALIDATED_BY = ("setOpts",)


class Dots(CachedBoundingRect, pg.ScatterPlotItem):
    INVALIDATED_BY = ("setData", "addPoints", "clear", "setPen", "setBrush", "setSize",
                      "setSymbol", "setExportMode")


class VerticalMarker(QGraphicsLineItem):
    """A vertical line at x over a plot's whole height, painted by Qt without calling into
    Python (pyqtgraph's InfiniteLine works out its bounds and paints in Python, several
    times a change). Add it with ignoreBounds=True; `set_span(y0, y1)` with the view's y
    range whenever that changes. `value()` is x, as InfiniteLine's."""

    def __init__(self):
        super().__init__()
        self._x = 0.0
        self._span = (0.0, 1.0)
        self.setLine(QLineF(0.0, 0.0, 0.0, 1.0))

    def value(self) -> float:
        return self._x

    def setValue(self, x: float) -> None:  # noqa: N802 (InfiniteLine's name)
        """Moves the item; its line stays put (a new line on every change had the panel
        painted twice: tests/gui/panels/test_panel_painting.py)."""
        if x != self._x:
            self._x = float(x)
            self.setPos(self._x, 0.0)

    def set_span(self, y0: float, y1: float) -> None:
        if (y0, y1) != self._span:
            self._span = (float(y0), float(y1))
            self.setLine(QLineF(0.0, self._span[0], 0.0, self._span[1]))
