"""Common base of the five plot panels."""
from __future__ import annotations

import pyqtgraph as pg
from pyqtgraph.graphicsItems.LegendItem import ItemSample
from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QFontMetrics, QTextOption
from PySide6.QtWidgets import (QAbstractScrollArea, QGraphicsItem, QGraphicsSimpleTextItem,
                               QGraphicsTextItem, QGraphicsView)

from engine import Results

from gui.common.guard import SUPER, errors, guarded
from gui.common.style import LIGHT, Theme
from gui.panels import pg_compat
from gui.panels.label import Label
from gui.panels.shown_values import ShownValues
from gui.panels.text_fit import lines_px
from gui.panels.pg_compat import settle_scenes  # noqa: F401 (the window settles panels through here)


#: Plot._pending when no Results wait for the panel to be shown (None is a Result: "show
#: nothing", offered when a model failed).
NOTHING_PENDING = object()


class TitleLabel(pg.LabelItem):
    """A LabelItem that asks for no width, so titles of different lengths leave the grid's
    columns equal; a title wider than its column wraps onto a second line."""

    def __init__(self):
        self._hold_geometry = False
        super().__init__()
        option = QTextOption(Qt.AlignmentFlag.AlignHCenter)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        self.item.document().setDefaultTextOption(option)

    def setText(self, text, **args) -> None:  # noqa: N802 (pyqtgraph naming)
        """As LabelItem.setText, but the panel is laid out again only when the title's
        height changes: a new number in a title of the same height leaves every other item
        where it is (pyqtgraph's setText asks for a new layout of the whole panel four
        times)."""
        height = self.itemRect().height()
        self._hold_geometry = True
        try:
            super().setText(text, **args)
        finally:
            self._hold_geometry = False
        if self.itemRect().height() != height:
            self.updateGeometry()

    def set_plain_text(self, text: str, colour, point_size: float) -> None:
        """Plain lines ("\n"), centred, in `colour` at `point_size`: the text is laid out
        once, not parsed as HTML first (a note that changes on every result)."""
        item = self.item
        height = self.itemRect().height()
        font = item.font()
        if font.pointSizeF() != point_size:
            font.setPointSizeF(point_size)
            item.setFont(font)
        item.setDefaultTextColor(pg.mkColor(colour))
        self.text = text
        item.setPlainText(text)
        self._hold_geometry = True
        try:
            self.updateMin()
            self.resizeEvent(None)
        finally:
            self._hold_geometry = False
        if self.itemRect().height() != height:
            self.updateGeometry()

    @guarded
    def updateGeometry(self) -> None:  # noqa: N802 (Qt naming)
        if not self._hold_geometry:
            super().updateGeometry()

    @guarded
    def resizeEvent(self, ev) -> None:  # noqa: N802 (Qt naming)
        width = max(1.0, self.size().width())
        if self.item.textWidth() != width:   # Qt lays the document out again even if equal
            self.item.setTextWidth(width)
        super().resizeEvent(ev)

    @guarded
    def updateMin(self) -> None:  # noqa: N802 (pyqtgraph naming)
        super().updateMin()
        self.setMinimumWidth(0)

    @guarded(fallback=SUPER)
    def sizeHint(self, hint, constraint):  # noqa: N802 (Qt naming)
        size = super().sizeHint(hint, constraint)
        if hint in (Qt.SizeHint.MinimumSize, Qt.SizeHint.PreferredSize):
            size.setWidth(0)
        return size


class SideNotes(TitleLabel):
    """Texts beside the data (a legend, statistics) in a column of their own: left-aligned,
    wrapped to the column's width, and set in the largest of NOTE_FACTORS × the plot text
    that fits the column's height (they never push the data out of the panel)."""

    #: Sizes tried in turn, largest first, as factors of the plot text.
    NOTE_FACTORS = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)

    def __init__(self):
        super().__init__()
        option = QTextOption(Qt.AlignmentFlag.AlignLeft)
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        self.item.document().setDefaultTextOption(option)
        self.factor = 1.0
        self._html = ""
        self._colour = None
        self._font_pt = 10.0

    def show_notes(self, html_text: str, colour, font_pt: float) -> None:
        """`html_text` in `colour`, as large as fits (see the class): the size found last is
        tried first, so new numbers of the same length lay the text out once."""
        if (html_text, colour, font_pt) == (self._html, self._colour, self._font_pt):
            return
        if (colour, font_pt) != (self._colour, self._font_pt):
            self.factor = 1.0
        self._html, self._colour, self._font_pt = html_text, colour, font_pt
        self.refit()

    def refit(self, from_largest: bool = False) -> None:
        """Lay the notes out again for the column's size (from the largest size after a
        resize)."""
        if not self._html:
            self.setText("")
            return
        room = self.size().height()
        factors = self.NOTE_FACTORS if from_largest else \
            [f for f in self.NOTE_FACTORS if f <= self.factor]
        for factor in factors:
            self.setText(self._html, color=self._colour, size=f"{self._font_pt * factor:.1f}pt")
            if room <= 1 or self.itemRect().height() <= room:
                break
        self.factor = factor

    @guarded
    def updateMin(self) -> None:  # noqa: N802 (pyqtgraph naming)
        """No minimum height either: the column is as tall as the plots beside it."""
        super().updateMin()
        self.setMinimumHeight(0)

    @guarded(fallback=SUPER)
    def sizeHint(self, hint, constraint):  # noqa: N802 (Qt naming)
        """No height asked for: the column is as tall as the plots beside it."""
        size = super().sizeHint(hint, constraint)
        if hint in (Qt.SizeHint.MinimumSize, Qt.SizeHint.PreferredSize):
            size.setHeight(0)
        return size


AXIS_PICTURES_KEPT = 64  # per panel; a picture is a few kB


class Plot(pg.GraphicsLayoutWidget):
    """A pyqtgraph scene that redraws itself from Results.

    Subclasses build their items once in `build()`, set their texts in
    `retranslate()` and change item data in place in `show_results()`.
    """

    #: What a change repaints. The whole viewport by default: a result changes most of a
    #: plot, and one repaint costs less than Qt's bookkeeping of the many small regions its
    #: items dirty (pyqtgraph's default, MinimalViewportUpdate). A panel whose changes stay
    #: in one part of it repaints the rectangle around what changed (BoundingRect): items
    #: outside it are not painted at all. tests/gui/panels/test_panel_painting.py checks
    #: that what is on screen then matches a fresh rendering.
    VIEWPORT_UPDATE = QGraphicsView.ViewportUpdateMode.FullViewportUpdate

    def __init__(self, object_name: str, parent=None):
        super().__init__(parent)
        # GraphicsLayoutWidget binds its layout's addPlot and addViewBox to the instance,
        # which hid this class's own (menu-less) ones: every ViewBox built its menu.
        for name in ("addPlot", "addViewBox"):
            self.__dict__.pop(name, None)
        self.setObjectName(object_name)
        # pyqtgraph caches the background in a pixmap the size of the viewport. The
        # background is one colour, filled as fast as the pixmap is copied; and a panel in
        # a hidden tab kept the pixmap of the largest size it was last painted at (a 4K
        # window, presentation mode) for as long as it stayed hidden.
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        self.setViewportUpdateMode(self.VIEWPORT_UPDATE)
        self.theme: Theme = LIGHT
        self.results: Results | None = None
        self._pending = NOTHING_PENDING     # Results (or None: show nothing) kept while hidden
        self._overlays: list = []
        self._axes: list | None = None
        self._axis_pictures: dict = {}
        self._error_label = None
        self._shown = ShownValues()         # (item, what) → the value last given to the item
        self._titles_shown = ShownValues()  # title item → (text, style) last set
        self.setMinimumSize(220, 160)
        self.build()
        self.apply_theme(self.theme)
        self.retranslate()
        self.cache_text()

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        """A new width wraps the texts again: a panel with a MinimumHeight measures anew.
        The scene is the viewport's size: pyqtgraph uses the widget's, and a panel the
        lesson frames (a 5 px border) lost its right and bottom 10 px."""
        super().resizeEvent(event)
        viewport = self.viewport().size()
        if self.autoPixelRange and viewport != self.size() and not self.closed:
            self.setRange(QRectF(0, 0, viewport.width(), viewport.height()), padding=0,
                          disableAutoPixel=False)
        minimum = getattr(self, "minimum_height", None)   # Qt resizes before build()
        if minimum is not None:
            self.fit_room()
            minimum.request()

    # -- the arrangement for the room: texts beside the data, or above and in it ---------
    #: A panel that can lay its texts out beside its data sets this (and arrange()).
    ARRANGES = False
    #: Texts go beside the data in a panel at least WIDE_RATIO times as wide as the height
    #: it is offered, and back above the data below WIDE_RATIO_BACK (the gap keeps a panel
    #: from switching to and fro on a resize of a few pixels).
    WIDE_RATIO, WIDE_RATIO_BACK = 1.6, 1.45
    #: … and only where it is at least this many lines of its text wide: side by side, a
    #: narrow panel at 300 % squeezed its plots until their labels ran into each other.
    WIDE_MIN_LINES = 24
    wide = False

    def offered_height(self) -> int:
        """The height of the room the panel is shown in: the viewport of the scroll area
        around it (a panel taller than that scrolls), else its own height."""
        widget = self.parentWidget()
        while widget is not None:
            if isinstance(widget, QAbstractScrollArea):
                return widget.viewport().height()
            widget = widget.parentWidget()
        return self.height()

    def fit_room(self) -> None:
        """The arrangement for the room (arrange): on a projector, a short and wide room,
        legends and statistics go beside the data rather than push it out of view."""
        if not self.ARRANGES:
            return
        ratio = self.width() / max(1, self.offered_height())
        wide = ratio >= (self.WIDE_RATIO_BACK if self.wide else self.WIDE_RATIO) and \
            self.width() >= lines_px(self.theme, self.WIDE_MIN_LINES)
        if wide != self.wide:
            self.wide = wide
            self.arrange(wide)
            minimum = getattr(self, "minimum_height", None)
            if minimum is not None:
                minimum.reset()
            self.redraw()

    def arrange(self, wide: bool) -> None:
        """Move the items for the arrangement `wide` (subclasses that set ARRANGES)."""

    def addPlot(self, *args, **kwargs):  # noqa: N802 (pyqtgraph naming)
        """A PlotItem without its ViewBox's context menu (no panel offers one; building
        its widgets cost every plot a few milliseconds at start-up)."""
        kwargs.setdefault("enableMenu", False)
        return self.ci.addPlot(*args, **kwargs)

    def addViewBox(self, *args, **kwargs):  # noqa: N802 (pyqtgraph naming)
        kwargs.setdefault("enableMenu", False)
        return self.ci.addViewBox(*args, **kwargs)

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
        into its cache, which costs about what painting it did). Legend swatches are
        cached too (pyqtgraph paints them in Python on every repaint); apply_theme()
        renders them again."""
        for item in self.scene().items():
            if isinstance(item, (QGraphicsTextItem, QGraphicsSimpleTextItem, ItemSample)):
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def prepare_axes(self) -> None:
        """Lay out the tick labels of every axis whose ticks changed, as AxisItem.paint()
        would (see pg_compat; nothing on a pyqtgraph it does not know).

        The pictures are kept per axis, range, size and ticks, the newest AXIS_PICTURES_KEPT
        of them: as d_k moves back and forth the axes return to ranges and labels they have
        shown, and laying out their labels again is most of what a new range costs.
        apply_theme() and a language change empty the cache."""
        if self._axes is None:
            self._axes = [item for item in self.scene().items() if isinstance(item, pg.AxisItem)]
        pictures = self._axis_pictures
        for axis in self._axes:
            if not pg_compat.axis_needs_layout(axis):
                continue
            key = pg_compat.axis_layout_key(axis)
            picture = pictures.pop(key, None)       # re-inserted below: the newest
            if picture is None:
                picture = pg_compat.lay_out_axis(axis)
                if len(pictures) >= AXIS_PICTURES_KEPT:
                    pictures.pop(next(iter(pictures)))    # the least recently shown
            pictures[key] = picture
            pg_compat.show_axis_picture(axis, picture)

    def retranslate(self) -> None:
        """Set every user-visible text; called again on a language change."""

    def show_results(self, results: Results) -> None:
        """Push `results` into the existing items (subclasses)."""

    def update_results(self, results: Results) -> None:
        """Show `results`; if this panel fails, it says so in its own corner and the error
        is reported, but it never stops the other panels."""
        self.results = results
        try:
            self.show_results(results)
        except Exception as exc:
            errors.report(f"{self.objectName()} panel", exc)
            self.show_error(f"{type(exc).__name__}: {exc}")
        else:
            if self._error_label is not None and self._error_label.isVisible():
                self._error_label.hide()

    def show_error(self, message: str) -> None:
        """A message over the panel, where the user is looking, until the next success."""
        from PySide6.QtWidgets import QLabel

        if self._error_label is None:
            self._error_label = QLabel(self, objectName="panelError")
            self._error_label.setWordWrap(True)
            self._error_label.setStyleSheet(
                "background: #FFF3F0; color: #B00020; border: 2px solid #B00020; padding: 4px;")
        from gui.common.i18n import tr

        self._error_label.setText(tr("This panel could not be drawn: {reason}").format(
            reason=message))
        self._error_label.setGeometry(8, 8, max(50, self.width() - 16),
                                      self._error_label.heightForWidth(max(50, self.width() - 16)))
        self._error_label.show()
        self._error_label.raise_()

    @property
    def error_text(self) -> str:
        label = self._error_label
        return label.text() if label is not None and not label.isHidden() else ""

    paused = False  # public hook (benchmarks): a paused panel keeps Results like a hidden one

    def offer_results(self, results: Results) -> bool:
        """update_results now if the panel is on screen; a hidden one (a compact window's
        other row, a tab behind another, presentation mode) or a paused one keeps them
        until it is shown or catch_up() is called. Returns whether the panel was updated."""
        if self.isVisible() and not self.paused:
            self._pending = NOTHING_PENDING
            self.update_results(results)
            return True
        self._pending = results      # None too: a hidden panel must not keep old figures
        return False

    @property
    def newest_results(self):
        """The newest Results offered, shown or still kept while the panel is hidden."""
        return self.results if self._pending is NOTHING_PENDING else self._pending

    def catch_up(self) -> None:
        """Show Results kept while the panel was hidden (on show, and before an export)."""
        if self._pending is not NOTHING_PENDING:
            results, self._pending = self._pending, NOTHING_PENDING
            self.update_results(results)

    @guarded
    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self.catch_up()

    def apply_theme(self, theme: Theme) -> None:
        self.theme = theme
        self._axis_pictures.clear()   # new pens and fonts
        self.setBackground(theme.background)
        self._paint_background_once()
        self.restyle()
        for item in self.scene().items():
            if isinstance(item, ItemSample):     # cached (cache_text): new colours
                item.update()
        self.retranslate()
        from gui.common.style import plot_font

        for item, _vb, _corner in self._overlays:
            item.setColor(theme.foreground)
            item.setFont(plot_font(theme, 0.95))
        self.redraw()

    def _paint_background_once(self) -> None:
        """The view fills its viewport with the theme's background on every paint. An
        opaque one is filled only so: Qt would first fill it with the palette's window
        colour (a whole-viewport fill per change, about a tenth of a change's paint)."""
        viewport = self.viewport()
        opaque = self.backgroundBrush().isOpaque()
        viewport.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, opaque)
        viewport.setAutoFillBackground(not opaque)

    def redraw(self) -> None:
        """Show the current Results again (after a new theme, language or layout), as
        update_results does: a failure is reported in the panel, never raised into Qt."""
        if self.results is not None:
            self.update_results(self.results)

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
        """A title's text in the theme's colour and a size above the ticks (skipped when
        text, colour and size are unchanged: a LabelItem lays out its HTML on every call)."""
        style = dict(color=self.theme.foreground, size=f"{self.theme.font_pt * 1.2:.1f}pt")
        shown = (text, tuple(style.values()))
        if self._titles_shown.get(target) != shown:
            self._titles_shown[target] = shown
            target.setText(text, **style)

    def style_legend(self, legend: pg.LegendItem, size_pt: float) -> None:
        """Legend text in the theme's colour and `size_pt`. pyqtgraph only stores the new
        style for the next setText, so the labels are set again now."""
        legend.setLabelTextColor(self.theme.foreground)
        legend.setLabelTextSize(f"{size_pt:.1f}pt")
        for _sample, label in legend.items:
            label.setText(label.text)

    def set_ticks(self, axis: pg.AxisItem, ticks: list) -> None:
        """setTicks only when they change: every call makes the axis re-layout its labels."""
        if self._shown.get((axis, "ticks")) != ticks:
            self._shown[axis, "ticks"] = ticks
            axis.setTicks([ticks])

    def set_text(self, item, text: str) -> None:
        """Label/LabelItem text, skipped when unchanged (re-laying out text is not free)."""
        if self._shown.get((item, "text")) != text:
            self._shown[item, "text"] = text
            item.setText(text)

    def style_plot(self, plot: pg.PlotItem) -> None:
        from gui.common.style import plot_font

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
        for name in ("right", "top"):
            # Hidden, but linked to the view: with the SI prefix on, every range change
            # re-set their (empty) label as HTML.
            plot.getAxis(name).enableAutoSIPrefix(False)
        # pyqtgraph's running maximum, started at a typical label instead of 30 px
        pg_compat.reserve_tick_label_width(plot.getAxis("left"),
                                           QFontMetrics(font).horizontalAdvance("0.000"))

    @guarded
    def changeEvent(self, event) -> None:
        """A new language: the texts anew. A closed panel (pyqtgraph's close() cleared its
        scene, whose text items are deleted) has nothing left to translate: a language
        change reaching a panel of a closed tab raised RuntimeError in retranslate()."""
        if event.type() == QEvent.Type.LanguageChange and not self.closed:
            self._axis_pictures.clear()
            self.retranslate()
            self.redraw()
        super().changeEvent(event)
