"""Michel et al. 2019's two pruning fractions (engine.training.pruning.PAPER_PRUNING: 20 % of a
WMT Transformer's heads, 40 % of BERT's) as dotted, labelled vertical lines on a plot whose x
axis is the fraction of heads removed; shared by the two pruning plots."""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt

from engine.training.pruning import PAPER_PRUNING

from gui.common.i18n import tr
from gui.common.style import pen


def paper_fractions() -> tuple[tuple[str, float], ...]:
    """(short name, fraction) of the paper's two models: (("WMT", 0.2), ("BERT", 0.4))."""
    return tuple((entry["short"], entry["fraction"]) for entry in PAPER_PRUNING)


class PaperLines:
    """One InfiniteLine per fraction on `plot`; label i at `positions[i]` of the view's height,
    placed by `anchors` (None: pyqtgraph's choice). `lines` in PAPER_PRUNING's order."""

    def __init__(self, plot: pg.PlotItem, positions: tuple[float, ...], anchors=None):
        self.lines = []
        for (_name, fraction), position in zip(paper_fractions(), positions):
            options = {"position": position}
            if anchors is not None:
                options["anchors"] = anchors
            line = pg.InfiniteLine(pos=fraction, angle=90, movable=False, label="",
                                   labelOpts=options)
            plot.addItem(line)
            self.lines.append(line)

    def restyle(self, theme) -> None:
        """Dotted lines in the foreground colour; labels that follow the text size."""
        for line in self.lines:
            line.setPen(pen(theme.foreground, theme, 0.6, Qt.PenStyle.DotLine))
            line.label.setColor(theme.foreground)
            font = line.label.textItem.font()
            font.setPointSizeF(theme.font_pt * 0.85)
            line.label.textItem.setFont(font)

    def retranslate(self) -> None:
        for line, (name, fraction) in zip(self.lines, paper_fractions()):
            line.label.setFormat(tr("{name}: {fraction:.0%}").format(name=name, fraction=fraction))
