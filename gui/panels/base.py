"""Common base of the five plot panels."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPicture, QTextOption
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSimpleTextItem, QGraphicsTextItem

from engine import Results

from ..style import LIGHT, Theme
from .label import Label


class TitleLabel(pg.LabelItem):
    """A LabelItem that asks for no width, so titles of different lengths leave the grid's
    columns equal; a title wider than its column wraps onto a second line."""

    def __init__(self):
        super().__init__()
        option = QTextOption(Qt.AlignmentFlag.AlignHCenter)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        self.item.document().setDefaultTextOption(option)

    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt naming)
        self.item.setTextWidth(max(1.0, self.size().width()))
        super().resizeEvent(ev)

    def updateMin(self) -> None:  # noqa: N802 (pyqtgraph naming)
        super().updateMin()
        self.setMinimumWidth(0)

    def sizeHint(self, hint, constraint):  # noqa: N802 (Qt naming)
        size = super().sizeHint(hint, constraint)
        if hint in (Qt.SizeHint.MinimumSize, Qt.SizeHint.PreferredSize):
            size.setWidth(0)
        return size


def settle_scenes(panels) -> None:
    """Finish the layout, view transforms and axis ticks that new data caused, before Qt
    paints, so that a change paints each panel once.

    pyqtgraph defers ViewBox matrices and TextItem transforms to the scene's
    sigPrepareForPaint, and an axis lays out its tick labels only when painted; a moved
    item or a wider label found there dirties the scene again, and the panel is painted a
    second time. Doing both here, between the posted layout passes, avoids that. Each
    scene's updates are then delivered at once: Qt paints every changed panel now."""
    panels = list(panels)
    for _ in range(2):  # new tick labels can change an axis's size: one more layout pass
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        for panel in panels:
            panel.scene().prepareForPaint()
            panel.prepare_axes()
    for panel in panels:
        QCoreApplication.sendPostedEvents(panel.scene(), QEvent.Type.MetaCall)


AXIS_PICTURES_KEPT = 64  # per panel; a picture is a few kB


class Panel(pg.GraphicsLayoutWidget):
    """A pyqtgraph scene that redraws itself from Results.

    Subclasses build their items once in `build()`, set their texts in
    `retranslate()` and change item data in place in `show_results()`.
    """

    def __init__(self, object_name: str, parent=None):
        super().__init__(parent)
        self.setObjectName(object_name)
        self.theme: Theme = LIGHT
        self.results: Results | None = None
        self._pending: Results | None = None
        self._overlays: list = []
        self._axes: list | None = None
        self._axis_pictures: dict = {}
        self.setMinimumSize(220, 160)
        self.build()
        self.apply_theme(self.theme)
        self.retranslate()
        self.cache_text()

    def build(self) -> None:
        """Create the plot items once (subclasses)."""

    def add_title(self, row: int = 0, col: int = 0) -> TitleLabel:
        """A title in a row of its own that wraps instead of widening the panel (a
        PlotItem's own title sets the panel's minimum width: a long title clipped the plot
        in a narrow panel), and leaves stacked plots the same height."""
        title = TitleLabel()
        self.addItem(title, row=row, col=col)
        return title

    def cache_text(self) -> None:
        """Text items paint from a device pixmap cache: titles, axis and legend labels are
        rendered once, not laid out and shaped again on every repaint (a third of the
        instructions of repainting an unchanged panel; a changed text is rendered once
        into its cache, which costs about what painting it did)."""
        for item in self.scene().items():
            if isinstance(item, (QGraphicsTextItem, QGraphicsSimpleTextItem)):
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def prepare_axes(self) -> None:
        """Lay out the tick labels of every axis whose ticks changed, as AxisItem.paint()
        would (pyqtgraph 0.13–0.14: the same QPicture it then plays).

        The pictures are kept per axis, range, size and ticks: as d_k moves back and forth
        the axes return to ranges they have shown, and laying out their labels again is
        most of what a new range costs. apply_theme() and a language change empty the cache."""
        if self._axes is None:
            self._axes = [item for item in self.scene().items() if isinstance(item, pg.AxisItem)]
        for axis in self._axes:
            # A pyqtgraph without the cached `picture` falls back to laying out in paint().
            if getattr(axis, "picture", True) is None and axis.isVisible():
                ticks = getattr(axis, "_tickLevels", None)
                key = (id(axis), *axis.range, *axis.boundingRect().getRect(),
                       axis.logMode, id(ticks))
                cached = self._axis_pictures.get(key)
                if cached is not None and cached[1] is ticks:
                    axis.picture = cached[0]
                    continue
                axis.picture = self._lay_out_axis(axis)
                if len(self._axis_pictures) >= AXIS_PICTURES_KEPT:
                    self._axis_pictures.pop(next(iter(self._axis_pictures)))
                self._axis_pictures[key] = (axis.picture, ticks)  # ticks: keeps id(ticks) unique

    @staticmethod
    def _lay_out_axis(axis: pg.AxisItem) -> QPicture:
        picture = QPicture()
        painter = QPainter(picture)
        try:
            if axis.style["tickFont"]:
                painter.setFont(axis.style["tickFont"])
            specs = axis.generateDrawSpecs(painter)
            if specs is not None:
                axis.drawPicture(painter, *specs)
        finally:
            painter.end()
        return picture

    def retranslate(self) -> None:
        """Set every user-visible text; called again on a language change."""

    def show_results(self, results: Results) -> None:
        """Push `results` into the existing items (subclasses)."""

    def update_results(self, results: Results) -> None:
        self.results = results
        self.show_results(results)

    paused = False  # public hook (benchmarks): a paused panel keeps Results like a hidden one

    def offer_results(self, results: Results) -> bool:
        """update_results now if the panel is on screen; a hidden one (a compact window's
        other row, a tab behind another, presentation mode) or a paused one keeps them
        until it is shown or catch_up() is called. Returns whether the panel was updated."""
        if self.isVisible() and not self.paused:
            self._pending = None
            self.update_results(results)
            return True
        self._pending = results
        return False

    def catch_up(self) -> None:
        """Show Results kept while the panel was hidden (on show, and before an export)."""
        if self._pending is not None:
            results, self._pending = self._pending, None
            self.update_results(results)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self.catch_up()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._axis_pictures.clear()   # new pens and fonts
        self.setBackground(theme.background)
        self.restyle()
        self.retranslate()
        from ..style import plot_font

        for item, _vb, _corner in self._overlays:
            item.setColor(theme.foreground)
            item.setFont(plot_font(theme, 0.95))
        self.redraw()

    def redraw(self) -> None:
        """Show the current Results again (after a new theme, language or layout)."""
        if self.results is not None:
            self.show_results(self.results)

    def restyle(self) -> None:
        """Re-apply pens and fonts after a theme change."""

    def overlay_text(self, plot: pg.PlotItem, corner=(0, 0)) -> Label:
        """A text pinned to a corner of the plot's view, in pixels; it never moves the axes
        and never widens the layout (long titles would)."""
        item = Label(anchor=corner, parent=plot.vb)
        item.setZValue(20)
        self._overlays.append((item, plot.vb, corner))
        plot.vb.sigResized.connect(self._place_overlays)
        return item

    def _place_overlays(self, *_args) -> None:
        for item, vb, (ax, ay) in self._overlays:
            rect = vb.boundingRect()
            item.setPos(4 + ax * (rect.width() - 8), 2 + ay * (rect.height() - 4))

    def set_title(self, target: pg.LabelItem, text: str) -> None:
        """A title's text in the theme's colour and a size above the ticks."""
        target.setText(text, color=self.theme.foreground, size=f"{self.theme.font_pt * 1.2:.1f}pt")

    def style_legend(self, legend: pg.LegendItem, size_pt: float) -> None:
        """Legend text in the theme's colour and `size_pt`. pyqtgraph only stores the new
        style for the next setText, so the labels are set again now."""
        legend.setLabelTextColor(self.theme.foreground)
        legend.setLabelTextSize(f"{size_pt:.1f}pt")
        for _sample, label in legend.items:
            label.setText(label.text)

    @staticmethod
    def set_ticks(axis: pg.AxisItem, ticks: list) -> None:
        """setTicks only when they change: every call makes the axis re-layout its labels."""
        if getattr(axis, "_shown_ticks", None) != ticks:
            axis._shown_ticks = ticks
            axis.setTicks([ticks])

    @staticmethod
    def set_text(item, text: str) -> None:
        """Label/LabelItem text, skipped when unchanged (re-laying out text is not free)."""
        if getattr(item, "_shown_text", None) != text:
            item._shown_text = text
            item.setText(text)

    def style_plot(self, plot: pg.PlotItem) -> None:
        from ..style import plot_font

        font = plot_font(self.theme)
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(self.theme.foreground)
            axis.setTextPen(self.theme.foreground)
            axis.setTickFont(font)
            axis.label.setFont(font)
            if axis.autoSIPrefix:
                # Only while the range is still pyqtgraph's 0…1: its updateAutoSIPrefix()
                # ignores the flag and would scale a 0…0.15 axis by 1000 on a theme change.
                axis.enableAutoSIPrefix(False)
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            # Room for tick labels grows to the largest seen but does not shrink back: a
            # smaller label would re-lay out the plot and paint the panel a second time.
            axis.setStyle(autoReduceTextSpace=False, maxTickLevel=1)
        # pyqtgraph's running maximum, started at a typical label instead of 30 px
        plot.getAxis("left").textWidth = QFontMetrics(font).horizontalAdvance("0.000")

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self._axis_pictures.clear()
            self.retranslate()
            self.redraw()
        super().changeEvent(event)
