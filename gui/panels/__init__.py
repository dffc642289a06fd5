"""The five live panels, each a pyqtgraph widget with a fixed objectName."""
from gui.panels.cost_panel import CostPanel
from gui.panels.multihead_view import MultiHeadView
from gui.panels.saturation_panel import SaturationPanel
from gui.panels.softmax_panel import SoftmaxPanel
from gui.panels.variance_panel import VariancePanel

PANEL_CLASSES = (SoftmaxPanel, VariancePanel, SaturationPanel, MultiHeadView, CostPanel)


def create_panels(parent=None) -> list:
    return [cls(parent) for cls in PANEL_CLASSES]


__all__ = ["CostPanel", "MultiHeadView", "SaturationPanel", "SoftmaxPanel", "VariancePanel",
           "PANEL_CLASSES", "create_panels"]
