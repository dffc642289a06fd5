"""pyqtgraph items whose bounding rect is computed once per data or view change.

pyqtgraph recomputes a bar or scatter item's bounding rect (data bounds plus the pen or
symbol size converted from pixels through the view transform) on every call, and the scene
asks several times per paint; these subclasses keep the answer until it can change.
"""
from __future__ import annotations

import functools

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsPathItem

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


class PathBars(QGraphicsPathItem):
    """Bars of one brush and pen as one path, painted by Qt without calling into Python.

    setOpts(x=, y0=, height=, width=, brush=, pen=) takes what pg.BarGraphItem takes for
    bars of one brush (x: the bars' centres, (n,); y0: their bottoms, a number or (n,);
    height: (n,); width: a number), and `opts` keeps them for reading back. A BarGraphItem
    works out its bars, bounds and picture in Python on every change and paints in Python.
    The view's ranges are set by the panel: the bars do not take part in auto-ranging."""

    def __init__(self, **opts):
        super().__init__()
        self.opts = {"x": np.zeros(0), "y0": 0.0, "height": np.zeros(0), "width": 0.8,
                     "brush": None, "pen": None}
        self.setOpts(**opts)

    def setOpts(self, **opts) -> None:  # noqa: N802 (pg.BarGraphItem's name)
        self.opts.update(opts)
        if "brush" in opts:
            self.setBrush(pg.mkBrush(opts["brush"]))       # None: no fill
        if "pen" in opts:
            self.setPen(pg.mkPen(opts["pen"]))
        if opts.keys() & {"x", "y0", "height", "width"}:
            self._set_path()

    def _set_path(self) -> None:
        x = np.asarray(self.opts["x"], dtype=float)
        heights = np.asarray(self.opts["height"], dtype=float)
        bottoms = np.broadcast_to(np.asarray(self.opts["y0"], dtype=float), heights.shape)
        width = float(self.opts["width"])
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)   # touching or overlapping bars all fill
        for centre, bottom, height in zip(x.tolist(), bottoms.tolist(), heights.tolist()):
            path.addRect(QRectF(centre - width / 2, bottom, width, height).normalized())
        self.setPath(path)

    def dataBounds(self, *_args, **_kwargs):  # noqa: N802 (pyqtgraph)
        return [None, None]


class BrushedBars(QGraphicsPathItem):
    """Bars of one pen and a brush each, as pg.BarGraphItem draws them given `brushes`,
    painted by Qt: the bars of each distinct brush are one PathBars child (a stack of
    alternating shades is two paths, whatever its height).

    setOpts(x=, y0=, height=, width=, brushes=, pen=) as pg.BarGraphItem (brushes: one
    per bar), `opts` keeps them. New brushes or pen regroup the bars; new heights only
    move them. Bars of different brushes are painted brush by brush, not bar by bar: bars
    that overlap may stack in another order than BarGraphItem's."""

    def __init__(self, **opts):
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.opts = {"x": np.zeros(0), "y0": 0.0, "height": np.zeros(0), "width": 0.8,
                     "brushes": [], "pen": None}
        self._groups: list[tuple[PathBars, np.ndarray]] = []   # (path, bar indices)
        self.setOpts(**opts)

    @property
    def layers(self) -> list[PathBars]:
        """The paths, one per distinct brush, in the order the brushes first appear."""
        return [path for path, _ in self._groups]

    def setOpts(self, **opts) -> None:  # noqa: N802 (pg.BarGraphItem's name)
        self.opts.update(opts)
        if opts.keys() & {"brushes", "pen", "x"}:
            self._regroup()
        elif opts.keys() & {"y0", "height", "width"}:
            self._move()

    def _regroup(self) -> None:
        brushes = [pg.mkBrush(b) for b in self.opts["brushes"]]
        distinct: list = []
        members: list[list[int]] = []
        for i, b in enumerate(brushes):
            for j, known in enumerate(distinct):
                if known == b:
                    members[j].append(i)
                    break
            else:
                distinct.append(b)
                members.append([i])
        for path, _ in self._groups[len(distinct):]:
            path.setParentItem(None)
            if path.scene() is not None:
                path.scene().removeItem(path)
        kept = [path for path, _ in self._groups[:len(distinct)]]
        kept += [PathBars() for _ in range(len(distinct) - len(kept))]
        self._groups = []
        for path, b, idx in zip(kept, distinct, members):
            path.setParentItem(self)
            path.setOpts(brush=b, pen=self.opts["pen"])
            self._groups.append((path, np.array(idx, dtype=np.intp)))
        self._move()

    def _move(self) -> None:
        x = np.asarray(self.opts["x"], dtype=float)
        heights = np.asarray(self.opts["height"], dtype=float)
        bottoms = np.broadcast_to(np.asarray(self.opts["y0"], dtype=float), heights.shape)
        for path, idx in self._groups:
            path.setOpts(x=x[idx], y0=bottoms[idx], height=heights[idx],
                         width=self.opts["width"])

    def dataBounds(self, *_args, **_kwargs):  # noqa: N802 (pyqtgraph)
        return [None, None]


class PathLine(QGraphicsPathItem):
    """A polyline in data coordinates, painted by Qt: what pg.PlotCurveItem draws for a
    few points with a cosmetic pen and no fill, antialiased as pyqtgraph's `antialias`
    option says when the line is made (the view's own hints leave paths aliased), without
    PlotCurveItem's path, bounds and pen work in Python on every paint. setData(x, y) as
    PlotCurveItem's; it takes no part in auto-ranging."""

    def __init__(self, x=(), y=()):
        super().__init__()
        self.antialias = bool(pg.getConfigOption("antialias"))
        self.xData = self.yData = np.zeros(0)
        self.setData(x, y)

    @guarded
    def paint(self, painter, option, widget=None) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, self.antialias)
        super().paint(painter, option, widget)
        painter.restore()

    def setData(self, x, y) -> None:  # noqa: N802 (PlotCurveItem's name)
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if np.array_equal(x, self.xData) and np.array_equal(y, self.yData):
            return
        self.xData, self.yData = x, y
        path = QPainterPath()
        for i, (px, py) in enumerate(zip(x.tolist(), y.tolist())):
            if i == 0:
                path.moveTo(px, py)
            else:
                path.lineTo(px, py)
        self.setPath(path)

    def dataBounds(self, *_args, **_kwargs):  # noqa: N802 (pyqtgraph)
        return [None, None]


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
