"""What the training lab's plots share: the experiments' and roles' names, how a snapshot's
runs are grouped into curves, the base class of the plots, min–max band paths and tick steps
that fit the text size. The plots themselves: gui/panels/training_curves.py (TrainingCurves),
training_heads.py (TrainingHeadsView), heads_vs_h.py (HeadsVsH); gui/panels/training_plots.py
names them all."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QSizePolicy

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import plot_font
from gui.panels.base import Plot, TitleLabel
from gui.panels.matrix_item import weights_rgba
from gui.panels.text_fit import TICK_GAP, fitting_step, layout_minimum_px, lines_px, ticks_between

METRICS = ("loss", "accuracy", "attention_entropy", "grad_norm_wq")
SEQUENTIAL = pg.colormap.get("viridis")
#: SEQUENTIAL as 256 RGBA colours: weight w ∈ [0, 1] is drawn in colour round(255 w).
SEQUENTIAL_RGBA = SEQUENTIAL.getLookupTable(0.0, 1.0, 256, alpha=True)
SCALING_TASKS = ("averaging", "lookup")
TEXT_PERIOD_S = 0.5
#: Legend columns: scaling has 8 groups and the full width, heads 5 groups beside the maps.
LEGEND_COLUMNS = {"scaling": 4, "heads": 3, "roles": 2}


def experiment_names() -> dict[str, str]:
    return {"scaling": tr("Does ÷√d_k matter? (scaled vs unscaled)"),
            "roles": tr("Heads specialise (2 layers × 4 heads)"),
            "heads": tr("Many thin heads or one wide one?")}


def task_names() -> dict[str, str]:
    return {"averaging": tr("averaging task (majority colour)"),
            "lookup": tr("lookup task (one key–value pair)")}


def role_names() -> dict[str, str]:
    """Translated names of the engine's role ids."""
    return {"induction": tr("induction"), "previous_token": tr("previous token"),
            "bos": tr("BOS sink"), "self": tr("self"), "mixed": tr("mixed"),
            "content_match": tr("content match"), "previous_item": tr("previous item")}


def heads_rgba(weights: np.ndarray) -> np.ndarray:
    """Attention weights (…, n) in [0, 1] as SEQUENTIAL colours (…, n, 4) uint8."""
    return weights_rgba(weights, SEQUENTIAL_RGBA)


def metric_titles() -> dict[str, str]:
    return {"loss": tr("loss (nats)"), "accuracy": tr("accuracy"),
            "attention_entropy": tr("attention entropy (nats)"),
            "grad_norm_wq": tr("log₁₀ |∇W_Q|")}


def group_runs(snapshot, task: str) -> dict:
    """Runs of a snapshot by what the curves compare: key → (runs, colour index, dashed)."""
    groups: dict = {}
    for run in snapshot.runs:
        label = run.label
        if snapshot.experiment == "scaling":
            if label["task"] != task:
                continue
            key = (label["d_k"], label["scaled"])
        elif snapshot.experiment == "heads":
            key = (label["heads"],)
        else:       # roles: the model and the 1-layer control
            key = (label.get("layers", 2),)
        groups.setdefault(key, []).append(run)
    return groups


def group_name(experiment: str, key, short: bool = False) -> str:
    """A group's legend entry; `short` (a compact panel): a scaling group without "d_k = "
    (eight of them stand in two columns beside the plots)."""
    if experiment == "scaling" and short:
        return (tr("{dk} ÷√d_k") if key[1] else tr("{dk} unscaled")).format(dk=key[0])
    if experiment == "scaling":
        return (tr("d_k = {dk}, ÷√d_k") if key[1] else tr("d_k = {dk}, unscaled")).format(dk=key[0])
    if experiment == "heads":
        return tr("h = {h}").format(h=key[0])
    return tr("1 layer (control)") if key[0] == 1 else tr("{n} layers").format(n=key[0])


class TrainingPlotBase(Plot):
    """A plot of the training tab. Its texts change with every run and language: the
    device caches of Plot.cache_text kept showing an old text of a wrapped title after
    a language change, so these panels paint their texts directly.

    Two arrangements: the windowed one, and `compact` (presentation mode, set_compact):
    the plots as large as the room allows, the panel's own title and sentences left to
    the lesson text. `arrange()` places the items for the current one (subclasses, with
    `place`); it runs when the arrangement changes, not per result."""

    PLOT_LINES = 4   # lines of tick labels a plot keeps room for
    LAYOUT_MARGIN_PX = 9.0   # pyqtgraph's margins around a GraphicsLayout's grid

    def __init__(self, object_name: str, parent=None):
        self.compact = False
        self._places: dict = {}      # item → (layout, row, col, rowspan, colspan) it is in
        super().__init__(object_name, parent)

    def cache_text(self) -> None:
        """No text caches (see the class docstring)."""

    def clear_run(self) -> None:
        """Forget the run shown (another experiment was chosen): back to the empty plot with
        its "press Start" note."""
        self.results = None
        self.forget_run()
        self.retranslate()

    def forget_run(self) -> None:
        """Drop the items of the run shown (clear_run)."""

    def set_compact(self, compact: bool) -> None:
        """The presentation arrangement (True) or the windowed one."""
        if compact == self.compact:
            return
        self.compact = compact
        self.arrange()
        # Compact: no margins around the inner grids (18 px of a projector's height).
        for layout in self.inner_layouts():
            margin = 0.0 if compact else self.LAYOUT_MARGIN_PX
            layout.layout.setContentsMargins(margin, margin, margin, margin)
        minimum = getattr(self, "minimum_height", None)
        if minimum is not None:
            minimum.reset()
        self.retranslate()
        self.redraw()

    def arrange(self) -> None:
        """Place the items for `self.compact` (subclasses)."""

    def inner_layouts(self) -> list:
        """The GraphicsLayouts inside the panel's own (subclasses): compact, they have no
        margins of their own."""
        return [self.grid] if hasattr(self, "grid") else []

    def place(self, item, layout, row: int = 0, col: int = 0, rowspan: int = 1,
              colspan: int = 1) -> None:
        """Put `item` in the pyqtgraph GraphicsLayout `layout` at that cell, or out of the
        panel (and its scene) with `layout` None; nothing when it is there already."""
        self.place_many([(item, layout, row, col, rowspan, colspan)])

    def place_many(self, places) -> None:
        """place() each (item, layout, row, col[, rowspan, colspan]) of `places`: first
        every item that moves out of its cell (out of a layout that moves too before that
        layout leaves the scene), then into its new one (an item moving into a cell
        another one leaves must not find it taken)."""
        moves = []
        for item, layout, *cell in places:
            cell = (list(cell) + [0, 0, 1, 1][len(cell):])[:4]
            wanted = None if layout is None else (layout, *cell)
            if self._places.get(item) != wanted:
                moves.append((item, wanted))
        moving = {item for item, _wanted in moves}
        leaving = [(item, self._places[item][0]) for item, _wanted in moves
                   if self._places.get(item) is not None]
        # Out of a moving layout first: once out of the scene it cannot let go of them.
        leaving.sort(key=lambda pair: pair[1] not in moving)
        for item, layout in leaving:
            layout.removeItem(item)
        for item, wanted in moves:
            if wanted is not None:
                layout, row, col, rowspan, colspan = wanted
                layout.addItem(item, row=row, col=col, rowspan=rowspan, colspan=colspan)
            self._places[item] = wanted
        if moves:
            self._refit_height()

    def text_label(self) -> TitleLabel:
        """A wrapped text of the panel (a title, a sentence): a new height of it (a new
        width wraps it anew, a layout pass after the panel's resize) measures the panel's
        minimum height again (a minimum measured before that pass let a title of two lines
        push the axis names out of a 300 % panel)."""
        label = TitleLabel()
        label.geometryChanged.connect(self._refit_height)
        return label

    def side_column(self) -> pg.GraphicsLayout:
        """A column for a compact panel's legend (and notes) right of its plots: no wider
        than what it holds, its items at the top."""
        side = pg.GraphicsLayout()
        side.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        side.layout.setRowStretchFactor(2, 1)
        return side

    def plot_rows(self) -> list:
        """(GraphicsLayout, row, PlotItem) of each row of plots shown (subclasses)."""
        return []

    def needed_height(self) -> float:
        """What the panel's texts need (MinimumHeight): each row of plots (plot_rows) at
        least PLOT_LINES lines of tick labels above its bottom axis, and the grid's minimum
        with them (a legend beside the plots may need more); nothing above the floor while
        the panel is hidden (a page of the tab's plots behind another): a QTabWidget is as
        tall as its tallest page's minimum, shown or not, and the page on screen must fit
        a projector."""
        if not self.isVisible():
            return 0.0
        lines = lines_px(self.theme, self.PLOT_LINES)
        changed = set()
        for layout, row, plot in self.plot_rows():
            wanted = lines + plot.getAxis("bottom").minimumHeight()
            if layout.layout.rowMinimumHeight(row) != wanted:
                layout.layout.setRowMinimumHeight(row, wanted)
                changed.add(layout)
        # Else the minimum below is the one before these rows: the panel's own layout keeps
        # its inner layouts' old minimums until told (only then: a run's snapshots ask too).
        for layout in changed:
            layout.layout.invalidate()
            if layout is not self.ci:
                layout.updateGeometry()
        if changed:
            self.ci.layout.invalidate()
        return layout_minimum_px(self)

    def _refit_height(self) -> None:
        minimum = getattr(self, "minimum_height", None)    # Qt resizes before build()
        if minimum is not None:
            minimum.request()        # wrapped texts: a new width, a new height

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)       # (the scene follows the viewport: Plot.resizeEvent)
        self._refit_height()

    @guarded
    def showEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().showEvent(event)
        self._refit_height()

    @guarded
    def hideEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().hideEvent(event)
        self._refit_height()


#: pyqtgraph's tick marks: 5 px into the view.
TICK_LENGTH_PX = -5


def show_tick_values(plot: pg.PlotItem, shown: bool) -> None:
    """Tick marks and labels and grid lines on the plot's left and bottom axes, or none (an
    empty plot's frame: its 0–1 would be no data's range)."""
    changed = False
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        if axis.style["showValues"] != shown:
            axis.setStyle(showValues=shown, tickLength=TICK_LENGTH_PX if shown else 0,
                          tickAlpha=None if shown else 0)
            changed = True
    if changed:
        plot.showGrid(x=shown, y=shown, alpha=0.25)


def _mix(colour: str, towards: str, share: float) -> str:
    a, b = QColor(colour), QColor(towards)
    return QColor(round(a.red() + (b.red() - a.red()) * share),
                  round(a.green() + (b.green() - a.green()) * share),
                  round(a.blue() + (b.blue() - a.blue()) * share)).name()


#: How far the narrowest d_k's colour moves from the scaled / unscaled colour (the widest
#: d_k's): towards black on a light background, towards white on a dark one, so that every
#: shade keeps more contrast with the background than the palette's colour.
SHADE_SPREAD = 0.5


def scaling_colour(theme, scaled: bool, d_k: int, d_ks) -> str:
    """The colour of the scaling curves of `d_k` among the run's `d_ks`: Theme.scaled for
    ÷√d_k, Theme.unscaled for unscaled (their colours everywhere in the app, so the two
    differ in colour as well as in dashes), the widest d_k in that colour itself and each
    narrower one a shade further away (SHADE_SPREAD)."""
    widths = sorted(set(int(k) for k in d_ks) | {int(d_k)})
    base = theme.scaled if scaled else theme.unscaled
    if len(widths) < 2:
        return QColor(base).name()
    share = SHADE_SPREAD * (len(widths) - 1 - widths.index(int(d_k))) / (len(widths) - 1)
    return _mix(base, "#FFFFFF" if theme.name == "dark" else "#000000", share)


def band_item(fill_brush) -> QGraphicsPathItem:
    """A filled min–max band with no outline, its path set by band_path."""
    item = QGraphicsPathItem()
    item.setPen(QPen(Qt.PenStyle.NoPen))
    item.setBrush(fill_brush)
    return item


def band_path(x: np.ndarray, low: np.ndarray, high: np.ndarray) -> QPainterPath:
    """The closed outline of the band between `low` and `high` over `x` (each (k,)): along
    the top, back along the bottom. One path per band and snapshot: two hidden edge curves
    under a FillBetweenItem made it rebuild the fill once per edge, and the scene visit both."""
    if len(x) < 2:
        return QPainterPath()
    path = pg.arrayToQPath(np.concatenate([x, x[::-1]]), np.concatenate([high, low[::-1]]))
    path.closeSubpath()
    return path


def label_step(low: float, high: float, length_px: float, measure, distance) -> float:
    """The smallest 1-2-2.5-5 step whose own tick labels over [low, high], shown along
    `length_px` pixels and `measure`d in pixels, stand at least `distance(widest label)`
    pixels apart centre to centre. Each candidate is checked with its own labels: a finer
    step's labels are wider ("0.25" against "0.5"), and a step chosen from another step's
    labels let "0.250.50.75" run together at 300 % text on a 310–340 px plot."""
    span = high - low
    step = fitting_step(span, length_px, distance(measure("0")) / TICK_GAP)
    for _ in range(32):
        widest = max((measure(label) for _v, label in ticks_between(low, high, step)),
                     default=0.0)
        if fitting_step(span, length_px, distance(widest) / TICK_GAP) <= step * (1 + 1e-9):
            return step
        step = fitting_step(span, length_px, 0.0, minimum=step * (1 + 1e-6))   # the next one
    return step


def fit_ticks(panel: Plot, plot: pg.PlotItem) -> None:
    """Tick steps that leave a gap between labels at this plot's size and text size
    (pyqtgraph's own ignore the font: at 300 % text they ran into each other). The x
    labels stand TICK_GAP times (label + a digit) apart; where that leaves no label
    between the two ends (pyqtgraph drops labels that overhang the axis), a gap of 1.5
    digits is enough."""
    vb = plot.vb
    (x0, x1), (y0, y1) = vb.viewRange()
    fm = QFontMetricsF(plot_font(panel.theme))
    y_step = fitting_step(y1 - y0, vb.height(), fm.height())
    panel.set_ticks(plot.getAxis("left"), ticks_between(y0, y1, y_step))
    digit = fm.horizontalAdvance("0")
    x_step = label_step(x0, x1, vb.width(), fm.horizontalAdvance,
                        lambda widest: TICK_GAP * (widest + digit))
    if len(ticks_between(x0, x1, x_step)) < 3:
        x_step = label_step(x0, x1, vb.width(), fm.horizontalAdvance,
                            lambda widest: widest + 1.5 * digit)
    panel.set_ticks(plot.getAxis("bottom"), ticks_between(x0, x1, x_step))


def snapshot_keys(snapshot, task: str) -> list:
    """Scaling groups in a fixed order (d_k, scaled first): a colour per d_k."""
    keys = []
    for run in snapshot.runs:
        label = run.label
        if snapshot.experiment == "scaling" and label["task"] == task:
            for scaled in (True, False):
                if (label["d_k"], scaled) not in keys:
                    keys.append((label["d_k"], scaled))
    return keys
