"""The Training tab's in-context-learning plot (trainIclPlot): the loss and ICL score of both
depths as the engine logged them, the induction-head line and the steepest-fall marks where
engine.training.icl.phase_change puts them, its sentence in both languages, and the roles
curves grouped by depth."""
import numpy as np
import pytest

from engine.training import Run, RolesConfig, TrainingSnapshot, run_experiment
from engine.training.common import Curve, frozen_array
from engine.training.icl import phase_change
from engine.training.roles import INDUCTION_THRESHOLD
from gui.common import names
from gui.panels.icl_plot import change_text
from gui.panels.training_plots import group_runs
from gui.state.app_state import TrainingSettings
from tab_fixtures import training_tab  # noqa: F401 (a fixture)

STEPS = np.arange(0, 60, 10)


def _run(layers, icl, loss, induction):
    z = np.zeros(len(STEPS))
    curve = Curve(steps=frozen_array(STEPS, np.int32), loss=frozen_array(loss, np.float32),
                  accuracy=frozen_array(z, np.float32),
                  attention_entropy=frozen_array(z, np.float32),
                  grad_norm_wq=frozen_array(z, np.float32),
                  max_attention=frozen_array(z, np.float32),
                  icl_score=frozen_array(icl, np.float32),
                  induction_max=frozen_array(induction, np.float32))
    return Run({"seed": 0, "layers": layers}, curve)


@pytest.fixture
def snapshot():
    two = _run(2, [0, -0.1, -0.2, -2.0, -2.1, -2.2], [3, 2.9, 2.8, 1.0, 0.9, 0.8],
               [0.1, 0.2, 0.6, 0.8, 0.9, 0.9])
    one = _run(1, [0, -0.5, -0.9, -1.2, -1.3, -1.4], [3, 2.7, 2.5, 2.4, 2.3, 2.3],
               [0.1, 0.2, 0.25, 0.3, 0.3, 0.3])
    return TrainingSnapshot("roles", 50, 50, 0, 1, (two, one), done=True)


def test_the_plot_draws_what_the_engine_computed(training_tab, snapshot):
    training_tab.state.set_training(TrainingSettings("roles", {}))
    assert training_tab.right.currentWidget() is training_tab.icl
    assert names.TRAIN_ICL in training_tab.exportable()
    plot = training_tab.icl
    plot.update_results(snapshot)
    for run in snapshot.runs:
        layers = run.label["layers"]
        for key in ("loss", "icl_score"):
            x, y = plot.curves[layers, key].getData()
            np.testing.assert_array_equal(x, STEPS)
            np.testing.assert_array_equal(y, getattr(run.curve, key).astype(np.float64))
    two = phase_change(STEPS, *(getattr(snapshot.runs[0].curve, k)
                                for k in ("icl_score", "loss", "induction_max")),
                       INDUCTION_THRESHOLD)
    assert plot.lines[2, "icl_score"].isVisible() and plot.lines[2, "loss"].value() == 20
    assert not plot.lines[1, "icl_score"].isVisible()      # the control forms none
    x, y = plot.marks[2, "loss"].getData()
    np.testing.assert_array_equal(x, [two.drop_from, two.drop_to])
    np.testing.assert_allclose(y, [two.loss_before, two.loss_after])
    text = plot.info.text
    assert change_text(2, two) in text and "20" in text and "no induction head" in text


def test_the_sentence_in_japanese(training_tab, snapshot):
    from gui.common.i18n import set_language
    plot = training_tab.icl
    try:
        set_language("ja")
        plot.retranslate()
        plot.update_results(snapshot)
        assert "インダクションヘッド" in plot.info.text
    finally:
        set_language("en")
        plot.retranslate()


def test_roles_curves_are_grouped_by_depth():
    snaps = []
    run_experiment("roles", RolesConfig(steps=10, log_every=5, snapshot_every=5, eval_size=8),
                   on_snapshot=snaps.append)
    groups = group_runs(snaps[-1], "averaging")
    assert sorted(groups) == [(1,), (2,)]
    assert all(len(runs) == 1 for runs in groups.values())
