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
    """A vertical line at x (in view coordinates) over the whole height of a ViewBox, painted
    by Qt without calling into Python (pyqtgraph's InfiniteLine works out its bounds and
    paints in Python, several times a change). It lives in the ViewBox's pixels, not in
    its data, so its pen's width is pixels, and a new x or y range does not change it: x
    moves it (setPos), a new size of the view gives it a new line. A new line on a change
    had the panel painted twice (tests/gui/panels/test_panel_painting.py)."""

    def __init__(self, view: pg.ViewBox):
        super().__init__(view)
        self._view = view
        self._x = 0.0
        self.setZValue(10)
        view.sigResized.connect(self._fit)
        view.sigXRangeChanged.connect(self._place)
        self._fit()

    def value(self) -> float:
        return self._x

    def setValue(self, x: float) -> None:  # noqa: N802 (InfiniteLine's name)
        if x != self._x:
            self._x = float(x)
            self._place()

    def _fit(self, *_args) -> None:
        self.setLine(QLineF(0.0, 0.0, 0.0, self._view.height()))
        self._place()

    def _place(self, *_args) -> None:
        (x0, x1), width = self._view.viewRange()[0], self._view.width()
        self.setPos((self._x - x0) / (x1 - x0) * width if x1 > x0 else 0.0, 0.0)
