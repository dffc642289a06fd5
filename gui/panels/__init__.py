"""The five live panels, each a pyqtgraph widget with a fixed objectName."""
from gui.panels.cost_plot import CostPlot
from gui.panels.multihead_view import MultiHeadView
from gui.panels.saturation_plot import SaturationPlot
from gui.panels.softmax_plot import SoftmaxPlot
from gui.panels.variance_plot import VariancePlot

PANEL_CLASSES = (SoftmaxPlot, VariancePlot, SaturationPlot, MultiHeadView, CostPlot)


def create_panels(parent=None) -> list:
    return [cls(parent) for cls in PANEL_CLASSES]


__all__ = ["CostPlot", "MultiHeadView", "SaturationPlot", "SoftmaxPlot", "VariancePlot",
           "PANEL_CLASSES", "create_panels"]
