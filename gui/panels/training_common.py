"""What the training lab's plots share: the experiments' and roles' names, how a snapshot's
runs are grouped into curves, the base class of the plots, min–max band paths and tick steps
that fit the text size. The plots themselves: gui/panels/training_curves.py (TrainingCurves),
training_heads.py (TrainingHeadsView), heads_vs_h.py (HeadsVsH); gui/panels/training_plots.py
names them all."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from gui.common.guard import guarded
from gui.common.i18n import tr
from gui.common.style import plot_font
from gui.panels.base import Plot
from gui.panels.matrix_item import weights_rgba
from gui.panels.text_fit import TICK_GAP, fitting_step, ticks_between

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


def group_name(experiment: str, key) -> str:
    if experiment == "scaling":
        return (tr("d_k = {dk}, ÷√d_k") if key[1] else tr("d_k = {dk}, unscaled")).format(dk=key[0])
    if experiment == "heads":
        return tr("h = {h}").format(h=key[0])
    return tr("1 layer (control)") if key[0] == 1 else tr("{n} layers").format(n=key[0])


class TrainingPlotBase(Plot):
    """A plot of the training tab. Its texts change with every run and language: the
    device caches of Plot.cache_text kept showing an old text of a wrapped title after
    a language change, so these panels paint their texts directly."""

    PLOT_LINES = 4   # lines of tick labels a plot keeps room for

    def cache_text(self) -> None:
        """No text caches (see the class docstring)."""

    def clear_run(self) -> None:
        """Forget the run shown (another experiment was chosen): back to the empty plot with
        its "press Start" title."""
        self.results = None
        self.forget_run()
        self.retranslate()

    def forget_run(self) -> None:
        """Drop the items of the run shown (clear_run)."""

    @guarded
    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        super().resizeEvent(event)
        if hasattr(self, "minimum_height"):       # Qt resizes before build()
            self.minimum_height.request()        # wrapped texts: a new width, a new height


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
