"""The Scaling panels in a projector's room (issue 31): in a short, wide room their legends
and statistics go beside the data (Plot.fit_room / arrange), never on it; in a tall room
they are where they were. Switching to and fro leaves every item in the layout, reports no
exception, and each arrangement lays its texts out without overlaps."""
import pytest
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication, QScrollArea

from engine import Params, compute
from gui.common import names
from gui.common.guard import errors
from gui.common.style import make_theme
from gui.panels import SaturationPlot, SoftmaxPlot, VariancePlot
from gui_helpers import settle_layout_until_stable, text_problems
from tab_fixtures import dispose

PANELS = {names.SOFTMAX: SoftmaxPlot, names.VARIANCE: VariancePlot,
          names.SATURATION: SaturationPlot}
#: A projector's visible workspace at 300 % on 1280×720, and a portrait room for 300 % text.
WIDE_ROOM, TALL_ROOM = (1266, 440), (1000, 1300)


@pytest.fixture
def room(qtbot):
    """room(name) → (the panel in a scroll area as the workspace holds it, the area)."""
    made = []
    reported = []
    errors.reported.connect(reported.append)

    def make(name):
        panel = PANELS[name]()
        panel.apply_theme(make_theme(presentation=True, ui_scale=3.0))
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setWidget(panel)
        made.append(area)
        area.resize(*TALL_ROOM)
        area.show()
        panel.update_results(compute(Params(live_scores=True)))
        return panel, area

    yield make
    errors.reported.disconnect(reported.append)
    for area in made:
        dispose(area)
    assert reported == []


def show_in(panel, area, size) -> None:
    area.resize(*size)
    for _ in range(4):
        QApplication.processEvents()
    settle_layout_until_stable([panel])


def data_boxes(panel) -> list[QRectF]:
    to_view = panel.viewportTransform()
    return [item.deviceTransform(to_view).mapRect(item.boundingRect())
            for item in panel.scene().items() if isinstance(item, pg.ViewBox)
            and item.isVisible()]


@pytest.mark.parametrize("name", sorted(PANELS))
def test_a_wide_room_puts_the_texts_beside_the_data(room, name):
    panel, area = room(name)
    show_in(panel, area, TALL_ROOM)
    assert not panel.wide
    tall_items = set(panel.ci.items)
    show_in(panel, area, WIDE_ROOM)
    assert panel.wide
    assert set(panel.ci.items) >= tall_items - {getattr(panel, "footnote", None)}
    # nothing to scroll: the panel fits the room it is offered
    assert area.verticalScrollBar().maximum() == 0
    assert text_problems(panel, tolerance=3.0) == []
    boxes = data_boxes(panel)
    union = QRectF()
    for box in boxes:
        union = union.united(box)
    assert union.height() >= 0.4 * WIDE_ROOM[1] and union.width() >= 0.5 * WIDE_ROOM[0]
    for overlay, _vb, _corner in panel._overlays:        # statistics: hidden, or off the data
        if overlay.isVisible():
            rect = overlay.deviceTransform(panel.viewportTransform()).mapRect(
                overlay.boundingRect())
            assert not any(rect.intersects(box) for box in boxes)
    show_in(panel, area, TALL_ROOM)                      # and back, as it was
    assert not panel.wide
    assert set(panel.ci.items) == tall_items
    assert text_problems(panel, tolerance=3.0) == []


def test_a_narrow_wide_room_keeps_the_tall_arrangement(room):
    """A room wide for its height but narrow for its text (a laptop at 300 %) keeps the
    texts above the data: side by side, the plots would squeeze their labels together."""
    panel, area = room(names.VARIANCE)
    show_in(panel, area, (750, 338))
    assert not panel.wide
