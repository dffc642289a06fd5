"""gui/panels/items.py: items that draw what pyqtgraph's would, painted by Qt."""
import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from gui.common.style import LIGHT, brush, pen
from gui.panels.items import PathBars


def drawn(plot: pg.PlotWidget, item):
    plot.addItem(item)
    for _ in range(3):
        QApplication.processEvents()
    image = plot.grab().toImage()
    plot.removeItem(item)
    return image


def test_path_bars_draw_the_pixels_of_a_bar_graph_item(qtbot):
    """Stacked bars, a zero-height one and a negative one, with a pen and a translucent
    brush: the same pixels as pg.BarGraphItem given the same options."""
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.setXRange(-1, 3, padding=0)
    plot.setYRange(-2, 6, padding=0)
    plot.show()
    opts = dict(x=np.array([0.0, 1.0, 2.0]), y0=np.array([0.0, 1.5, 0.0]),
                height=np.array([1.5, 3.25, -1.0]), width=0.6,
                brush=brush("#0072B2", 200), pen=pen("#000000", LIGHT, 0.3))
    expected = drawn(plot, pg.BarGraphItem(**opts))
    bars = PathBars(**opts)
    assert drawn(plot, bars) == expected
    # new heights in place, as a panel sets them on every result
    moved = dict(opts, height=np.array([0.5, 4.0, 2.0]), y0=0.0)
    bars.setOpts(y0=0.0, height=moved["height"])
    assert drawn(plot, bars) == drawn(plot, pg.BarGraphItem(**moved))
    assert np.array_equal(bars.opts["height"], moved["height"])
