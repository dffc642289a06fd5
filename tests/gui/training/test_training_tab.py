"""The Training tab (TrainingTab) on its own: options and their checks, the session, and how
snapshots are drawn (the maps at once, the curves at most every period, the quality chart
when a run finishes). The snapshots come from small runs in this process, handed to the tab
as its runner hands them on; runs in a child process are in test_training_runner.py."""
import numpy as np
import pytest
from PySide6.QtCore import QPointF

from engine.training import (EXPERIMENTS, HeadsConfig, RolesConfig, default_config,
                             run_experiment)
from gui.panels.training_plots import HeadsVsH
from gui.state import read_session, write_session
from gui.state.app_state import TrainingSettings
from gui.training.runner import config_from_options, options_from_config
from gui.training.tab import CURVES_PERIOD_S
from tab_fixtures import training_tab  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def roles_snapshots():
    """The snapshots of a 20-step roles run, every 5 steps (the last one done)."""
    snaps = []
    run_experiment("roles", RolesConfig(steps=20, log_every=5, snapshot_every=5, eval_size=16),
                   on_snapshot=snaps.append)
    return snaps


def test_options_round_trip_every_experiment():
    for name in EXPERIMENTS:
        config = default_config(name)
        options = options_from_config(config)
        assert all(v is None or isinstance(v, (bool, int, float, str)) for v in options.values())
        assert config_from_options(name, options) == config
    assert options_from_config(default_config("scaling"))["d_ks"] == "16,64,256,1024"
    assert config_from_options("scaling", {"scales": "false", "d_ks": "256"}).scales == (False,)


def test_invalid_options_are_said_and_start_nothing(training_tab):
    panel = training_tab
    assert not panel.start("heads", {"heads": "3", "d_model": 32})
    assert panel.message[0] == "invalid" and "divide" in panel.status.text()
    assert not panel.runner.is_running()


def test_session_keeps_experiment_and_options(training_tab, tmp_path):
    panel, state = training_tab, training_tab.state
    options = options_from_config(config_from_options("heads", {"heads": "1,4", "steps": 20}))
    state.set_training(TrainingSettings("heads", options))
    assert panel.combo.currentData() == "heads"
    path = tmp_path / "session.json"
    write_session(state.snapshot(), path)          # what File → Save session writes
    panel.combo.setCurrentIndex(panel.combo.findData("scaling"))
    assert state.training.experiment == "scaling"
    state.restore(read_session(path))
    assert state.training.experiment == "heads"
    assert state.training.option("heads") == "1,4"
    assert state.training.option("steps") == 20
    assert panel.combo.currentData() == "heads"


def test_the_verdict_comes_from_the_numbers():
    hurt = [(1, 0.2, 0.2, 0.2, 2.0, 32), (4, 0.9, 0.9, 0.9, 0.3, 8), (16, 0.5, 0.5, 0.5, 1.0, 2)]
    assert "Too many heads hurt" in HeadsVsH.verdict_text(hurt)
    fine = [(1, 0.2, 0.2, 0.2, 2.0, 32), (4, 0.9, 0.9, 0.9, 0.3, 8), (16, 0.9, 0.9, 0.9, 0.3, 2)]
    assert "did not hurt" in HeadsVsH.verdict_text(fine)


def test_the_chart_caption_gives_both_sides_of_table_3(training_tab):
    """The paper's gaps across h are small (perplexity and BLEU behind the best, computed from
    PAPER_TABLE3_A); the toy's h = 1 gap comes from the run and is built into the task. Not
    only the paper's best perplexity and the rise at h = 32."""
    from engine.training import PAPER_TABLE3_A
    from gui.common.i18n import set_language

    table = {r["heads"]: r for r in PAPER_TABLE3_A}
    best_ppl = min(r["ppl"] for r in PAPER_TABLE3_A)
    best_bleu = max(r["bleu"] for r in PAPER_TABLE3_A)
    one, most = table[1], table[max(table)]
    gaps = (f"{one['ppl'] - best_ppl:.2f}", f"{best_bleu - one['bleu']:.1f}",
            f"{most['ppl'] - best_ppl:.2f}", f"{best_bleu - most['bleu']:.1f}")
    assert gaps == ("0.38", "0.9", "0.10", "0.4")
    chart = training_tab.chart
    rows = [(1, 0.31, 0.3, 0.32, 1.5, 32), (4, 0.97, 0.96, 0.98, 0.1, 8),
            (16, 0.95, 0.94, 0.96, 0.2, 2)]
    verdict = HeadsVsH.verdict_text(rows)
    assert "The 66-point gap of h = 1 is built into the task" in verdict
    assert "one head cannot tell which item is which" in verdict
    assert "built into" not in HeadsVsH.verdict_text([(2, 0.5, 0.5, 0.5, 1.0, 16),
                                                      (4, 0.9, 0.9, 0.9, 0.3, 8)])
    try:
        for lang, words in (("en", ("small gaps across h", f"perplexity {best_ppl:.2f}",
                                    f"BLEU {best_bleu:.1f}",
                                    f"h = 1 is {gaps[0]} and {gaps[1]} behind",
                                    f"h = {max(table)} {gaps[2]} and {gaps[3]}")),
                            ("ja", ("h による差はわずか", f"h = 1 は {gaps[0]} と {gaps[1]}",
                                    f"h = {max(table)} は {gaps[2]} と {gaps[3]} 劣るだけ"))):
            set_language(lang)
            chart.retranslate()
            shown = chart.verdict.text
            for w in words:
                assert w in shown, (lang, w)
            assert "rises to" not in shown and "悪化します" not in shown
            if lang == "ja":
                assert "66 ポイントの差はタスクの作りによるもの" in HeadsVsH.verdict_text(rows)
    finally:
        set_language("en")
        chart.retranslate()


def test_curves_are_redrawn_at_most_every_period_maps_every_snapshot(training_tab, qtbot,
                                                                      roles_snapshots):
    panel, snaps = training_tab, roles_snapshots
    arrived = panel.runner.snapshot_ready          # what the runner emits for each snapshot
    first, second, third = snaps[0], snaps[1], snaps[2]
    arrived.emit(first)
    assert panel.curves.newest_results is first and panel.heads_view.newest_results is first
    arrived.emit(second)
    arrived.emit(third)                       # within the period: only the newest waits
    assert panel.curves.newest_results is first and panel.heads_view.newest_results is third
    qtbot.waitUntil(lambda: panel.curves.newest_results is third,
                    timeout=int(5000 * CURVES_PERIOD_S) + 1000)
    arrived.emit(snaps[-1])                   # the last snapshot of a run: drawn at once
    assert snaps[-1].done and panel.curves.newest_results is snaps[-1]


def test_the_curves_period_redraw_waits_while_the_simulation_works(training_tab, qtbot,
                                                                    roles_snapshots):
    """The curves' deferred redraw (the dearest part of a snapshot) never lands inside a
    change: it waits while the runner holds, and follows once the hold ends."""
    import time

    panel, snaps = training_tab, roles_snapshots
    runner = panel.runner
    runner.hold_s = 0.5                       # outlasts a slow first paint of the tab
    runner.snapshot_ready.emit(snaps[0])
    runner.snapshot_ready.emit(snaps[1])      # within the period: the redraw is deferred
    assert panel.curves.newest_results is snaps[0]
    deadline = time.perf_counter() + 3 * CURVES_PERIOD_S
    while time.perf_counter() < deadline:     # a drag: the runner holds all along
        runner.hold_snapshots()
        qtbot.wait(20)
        assert panel.curves.newest_results is snaps[0]
    qtbot.waitUntil(lambda: panel.curves.newest_results is snaps[1],
                    timeout=int(1000 * runner.hold_s) + 2000)


def test_the_quality_chart_is_redrawn_only_when_a_run_finishes(training_tab):
    snaps = []
    run_experiment("heads", HeadsConfig(heads=(1, 2), seeds=1, steps=20, log_every=5,
                                        snapshot_every=5, eval_size=32),
                   on_snapshot=snaps.append)
    chart = training_tab.chart
    drawn = []
    original = chart.acc.setData
    chart.acc.setData = lambda *a, **k: (drawn.append(a), original(*a, **k))
    for snapshot in snaps:
        chart.update_results(snapshot)
    finished = [sum(int(r.curve.steps[-1]) >= 20 for r in s.runs) for s in snaps]
    # one draw per distinct count of finished runs, however many snapshots came between
    assert len(drawn) == len(set(finished)) < len(snaps)
    x, y = chart.acc.getData()
    assert len(x) == 2 and np.allclose(2 ** x, [1, 2])
    chart.retranslate()                       # a new language: the verdict again
    chart.update_results(snaps[-1])
    assert len(drawn) == len(set(finished)) + 1


def test_a_band_is_one_closed_path_between_its_edges():
    from gui.panels.training_plots import band_path

    x = np.array([0.0, 1.0, 2.0])
    path = band_path(x, np.array([0.0, 0.5, 1.0]), np.array([1.0, 2.0, 3.0]))
    rect = path.boundingRect()
    assert (rect.left(), rect.right(), rect.top(), rect.bottom()) == (0.0, 2.0, 0.0, 3.0)
    assert path.contains(QPointF(1.0, 1.0)) and not path.contains(QPointF(1.0, 0.2))
    assert band_path(x[:1], x[:1], x[:1]).isEmpty()
