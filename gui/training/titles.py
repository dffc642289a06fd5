"""The training lab's view titles by objectName, without importing the lab itself."""
from __future__ import annotations

from gui.common import names
from gui.common.i18n import tr


def training_titles() -> dict[str, str]:
    """The Training tab's and its plots' titles, in the current language."""
    return {names.TRAINING_PANEL: tr("Training"), names.TRAIN_LOSS: tr("Training curves"),
            names.TRAIN_HEADS: tr("Learned heads"), names.TRAIN_VS_H: tr("Quality vs h"),
            names.TRAIN_ICL: tr("In-context learning"),
            names.TRAIN_PRUNE: tr("Pruning heads")}
