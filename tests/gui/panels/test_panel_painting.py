"""A change of the controls paints each panel once: layouts, view transforms and axis
labels are settled before Qt paints (a second pass would double the cost of a drag), and
axis pictures shown again from the cache look as a fresh layout would. The tests share one
window, put back to its first state and size after each."""
from collections import Counter

import pytest

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QCheckBox, QSpinBox

import pyqtgraph as pg

from gui.panels import pg_compat

from gui_helpers import settle
from tab_fixtures import WINDOW_SIZE, module_window  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def first_state(module_window):
    return module_window.state.snapshot()


@pytest.fixture
def window(module_window, first_state):
    """The module's window; after the test its state (params, lock, view) and size as at
    first."""
    yield module_window
    module_window.state.restore(first_state)
    module_window.resize(*WINDOW_SIZE)
    settle(module_window)


class PaintCounter(QObject):
    def __init__(self, viewports):
        super().__init__()
        self.viewports = viewports
        self.counts = Counter()

    def eventFilter(self, obj, event):  # noqa: N802 (Qt naming)
        if event.type() == QEvent.Type.Paint and obj in self.viewports:
            self.counts[self.viewports[obj]] += 1
        return False


def test_each_change_paints_each_panel_once(window):
    window.resize(1600, 1000)
    settle(window)
    for _ in range(3):
        QApplication.processEvents()
    counter = PaintCounter({p.viewport(): name for name, p in window.panels.items()})
    QApplication.instance().installEventFilter(counter)
    try:
        dk_spin = window.findChild(QSpinBox, "dkSpin")
        heads_spin = window.findChild(QSpinBox, "headsSpin")
        lock = window.findChild(QCheckBox, "lockDModelCheck")
        # h = 1 at d_model 512 widens the variance axes (d_k = 512); 4096 unlocks and
        # rescales every axis; 100 moves d_model off the powers of two.
        changes = [(heads_spin, 1), (heads_spin, 64), (heads_spin, 8), (dk_spin, 4096),
                   (dk_spin, 100), (dk_spin, 64)]
        for spin, value in changes:
            if spin is heads_spin and not lock.isChecked():
                lock.setChecked(True)
                settle(window)
            counter.counts.clear()
            spin.setValue(value)
            settle(window)
            for _ in range(3):
                QApplication.processEvents()
            assert counter.counts, f"{spin.objectName()}={value} painted nothing"
            assert max(counter.counts.values()) == 1, (spin.objectName(), value, counter.counts)
    finally:
        QApplication.instance().removeEventFilter(counter)


def on_screen(window, panel) -> QImage:
    """What the window's backing store holds for `panel`'s viewport (offscreen: its image)."""
    viewport = panel.viewport()
    top = viewport.mapTo(window, viewport.rect().topLeft())
    shot = window.screen().grabWindow(window.winId(), top.x(), top.y(), viewport.width(),
                                      viewport.height())
    return shot.toImage()


def test_what_a_change_repaints_leaves_each_panel_as_a_fresh_rendering(window):
    """A panel that repaints only the rectangle around what changed (VIEWPORT_UPDATE) must
    leave nothing stale outside it: after each change, what is on screen equals the panel
    rendered anew. (The check sees stale pixels: with NoViewportUpdate it fails.)"""
    window.resize(1600, 1000)
    settle(window)
    spins = {name: window.findChild(QSpinBox, name)
             for name in ("dkSpin", "headsSpin", "keysSpin", "seedSpin", "samplesSpin")}
    changes = [("dkSpin", 128), ("dkSpin", 7), ("keysSpin", 6), ("dkSpin", 3000),
               ("seedSpin", 5), ("headsSpin", 4), ("keysSpin", 3), ("samplesSpin", 2000),
               ("dkSpin", 64)]
    for name, value in changes:
        spins[name].setValue(value)
        settle(window)
        for _ in range(3):
            QApplication.processEvents()
        for panel_name, panel in window.panels.items():
            if not panel.isVisible():
                continue
            fresh = panel.viewport().grab().toImage()
            shown = on_screen(window, panel).convertToFormat(fresh.format())
            assert shown == fresh, (name, value, panel_name)


def test_a_change_leaves_the_other_controls_unpainted(window):
    settle(window)
    for _ in range(3):
        QApplication.processEvents()
    names = ("temperatureSpin", "keysSpin", "samplesSpin", "seedSpin", "tokensSpin", "seqLenSpin")
    widgets = {window.findChild(QObject, name): name for name in names}
    counter = PaintCounter(widgets)
    for widget in widgets:
        widget.installEventFilter(counter)
    window.findChild(QSpinBox, "dkSpin").setValue(128)
    settle(window)
    for _ in range(3):
        QApplication.processEvents()
    assert window.model.params.dk == 128
    assert not counter.counts, counter.counts   # Qt repaints a spin box on every setValue


def test_compute_time_reaches_the_status_bar_within_a_quarter_second(window, qtbot):
    from PySide6.QtWidgets import QLabel

    label = window.findChild(QLabel, "computeLabel")
    window.findChild(QSpinBox, "dkSpin").setValue(96)
    settle(window)
    # The label is refreshed at most every 250 ms: wait for the newest compute time.
    qtbot.waitUntil(lambda: f"{1000 * window.model.last_compute_seconds:.1f} ms" in label.text(),
                    timeout=2000)


def picture_image(picture, size):
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    picture.play(painter)
    painter.end()
    return image


def pyqtgraph_paint(axis, size):
    """The axis as pyqtgraph's own AxisItem.paint draws it with no picture laid out."""
    kept = pg_compat.shown_axis_picture(axis)
    pg_compat.forget_axis_picture(axis)
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    pg.AxisItem.paint(axis, painter, None, None)
    painter.end()
    pg_compat.show_axis_picture(axis, kept)
    return image


def axes_of(panel) -> list:
    return [item for item in panel.scene().items() if isinstance(item, pg.AxisItem)]


def count_calls(monkeypatch, name: str, window) -> Counter:
    """Calls of pg_compat.`name`(axis, ...) from now on, by the axis's panel."""
    panels = {panel.scene(): panel_name for panel_name, panel in window.panels.items()}
    counts, function = Counter(), getattr(pg_compat, name)

    def counted(axis, *args):
        counts[panels.get(axis.scene())] += 1
        return function(axis, *args)

    monkeypatch.setattr(pg_compat, name, counted)
    return counts


def test_axes_shown_again_from_the_cache_match_a_fresh_layout(window, monkeypatch):
    """Plot.prepare_axes reuses an axis picture for a range, size and ticks it has shown
    before: after a round trip every axis must look as a fresh layout would draw it."""
    window.state.update_params(live_scores=False)
    window.resize(1600, 1000)
    settle(window)
    for _ in range(3):
        QApplication.processEvents()
    laid_out = count_calls(monkeypatch, "lay_out_axis", window)
    shown = count_calls(monkeypatch, "show_axis_picture", window)
    dk_spin = window.findChild(QSpinBox, "dkSpin")
    round_trip = (1024, 7, 300, 64)
    for dk in round_trip:          # axes reach their widest labels; every range is seen once
        dk_spin.setValue(dk)
        settle(window)
    assert laid_out["variancePlot"] > 0
    laid_out.clear()
    shown.clear()
    for dk in round_trip:
        dk_spin.setValue(dk)
        settle(window)
    # the second trip laid out nothing new: every picture shown came from the cache
    assert sum(laid_out.values()) == 0 and shown["variancePlot"] > 0
    for dk in round_trip:
        dk_spin.setValue(dk)
        settle(window)
        for panel in window.panels.values():
            panel.prepare_axes()
            for axis in axes_of(panel):
                if axis.isVisible():
                    size = axis.boundingRect().toAlignedRect().size()
                    picture = picture_image(axis.picture, size)
                    fresh = pyqtgraph_paint(axis, size)
                    assert picture == fresh, (dk, panel.objectName())


def test_tick_labels_that_return_with_d_k_are_not_laid_out_again(window, monkeypatch):
    """The softmax keys' tick labels carry the live scores, which change with d_k and are
    set as new lists: a picture is found again by the ticks' content, so a second trip
    through the same d_k lays out no axis of any panel, and each shows its own labels."""
    window.resize(1600, 1000)
    settle(window)
    laid_out = count_calls(monkeypatch, "lay_out_axis", window)
    dk_spin = window.findChild(QSpinBox, "dkSpin")
    round_trip = (1024, 7, 300, 64)
    for dk in round_trip:
        dk_spin.setValue(dk)
        settle(window)
    assert laid_out["softmaxPlot"] > 0
    laid_out.clear()
    softmax = window.panels["softmaxPlot"]
    axis = softmax.plot.getAxis("bottom")
    for dk in round_trip:
        dk_spin.setValue(dk)
        settle(window)
        size = axis.boundingRect().toAlignedRect().size()
        assert picture_image(axis.picture, size) == pyqtgraph_paint(axis, size), dk
    assert sum(laid_out.values()) == 0, laid_out


def test_pyqtgraph_versions_outside_the_known_range_fall_back():
    assert pg_compat.is_known("0.13.7") and pg_compat.is_known("0.14.0")
    assert pg_compat.is_known("0.14.3.dev0")
    assert not pg_compat.is_known("0.13.6") and not pg_compat.is_known("0.15.0")
    assert pg_compat.FAST == pg_compat.is_known(pg.__version__)


def test_unknown_pyqtgraph_lays_out_axes_itself(window, monkeypatch):
    """With FAST off the panels leave tick layout to pyqtgraph and still draw every axis."""
    monkeypatch.setattr(pg_compat, "FAST", False)
    laid_out = count_calls(monkeypatch, "lay_out_axis", window)
    window.findChild(QSpinBox, "dkSpin").setValue(300)
    settle(window)
    assert sum(laid_out.values()) == 0               # nothing laid out by the project
    for panel in window.panels.values():
        assert not panel.grab().isNull()         # pyqtgraph painted the axes itself
    axis = window.panels["variancePlot"].plot_raw.getAxis("bottom")
    assert pg_compat.shown_axis_picture(axis) is not None


def test_panels_keep_no_pixmap_of_their_background(make_panel):
    """A panel fills its one-colour background as it paints: no pixmap of the viewport's
    size is cached (a panel in a hidden tab would keep one of the size it was last painted
    at, a 4K window's or presentation mode's)."""
    from PySide6.QtWidgets import QGraphicsView

    import gui.common.names as names

    for name in (names.SOFTMAX, names.VARIANCE, names.SATURATION, names.MULTIHEAD, names.COST):
        panel = make_panel(name)
        assert panel.cacheMode() == QGraphicsView.CacheModeFlag.CacheNone, name


def test_panels_fill_their_background_once_per_paint(make_panel):
    """The view fills the viewport with the theme's opaque background; Qt does not fill
    it with the palette's window colour first. The corner shows the theme's colour."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor

    from gui.common.style import make_theme

    import gui.common.names as names

    for name in (names.SOFTMAX, names.VARIANCE, names.SATURATION, names.MULTIHEAD, names.COST):
        panel = make_panel(name)
        for dark in (False, True):
            theme = make_theme(dark)
            panel.apply_theme(theme)
            viewport = panel.viewport()
            assert viewport.testAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent), name
            assert not viewport.autoFillBackground(), name
            corner = viewport.grab().toImage().pixelColor(1, 1)
            assert corner == QColor(theme.background), (name, dark)


def test_legend_swatches_take_the_new_colours_of_a_theme(qtbot):
    """The legend's colour samples are painted from a cache; a new theme (dark, or the
    classic palette) paints them again in its colours."""
    from PySide6.QtGui import QColor

    from engine import Params, compute
    from gui.common.style import make_theme
    from gui.panels.softmax_plot import SoftmaxPlot

    plot = SoftmaxPlot()
    qtbot.addWidget(plot)
    plot.resize(500, 500)
    plot.show()
    plot.update_results(compute(Params()))
    sample = plot.legend.items[0][0]

    def swatch() -> QColor:
        QApplication.processEvents()
        image = plot.grab().toImage()
        centre = plot.mapFromScene(sample.sceneBoundingRect().center())
        return image.pixelColor(centre)

    for theme in (make_theme(dark=True), make_theme()):
        plot.apply_theme(theme)
        seen, wanted = swatch(), QColor(theme.unscaled)
        assert max(abs(seen.red() - wanted.red()), abs(seen.green() - wanted.green()),
                   abs(seen.blue() - wanted.blue())) < 60, (theme.name, seen.name(), wanted.name())


def test_no_view_box_builds_a_context_menu(module_window):
    """No panel offers a ViewBox menu, and building one costs a few milliseconds of start-up
    each: Plot.addPlot/addViewBox ask for none (pyqtgraph's GraphicsLayoutWidget had hidden
    them behind its own, bound to the instance)."""
    boxes = [item for panel in module_window.panels.values() for item in panel.scene().items()
             if isinstance(item, pg.ViewBox)]
    assert len(boxes) >= 8
    assert all(box.menu is None for box in boxes)
