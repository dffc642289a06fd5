"""The training lab's plots, each drawn from engine.training Snapshots (replace-all: each one
is drawn as it is) and, at the end, the Result:

    TrainingCurves     `trainLossPlot`    loss, accuracy, attention entropy and log10 |∇W_Q|
                                          by step; mean over seeds with a min–max band per
                                          group (scaling: d_k × scaled/unscaled of one task;
                                          heads: h; roles: the model and its control)
    TrainingHeadsView  `trainHeadsView`   the learned heads' attention on the sample
                                          sequence, with their scores and role names
    HeadsVsH           `trainHeadsChart`  final accuracy and loss against h beside the
                                          paper's Table 3 (A) dev perplexity (heads only)

One module each (training_curves, training_heads, heads_vs_h) over training_common; this
module names them and what they share, for the tab and the other packages. Items are built
once per experiment shape and updated in place with setData / setImage. gui/training/tab.py
puts them in the Training tab with its controls.
"""
from __future__ import annotations

from gui.panels.heads_vs_h import H_PAD, HeadsVsH
from gui.panels.training_common import (LEGEND_COLUMNS, METRICS, SCALING_TASKS, SEQUENTIAL,
                                        SEQUENTIAL_RGBA, TEXT_PERIOD_S, TrainingPlotBase,
                                        band_item, band_path, experiment_names, fit_ticks,
                                        group_name, group_runs, heads_rgba, label_step,
                                        metric_titles, role_names, snapshot_keys, task_names)
from gui.panels.training_curves import TrainingCurves
from gui.panels.training_heads import TrainingHeadsView

__all__ = ["H_PAD", "HeadsVsH", "LEGEND_COLUMNS", "METRICS", "SCALING_TASKS", "SEQUENTIAL",
           "SEQUENTIAL_RGBA", "TEXT_PERIOD_S", "TrainingCurves", "TrainingHeadsView",
           "TrainingPlotBase", "band_item", "band_path", "experiment_names", "fit_ticks",
           "group_name", "group_runs", "heads_rgba", "label_step", "metric_titles",
           "role_names", "snapshot_keys", "task_names"]
