"""The objectNames of the panels: the one place they are spelled."""
SOFTMAX = "softmaxPlot"
VARIANCE = "variancePlot"
SATURATION = "saturationPlot"
MULTIHEAD = "multiheadView"
COST = "costPlot"
HEADS_PANEL = "headsPanel"      # the head-roles inputs and view
HEADS_VIEW = "headsView"        # the head-roles maps alone (exported, copied)
TRAINING_PANEL = "trainingPanel"  # the training lab: controls and its three plots
TRAIN_LOSS = "trainLossPlot"      # training curves (exported, copied)
TRAIN_HEADS = "trainHeadsView"    # the learned heads' maps (exported, copied)
TRAIN_VS_H = "trainHeadsChart"    # final quality against h beside the paper (exported, copied)

#: The rows of the panel area; a compact window shows one at a time.
TOP_ROW = (SOFTMAX, VARIANCE, SATURATION)
BOTTOM_ROW = (MULTIHEAD, HEADS_PANEL, COST)

#: File stem of each exportable panel (File → Export panel, `main.py export`).
EXPORT_STEMS = {SOFTMAX: "softmax", VARIANCE: "variance", SATURATION: "saturation",
                MULTIHEAD: "multihead", COST: "cost", HEADS_VIEW: "heads",
               TRAIN_LOSS: "training", TRAIN_HEADS: "training-heads",
               TRAIN_VS_H: "training-vs-h"}
