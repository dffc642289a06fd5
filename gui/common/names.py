"""The objectNames of the panels, and the translated names of head roles: the one place
each is spelled."""
from gui.common.i18n import tr

SOFTMAX = "softmaxPlot"
VARIANCE = "variancePlot"
SATURATION = "saturationPlot"
MULTIHEAD = "multiheadView"
COST = "costPlot"
HEADS_PANEL = "headsPanel"      # the head-roles inputs and view
HEADS_VIEW = "headsView"        # the head-roles maps alone (exported, copied)
MODEL_HEADS = "modelHeadsView"  # the "Real heads" tab (a pretrained model's heads)
HEAD_GRID = "headGrid"          # its layers × heads thumbnails
HEAD_DETAIL = "headDetail"      # its clicked head's map and line view
HEAD_COMPARE = "headCompareGrid"  # learned and hand-built heads beside the grid
MODEL_PRUNE = "modelPruningPlot"  # its model's sentence embedding as heads are pruned
TRAINING_PANEL = "trainingPanel"  # the training lab: controls and its three plots
TRAIN_LOSS = "trainLossPlot"      # training curves (exported, copied)
TRAIN_HEADS = "trainHeadsView"    # the learned heads' maps (exported, copied)
TRAIN_VS_H = "trainHeadsChart"    # final quality against h beside the paper (exported, copied)
TRAIN_ICL = "trainIclPlot"        # loss and ICL score of 2 layers and the 1-layer control
TRAIN_PRUNE = "trainPruningPlot"  # accuracy as heads are pruned (heads experiment)

#: The rows of the panel area; a compact window shows one at a time.
TOP_ROW = (SOFTMAX, VARIANCE, SATURATION)
BOTTOM_ROW = (MULTIHEAD, HEADS_PANEL, COST)

#: File stem of each exportable panel (File → Export panel, `main.py export`).
EXPORT_STEMS = {SOFTMAX: "softmax", VARIANCE: "variance", SATURATION: "saturation",
                MULTIHEAD: "multihead", COST: "cost", HEADS_VIEW: "heads",
                HEAD_GRID: "real_heads_grid", HEAD_DETAIL: "real_heads_head",
                HEAD_COMPARE: "real_heads_compare", MODEL_PRUNE: "real_heads_pruning",
                TRAIN_LOSS: "training", TRAIN_HEADS: "training-heads",
                TRAIN_VS_H: "training-vs-h", TRAIN_ICL: "training-icl",
                TRAIN_PRUNE: "training-pruning"}


def role_names() -> dict[str, str]:
    """Translated name of each detected role (engine.models.roles.ROLES)."""
    return {"previous": tr("previous token"), "next": tr("next token"), "self": tr("self"),
            "first": tr("first token"), "separator": tr("separator / punctuation"),
            "induction": tr("induction"), "broad": tr("broad"), "mixed": tr("mixed")}


def hand_rule_names() -> dict[str, str]:
    """Translated name of each hand-built head (engine.head_roles.ROLE_HEADS), as the
    head-roles tab names them."""
    return {"previous": tr("previous token"), "next": tr("next token"),
            "first": tr("first token"), "same_word": tr("same word"),
            "punct_to_all": tr("punctuation → whole sentence"),
            "pronoun_to_noun": tr("pronoun → nearest preceding noun")}
