"""Small runs of the three training experiments, in this process, for the tests that draw
a finished run: each experiment's last snapshot and result, computed once per session."""
from __future__ import annotations

import functools

from engine.training import HeadsConfig, RolesConfig, ScalingConfig, run_experiment

#: Seconds, not minutes: few steps, small evaluation batches. The scaling run has two d_k
#: (two shades of each colour) and both scales.
CONFIGS = {
    "scaling": ScalingConfig(tasks=("averaging",), d_ks=(16, 256), seeds=2, steps=20,
                             log_every=5, snapshot_every=10, eval_size=32),
    "roles": RolesConfig(steps=40, log_every=5, snapshot_every=20, eval_size=16),
    "heads": HeadsConfig(heads=(1, 2, 4, 8, 16), seeds=1, steps=20, log_every=5,
                         snapshot_every=10, eval_size=32),
}


@functools.lru_cache(maxsize=None)
def finished_run(experiment: str):
    """(last snapshot, result) of a small run of `experiment`."""
    snapshots = []
    result = run_experiment(experiment, CONFIGS[experiment], on_snapshot=snapshots.append)
    return snapshots[-1], result


def show_run(tab, experiment: str) -> None:
    """Give `tab` (a TrainingTab set to `experiment`) the run as its runner would."""
    snapshot, result = finished_run(experiment)
    tab._on_snapshot(snapshot)
    tab._on_result(result)
    for plot in tab.plots:
        plot.catch_up()
