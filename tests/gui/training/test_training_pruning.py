"""The Training tab's pruning plot (trainPruningPlot): each h's curve as the training
process computed it (HeadsResult.pruning), the paper's fractions as lines, its sentences in
both languages, and the tab that shows it for the heads experiment."""
import numpy as np
import pytest

from engine.training import HeadsConfig, run_experiment
from engine.training.pruning import PAPER_PRUNING
from gui.common import names
from gui.panels.pruning_plot import curve_text
from gui.state.app_state import TrainingSettings
from tab_fixtures import training_tab  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def heads_result():
    return run_experiment("heads", HeadsConfig(heads=(1, 4, 8), seeds=2, steps=20,
                                               log_every=10, eval_size=32))


def test_the_result_carries_one_curve_per_h_from_the_first_seed(heads_result):
    assert [h for h, _ in heads_result.pruning] == [1, 4, 8]
    for h, curve in heads_result.pruning:
        run = next(r for r in heads_result.runs
                   if r.label["heads"] == h and r.label["seed"] == heads_result.config.seed)
        assert curve.quality[0] == run.final_accuracy
        assert len(curve.quality) == h + 1


def test_the_plot_draws_the_engine_curves(training_tab, heads_result):
    training_tab.state.set_training(TrainingSettings("heads", {}))
    assert training_tab.right.isTabVisible(3) and not training_tab.right.isTabVisible(2)
    assert names.TRAIN_PRUNE in training_tab.exportable()
    plot = training_tab.pruning
    training_tab._on_result(heads_result)
    plot.catch_up()
    plot.update_results(heads_result)
    for h, curve in heads_result.pruning:
        x, y = plot.curves[h].getData()
        np.testing.assert_array_equal(x, curve.fractions)
        np.testing.assert_array_equal(y, curve.quality)
    assert [line.value() for line in plot.paper_lines] == [p["fraction"] for p in PAPER_PRUNING]
    text = plot.info.text
    for h, curve in heads_result.pruning:
        assert curve_text(h, curve) in text
    k, quality = dict(heads_result.pruning)[8].at_fraction(0.2)
    assert k == 1 and f"{quality:.0%} with 1 of 8 removed" in text
    assert "too few heads" in curve_text(1, dict(heads_result.pruning)[1])


def test_the_sentences_in_japanese(training_tab, heads_result):
    from gui.common.i18n import set_language
    plot = training_tab.pruning
    try:
        set_language("ja")
        plot.update_results(heads_result)
        assert "全ヘッドで" in plot.info.text and "Michel" in plot.info.text
    finally:
        set_language("en")
