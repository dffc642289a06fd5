"""An axis's name never lies on its tick labels (the bottom-tabs readability test failed in
Japanese at 300 %: '除去したヘッドの割合' on '0.4', 'ステップ' on '0.2').

pyqtgraph makes an axis as tall as its tick labels plus 0.8 of its name's box, so a name
runs 0.2 × its box − 9 px into the ticks: 2 px for a 55 px box (300 % text), 4 px where
the name's font has taller lines than the ticks' (Japanese drawn with a system CJK font:
the outcome then depended on whether an earlier test of the process had installed the
bundled font). The training plots size their axes from the name's own box; checked here
at 300 % with the names in the tick font and in a font with NAME_LINE_RATIO taller lines."""
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication

from gui.common.style import make_theme
from gui.panels.heads_vs_h import HeadsVsH
from gui.panels.icl_plot import IclPlot
from gui.panels.pruning_plot import PruningPlot
from gui.panels.training_curves import TrainingCurves
from gui_helpers import _document_rect, _tick_texts, settle_layout
from small_runs import finished_run

#: Noto Sans CJK JP's line (1.448 em) over DejaVu Sans's (1.164 em): a Japanese axis name
#: drawn with it has lines this much taller than the tick labels' at the same size.
NAME_LINE_RATIO = 1.448 / 1.164
#: Overlap allowed between two line boxes: none beyond rounding.
ROUNDING_PX = 0.5

PANELS = {"trainIclPlot": (IclPlot, "roles", 0), "trainPruningPlot": (PruningPlot, "heads", 1),
          "trainLossPlot": (TrainingCurves, "roles", 0), "trainHeadsChart": (HeadsVsH, "heads", 0)}


def names_on_ticks(panel) -> list:
    """(name, tick label, overlap) of every axis name that overlaps one of its own axis's
    tick labels, in the viewport's pixels."""
    to_view = panel.viewportTransform()
    found = []
    for axis in panel.scene().items():
        if not (isinstance(axis, pg.AxisItem) and axis.isVisible() and axis.labelText
                and axis.label.isVisible()):
            continue
        name = axis.label.deviceTransform(to_view).mapRect(_document_rect(axis.label))
        for text, rect in _tick_texts(axis):
            overlap = name.intersected(axis.deviceTransform(to_view).mapRect(rect))
            if overlap.width() > ROUNDING_PX and overlap.height() > ROUNDING_PX:
                found.append((axis.labelText, text, overlap.size().toTuple()))
    return found


@pytest.mark.parametrize("ratio", [1.0, NAME_LINE_RATIO], ids=["tick font", "taller lines"])
@pytest.mark.parametrize("name", sorted(PANELS))
def test_axis_names_lie_below_and_beside_their_ticks(qtbot, name, ratio):
    make, experiment, which = PANELS[name]
    panel = make()
    qtbot.addWidget(panel)
    panel.resize(900, 520)
    panel.show()
    panel.apply_theme(make_theme(False, False, 3.0))
    panel.update_results(finished_run(experiment)[which])
    for axis in panel.scene().items():
        if isinstance(axis, pg.AxisItem):
            font = axis.label.font()
            font.setPointSizeF(font.pointSizeF() * ratio)
            axis.label.setFont(font)
    panel.retranslate()              # the names again, as after a language change
    for _ in range(3):
        settle_layout([panel])
        QApplication.processEvents()
    assert not names_on_ticks(panel)
