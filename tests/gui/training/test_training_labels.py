"""The Training tab's labels: at 300 % text on a 1280×720 window the plots' tick labels never
run into each other and the experiment boxes show their whole text; the quality-vs-h chart
(trainHeadsChart) names the h values a run will train before any run (not pyqtgraph's
0 … 1), and draws every label of both h axes, the paper's last one ("32") included, at 100 %
and 300 % text. One window at 300 % text serves the module's window tests (each puts back
its language and size); the others use a Training tab of their own."""
import math

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionComboBox

from engine.training import PAPER_TABLE3_A, HeadsConfig, run_experiment
from gui.state.app_state import TrainingSettings
from gui.training.runner import config_from_options, options_from_config
from gui_helpers import _tick_texts, settle_layout
from gui_helpers import view_in_front
from tab_fixtures import WINDOW_SIZE, module_window  # noqa: F401 (a fixture)
from tab_fixtures import training_tab  # noqa: F401 (a fixture)

SMALL_SCREEN = (1280, 720)


@pytest.fixture(scope="module")
def window_at_300(module_window):
    """The module's window at 300 % text, on a 1280×720 screen; its view put back at the end."""
    window = module_window
    window.resize(*SMALL_SCREEN)
    window.set_ui_scale(3.0)
    QApplication.processEvents()
    yield window
    window.zoom_reset()
    window.switch_language("en")
    window.resize(*WINDOW_SIZE)


@pytest.fixture
def at_300(window_at_300):
    """The window at 300 % text; after the test back in English at 1280×720."""
    yield window_at_300
    window_at_300.switch_language("en")
    window_at_300.resize(*SMALL_SCREEN)


def axes_laid_out(panel) -> list:
    """Where every axis of the tab's plots is and the tick labels it lays out."""
    return [(axis.sceneBoundingRect().getRect(),
             [(text, rect.getRect()) for text, rect in _tick_texts(axis)])
            for plot in panel.plots for axis in plot.scene().items()
            if isinstance(axis, pg.AxisItem) and axis.isVisible()]


def settle(panel, most: int = 16) -> None:
    """Lay the tab out until its axes and their labels stop changing (at most `most`
    rounds; one or two do it)."""
    before = None
    for _ in range(most):
        settle_layout(panel.plots, rounds=1)
        QApplication.processEvents()
        now = axes_laid_out(panel)
        if now == before:
            return
        before = now


def show_training(window, experiment: str, page: int):
    panel = window.training_tab
    view_in_front(window, panel)
    panel.combo.setCurrentIndex(panel.combo.findData(experiment))
    panel.right.setCurrentIndex(page)
    settle(panel)
    return panel


def show_chart(panel, options=None):
    config = config_from_options("heads", options or {})
    panel.state.set_training(TrainingSettings("heads", options_from_config(config)))
    panel.right.setCurrentWidget(panel.chart)
    settle(panel)
    return panel.chart


def bottom_axes(panel):
    plots = [(f"curves {m}", p) for m, p in panel.curves.plots.items()]
    if panel.chart.isVisible():
        plots += [("chart ours", panel.chart.ours), ("chart paper", panel.chart.paper)]
    return [(name, plot.getAxis("bottom")) for name, plot in plots]


def touching_ticks(axis) -> list:
    """Pairs of the axis's tick labels (as it lays them out) that are closer than half a
    digit: "0.25", "0.5", "0.75" 2 px apart read as "0.250.50.75"."""
    gap = QFontMetricsF(axis.style["tickFont"]).horizontalAdvance("0") / 2
    boxes = sorted(((axis.mapRectToScene(rect), text) for text, rect in _tick_texts(axis)),
                   key=lambda box: box[0].left())
    return [(a, b, round(rb.left() - ra.right(), 1))
            for (ra, a), (rb, b) in zip(boxes, boxes[1:]) if rb.left() - ra.right() < gap]


def hidden_text(combo) -> str | None:
    """What a combo box cannot show of its current text: None when, word-wrapped into its
    text field, the whole text fits the field (a QComboBox elides it to one line)."""
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxEditField, combo)
    text = combo.currentText()
    metrics = combo.fontMetrics()
    needed = metrics.boundingRect(QRect(0, 0, field.width(), 100000),
                                  int(Qt.TextFlag.TextWordWrap), text)
    if needed.width() > field.width() or needed.height() > field.height() + 1:
        return f"{text!r}: needs {needed.width()}×{needed.height()} px, field {field.width()}×{field.height()}"
    return None


def drawn_labels(axis) -> list[str]:
    """The tick labels the axis lays out, in order, each inside the axis's width."""
    width = axis.boundingRect().width()
    texts = sorted(_tick_texts(axis), key=lambda item: item[1].left())
    return [text for text, rect in texts if rect.left() >= -0.5 and rect.right() <= width + 0.5]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_training_tab_is_readable_at_300_percent_on_720p(at_300, lang):
    window = at_300
    window.switch_language(lang)
    assert window.ui_scale == 3.0 and (window.width(), window.height()) == SMALL_SCREEN
    found = []
    for experiment, page in (("scaling", 0), ("roles", 0), ("heads", 0), ("heads", 1)):
        panel = show_training(window, experiment, page)
        for name, axis in bottom_axes(panel):
            if axis.isVisible():
                found += [(experiment, page, name, pair) for pair in touching_ticks(axis)]
        for combo in (panel.combo, panel.task_combo):
            if combo.isVisible() and hidden_text(combo):
                found.append((experiment, combo.objectName(), hidden_text(combo)))
        area = window.area.panel_scroll
        if area.widget().minimumSizeHint().width() > area.viewport().width():
            found.append((experiment, "the panels scroll sideways"))
    assert not found, found


def show_tick_labels(panel) -> None:
    """The curves' tick labels as a run shows them (before one, the frames show none), the
    plots laid out again for them."""
    panel.curves._show_empty(False)
    settle_layout(panel.plots)


def test_the_tick_check_sees_labels_that_run_together(training_tab):
    panel = training_tab
    show_tick_labels(panel)
    axis = panel.curves.plots["loss"].getAxis("bottom")
    axis.setTicks([[(v / 20, f"{v / 20:g}") for v in range(21)]])
    settle_layout(panel.plots)
    assert touching_ticks(axis)


def test_curve_tick_labels_never_touch_at_any_width(training_tab):
    """At 300 % text the curves' x labels of a 0…1 plot ran together as
    "0.250.50.75" on 310–340 px plots: the step was chosen from another step's labels. The
    tab alone, at the tick font of 300 % text, its plots 8 px wider at each step over all the
    widths a 1280 … 1680 px window gives them at 300 % text."""
    panel = training_tab
    panel.state.update_view(text_scale=3.0)          # the plots' fonts follow the view
    panel.combo.setCurrentIndex(panel.combo.findData("scaling"))
    show_tick_labels(panel)
    found, widths = [], set()
    for width in range(756, 1141, 16):
        panel.resize(width, 450)
        settle(panel)
        for name, axis in bottom_axes(panel):
            widths.add(round(axis.linkedView().width()))
            found += [(width, name, pair) for pair in touching_ticks(axis)]
    assert min(widths) < 240 and max(widths) > 416 and any(300 <= w <= 350 for w in widths)
    assert not found, found


def assert_every_h_is_named(chart) -> None:
    assert chart.results is None                      # nothing trained yet
    planned = [str(h) for h in HeadsConfig().heads]
    assert drawn_labels(chart.ours.getAxis("bottom")) == planned == ["1", "2", "4", "8", "16"]
    assert drawn_labels(chart.paper.getAxis("bottom")) == \
        [str(row["heads"]) for row in PAPER_TABLE3_A]          # … 16, 32: none dropped
    low, high = chart.paper.vb.viewRange()[0]
    assert low < 0.0 and high > math.log2(32)


def test_before_a_run_the_h_axis_names_the_h_values_to_train(training_tab):
    assert_every_h_is_named(show_chart(training_tab))


def test_at_300_percent_in_japanese_too(at_300):
    window = at_300
    window.resize(*WINDOW_SIZE)
    window.switch_language("ja")
    view_in_front(window, window.training_tab)
    assert_every_h_is_named(show_chart(window.training_tab))


def test_the_axis_follows_the_options_and_keeps_every_h_of_a_run(training_tab):
    chart = show_chart(training_tab, {"heads": "2,8"})
    assert drawn_labels(chart.ours.getAxis("bottom")) == ["2", "8"]
    chart = show_chart(training_tab, {"heads": "1,2,4"})  # what start() will train
    assert drawn_labels(chart.ours.getAxis("bottom")) == ["1", "2", "4"]
    snaps = []
    run_experiment("heads", HeadsConfig(heads=(1, 2, 4), seeds=1, steps=20, log_every=5,
                                        snapshot_every=5, eval_size=32),
                   on_snapshot=snaps.append)
    chart.update_results(snaps[0])            # no run finished: the axis stays
    assert drawn_labels(chart.ours.getAxis("bottom")) == ["1", "2", "4"]
    chart.update_results(snaps[-1])
    assert drawn_labels(chart.ours.getAxis("bottom")) == ["1", "2", "4"]
    x, _y = chart.acc.getData()
    assert sorted(2 ** x) == [1, 2, 4]
