"""The quality-vs-h chart of the Training tab (trainHeadsChart): before any run its h axis
shows the h values the run will train (not pyqtgraph's 0 … 1), and every label of both h
axes is drawn, the paper's last one ("32") included, at 100 % and 300 % text."""
import math

import pytest
from PySide6.QtWidgets import QApplication

from engine.training import PAPER_TABLE3_A, HeadsConfig, run_experiment
from gui.state.app_state import TrainingSettings
from gui.training_runner import config_from_options, options_from_config
from gui_helpers import _tick_texts, settle_layout
from test_gui_text_overlap import show_bottom_tab


def show_chart(window, options=None):
    panel = window.training_panel
    show_bottom_tab(window, panel)
    config = config_from_options("heads", options or {})
    window.state.set_training(TrainingSettings("heads", options_from_config(config)))
    panel.right.setCurrentWidget(panel.chart)
    for _ in range(4):
        settle_layout(panel.plots, rounds=4)
        QApplication.processEvents()
    return panel.chart


def drawn_labels(axis) -> list[str]:
    """The tick labels the axis lays out, in order, each inside the axis's width."""
    width = axis.boundingRect().width()
    texts = sorted(_tick_texts(axis), key=lambda item: item[1].left())
    return [text for text, rect in texts if rect.left() >= -0.5 and rect.right() <= width + 0.5]


@pytest.mark.parametrize("scale,lang", [(1.0, "en"), (3.0, "ja")])
def test_before_a_run_the_h_axis_names_the_h_values_to_train(window, restore_view, scale, lang):
    window.switch_language(lang)
    window.set_ui_scale(scale)
    chart = show_chart(window)
    assert chart.results is None                      # nothing trained yet
    planned = [str(h) for h in HeadsConfig().heads]
    assert drawn_labels(chart.ours.getAxis("bottom")) == planned == ["1", "2", "4", "8", "16"]
    assert drawn_labels(chart.paper.getAxis("bottom")) == \
        [str(row["heads"]) for row in PAPER_TABLE3_A]          # … 16, 32: none dropped
    low, high = chart.paper.vb.viewRange()[0]
    assert low < 0.0 and high > math.log2(32)


def test_the_axis_follows_the_options_and_keeps_every_h_of_a_run(window):
    chart = show_chart(window, {"heads": "2,8"})
    assert drawn_labels(chart.ours.getAxis("bottom")) == ["2", "8"]
    chart = show_chart(window, {"heads": "1,2,4"})          # what start() will train
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
