"""The Real heads tab on a classroom projector (issue 31) and windowed at 1920 × 1080.

Presentation: the tab in a scroll area the size of the visible workspace the projector walk
measured (tests/gui/projector_walk.py) must not scroll, and must pass the walk's checks of a
lesson step's view: its data area (the union of its plots' view boxes, projector_walk.
data_rect) at least DATA_SHARE_H of the height and DATA_SHARE_W of the width, no text of
its plots overlapping another or leaving its view, no label or button cut. Its model is
a tiny BERT of MiniLM's shape (6 layers × 12 heads) on a sentence of 16 tokens, like the
lesson's."""
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication, QScrollArea

from gui.common import names
from gui.realheads.study import compute_in_process
from gui.realheads.tab import ModelHeadsTab
from gui.state import AppState
from gui_helpers import clipped_widgets, settle_layout_until_stable, text_problems, view_in_front
from projector_walk import DATA_SHARE_H, DATA_SHARE_W, data_rect
from tab_fixtures import dispose, in_thread_forward  # noqa: F401 (fixture)
from tiny_models import write_bert

#: Fourteen words and a full stop of the tiny BERT's vocabulary: with [CLS] and [SEP]
#: sixteen tokens, as the lesson's sentence has in MiniLM's.
SENTENCE = "the cat sat on the mat because the dog was tired and slept."
#: The visible workspace of the walk's step 8 at each text size, on 1280 × 720 and on
#: 1920 × 1080 (the lesson strip takes more of the screen at larger text).
WORKSPACES = {(1280, 1.0): (1256, 582), (1280, 2.0): (1256, 446), (1280, 3.0): (1256, 443),
              (1920, 1.0): (1896, 962), (1920, 2.0): (1896, 750), (1920, 3.0): (1896, 658)}


@pytest.fixture(scope="module")
def minilm_shaped(tmp_path_factory):
    """A tiny BERT of 6 layers × 12 heads (MiniLM's grid)."""
    folder = tmp_path_factory.mktemp("models") / "bert-6x12"
    return write_bert(folder, layers=6, heads=12, d_model=192,
                      plants={0: "previous", 1: "first", 2: "self"})


@pytest.fixture
def language(request):
    from gui.common.i18n import set_language

    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.fixture
def presented(qtbot, minilm_shaped, in_thread_forward):  # noqa: F811
    """presented(size, scale): the tab in presentation mode at `scale` text, in a scroll
    area of `size` as the window's workspace holds it, the application's font at the shown
    size as the window sets it; the model shown. Everything put back after the test."""
    app = QApplication.instance()
    base = app.font()
    made = []

    def present(size, scale):
        state = AppState()
        state.update_heads_input(sentence=SENTENCE)
        state.update_view(presentation=True, text_scale=scale)
        font = app.font()
        font.setPointSizeF(base.pointSizeF() * state.view.shown_scale)
        app.setFont(font)
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        area.resize(*size)
        tab = ModelHeadsTab(state, compute_fn=compute_in_process)
        area.setWidget(tab)
        made.append((area, tab))
        area.show()
        tab.add_model_folder(str(minilm_shaped))
        assert tab.wait_idle()
        QApplication.processEvents()
        assert tab.result is not None and tab.result.layers == 6 and tab.result.heads == 12
        assert len(tab.result.forward.tokens) == 16
        return area, tab

    yield present
    for area, tab in made:
        tab.shutdown()
        dispose(area)
    app.setFont(base)


def fit_problems(area, tab) -> list[str]:
    """What the projector walk would say of the tab in `area` (check_step's view checks)."""
    plots = [panel for panel in tab.panels if panel.isVisible()]
    settle_layout_until_stable(plots)
    problems = []
    for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
        if bar.maximum() > 0:
            problems.append(f"scrolls {bar.orientation().name}: {bar.maximum()} px")
    data = data_rect(tab)
    visible = area.viewport().rect()
    if data is None or data.height() < DATA_SHARE_H * visible.height() \
            or data.width() < DATA_SHARE_W * visible.width():
        problems.append(f"data area {data and data.size().toTuple()} in {visible.size().toTuple()}")
    tolerance = tab.state.view.shown_scale
    for plot in plots:
        problems += [f"{plot.objectName()}: {p}" for p in text_problems(plot, tolerance)]
    return problems + [f"cut: {p}" for p in clipped_widgets(tab)]


@pytest.mark.parametrize("language", ["en", "ja"], indirect=True)
@pytest.mark.parametrize("screen, scale", sorted(WORKSPACES))
def test_in_presentation_the_heads_fit_the_projector(presented, language, screen, scale):
    """The lesson's step 8: the tab was 1239 to 3884 px tall and scrolled; at 300 % on
    1280 × 720 its data area was 1109 × 177 of a 1256 × 443 workspace."""
    area, tab = presented(WORKSPACES[screen, scale], scale)
    assert tab.grid.isVisible() and tab.detail.isVisible()
    assert fit_problems(area, tab) == []


@pytest.mark.parametrize("language", ["en", "ja"], indirect=True)
def test_every_page_fits_at_300_percent_on_1280_by_720(presented, language):
    from gui.realheads.tab_layout import PAGES

    area, tab = presented(WORKSPACES[1280, 3.0], 3.0)
    found = {}
    for page in PAGES:
        tab.arrangement.show_page(page)
        QApplication.processEvents()
        problems = [p for p in fit_problems(area, tab) if not p.startswith("data area")]
        if problems:
            found[page] = problems
    assert found == {}


def test_leaving_presentation_shows_every_part_again(presented):
    area, tab = presented(WORKSPACES[1280, 1.0], 1.0)
    tab.arrangement.show_page("pruning")
    tab.state.update_view(presentation=False)
    QApplication.processEvents()
    parts = (tab.grid, tab.compare, tab.detail, tab.variance_plot, tab.text_scroll,
             tab.pruning_plot)
    assert all(part.isVisible() for part in parts)
    assert not tab.arrangement.page_bar.isVisible()


# -- the model and sentence row at the text size ----------------------------------------

@pytest.fixture
def no_minilm(tmp_path, monkeypatch):
    """An empty model cache: nothing to load (the row's font is what is tested)."""
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path / "cache"))


def test_the_model_row_follows_a_text_size_set_with_the_step(window, no_minilm, restore_view):
    """A text size and lesson step 8 in one turn (a session opened at 300 % on step 8,
    the walk's --scales 3): the step's highlight set a style sheet on the tab's page before
    the new application font reached it, and the page kept, for all it holds, the old
    size: the model and sentence row stayed at 100 % in a 300 % window."""
    from gui.lessons.steps import STEPS

    step = next(i for i, s in enumerate(STEPS) if s.panel == names.MODEL_HEADS)
    window.set_ui_scale(3.0)
    window.lesson.go_to(step)       # no event in between
    tab = view_in_front(window, names.MODEL_HEADS)
    QApplication.processEvents()
    size = QApplication.font().pointSizeF()
    row = (tab.model_label, tab.model_combo, tab.sentence_label, tab.sentence_edit,
           tab.message_label)
    assert [widget.font().pointSizeF() for widget in row] == [size] * len(row)


# -- windowed: the grid fills its panel ---------------------------------------------------

def test_windowed_at_1920_by_1080_the_grid_cells_are_at_least_24_px(window, minilm_shaped,
                                                                     in_thread_forward):  # noqa: F811
    """MiniLM's 72 heads took a third of the grid's panel, cells of 13 to 17 px, with the
    compared heads below the grid: beside it, the grid fills its panel. 24 px: issue 31's
    bound (grid_common.THUMB_MIN_PX, a 16-token map at 1.5 px a token)."""
    window.resize(1920, 1080)
    tab = view_in_front(window, names.MODEL_HEADS, idle=True)
    tab.add_model_folder(str(minilm_shaped))
    assert tab.wait_idle()
    QApplication.processEvents()
    settle_layout_until_stable([tab.grid, tab.compare])
    vb = tab.grid.plot.vb
    across = vb.mapViewToScene(QPointF(1, 0)).x() - vb.mapViewToScene(QPointF(0, 0)).x()
    down = vb.mapViewToScene(QPointF(0, 1)).y() - vb.mapViewToScene(QPointF(0, 0)).y()
    assert tab.grid.cells.shape == (6, 12)
    assert min(abs(across), abs(down)) >= 24
