"""gui/panels/items.py: items that draw what pyqtgraph's would, painted by Qt."""
import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from gui.common.style import LIGHT, brush, pen
from gui.panels.items import BrushedBars, PathBars, PathLine


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


def pixels(image) -> np.ndarray:
    """(rows, cols, 4) channel values of a grab."""
    image = image.convertToFormat(image.Format.Format_ARGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return rows[:, :4 * image.width()].reshape(image.height(), image.width(), 4).astype(int)


def stacked_slices(h: int, with_pen: bool) -> dict:
    """The cost panel's third bar: h slices in two alternating shades, W_O on top."""
    shades = [brush("#7F7F7F", 230), brush("#BFBFBF", 230)]
    return dict(x=np.full(h + 1, 2.0), y0=np.arange(h + 1, dtype=float),
                height=np.append(np.ones(h), 2.5), width=0.6,
                brushes=[shades[i % 2] for i in range(h)] + [brush("#9467BD", 230)],
                pen=pen("#000000", LIGHT, 0.3) if with_pen else pg.mkPen(None))


def test_brushed_bars_draw_a_stack_of_shades_as_a_bar_graph_item_does(qtbot):
    """One path per distinct brush. Without a pen the pixels are BarGraphItem's; with one,
    they differ only on the rows of edges two slices share (each brush's path is painted
    whole, so a later slice's outline is redrawn over an earlier one's there)."""
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.setXRange(-0.6, 2.6, padding=0)
    plot.show()
    for h in (4, 7, 32):
        plot.setYRange(0, h + 3, padding=0)
        for with_pen in (True, False):
            opts = stacked_slices(h, with_pen)
            bars = BrushedBars(**opts)
            assert len(bars.layers) == 3
            got, expected = pixels(drawn(plot, bars)), pixels(drawn(plot, pg.BarGraphItem(**opts)))
            differ = np.flatnonzero(np.abs(got - expected).max(axis=(1, 2)))
            if not with_pen:
                assert differ.size == 0, (h, differ)
                continue
            vb = plot.getPlotItem().vb
            edges = [vb.mapViewToDevice(pg.Point(2.0, float(k))).y() for k in range(1, h + 1)]
            assert all(min(abs(row - e) for e in edges) <= 1.5 for row in differ), (h, differ)
    # new heights move the slices; the groups stay
    moved = dict(opts, y0=2 * np.arange(h + 1, dtype=float), height=np.append(np.full(h, 2.0), 1.0))
    bars.setOpts(y0=moved["y0"], height=moved["height"])
    assert np.array_equal(bars.opts["height"], moved["height"])
    assert drawn(plot, bars) == drawn(plot, pg.BarGraphItem(**moved))


def test_path_line_draws_the_pixels_of_a_plot_curve_item(qtbot, monkeypatch):
    """The cost panel's dashed no-W_O mark: the same pixels as pg.PlotCurveItem, with the
    app's antialiasing (gui/app.py turns it on before any plot is made; the view's own
    hints would leave the path aliased)."""
    from PySide6.QtCore import Qt

    monkeypatch.setitem(pg.CONFIG_OPTIONS, "antialias", True)
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.setXRange(-0.6, 2.6, padding=0)
    plot.setYRange(0, 7.3, padding=0)
    plot.show()
    line = PathLine(np.array([-0.42, 0.42]), np.zeros(2))
    assert line.antialias
    for y in (1.37, 5.0):
        dashed = pen("#000000", LIGHT, 1.2, Qt.PenStyle.DashLine)
        curve = pg.PlotCurveItem(x=np.array([-0.42, 0.42]), y=np.full(2, y))
        curve.setPen(dashed)
        line.setPen(dashed)
        line.setData(np.array([-0.42, 0.42]), np.full(2, y))
        assert np.array_equal(line.yData, np.full(2, y))
        assert drawn(plot, line) == drawn(plot, curve)
